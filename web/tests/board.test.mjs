// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis board in Chromium: the move tree, undo, links, hidden thinking in clock games, forced replies, sounds.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { clickSquares, dataset, launch, openPage, pageUrl, root, settle, shots } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const waitFor = (page, f, arg, timeout = 20000) => page.waitForFunction(f, arg, { timeout });
const plies = async (page) => (await dataset(page, 'line')).split(' ').filter(Boolean);

function noProblems(page) {
  assert.deepEqual(page.problems, [], 'console errors: ' + page.problems.join('; '));
}

/* Types a move and waits until the line shown holds `line` (space-separated). */
async function typeMove(page, move, line) {
  await page.fill('#move-input', move);
  await page.click('#move-play');
  await waitFor(page, (l) => document.body.dataset.line === l && document.body.dataset.moves === l, line);
}

/* The tree of the page as nested [move, [children]]. */
function treeOf(page) {
  return page.evaluate(() => {
    const moves = (n) => [n.move, n.children.map(moves)];
    return moves(window.poolshark.tree.root);
  });
}

async function savePdn(page, name) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pdn-save')]);
  const file = join(shots, name);
  await download.saveAs(file);
  return file;
}

test('the move tree: a side line starts, the keys walk it, it is promoted, saved and read back whole; Undo brings back a deletion', async () => {
  const page = await openPage(browser);
  await page.check('#analyse');
  await typeMove(page, '11-15', '11-15');
  await typeMove(page, '23-19', '11-15 23-19');
  await typeMove(page, '8-11', '11-15 23-19 8-11');
  /* Back to ply 1: another answer starts a side line, nothing is lost. */
  await page.locator('#moves button[data-ply="1"]').click();
  await waitFor(page, () => document.body.dataset.view === '1');
  await typeMove(page, '22-17', '11-15 22-17');
  await typeMove(page, '9-13', '11-15 22-17 9-13');
  assert.equal(await dataset(page, 'lines'), '2');
  assert.deepEqual(await treeOf(page), [null, [['11-15', [['23-19', [['8-11', []]]], ['22-17', [['9-13', []]]]]]]]);
  assert.match(await page.textContent('#moves .variation'), /^1…22-17\s*2\.9-13$/);
  /* Up and down go between the two answers at ply 2, left and right along the line. */
  await page.locator('#board').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('ArrowUp');
  await waitFor(page, () => document.body.dataset.moves === '11-15 23-19');
  assert.equal(await dataset(page, 'line'), '11-15 23-19 8-11');
  await page.keyboard.press('ArrowDown');
  await waitFor(page, () => document.body.dataset.moves === '11-15 22-17');
  await page.keyboard.press('ArrowRight');
  await waitFor(page, () => document.body.dataset.moves === '11-15 22-17 9-13');
  /* Promoted, the side line becomes the main line. */
  assert.equal(await page.isDisabled('#promote'), false);
  await page.click('#promote');
  assert.match(await page.textContent('#message'), /22-17 is now the main line/);
  assert.match(await page.textContent('#moves .mainline'), /^1\.11-15\s*22-17/);
  assert.equal(await page.isDisabled('#promote'), true);
  const tree = await treeOf(page);
  assert.deepEqual(tree, [null, [['11-15', [['22-17', [['9-13', []]]], ['23-19', [['8-11', []]]]]]]]);

  const file = await savePdn(page, 'tree.pdn');
  const text = readFileSync(file, 'utf8');
  assert.match(text, /\n1\. 11-15 22-17 \(1\.\.\. 23-19 2\. 8-11\) 2\. 9-13 \*\n/);
  if (process.env.PDN_READ) {
    /* poolshark's own reader takes the side line and keeps the main line. */
    const read = execFileSync(process.env.PDN_READ, [file], { encoding: 'utf8' }).split('\n');
    assert.equal(read[1], 'moves 11-15 22-17 9-13');
  }
  const again = await openPage(browser);
  await again.setInputFiles('#pdn-file', file);
  await waitFor(again, () => document.body.dataset.line === '11-15 22-17 9-13');
  assert.deepEqual(await treeOf(again), tree);
  assert.match(await again.textContent('#message'), /Loaded 3 moves and 1 side line/);
  noProblems(again);
  await again.context().close();

  /* Deleting the side line asks for nothing but can be undone. */
  await page.locator('#moves .variation button[data-ply="2"]').click();
  await waitFor(page, () => document.body.dataset.moves === '11-15 23-19');
  await page.click('#delete');
  await waitFor(page, () => document.body.dataset.lines === '1' && document.body.dataset.moves === '11-15');
  assert.match(await page.textContent('#message'), /Deleted 23-19 and 1 move after it/);
  await page.click('#undo');
  await waitFor(page, () => document.body.dataset.lines === '2');
  assert.deepEqual(await treeOf(page), tree);
  await page.uncheck('#analyse');
  noProblems(page);
  await page.context().close();
});

