// SPDX-License-Identifier: GPL-3.0-or-later
// Browser tests of the page: Debian's chromium plays, loads and analyses through the WebAssembly engine.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { clickSquares, dataset, docShot, launch, openPage, serveSite, settle, shot, shots, square } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const moves = async (page) => (await dataset(page, 'moves')).split(' ').filter(Boolean);

/* The page at the start, engine quick: 0.2 s a move. */
async function fresh() {
  const page = await openPage(browser);
  await page.selectOption('#movetime', '0.2');
  return page;
}

async function setFen(page, fen) {
  await page.fill('#fen-text', fen);
  await page.click('#fen-set');
  await page.waitForFunction((f) => document.body.dataset.fen === f, fen, { timeout: 10000 });
}

function noProblems(page) {
  assert.deepEqual(page.problems, [], 'console errors: ' + page.problems.join('; '));
}

test('the page loads from disk and from a static server with no console errors', async () => {
  const page = await fresh();
  assert.match(await page.textContent('#engine-label'), /WebAssembly/);
  assert.equal(await page.locator('#board .piece').count(), 24);
  assert.match(await page.textContent('#status'), /Your move \(Black\)/);
  await page.check('#numbers');
  await shot(page, 'start-numbers');
  noProblems(page);
  await page.context().close();

  const site = await serveSite();
  const served = await openPage(browser, site.url);
  assert.equal(await served.locator('#board .piece').count(), 24);
  noProblems(served);
  await served.context().close();
  await site.close();
});

test('a legal move is accepted, an illegal one refused, and the engine replies', async () => {
  const page = await fresh();
  await square(page, 11).click();
  const targets = await page.locator('#board .target').evaluateAll((e) => e.map((c) => c.dataset.target).sort());
  assert.deepEqual(targets, ['15', '16']);
  await square(page, 19).click();
  assert.match(await page.textContent('#message'), /Not a legal move: 11-19/);
  assert.deepEqual(await moves(page), []);
  await page.fill('#move-input', '12-13');
  await page.click('#move-play');
  await page.waitForFunction(() => /illegal move 12-13/.test(document.getElementById('message').textContent));
  await clickSquares(page, 11, 15);
  await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length === 2, null, { timeout: 20000 });
  await settle(page);
  const m = await moves(page);
  assert.equal(m[0], '11-15');
  assert.match(await page.textContent('#message'), new RegExp(`poolshark played ${m[1]}`));
  assert.match(await page.textContent('#moves'), /11-15/);
  await shot(page, 'after-reply');
  noProblems(page);
  await page.context().close();
});

test('a move can be dragged', async () => {
  const page = await fresh();
  const from = await square(page, 10).boundingBox();
  const to = await square(page, 14).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + 10, to.y + 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => (document.body.dataset.moves || '').startsWith('10-14'), null, { timeout: 10000 });
  await settle(page);
  noProblems(page);
  await page.context().close();
});

test('a multi-capture is entered square by square, only legal continuations offered', async () => {
  const page = await fresh();
  /* RULES.md: White's king-to-be on 18 has three captures; two end on 2. */
  await setFen(page, 'W:W18:B7,15,16,23,24');
  assert.match(await page.textContent('#status'), /Your move \(White\)/);
  await square(page, 18).click();
  const first = await page.locator('#board .target').evaluateAll((e) => e.map((c) => c.dataset.target).sort());
  assert.deepEqual(first, ['11', '27']);
  await square(page, 2).click(); /* the destination alone is ambiguous */
  assert.match(await page.textContent('#message'), /Several captures end on 2/);
  await clickSquares(page, 27);
  assert.deepEqual(await page.locator('#board .target').evaluateAll((e) => e.map((c) => c.dataset.target)), ['20']);
  await clickSquares(page, 20);
  assert.deepEqual(await page.locator('#board .target').evaluateAll((e) => e.map((c) => c.dataset.target)), ['11']);
  await clickSquares(page, 11);
  assert.deepEqual(await page.locator('#board .target').evaluateAll((e) => e.map((c) => c.dataset.target).sort()), ['18', '2']);
  await shot(page, 'capture-in-progress');
  await page.check('#numbers');
  await page.locator('.bar-and-board').screenshot({ path: join(shots, 'board.png') });
  docShot('board.png', 'web-board.png');
  await clickSquares(page, 2);
  await page.waitForFunction(() => (document.body.dataset.moves || '').startsWith('18x27x20x11x2'), null, { timeout: 10000 });
  await settle(page);
  assert.match(await dataset(page, 'fen'), /K2/);
  noProblems(page);
  await page.context().close();
});

