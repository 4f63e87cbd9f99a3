// SPDX-License-Identifier: GPL-3.0-or-later
// The page as an installable app: a valid manifest, the service worker registered, and play with the network off.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { clickSquares, serveSite } from './support.mjs';

let site, profile;
before(async () => {
  site = await serveSite();
  profile = mkdtempSync(join(tmpdir(), 'poolshark-pwa-'));
});
after(async () => {
  await site.close();
  rmSync(profile, { recursive: true, force: true });
});

test('served, the page is installable, registers its service worker and plays offline after a reload', async () => {
  /* A profile of its own: Chromium installs no app from an incognito one. */
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] || (await context.newPage());
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(site.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await page.waitForFunction(() => document.body.dataset.serviceWorker === 'registered', null, { timeout: 10000 });
  await page.evaluate(() => navigator.serviceWorker.ready);

  /* What Chromium makes of the manifest: no errors, installable. */
  const cdp = await context.newCDPSession(page);
  const manifest = await cdp.send('Page.getAppManifest');
  assert.match(manifest.url, /manifest\.webmanifest$/);
  assert.deepEqual(manifest.errors, []);
  const data = JSON.parse(manifest.data);
  assert.equal(data.display, 'standalone');
  assert.ok(data.theme_color);
  assert.deepEqual(data.icons.filter((i) => i.type === 'image/png').map((i) => i.sizes).sort(), ['192x192', '512x512']);
  for (const icon of data.icons) {
    const response = await page.request.get(new URL(icon.src, site.url).href);
    assert.equal(response.status(), 200, icon.src);
  }
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, []);

  /* The network off: the page comes from the worker's cache and the engine plays. */
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await page.selectOption('#movetime', '0.2');
  await page.click('#new-black');
  await page.waitForFunction(() => document.body.dataset.busy === 'false' && document.body.dataset.line === '', null, { timeout: 10000 });
  await clickSquares(page, 11, 15);
  await page.waitForFunction(() => (document.body.dataset.moves || '').split(' ').filter(Boolean).length === 2, null, { timeout: 20000 });
  assert.match(await page.textContent('#message'), /poolshark played/);
  await context.setOffline(false);
  assert.deepEqual(problems, []);
  await context.close();
});
