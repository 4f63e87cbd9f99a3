// SPDX-License-Identifier: GPL-3.0-or-later
// The page's layout on a phone and a laptop: finger-sized controls, nothing wider than the screen or cut off, dark mode.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { docShot, launch, pageUrl, shots } from './support.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.close();
});

const GAME = '[Event "layout"]\n[GameType "23"]\n' +
  '1. 11-15 23-19 2. 8-11 22-17 3. 10-14 19x10 4. 6x15 17x19 5. 11-16 25-22 6. 16x23 27x18 7. 4-8 29-25 *\n';
const PHONE = { width: 390, height: 844 };
const NARROW = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/* A page at `viewport` with a reviewed game shown at ply 6 and analysis
 * running (so that the score and a long principal variation show). */
async function reviewedPage(viewport, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && page.problems.push(m.text()));
  await page.goto(pageUrl);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await page.selectOption('#review-budget', 'quick');
  await page.fill('#pdn-text', GAME);
  await page.click('#pdn-load');
  await page.waitForFunction(() => (document.body.dataset.line || '').split(' ').length === 14, null, { timeout: 10000 });
  await page.click('#review');
  await page.waitForFunction(() => /Review done/.test(document.getElementById('message').textContent), null, { timeout: 60000 });
  await page.check('#numbers');
  await page.locator('#moves button[data-ply="6"]').click();
  await page.waitForFunction(() => document.body.dataset.view === '6', null, { timeout: 10000 });
  await page.check('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('#pv .pv-move').length >= 10, null, { timeout: 30000 });
  await scrollToTop(page);
  return page;
}

/* The page and its scrolling columns at their tops (a click scrolls them to the control). */
async function scrollToTop(page) {
  await page.waitForTimeout(100);
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    for (const e of document.querySelectorAll('.columns, .side, .panel')) e.scrollTop = 0;
  });
}

/* What is wrong with the layout, as a list of sentences (empty: nothing). */
function layoutProblems(page, minControl) {
  return page.evaluate((min) => {
    const problems = [];
    const width = window.innerWidth;
    const visible = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const name = (e) => e.id ? '#' + e.id : e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '') +
      (e.textContent ? ` "${e.textContent.trim().slice(0, 20)}"` : '');
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    for (const e of document.querySelectorAll('body *')) {
      if (!visible(e) || e.closest('svg') && e.tagName !== 'svg') continue;
      const r = e.getBoundingClientRect();
      if (r.right > width + 0.5 || r.left < -0.5) problems.push(`${name(e)} reaches past the screen (${r.left.toFixed(0)} to ${r.right.toFixed(0)})`);
    }
    const controls = 'button, select, input[type=text], input[type=number], input[type=range], .file-button, label';
    for (const e of document.querySelectorAll(controls)) {
      if (!visible(e)) continue;
      const h = e.getBoundingClientRect().height;
      if (h < min - 0.5) problems.push(`${name(e)} is ${h.toFixed(1)} px tall`);
      if ((e.tagName === 'BUTTON' || e.tagName === 'LABEL') && e.scrollWidth > e.clientWidth + 1) problems.push(`${name(e)} cuts its text off`);
    }
    for (const e of document.querySelectorAll('input[type=checkbox], input[type=radio]')) {
      if (!visible(e)) continue;
      const box = e.getBoundingClientRect();
      if (box.height < 20) problems.push(`${name(e.closest('label') || e)}: its box is ${box.height.toFixed(1)} px`);
      if (!e.closest('label') || e.closest('label').getBoundingClientRect().height < min - 0.5) problems.push(`${name(e)} has no label of ${min} px to tap`);
    }
    for (const e of document.querySelectorAll('#pv .pv-move')) {
      if (e.getClientRects().length !== 1) problems.push(`the move "${e.textContent}" of the PV breaks across lines`);
    }
    for (const id of ['subtitle', 'status']) {
      const e = document.getElementById(id);
      if (e.scrollWidth > e.clientWidth + 1) problems.push(`#${id} is cut off`);
    }
    return problems;
  }, minControl);
}