test('take back restores the position before the player\'s move', async () => {
  const page = await fresh();
  const start = await dataset(page, 'fen');
  await clickSquares(page, 9, 13);
  await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length === 2, null, { timeout: 20000 });
  await settle(page);
  await page.click('#takeback');
  await page.waitForFunction(() => (document.body.dataset.moves || '') === '', null, { timeout: 10000 });
  assert.equal(await dataset(page, 'fen'), start);
  assert.match(await page.textContent('#message'), /Took back 2 moves/);
  noProblems(page);
  await page.context().close();
});

test('the game ends with the reason from the engine\'s record', async () => {
  const page = await fresh();
  await setFen(page, 'B:W18:B14');
  await clickSquares(page, 14, 23);
  await page.waitForFunction(() => document.body.dataset.over === '0-1', null, { timeout: 10000 });
  assert.equal(await page.textContent('#status'), 'Black wins: White has no legal move.');
  await shot(page, 'game-over');
  if (process.env.PDN_READ) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pdn-save')]);
    const file = join(shots, 'game-over.pdn');
    await download.saveAs(file);
    const read = execFileSync(process.env.PDN_READ, [file], { encoding: 'utf8' });
    assert.equal(read, 'start B:W18:B14\nmoves 14x23\nresult 0-1\n');
  }

  /* A draw by repetition, both sides moved by the player in analysis mode. */
  await setFen(page, 'B:WK32:BK1');
  await page.check('#analyse');
  for (const move of ['1-5', '32-28', '5-1', '28-32', '1-5', '32-28', '5-1', '28-32']) {
    const before = (await moves(page)).length;
    await page.fill('#move-input', move);
    await page.click('#move-play');
    await page.waitForFunction((n) => (document.body.dataset.moves || '').split(' ').filter(Boolean).length > n, before, { timeout: 10000 });
  }
  await page.waitForFunction(() => document.body.dataset.over === '1/2-1/2', null, { timeout: 10000 });
  assert.equal(await page.textContent('#status'), 'Draw: threefold repetition.');
  await page.uncheck('#analyse');
  noProblems(page);
  await page.context().close();
});

