// SPDX-License-Identifier: GPL-3.0-or-later
// Scores as the engine reports them (men, from the side to move; a forced end as 100 - plies/100), for people.
'use strict';

const WIN_SCORE = 90; /* at or beyond this the engine has found a forced end of the game */

function colourName(side) {
  return side === 'B' ? 'Black' : 'White';
}

function otherSide(side) {
  return side === 'B' ? 'W' : 'B';
}

/* A score of the side to move `side` seen from `view` ('W', 'B'). */
function scoreFrom(score, side, view) {
  return side === view ? score : -score;
}

/* A score in men from the side to move, as "Black +0.25" (the side that is
 * better) or a forced win in plies. */
function describeScore(score, side) {
  const better = score >= 0 ? side : otherSide(side);
  const value = Math.abs(score);
  if (value >= WIN_SCORE) return `${colourName(better)} wins in ${Math.round((100 - value) * 100)} plies`;
  if (value < 0.005) return 'level (0.00)';
  return `${colourName(better)} +${value.toFixed(2)}`;
}

/* A score already turned to someone's view, signed: "+0.25", "-1.10",
 * "win in 7", "loss in 4". */
function signedScore(score) {
  const value = Math.abs(score);
  if (value >= WIN_SCORE) return `${score > 0 ? 'win' : 'loss'} in ${Math.round((100 - value) * 100)}`;
  return (score >= 0 ? '+' : '-') + value.toFixed(2);
}

/* White's share of the evaluation bar and graph, 0 to 1, from a score of
 * White's: about 0.7 at one man up, 0.94 at three. */
function scoreShare(white) {
  return 0.5 + 0.5 * Math.tanh(white / 2.5);
}
