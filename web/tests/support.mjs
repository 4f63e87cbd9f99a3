// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the browser tests and the bench: Debian's chromium through playwright-core, the built page, helpers.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
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

/* `make test-web DOC_SHOTS=1` also copies the screenshots the documents
 * show (build-web/screenshots/NAME) into doc/DOC_NAME, made small by
 * Debian's pngquant (256 colours) when it is there. */
export function docShot(name, docName) {
  if (!process.env.DOC_SHOTS) return;
  const to = join(root, 'doc', docName);
  try {
    execFileSync('pngquant', ['--force', '--strip', '--quality', '70-95', '--output', to, join(shots, name)]);
  } catch {
    copyFileSync(join(shots, name), to);
  }
}

export async function shot(page, name) {
  await page.screenshot({ path: join(shots, name + '.png') });
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json',
  '.webmanifest': 'application/manifest+json', '.png': 'image/png', '.svg': 'image/svg+xml',
  '.egdb': 'application/octet-stream',
};

/* web/dist/ served on 127.0.0.1 as a static web server would: {url, close()}. */
export async function serveSite() {
  const site = join(root, 'web', 'dist');
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname);
    const file = normalize(join(site, path === '/' ? 'index.html' : path));
    try {
      if (!file.startsWith(site + sep) || !TYPES[extname(file)]) throw new Error('not served');
      response.writeHead(200, { 'content-type': TYPES[extname(file)] }).end(readFileSync(file));
    } catch {
      response.writeHead(404).end('not found\n');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}
