// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis panel: analysis mode, the engine's lines (several in analysis, with arrows), the bar, hidden thinking.
'use strict';

/* Plies of a principal variation shown under the board (three lines on a phone). */
const PV_SHOWN = 12;
/* Plies of each further line of a multi-line analysis. */
const PV_SHOWN_MORE = 8;
/* The lines shown are redrawn at most this often, in milliseconds. */
const SHOW_MS = 100;
/* How long drawing waits for the rest of an iteration's lines, in milliseconds. */
const PART_WAIT_MS = 10;
/* Nodes of the short search that gives the bar a score where none is known. */
const GLANCE_NODES = 20000;

class AnalysisPanel {
  /* app: the page's controller. */
  constructor(app) {
    this.app = app;
    this.on = false;
    this.evalWhite = 0; /* White's score shown by the bar */
    this.lines = []; /* the last info of each line of the analysis running: {info, side, fen} */
    this.glancing = null; /* the short search running for the bar, a promise */
    this.multipvKnown = false; /* the engine has the multipv option */
    $('analyse').addEventListener('change', (e) => this.toggle(e.target.checked));
    $('stop').addEventListener('click', () => this.stop());
    $('score-view').addEventListener('change', () => app.persist.save() || app.redraw());
    $('multipv').addEventListener('change', () => this.restart());
  }

  /* Asks the engine whether it has the multipv option (an older native engine may not). */
  async learn() {
    const reply = await this.app.engine.request(['get multipv']);
    this.multipvKnown = !hubError(reply);
  }

  /* Analysis mode on or off, without starting or stopping anything (a restored game). */
  setOn(on) {
    this.on = on;
    $('analyse').checked = on;
  }

  /* The player switched analysis mode: the clock pauses, the engine analyses the position shown. */
  async toggle(on) {
    const app = this.app;
    await app.interrupt();
    this.on = on;
    this.clearLines();
    if (on) app.clocks.stop();
    else app.clocks.start();
    app.redraw();
    if (on) {
      app.say('Analysing; Stop ends the search.');
      this.analyse();
    } else {
      app.say('');
      await app.continueGame();
    }
  }

  /* The number of lines changed: analysis starts again with that many. */
  async restart() {
    this.app.persist.save();
    if (!this.on) return;
    await this.app.interrupt();
    this.clearLines();
    this.analyse();
  }

  /* How many lines analysis shows. */
  count() {
    return this.multipvKnown ? Number($('multipv').value) || 1 : 1;
  }

  /* Sets the engine's number of lines (1 for play, hints and reviews). */
  multipvLine(n) {
    return this.multipvKnown ? [`set-param name=multipv value=${n}`] : [];
  }

  /* Searches the position shown until stopped, showing each `info` line. */
  async analyse() {
    const app = this.app;
    if (app.over) return;
    const side = app.side;
    const fen = app.record.fen;
    /* A move or a walk meanwhile interrupts (app.epoch): this analysis is then over. */
    const epoch = app.epoch;
    const current = () => epoch === app.epoch && fen === app.record.fen && this.on;
    this.clear('…');
    /* Every line held is this search's: a line left from an earlier one
     * would hold back drawing (drawLines) once this search is deeper. */
    this.clearLines();
    app.searching = true;
    app.redraw();
    await app.lookups.refresh();
    if (!current()) return;
    await app.engine.request(['set-param name=strength value=100', ...this.multipvLine(this.count()), 'level infinite']);
    if (!current()) return;
    const reply = await app.engine.request(['go analyze'], {
      search: true,
      onLine: (line) => line.startsWith('info ') && this.show(hubParse(line).values, side, fen, 'analysis'),
    });
    if (!reply.aborted) {
      app.searching = false;
      app.redraw();
    }
  }

  async stop() {
    const app = this.app;
    if (!this.on) return;
    await app.interrupt();
    app.searching = false;
    /* The last iteration's lines have all arrived: drawn now, not when
     * their timer fires after the page already says it stopped. */
    this.flush();
    app.say('Analysis stopped.');
    app.redraw();
  }

