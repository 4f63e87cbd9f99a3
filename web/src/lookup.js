// SPDX-License-Identifier: GPL-3.0-or-later
// The lookup panels: the endgame databases' verdict on every move, and the opening book's moves with the engine's scores.
'use strict';

/* The endgame databases served beside the page: egdb/index.json lists the
 * files ({file, pieces, bytes}); the engine reads them from this folder of
 * the worker's file system. */
const EGDB_INDEX = 'egdb/index.json';
const EGDB_DIR = '/egdb';
/* The book's moves are scored by a search of this many nodes, each move
 * its own line (multipv). */
const BOOK_NODES = 100000;
/* The book is asked in the first moves only. */
const BOOK_PLIES = 24;

/* The bytes at `url` (relative to the page): an XMLHttpRequest, which
 * reads a file beside a page opened from disk where the browser allows it. */
function loadBytes(url, type = 'arraybuffer') {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('GET', new URL(url, location.href).href);
    request.responseType = type;
    request.onload = () => (request.status === 200 || (request.status === 0 && request.response)
      ? resolve(request.response) : reject(new Error(`${url}: ${request.status || 'not found'}`)));
    request.onerror = () => reject(new Error(`${url} cannot be read`));
    request.send();
  });
}

class LookupPanels {
  /* app: the page's controller. */
  constructor(app) {
    this.app = app;
    this.index = null; /* the databases served: [{file, pieces, bytes}], [] when none */
    this.loaded = 0; /* the databases of up to this many pieces are in the worker */
    this.loading = null; /* a promise while files load */
    this.problem = ''; /* why the databases cannot be had */
    this.books = new Map(); /* FEN -> {moves, scores}: the book panels already worked out */
    for (const id of ['lookup', 'book']) {
      $(id).addEventListener('click', (e) => {
        const row = e.target.closest('tr[data-hub]');
        const entry = row && app.legal.find((m) => m.hub === row.dataset.hub);
        if (entry && app.canMove()) app.play(entry);
      });
    }
  }

  /* Whether the panels may show: analysis, or a game that is over (never
   * a hint during play). */
  allowed() {
    const app = this.app;
    return (app.analysis.on || !!app.over) && !app.analysis.hidden() && !app.editing && app.variant === 'pool';
  }

  hide() {
    $('lookup-box').hidden = true;
    $('book-box').hidden = true;
    document.body.dataset.lookup = '';
    document.body.dataset.book = '';
  }

  /* Brings both panels up to date for the position shown (awaited before
   * analysis starts, so that their requests do not stop it). */
  async refresh() {
    if (!this.allowed()) return this.hide();
    const fen = this.app.record.fen;
    await this.endgame(fen);
    if (fen === this.app.record.fen) await this.book(fen);
  }

  /* The most pieces the databases served beside the page hold. */
  async served() {
    if (this.app.engine.kind === 'native') return 5; /* the native engine's own --egdb */
    if (!this.index) {
      try {
        this.index = JSON.parse(await loadBytes(EGDB_INDEX, 'text'));
      } catch (e) {
        this.index = [];
        this.problem = 'the endgame databases come with the site (egdb/ beside the page); this copy has none, or the browser does not let a page opened from disk read them';
      }
    }
    return this.index.reduce((n, f) => Math.max(n, f.pieces), 0);
  }

  /* Stores the databases of up to `pieces` pieces in the worker. */
  async load(pieces) {
    const engine = this.app.engine;
    if (engine.kind === 'native' || this.loaded >= pieces) return true;
    if (this.loading) {
      await this.loading;
      return this.loaded >= pieces;
    }
    const files = this.index.filter((f) => f.pieces <= pieces && f.pieces > this.loaded);
    const bytes = files.reduce((n, f) => n + f.bytes, 0);
    $('lookup-status').textContent = `Loading the endgame databases of up to ${pieces} pieces (${(bytes / 1048576).toFixed(1)} MB)…`;
    this.loading = (async () => {
      try {
        const data = await Promise.all(files.map((f) => loadBytes('egdb/' + f.file)));
        files.forEach((f, i) => engine.storeFile(`${EGDB_DIR}/${f.file}`, data[i]));
        const reply = await engine.keep('egdb', `set-param name=egdb-path value=${EGDB_DIR}`);
        if (hubError(reply)) throw new Error(hubError(reply));
        this.loaded = pieces;
      } catch (e) {
        this.problem = `the endgame databases could not be loaded: ${e.message}`;
      }
    })();
    await this.loading;
    this.loading = null;
    return this.loaded >= pieces;
  }

