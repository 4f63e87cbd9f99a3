// SPDX-License-Identifier: GPL-3.0-or-later
// The page's size as the README states it, against the page make web built: within 5%.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pagePath, root } from './support.mjs';

test('the README states the size of the built page within 5%', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const stated = /`web\/dist\/index\.html` \((\d+) KB\)/.exec(readme);
  assert.ok(stated, 'README.md states no size as "`web/dist/index.html` (N KB)"');
  const kb = Number(stated[1]);
  const built = statSync(pagePath).size;
  const off = Math.abs(kb * 1000 - built) / built;
  assert.ok(off <= 0.05,
    `README.md says the page is ${kb} KB; web/dist/index.html is ${built} bytes (${(100 * off).toFixed(1)}% off)`);
});
