// SPDX-License-Identifier: GPL-3.0-or-later
// Moves entered on the board (square by square, only legal continuations offered) or typed in PDN.
'use strict';

class MoveInput {
  /* app: the page's controller; it plays a complete move with app.play(entry). */
  constructor(app) {
    this.app = app;
    this.selection = null; /* {path, candidates, taken, targets} while a move is being entered */
    $('move-play').addEventListener('click', () => this.typed());
    $('move-input').addEventListener('keydown', (e) => e.key === 'Enter' && this.typed());
  }

  select(square) {
    const candidates = this.app.legal.filter((m) => m.path[0] === square);
    if (!candidates.length) return false;
    this.selection = { path: [square], candidates, taken: [] };
    this.updateTargets();
    return true;
  }

  updateTargets() {
    const s = this.selection;
    const k = s.path.length;
    s.targets = [...new Set(s.candidates.filter((m) => m.path.length > k).map((m) => m.path[k]))];
    /* Pieces jumped so far: those every remaining candidate takes on the steps entered. */
    s.taken = k > 1 ? s.candidates[0].captured.filter((c) => s.candidates.every((m) => m.captured.includes(c)) &&
      this.between(s.path, c)) : [];
    this.app.redraw();
  }

  /* Whether square c lies on one of the diagonal legs of `path` (drawing only). */
  between(path, c) {
    const cell = (s) => this.app.board.layout.cell(s);
    const p = cell(c);
    for (let i = 1; i < path.length; i++) {
      const a = cell(path[i - 1]);
      const b = cell(path[i]);
      const t = (p.x - a.x) / (b.x - a.x);
      if (t > 0 && t < 1 && Math.abs(a.y + t * (b.y - a.y) - p.y) < 1) return true;
    }
    return false;
  }

  /* The board's press: true when a drag may start on `square`. */
  press(square) {
    if (!this.app.canMove()) return false;
    const s = this.selection;
    if (s && s.path.length > 1) return square === s.path[s.path.length - 1];
    if (s && s.targets.includes(square)) return false;
    return this.select(square);
  }

  /* The board's click or drop on `square`. */
  square(square) {
    const app = this.app;
    if (app.editing) {
      app.editor.place(square);
      return;
    }
    if (!app.canMove()) return;
    const s = this.selection;
    if (!s) {
      if (!this.select(square)) this.refuse(square);
      return;
    }
    const k = s.path.length;
    const next = s.candidates.filter((m) => m.path[k] === square);
    if (next.length) {
      s.path.push(square);
      s.candidates = next;
      const complete = next.find((m) => m.path.length === s.path.length);
      if (complete) this.play(complete);
      else this.updateTargets();
      return;
    }
    /* The destination of a capture clicked at once, when only one capture ends there. */
    const ending = s.candidates.filter((m) => m.path[m.path.length - 1] === square);
    if (ending.length === 1) {
      this.play(ending[0]);
      return;
    }
    if (k === 1 && this.select(square)) return;
    if (ending.length > 1) {
      app.error(`Several captures end on ${app.board.name(square)}: click the squares of the one you mean.`);
      return;
    }
    this.refuse(square);
  }

  play(entry) {
    this.selection = null;
    this.app.play(entry);
  }

  refuse(square) {
    const app = this.app;
    const s = this.selection;
    if (s) {
      const tried = s.path.concat(square).map((q) => app.board.name(q)).join(s.candidates[0].captured.length ? app.captureMark() : '-');
      app.error(`Not a legal move: ${tried}. From ${app.board.name(s.path[0])}: ${s.candidates.map((m) => m.move).join(', ')}.`);
      this.selection = null;
      app.redraw();
      return;
    }
    if (app.pieces.has(square)) {
      const capture = app.legal.length && app.legal.every((m) => m.captured.length);
      app.error(`The piece on ${app.board.name(square)} has no legal move${capture ? ' (a capture must be made)' : ''}.`);
    }
  }

  /* A move typed in PDN: the engine reads it. */
  async typed() {
    const app = this.app;
    const text = $('move-input').value.trim();
    if (!text || !app.canMove()) return;
    await app.interrupt();
    const mover = app.side;
    const reply = await app.engine.request([`move ${hubQuote(text)}`]);
    const problem = hubError(reply);
    if (problem) {
      app.error(`Not played: ${problem}.`);
      return;
    }
    $('move-input').value = '';
    const played = hubReplies(reply, 'move')[0].values.played;
    const entry = app.legal.find((m) => m.move === played);
    await app.afterMove(entry, mover);
  }
}
