// SPDX-License-Identifier: GPL-3.0-or-later
// Builds web/dist/index.html: the page with its style, scripts and the engine worker inlined (opens from disk).
// usage: node web/build.mjs ENGINE_JS OUT_HTML
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [engineJs, out] = process.argv.slice(2);
if (!engineJs || !out) {
  console.error('usage: node web/build.mjs ENGINE_JS OUT_HTML');
  process.exit(2);
}

/* Text that goes inside a <script> or <style> element must not close it. */
function inlinable(text, name, tag) {
  if (text.toLowerCase().includes('</' + tag)) {
    console.error(`build.mjs: ${name} contains </${tag} and cannot be inlined`);
    process.exit(1);
  }
  return text;
}

let html = readFileSync(join(here, 'index.html'), 'utf8');
html = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (_, file) =>
  `<style>\n${inlinable(readFileSync(join(here, file), 'utf8'), file, 'style')}</style>`);
html = html.replace(/<script src="([^"]+)"><\/script>/g, (_, file) =>
  `<script>\n${inlinable(readFileSync(join(here, file), 'utf8'), file, 'script')}</script>`);
const engine = inlinable(readFileSync(engineJs, 'utf8'), engineJs, 'script');
/* The worker's source, started from a blob URL by src/engine.js. */
html = html.replace('</body>', `<script type="text/plain" id="engine-source">${engine}</script>\n</body>`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, html);
console.log(`${out}: ${html.length} bytes`);
