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
    $('pdn-games').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-index]');
      if (b && this.games) this.loadGame(Number(b.dataset.index));
    });
    on('fen-set', () => this.setFen($('fen-text').value.trim()));
    $('pdn-file').addEventListener('change', async (e) => {
      const file = e.target.files[0];
      e.target.value = '';
      if (file) this.load(await file.text(), file.name);
    });
  }

  /* The game as PDN: its tags, the whole tree (side lines in
   * parentheses) and the review's notes. */
  text() {
    const app = this.app;
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
    const own = app.gameTags || {}; /* a game loaded from a file keeps its own names */
    const over = app.rules && app.atEnd ? app.rules : app.ending;
    const result = app.atEnd && over && app.tree.isMain(app.line) ? over.result : own.Result || '*';
    const human = 'You';
    const tags = [
      ['Event', own.Event || 'poolshark web game'],
      ['Date', own.Date || date],
      ['Black', own.Black || (app.player === 'B' ? human : 'poolshark')],
      ['White', own.White || (app.player === 'W' ? human : 'poolshark')],
      ['Result', result],
      ['GameType', $('variant').selectedOptions[0].dataset.gameType],
    ];
    for (const name of ['Site', 'Round']) if (own[name]) tags.splice(2, 0, [name, own[name]]);
    if (app.lineStart !== app.startFen) tags.push(['SetUp', '1'], ['FEN', app.lineStart]);
    const reviewed = this.reviewed();
    if (reviewed) tags.push(['Annotator', `poolshark review, ${REVIEW_BUDGETS[$('review-budget').value]} nodes a position; scores from White's view`]);
    return pdnWriteTree(tags, app.tree.root, app.lineStart[0], result, app.first, (n) => (n.review ? reviewNote(n.review) : null));
  }

  /* Whether any move of the tree carries a review. */
  reviewed() {
    const any = (n) => !!n.review || n.children.some(any);
    return any(this.app.tree.root);
  }

  save() {
    const app = this.app;
    const link = element('a', { href: URL.createObjectURL(new Blob([this.text()], { type: 'application/x-pdn' })), download: 'poolshark-game.pdn' });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    const sides = app.tree.leaves().length - 1;
    app.say(`Saved poolshark-game.pdn${sides ? ` with ${sides} side line${sides === 1 ? '' : 's'}` : ''}${this.reviewed() ? ' with the review' : ''}.`);
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
    $('pdn-games').replaceChildren(...games.map((g, i) => element('button', { type: 'button', className: 'pdn-game', textContent: pdnGameTitle(g, i), data: { index: i } })));
    const prompt = `${name || 'The PDN'} holds ${games.length} games: choose one.`;
    $('pdn-prompt').textContent = prompt;
    this.app.say(prompt);
    $('pdn-choice').scrollIntoView({ block: 'nearest' });
    $('pdn-games').querySelector('button').focus({ preventScroll: true });
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
    const checked = await this.checkLines(game.tree, from);
    if (checked.problem) {
      const { problem, leaf, main } = checked;
      const m = /^move (\d+) in moves: (.*)$/.exec(problem);
      let text = `${where}, line ${game.line}: ${problem}.`;
      if (m) {
        const ply = Number(m[1]) - 1;
        const side = game.tags.FEN ? game.tags.FEN.trim()[0].toUpperCase() : app.first;
        const { number, lead } = pdnMoveNumber(ply, side, app.first);
        text = `${where}, ${main ? '' : 'a side line, '}move ${number}${lead ? '.' : '...'} ${leaf.moves[ply]} (line ${leaf.lines[ply]}): ${m[2]}.`;
      }
      if (switched) await app.changeVariant(before);
      await app.setUp(); /* the game as it was */
      await app.refresh();
      app.error(text);
      return;
    }
    app.treePanel.keep();
    $('pdn-choice').hidden = true;
    const sides = checked.lines.length - 1;
    await app.engine.request(['new-game', `pos ${from} moves=${hubQuote(checked.lines[0].join(' '))}`]);
    await app.playSetUp((you) => `Loaded ${game.moves.length} moves${sides ? ` and ${sides} side line${sides === 1 ? '' : 's'}` : ''}` +
      `${name ? ' from ' + name : ''}${games.length > 1 ? ` (game ${index + 1} of ${games.length})` : ''}; ${you}.`,
    { tags: game.tags, lines: checked.lines, analyse: true });
  }

  /* Has the engine play every line of a tree pdnReadGame read, from `from`
   * (a `pos` argument): {lines} (each line as the engine writes its
   * moves, the main line first), or {problem, leaf: {moves, lines}, main}
   * for the first line it refuses. */
  async checkLines(tree, from) {
    const leaves = [];
    const walk = (node, moves, lines) => {
      if (!node.children.length) leaves.push({ moves, lines });
      for (const c of node.children) walk(c, moves.concat(c.move), lines.concat(c.line));
    };
    walk(tree, [], []);
    const out = [];
    for (const [k, leaf] of leaves.entries()) {
      const reply = await this.app.engine.request([`pos ${from} moves=${hubQuote(leaf.moves.join(' '))}`, 'game']);
      const problem = hubError(reply);
      if (problem) return { problem, leaf, main: k === 0 };
      const game = hubReplies(reply, 'game')[0].values;
      out.push(game.moves ? game.moves.split(' ') : []);
    }
    return { lines: out };
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
    app.treePanel.keep();
    await app.engine.request(['new-game', `pos fen=${hubQuote(fen)}`]);
    await app.playSetUp((you) => `Position set; ${you}.`);
    return true;
  }

  /* The players, event, date and result of a game loaded from PDN. */
  drawGameInfo() {
    const t = this.app.gameTags;
    const box = $('game-info');
    const known = (v) => v && v !== '?' && v !== '-';
    box.hidden = !t || !['White', 'Black', 'Event', 'Date'].some((k) => known(t[k]));
    if (box.hidden) return;
    const players = known(t.White) || known(t.Black)
      ? `${known(t.White) ? t.White : '?'} (White) – ${known(t.Black) ? t.Black : '?'} (Black)` : '';
    const rest = [t.Event, t.Site, t.Round && `round ${t.Round}`, t.Date, t.Result].filter(known).join(' · ');
    const parts = [];
    if (players) parts.push(element('span', { className: 'players', textContent: players }));
    if (rest) parts.push((players ? ' · ' : '') + rest);
    box.replaceChildren(...parts);
  }
}