test('New game and a change of variant can be undone', async () => {
  const page = await openPage(browser);
  await page.selectOption('#movetime', '0.2');
  await clickSquares(page, 11, 15);
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 2 && document.body.dataset.busy === 'false');
  const line = await plies(page);
  assert.equal(await page.isHidden('#undo'), true);
  await page.selectOption('#variant', 'russian');
  await waitFor(page, () => document.body.dataset.variant === 'russian' && document.body.dataset.busy === 'false');
  assert.equal(await page.title(), 'poolshark: Russian draughts');
  await page.click('#undo');
  await waitFor(page, (l) => document.body.dataset.variant === 'pool' && document.body.dataset.line === l, line.join(' '));
  assert.match(await page.textContent('#message'), /Brought back the game of 2 moves/);
  assert.equal(await page.title(), 'poolshark: American pool checkers');
  assert.equal(await page.textContent('#undo'), 'Redo');
  await page.click('#new-white');
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 1 && document.body.dataset.busy === 'false');
  await page.click('#undo');
  await waitFor(page, (l) => document.body.dataset.line === l, line.join(' '));
  await settle(page);
  noProblems(page);
  await page.context().close();
});

test('a link holds the game: opened in a new page it shows the same position', async () => {
  const page = await openPage(browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.fill('#pdn-text', '[GameType "23"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 *\n');
  await page.click('#pdn-load');
  await waitFor(page, () => document.body.dataset.view === '6');
  await page.locator('#moves button[data-ply="3"]').click();
  await waitFor(page, () => document.body.dataset.view === '3');
  const fen = await dataset(page, 'fen');
  await page.click('#copy-link');
  await waitFor(page, () => /Copied a link/.test(document.getElementById('message').textContent));
  const link = await dataset(page, 'copied');
  assert.ok(link.startsWith(pageUrl + '#'), link);
  await page.click('#copy-fen');
  await waitFor(page, (f) => document.body.dataset.copied === f, fen);
  await page.click('#copy-pdn');
  await waitFor(page, () => /1\. 11-15 23-19 2\. 8-11 22-17 3\. 9-13 17-14/.test(document.body.dataset.copied));

  const other = await browser.newContext({ viewport: { width: 1180, height: 860 } });
  const opened = await other.newPage();
  await opened.goto(link);
  await opened.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await waitFor(opened, (f) => document.body.dataset.fen === f && document.body.dataset.view === '3', fen);
  assert.equal(await dataset(opened, 'line'), await dataset(page, 'line'));
  assert.match(await opened.textContent('#message'), /Opened the link: 6 moves/);
  await other.close();
  noProblems(page);
  await page.context().close();
});

test('a clock game hides the engine\'s line, bar and arrows until it ends; a forced reply says so', async () => {
  const page = await openPage(browser);
  await page.check('#clock-on');
  await page.fill('#clock-base', '1');
  await page.fill('#clock-inc', '0');
  assert.match(await page.textContent('#time-note'), /clock starts with the next new game/);
  await page.click('#new-black');
  await waitFor(page, () => document.body.classList.contains('clocked'));
  assert.match(await page.textContent('#time-note'), /on the clock \(1:00 \+ 0 s each\): poolshark plays by its clock/);
  await clickSquares(page, 11, 15);
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 2 && document.body.dataset.busy === 'false');
  assert.equal(await page.isHidden('#engine-lines'), true);
  assert.equal(await page.locator('#eval-bar').evaluate((e) => getComputedStyle(e).visibility), 'hidden');
  assert.equal(await page.locator('#board .arrow-group').count(), 0);
  await page.click('#resign');
  await waitFor(page, () => document.body.dataset.over === '1-0');
  assert.equal(await page.isVisible('#engine-lines'), true);
  assert.equal(await page.locator('#eval-bar').evaluate((e) => getComputedStyle(e).visibility), 'visible');

  /* Black (the player) plays 15-18; White's only move is the capture 22x15. */
  await page.uncheck('#clock-on');
  await page.fill('#fen-text', 'B:W22,30:B1,15');
  await page.click('#fen-set');
  await waitFor(page, () => document.body.dataset.fen === 'B:W22,30:B1,15' && document.body.dataset.busy === 'false');
  await clickSquares(page, 15, 18);
  await waitFor(page, () => document.body.dataset.moves === '15-18 22x15' && document.body.dataset.busy === 'false');
  assert.match(await page.textContent('#message'), /poolshark played 22x15 \(forced\)/);
  assert.equal(await page.textContent('#depth'), 'forced');
  assert.doesNotMatch(await page.textContent('#score'), /99|depth 1/);
  noProblems(page);
  await page.context().close();
});