  clear(score = '') {
    $('pv').replaceChildren();
    $('lines-more').replaceChildren();
    $('score').textContent = score;
    $('depth').textContent = '';
    document.body.dataset.pv = '';
    document.body.dataset.pvs = '';
  }

  /* Forgets the lines of the last analysis (the position changed). */
  clearLines() {
    this.lines = [];
    clearTimeout(this.drawTimer);
    this.drawTimer = null;
  }

  /* The view scores are shown from: White's, or the player's. */
  scoreView() {
    return $('score-view').value === 'me' ? this.app.player : 'W';
  }

  /* Whether the engine's thinking is hidden: a clock game in progress, as
   * in a tournament, when the player asked for it. */
  hidden() {
    return $('hide-thinking').checked && this.app.clocks.running() && !this.on;
  }

  drawVisibility() {
    const hide = this.hidden();
    document.body.classList.toggle('thinking-hidden', hide);
    $('engine-lines').hidden = hide;
    $('eval-bar').classList.toggle('hidden-thinking', hide);
  }

  /* A score from the side to move `side`, for the line under the board. */
  scoreText(score, side) {
    return signedScore(scoreFrom(score, side, this.scoreView()));
  }

  /* The moves of a principal variation for people, numbered from the position shown. */
  pvMoves(moves, shown) {
    const app = this.app;
    const start = app.lineStart[0];
    const first = app.record.moves.length;
    const out = moves.slice(0, shown).map((m, i) => {
      const { number, lead } = pdnMoveNumber(first + i, start, app.first);
      const text = (lead ? `${number}. ` : i === 0 ? `${number}... ` : '') + shortMove(m, (q) => app.board.name(q), app.captureMark());
      return element('span', { className: 'pv-move', textContent: text });
    });
    if (moves.length > shown) out.push('…');
    return out;
  }

  /*
   * An `info` line of a search: in analysis, line `multipv` of several
   * (the first under the board, the others under it, each with its score,
   * and an arrow for each first move); during play, poolshark's score and
   * its own move only (its line would show the player's best reply).
   */
  show(info, side, fen, who) {
    const app = this.app;
    if (fen !== app.record.fen) return;
    /* A line replaces the same line of the iteration before (the engine
     * sends them all at the end of each iteration). */
    const k = Math.max(1, Number(info.multipv) || 1);
    this.lines[k - 1] = { info, side, fen };
    this.who = who;
    /* Drawn at most every SHOW_MS: a small endgame sends hundreds of
     * iterations in a second. */
    if (!this.drawTimer) this.drawTimer = setTimeout(() => this.drawLines(), SHOW_MS);
  }

