// SPDX-License-Identifier: GPL-3.0-or-later
// PDN text for the page: split a file into games, tags and move tokens (the engine checks the moves), write a game.
'use strict';

const PDN_RESULTS = ['1-0', '0-1', '1/2-1/2', '2-0', '0-2', '1-1', '*'];

/* A problem in a PDN text, with where it is: `line` (1-based) and `move`
 * (the PDN move number last seen, 0 before the first). */
class PdnError extends Error {
  constructor(message, line, move) {
    super(message);
    this.line = line;
    this.move = move;
  }
}

/* The 1-based line of character `offset` of `text`. */
function pdnLineAt(text, offset) {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/*
 * Reads the game that starts at character `from` of a PDN text: its tags,
 * its moves and its side lines, with comments, move numbers and NAGs left
 * out. Only the shape is checked here; whether the moves are legal is the
 * engine's to say. Returns {game: {tags, moves, lines, result, tree}, next}
 * (moves: the main line; lines[i]: the line of moves[i]; tree: the root of
 * every move read, {move, line, children} each, the main move first, a
 * variation `( ... )` an alternative to the move before it; next: where
 * the following game starts, or -1 at the end of the text) or throws a
 * PdnError.
 */
function pdnReadGame(text, from = 0) {
  const tags = {};
  const moves = [];
  const lines = [];
  const tree = { move: null, line: 0, children: [] };
  let path = [tree]; /* the nodes of the line being read, the root first */
  const stack = []; /* the paths that variations interrupted */
  let result = '';
  let i = from;
  let depth = 0;
  let number = 0;
  const n = text.length;
  let sawGame = false;
  const fail = (message, at = i) => {
    throw new PdnError(message, pdnLineAt(text, at), number);
  };
  while (i < n) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '{') {
      const end = text.indexOf('}', i);
      if (end < 0) fail('a comment { never closes');
      i = end + 1;
    } else if (c === ';') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '(') {
      if (path.length < 2) fail("a variation '(' before any move");
      stack.push(path);
      path = path.slice(0, -1);
      depth++;
      i++;
    } else if (c === ')') {
      if (!depth) fail("a ')' without its '('");
      path = stack.pop();
      depth--;
      i++;
    } else if (c === '[' && !depth) {
      if (moves.length || result) break; /* the next game's tags */
      const end = text.indexOf(']', i);
      const close = text.indexOf('\n', i);
      if (end < 0 || (close >= 0 && close < end)) fail('a tag [ never closes');
      const m = /^\[\s*([A-Za-z0-9_]+)\s+"([^"]*)"\s*\]$/.exec(text.slice(i, end + 1));
      if (!m) fail('a malformed tag: ' + text.slice(i, Math.min(end + 1, i + 40)));
      tags[m[1]] = m[2];
      sawGame = true;
      i = end + 1;
    } else {
      if (result && !depth) break; /* text after the result: the next game */
      let end = i;
      while (end < n && !/[\s{}();[\]]/.test(text[end])) end++;
      if (end === i) fail(`unexpected '${c}'`);
      let token = text.slice(i, end);
      const at = i;
      i = end;
      const numbered = /^(\d+)\.+/.exec(token);
      if (numbered) {
        if (!depth) number = Number(numbered[1]);
        token = token.slice(numbered[0].length); /* a move number, maybe glued to the move */
      }
      token = token.replace(/[!?]+$/, '');
      if (token === '' || /^\$\d+$/.test(token)) continue;
      if (PDN_RESULTS.includes(token)) {
        if (depth) continue; /* a variation's own end */
        result = token;
        sawGame = true;
        continue;
      }
      if (!/^\d{1,2}([-x]\d{1,2})+$/.test(token) && !/^[a-h][1-8]([-x:][a-h][1-8])+$/.test(token)) {
        fail(`'${token.slice(0, 30)}' is not a move in PDN (11-15 or c3-d4)`, at);
      }
      const node = { move: token, line: pdnLineAt(text, at), children: [] };
      path[path.length - 1].children.push(node);
      path.push(node);
      if (!depth) {
        moves.push(token);
        lines.push(node.line);
      }
      sawGame = true;
    }
  }
  if (depth) fail("a variation '(' never closes");
  if (!sawGame) fail('no game found (no tags, moves or result)');
  return { game: { tags, moves, lines, result, tree }, next: i < n ? i : -1 };
}

/* Where the game after a damaged one starts: the next tag at the start of a
 * line after `offset`, or -1. */
