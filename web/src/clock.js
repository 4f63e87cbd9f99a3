// SPDX-License-Identifier: GPL-3.0-or-later
// The game clock: base time plus an increment for both sides, the side to move's time running, a flag at zero.
'use strict';

/*
 * Times in milliseconds. The clock of the side to move runs from start()
 * until press() (its move was played: the increment is added and the other
 * side's clock runs) or stop(). `now` is a function giving the time in ms
 * (performance.now in the page, a stub in tests). onFlag(side) is called
 * once, by tick(), when the running side's time is gone.
 */
class GameClock {
  constructor(baseMs, incrementMs, now, onFlag) {
    this.base = baseMs;
    this.increment = incrementMs;
    this.now = now;
    this.onFlag = onFlag || (() => {});
    this.left = { B: baseMs, W: baseMs };
    this.running = null; /* the side whose time runs, or null */
    this.since = 0;
    this.flagged = null;
  }

  /* Time left of `side` at this moment. */
  remaining(side) {
    const left = this.left[side];
    return this.running === side ? Math.max(0, left - (this.now() - this.since)) : left;
  }

  start(side) {
    if (this.flagged) return;
    this.stop();
    this.running = side;
    this.since = this.now();
  }

  /* Stops the running clock, keeping its time. */
  stop() {
    if (!this.running) return;
    this.left[this.running] = this.remaining(this.running);
    this.running = null;
  }

  /* `side` has moved: its clock stops, gains the increment, and the
   * other's starts. False when the side had already run out of time. */
  press(side) {
    if (this.flagged) return false;
    const left = this.remaining(side);
    if (left <= 0) {
      this.tick();
      return false;
    }
    this.stop();
    this.left[side] = left + this.increment;
    this.start(otherSide(side));
    return true;
  }

  /* Checks the running side for a flag. */
  tick() {
    if (this.running && !this.flagged && this.remaining(this.running) <= 0) {
      this.flagged = this.running;
      this.stop();
      this.left[this.flagged] = 0;
      this.onFlag(this.flagged);
    }
  }

  /* What survives a reload: the times left (the running side's as of now). */
  save() {
    return { base: this.base, increment: this.increment, B: this.remaining('B'), W: this.remaining('W'), flagged: this.flagged };
  }

  restore(saved) {
    this.left = { B: saved.B, W: saved.W };
    this.flagged = saved.flagged || null;
  }
}

/* Time as a clock shows it: "4:05", "0:09.3" under ten seconds. */
function clockText(ms) {
  const t = Math.max(0, ms);
  const minutes = Math.floor(t / 60000);
  const seconds = (t % 60000) / 1000;
  if (t < 10000) return `${minutes}:${seconds.toFixed(1).padStart(4, '0')}`;
  return `${minutes}:${String(Math.floor(seconds)).padStart(2, '0')}`;
}
