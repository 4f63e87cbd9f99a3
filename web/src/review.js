// SPDX-License-Identifier: GPL-3.0-or-later
// Game review: every position of a game searched on a small fixed budget, each move marked by the men it lost.
'use strict';

/*
 * The marks, by the score the played move lost against the best one, in
 * men (1.00 = one man): the thresholds a command-line annotator uses too,
 * and doc/WEB.md states. NAGs as PDN writes them.
 */
const REVIEW_MARKS = [
  { name: 'blunder', loss: 0.9, nag: '$4', symbol: '??' },
  { name: 'mistake', loss: 0.6, nag: '$2', symbol: '?' },
  { name: 'dubious', loss: 0.3, nag: '$6', symbol: '?!' },
];
/* A forced win counts as this many men, so that missing one weighs like
 * losing a lot of material, and two forced wins compare as equal. */
const REVIEW_WIN_MEN = 10;
/* Nodes searched in each position, by the review's setting. */
const REVIEW_BUDGETS = { quick: 20000, normal: 200000, deep: 1000000 };

/* A score with forced ends capped at REVIEW_WIN_MEN. */
function reviewCap(score) {
  return Math.max(-REVIEW_WIN_MEN, Math.min(REVIEW_WIN_MEN, score));
}

/* The mark a move deserves that lost `loss` men, or null. */
function reviewMark(loss) {
  return REVIEW_MARKS.find((m) => loss >= m.loss - 1e-9) || null;
}

/*
 * Judges the moves of a searched game. positions[i] is the search of the
 * position before ply i (positions[n] the final one): {side, score (the
 * side to move's view), depth, best (PDN text of the best move, '' when
 * there is none), pv, count (legal moves)}. moves[i] is the played move.
 * Returns one entry per ply: {ply, side, played, best, before, after (both
 * from the mover's view), loss, mark (a REVIEW_MARKS entry or null), white
 * (the score after the move from White's view) and depth (of the search
 * that gave it; 0 when the game is over there)}. A forced move (one
 * legal move) and the engine's own best move lose nothing.
 */
function reviewJudge(positions, moves) {
  return moves.map((played, ply) => {
    const here = positions[ply];
    const next = positions[ply + 1];
    const before = reviewCap(here.score);
    const after = reviewCap(-next.score);
    const best = here.best === played || here.count <= 1;
    const loss = best ? 0 : Math.max(0, before - after);
    return {
      ply,
      side: here.side,
      played,
      best: here.best,
      pv: here.pv,
      before: here.score,
      after: -next.score,
      loss,
      mark: reviewMark(loss),
      white: scoreFrom(next.score, next.side, 'W'),
      depth: next.depth,
    };
  });
}

/* The PDN note of a judged move: its NAG and a comment with the score after
 * it from White's view, the depth, and the best move when it differs. */
function reviewNote(entry) {
  let comment = signedScore(entry.white) + (entry.depth ? ` d${entry.depth}` : '');
  if (entry.mark) comment += `, ${entry.mark.name}, best ${entry.best} ${signedScore(scoreFrom(entry.before, entry.side, 'W'))}`;
  return { nag: entry.mark ? entry.mark.nag : '', comment };
}

/* Mistakes per side: {B: {dubious, mistake, blunder, loss (average men lost a move)}, W: ...}. */
function reviewSummary(entries) {
  const out = {};
  for (const side of ['B', 'W']) {
    const own = entries.filter((e) => e.side === side);
    const count = (name) => own.filter((e) => e.mark && e.mark.name === name).length;
    const total = own.reduce((s, e) => s + Math.min(e.loss, REVIEW_WIN_MEN), 0);
    out[side] = { dubious: count('dubious'), mistake: count('mistake'), blunder: count('blunder'), loss: own.length ? total / own.length : 0 };
  }
  return out;
}

/*
 * Searches every position of a game with the engine: `start` (FEN) and
 * `moves` (PDN), `nodes` a position, after the Hub lines `options`.
 * onProgress(done, total) after each. `cancelled()` is asked between positions. Resolves with the positions as
 * reviewJudge takes them, or null when cancelled or the engine failed
 * (`problem` then says why, in the returned object {positions, problem}).
 */
async function reviewSearch(engine, start, moves, nodes, onProgress, cancelled, options = []) {
  const positions = [];
  for (let i = 0; i <= moves.length; i++) {
    if (cancelled()) return { positions: null, problem: '' };
    const setup = await engine.request([
      `pos fen=${hubQuote(start)} moves=${hubQuote(moves.slice(0, i).join(' '))}`,
      'game', 'legal', 'set-param name=strength value=100', ...options, `level nodes=${nodes}`,
    ]);
    if (setup.aborted) return { positions: null, problem: 'the engine stopped' };
    const problem = hubError(setup);
    if (problem) return { positions: null, problem };
    const game = hubReplies(setup, 'game')[0].values;
    const legal = hubReplies(setup, 'legal').filter((l) => l.values.move);
    const side = game.fen[0];
    let position = { side, score: 0, depth: 0, best: '', pv: '', count: legal.length };
    if (!legal.length || game.result) {
      /* The game is over here: a lost position for the side to move, or a draw. */
      const lost = game.result === (side === 'W' ? '0-1' : '1-0');
      position.score = game.result === '1/2-1/2' || !game.result ? 0 : lost ? -100 : 100;
    } else {
      let last = null;
      const reply = await engine.request(['go think'], {
        search: true,
        onLine: (line) => line.startsWith('info ') && (last = hubParse(line).values),
      });
      if (reply.aborted) return { positions: null, problem: 'the engine stopped' };
      const done = hubReplies(reply, 'done')[0];
      if (!done || !done.values.move || !last) return { positions: null, problem: hubError(reply) || 'the search failed' };
      const best = legal.find((l) => l.values.hub === done.values.move);
      position = { side, score: Number(last.score), depth: Number(last.depth), best: best ? best.values.move : done.values.move, pv: last.pv || '', count: legal.length };
    }
    positions.push(position);
    onProgress(i + 1, moves.length + 1);
  }
  return { positions, problem: '' };
}