test('on a phone (390x844 and 360x740): 44 px controls, one-line header, score and PV by the board, nothing too wide', async () => {
  for (const viewport of [PHONE, NARROW]) {
    const page = await reviewedPage(viewport, { isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    /* The editor's controls too. */
    await page.click('#edit');
    await page.waitForSelector('#editor:not([hidden])');
    assert.deepEqual(await layoutProblems(page, 44), [], `at ${viewport.width}x${viewport.height}`);
    await page.click('#edit-cancel');
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = async (sel) => page.locator(sel).boundingBox();
    const header = await box('header');
    assert.ok(header.height <= 48, `the header is ${header.height} px tall (one line)`);
    const board = await box('#board');
    const score = await box('.engine-line');
    const bar = await box('.analysis-bar');
    const pv = await box('#pv');
    assert.ok(board.width >= viewport.width - 50, `the board is ${board.width} px wide`);
    assert.ok(bar.y - (board.y + board.height) < 30, 'the analysis switch sits under the board');
    assert.ok(score.y - (board.y + board.height) < 120, 'the score sits under it');
    assert.ok(pv.y + pv.height <= viewport.height, 'the PV shows on the first screen');
    assert.ok((await page.locator('#pv .pv-move').evaluateAll((e) => new Set(e.map((m) => Math.round(m.getBoundingClientRect().top))).size)) >= 2,
      'the PV is long enough to wrap (so the test of its moves means something)');
    /* Square numbers of at least 10 px on the screen. */
    const number = await page.locator('#board .number').first().boundingBox();
    assert.ok(number.height >= 10, `square numbers are ${number.height.toFixed(1)} px tall`);
    await page.screenshot({ path: join(shots, `phone-${viewport.width}.png`) });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('on a laptop (1280x800): the whole board and the move entry on the first screen, nothing cut off', async () => {
  const page = await reviewedPage(DESKTOP);
  assert.deepEqual(await layoutProblems(page, 30), []);
  for (const sel of ['#move-input', '#move-play', '#board', '#walk-end']) {
    const b = await page.locator(sel).boundingBox();
    assert.ok(b.y >= 0 && b.y + b.height <= DESKTOP.height && b.x + b.width <= DESKTOP.width, `${sel} at ${JSON.stringify(b)}`);
  }
  await page.screenshot({ path: join(shots, 'desktop-review.png') });
  docShot('desktop-review.png', 'web-review.png');
  /* With a clock above and below the board the move entry still shows. */
  await page.uncheck('#analyse');
  await page.check('#clock-on');
  await page.click('#new-black');
  await page.waitForFunction(() => document.body.classList.contains('clocked'));
  await scrollToTop(page);
  assert.deepEqual(await layoutProblems(page, 30), []);
  for (const sel of ['#clock-top', '#clock-bottom', '#move-input']) {
    const b = await page.locator(sel).boundingBox();
    assert.ok(b.y >= 0 && b.y + b.height <= DESKTOP.height, `${sel} at ${JSON.stringify(b)}`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('dark mode follows the system setting', async () => {
  const luminance = (page, sel, prop) => page.evaluate(([s, p]) => {
    const [r, g, b] = getComputedStyle(document.querySelector(s))[p].match(/\d+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  }, [sel, prop]);
  const page = await reviewedPage(DESKTOP, { colorScheme: 'dark' });
  assert.ok((await luminance(page, 'body', 'backgroundColor')) < 0.2);
  assert.ok((await luminance(page, 'fieldset', 'backgroundColor')) < 0.25);
  assert.ok((await luminance(page, 'body', 'color')) > 0.7);
  assert.ok((await luminance(page, '#review', 'color')) > 0.7);
  await page.screenshot({ path: join(shots, 'desktop-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  assert.ok((await luminance(page, 'body', 'backgroundColor')) > 0.8);
  assert.ok((await luminance(page, 'body', 'color')) < 0.3);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/* A game with a side line, shown at ply 8 with three engine lines and their arrows. */
const TREE_GAME = '[Event "Club match"]\n[White "Ann"]\n[Black "Bob"]\n[Date "2026.11.28"]\n[GameType "23"]\n' +
  '1. 11-15 23-19 2. 8-11 22-17 3. 10-14 (3. 9-13 17-14) 19x10 4. 6x15 17x19 5. 11-16 25-22 6. 16x23 27x18 *\n';

/* Whether anything of the page is cut off: an element past the screen's
 * sides, or below its bottom where nothing scrolls to it; a control
 * cutting its text. Returns sentences (empty: nothing). */
function cutOff(page) {
  return page.evaluate(() => {
    const problems = [];
    const width = window.innerWidth, height = window.innerHeight;
    const pageScrolls = getComputedStyle(document.body).overflowY !== 'hidden';
    const visible = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const scroller = (e) => {
      for (let a = e.parentElement; a; a = a.parentElement) {
        const o = getComputedStyle(a).overflowY;
        if ((o === 'auto' || o === 'scroll') && a.scrollHeight > a.clientHeight) return a;
      }
      return null;
    };
    const name = (e) => e.id ? '#' + e.id : e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '');
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`);
    for (const e of document.querySelectorAll('body *')) {
      if (!visible(e) || (e.closest('svg') && e.tagName !== 'svg')) continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.right > width + 0.5 || r.left < -0.5) problems.push(`${name(e)} reaches past the side (${r.left.toFixed(0)} to ${r.right.toFixed(0)})`);
      const box = scroller(e);
      if (!pageScrolls && !box && r.bottom > height + 0.5) problems.push(`${name(e)} is cut off at the bottom (${r.bottom.toFixed(0)} > ${height})`);
      if (box && r.right > box.getBoundingClientRect().right + 0.5) problems.push(`${name(e)} reaches past its column`);
    }
    for (const e of document.querySelectorAll('button, label, select, .status, #subtitle')) {
      if (visible(e) && e.scrollWidth > e.clientWidth + 1) problems.push(`${name(e)} "${e.textContent.trim().slice(0, 20)}" cuts its text off`);
    }
    return problems;
  });
}

test('the analysis board at 390x844, 844x390, 1280x800 and 1920x1080: the board 300 px or more, whole, nothing cut off', async () => {
  for (const viewport of [PHONE, { width: 844, height: 390 }, DESKTOP, { width: 1920, height: 1080 }]) {
    const phone = viewport.width < 900;
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, isMobile: phone, hasTouch: phone });
    const page = await context.newPage();
    page.problems = [];
    page.on('pageerror', (e) => page.problems.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && page.problems.push(m.text()));
    await page.goto(pageUrl);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    await page.fill('#pdn-text', TREE_GAME);
    await page.click('#pdn-load');
    await page.waitForFunction(() => document.body.dataset.lines === '2' && document.body.dataset.view === '12', null, { timeout: 10000 });
    await page.locator('#moves .mainline button[data-ply="8"]').click();
    await page.waitForFunction(() => {
      const lines = JSON.parse(document.body.dataset.pvs || '[]');
      return document.body.dataset.view === '8' && lines.length === 3 && lines.every((l) => l.depth >= 8);
    }, null, { timeout: 30000 });
    await page.click('#stop');
    await page.waitForFunction(() => document.body.dataset.busy === 'false', null, { timeout: 10000 });
    await scrollToTop(page);
    const board = await page.locator('#board').boundingBox();
    const where = `at ${viewport.width}x${viewport.height}`;
    assert.ok(board.width >= 300 && board.height >= 300, `${where} the board is ${board.width.toFixed(0)} px`);
    assert.ok(board.x >= 0 && board.y >= 0 && board.x + board.width <= viewport.width && board.y + board.height <= viewport.height,
      `${where} the board is not whole on the screen: ${JSON.stringify(board)}`);
    assert.equal(await page.locator('#board .arrow-group').count(), 3, where);
    assert.deepEqual(await cutOff(page), [], where);
    if (viewport.width > viewport.height) {
      /* Lying: the lines beside the board, on the first screen. */
      const lines = await page.locator('#engine-lines').boundingBox();
      assert.ok(lines.x >= board.x + board.width && lines.y + lines.height <= viewport.height, `${where} the lines at ${JSON.stringify(lines)}`);
    }
    const name = `layout-${viewport.width}x${viewport.height}.png`;
    await page.screenshot({ path: join(shots, name) });
    docShot(name, `web-${viewport.width}x${viewport.height}.png`);
    assert.deepEqual(page.problems, [], where);
    await context.close();
  }
});
