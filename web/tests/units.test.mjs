// SPDX-License-Identifier: GPL-3.0-or-later
// The page's helpers without a browser: Hub lines, PDN reading and writing, review marks, the clock, saved state, the move tree, the board's layout.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import vm from 'node:vm';
import { root } from './support.mjs';

/* The classic scripts share one global scope, as in the page. */
const scope = vm.createContext({});
for (const file of ['hubline.js', 'board.js', 'fen.js', 'pdn.js', 'score.js', 'review.js', 'clock.js', 'storage.js', 'movetree.js']) {
  vm.runInContext(readFileSync(join(root, 'web', 'src', file), 'utf8'), scope, { filename: file });
}
const run = (code) => vm.runInContext(code, scope);
const plain = (value) => JSON.parse(JSON.stringify(value));

test('Hub lines split into command, words and values', () => {
  const line = 'info depth=3 score=-0.17 pv="10-14 23-18" empty="" start';
  assert.deepEqual(plain(run(`hubParse(${JSON.stringify(line)})`)), {
    command: 'info',
    words: ['start'],
    values: { depth: '3', score: '-0.17', pv: '10-14 23-18', empty: '' },
  });
  assert.equal(run(`hubQuote('B:W21,22:B1')`), 'B:W21,22:B1');
  assert.equal(run(`hubQuote('B: W21, 22')`), '"B: W21, 22"');
  assert.equal(run(`hubQuote('')`), '""');
  assert.equal(run(`hubQuote('a"b=c')`), `"a'b=c"`);
});

test('PDN reading keeps the moves and tags of the first game', () => {
  const text = `[Event "x y"]\n[FEN "W:W18:B7,15"]\n1... 18x11 {why} 2. 7x16 (2. 15-19 3. 11x2) ; a remark\n` +
    `3.32-27 $1 16-19!? 1-0\n[Event "next"]\n1. 9-14 *\n`;
  const game = plain(run(`pdnRead(${JSON.stringify(text)})`));
  const { tree, ...rest } = game;
  assert.deepEqual(rest, { tags: { Event: 'x y', FEN: 'W:W18:B7,15' }, moves: ['18x11', '7x16', '32-27', '16-19'], lines: [3, 3, 4, 4], result: '1-0' });
  /* The variation is an alternative to 7x16, the move before it. */
  const moves = (n) => [n.move, n.children.map(moves)];
  assert.deepEqual(moves(tree), [null, [['18x11', [['7x16', [['32-27', [['16-19', []]]]]], ['15-19', [['11x2', []]]]]]]]);
  assert.deepEqual(plain(run(`pdnRead('11-15 22-18')`)).moves, ['11-15', '22-18']);
  assert.deepEqual(plain(run(`pdnRead('1. c3-d4 f6-e5 2. d4:f6 g7xe5 *')`)).moves, ['c3-d4', 'f6-e5', 'd4:f6', 'g7xe5']);
});

