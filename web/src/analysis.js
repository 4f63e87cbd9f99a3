// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis panel: analysis mode, the engine's line under the board (score, depth, principal variation), the bar.
'use strict';

/* Plies of a principal variation shown under the board (three lines on a phone). */
const PV_SHOWN = 12;

class AnalysisPanel {
  /* app: the page's controller. */
  constructor(app) {
    this.app = app;
    this.on = false;
    this.evalWhite = 0; /* White's score shown by the bar */
    $('analyse').addEventListener('change', (e) => this.toggle(e.target.checked));
    $('stop').addEventListener('click', () => this.stop());
    $('score-view').addEventListener('change', () => app.persist.save() || app.redraw());
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
    if (on) app.clocks.stop();
    else app.clocks.start();
    app.redraw();
    if (on) this.analyse();
    else {
      app.say('');
      await app.continueGame();
    }
  }

  /* Searches the position shown until stopped, showing each `info` line. */
  async analyse() {
    const app = this.app;
    if (app.over) return;
    const side = app.side;
    const fen = app.record.fen;
    this.clear('…');
    app.say('Analysing; Stop ends the search.');
    app.searching = true;
    app.redraw();
    const reply = await app.engine.request(['set-param name=strength value=100', 'level infinite', 'go analyze'], {
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
    app.say('Analysis stopped.');
    app.redraw();
  }

  clear(score = '') {
    $('pv').replaceChildren();
    $('score').textContent = score;
    $('depth').textContent = '';
    document.body.dataset.pv = '';
  }

  /* The view scores are shown from: White's, or the player's. */
  scoreView() {
    return $('score-view').value === 'me' ? this.app.player : 'W';
  }

  /* A search's line under the board: its score from the chosen view, depth
   * and nodes, and its principal variation (a move never breaks across lines). */
  show(info, side, fen, who) {
    const app = this.app;
    if (fen !== app.record.fen) return;
    const score = Number(info.score);
    const view = this.scoreView();
    const label = view === 'W' && $('score-view').value === 'W' ? "White's view" : `your view, ${colourName(view)}`;
    $('score').textContent = `${who === 'poolshark' ? 'poolshark ' : ''}${signedScore(scoreFrom(score, side, view))} (${label})`;
    $('score').title = describeScore(score, side);
    $('depth').textContent = `depth ${info.depth}, ${Number(info.nodes).toLocaleString('en')} nodes`;
    const all = (info.pv || '').split(' ').filter(Boolean);
    const moves = all.slice(0, PV_SHOWN);
    const start = app.lineStart ? app.lineStart[0] : app.record.start[0];
    const first = app.record.moves.length;
    $('pv').replaceChildren(...moves.map((m, i) => {
      const { number, lead } = pdnMoveNumber(first + i, start, app.first);
      const text = (lead ? `${number}. ` : i === 0 ? `${number}... ` : '') + shortMove(m, (q) => app.board.name(q), app.captureMark());
      return element('span', { className: 'pv-move', textContent: text });
    }), ...(all.length > moves.length ? ['…'] : []));
    this.evalWhite = reviewCap(scoreFrom(score, side, 'W'));
    this.drawEval();
    document.body.dataset.pv = info.pv || '';
    document.body.dataset.score = String(score);
  }

  drawEval() {
    const share = scoreShare(this.evalWhite || 0);
    $('eval-fill').style.height = `${(share * 100).toFixed(1)}%`;
    $('eval-bar').title = `evaluation: ${signedScore(this.evalWhite || 0)} from White's view`;
    /* White's share grows from White's side of the board. */
    $('eval-bar').classList.toggle('flipped', this.app.board.flipped);
  }
}
