// SPDX-License-Identifier: GPL-3.0-or-later
// Browser tests of reviewing and walking through a game: the move list, the graph, play on from the past, reload, the clock.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { clickSquares, dataset, launch, openPage, root, settle, shot, shots } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const engineBin = process.env.POOLSHARK_BIN || join(root, 'poolshark');
const plies = async (page, key = 'line') => (await dataset(page, key)).split(' ').filter(Boolean);
const waitFor = (page, f, arg, timeout = 20000) => page.waitForFunction(f, arg, { timeout });
/* The position after `v` plies shown, and poolshark not moving (analysis may run). */
const waitView = (page, v) => waitFor(page, (n) => document.body.dataset.view === String(n) &&
  (document.body.dataset.busy === 'false' || document.body.dataset.analysing === 'true'), v);

/* The FEN the native engine reaches after `moves` from the start. */
function nativeFen(moves) {
  const out = execFileSync(engineBin, [], { input: `pos start moves="${moves.join(' ')}"\ngame\n`, encoding: 'utf8' });
  return /fen=(\S+)/.exec(out)[1];
}

/* 3. 10-14 gives White a two-for-one (19x10 6x15 17x10x19): about 2.5 men
 * lost, found at any budget the page offers. */
const BLUNDER_GAME = '[Event "a blunder"]\n[GameType "23"]\n' +
  '1. 11-15 23-19 2. 8-11 22-17 3. 10-14 19x10 4. 6x15 17x19 5. 11-16 25-22 6. 16x23 27x18 7. 4-8 29-25 *\n';
const SHORT_GAME = '[GameType "23"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 *\n';

async function loadPdn(page, text) {
  await page.fill('#pdn-text', text);
  await page.click('#pdn-load');
}

function noProblems(page) {
  assert.deepEqual(page.problems, [], 'console errors: ' + page.problems.join('; '));
}

