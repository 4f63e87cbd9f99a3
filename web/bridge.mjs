// SPDX-License-Identifier: GPL-3.0-or-later
// The native bridge: serves the built site on 127.0.0.1 and connects its page to a native ./poolshark over a WebSocket.
// usage: node web/bridge.mjs [--port N] [--engine PATH]   (then open the printed address)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';

const here = dirname(fileURLToPath(import.meta.url));
const options = { port: 8089, engine: resolve(here, '..', 'poolshark') };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--port' && /^\d+$/.test(args[i + 1] || '')) options.port = Number(args[++i]);
  else if (args[i] === '--engine' && args[i + 1]) options.engine = resolve(args[++i]);
  else {
    console.error(`bridge: unknown or incomplete argument '${args[i]}'\nusage: node web/bridge.mjs [--port N] [--engine PATH]`);
    process.exit(2);
  }
}

/* The site make web wrote: the page, its manifest, icons, service worker and databases. */
const site = join(here, 'dist');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json',
  '.webmanifest': 'application/manifest+json', '.png': 'image/png', '.svg': 'image/svg+xml',
  '.egdb': 'application/octet-stream',
};
const server = createServer((request, response) => {
  const path = decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname);
  const file = normalize(join(site, path === '/' ? 'index.html' : path));
  if (!file.startsWith(site + sep) || !TYPES[extname(file)]) {
    response.writeHead(404).end('not found\n');
    return;
  }
  try {
    response.writeHead(200, { 'content-type': TYPES[extname(file)] }).end(readFileSync(file));
  } catch {
    response.writeHead(path === '/' ? 500 : 404).end(path === '/' ? 'web/dist/index.html is missing: run make web\n' : 'not found\n');
  }
});

/* One engine process per connection: each message is lines, each reply line goes back with its newline. */
const sockets = new WebSocketServer({ server, path: '/engine' });
sockets.on('connection', (socket) => {
  const engine = spawn(options.engine, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  engine.stdout.setEncoding('utf8');
  engine.stdout.on('data', (text) => socket.readyState === socket.OPEN && socket.send(text));
  engine.on('exit', () => socket.close());
  engine.on('error', (e) => {
    console.error(`bridge: cannot run ${options.engine}: ${e.message}`);
    socket.close();
  });
  engine.stdin.on('error', () => {});
  socket.on('message', (data) => engine.stdin.write(String(data).endsWith('\n') ? String(data) : String(data) + '\n'));
  socket.on('close', () => engine.stdin.end());
});

server.listen(options.port, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`bridge: open http://127.0.0.1:${port}/?engine=ws://127.0.0.1:${port}/engine (engine ${options.engine})`);
});
