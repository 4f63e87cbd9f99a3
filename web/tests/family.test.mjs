// SPDX-License-Identifier: GPL-3.0-or-later
// English, Italian, Spanish and Czech in Chromium: the board and its numbers as doc/VARIANTS.md says, a move each way, PDN.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { clickSquares, dataset, docShot, launch, openPage, settle, shots, square } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const moves = async (page) => (await dataset(page, 'moves')).split(' ').filter(Boolean);
const waitMoves = (page, n) =>
  page.waitForFunction((k) => (document.body.dataset.moves || '').split(' ').filter(Boolean).length === k, n, { timeout: 30000 });

/*
 * Where doc/VARIANTS.md puts square n, as [file 0-7 from a, row 0-7 from
 * rank 8] on White's diagram. English: pool's numbers, square 1 on b8 and
 * a1 dark. Italian: the board mirrored, 1 on a8, counted row by row from
 * the top left. Spanish: mirrored, counted from White's side, 1 on h1, so
 * square n is where Italian's 33 - n is. Czech: pool's board, squares
 * named a-h 1-8 (the page's square numbers are the Hub's, pool's).
 */
function poolCell(n) {
  const row = Math.floor((n - 1) / 4), i = (n - 1) % 4;
  return [row % 2 ? 2 * i : 2 * i + 1, row];
}
function italianCell(n) {
  const row = Math.floor((n - 1) / 4), i = (n - 1) % 4;
  return [row % 2 ? 2 * i + 1 : 2 * i, row];
}
const algebraic = ([file, row]) => 'abcdefgh'[file] + (8 - row);
/* The frame's labels on one side, from the top (or the left): each row's first or last square. */
const rows = (first, step) => [...Array(8)].map((_, r) => String(first + step * r));

const FAMILY = [
  {
    variant: 'english', title: 'English checkers', gameType: '21', first: 'B', cell: poolCell, named: (n) => String(n),
    corner: '1 at b8', frame: { left: rows(1, 4), right: rows(4, 4) }, move: [24, 20], written: '24-20', reply: /^\d+[-x]\d+/,
  },
  {
    variant: 'italian', title: 'Italian draughts', gameType: '22', first: 'W', cell: italianCell, named: (n) => String(n),
    corner: '1 at a8', frame: { left: rows(1, 4), right: rows(4, 4) }, move: [22, 18], written: '22-18', reply: /^\d+[-x]\d+/,
  },
  {
    variant: 'spanish', title: 'Spanish draughts', gameType: '24', first: 'W', cell: (n) => italianCell(33 - n), named: (n) => String(n),
    corner: '1 at h1', frame: { left: rows(32, -4), right: rows(29, -4) }, move: [10, 14], written: '10-14', reply: /^\d+[-x]\d+/,
  },
  {
    variant: 'czech', title: 'Czech draughts', gameType: '29', first: 'W', cell: poolCell, named: (n) => algebraic(poolCell(n)),
    corner: 'a1 dark', frame: { left: rows(8, -1), bottom: [...'abcdefgh'] }, move: [22, 18], written: 'c3-d4', reply: /^[a-h][1-8][-:][a-h][1-8]/,
  },
];