  /* The lines under the board, the bar and the arrows, as the last info lines left them. */
  drawLines() {
    const app = this.app;
    this.drawTimer = null;
    const best = this.lines[0];
    if (!best || best.fen !== app.record.fen) return;
    /* The first line of an iteration came, the others are on their way (a
     * message each): drawn together, or two lines would show one move. */
    const behind = (l) => l && l.fen === best.fen && Number(l.info.depth) < Number(best.info.depth);
    if (app.searching && this.lines.some(behind)) {
      this.drawTimer = setTimeout(() => this.drawLines(), PART_WAIT_MS);
      return;
    }
    const { info, side } = best;
    const who = this.who;
    const score = Number(info.score);
    const view = this.scoreView();
    const label = view === 'W' && $('score-view').value === 'W' ? "White's view" : `your view, ${colourName(view)}`;
    $('score').textContent = `${who === 'poolshark' ? 'poolshark ' : ''}${this.scoreText(score, side)} (${label})`;
    $('score').title = describeScore(score, side);
    $('depth').textContent = `depth ${info.depth}, ${Number(info.nodes).toLocaleString('en')} nodes`;
    const moves = (info.pv || '').split(' ').filter(Boolean);
    $('pv').replaceChildren(...this.pvMoves(who === 'poolshark' ? moves.slice(0, 1) : moves, who === 'poolshark' ? 1 : PV_SHOWN));
    $('lines-more').replaceChildren(...this.lines.slice(1).filter(Boolean).map((l, i) => element('li', { data: { line: i + 2 } }, [
      element('span', { className: 'line-score', textContent: this.scoreText(Number(l.info.score), l.side) }),
      ...this.pvMoves((l.info.pv || '').split(' ').filter(Boolean), PV_SHOWN_MORE),
    ])));
    this.evalWhite = reviewCap(scoreFrom(score, side, 'W'));
    this.drawEval();
    document.body.dataset.pv = info.pv || '';
    document.body.dataset.score = String(score);
    document.body.dataset.pvs = JSON.stringify(this.lines.filter(Boolean).map((l) => ({ score: Number(l.info.score), pv: l.info.pv || '', depth: Number(l.info.depth) })));
    const arrows = this.arrows();
    if (JSON.stringify(arrows) !== JSON.stringify(app.board.state.arrows || [])) app.board.render(Object.assign({}, app.board.state, { arrows }));
  }

  /* Draws the lines waiting for their timer now (the search ended). */
  flush() {
    if (!this.drawTimer) return;
    clearTimeout(this.drawTimer);
    this.drawLines();
  }

  /* A forced reply: the line says so, and the score shown stays. */
  forced() {
    clearTimeout(this.drawTimer);
    this.drawTimer = null;
    $('depth').textContent = 'forced';
    $('pv').replaceChildren();
  }

  /* The arrows of the analysis: each line's first move, the best first. */
  arrows() {
    if (!this.on || this.hidden()) return [];
    const seen = new Set();
    const out = [];
    for (const l of this.lines) {
      if (!l || l.fen !== this.app.record.fen) continue;
      const first = (l.info.pv || '').split(' ')[0];
      if (!first || seen.has(first)) continue;
      seen.add(first);
      const squares = first.split(/[-x]/).map(Number);
      out.push({ from: squares[0], to: squares[1] });
    }
    return out;
  }

  drawEval() {
    const share = scoreShare(this.evalWhite || 0);
    $('eval-fill').style.height = `${(share * 100).toFixed(1)}%`;
    $('eval-bar').title = `evaluation: ${signedScore(this.evalWhite || 0)} from White's view`;
    /* White's share grows from White's side of the board. */
    $('eval-bar').classList.toggle('flipped', this.app.board.flipped);
    document.body.dataset.evalWhite = String(this.evalWhite || 0);
  }

  /*
   * Gives the bar a score for the position shown when none is known (a
   * loaded game, a FEN, a walk): a short search of GLANCE_NODES nodes,
   * kept on the tree. Nothing while the thinking is hidden.
   */
  async glance() {
    const app = this.app;
    if (this.hidden() || app.over || this.glancing || app.engine.busy) return;
    const node = app.nodeAt(app.view);
    if (node.review || node.eval) return;
    const side = app.side;
    const fen = app.record.fen;
    const run = (async () => {
      await app.engine.request(['set-param name=strength value=100', ...this.multipvLine(1), `level nodes=${GLANCE_NODES}`]);
      let last = null;
      const reply = await app.engine.request(['go think'], { search: true, onLine: (line) => line.startsWith('info ') && (last = hubParse(line).values) });
      if (reply.aborted || !last) return;
      node.eval = { white: reviewCap(scoreFrom(Number(last.score), side, 'W')), depth: Number(last.depth) };
      if (fen === app.record.fen) {
        this.evalWhite = node.eval.white;
        this.drawEval();
      }
    })();
    this.glancing = run;
    await run;
    this.glancing = null;
  }

  /* Waits for a short search of glance() to end (it is not interrupted). */
  async glanceDone() {
    if (this.glancing) await this.glancing;
  }
}
