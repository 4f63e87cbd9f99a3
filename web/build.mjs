// SPDX-License-Identifier: GPL-3.0-or-later
// Builds web/dist/: index.html (the page with its style, scripts and engine inlined; opens from disk too), and
// around it the site: the web manifest, the icons, the service worker and the endgame databases (egdb/).
// usage: node web/build.mjs ENGINE_JS OUT_DIR [EGDB_DIR]
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { iconPng, iconSvg } from './icons.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [engineJs, out, egdb] = process.argv.slice(2);
if (!engineJs || !out) {
  console.error('usage: node web/build.mjs ENGINE_JS OUT_DIR [EGDB_DIR]');
  process.exit(2);
}
/* The header's colour: the app's title bar. */
const THEME = '#2b3a2e';

/* Text that goes inside a <script> or <style> element must not close it. */
function inlinable(text, name, tag) {
  if (text.toLowerCase().includes('</' + tag)) {
    console.error(`build.mjs: ${name} contains </${tag} and cannot be inlined`);
    process.exit(1);
  }
  return text;
}

mkdirSync(out, { recursive: true });
let html = readFileSync(join(here, 'index.html'), 'utf8');
html = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (_, file) =>
  `<style>\n${inlinable(readFileSync(join(here, file), 'utf8'), file, 'style')}</style>`);
html = html.replace(/<script src="([^"]+)"><\/script>/g, (_, file) =>
  `<script>\n${inlinable(readFileSync(join(here, file), 'utf8'), file, 'script')}</script>`);
const engine = inlinable(readFileSync(engineJs, 'utf8'), engineJs, 'script');
/* The worker's source, started from a blob URL by src/engine.js. */
html = html.replace('</body>', `<script type="text/plain" id="engine-source">${engine}</script>\n</body>`);
writeFileSync(join(out, 'index.html'), html);
console.log(`${join(out, 'index.html')}: ${html.length} bytes`);

const manifest = {
  name: 'poolshark checkers',
  short_name: 'poolshark',
  description: 'Play and analyse American pool checkers, Russian and Brazilian draughts against poolshark, offline.',
  start_url: './',
  scope: './',
  display: 'standalone',
  background_color: '#e9e4d6',
  theme_color: THEME,
  icons: [
    { src: 'icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any maskable' },
    { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any maskable' },
    { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml' },
  ],
};
writeFileSync(join(out, 'manifest.webmanifest'), JSON.stringify(manifest, null, 2) + '\n');
writeFileSync(join(out, 'icon-192.png'), iconPng(192));
writeFileSync(join(out, 'icon-512.png'), iconPng(512));
writeFileSync(join(out, 'icon.svg'), iconSvg());
const version = createHash('sha256').update(html).digest('hex').slice(0, 16);
writeFileSync(join(out, 'sw.js'), readFileSync(join(here, 'sw.js'), 'utf8').replace("'poolshark-VERSION'", `'poolshark-${version}'`));

/* The endgame databases, and egdb/index.json listing what egdb/ holds
 * (files copied there by hand, such as the five-piece ones, included). */
if (egdb) {
  const target = join(out, 'egdb');
  mkdirSync(target, { recursive: true });
  for (const file of readdirSync(egdb).filter((f) => f.endsWith('.egdb'))) copyFileSync(join(egdb, file), join(target, file));
  const pieces = (file) => (file.match(/\d+/g) || []).reduce((n, d) => n + Number(d), 0);
  const files = readdirSync(target).filter((f) => /^m\dk\d-m\dk\d\.egdb$/.test(f)).sort()
    .map((file) => ({ file, pieces: pieces(file), bytes: statSync(join(target, file)).size }));
  writeFileSync(join(target, 'index.json'), JSON.stringify(files) + '\n');
  console.log(`${target}: ${files.length} databases, ${files.reduce((n, f) => n + f.bytes, 0)} bytes`);
}
