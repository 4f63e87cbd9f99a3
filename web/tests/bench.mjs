// SPDX-License-Identifier: GPL-3.0-or-later
// A benchmark, not a test: `bench` through the page's worker against the native binary, and what the page downloads.
// usage: node web/tests/bench.mjs [NATIVE_POOLSHARK] [ROUNDS]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { launch, openPage, pagePath, root } from './support.mjs';

const native = process.argv[2] || join(root, 'poolshark');
const rounds = Number(process.argv[3] || 3);
/* The key=value pairs of a reply line (bench lines hold no quoted values). */
function values(line) {
  const out = {};
  for (const m of line.matchAll(/(\S+)=(\S+)/g)) out[m[1]] = m[2];
  return out;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const html = readFileSync(pagePath);
console.log(`page: ${pagePath}: ${html.length} bytes, ${gzipSync(html, { level: 9 }).length} gzipped`);

const browser = await launch();
const loads = [];
for (let i = 0; i < rounds; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const start = Date.now();
  await page.goto('file://' + pagePath);
  await page.waitForSelector('body[data-ready="true"]');
  loads.push(Date.now() - start);
  await context.close();
}
console.log(`page ready (engine answering) from disk: median ${median(loads)} ms of ${loads.join(', ')}`);

const page = await openPage(browser);
const worker = [];
const nativeNps = [];
let nodes = { worker: 0, native: 0 };
for (let i = 0; i < rounds; i++) {
  const line = await page.evaluate(async () => {
    const reply = await window.poolshark.engine.request(['bench']);
    return reply.lines.find((l) => l.startsWith('bench depth='));
  });
  const v = values(line);
  nodes.worker = Number(v.nodes);
  worker.push(Number(v.nodes) / Number(v.time));
  const out = execFileSync(native, ['bench'], { encoding: 'utf8' });
  nodes.native = Number(/Nodes searched: (\d+)/.exec(out)[1]);
  nativeNps.push(Number(/Nodes\/second: (\d+)/.exec(out)[1]));
}
await browser.close();
const w = median(worker);
const n = median(nativeNps);
console.log(`bench nodes: worker ${nodes.worker}, native ${nodes.native}${nodes.worker === nodes.native ? ' (same)' : ' (DIFFERENT)'}`);
console.log(`worker: median ${Math.round(w)} nodes/s; native ${native}: median ${Math.round(n)} nodes/s`);
console.log(`worker / native speed: ${(w / n).toFixed(2)}`);
