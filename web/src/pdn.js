// SPDX-License-Identifier: GPL-3.0-or-later
// PDN text for the page: split a file into tags and move tokens (the engine checks the moves), write a game.
'use strict';

const PDN_RESULTS = ['1-0', '0-1', '1/2-1/2', '2-0', '0-2', '1-1', '*'];

/*
 * Reads the first game of a PDN text: its tags and its move tokens, with
 * comments, variations, move numbers and NAGs left out. Only the shape is
 * checked here; whether the moves are legal is the engine's to say. Returns
 * {tags, moves, result} or throws an Error naming the problem.
 */
function pdnRead(text) {
  const tags = {};
  const moves = [];
  let result = '';
  let i = 0;
  let depth = 0;
  const n = text.length;
  let sawGame = false;
  while (i < n) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '{') {
      const end = text.indexOf('}', i);
      if (end < 0) throw new Error('a comment { never closes');
      i = end + 1;
    } else if (c === ';') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '(') {
      depth++;
      i++;
    } else if (c === ')') {
      if (!depth) throw new Error("a ')' without its '('");
      depth--;
      i++;
    } else if (c === '[' && !depth) {
      if (moves.length) break; /* the next game's tags */
      const end = text.indexOf(']', i);
      if (end < 0) throw new Error('a tag [ never closes');
      const m = /^\[\s*([A-Za-z0-9_]+)\s+"([^"]*)"\s*\]$/.exec(text.slice(i, end + 1));
      if (!m) throw new Error('a malformed tag: ' + text.slice(i, Math.min(end + 1, i + 40)));
      tags[m[1]] = m[2];
      sawGame = true;
      i = end + 1;
    } else {
      let end = i;
      while (end < n && !/[\s{}();[\]]/.test(text[end])) end++;
      if (end === i) throw new Error(`unexpected '${c}'`);
      let token = text.slice(i, end);
      i = end;
      if (depth) continue;
      token = token.replace(/^\d+\.+/, ''); /* a move number, maybe glued to the move */
      token = token.replace(/[!?]+$/, '');
      if (token === '' || /^\$\d+$/.test(token)) continue;
      if (PDN_RESULTS.includes(token)) {
        result = token;
        sawGame = true;
        break;
      }
      if (!/^\d{1,2}([-x]\d{1,2})+$/.test(token) && !/^[a-h][1-8]([-x:][a-h][1-8])+$/.test(token)) {
        throw new Error(`'${token.slice(0, 30)}' is not a move in PDN (11-15 or c3-d4)`);
      }
      moves.push(token);
      sawGame = true;
    }
  }
  if (depth) throw new Error("a variation '(' never closes");
  if (!sawGame) throw new Error('no game found (no tags, moves or result)');
  return { tags, moves, result };
}

/* The move number of ply `index` of a game that starts with `side` to move
 * ('B' or 'W') in a variant whose `first` side ('B' in pool, 'W' in Russian
 * and Brazilian, as the engine's start position says) moves first, and
 * whether that ply is the first side's (PDN numbers each move of the side
 * that moves first and the answer together). */
function pdnMoveNumber(index, side, first = 'B') {
  const k = index + (side === first ? 0 : 1);
  return { number: Math.floor(k / 2) + 1, lead: k % 2 === 0 };
}

/* The movetext of `moves` (PDN strings) from a start with `side` to move. */
function pdnMovetext(moves, side, first) {
  const parts = [];
  moves.forEach((m, i) => {
    const { number, lead } = pdnMoveNumber(i, side, first);
    if (lead) parts.push(`${number}. ${m}`);
    else parts.push(i === 0 ? `${number}... ${m}` : m);
  });
  return parts;
}

/* A whole PDN game: tags (an array of [name, value]), then the movetext cut
 * into lines of at most 80 characters, then the result; `first` as for
 * pdnMoveNumber. */
function pdnWrite(tags, moves, side, result, first) {
  const lines = tags.map(([k, v]) => `[${k} "${String(v).replace(/"/g, "'")}"]`);
  lines.push('');
  let line = '';
  for (const part of [...pdnMovetext(moves, side, first), result]) {
    if (line && line.length + 1 + part.length > 80) {
      lines.push(line);
      line = part;
    } else {
      line = line ? line + ' ' + part : part;
    }
  }
  lines.push(line, '');
  return lines.join('\n');
}
