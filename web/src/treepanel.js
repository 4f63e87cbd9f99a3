// SPDX-License-Identifier: GPL-3.0-or-later
// The tree's commands: promote the side line shown, delete from the move shown, and Undo of what replaced a game.
'use strict';

class TreePanel {
  /* app: the page's controller. */
  constructor(app) {
    this.app = app;
    this.kept = null; /* the game the last new game, load or deletion replaced (persist.game()) */
    $('promote').addEventListener('click', () => this.promote());
    $('delete').addEventListener('click', () => this.deleteHere());
    $('undo').addEventListener('click', () => this.undo());
  }

  /* Before something replaces the game (a new game, a load, a deletion):
   * keeps it for the Undo button, when it holds any move or a set-up
   * position. */
  keep() {
    const app = this.app;
    if (!app.tree.root.children.length && app.tree.start === app.startFen) return;
    this.kept = app.persist.game();
    $('undo').textContent = 'Undo';
    $('undo').hidden = false;
  }

  /* Brings back the game kept by keep(); pressed again, the one it replaced. */
  async undo() {
    const app = this.app;
    const back = this.kept;
    if (!back) return;
    await app.reviews.cancel();
    await app.interrupt();
    const now = app.persist.game();
    if (await app.persist.restoreGame(back)) {
      this.kept = now;
      $('undo').textContent = $('undo').textContent === 'Undo' ? 'Redo' : 'Undo';
      const n = app.line.length, sides = app.tree.leaves().length - 1;
      app.say(`Brought back the game of ${n} move${n === 1 ? '' : 's'}${sides ? ` and ${sides} side line${sides === 1 ? '' : 's'}` : ''}.`);
    }
    await app.continueGame();
  }

  /* The side line shown becomes the main line at its last branch. */
  promote() {
    const app = this.app;
    const node = app.tree.promote(app.line);
    if (!node) return;
    const ply = app.tree.path(node).length;
    const { number, lead } = pdnMoveNumber(ply - 1, app.lineStart[0], app.first);
    app.say(`${number}${lead ? '.' : '...'} ${node.move} is now the main line${app.tree.isMain(app.line) ? '' : ' there (promote again to go further up)'}.`);
    app.redraw();
    app.persist.save();
  }

  /* Deletes the move shown and everything after it (Undo brings it back). */
  async deleteHere() {
    const app = this.app;
    if (app.view === 0 || app.reviewing) return;
    const node = app.nodeAt(app.view);
    this.keep();
    await app.interrupt();
    const removed = app.tree.remove(node);
    app.line = app.tree.lineThrough(node.parent);
    app.say(`Deleted ${node.move} and ${removed - 1} move${removed === 2 ? '' : 's'} after it; Undo brings them back.`);
    await app.goTo(app.view - 1);
  }
}