test('review: one graph point a ply, the blunder marked with the best move, saved as NAG and comment', async () => {
  const page = await openPage(browser);
  await page.selectOption('#review-budget', 'quick');
  await loadPdn(page, BLUNDER_GAME);
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 14);
  /* A loaded game opens for analysis, its players and event shown. */
  assert.match(await page.textContent('#status'), /^Analysis: /);
  assert.match(await page.textContent('#game-info'), /a blunder/);
  await page.click('#review');
  await waitFor(page, () => /Review done/.test(document.getElementById('message').textContent), null, 60000);
  assert.equal(await page.locator('#graph circle.graph-point').count(), 14);
  /* Ply 5, Black's 10-14, is Black's one blunder; the best move is another.
   * White's later moves, a side far ahead giving back part of its lead, may
   * be marked too as the evaluation of the day judges them: only Black's
   * marks are fixed. The move list and the graph mark the same plies. */
  const plyOf = (els) => els.map((e) => Number(e.dataset.ply));
  const blunderPlies = await page.locator('#moves button.move.blunder').evaluateAll(plyOf);
  assert.deepEqual(blunderPlies.filter((p) => p % 2 === 1), [5]);
  assert.deepEqual(await page.locator('#graph circle.blunder').evaluateAll(plyOf), blunderPlies);
  const blunder = page.locator('#moves button.move.blunder[data-ply="5"]');
  assert.equal(await blunder.textContent(), '10-14??');
  const note = await page.locator('#moves .note.blunder').first().textContent();
  const best = /best (\d+-\d+)/.exec(note);
  assert.ok(best && best[1] !== '10-14', note);
  assert.match(await page.textContent('#review-summary'), /Black: blunder 1/);
  assert.equal(await page.textContent('#review-help'),
    'Review: a move that loses at least 0.3 of a man is dubious (?!), 0.6 a mistake (?), 0.9 a blunder (??).');
  /* The graph's points go to their ply. */
  await page.locator('#graph circle[data-ply="5"]').click();
  await waitView(page, 5);
  await shot(page, 'review');
  /* A side line from ply 4: the summary is of the line shown, its first four moves. */
  await page.locator('#moves button[data-ply="4"]').click();
  await waitView(page, 4);
  await page.fill('#move-input', '9-13');
  await page.click('#move-play');
  await waitFor(page, () => document.body.dataset.moves === '11-15 23-19 8-11 22-17 9-13');
  assert.match(await page.textContent('#review-summary'), /^Black: blunder 0.*\(the first 4 of the line's 5 moves\)$/);
  assert.equal(await page.locator('#graph circle.graph-point').count(), 4);
  await page.keyboard.press('ArrowUp');
  await waitFor(page, () => document.body.dataset.moves === '11-15 23-19 8-11 22-17 10-14');
  assert.match(await page.textContent('#review-summary'), /^Black: blunder 1/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pdn-save')]);
  const file = join(shots, 'reviewed.pdn');
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.match(text, /3\. 10-14 \$4\s+\{[^}]*blunder, best \d+-\d+[^}]*\}/, 'the comment may start the next line');
  assert.match(text, /\[Annotator "poolshark review/);
  assert.match(text, /\[Event "a blunder"\]/, 'a loaded game keeps its tags');
  if (process.env.PDN_READ) {
    const read = execFileSync(process.env.PDN_READ, [file], { encoding: 'utf8' }).split('\n');
    assert.equal(read[1], 'moves ' + (await plies(page)).join(' '));
  }
  noProblems(page);
  await page.context().close();
});

test('walk: the move list, the arrow keys, Home, End and the buttons show the positions of the game', async () => {
  const page = await openPage(browser);
  await loadPdn(page, SHORT_GAME);
  await waitFor(page, () => document.body.dataset.view === '6');
  await page.uncheck('#analyse');
  const line = await plies(page);
  await page.locator('#moves button[data-ply="2"]').click();
  await waitView(page, 2);
  assert.equal(await dataset(page, 'fen'), nativeFen(line.slice(0, 2)));
  assert.deepEqual(await plies(page), line, 'walking keeps the whole game');
  assert.equal(await page.getAttribute('#moves button.current', 'data-ply'), '2');
  await page.locator('#board').click({ position: { x: 2, y: 2 } }); /* the keys work with the focus off the list */
  await page.keyboard.press('ArrowRight');
  await waitView(page, 3);
  assert.equal(await dataset(page, 'fen'), nativeFen(line.slice(0, 3)));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await waitView(page, 1);
  await page.keyboard.press('Home');
  await waitView(page, 0);
  assert.equal(await dataset(page, 'fen'), nativeFen([]));
  await page.keyboard.press('End');
  await waitView(page, 6);
  await page.click('#walk-back');
  await waitView(page, 5);
  await page.click('#walk-start');
  await waitView(page, 0);
  await page.click('#walk-forward');
  await waitView(page, 1);
  await page.click('#walk-end');
  await waitView(page, 6);
  assert.equal(await dataset(page, 'fen'), nativeFen(line));
  /* Keys pressed faster than the engine answers add up, in analysis too. */
  await page.check('#analyse');
  await page.locator('#board').click({ position: { x: 2, y: 2 } });
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  await waitFor(page, () => document.body.dataset.view === '2');
  await page.waitForTimeout(300);
  assert.equal(await dataset(page, 'view'), '2');
  assert.equal(await dataset(page, 'fen'), nativeFen(line.slice(0, 2)));
  await page.uncheck('#analyse');
  noProblems(page);
  await page.context().close();
});

test('a move played at an earlier position starts a side line; take back keeps the moves', async () => {
  const page = await openPage(browser);
  await page.selectOption('#movetime', '0.2');
  await loadPdn(page, SHORT_GAME);
  await waitFor(page, () => document.body.dataset.view === '6');
  await page.uncheck('#analyse');
  await page.locator('#moves button[data-ply="2"]').click();
  await waitView(page, 2);
  assert.match(await page.textContent('#status'), /Move 2 of 6/);
  await clickSquares(page, 9, 14);
  /* The new move starts a side line, the game's moves stay, and poolshark answers. */
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 4 && document.body.dataset.busy === 'false');
  const line = await plies(page);
  assert.deepEqual(line.slice(0, 3), ['11-15', '23-19', '9-14']);
  assert.equal(await dataset(page, 'view'), '4');
  assert.equal(await dataset(page, 'lines'), '2');
  assert.match(await page.textContent('#moves .mainline'), /8-11.*22-17.*9-13.*17-14/);
  assert.match(await page.textContent('#moves .variation'), /^2\.9-14/);
  assert.match(await page.textContent('#status'), /Your move/);
  await page.click('#takeback');
  await waitFor(page, () => document.body.dataset.view === '2' && document.body.dataset.busy === 'false');
  assert.deepEqual(await plies(page), line, 'the moves taken back stay in the line');
  assert.equal(await dataset(page, 'fen'), nativeFen(['11-15', '23-19']));
  assert.match(await page.textContent('#message'), /Took back 2 moves/);
  noProblems(page);
  await page.context().close();
});

test('the game and the settings survive a reload', async () => {
  const page = await openPage(browser);
  await page.selectOption('#movetime', '0.2');
  await page.fill('#strength', '60');
  await page.dispatchEvent('#strength', 'change');
  await page.selectOption('#score-view', 'me');
  await page.check('#numbers');
  await clickSquares(page, 11, 15);
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 2 && document.body.dataset.busy === 'false');
  await page.locator('#moves button[data-ply="1"]').click();
  await waitView(page, 1);
  const line = await plies(page);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await settle(page);
  assert.deepEqual(await plies(page), line);
  assert.equal(await dataset(page, 'view'), '1');
  assert.equal(await dataset(page, 'fen'), nativeFen(line.slice(0, 1)));
  assert.equal(await page.inputValue('#movetime'), '0.2');
  assert.equal(await page.inputValue('#strength'), '60');
  assert.equal(await page.inputValue('#score-view'), 'me');
  assert.equal(await page.isChecked('#numbers'), true);
  assert.match(await page.textContent('#message'), /Restored the game/);

  /* A saved game the engine refuses (edited by hand, or an older page) gives way to a new one. */
  await page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('poolshark.page'));
    saved.game.tree.root = [null, [['11-15', [['11-15', [], {}]], {}]], {}];
    localStorage.setItem('poolshark.page', JSON.stringify(saved));
    history.replaceState(null, '', location.pathname); /* the address would bring the game back */
  });
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  assert.match(await page.textContent('#message'), /The saved game could not be restored \(move 2 in moves: illegal move 11-15\)/);
  assert.equal(await dataset(page, 'line'), '');
  assert.equal(await dataset(page, 'fen'), nativeFen([]));
  noProblems(page);
  await page.context().close();
});

