// SPDX-License-Identifier: GPL-3.0-or-later
// What survives a reload: the settings and the game shown, saved after every change and put back at the start.
'use strict';

/* The controls whose values are settings, by the name they are saved under. */
const SETTING_FIELDS = {
  strength: 'strength', movetime: 'movetime', scoreView: 'score-view', clockBase: 'clock-base',
  clockInc: 'clock-inc', reviewBudget: 'review-budget', multipv: 'multipv',
};
const SETTING_CHECKS = { numbers: 'numbers', clockOn: 'clock-on', hideThinking: 'hide-thinking', sounds: 'sounds' };

class Persistence {
  /* app: the page's controller; storage: localStorage, or null (`?nostore`). */
  constructor(app, storage) {
    this.app = app;
    this.storage = storage;
    for (const id of Object.values(SETTING_FIELDS)) if (id !== 'score-view') $(id).addEventListener('change', () => this.save());
    $('sounds').addEventListener('change', () => this.save());
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
    return {
      variant: app.variant, tree: app.tree.save(), line: app.line, view: app.view, player: app.player,
      clock: app.clocks.save(), analysing: app.analysis.on, flipped: app.board.flipped, tags: app.gameTags,
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
    for (const [name, id] of Object.entries(SETTING_CHECKS)) if (s[name] !== undefined) $(id).checked = !!s[name];
    $('strength-value').textContent = $('strength').value;
    this.app.board.setNumbers(!!s.numbers);
    const g = saved.game;
    if (!g || !g.tree) {
      if (s.variant && s.variant !== this.app.variant && (await this.app.changeVariant(s.variant))) await this.app.refresh();
      return;
    }
    if (await this.restoreGame(g)) {
      const app = this.app;
      const n = app.line.length;
      const sides = app.tree.leaves().length - 1;
      app.say(`Restored the game of your last visit: ${n} move${n === 1 ? '' : 's'}${sides ? ` and ${sides} side line${sides === 1 ? '' : 's'}` : ''}; ` +
        (app.analysis.on ? 'analysis mode.' : `you play ${colourName(app.player)}.`));
    }
  }

  /* Puts back a game as game() gave it, every line checked by the engine;
   * false (and a new game) when the engine refuses it. */
  async restoreGame(g) {
    const app = this.app;
    const tree = MoveTree.load(g.tree);
    if (!tree) return this.refuse('it is not a game of this page');
    if (g.variant !== app.variant && !(await app.changeVariant(g.variant))) return false;
    for (const moves of tree.leaves()) {
      const problem = hubError(await app.engine.request([`pos fen=${hubQuote(tree.start)} moves=${hubQuote(moves.join(' '))}`]));
      if (problem) return this.refuse(problem);
    }
    const line = Array.isArray(g.line) && tree.find(g.line) ? tree.lineThrough(tree.find(g.line)) : tree.lineThrough(tree.root);
    const view = Math.max(0, Math.min(line.length, Number(g.view) || 0));
    app.tree = tree;
    app.line = line;
    app.last = null;
    app.hint = null;
    await app.refresh([`pos fen=${hubQuote(tree.start)} moves=${hubQuote(line.slice(0, view).join(' '))}`]);
    app.player = g.player === 'W' ? 'W' : 'B';
    app.gameTags = g.tags || null;
    app.board.setFlipped(g.flipped === undefined ? app.player === 'B' : !!g.flipped);
    app.clocks.restore(g.clock);
    app.analysis.setOn(!!g.analysing);
    app.analysis.clear();
    app.clocks.start();
    app.redraw();
    return true;
  }

  async refuse(problem) {
    const app = this.app;
    app.error(`The saved game could not be restored (${problem}); a new game instead.`);
    await app.engine.request(['pos start']);
    app.forget();
    await app.refresh();
    return false;
  }
}
