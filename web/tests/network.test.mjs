// SPDX-License-Identifier: GPL-3.0-or-later
// The page's worker under eval=classic and eval=net against the native engine: same bench node counts, same scores.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launch, openPage, root, settle } from './support.mjs';

const engineBin = process.env.POOLSHARK_BIN || join(root, 'poolshark');
/* Seconds in the worker, and deep enough that every bench position reaches
 * the evaluation many times. */
const BENCH_DEPTH = 8;
const SEARCH_DEPTH = 4;
/* The same session for both engines: the worker's table size, full
 * strength, no book, and new-game so that the worker's earlier searches
 * leave nothing in the table or the history. */
const SETUP = ['set-param name=hash value=16', 'set-param name=strength value=100', 'set-param name=book value=off', 'set-param name=egdb-path value=none'];

let browser, page;
before(async () => {
  browser = await launch();
  page = await openPage(browser);
  await settle(page);
});
after(async () => {
  await browser?.close();
});

/* The reply lines of `lines` sent to the page's worker (a search: up to its `done`). */
async function worker(lines, search = false) {
  return page.evaluate(async ([l, s]) => (await window.poolshark.engine.request(l, { search: s })).lines, [lines, search]);
}

/* The reply lines of `lines` sent to a native engine on stdin (it ends a
 * search that stops by itself before it exits). */
function native(lines) {
  return execFileSync(engineBin, [], { input: lines.join('\n') + '\n', encoding: 'utf8' }).trim().split('\n');
}

/* The lines of a search that depend on the evaluation alone: its clock and speed left out. */
function searchLines(lines) {
  return lines.filter((l) => /^(info depth=|done)\b/.test(l)).map((l) => l.replace(/ (time|nps)=\S+/g, ''));
}

for (const evaluation of ['classic', 'net']) {
  test(`bench under eval=${evaluation}: the worker's node count is the native one`, async () => {
    const reply = await worker([`set-param name=eval value=${evaluation}`, 'get eval', `bench depth=${BENCH_DEPTH}`]);
    assert.ok(reply.includes(`get name=eval value=${evaluation}`), reply.join('\n'));
    assert.ok(!reply.some((l) => l.startsWith('error')), reply.join('\n'));
    const total = reply.find((l) => l.startsWith(`bench depth=${BENCH_DEPTH} `));
    assert.ok(total, reply.join('\n'));
    const workerNodes = Number(/ nodes=(\d+)/.exec(total)[1]);
    const out = execFileSync(engineBin, ['bench', '--eval', evaluation, String(BENCH_DEPTH)], { encoding: 'utf8' });
    const nativeNodes = Number(/Nodes searched: (\d+)/.exec(out)[1]);
    assert.ok(nativeNodes > 0, out);
    assert.equal(workerNodes, nativeNodes, `bench ${BENCH_DEPTH} --eval ${evaluation}: worker ${workerNodes}, native ${nativeNodes}`);
    /* Position by position too, so that a difference names where it is. */
    const perPosition = reply.filter((l) => l.startsWith('bench position=')).map((l) => Number(/ nodes=(\d+)/.exec(l)[1]));
    const nativePerPosition = [...out.matchAll(/^position +\d+\/\d+ +nodes +(\d+)/gm)].map((m) => Number(m[1]));
    assert.equal(perPosition.length, nativePerPosition.length);
    assert.deepEqual(perPosition, nativePerPosition);
  });
}

test('bench under eval=net differs from eval=classic in the worker (the network is in use)', async () => {
  const counts = [];
  for (const evaluation of ['classic', 'net']) {
    const reply = await worker([`set-param name=eval value=${evaluation}`, 'bench depth=5']);
    counts.push(Number(/ nodes=(\d+)/.exec(reply.find((l) => l.startsWith('bench depth=')))[1]));
  }
  assert.notEqual(counts[0], counts[1]);
});

/* Opening, middlegame and endgame positions, either side to move, kings and
 * pending captures, and the start of the six other rule sets' networks. */
const POSITIONS = [
  ['pool', 'start'],
  ['pool', 'fen=W:W12,19,22,23,27,28,29,30,31,32:B2,3,4,8,9,10,11,14'],
  ['pool', 'fen=B:W12,13,19,20,23,27,28,30,32:B3,7,8,10,11,14,16'],
  ['pool', 'fen=W:W22,25,26,28,29,30,31,32:B1,2,3,4,5,6,7,10,15,21,27'],
  ['pool', 'fen=B:W9,13,14,K30:BK2,5,K15'],
  ['pool', 'fen=W:WK10,K27,30:BK8,21'],
  ['russian', 'start'],
  ['brazilian', 'start'],
  ['english', 'start'],
  ['italian', 'start'],
  ['spanish', 'start'],
  ['czech', 'start'],
];

test(`eval=net: the worker's scores, nodes and lines of depth 1..${SEARCH_DEPTH} searches are the native ones`, async () => {
  for (const [variant, position] of POSITIONS) {
    const lines = [...SETUP, `set-param name=variant value=${variant}`, 'set-param name=eval value=net', 'new-game', `pos ${position}`, `level depth=${SEARCH_DEPTH}`, 'go think'];
    const inWorker = searchLines(await worker(lines, true));
    const inNative = searchLines(native(lines));
    assert.equal(inNative.length, SEARCH_DEPTH + 1, `${variant} ${position}: ${inNative.join('\n')}`);
    assert.match(inNative[0], /^info depth=1 .*score=/);
    assert.deepEqual(inWorker, inNative, `${variant} ${position}`);
  }
});