test('a PDN of several games asks which one; a damaged game or an illegal move is named and the game kept', async () => {
  const page = await openPage(browser);
  const file = [
    '[Event "first"]\n[White "Ann"]\n[Black "Bob"]\n1. 11-15 23-19 *\n',
    '[Event "damaged"]\n1. 9-13 22-18\n2. 13-17 hello 3. 5-9 *\n',
    '[Event "illegal"]\n1. 11-15 22-18\n2. 15-19 24-20 *\n',
    '[Event "fourth"]\n1. 9-14 22-17 2. 11-15 *\n',
  ].join('\n');
  await loadPdn(page, file);
  await waitFor(page, () => !document.getElementById('pdn-choice').hidden);
  const titles = await page.locator('#pdn-games button').allTextContents();
  assert.equal(titles.length, 4);
  assert.match(titles[0], /game 1: Ann - Bob, first \* \(2 plies\)/);
  assert.match(titles[1], /game 2: damaged/);
  assert.equal(await dataset(page, 'line'), '', 'nothing loads before a choice');
  await page.click('#pdn-games button[data-index="3"]');
  await waitFor(page, () => document.body.dataset.line === '9-14 22-17 11-15');
  assert.match(await page.textContent('#message'), /game 4 of 4/);
  const fen = await dataset(page, 'fen');

  await loadPdn(page, file);
  await page.click('#pdn-games button[data-index="1"]');
  await waitFor(page, () => /Bad PDN/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /game 2, move 2, line 8: 'hello' is not a move in PDN/);
  await page.click('#pdn-games button[data-index="2"]');
  await waitFor(page, () => /illegal move/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /game 3, move 2\. 15-19 \(line 12\): illegal move 15-19/);
  assert.equal(await dataset(page, 'line'), '9-14 22-17 11-15');
  assert.equal(await dataset(page, 'fen'), fen);
  noProblems(page);
  await page.context().close();
});