test('PDN saved from the page reads back with poolshark\'s PDN reader into the same moves', async () => {
  const reader = process.env.PDN_READ;
  assert.ok(reader, 'PDN_READ names the PDN reader (make test-web sets it)');
  for (const fen of ['', 'W:W18:B7,15,16,23,24']) {
    const page = await fresh();
    if (fen) {
      await setFen(page, fen);
      await clickSquares(page, 18, 27, 20, 11, 2);
    } else {
      await clickSquares(page, 11, 15);
    }
    await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length >= 2, null, { timeout: 20000 });
    await settle(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pdn-save')]);
    const file = join(shots, `saved${fen ? '-fen' : ''}.pdn`);
    await download.saveAs(file);
    const read = execFileSync(reader, [file], { encoding: 'utf8' }).split('\n');
    assert.equal(read[1], 'moves ' + (await moves(page)).join(' '));
    assert.equal(read[0], 'start ' + (fen || 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'));
    noProblems(page);
    await page.context().close();
  }
});

test('a PDN game loads; a bad PDN and a bad FEN are refused with a message', async () => {
  const page = await fresh();
  await page.fill('#pdn-text', '[Event "test"]\n[GameType "23"]\n1. 11-15 23-19 2. 8-11 {a comment} 22-17 *\n');
  await page.click('#pdn-load');
  await page.waitForFunction(() => document.body.dataset.moves === '11-15 23-19 8-11 22-17', null, { timeout: 10000 });
  assert.match(await page.textContent('#message'), /Loaded 4 moves/);
  const loaded = await dataset(page, 'fen');

  await page.fill('#pdn-text', '1. 11-15 22-18 2. 15-19 *');
  await page.click('#pdn-load');
  await page.waitForFunction(() => /Bad PDN/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /Bad PDN, game 1, move 2\. 15-19 \(line 1\): illegal move 15-19/);
  assert.equal(await dataset(page, 'fen'), loaded);

  const bad = join(shots, 'bad.pdn');
  writeFileSync(bad, '[Event "x"]\n1. 11-15 hello 2. 8-11\n');
  await page.setInputFiles('#pdn-file', bad);
  await page.waitForFunction(() => /bad\.pdn/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /Bad PDN in bad\.pdn, game 1, move 1, line 2: 'hello' is not a move/);

  await page.fill('#fen-text', 'B:W21,22:B1,32');
  await page.click('#fen-set');
  await page.waitForFunction(() => /Bad FEN/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /black man on 32 stands on its crowning row/);
  assert.equal(await dataset(page, 'fen'), loaded);
  await shot(page, 'bad-fen');
  noProblems(page);
  await page.context().close();
});

test('the piece editor sets a position the engine accepts and refuses one it does not', async () => {
  const page = await fresh();
  await page.click('#edit');
  await page.click('#edit-clear');
  await page.check('input[name=piece][value="W"]');
  await square(page, 18).click();
  await page.check('input[name=piece][value="b"]');
  await square(page, 32).click(); /* a black man on its crowning row */
  await page.click('#edit-done');
  await page.waitForFunction(() => /Bad FEN/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /crowning row/);
  await square(page, 32).click(); /* take it off again */
  await square(page, 15).click();
  await page.selectOption('#edit-side', 'W');
  await page.click('#edit-done');
  await page.waitForFunction(() => document.body.dataset.fen === 'W:WK18:B15', null, { timeout: 10000 });
  assert.equal(await page.locator('#editor').isHidden(), true);
  noProblems(page);
  await page.context().close();
});

test('analysis shows a score and a PV, and stops on request', async () => {
  const page = await fresh();
  await page.check('#analyse');
  await page.waitForFunction(() => (document.body.dataset.pv || '').split(' ').length >= 3, null, { timeout: 20000 });
  assert.match(await page.textContent('#pv'), /^1\. \d+-\d+/);
  assert.match(await page.textContent('#score'), /Black|White|level/);
  await shot(page, 'analysis');
  await page.click('#stop');
  await settle(page);
  assert.match(await page.textContent('#message'), /Analysis stopped/);
  /* The restarted engine has the game: a move goes through and analysis goes on. */
  await clickSquares(page, 11, 15);
  await page.waitForFunction(() => document.body.dataset.moves === '11-15', null, { timeout: 10000 });
  await page.waitForFunction(() => document.body.dataset.busy === 'true', null, { timeout: 10000 });
  await page.uncheck('#analyse');
  await settle(page);
  noProblems(page);
  await page.context().close();
});

test('hint, new game as White, resign and draw offers', async () => {
  const page = await fresh();
  await page.click('#hint');
  await page.waitForFunction(() => /Hint: \d+-\d+/.test(document.getElementById('message').textContent), null, { timeout: 10000 });
  await page.click('#new-white');
  await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length === 1, null, { timeout: 20000 });
  await settle(page);
  assert.match(await page.textContent('#status'), /Your move \(White\)/);
  await page.click('#draw');
  await page.waitForFunction(() => /draw/i.test(document.getElementById('message').textContent + document.getElementById('status').textContent), null, { timeout: 10000 });
  if (!(await dataset(page, 'over'))) {
    await page.click('#resign');
    assert.equal(await page.textContent('#status'), 'Black wins: White resigned.');
  }
  noProblems(page);
  await page.context().close();
});

test('a new game takes no move until it stands on the engine\'s board', async () => {
  const page = await fresh();
  /* Russian: White starts, so the old position already looks like the player's turn. */
  await page.selectOption('#variant', 'russian');
  await page.waitForFunction(() => document.body.dataset.variant === 'russian', null, { timeout: 10000 });
  await settle(page);
  const during = await page.evaluate(() => {
    document.getElementById('new-white').click();
    return { busy: document.body.dataset.busy, canMove: window.poolshark.canMove(), status: document.getElementById('status').textContent };
  });
  assert.deepEqual(during, { busy: 'true', canMove: false, status: 'Setting up the new game…' });
  await settle(page);
  assert.equal(await page.evaluate(() => window.poolshark.canMove()), true);
  const path = await page.evaluate(() => window.poolshark.legal[0].path);
  await clickSquares(page, ...path);
  await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length >= 1, null, { timeout: 20000 });
  noProblems(page);
  await page.context().close();
});

