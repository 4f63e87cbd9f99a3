// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the browser tests and the bench: Debian's chromium through playwright-core, the built page, helpers.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export const pagePath = join(root, 'web', 'dist', 'index.html');
export const pageUrl = pathToFileURL(pagePath).href;
export const shots = join(root, 'build-web', 'screenshots');
mkdirSync(shots, { recursive: true });

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
  });
}

/* A fresh page at `url`, its console errors and uncaught exceptions
 * collected in page.problems; resolves once the engine has answered. */
export async function openPage(browser, url = pageUrl) {
  const context = await browser.newContext({ viewport: { width: 1180, height: 860 }, acceptDownloads: true });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (m) => m.type() === 'error' && page.problems.push(m.text()));
  page.on('pageerror', (e) => page.problems.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return page;
}

export function square(page, n) {
  return page.locator(`#board rect[data-square="${n}"]`);
}

/* Clicks the squares in order, as a person enters a move. */
export async function clickSquares(page, ...squares) {
  for (const n of squares) await square(page, n).click();
}

/* Waits until no search runs and it is not the engine's move. */
export async function settle(page) {
  await page.waitForFunction(() => document.body.dataset.busy === 'false', null, { timeout: 30000 });
}

export async function dataset(page, key) {
  return page.evaluate((k) => document.body.dataset[k] || '', key);
}

export async function shot(page, name) {
  await page.screenshot({ path: join(shots, name + '.png') });
}