for (const v of FAMILY) {
  test(`${v.title}: squares numbered as doc/VARIANTS.md says (${v.corner}), a move clicked and the engine's reply, PDN GameType ${v.gameType}`, async () => {
    const page = await openPage(browser);
    await page.selectOption('#movetime', '0.2');
    await page.selectOption('#variant', v.variant);
    await page.waitForFunction((name) => document.body.dataset.variant === name, v.variant, { timeout: 10000 });
    assert.equal(await page.title(), `poolshark: ${v.title}`);
    assert.match(await page.textContent('#subtitle'), new RegExp(v.title));
    /* Playing White, the board is drawn as White sees it. */
    await page.click('#new-white');
    /* The new game is set up after the engine answers: wait for it before reading the board. */
    await page.waitForFunction(() => /you play White/.test(document.getElementById('message').textContent), null, { timeout: 10000 });
    await settle(page);
    await page.check('#numbers');
    const startFen = await page.evaluate(() => window.poolshark.startFen);
    assert.equal(startFen[0], v.first, `${v.variant} starts with ${startFen}`);

    /* Every dark square where the document puts it, with its name. */
    const drawn = await page.locator('#board rect[data-square]').evaluateAll((rects) =>
      rects.map((r) => [Number(r.dataset.square), Number(r.getAttribute('x')) / 100, Number(r.getAttribute('y')) / 100]));
    assert.equal(drawn.length, 32);
    for (const [n, x, y] of drawn) assert.deepEqual([x, y], v.cell(n), `${v.variant}: square ${n} drawn at ${algebraic([x, y])}`);
    const names = await page.locator('#board .number').evaluateAll((ts) =>
      ts.map((t) => [Math.floor(Number(t.getAttribute('x')) / 100), Math.floor(Number(t.getAttribute('y')) / 100), t.textContent]));
    assert.equal(names.length, 32);
    const byCell = new Map(drawn.map(([n, x, y]) => [`${x},${y}`, n]));
    for (const [x, y, text] of names) assert.equal(text, v.named(byCell.get(`${x},${y}`)), `${v.variant}: the name on ${algebraic([x, y])}`);
    /* a1 is dark on pool's board, light on the mirrored Italian and Spanish boards. */
    const a1 = await page.locator('#board .layer-squares rect[x="0"][y="700"]').getAttribute('class');
    assert.equal(a1, v.cell === poolCell ? 'dark' : 'light');
    /* The frame: the top row's first and last square, or the files and ranks. */
    const frame = await page.locator('#board .coordinate').evaluateAll((ts) => ts.map((t) => [t.dataset.side, t.textContent]));
    for (const [side, texts] of Object.entries(v.frame)) {
      assert.deepEqual(frame.filter(([s]) => s === side).map(([, t]) => t), texts, `${v.variant}: the frame's ${side} side`);
    }
    /* Turned round (as Black sees it), each side's labels are the other side's backwards (a1 top left, files h-a). */
    await page.click('#flip');
    const turned = await page.locator('#board .coordinate').evaluateAll((ts) => ts.map((t) => [t.dataset.side, t.textContent]));
    const opposite = { left: v.frame.right ? 'right' : 'left', right: 'left', bottom: 'bottom' };
    for (const side of Object.keys(v.frame)) {
      assert.deepEqual(turned.filter(([s]) => s === side).map(([, t]) => t), [...v.frame[opposite[side]]].reverse(), `${v.variant}: turned, the frame's ${side} side`);
    }
    assert.equal(await square(page, 1).getAttribute('x'), String(700 - v.cell(1)[0] * 100));
    await page.click('#flip');

    /* English: Black (the engine) opens; the others: White (the player). */
    const before = v.first === 'W' ? 0 : 1;
    await waitMoves(page, before);
    await settle(page);
    const [from, to] = v.move;
    await clickSquares(page, from, to);
    await waitMoves(page, before + 2);
    await settle(page);
    const played = await moves(page);
    assert.equal(played[before], v.written);
    const reply = played[before + 1];
    assert.match(reply, v.reply);
    assert.match(await page.textContent('#message'), new RegExp(`poolshark played ${reply.replace(/[-:]/g, '.')}`));
    assert.match(await page.textContent('#moves .mainline'), new RegExp(`^1\\.${v.first === 'W' ? '' : '\\S+\\s*'}${v.written}`));
    /* The piece moved is drawn where its square is. */
    const piece = await page.locator(`#board [data-piece="${to}"]`).getAttribute('style');
    const [tx, ty] = v.cell(to);
    assert.match(piece, new RegExp(`translate\\(${tx * 100}px, ${ty * 100}px\\)`));
    /* The reply's score, by the rule set's network. */
    const score = /([+-]\d+\.\d\d|(win|loss) in \d+)/.source;
    assert.match(await page.textContent('#score'), new RegExp(`^poolshark ${score} \\(White's view\\)$`));
    assert.match(await page.textContent('#depth'), /^depth \d+, [\d,]+ nodes$/);
    assert.match(await page.textContent('#pv'), new RegExp(v.reply.source.slice(1)));
    assert.doesNotMatch(await page.textContent('.engine-lines'), /NaN|undefined/);
    assert.match(await page.getAttribute('#eval-bar', 'title'), new RegExp(`^evaluation: ${score} from White's view$`));
    await page.locator('.bar-and-board').screenshot({ path: join(shots, `board-${v.variant}.png`) });
    if (v.variant === 'italian') docShot('board-italian.png', 'web-italian.png');

    /* Saved with its GameType and its own notation, read back under it. */
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pdn-save')]);
    const file = join(shots, `saved-${v.variant}.pdn`);
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    assert.match(text, new RegExp(`\\[GameType "${v.gameType}"\\]`));
    assert.ok(text.includes(`\n1. ${played.slice(0, 2).join(' ')} `), text);
    assert.doesNotMatch(text, /\[FEN /);
    if (process.env.PDN_READ) {
      const read = execFileSync(process.env.PDN_READ, [file], { encoding: 'utf8' }).split('\n');
      assert.equal(read[1], 'moves ' + played.join(' '));
    }
    await page.selectOption('#variant', 'pool');
    await page.waitForFunction(() => document.body.dataset.variant === 'pool', null, { timeout: 10000 });
    await page.fill('#pdn-text', text);
    await page.click('#pdn-load');
    await page.waitForFunction((m) => document.body.dataset.moves === m, played.join(' '), { timeout: 10000 });
    assert.equal(await page.inputValue('#variant'), v.variant);
    assert.equal(await page.title(), `poolshark: ${v.title}`);
    assert.equal(await square(page, 1).getAttribute('x'), String(v.cell(1)[0] * 100));
    await page.uncheck('#analyse');
    await settle(page);
    assert.deepEqual(page.problems, [], 'console errors: ' + page.problems.join('; '));
    await page.context().close();
  });
}

/* One whole game of `v` in a page of its own: the player clicks the first
 * legal move each turn, the engine answers, until the rules end it; then
 * the game's PDN is saved and read back. */
async function playWholeGame(v) {
  const page = await openPage(browser);
  /* A choice faster than the page offers: the games' moves, not the
   * engine's strength, are what is checked here. */
  await page.evaluate(() => document.getElementById('movetime').add(new Option('0.03 s', '0.03')));
  await page.selectOption('#movetime', '0.03');
  await page.selectOption('#variant', v.variant);
  await page.waitForFunction((name) => document.body.dataset.variant === name, v.variant, { timeout: 10000 });
  await page.click('#new-white');
  for (;;) {
    await page.waitForFunction(() => document.body.dataset.over ||
      (document.body.dataset.busy === 'false' && (document.body.dataset.fen || '')[0] === 'W'), null, { timeout: 60000 });
    if (await dataset(page, 'over')) break;
    /* The engine's first legal move, entered square by square on the board. */
    const path = await page.evaluate(() => window.poolshark.legal[0].path);
    const before = await dataset(page, 'moves');
    await clickSquares(page, ...path);
    try {
      await page.waitForFunction((b) => document.body.dataset.moves !== b, before, { timeout: 20000 });
    } catch (e) {
      const message = await page.textContent('#message');
      throw new Error(`${v.variant}: squares ${path.join(', ')} clicked after "${before}", not played ("${message}"): ${e.message}`);
    }
  }
  const played = await moves(page);
  assert.ok(played.length > 10, `${v.variant}: ${played.join(' ')}`);
  const notation = v.reply.source === /^\d+[-x]\d+/.source ? /^\d+([-x]\d+)+$/ : /^[a-h][1-8]([-:][a-h][1-8])+$/;
  for (const m of played) assert.match(m, notation, `${v.variant}: ${m}`);
  assert.match(await dataset(page, 'over'), /^(1-0|0-1|1\/2-1\/2)$/);
  assert.match(await page.textContent('#status'), /wins: |^Draw: /);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pdn-save')]);
  const file = join(shots, `whole-${v.variant}.pdn`);
  await download.saveAs(file);
  assert.match(readFileSync(file, 'utf8'), new RegExp(`\\[GameType "${v.gameType}"\\]`));
  if (process.env.PDN_READ) {
    const read = execFileSync(process.env.PDN_READ, [file], { encoding: 'utf8' }).split('\n');
    assert.equal(read[1], 'moves ' + played.join(' '), v.variant);
  }
  assert.deepEqual(page.problems, [], `${v.variant}: console errors: ` + page.problems.join('; '));
  await page.context().close();
}

/* The four games at once, each in its own page: the time goes in the
 * clicks' round trips, not in the engine. */
test('each of the four plays a whole game in the page: the player clicks a legal move each turn until the rules end it', async () => {
  await Promise.all(FAMILY.map(playWholeGame));
});
