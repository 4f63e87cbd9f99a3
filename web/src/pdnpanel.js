// SPDX-License-Identifier: GPL-3.0-or-later
// The PDN and FEN panel: save the game as PDN, load a PDN file or pasted text (a chooser for several games), set a FEN.
'use strict';

class PdnPanel {
  /* app: the page's controller. */
  constructor(app) {
    this.app = app;
    this.games = null; /* {games, name}: the PDN read last */
    const on = (id, f) => $(id).addEventListener('click', f);
    on('pdn-save', () => this.save());
    on('pdn-load', () => this.load($('pdn-text').value));
    on('pdn-choose', () => this.choose());
    on('fen-set', () => this.setFen($('fen-text').value.trim()));
    $('pdn-file').addEventListener('change', async (e) => {
      const file = e.target.files[0];
      e.target.value = '';
      if (file) this.load(await file.text(), file.name);
    });
  }

  save() {
    const app = this.app;
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
    const over = app.rules && app.atEnd ? app.rules : app.ending;
    const result = app.atEnd && over ? over.result : '*';
    const human = 'You';
    /* A game loaded from a file keeps its own names. */
    const own = app.gameTags || {};
    const tags = [
      ['Event', own.Event || 'poolshark web game'],
      ['Date', own.Date || date],
      ['Black', own.Black || (app.player === 'B' ? human : 'poolshark')],
      ['White', own.White || (app.player === 'W' ? human : 'poolshark')],
      ['Result', result],
      ['GameType', $('variant').selectedOptions[0].dataset.gameType],
    ];
    if (app.lineStart !== app.startFen) tags.push(['SetUp', '1'], ['FEN', app.lineStart]);
    if (app.review.length) tags.push(['Annotator', `poolshark review, ${REVIEW_BUDGETS[$('review-budget').value]} nodes a position; scores from White's view`]);
    const notes = app.review.map(reviewNote);
    const text = pdnWrite(tags, app.line, app.lineStart[0], result, app.first, notes);
    const link = element('a', { href: URL.createObjectURL(new Blob([text], { type: 'application/x-pdn' })), download: 'poolshark-game.pdn' });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    app.say(`Saved poolshark-game.pdn${app.review.length ? ' with the review' : ''}.`);
  }

  /* Reads a PDN text; one game loads at once, several are offered in a list. */
  load(text, name) {
    const where = name ? ` in ${name}` : '';
    let games;
    try {
      games = pdnReadAll(text);
    } catch (e) {
      this.app.error(`Bad PDN${where}: ${e.message}.`);
      return;
    }
    this.games = { games, name };
    $('pdn-choice').hidden = games.length < 2;
    if (games.length === 1) return this.loadGame(0);
    $('pdn-games').replaceChildren(...games.map((g, i) => element('option', { value: i, textContent: pdnGameTitle(g, i) })));
    this.app.say(`${name || 'The PDN'} holds ${games.length} games: choose one below and press "Load this game".`);
    $('pdn-games').focus();
  }

  choose() {
    if (this.games) this.loadGame(Number($('pdn-games').value));
  }

  /* Loads game `index` of the PDN read last. A damaged game or one the
   * engine refuses leaves the current game as it was, and the message says
   * which game, move and line. */
  async loadGame(index) {
    const app = this.app;
    const { games, name } = this.games;
    const game = games[index];
    const where = `Bad PDN${name ? ' in ' + name : ''}, game ${index + 1}`;
    if (game.error) {
      const at = game.error.move ? `move ${game.error.move}, ` : '';
      app.error(`${where}, ${at}line ${game.error.line}: ${game.error.message}.`);
      return;
    }
    const type = game.tags.GameType ? game.tags.GameType.split(',')[0].trim() : '23';
    const option = [...$('variant').options].find((o) => o.dataset.gameType === type);
    if (!option) {
      app.error(`${where}, line ${game.line}: GameType ${type} is not a variant poolshark plays.`);
      return;
    }
    await app.reviews.cancel();
    await app.interrupt();
    const before = app.variant;
    const switched = option.value !== app.variant;
    if (switched && !(await app.changeVariant(option.value))) return;
    const from = game.tags.FEN ? `fen=${hubQuote(game.tags.FEN)}` : 'start';
    const reply = await app.engine.request([`pos ${from} moves=${hubQuote(game.moves.join(' '))}`]);
    const problem = hubError(reply);
    if (problem) {
      const m = /^move (\d+) in moves: (.*)$/.exec(problem);
      let text = `${where}, line ${game.line}: ${problem}.`;
      if (m) {
        const ply = Number(m[1]) - 1;
        const side = game.tags.FEN ? game.tags.FEN.trim()[0].toUpperCase() : app.first;
        const { number, lead } = pdnMoveNumber(ply, side, app.first);
        text = `${where}, move ${number}${lead ? '.' : '...'} ${game.moves[ply]} (line ${game.lines[ply]}): ${m[2]}.`;
      }
      if (switched) await app.changeVariant(before);
      await app.setUp(); /* the game as it was */
      await app.refresh();
      app.error(text);
      return;
    }
    $('pdn-choice').hidden = true;
    await app.playSetUp((you) => `Loaded ${game.moves.length} moves${name ? ' from ' + name : ''}${games.length > 1 ? ` (game ${index + 1} of ${games.length})` : ''}; ${you}.`, game.tags);
  }

  /* Sets up a position given as a FEN; the engine checks it. */
  async setFen(fen) {
    const app = this.app;
    if (!fen) {
      app.error('Paste a FEN first, e.g. W:W18:B7,15,16,23,24.');
      return false;
    }
    await app.reviews.cancel();
    await app.interrupt();
    const reply = await app.engine.request([`pos fen=${hubQuote(fen)}`]);
    const problem = hubError(reply);
    if (problem) {
      app.error(`Bad FEN: ${problem}.`);
      await app.setUp();
      return false;
    }
    await app.engine.request(['new-game', `pos fen=${hubQuote(fen)}`]);
    await app.playSetUp((you) => `Position set; ${you}.`);
    return true;
  }
}