test('PDN reading names what is wrong', () => {
  const problems = {
    '': /no game found/,
    '1. 11-15 {never closed': /comment \{ never closes/,
    '1. 11-15 (2. 8-11': /variation '\(' never closes/,
    '1. 11-15 ) 22-18': /without its '\('/,
    '[Event "x"\n1. 11-15': /malformed tag|never closes/,
    '1. eleven-fifteen': /'eleven-fifteen' is not a move/,
    '1. 11-15 22-18 2. 15x22 foo *': /'foo' is not a move/,
  };
  for (const [text, message] of Object.entries(problems)) {
    assert.throws(() => run(`pdnRead(${JSON.stringify(text)})`), message, JSON.stringify(text));
  }
});

test('PDN writing numbers the moves from the side that starts', () => {
  const black = run(`pdnWrite([['GameType', '23']], ['11-15', '22-18', '15x22'], 'B', '*')`);
  assert.equal(black, '[GameType "23"]\n\n1. 11-15 22-18 2. 15x22 *\n');
  const white = run(`pdnWrite([], ['18x27x20x11x2', '15-19', '2-20'], 'W', '1-0')`);
  assert.equal(white, '\n1... 18x27x20x11x2 2. 15-19 2-20 1-0\n');
  const russian = run(`pdnWrite([], ['c3-d4', 'f6-e5', 'd4:f6'], 'W', '*', 'W')`);
  assert.equal(russian, '\n1. c3-d4 f6-e5 2. d4:f6 *\n');
  const russianBlack = run(`pdnWrite([], ['f6-e5'], 'B', '*', 'W')`);
  assert.equal(russianBlack, '\n1... f6-e5 *\n');
  const long = run(`pdnWrite([], Array(40).fill('11-15'), 'B', '*')`);
  assert.ok(long.split('\n').every((l) => l.length <= 80));
});

test('PDN reading finds every game of a file and says where a damaged one goes wrong', () => {
  const text = '[Event "a"]\n1. 11-15 23-19 *\n\n[Event "b"]\n1. 9-13 22-18\n2. 13-17 hello *\n\n[Event "c"]\n1. 9-14 1-0\n9-13 24-20 *\n';
  const games = plain(run(`pdnReadAll(${JSON.stringify(text)})`));
  assert.equal(games.length, 4);
  assert.deepEqual(games[0].moves, ['11-15', '23-19']);
  assert.equal(games[0].line, 1);
  assert.equal(run(`pdnReadAll(${JSON.stringify(text)})[1].error.message`), "'hello' is not a move in PDN (11-15 or c3-d4)");
  assert.equal(run(`pdnReadAll(${JSON.stringify(text)})[1].error.line`), 6);
  assert.equal(run(`pdnReadAll(${JSON.stringify(text)})[1].error.move`), 2);
  assert.deepEqual(games[2].moves, ['9-14']);
  assert.equal(games[2].result, '1-0');
  /* Movetext after a result, with no tags: a game of its own. */
  assert.deepEqual(games[3].moves, ['9-13', '24-20']);
  assert.deepEqual(games[2].lines, [9]);
  assert.match(run(`pdnGameTitle(pdnReadAll(${JSON.stringify(text)})[1], 1)`), /^game 2: damaged \(line 6: 'hello'/);
  assert.throws(() => run("pdnReadAll(' \\n ')"), /no game found/);
});

test('PDN writing puts NAGs and comments after their moves and numbers the move after a comment', () => {
  const text = run(`pdnWrite([], ['11-15', '22-18', '15x22'], 'B', '*', 'B', [null, { nag: '$4', comment: '+1.80 d9, blunder, best 24-20 -0.10' }, { comment: 'x' }])`);
  assert.equal(text, '\n1. 11-15 22-18 $4 {+1.80 d9, blunder, best 24-20 -0.10} 2. 15x22 {x} *\n');
  const back = plain(run(`pdnRead(${JSON.stringify(text)})`));
  assert.deepEqual(back.moves, ['11-15', '22-18', '15x22']);
  const black = run(`pdnWrite([], ['11-15', '22-18', '15x22'], 'B', '*', 'B', [{ comment: 'a' }])`);
  assert.equal(black, '\n1. 11-15 {a} 1... 22-18 2. 15x22 *\n');
});

test('review marks: the thresholds in men, forced moves and the best move lose nothing, forced wins capped', () => {
  assert.equal(run('reviewMark(0.29)'), null);
  assert.equal(run('reviewMark(0.3).name'), 'dubious');
  assert.equal(run('reviewMark(0.6).name'), 'mistake');
  assert.equal(run('reviewMark(0.89).name'), 'mistake');
  assert.equal(run('reviewMark(0.9).name'), 'blunder');
  /* Black to move at ply 0 and 2, White at 1; scores from the side to move. */
  const positions = [
    { side: 'B', score: 0.1, depth: 9, best: '9-14', pv: '', count: 7 },
    { side: 'W', score: 2.0, depth: 9, best: '22-18', pv: '', count: 7 }, /* after 11-15: White +2, Black lost 2.1 */
    { side: 'B', score: -1.9, depth: 9, best: '15x22', pv: '', count: 1 }, /* after 22-18: White kept it */
    { side: 'W', score: 99.9, depth: 9, best: '', pv: '', count: 1 }, /* a forced capture; White now wins */
  ];
  const entries = plain(run(`reviewJudge(${JSON.stringify(positions)}, ['11-15', '22-18', '15x22'])`));
  assert.equal(entries[0].mark.name, 'blunder');
  assert.ok(Math.abs(entries[0].loss - 2.1) < 1e-9);
  assert.equal(entries[0].best, '9-14');
  assert.equal(entries[0].white, 2.0);
  assert.equal(entries[1].mark, null, 'the best move itself');
  assert.equal(entries[1].loss, 0);
  assert.equal(entries[2].mark, null, 'the only legal move');
  assert.equal(entries[2].white, 99.9);
  const note = plain(run(`reviewNote(reviewJudge(${JSON.stringify(positions)}, ['11-15', '22-18', '15x22'])[0])`));
  assert.deepEqual(note, { nag: '$4', comment: '+2.00 d9, blunder, best 9-14 -0.10' });
  const summary = plain(run(`reviewSummary(reviewJudge(${JSON.stringify(positions)}, ['11-15', '22-18', '15x22']))`));
  assert.equal(summary.B.blunder, 1);
  assert.equal(summary.W.blunder, 0);
  assert.ok(Math.abs(summary.B.loss - 1.05) < 1e-9);
  /* Missing a forced win counts as at most REVIEW_WIN_MEN men. */
  assert.equal(run('reviewCap(99.5)'), run('REVIEW_WIN_MEN'));
});

test('the clock: the running side loses time, a move adds the increment, zero flags once', () => {
  run('var t = 0; var flags = []; var c = new GameClock(3000, 1000, () => t, (s) => flags.push(s));');
  run("c.start('B'); t = 1200;");
  assert.equal(run("c.remaining('B')"), 1800);
  assert.equal(run("c.remaining('W')"), 3000);
  assert.equal(run("c.press('B')"), true);
  assert.equal(run("c.remaining('B')"), 2800);
  assert.equal(run("c.running"), 'W');
  run('t = 4500; c.tick(); c.tick();');
  assert.deepEqual(plain(run('flags')), ['W']);
  assert.equal(run("c.remaining('W')"), 0);
  assert.equal(run("c.press('W')"), false);
  assert.equal(run('clockText(65000)'), '1:05');
  assert.equal(run('clockText(9340)'), '0:09.3');
  assert.deepEqual(plain(run('c.save()')), { base: 3000, increment: 1000, B: 2800, W: 0, flagged: 'W' });
});

test('saved state: read back as written, anything else ignored', () => {
  run('var box = new Map(); var store = { getItem: (k) => box.get(k) ?? null, setItem: (k, v) => box.set(k, v), removeItem: (k) => box.delete(k) };');
  assert.equal(run('storageLoad(store)'), null);
  assert.equal(run("storageSave(store, { a: 1 }, { line: ['11-15'] })"), true);
  assert.deepEqual(plain(run('storageLoad(store)')), { version: 2, settings: { a: 1 }, game: { line: ['11-15'] } });
  run("box.set(STORAGE_KEY, '{not json')");
  assert.equal(run('storageLoad(store)'), null);
  run("box.set(STORAGE_KEY, JSON.stringify({ version: 99 }))");
  assert.equal(run('storageLoad(store)'), null);
  assert.equal(run("storageSave({ setItem: () => { throw new Error('quota'); } }, {}, {})"), false);
});

test('the move tree: side lines, promotion, deletion, walking between lines, saved and loaded', () => {
  run(`var t = new MoveTree('START');
    t.add(['11-15', '23-19', '8-11']);
    t.add(['11-15', '22-17', '9-13']);
    t.add(['11-15', '22-18']);`);
  const shape = (expr) => plain(run(`(function shape(n) { return [n.move, n.children.map(shape)]; })(${expr})`));
  assert.deepEqual(shape('t.root'), [null, [['11-15', [['23-19', [['8-11', []]]], ['22-17', [['9-13', []]]], ['22-18', []]]]]]);
  assert.deepEqual(plain(run("t.lineThrough(t.find(['11-15']))")), ['11-15', '23-19', '8-11']);
  assert.equal(run("t.isMain(['11-15', '23-19'])"), true);
  assert.equal(run("t.isMain(['11-15', '22-17', '9-13'])"), false);
  /* Up and down at the last branch: 22-17's neighbours are 23-19 and 22-18. */
  assert.equal(run("t.sibling(['11-15', '22-17', '9-13'], -1).move"), '23-19');
  assert.equal(run("t.sibling(['11-15', '22-17'], 1).move"), '22-18');
  assert.equal(run("t.sibling(['11-15', '22-18'], 1)"), null);
  /* Promoted, 22-17 goes first; a main line has nothing to promote. */
  assert.equal(run("t.promote(['11-15', '22-17', '9-13']).move"), '22-17');
  assert.deepEqual(plain(run("t.leaves()")), [['11-15', '22-17', '9-13'], ['11-15', '23-19', '8-11'], ['11-15', '22-18']]);
  assert.equal(run("t.promote(['11-15', '22-17', '9-13'])"), null);
  /* Saved and loaded: the same tree, reviews and endings kept. */
  run("t.find(['11-15', '22-17']).review = { white: 0.5, mark: REVIEW_MARKS[0], loss: 1 }; t.find(['11-15', '22-18']).ending = { result: '1-0', text: 'x' };");
  run('var u = MoveTree.load(JSON.parse(JSON.stringify(t.save())));');
  assert.deepEqual(shape('u.root'), shape('t.root'));
  assert.equal(run("u.find(['11-15', '22-17']).review.mark.name"), 'blunder');
  assert.equal(run("u.find(['11-15', '22-18']).ending.result"), '1-0');
  assert.equal(run("MoveTree.load({ start: 'S', root: [null, 'x'] })"), null);
  /* Deleting a side line takes its moves with it. */
  assert.equal(run("t.remove(t.find(['11-15', '23-19']))"), 2);
  assert.deepEqual(plain(run("t.leaves()")), [['11-15', '22-17', '9-13'], ['11-15', '22-18']]);
});

test('PDN side lines are read into a tree and written back the same', () => {
  const text = '1. 11-15 (1. 9-13 22-18 (1... 21-17) 2. 13-17) 23-19 2. 8-11 (2. 9-14) *';
  const tree = `pdnRead(${JSON.stringify(text)}).tree`;
  assert.deepEqual(plain(run(`pdnRead(${JSON.stringify(text)}).moves`)), ['11-15', '23-19', '8-11']);
  const written = run(`pdnWriteTree([], ${tree}, 'B', '*', 'B')`);
  assert.equal(written, '\n1. 11-15 (1. 9-13 22-18 (1... 21-17) 2. 13-17) 1... 23-19 2. 8-11 (2. 9-14) *\n');
  const again = run(`pdnWriteTree([], pdnRead(${JSON.stringify(written)}).tree, 'B', '*', 'B')`);
  assert.equal(again, written);
  assert.throws(() => run("pdnRead('(1. 11-15) 1. 9-13')"), /variation '\(' before any move/);
});

/* The engine's `board` diagram of each rule set, read as the page reads it:
 * [file, row from rank 8] of a few squares as doc/VARIANTS.md places them. */
test("the board's layout is read from the engine's diagram of each rule set", () => {
  const bin = process.env.POOLSHARK_BIN || join(root, 'poolshark');
  const diagram = (variant) => execFileSync(bin, { input: `set-param name=variant value=${variant}\nboard\n`, encoding: 'utf8' });
  const layout = (text) => run(`(() => { const l = BoardLayout.fromDiagram(${JSON.stringify(text.split('\n'))}); return l && {
    algebraic: l.algebraic, cells: [...l.cells].map(([n, c]) => [n, c.x / 100, c.y / 100]), names: [...l.names] }; })()`);
  const places = {
    pool: { 1: [1, 0], 4: [7, 0], 29: [0, 7], 32: [6, 7] },
    english: { 1: [1, 0], 29: [0, 7] },
    russian: { 1: [1, 0], 22: [2, 5] },
    brazilian: { 1: [1, 0], 22: [2, 5] },
    czech: { 1: [1, 0], 22: [2, 5], 29: [0, 7] },
    italian: { 1: [0, 0], 4: [6, 0], 5: [1, 1], 32: [7, 7] },
    spanish: { 1: [7, 7], 4: [1, 7], 5: [6, 6], 32: [0, 0] },
  };
  for (const [variant, expected] of Object.entries(places)) {
    const l = plain(layout(diagram(variant)));
    assert.ok(l, variant);
    const cells = new Map(l.cells.map(([n, x, y]) => [n, [x, y]]));
    const names = new Map(l.names);
    assert.deepEqual([...cells.keys()].sort((a, b) => a - b), [...Array(32)].map((_, i) => i + 1), variant);
    for (const [n, cell] of Object.entries(expected)) assert.deepEqual(cells.get(Number(n)), cell, `${variant}: square ${n}`);
    for (const [n, [x, y]] of cells) {
      assert.equal((x + y) % 2, ['italian', 'spanish'].includes(variant) ? 0 : 1, `${variant}: square ${n} on a dark square`);
      assert.equal(names.get(n), l.algebraic ? 'abcdefgh'[x] + (8 - y) : String(n), `${variant}: the name of ${n}`);
    }
    assert.equal(l.algebraic, ['russian', 'brazilian', 'czech'].includes(variant), variant);
  }
  /* A diagram with a rank missing, or a number twice, is no layout. */
  const lines = diagram('italian').split('\n');
  assert.equal(run(`BoardLayout.fromDiagram(${JSON.stringify(lines.filter((line) => !/^  5 /.test(line)))})`), null);
  assert.equal(run(`BoardLayout.fromDiagram(${JSON.stringify(lines.map((line) => line.replace(/ 32$/, ' 31')))})`), null);
  assert.ok(run(`BoardLayout.fromDiagram(${JSON.stringify(lines)}) !== null`));
  /* FEN squares as the layout names them: c3 is 22 in Czech, 1 is a8 in Italian. */
  const czech = `BoardLayout.fromDiagram(${JSON.stringify(diagram('czech').split('\n'))})`;
  assert.deepEqual(plain(run(`[...fenPieces('W:Wc3,Kd4:Bh8', ${czech})]`)), [[22, 'w'], [18, 'W'], [4, 'b']]);
});