test('during play the bar and the line under the board show poolshark\'s own search', async () => {
  const page = await openPage(browser);
  await page.selectOption('#movetime', '0.2');
  /* White, the player, is three men up; poolshark answers as Black. */
  await page.fill('#fen-text', 'W:W18,22,26,30:B1');
  await page.click('#fen-set');
  await waitFor(page, () => document.body.dataset.fen === 'W:W18,22,26,30:B1');
  await clickSquares(page, 30, 25);
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 2 && document.body.dataset.busy === 'false');
  assert.match(await page.textContent('#score'), /^poolshark \+\d+\.\d\d \(White's view\)|^poolshark win in \d+ \(White's view\)/);
  assert.match(await page.textContent('#depth'), /^depth \d+, [\d,]+ nodes$/);
  const share = await page.evaluate(() => parseFloat(document.getElementById('eval-fill').style.height));
  assert.ok(share > 75, `White's share of the bar is ${share}%`);
  assert.ok((await page.locator('#pv .pv-move').count()) >= 1);
  await page.selectOption('#score-view', 'me');
  noProblems(page);
  await page.context().close();
});

test('the clock: poolshark gets `level time= inc=`, and the player who runs out of time loses', async () => {
  const page = await openPage(browser);
  await page.check('#clock-on');
  await page.fill('#clock-base', '0.05'); /* 3 seconds each */
  await page.fill('#clock-inc', '0');
  await page.click('#new-black');
  await waitFor(page, () => !document.querySelector('.clocks').hidden);
  await clickSquares(page, 11, 15);
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 2 && document.body.dataset.busy === 'false');
  const level = await dataset(page, 'level');
  const m = /^level time=(\d+\.\d+) inc=0\.000$/.exec(level);
  assert.ok(m && Number(m[1]) <= 3 && Number(m[1]) > 2, level);
  /* Black (the player) waits: the flag falls. */
  await waitFor(page, () => document.body.dataset.over === '1-0', null, 10000);
  assert.equal(await page.textContent('#status'), 'White wins on time.');
  assert.equal(await page.textContent('#clock-bottom'), 'Black 0:00.0');
  assert.ok(await page.locator('#clock-bottom').evaluate((e) => e.classList.contains('low')));
  await shot(page, 'clock-flag');
  /* No move once the flag has fallen. */
  await clickSquares(page, 9, 14);
  assert.equal((await plies(page)).length, 2);
  noProblems(page);
  await page.context().close();
});

test('a review started while poolshark thinks lets it move afterwards', async () => {
  const page = await openPage(browser);
  await page.selectOption('#movetime', '5');
  await page.selectOption('#review-budget', 'quick');
  await clickSquares(page, 11, 15);
  await waitFor(page, () => document.body.dataset.busy === 'true');
  await page.click('#review');
  await waitFor(page, () => /Review done/.test(document.getElementById('message').textContent) ||
    (document.body.dataset.line || '').split(' ').length === 2);
  assert.equal(await page.locator('#graph circle.graph-point').count(), 1);
  /* The interrupted search starts again and poolshark plays (5 s a move). */
  await waitFor(page, () => (document.body.dataset.line || '').split(' ').length === 2 && document.body.dataset.busy === 'false', null, 15000);
  assert.match(await page.textContent('#status'), /Your move/);
  noProblems(page);
  await page.context().close();
});
