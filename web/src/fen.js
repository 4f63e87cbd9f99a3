// SPDX-License-Identifier: GPL-3.0-or-later
// FEN and move text for drawing: the pieces of a FEN the engine wrote, a FEN of the editor's pieces, a move for people.
'use strict';

/* The pieces of a FEN as the engine writes it (no ranges, squares named
 * as `layout`, a BoardLayout, names them: 22 or c3): Map square -> letter.
 * Drawing only; the engine has read and checked every FEN first. */
function fenPieces(fen, layout) {
  const pieces = new Map();
  const [, ...lists] = fen.split(':');
  for (const list of lists) {
    const colour = list[0] === 'W' ? 'w' : 'b';
    for (const item of list.slice(1).split(',')) {
      if (!item) continue;
      const king = item[0] === 'K';
      pieces.set(layout.number(king ? item.slice(1) : item), king ? colour.toUpperCase() : colour);
    }
  }
  return pieces;
}

/* A FEN of `pieces` (Map square -> letter) with `side` to move, squares by number. */
function fenFromPieces(pieces, side) {
  const list = (colour) =>
    [...pieces.entries()]
      .filter(([, l]) => l.toLowerCase() === colour)
      .sort((a, b) => a[0] - b[0])
      .map(([s, l]) => (l === l.toUpperCase() ? 'K' : '') + s)
      .join(',');
  return `${side}:W${list('w')}:B${list('b')}`;
}

/* A Hub move of a principal variation for people: `from-to` or `fromxto`,
 * the squares named by `name`, a capture written with `capture`. */
function shortMove(hub, name, capture) {
  const squares = hub.split(/[-x]/).map(Number);
  return hub.includes('x') ? `${name(squares[0])}${capture}${name(squares[1])}` : squares.map(name).join('-');
}