test('the variant selector: Russian names squares a-h 1-8, White moves first, PDN says GameType 25', async () => {
  const page = await fresh();
  const labels = () => page.locator('#board .number').allTextContents();
  await page.check('#numbers');
  assert.ok((await labels()).includes('22'));

  /* The player keeps Black, so the engine, White, opens the Russian game. */
  await page.selectOption('#variant', 'russian');
  await page.waitForFunction(() => document.body.dataset.variant === 'russian', null, { timeout: 10000 });
  await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length === 1, null, { timeout: 20000 });
  await settle(page);
  const [opening] = await moves(page);
  assert.match(opening, /^[aceg]3-[a-h]4$/);
  assert.match(await page.textContent('#moves .mainline'), new RegExp(`^1\\.${opening}$`)); /* move 1 is White's */
  assert.match(await page.textContent('#subtitle'), /Russian draughts/);
  const names = await labels();
  assert.ok(names.includes('c3') && names.includes('b8') && names.includes('h2'), names.join(' '));
  assert.ok(!names.includes('22'));
  assert.match(await page.textContent('#status'), /Your move \(Black\)/);

  /* h6-g5 is legal after any first move; a wrong square is named a-h 1-8. */
  await clickSquares(page, 12, 19);
  assert.match(await page.textContent('#message'), /Not a legal move: h6-f4\. From h6: h6-g5/);
  await clickSquares(page, 12, 16);
  await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length === 3, null, { timeout: 20000 });
  await settle(page);
  const played = await moves(page);
  assert.equal(played[1], 'h6-g5');
  assert.match(played[2], /^[a-h][1-8][-:][a-h][1-8]/);
  assert.match(await page.textContent('#message'), new RegExp(`poolshark played ${played[2]}`));
  await page.locator('.bar-and-board').screenshot({ path: join(shots, 'board-russian.png') });

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pdn-save')]);
  const file = join(shots, 'saved-russian.pdn');
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.match(text, /\[GameType "25"\]/);
  assert.match(text, new RegExp(`\\n1\\. ${played[0]} ${played[1]} 2\\. ${played[2]} \\*`));
  assert.doesNotMatch(text, /\[FEN /);
  if (process.env.PDN_READ) {
    const read = execFileSync(process.env.PDN_READ, [file], { encoding: 'utf8' }).split('\n');
    assert.equal(read[1], 'moves ' + played.join(' '));
  }

  /* A Russian capture entered square by square, in the engine's notation
   * (the FEN too: c3 is square 22, d4 18, d6 10). */
  await setFen(page, 'W:Wc3:Bd4,d6');
  await square(page, 22).click();
  await square(page, 15).click();
  assert.deepEqual(await page.locator('#board .target').evaluateAll((e) => e.map((c) => c.dataset.target)), ['6']);
  await square(page, 6).click();
  await page.waitForFunction(() => document.body.dataset.moves === 'c3:c7', null, { timeout: 10000 });
  await page.waitForFunction(() => document.body.dataset.over === '1-0', null, { timeout: 10000 });
  assert.equal(await page.textContent('#status'), 'White wins: Black has no legal move.');

  /* Back to pool: numbers again, Black (the player) moves first. */
  await page.click('#new-black');
  await page.selectOption('#variant', 'pool');
  await page.waitForFunction(() => document.body.dataset.variant === 'pool', null, { timeout: 10000 });
  await settle(page);
  assert.deepEqual(await moves(page), []);
  assert.ok((await dataset(page, 'fen')).startsWith('B:'));
  assert.ok((await labels()).includes('22'));
  assert.match(await page.textContent('#status'), /Your move \(Black\)/);
  noProblems(page);
  await page.context().close();
});

test('a PDN game of GameType 26 selects Brazilian, and one of 23 selects pool again', async () => {
  const page = await fresh();
  await page.fill('#pdn-text', '[GameType "26"]\n1. c3-d4 f6-g5 2. b2-c3 *\n');
  await page.click('#pdn-load');
  await page.waitForFunction(() => document.body.dataset.moves === 'c3-d4 f6-g5 b2-c3', null, { timeout: 10000 });
  assert.equal(await page.inputValue('#variant'), 'brazilian');
  assert.match(await page.textContent('#status'), /Analysis: Black to move/);
  assert.equal(await page.title(), 'poolshark: Brazilian draughts');
  await page.fill('#pdn-text', '[GameType "20"]\n1. 32-28 *\n');
  await page.click('#pdn-load');
  await page.waitForFunction(() => /Bad PDN/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /GameType 20 is not a variant/);
  assert.equal(await page.inputValue('#variant'), 'brazilian');
  await page.fill('#pdn-text', '[GameType "23"]\n1. 11-15 *\n');
  await page.click('#pdn-load');
  await page.waitForFunction(() => document.body.dataset.moves === '11-15', null, { timeout: 10000 });
  assert.equal(await page.inputValue('#variant'), 'pool');
  await page.uncheck('#analyse');
  await settle(page);
  noProblems(page);
  await page.context().close();
});