test('the bar follows the position shown; sounds for a move and a capture when asked for', async () => {
  const page = await openPage(browser);
  await page.selectOption('#movetime', '0.2');
  await page.check('#sounds');
  /* White, the player, is three men up: the bar leans to White without any move. */
  await page.fill('#fen-text', 'W:W18,22,26,30:B1');
  await page.click('#fen-set');
  await waitFor(page, () => Number(document.body.dataset.evalWhite) > 2);
  const share = await page.evaluate(() => parseFloat(document.getElementById('eval-fill').style.height));
  assert.ok(share > 75, `White's share of the bar is ${share}%`);
  await clickSquares(page, 30, 25);
  await waitFor(page, () => document.body.dataset.sound === 'move');
  await page.fill('#fen-text', 'B:W22,30:B1,15');
  await page.click('#fen-set');
  await waitFor(page, () => document.body.dataset.fen === 'B:W22,30:B1,15' && document.body.dataset.busy === 'false');
  await clickSquares(page, 15, 18);
  await waitFor(page, () => document.body.dataset.sound === 'capture');
  await settle(page);
  noProblems(page);
  await page.context().close();
});

/* The squares of a Hub move: from and to (a capture lists the captured after them). */
const ends = (hub) => hub.split(/[-x]/).slice(0, 2).map(Number);