  /* The databases' verdict on each move, when the position is within their reach. */
  async endgame(fen) {
    const app = this.app;
    const pieces = app.pieces.size;
    const most = await this.served();
    const box = $('lookup-box');
    if (pieces > Math.max(most, 4)) {
      box.hidden = true;
      document.body.dataset.lookup = '';
      return;
    }
    box.hidden = false;
    if (!most || !(await this.load(pieces))) {
      $('lookup-status').textContent = `No lookup: ${this.problem}.`;
      $('lookup').replaceChildren();
      return;
    }
    if (fen !== app.record.fen) return;
    const reply = await app.engine.request(['lookup']);
    if (fen !== app.record.fen || reply.aborted) return;
    const problem = hubError(reply);
    const lines = hubReplies(reply, 'lookup').map((l) => l.values);
    const total = lines.find((l) => l.count !== undefined);
    if (problem || !total) {
      $('lookup-status').textContent = `No lookup: ${problem || 'no answer'}.`;
      $('lookup').replaceChildren();
      return;
    }
    const side = app.side;
    const verdict = (v) => (v.result === 'draw' ? 'draw' : `${v.result} in ${v.plies}`);
    $('lookup-status').textContent = `${colourName(side)} to move: ${verdict(total)} (${pieces} pieces; the draw counters are not counted).`;
    const moves = lines.filter((l) => l.move);
    $('lookup').replaceChildren(...moves.map((m) => element('tr', { className: 'lookup-' + m.result, data: { hub: m.hub } }, [
      element('td', { className: 'lookup-move', textContent: m.move }),
      element('td', { textContent: verdict(m) }),
    ])));
    document.body.dataset.lookup = JSON.stringify({ result: total.result, plies: Number(total.plies), moves: moves.map((m) => ({ move: m.move, result: m.result, plies: Number(m.plies) })) });
  }

  /* The book's moves with their weights, and a search's score of each. */
  async book(fen) {
    const app = this.app;
    const box = $('book-box');
    if (app.view > BOOK_PLIES || app.lineStart !== app.startFen) {
      box.hidden = true;
      document.body.dataset.book = '';
      return;
    }
    let known = this.books.get(fen);
    if (!known) {
      const reply = await app.engine.request(['book']);
      if (fen !== app.record.fen || reply.aborted) return;
      const listed = hubReplies(reply, 'book').map((l) => l.values).filter((l) => l.move);
      const scores = listed.length ? await this.scoreMoves(listed.slice(0, SEARCH_LINES_MAX).map((m) => m.hub)) : new Map();
      if (fen !== app.record.fen) return;
      known = { moves: listed, scores };
      if (!listed.length || scores.size) this.books.set(fen, known);
    }
    const { moves, scores } = known;
    if (!moves.length) {
      box.hidden = true;
      document.body.dataset.book = '';
      return;
    }
    const total = moves.reduce((n, m) => n + Number(m.weight), 0);
    const side = app.side;
    box.hidden = false;
    $('book').replaceChildren(...moves.map((m) => element('tr', { data: { hub: m.hub } }, [
      element('td', { className: 'lookup-move', textContent: m.move }),
      element('td', { textContent: `${Math.round((100 * Number(m.weight)) / total)}%` }),
      element('td', { className: 'lookup-score', textContent: scores.has(m.hub) ? app.analysis.scoreText(scores.get(m.hub), side) : '' }),
    ])));
    document.body.dataset.book = JSON.stringify(moves.map((m) => ({ move: m.move, weight: Number(m.weight), score: scores.has(m.hub) ? scores.get(m.hub) : null })));
  }

  /* Each of `hubs` scored by one search, each its own line: Map hub -> score (side to move's view). */
  async scoreMoves(hubs) {
    const engine = this.app.engine;
    const scores = new Map();
    if (!this.app.analysis.multipvKnown) return scores;
    await engine.request(['set-param name=strength value=100', `set-param name=multipv value=${hubs.length}`, `level nodes=${BOOK_NODES}`]);
    const reply = await engine.request([`go think searchmoves=${hubQuote(hubs.join(' '))}`], {
      search: true,
      onLine: (line) => {
        if (!line.startsWith('info ')) return;
        const v = hubParse(line).values;
        const first = (v.pv || '').split(' ')[0];
        if (first) scores.set(first, Number(v.score));
      },
    });
    if (reply.aborted) scores.clear();
    return scores;
  }
}

/* The most lines the engine searches at once (its multipv option's maximum). */
const SEARCH_LINES_MAX = 10;
