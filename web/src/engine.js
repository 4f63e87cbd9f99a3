// SPDX-License-Identifier: GPL-3.0-or-later
// The page's engine: poolshark in a Web Worker (WebAssembly), or a native poolshark over a WebSocket.
'use strict';

/*
 * Speaks Hub lines with one engine. request() sends lines and collects the
 * replies until a terminating line: by default a `ping` is appended and its
 * `pong` ends the reply (the engine answers in order). A search is sent on
 * its own and ends at `done` (or an `error`). The worker build searches in
 * its only thread, so it cannot read `stop`: stop() then ends the worker and
 * starts a fresh one (the caller sets the game up again); the native engine
 * gets a real `stop`.
 */
class EngineClient {
  constructor(options) {
    this.url = options.url || '';
    this.onLog = options.onLog || (() => {});
    this.onCrash = options.onCrash || (() => {});
    this.pending = [];
    this.transport = null;
    this.kind = this.url ? 'native' : 'worker';
    this.files = new Map(); /* path -> ArrayBuffer: the worker's files, stored again after a restart */
    this.keptLines = new Map(); /* name -> Hub line sent again after a restart (set-param) */
  }

  /* Starts the engine; resolves once it answers (with the files and the
   * kept lines of an earlier worker sent first). */
  async start() {
    this.pending = [];
    if (this.kind === 'native') await this.openSocket();
    else this.openWorker();
    for (const [file, data] of this.files) this.transport.sendFile(file, data);
    await this.request([...this.keptLines.values()]);
  }

  /* Stores a file in the worker's file system (kept for its restarts). */
  storeFile(file, data) {
    this.files.set(file, data);
    if (this.transport && this.transport.sendFile) this.transport.sendFile(file, data);
  }

  /* A Hub line sent now and again whenever the worker starts afresh
   * (the option it sets survives a Stop); `name` replaces an earlier one. */
  keep(name, line) {
    this.keptLines.set(name, line);
    return this.request([line]);
  }

  openWorker() {
    const source = document.getElementById('engine-source');
    if (!source) throw new Error('this page was not built with the engine (run make web)');
    const blob = new Blob([source.textContent], { type: 'text/javascript' });
    const url = URL.createObjectURL(blob);
    const worker = new Worker(url);
    URL.revokeObjectURL(url);
    worker.onmessage = (event) => this.receive(String(event.data));
    worker.onerror = (event) => {
      event.preventDefault();
      this.fail('the engine stopped: ' + (event.message || 'worker error'));
    };
    this.transport = {
      send: (line) => worker.postMessage(line),
      /* A copy: the page keeps its bytes for the next worker. */
      sendFile: (file, data) => worker.postMessage({ file, data: data.slice(0) }),
      close: () => worker.terminate(),
    };
  }

  openSocket() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      let buffer = '';
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error('cannot reach the engine at ' + this.url));
      socket.onclose = () => this.fail('the connection to the engine closed');
      socket.onmessage = (event) => {
        buffer += String(event.data);
        let end;
        while ((end = buffer.indexOf('\n')) >= 0) {
          this.receive(buffer.slice(0, end).replace(/\r$/, ''));
          buffer = buffer.slice(end + 1);
        }
      };
      this.transport = {
        send: (line) => socket.send(line + '\n'),
        close: () => {
          socket.onclose = null;
          socket.close();
        },
      };
    });
  }

  receive(line) {
    if (line.startsWith('# ')) {
      this.onLog(line.slice(2));
      return;
    }
    const head = this.pending[0];
    if (!head) {
      this.onLog('unrequested: ' + line);
      return;
    }
    head.lines.push(line);
    if (head.onLine) head.onLine(line);
    if (head.until(line)) {
      this.pending.shift();
      head.resolve({ lines: head.lines, aborted: false });
    }
  }

  fail(message) {
    if (this.transport) this.transport.close();
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) p.resolve({ lines: p.lines, aborted: true });
    this.onCrash(message);
  }

  get busy() {
    return this.pending.length > 0;
  }

  /* Sends `lines` and resolves with {lines, aborted} once the engine has
   * answered them all (aborted: the engine was stopped or died first). */
  request(lines, options = {}) {
    const search = options.search === true;
    const until = search ? (l) => /^(done|error)\b/.test(l) : (l) => l === 'pong';
    return new Promise((resolve) => {
      this.pending.push({ lines: [], until, resolve, onLine: options.onLine });
      for (const line of lines) this.transport.send(line);
      if (!search) this.transport.send('ping');
    });
  }

  /* Ends the running search. Returns true when the engine was restarted
   * (worker build: its game and options are gone and must be sent again). */
  async stop() {
    if (!this.busy) return false;
    if (this.kind === 'native') {
      const waiting = this.pending[this.pending.length - 1];
      this.transport.send('stop');
      await new Promise((resolve) => {
        const done = waiting.resolve;
        waiting.resolve = (r) => {
          done(r);
          resolve();
        };
      });
      return false;
    }
    this.transport.close();
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) p.resolve({ lines: p.lines, aborted: true });
    await this.start();
    return true;
  }
}

/* The lines of a reply that start with `command`, parsed. */
function hubReplies(reply, command) {
  return reply.lines.map(hubParse).filter((l) => l.command === command);
}

/* The message of the first `error` line of a reply, or ''. */
function hubError(reply) {
  const e = hubReplies(reply, 'error')[0];
  return e ? e.values.message || 'error' : '';
}