test('analysis shows three lines and an arrow for each, best first; the book shows its moves with scores', async () => {
  const page = await openPage(browser);
  assert.equal(await page.inputValue('#multipv'), '3');
  await page.check('#analyse');
  await waitFor(page, () => {
    const lines = JSON.parse(document.body.dataset.pvs || '[]');
    return lines.length === 3 && lines.every((l) => l.depth >= 8 && l.depth === lines[0].depth);
  }, null, 30000);
  await page.click('#stop');
  await waitFor(page, () => document.body.dataset.busy === 'false');
  const lines = JSON.parse(await dataset(page, 'pvs'));
  const firsts = lines.map((l) => l.pv.split(' ')[0]);
  assert.equal(new Set(firsts).size, 3, `distinct first moves: ${firsts}`);
  for (let k = 1; k < 3; k++) assert.ok(lines[k].score <= lines[k - 1].score, `line ${k + 1} scores ${lines[k].score} above line ${k}'s ${lines[k - 1].score}`);
  /* The lines are under the board, each with its score. */
  assert.equal(await page.locator('#lines-more li').count(), 2);
  /* One arrow a line, from and to the first move's squares, the best drawn widest. */
  const arrows = await page.locator('#board .arrow-group').evaluateAll((gs) => gs.map((g) => ({
    rank: Number(g.dataset.rank), from: Number(g.dataset.from), to: Number(g.dataset.to),
    width: Number(g.querySelector('line').getAttribute('stroke-width')),
  })));
  assert.equal(arrows.length, 3);
  const drawn = await page.evaluate(() => JSON.parse(document.body.dataset.pvs).map((l) => l.pv.split(' ')[0]));
  arrows.forEach((a, i) => {
    assert.equal(a.rank, i + 1);
    assert.deepEqual([a.from, a.to], ends(drawn[i]));
  });
  assert.ok(arrows[0].width > arrows[1].width && arrows[1].width > arrows[2].width);
  /* An iteration's lines come a message each (the worker posts a line at a
   * time): the page draws the new iteration only when all its lines have
   * come, or its first line and the old second would show one move and
   * two arrows. Replayed here with the lines above, one iteration deeper. */
  const replay = await page.evaluate(async () => {
    const app = window.poolshark;
    const panel = app.analysis;
    const old = panel.lines.map((l) => l.info);
    const { side, fen } = panel.lines[0];
    const deeper = (info, k) => Object.assign({}, info, { depth: String(Number(info.depth) + 1), multipv: String(k) });
    const count = () => document.querySelectorAll('#board .arrow-group').length;
    const pause = () => new Promise((done) => setTimeout(done, 300));
    app.searching = true;
    panel.show(deeper(old[1], 1), side, fen, 'analysis');
    await pause();
    const partial = { arrows: count(), pv: document.body.dataset.pv };
    panel.show(deeper(old[0], 2), side, fen, 'analysis');
    panel.show(deeper(old[2], 3), side, fen, 'analysis');
    await pause();
    app.searching = false;
    return { old: old.map((i) => i.pv), partial, whole: { arrows: count(), pv: document.body.dataset.pv } };
  });
  assert.deepEqual(replay.partial, { arrows: 3, pv: replay.old[0] }, 'the first line of an iteration drawn alone');
  assert.deepEqual(replay.whole, { arrows: 3, pv: replay.old[1] }, 'the whole iteration not drawn');
  /* The start is in the book: its three moves, their weights and the engine's score of each. */
  await waitFor(page, () => (JSON.parse(document.body.dataset.book || '[]')).length > 0);
  const book = JSON.parse(await dataset(page, 'book'));
  assert.deepEqual(book.map((m) => m.move).sort(), ['11-15', '12-16', '9-14']);
  assert.ok(book.every((m) => m.weight > 0 && typeof m.score === 'number'), JSON.stringify(book));
  assert.equal(await page.locator('#book tr').count(), 3);
  /* Two lines from now on. */
  await page.check('#analyse');
  await page.selectOption('#multipv', '2');
  await waitFor(page, () => JSON.parse(document.body.dataset.pvs || '[]').length === 2);
  assert.ok((await page.locator('#board .arrow-group').count()) <= 2);
  await page.uncheck('#analyse');
  noProblems(page);
  await page.context().close();
});

test('a known four-piece win shows the databases\' distance for the position and each move', async () => {
  const fen = 'W:WK18,K22,K26:BK1';
  /* The native engine reads the same files (make web builds them in build-web/egdb). */
  const bin = process.env.POOLSHARK_BIN || join(root, 'poolshark');
  const native = execFileSync(bin, ['analyse', '--egdb', join(root, 'build-web', 'egdb'), '--fen', fen, '--lookup'], { encoding: 'utf8' });
  const m = /^position win in (\d+) plies/.exec(native);
  assert.ok(m, native);
  const page = await openPage(browser);
  await page.fill('#fen-text', fen);
  await page.click('#fen-set');
  await waitFor(page, (f) => document.body.dataset.fen === f, fen);
  /* Not during play: the panel would be a hint. */
  assert.equal(await page.isHidden('#lookup-box'), true);
  await page.check('#analyse');
  await waitFor(page, () => !!document.body.dataset.lookup, null, 30000);
  const lookup = JSON.parse(await dataset(page, 'lookup'));
  assert.equal(lookup.result, 'win');
  assert.equal(lookup.plies, Number(m[1]));
  assert.match(await page.textContent('#lookup-status'), new RegExp(`White to move: win in ${m[1]} \\(4 pieces`));
  const nativeMoves = [...native.matchAll(/^move (\S+) +(win|draw|loss)(?: in (\d+))?/gm)].map((x) => ({ move: x[1], result: x[2], plies: Number(x[3] || 0) }));
  assert.deepEqual(lookup.moves, nativeMoves);
  assert.match(await page.textContent('#lookup tr'), new RegExp(`^${nativeMoves[0].move}win in ${m[1]}$`));
  await page.uncheck('#analyse');
  noProblems(page);
  await page.context().close();
});
