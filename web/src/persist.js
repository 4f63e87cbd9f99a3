// SPDX-License-Identifier: GPL-3.0-or-later
// What survives a reload: the settings and the game shown, saved after every change and put back at the start.
'use strict';

/* The controls whose values are settings, by the name they are saved under. */
const SETTING_FIELDS = {
  strength: 'strength', movetime: 'movetime', scoreView: 'score-view', clockBase: 'clock-base',
  clockInc: 'clock-inc', reviewBudget: 'review-budget',
};
const SETTING_CHECKS = { numbers: 'numbers', clockOn: 'clock-on' };

class Persistence {
  /* app: the page's controller; storage: localStorage, or null (`?nostore`). */
  constructor(app, storage) {
    this.app = app;
    this.storage = storage;
    for (const id of Object.values(SETTING_FIELDS)) if (id !== 'score-view') $(id).addEventListener('change', () => this.save());
  }

  settings() {
    const out = { variant: this.app.variant };
    for (const [name, id] of Object.entries(SETTING_FIELDS)) out[name] = $(id).value;
    for (const [name, id] of Object.entries(SETTING_CHECKS)) out[name] = $(id).checked;
    return out;
  }

  /* The game as saved: enough for restoreGame() to put it back. */
  game() {
    const app = this.app;
    const review = app.review.map((e) => Object.assign({}, e, { mark: e.mark ? e.mark.name : null }));
    return {
      variant: app.variant, start: app.lineStart, line: app.line, view: app.view, player: app.player,
      ending: app.ending, review, evals: app.evals, clock: app.clocks.save(),
      analysing: app.analysis.on, flipped: app.board.flipped, tags: app.gameTags,
    };
  }

  save() {
    if (!this.storage || document.body.dataset.ready !== 'true') return;
    storageSave(this.storage, this.settings(), this.game());
  }

  /* Puts back the settings and the game of the last visit; a saved game the
   * engine refuses is dropped with a message. */
  async restore() {
    const saved = storageLoad(this.storage);
    if (!saved) return;
    const s = saved.settings || {};
    for (const [name, id] of Object.entries(SETTING_FIELDS)) if (s[name] !== undefined && s[name] !== null) $(id).value = s[name];
    for (const [name, id] of Object.entries(SETTING_CHECKS)) $(id).checked = !!s[name];
    $('strength-value').textContent = $('strength').value;
    this.app.board.setNumbers(!!s.numbers);
    const g = saved.game;
    if (!g || !Array.isArray(g.line) || typeof g.start !== 'string') {
      if (s.variant && s.variant !== this.app.variant && (await this.app.changeVariant(s.variant))) await this.app.refresh(true);
      return;
    }
    if (await this.restoreGame(g)) {
      const n = this.app.line.length;
      this.app.say(`Restored the game of your last visit: ${n} move${n === 1 ? '' : 's'}, you play ${colourName(this.app.player)}.`);
    }
  }

  /* Puts back a game as game() gave it; false (and a new game) when the
   * engine refuses it. */
  async restoreGame(g) {
    const app = this.app;
    if (g.variant !== app.variant && !(await app.changeVariant(g.variant))) return false;
    const view = Math.max(0, Math.min(g.line.length, Number(g.view) || 0));
    const reply = await app.engine.request([`pos fen=${hubQuote(g.start)} moves=${hubQuote(g.line.join(' '))}`]);
    const problem = hubError(reply);
    if (problem) {
      app.error(`The saved game could not be restored (${problem}); a new game instead.`);
      await app.engine.request(['pos start']);
      await app.refresh(true);
      return false;
    }
    await app.refresh(true);
    app.player = g.player === 'W' ? 'W' : 'B';
    app.ending = g.ending || null;
    app.review = (g.review || []).slice(0, app.line.length).map((e) => Object.assign(e, { mark: REVIEW_MARKS.find((m) => m.name === e.mark) || null }));
    app.evals = g.evals || {};
    app.gameTags = g.tags || null;
    app.board.setFlipped(g.flipped === undefined ? app.player === 'B' : !!g.flipped);
    app.clocks.restore(g.clock);
    if (view < app.line.length) await app.engine.request([`pos fen=${hubQuote(g.start)} moves=${hubQuote(g.line.slice(0, view).join(' '))}`]);
    await app.refresh();
    if (g.analysing) app.analysis.setOn(true);
    app.clocks.start();
    return true;
  }
}
