// SPDX-License-Identifier: GPL-3.0-or-later
// The native bridge: the same page against a native ./poolshark over a WebSocket on 127.0.0.1.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { clickSquares, dataset, launch, openPage, root, settle, shot } from './support.mjs';

let browser;
let bridge;
let url;

before(async () => {
  const engine = process.env.POOLSHARK_BIN || join(root, 'poolshark');
  bridge = spawn(process.execPath, [join(root, 'web', 'bridge.mjs'), '--port', '0', '--engine', engine], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = await new Promise((resolve, reject) => {
    let text = '';
    bridge.stdout.setEncoding('utf8');
    bridge.stdout.on('data', (chunk) => {
      text += chunk;
      const m = /open (http:\S+)/.exec(text);
      if (m) resolve(m[1]);
    });
    bridge.on('exit', (code) => reject(new Error('the bridge exited with ' + code)));
  });
  browser = await launch();
});

after(async () => {
  await browser.close();
  bridge.kill();
});

test('the page plays, analyses and reviews against the native engine, and stop reaches it', async () => {
  const page = await openPage(browser, url);
  assert.match(await page.textContent('#engine-label'), /native poolshark at ws:\/\/127\.0\.0\.1/);
  await page.selectOption('#movetime', '0.2');
  await clickSquares(page, 11, 15);
  await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length === 2, null, { timeout: 20000 });
  await settle(page);
  await page.check('#analyse');
  await page.waitForFunction(() => (document.body.dataset.pv || '').split(' ').length >= 3, null, { timeout: 20000 });
  await shot(page, 'native-analysis');
  await page.click('#stop');
  await settle(page);
  /* Stopped by the engine itself (`stop`, then its `done`), not by a restart: the same engine goes on. */
  assert.match(await page.textContent('#message'), /Analysis stopped/);
  await page.uncheck('#analyse');
  const before = (await dataset(page, 'moves')).split(' ').length;
  await clickSquares(page, ...(await page.evaluate(() => window.poolshark.legal[0].path)));
  await page.waitForFunction((n) => (document.body.dataset.moves || '').split(' ').length === n + 2, before, { timeout: 20000 });
  await settle(page);
  /* Review game through the native engine: a graph point a ply. */
  await page.selectOption('#review-budget', 'quick');
  await page.click('#review');
  await page.waitForFunction(() => /Review done/.test(document.getElementById('message').textContent), null, { timeout: 30000 });
  /* The graph is drawn once the page has set the game up again after the message. */
  await page.waitForFunction((n) => document.querySelectorAll('#graph circle.graph-point').length === n, before + 2, { timeout: 10000 }).catch(() => {});
  assert.equal(await page.locator('#graph circle.graph-point').count(), before + 2);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