function pdnNextGame(text, offset) {
  const re = /(^|\n)[ \t]*\[/g;
  re.lastIndex = offset;
  const m = re.exec(text);
  return m ? m.index + m[0].length - 1 : -1;
}

/*
 * Every game of a PDN text, in order: {tags, moves, lines, result} for a
 * game that reads, {error: PdnError, line} for a damaged one (the reader
 * goes on at the next tag that opens a line). Throws a PdnError only when
 * the text holds no game at all.
 */
function pdnReadAll(text) {
  const games = [];
  let at = 0;
  while (at >= 0 && at < text.length) {
    if (!/\S/.test(text.slice(at))) break;
    const line = pdnLineAt(text, at + (text.slice(at).search(/\S/)));
    try {
      const { game, next } = pdnReadGame(text, at);
      games.push(Object.assign(game, { line }));
      at = next;
    } catch (e) {
      if (!(e instanceof PdnError)) throw e;
      games.push({ error: e, line });
      const errorAt = text.split('\n').slice(0, e.line).join('\n').length;
      at = pdnNextGame(text, Math.max(errorAt, at + 1));
    }
  }
  if (!games.length) throw new PdnError('no game found (no tags, moves or result)', 1, 0);
  return games;
}

/* The first game of a PDN text, as pdnReadGame reads it (throws on a
 * damaged one). */
function pdnRead(text) {
  return pdnReadGame(text, 0).game;
}

/* A short name of a game read from a file: "White - Black, Event (Date)". */
function pdnGameTitle(game, index) {
  if (game.error) return `game ${index + 1}: damaged (line ${game.error.line}: ${game.error.message})`;
  const t = game.tags;
  const players = t.White || t.Black ? `${t.White || '?'} - ${t.Black || '?'}` : '';
  const rest = [t.Event, t.Date].filter((x) => x && x !== '?').join(', ');
  const moves = `${game.moves.length} ${game.moves.length === 1 ? 'ply' : 'plies'}`;
  return `game ${index + 1}: ${[players, rest].filter(Boolean).join(', ') || 'untitled'} ${game.result || '*'} (${moves})`;
}

/* The move number of ply `index` of a game that starts with `side` to move
 * ('B' or 'W') in a variant whose `first` side ('B' in pool and English,
 * 'W' in the others, as the engine's start position says) moves first, and
 * whether that ply is the first side's (PDN numbers each move of the side
 * that moves first and the answer together). */
function pdnMoveNumber(index, side, first = 'B') {
  const k = index + (side === first ? 0 : 1);
  return { number: Math.floor(k / 2) + 1, lead: k % 2 === 0 };
}

/* The movetext of `moves` (PDN strings) from a start with `side` to move;
 * notes[i], when given, is {nag: '$2', comment: 'text'} written after move
 * i (either may be missing). */
function pdnMovetext(moves, side, first, notes = []) {
  const root = { children: [] };
  let node = root;
  moves.forEach((move, i) => {
    const next = { move, note: notes[i], children: [] };
    node.children.push(next);
    node = next;
  });
  return pdnTreeMovetext(root, side, first);
}

/*
 * The movetext of a tree of moves ({move, children} nodes, the main move
 * first; `root` stands for the start, with `side` to move), each side line
 * in parentheses after the move it replaces; noteOf(node) gives the
 * {nag, comment} written after a move, or nothing. A move after a comment
 * or a side line gets its number again ("3... 9-14"), as PDN writers do.
 */
function pdnTreeMovetext(root, side, first, noteOf = (n) => n.note) {
  const parts = [];
  let open = false; /* a '(' waits for the next part */
  const push = (text) => {
    parts.push(open ? '(' + text : text);
    open = false;
  };
  const write = (node, ply, numbered) => {
    const { number, lead } = pdnMoveNumber(ply, side, first);
    if (lead) push(`${number}. ${node.move}`);
    else push(numbered ? `${number}... ${node.move}` : node.move);
    const note = noteOf(node);
    if (note && note.nag) push(note.nag);
    if (note && note.comment) {
      push(`{${note.comment.replace(/[{}]/g, '')}}`);
      return true;
    }
    return false;
  };
  const line = (node, ply, numbered) => {
    for (let n = node; n.children.length; ply++) {
      const [main, ...others] = n.children;
      numbered = write(main, ply, numbered);
      for (const other of others) {
        open = true;
        line(other, ply + 1, write(other, ply, true));
        parts[parts.length - 1] += ')';
        numbered = true;
      }
      n = main;
    }
  };
  line(root, 0, true);
  return parts;
}

/* A whole PDN game: tags (an array of [name, value]), then the movetext cut
 * into lines of at most 80 characters (a comment longer than that on a line
 * of its own), then the result; `first` and `notes` as for pdnMovetext. */
function pdnWrite(tags, moves, side, result, first, notes) {
  return pdnLayout(tags, pdnMovetext(moves, side, first, notes), result);
}

/* pdnWrite for a tree of moves, as pdnTreeMovetext takes it. */
function pdnWriteTree(tags, root, side, result, first, noteOf) {
  return pdnLayout(tags, pdnTreeMovetext(root, side, first, noteOf), result);
}

function pdnLayout(tags, movetext, result) {
  const lines = tags.map(([k, v]) => `[${k} "${String(v).replace(/"/g, "'")}"]`);
  lines.push('');
  let line = '';
  for (const part of [...movetext, result]) {
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
