// SPDX-License-Identifier: GPL-3.0-or-later
// FEN and move text for drawing: the pieces of a FEN the engine wrote, a FEN of the editor's pieces, a move for people.
'use strict';

/* A square of a FEN list: a number 1-32, or the algebraic name of a dark
 * square (the engine writes Russian and Brazilian FENs so: `c3` is 22). */
function fenSquare(text) {
  const named = /^([a-h])([1-8])$/.exec(text);
  if (!named) return Number(text);
  const row = 8 - Number(named[2]), column = named[1].charCodeAt(0) - 97;
  return 4 * row + Math.floor(column / 2) + 1;
}

/* The pieces of a FEN as the engine writes it (no ranges): Map square ->
 * letter. Drawing only; the engine has read and checked every FEN first. */
function fenPieces(fen) {
  const pieces = new Map();
  const [, ...lists] = fen.split(':');
  for (const list of lists) {
    const colour = list[0] === 'W' ? 'w' : 'b';
    for (const item of list.slice(1).split(',')) {
      if (!item) continue;
      const king = item[0] === 'K';
      pieces.set(fenSquare(king ? item.slice(1) : item), king ? colour.toUpperCase() : colour);
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

/* A square of a `legal` path as the engine writes it: 22 or c3. */
function pathSquare(text) {
  return /^\d+$/.test(text) ? Number(text) : algebraicSquare(text);
}
