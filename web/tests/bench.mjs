// SPDX-License-Identifier: GPL-3.0-or-later
// A benchmark, not a test: `bench` through the page's worker against the native binary under eval=classic and eval=net, and what the page downloads.
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
/* Per evaluation: the node counts (worker, native) and each round's nodes/s,
 * the rounds of the two evaluations and of the two engines interleaved so
 * that a busy machine slows them alike. */
const evals = ['classic', 'net'];
const runs = Object.fromEntries(evals.map((e) => [e, { nodes: {}, worker: [], native: [] }]));
for (let i = 0; i < rounds; i++) {
  for (const e of evals) {
    const r = runs[e];
    const line = await page.evaluate(async (name) => {
      const reply = await window.poolshark.engine.request([`set-param name=eval value=${name}`, 'bench']);
      return reply.lines.find((l) => l.startsWith('bench depth='));
    }, e);
    const v = values(line);
    r.nodes.worker = Number(v.nodes);
    r.worker.push(Number(v.nodes) / Number(v.time));
    const out = execFileSync(native, ['bench', '--eval', e], { encoding: 'utf8' });
    r.nodes.native = Number(/Nodes searched: (\d+)/.exec(out)[1]);
    r.native.push(Number(/Nodes\/second: (\d+)/.exec(out)[1]));
  }
}
await browser.close();
const speed = {};
for (const e of evals) {
  const r = runs[e];
  speed[e] = { worker: median(r.worker), native: median(r.native) };
  const same = r.nodes.worker === r.nodes.native ? ' (same)' : ' (DIFFERENT)';
  console.log(`eval=${e}: bench nodes: worker ${r.nodes.worker}, native ${r.nodes.native}${same}`);
  console.log(`eval=${e}: worker median ${Math.round(speed[e].worker)} nodes/s; native ${native} median ${Math.round(speed[e].native)} nodes/s; worker / native ${(speed[e].worker / speed[e].native).toFixed(2)}`);
}
console.log(`net / classic speed: worker ${(speed.net.worker / speed.classic.worker).toFixed(2)}, native ${(speed.net.native / speed.classic.native).toFixed(2)}`);
