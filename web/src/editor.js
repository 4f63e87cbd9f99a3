// SPDX-License-Identifier: GPL-3.0-or-later
// The position editor: pieces placed by clicking squares, then the engine checks the position as a FEN.
'use strict';

class PositionEditor {
  /* app: the page's controller. */
  constructor(app) {
    this.app = app;
    this.pieces = null; /* Map square -> letter while the editor is open */
    const on = (id, f) => $(id).addEventListener('click', f);
    on('edit', () => this.open());
    on('edit-clear', () => this.set(new Map()));
    on('edit-start', () => this.set(fenPieces(app.startFen, app.board.layout)));
    on('edit-done', () => this.close(false));
    on('edit-cancel', () => this.close(true));
  }

  async open() {
    if (this.pieces) return;
    await this.app.interrupt();
    this.pieces = new Map(this.app.pieces);
    $('edit-side').value = this.app.side;
    $('editor').hidden = false;
    this.set(this.pieces);
  }

  set(pieces) {
    if (!this.pieces) return;
    this.pieces = pieces;
    this.app.board.render({ pieces, targets: [] });
    this.app.drawStatus();
  }

  /* A click on a square while editing: the chosen piece goes there, or off again. */
  place(square) {
    const choice = document.querySelector('input[name=piece]:checked').value;
    const pieces = this.pieces;
    if (!choice || pieces.get(square) === choice) pieces.delete(square);
    else pieces.set(square, choice);
    this.set(pieces);
  }

  /* Closes the editor: cancelled, or the position set up for play when the engine takes it. */
  async close(cancel) {
    if (!this.pieces) return;
    const pieces = this.pieces;
    this.pieces = null;
    if (cancel) {
      $('editor').hidden = true;
      this.app.redraw();
      return;
    }
    if (await this.app.pdn.setFen(fenFromPieces(pieces, $('edit-side').value))) {
      $('editor').hidden = true;
    } else {
      this.pieces = pieces;
      this.set(pieces);
    }
  }
}
