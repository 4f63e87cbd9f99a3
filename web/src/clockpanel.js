// SPDX-License-Identifier: GPL-3.0-or-later
// The clock panel: a game clock from the Clock settings, the two clocks beside the board, the flag.
'use strict';

/* How often the clocks are redrawn and checked for a flag. */
const CLOCK_TICK_MS = 100;

class ClockPanel {
  /* app: the page's controller (its game, board, messages and ending). */
  constructor(app) {
    this.app = app;
    this.clock = null;
    $('movetime').addEventListener('change', () => this.drawNote());
    $('clock-on').addEventListener('change', () => app.persist.save() || this.drawNote() ||
      app.say($('clock-on').checked ? 'The clock starts with the next new game.' : 'No clock from the next new game.'));
  }

  /* Starts redrawing the clocks. */
  run() {
    setInterval(() => this.tick(), CLOCK_TICK_MS);
  }

  /* A fresh clock for a new game when the option is on (or none). */
  renew() {
    this.clock = null;
    if (!$('clock-on').checked) return;
    const base = Number($('clock-base').value);
    const inc = Number($('clock-inc').value);
    if (!(base > 0) || !(inc >= 0)) {
      this.app.error('The clock needs minutes above 0 and an increment of 0 seconds or more; playing without one.');
      return;
    }
    this.clock = this.make(base * 60000, inc * 1000);
  }

  make(baseMs, incrementMs) {
    return new GameClock(baseMs, incrementMs, () => performance.now(), (side) => this.flag(side));
  }

  /* A clock saved by save() (or none). */
  restore(saved) {
    this.clock = null;
    if (!saved) return;
    this.clock = this.make(saved.base, saved.increment);
    this.clock.restore(saved);
  }

  save() {
    return this.clock ? this.clock.save() : null;
  }

  /* The clock of the side to move at the end of the line runs, unless the
   * game is over or analysed. */
  start() {
    const app = this.app;
    if (this.clock && !app.over && !app.analysis.on) this.clock.start(app.lineSide());
  }

  stop() {
    if (this.clock) this.clock.stop();
  }

  /* `side` moved: false when its time had run out. */
  press(side) {
    return !this.clock || this.clock.press(side);
  }

  /* A clocked game that is not over yet (reviewing it would help one side). */
  running() {
    const app = this.app;
    return !!this.clock && !this.clock.flagged && !app.ending && !(app.atEnd && app.rules);
  }

  /* The engine's limit: its clock when the game has one, else the time per move. */
  engineLevel(side) {
    if (!this.clock) return `level move-time=${$('movetime').value}`;
    const seconds = (ms) => (ms / 1000).toFixed(3);
    return `level time=${seconds(this.clock.remaining(side))} inc=${seconds(this.clock.increment)}`;
  }

  /* "5:00 + 3 s each", or '' without a clock. */
  describe() {
    return this.clock ? `${clockText(this.clock.base)} + ${this.clock.increment / 1000} s each` : '';
  }

  tick() {
    if (!this.clock) return;
    this.clock.tick();
    this.draw();
  }

  flag(side) {
    const app = this.app;
    const winner = otherSide(side);
    app.ending = { result: winner === 'W' ? '1-0' : '0-1', text: `${colourName(winner)} wins on time.` };
    app.say(side === app.player ? 'Your time is up.' : 'poolshark ran out of time.');
    if (!app.atEnd) app.goTo(app.line.length);
    app.redraw();
    app.persist.save();
  }

  draw() {
    for (const row of document.querySelectorAll('.clocks')) row.hidden = !this.clock;
    document.body.classList.toggle('clocked', !!this.clock);
    if (!this.clock) return;
    /* The player's clock below the board, as the player sits. */
    const bottom = this.app.board.flipped ? 'B' : 'W';
    for (const [id, side] of [['clock-top', otherSide(bottom)], ['clock-bottom', bottom]]) {
      const e = $(id);
      const left = this.clock.remaining(side);
      e.textContent = `${colourName(side)} ${clockText(left)}`;
      e.classList.toggle('running', this.clock.running === side);
      e.classList.toggle('low', left < 10000);
      e.dataset.ms = String(Math.round(left));
    }
  }

  /* Which of the clock and the time per move poolshark plays by. */
  drawNote() {
    const clock = this.describe();
    const next = $('clock-on').checked && !this.clock;
    $('time-note').textContent = clock
      ? `This game is on the clock (${clock}): poolshark plays by its clock; the time per move is for hints.`
      : next ? 'The clock starts with the next new game; until then poolshark thinks the time per move.'
        : `No clock: poolshark thinks ${$('movetime').value} s a move.`;
  }
}
