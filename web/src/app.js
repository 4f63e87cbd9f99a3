// SPDX-License-Identifier: GPL-3.0-or-later
// The page's controller: the game as the engine records it, the player's input, the engine's turns, analysis.
'use strict';

const START_FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const DRAW_ACCEPT_MEN = 0.25; /* poolshark takes a draw unless it thinks it is this much better */

const $ = (id) => document.getElementById(id);

/* The pieces of a FEN as the engine writes it (no ranges): Map square ->
 * letter. Drawing only; the engine has read and checked every FEN first. */
/* A square of a FEN list: a number 1-32, or the algebraic name of a dark
 * square (the engine writes Russian and Brazilian FENs so: `c3` is 22). */
function fenSquare(text) {
  const named = /^([a-h])([1-8])$/.exec(text);
  if (!named) return Number(text);
  const row = 8 - Number(named[2]), column = named[1].charCodeAt(0) - 97;
  return 4 * row + Math.floor(column / 2) + 1;
}

function fenPieces(fen) {
  const pieces = new Map();
  const [, ...lists] = fen.split(':');
  for (const list of lists) {
    const colour = list[0] === 'W' ? 'w' : 'b';
    for (const item of list.slice(1).split(',')) {
      if (!item) continue;
      const king = item[0] === 'K';
      pieces.set(fenSquare(king ? item.slice(1) : item), king ? colour.toUpperCase() : colour);
    }
  }
  return pieces;
}

function fenFromPieces(pieces, side) {
  const list = (colour) =>
    [...pieces.entries()]
      .filter(([, l]) => l.toLowerCase() === colour)
      .sort((a, b) => a[0] - b[0])
      .map(([s, l]) => (l === l.toUpperCase() ? 'K' : '') + s)
      .join(',');
  return `${side}:W${list('w')}:B${list('b')}`;
}

/* A Hub move of a principal variation for people: `from-to` or `fromxto`,
 * the squares named by `name`, a capture written with `capture`. */
function shortMove(hub, name, capture) {
  const squares = hub.split(/[-x]/).map(Number);
  return hub.includes('x') ? `${name(squares[0])}${capture}${name(squares[1])}` : squares.map(name).join('-');
}

/* A square of a `legal` path as the engine writes it: 22 or c3. */
function pathSquare(text) {
  return /^\d+$/.test(text) ? Number(text) : algebraicSquare(text);
}
/* Plies of a principal variation shown under the board (three lines on a phone). */
const PV_SHOWN = 12;
/* How often the clocks are redrawn and checked for a flag. */
const CLOCK_TICK_MS = 100;

class App {
  constructor() {
    const params = new URLSearchParams(location.search);
    this.engine = new EngineClient({
      url: params.get('engine') || '',
      onLog: (text) => console.debug('engine:', text),
      onCrash: (text) => this.crashed(text),
    });
    this.board = new BoardView($('board'), {
      onPress: (s) => this.press(s),
      onSquare: (s) => this.square(s),
    });
    this.moveList = new MoveList($('moves'), (view) => this.goTo(view));
    this.graph = new EvalGraph($('graph'), (view) => this.goTo(view));
    this.storage = params.has('nostore') ? null : window.localStorage;
    this.player = 'B';
    /* What the engine says of the variant: its start position, the side
     * that moves first there, and whether its moves name squares a-h 1-8. */
    this.variant = 'pool';
    this.startFen = START_FEN;
    this.first = 'B';
    /* The engine's game is the position shown: `record.moves` are the
     * first `view` moves of `line`, the whole game as played. */
    this.record = { start: START_FEN, fen: START_FEN, moves: [], result: '', reason: '' };
    this.line = [];
    this.legal = [];
    this.pieces = fenPieces(START_FEN);
    this.last = null;
    this.hint = null;
    this.selection = null;
    this.rules = null; /* {result, text} when the rules end the game at the position shown */
    this.ending = null; /* {result, text} when the players ended it at the end of the line (resigned, agreed, flag) */
    this.analysing = false;
    this.searching = false;
    this.editing = null;
    this.restarts = 0;
    this.review = []; /* reviewJudge's entries for a prefix of the line */
    this.reviewing = null; /* {cancelled} while a review runs */
    this.evals = {}; /* view -> {white, depth}: the engine's own searches of the line's positions */
    this.evalWhite = 0;
    this.clock = null;
    this.walking = false; /* a goTo is under way, towards walkTarget */
    this.walkTarget = 0;
    this.wire();
  }

  async start() {
    try {
      await this.engine.start();
    } catch (e) {
      this.error(e.message);
      $('engine-label').textContent = 'no engine';
      return;
    }
    $('engine-label').textContent = this.engine.kind === 'native'
      ? 'engine: native poolshark at ' + this.engine.url
      : 'engine: poolshark (WebAssembly, in this page)';
    const [dubious, ...worse] = REVIEW_MARKS.slice().reverse();
    $('review-help').textContent = `Review: a move that loses at least ${dubious.loss} of a man is ${dubious.name} (${dubious.symbol}), ` +
      worse.map((m) => `${m.loss} a ${m.name} (${m.symbol})`).join(', ') + '.';
    $('variant').value = this.variant;
    await this.engine.request(['new-game', 'pos start']);
    this.board.setFlipped(this.player === 'B');
    this.drawEval();
    await this.refresh();
    this.learnVariant();
    await this.restore();
    setInterval(() => this.tick(), CLOCK_TICK_MS);
    document.body.dataset.ready = 'true';
    await this.continueGame();
  }

  wire() {
    const on = (id, f) => $(id).addEventListener('click', () => f.call(this));
    on('new-black', () => this.newGame('B'));
    on('new-white', () => this.newGame('W'));
    on('takeback', this.takeBack);
    on('hint', this.showHint);
    on('draw', this.offerDraw);
    on('resign', this.resign);
    on('flip', () => this.board.setFlipped(!this.board.flipped) || this.drawEval() || this.drawClocks());
    on('stop', this.stopAnalysis);
    on('pdn-save', this.savePdn);
    on('pdn-load', () => this.loadPdn($('pdn-text').value));
    on('pdn-choose', this.chooseGame);
    on('fen-set', () => this.setFen($('fen-text').value.trim()));
    on('move-play', this.typedMove);
    on('edit', this.openEditor);
    on('edit-clear', () => this.editorSet(new Map()));
    on('edit-start', () => this.editorSet(fenPieces(this.startFen)));
    on('edit-done', this.closeEditor);
    on('edit-cancel', () => this.closeEditor(true));
    on('walk-start', () => this.goTo(0));
    on('walk-back', () => this.step(-1));
    on('walk-forward', () => this.step(1));
    on('walk-end', () => this.goTo(this.line.length));
    on('review', this.reviewGame);
    $('move-input').addEventListener('keydown', (e) => e.key === 'Enter' && this.typedMove());
    $('variant').addEventListener('change', (e) => this.setVariant(e.target.value));
    $('numbers').addEventListener('change', (e) => this.board.setNumbers(e.target.checked) || this.save());
    $('strength').addEventListener('input', (e) => ($('strength-value').textContent = e.target.value));
    for (const id of ['strength', 'movetime', 'clock-base', 'clock-inc', 'review-budget']) $(id).addEventListener('change', () => this.save());
    $('score-view').addEventListener('change', () => this.save() || this.redraw());
    $('clock-on').addEventListener('change', () => this.save() || this.say($('clock-on').checked ? 'The clock starts with the next new game.' : 'No clock from the next new game.'));
    $('analyse').addEventListener('change', (e) => this.setAnalysis(e.target.checked));
    $('pdn-file').addEventListener('change', async (e) => {
      const file = e.target.files[0];
      e.target.value = '';
      if (file) this.loadPdn(await file.text(), file.name);
    });
    document.addEventListener('keydown', (e) => this.key(e));
  }

  /* Left and right arrows, Home and End walk through the game, unless a
   * text field or a list has the keys. */
  key(event) {
    const target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target.type !== 'checkbox' && target.type !== 'radio') return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const go = { ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1), Home: () => this.goTo(0), End: () => this.goTo(this.line.length) }[event.key];
    if (!go) return;
    event.preventDefault();
    go();
  }

  /* The engine died (or its connection closed): say so, and start the
   * worker build once more with the game as it was. */
  async crashed(text) {
    this.searching = false;
    this.error(text);
    if (this.engine.kind !== 'worker' || this.restarts++ > 0) return;
    await this.engine.start();
    await this.setUp();
    await this.refresh();
    this.error(text + '; restarted it.');
  }

  /* Messages */

  say(text) {
    $('message').textContent = text;
    $('message').className = 'message';
  }

  error(text) {
    $('message').textContent = text;
    $('message').className = 'message error';
  }

  /* The game as the engine has it */

  get view() {
    return this.record.moves.length;
  }

  get atEnd() {
    return this.view === this.line.length;
  }

  /* How the game stands at the position shown, or null while it goes on. */
  get over() {
    return this.rules || (this.atEnd ? this.ending : null);
  }

  /*
   * Reads the engine's game and legal moves. The line is kept when the
   * engine's moves are a first part of it (the player walked back, or
   * played the line's next move in analysis); otherwise, or with
   * `truncate`, the line becomes the engine's moves, and what was known of
   * the moves after the point where they part is dropped. `before`: lines
   * sent first in the same request (a `pos`), so that nothing else reaches
   * the engine in between. False when the engine refused.
   */
  async refresh(truncate = false, before = []) {
    const reply = await this.engine.request([...before, 'game', 'legal']);
    if (reply.aborted) return false;
    const game = hubReplies(reply, 'game')[0];
    if (!game || (before.length && hubError(reply))) {
      this.error(hubError(reply) || 'the engine did not report its game');
      return false;
    }
    const v = game.values;
    this.record = {
      start: v.start,
      fen: v.fen,
      moves: v.moves ? v.moves.split(' ') : [],
      result: v.result || '',
      reason: v.reason || '',
    };
    this.legal = hubReplies(reply, 'legal')
      .filter((l) => l.values.move)
      .map((l) => ({
        move: l.values.move,
        path: l.values.path.split(/[-x:]/).map(pathSquare),
        captured: l.values.captured ? l.values.captured.split(',').map(Number) : [],
        hub: l.values.hub,
      }));
    this.pieces = fenPieces(this.record.fen);
    this.keepLine(truncate);
    this.rules = this.record.result ? this.rulesEnding() : null;
    const known = this.knownEval(this.view);
    if (this.rules) this.evalWhite = { '1-0': 99, '0-1': -99 }[this.record.result] || 0;
    else if (known !== null) this.evalWhite = known;
    if (this.over && this.clock) this.clock.stop();
    this.drawEval();
    this.selection = null;
    this.redraw();
    this.save();
    return true;
  }

  keepLine(truncate) {
    const moves = this.record.moves;
    const sameStart = this.lineStart === this.record.start;
    let common = 0;
    if (sameStart) while (common < moves.length && common < this.line.length && moves[common] === this.line[common]) common++;
    if (!truncate && sameStart && common === moves.length) return;
    if (!sameStart) common = 0;
    else if (common < this.line.length) this.ending = null; /* the game goes another way than it ended */
    this.line = moves.slice();
    this.lineStart = this.record.start;
    this.review = this.review.slice(0, common);
    for (const k of Object.keys(this.evals)) if (Number(k) > common) delete this.evals[k];
  }

  /* White's score of the position after `view` plies, from the review or
   * the engine's own search there, or null. */
  knownEval(view) {
    if (view >= 1 && this.review[view - 1]) return reviewCap(this.review[view - 1].white);
    return this.evals[view] ? this.evals[view].white : null;
  }

  get side() {
    return this.record.fen[0];
  }

  rulesEnding() {
    const { result, reason } = this.record;
    const loser = this.side;
    let text;
    if (result === '1/2-1/2') text = `Draw: ${reason}.`;
    else if (reason === 'no legal move') text = `${colourName(otherSide(loser))} wins: ${colourName(loser)} has no legal move.`;
    else text = `${result === '1-0' ? 'White' : 'Black'} wins: ${reason}.`;
    return { result, text };
  }

  redraw() {
    const s = this.selection;
    this.board.render({
      pieces: this.pieces,
      last: this.last ? this.last.path : null,
      lastTaken: this.last ? this.last.captured : null,
      hint: this.hint,
      selected: s ? s.path[0] : null,
      path: s && s.path.length > 1 ? s.path : null,
      taken: s ? s.taken : null,
      targets: s ? s.targets : [],
    });
    this.moveList.draw(this.line, this.view, this.lineStart ? this.lineStart[0] : this.record.start[0], this.first, this.review);
    this.graph.draw(this.review, this.view);
    this.drawStatus();
    this.drawClocks();
    document.body.dataset.fen = this.record.fen;
    document.body.dataset.moves = this.record.moves.join(' ');
    document.body.dataset.line = this.line.join(' ');
    document.body.dataset.view = String(this.view);
    document.body.dataset.busy = String(this.searching);
  }

  drawStatus() {
    const status = $('status');
    const over = this.over;
    status.classList.toggle('over', !!over);
    if (over) status.textContent = over.text;
    else if (this.editing) status.textContent = 'Editing: click squares to place the chosen piece.';
    else if (this.reviewing) status.textContent = this.reviewing.text;
    else if (this.analysing) status.textContent = `Analysis: ${colourName(this.side)} to move.`;
    else if (!this.atEnd) status.textContent = `Move ${this.view} of ${this.line.length}` +
      (this.side === this.player ? `: a move of yours plays on from here (${colourName(this.player)}).` : ': poolshark to move here; › or End goes on.');
    else if (this.side === this.player) status.textContent = `Your move (${colourName(this.player)}).`;
    else status.textContent = 'poolshark is thinking…';
    document.body.dataset.over = over ? over.result : '';
    const playing = !over && !this.analysing && !this.editing && !this.reviewing;
    $('hint').disabled = !playing || this.side !== this.player;
    $('draw').disabled = !playing || !this.atEnd;
    $('resign').disabled = !playing || !this.atEnd;
    $('stop').disabled = !this.analysing;
    $('walk-start').disabled = $('walk-back').disabled = this.view === 0;
    $('walk-forward').disabled = $('walk-end').disabled = this.atEnd;
    $('review').textContent = this.reviewing ? 'Stop review' : 'Review game';
    $('review').disabled = !this.reviewing && (!this.line.length || this.clockRunning());
  }

  /* A clocked game that is not over yet (reviewing it would help one side). */
  clockRunning() {
    return !!this.clock && !this.clock.flagged && !this.ending && !(this.atEnd && this.rules);
  }

  /* Analysis goes on while the player thinks; a move interrupts it. */
  canMove() {
    return !this.over && !this.editing && !this.reviewing && !(this.ending && !this.analysing) &&
      (this.analysing || (!this.searching && this.side === this.player));
  }

  select(square) {
    const candidates = this.legal.filter((m) => m.path[0] === square);
    if (!candidates.length) return false;
    this.selection = { path: [square], candidates, taken: [] };
    this.updateTargets();
    return true;
  }

  updateTargets() {
    const s = this.selection;
    const k = s.path.length;
    s.targets = [...new Set(s.candidates.filter((m) => m.path.length > k).map((m) => m.path[k]))];
    /* Pieces jumped so far: those every remaining candidate takes on the steps entered. */
    s.taken = k > 1 ? s.candidates[0].captured.filter((c) => s.candidates.every((m) => m.captured.includes(c)) &&
      this.between(s.path, c)) : [];
    this.redraw();
  }

  /* Whether square c lies on one of the diagonal legs of `path` (drawing only). */
  between(path, c) {
    const cell = (s) => squareCell(s, false);
    const p = cell(c);
    for (let i = 1; i < path.length; i++) {
      const a = cell(path[i - 1]);
      const b = cell(path[i]);
      const t = (p.x - a.x) / (b.x - a.x);
      if (t > 0 && t < 1 && Math.abs(a.y + t * (b.y - a.y) - p.y) < 1) return true;
    }
    return false;
  }

  press(square) {
    if (!this.canMove()) return false;
    const s = this.selection;
    if (s && s.path.length > 1) return square === s.path[s.path.length - 1];
    if (s && s.targets.includes(square)) return false;
    return this.select(square);
  }

  square(square) {
    if (this.editing) {
      this.editorPlace(square);
      return;
    }
    if (!this.canMove()) return;
    const s = this.selection;
    if (!s) {
      if (!this.select(square)) this.refuse(square);
      return;
    }
    const k = s.path.length;
    const next = s.candidates.filter((m) => m.path[k] === square);
    if (next.length) {
      s.path.push(square);
      s.candidates = next;
      const complete = next.find((m) => m.path.length === s.path.length);
      if (complete) this.play(complete);
      else this.updateTargets();
      return;
    }
    /* The destination of a capture clicked at once, when only one capture ends there. */
    const ending = s.candidates.filter((m) => m.path[m.path.length - 1] === square);
    if (ending.length === 1) {
      this.play(ending[0]);
      return;
    }
    if (k === 1 && this.select(square)) return;
    if (ending.length > 1) {
      this.error(`Several captures end on ${this.board.name(square)}: click the squares of the one you mean.`);
      return;
    }
    this.refuse(square);
  }

  refuse(square) {
    const s = this.selection;
    if (s) {
      const tried = s.path.concat(square).map((q) => this.board.name(q)).join(s.candidates[0].captured.length ? this.captureMark() : '-');
      this.error(`Not a legal move: ${tried}. From ${this.board.name(s.path[0])}: ${s.candidates.map((m) => m.move).join(', ')}.`);
      this.selection = null;
      this.redraw();
      return;
    }
    if (this.pieces.has(square)) {
      const capture = this.legal.length && this.legal.every((m) => m.captured.length);
      this.error(`The piece on ${this.board.name(square)} has no legal move${capture ? ' (a capture must be made)' : ''}.`);
    }
  }

  async typedMove() {
    const text = $('move-input').value.trim();
    if (!text || !this.canMove()) return;
    await this.interrupt();
    const mover = this.side;
    const reply = await this.engine.request([`move ${hubQuote(text)}`]);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Not played: ${problem}.`);
      return;
    }
    $('move-input').value = '';
    const played = hubReplies(reply, 'move')[0].values.played;
    const entry = this.legal.find((m) => m.move === played);
    await this.afterMove(entry, mover);
  }

  /* Plays one of the legal moves for the player. */
  async play(entry) {
    this.selection = null;
    await this.interrupt();
    const mover = this.side;
    const reply = await this.engine.request([`move ${entry.path.join(entry.captured.length ? 'x' : '-')}`]);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Not played: ${problem}.`);
      this.redraw();
      return;
    }
    this.say('');
    await this.afterMove(entry, mover);
  }

  /* A move of the player's is on the engine's board: the clock, the board,
   * the line (a game played on from an earlier position drops the rest;
   * in analysis the line's own next move keeps it). */
  async afterMove(entry, mover) {
    this.hint = null;
    if (this.clock && !this.analysing) this.clock.press(mover);
    this.redraw();
    if (entry) {
      await this.board.animate(entry.path, entry.captured);
      this.last = { path: entry.path, captured: entry.captured };
    }
    await this.refresh(!this.analysing);
    await this.continueGame();
  }

  /* After any change to the game: the engine moves or analyses, or nothing
   * (a position of the past is only shown, until the player moves there). */
  async continueGame() {
    if (this.over || this.reviewing || this.editing) return;
    if (this.analysing) this.analyse();
    else if (this.atEnd && this.side !== this.player) await this.engineMove();
  }

  /* Walking through the game */

  /* Shows the position after `view` plies of the line (clamped); analysis
   * follows, and at the end of the line the game goes on. Calls that come
   * while one is under way change where it goes (keys pressed quickly add
   * up: see step). */
  async goTo(view) {
    if (this.editing) return;
    this.walkTarget = Math.max(0, Math.min(this.line.length, view));
    if (this.walking) return;
    this.walking = true;
    try {
      while (this.walkTarget !== this.view) {
        const to = this.walkTarget;
        if (!this.reviewing) await this.interrupt();
        this.last = null;
        this.hint = null;
        if (!(await this.refresh(false, [`pos fen=${hubQuote(this.lineStart)} moves=${hubQuote(this.line.slice(0, to).join(' '))}`]))) break;
        if (this.view !== to) break; /* the game changed under the walk */
        this.walkTarget = Math.min(this.walkTarget, this.line.length);
      }
    } finally {
      this.walking = false;
    }
    await this.continueGame();
  }

  /* `delta` plies on (or back) from where the walk is going. */
  step(delta) {
    return this.goTo((this.walking ? this.walkTarget : this.view) + delta);
  }

  /* The engine's turn */

  /* Sends the game again (a restarted worker has forgotten it, and its variant). */
  async setUp(extra) {
    const lines = [`set-param name=variant value=${this.variant}`, `pos fen=${hubQuote(this.record.start)} moves=${hubQuote(this.record.moves.join(' '))}`];
    return this.engine.request(lines.concat(extra || []));
  }

  /* A search of the current position; resolves with the `done` line's
   * values and the last `info` line's ({done, info}), or null when it was
   * stopped or failed. */
  async search(levelLines, strength, onInfo) {
    this.searching = true;
    this.redraw();
    await this.engine.request([`set-param name=strength value=${strength}`, ...levelLines]);
    let info = null;
    const reply = await this.engine.request(['go think'], {
      search: true,
      onLine: (line) => {
        if (!line.startsWith('info ')) return;
        info = hubParse(line).values;
        if (onInfo) onInfo(info);
      },
    });
    this.searching = false;
    if (reply.aborted) return null;
    const done = hubReplies(reply, 'done')[0];
    if (!done) {
      this.error(hubError(reply) || 'the search failed');
      return null;
    }
    return Object.assign(done.values, { info });
  }

  /* The engine's limit: its clock when the game has one, else the time per move. */
  engineLevel() {
    if (!this.clock) return `level move-time=${$('movetime').value}`;
    const seconds = (ms) => (ms / 1000).toFixed(3);
    return `level time=${seconds(this.clock.remaining(this.side))} inc=${seconds(this.clock.increment)}`;
  }

  async engineMove() {
    const side = this.side;
    const fen = this.record.fen;
    const view = this.view;
    const level = this.engineLevel();
    document.body.dataset.level = level;
    const done = await this.search([level], $('strength').value, (info) => this.showInfo(info, side, fen, 'poolshark'));
    this.redraw();
    if (!done || !done.move || this.over) return;
    if (done.info && fen === this.record.fen) this.evals[view] = { white: reviewCap(scoreFrom(Number(done.info.score), side, 'W')), depth: Number(done.info.depth) };
    if (this.clock && !this.clock.press(side)) return; /* flagged while it thought */
    const entry = this.legal.find((m) => m.hub === done.move);
    const reply = await this.engine.request([`move ${done.move}`]);
    if (hubError(reply)) {
      this.error('the engine could not play its move: ' + hubError(reply));
      return;
    }
    this.say(`poolshark played ${entry ? entry.move : done.move}.`);
    this.hint = null;
    if (entry) {
      await this.board.animate(entry.path, entry.captured);
      this.last = { path: entry.path, captured: entry.captured };
    }
    await this.refresh(true);
  }

  /* Interrupts the engine (restarting the worker build) and sets the game up again. */
  async interrupt() {
    if (!this.engine.busy) return;
    const restarted = await this.engine.stop();
    this.searching = false;
    if (restarted) await this.setUp();
  }

  /* The clock */

  /* A fresh clock for a new game when the option is on (or none), the side
   * to move's time running. */
  newClock() {
    this.clock = null;
    if (!$('clock-on').checked) return;
    const base = Number($('clock-base').value);
    const inc = Number($('clock-inc').value);
    if (!(base > 0) || !(inc >= 0)) {
      this.error('The clock needs minutes above 0 and an increment of 0 seconds or more; playing without one.');
      return;
    }
    this.clock = new GameClock(base * 60000, inc * 1000, () => performance.now(), (side) => this.flag(side));
  }

  startClock() {
    if (this.clock && !this.over && !this.analysing) this.clock.start(this.lineSide());
  }

  /* The side to move at the end of the line (whose clock runs). */
  lineSide() {
    const plies = this.line.length - this.view;
    return plies % 2 === 0 ? this.side : otherSide(this.side);
  }

  tick() {
    if (!this.clock) return;
    this.clock.tick();
    this.drawClocks();
  }

  flag(side) {
    const winner = otherSide(side);
    this.ending = { result: winner === 'W' ? '1-0' : '0-1', text: `${colourName(winner)} wins on time.` };
    this.say(side === this.player ? 'Your time is up.' : 'poolshark ran out of time.');
    if (!this.atEnd) this.goTo(this.line.length);
    this.redraw();
    this.save();
  }

  drawClocks() {
    for (const row of document.querySelectorAll('.clocks')) row.hidden = !this.clock;
    document.body.classList.toggle('clocked', !!this.clock);
    if (!this.clock) return;
    /* The player's clock below the board, as the player sits. */
    const bottom = this.board.flipped ? 'B' : 'W';
    for (const [id, side] of [['clock-top', otherSide(bottom)], ['clock-bottom', bottom]]) {
      const e = $(id);
      const left = this.clock.remaining(side);
      e.textContent = `${colourName(side)} ${clockText(left)}`;
      e.classList.toggle('running', this.clock.running === side);
      e.classList.toggle('low', left < 10000);
      e.dataset.ms = String(Math.round(left));
    }
  }

  /* Game commands */

  /* Clears what belonged to the previous game. */
  forget() {
    this.ending = null;
    this.last = null;
    this.hint = null;
    this.line = [];
    this.review = [];
    this.evals = {};
    this.evalWhite = 0;
    this.gameTags = null;
    $('review-summary').textContent = '';
  }

  async newGame(colour, title = 'New game') {
    await this.cancelReview();
    await this.interrupt();
    this.player = colour;
    this.forget();
    this.closeEditor(true);
    await this.engine.request(['new-game', 'pos start']);
    this.board.setFlipped(colour === 'B');
    this.drawEval();
    this.clearInfo();
    this.newClock();
    this.say(`${title}: you play ${colourName(colour)}${this.clock ? `, ${clockText(this.clock.base)} + ${this.clock.increment / 1000} s each` : ''}.`);
    await this.refresh(true);
    this.startClock();
    await this.continueGame();
  }

  /* The variant selector: the engine changes its rules and starts a new
   * game at that variant's start; the player keeps their colour. */
  async setVariant(name) {
    await this.interrupt();
    if (!(await this.changeVariant(name))) return;
    await this.newGame(this.player, `New game of ${$('variant').selectedOptions[0].textContent}`);
  }

  /* Sets the engine's variant option and learns the variant's start from
   * it; false (and the selector back) when the engine refuses. */
  async changeVariant(name) {
    const reply = await this.engine.request([`set-param name=variant value=${name}`, 'pos start', 'game', 'legal']);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Variant not changed: ${problem}.`);
      $('variant').value = this.variant;
      return false;
    }
    this.variant = name;
    $('variant').value = name;
    const game = hubReplies(reply, 'game')[0].values;
    const legal = hubReplies(reply, 'legal').filter((l) => l.values.move);
    this.learnVariant(game.start, legal.map((l) => l.values.move));
    this.ending = null;
    this.last = null;
    this.hint = null;
    return true;
  }

  /* From the engine's start position and its moves there: who moves first
   * and how squares are named. */
  learnVariant(start = this.record.start, moves = this.legal.map((m) => m.move)) {
    this.startFen = start;
    this.first = start[0];
    this.board.setAlgebraic(moves.some((m) => /^[a-h]/.test(m)));
    $('move-input').placeholder = this.board.algebraic
      ? 'or type a move: c3-d4, c3:e5'
      : 'or type a move: 11-15, 15x22, 18x11x2';
    document.body.dataset.variant = this.variant;
    $('subtitle').textContent = $('variant').selectedOptions[0].textContent;
  }

  /* How a capture is written in the squares the board names. */
  captureMark() {
    return this.board.algebraic ? ':' : 'x';
  }

  /* Takes back the player's last move of the position shown (and the
   * engine's answer); the moves after it are dropped. */
  async takeBack() {
    await this.cancelReview();
    await this.interrupt();
    if (!this.record.moves.length) {
      this.error('No move to take back.');
      return;
    }
    let undone = 0;
    let side = this.side;
    while (undone < this.record.moves.length && (undone === 0 || (!this.analysing && side !== this.player))) {
      const reply = await this.engine.request(['undo']);
      const u = hubReplies(reply, 'undo')[0];
      if (!u) break;
      side = u.values.fen[0];
      undone++;
    }
    this.ending = null;
    this.last = null;
    this.hint = null;
    this.say(`Took back ${undone} move${undone === 1 ? '' : 's'}.`);
    await this.refresh(true);
    if (this.clock) this.startClock();
    await this.continueGame();
  }

  async showHint() {
    if (!this.canMove()) return;
    const done = await this.search([`level move-time=${$('movetime').value}`], 100);
    this.redraw();
    if (!done || !done.move) return;
    const entry = this.legal.find((m) => m.hub === done.move);
    if (!entry) return;
    this.hint = entry.path;
    this.say(`Hint: ${entry.move}.`);
    this.redraw();
  }

  async offerDraw() {
    if (this.over || this.searching || !this.atEnd) return;
    this.say('poolshark considers your offer…');
    const done = await this.search(['level move-time=0.5'], 100);
    const info = done && done.info;
    if (!info) {
      this.redraw();
      return;
    }
    const engineScore = this.side === this.player ? -Number(info.score) : Number(info.score);
    if (engineScore <= DRAW_ACCEPT_MEN) {
      this.ending = { result: '1/2-1/2', text: 'Draw by agreement: poolshark accepts your offer.' };
      if (this.clock) this.clock.stop();
      this.say('');
    } else {
      this.say(`poolshark declines the draw (it counts itself ${engineScore.toFixed(2)} men better).`);
    }
    this.redraw();
    this.save();
  }

  resign() {
    if (this.over || !this.atEnd) return;
    const winner = otherSide(this.player);
    this.ending = { result: winner === 'W' ? '1-0' : '0-1', text: `${colourName(winner)} wins: ${colourName(this.player)} resigned.` };
    if (this.clock) this.clock.stop();
    this.redraw();
    this.save();
  }

  /* Analysis, and the engine's searches shown */

  async setAnalysis(on) {
    await this.interrupt();
    this.analysing = on;
    if (this.clock) {
      if (on) this.clock.stop();
      else this.startClock();
    }
    this.redraw();
    if (on) this.analyse();
    else {
      this.say('');
      await this.continueGame();
    }
  }

  async analyse() {
    if (this.over) return;
    const side = this.side;
    const fen = this.record.fen;
    this.clearInfo('…');
    this.say('Analysing; Stop ends the search.');
    this.searching = true;
    this.redraw();
    const reply = await this.engine.request(['set-param name=strength value=100', 'level infinite', 'go analyze'], {
      search: true,
      onLine: (line) => line.startsWith('info ') && this.showInfo(hubParse(line).values, side, fen, 'analysis'),
    });
    if (!reply.aborted) {
      this.searching = false;
      this.redraw();
    }
  }

  clearInfo(score = '') {
    $('pv').replaceChildren();
    $('score').textContent = score;
    $('depth').textContent = '';
    document.body.dataset.pv = '';
  }

  /* The view scores are shown from: White's, or the player's. */
  scoreView() {
    return $('score-view').value === 'me' ? this.player : 'W';
  }

  /* A search's line under the board: its score from the chosen view, depth
   * and nodes, and its principal variation (a move never breaks across lines). */
  showInfo(info, side, fen, who) {
    if (fen !== this.record.fen) return;
    const score = Number(info.score);
    const view = this.scoreView();
    const label = view === 'W' && $('score-view').value === 'W' ? "White's view" : `your view, ${colourName(view)}`;
    $('score').textContent = `${who === 'poolshark' ? 'poolshark ' : ''}${signedScore(scoreFrom(score, side, view))} (${label})`;
    $('score').title = describeScore(score, side);
    $('depth').textContent = `depth ${info.depth}, ${Number(info.nodes).toLocaleString('en')} nodes`;
    const all = (info.pv || '').split(' ').filter(Boolean);
    const moves = all.slice(0, PV_SHOWN);
    const start = this.lineStart ? this.lineStart[0] : this.record.start[0];
    const first = this.record.moves.length;
    $('pv').replaceChildren(...moves.map((m, i) => {
      const { number, lead } = pdnMoveNumber(first + i, start, this.first);
      const span = document.createElement('span');
      span.className = 'pv-move';
      span.textContent = (lead ? `${number}. ` : i === 0 ? `${number}... ` : '') + shortMove(m, (q) => this.board.name(q), this.captureMark());
      return span;
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
    $('eval-bar').classList.toggle('flipped', this.board.flipped);
  }

  async stopAnalysis() {
    if (!this.analysing) return;
    await this.interrupt();
    this.searching = false;
    this.say('Analysis stopped.');
    this.redraw();
  }

  /* Review */

  /* Searches every position of the line on the chosen budget, then marks
   * the moves and draws the graph; pressed again, stops. */
  async reviewGame() {
    if (this.reviewing) {
      this.reviewing.cancelled = true;
      return;
    }
    if (!this.line.length) return;
    await this.interrupt();
    const run = { cancelled: false, text: 'Reviewing…' };
    this.reviewing = run;
    this.redraw();
    const line = this.line.slice();
    const start = this.lineStart;
    const budget = REVIEW_BUDGETS[$('review-budget').value] || REVIEW_BUDGETS.normal;
    const { positions, problem } = await reviewSearch(this.engine, start, line, budget, (done, total) => {
      run.text = `Reviewing the game: ${done} of ${total} positions searched.`;
      this.drawStatus();
    }, () => run.cancelled || this.reviewing !== run);
    if (this.reviewing !== run) return; /* the game changed under it */
    this.reviewing = null;
    if (positions) {
      this.review = reviewJudge(positions, line);
      this.say(this.reviewText(reviewSummary(this.review)));
    } else if (problem) this.error(`Review failed: ${problem}.`);
    else this.say('Review stopped.');
    await this.setUp();
    await this.refresh();
    await this.continueGame();
  }

  /* Stops a review (a new game, a take back) and waits for it to end. */
  async cancelReview() {
    if (!this.reviewing) return;
    this.reviewing.cancelled = true;
    this.reviewing = null;
    await this.engine.request([]);
  }

  /* The review's summary under the graph, and a short line for the message. */
  reviewText(summary) {
    const side = (s) => {
      const x = summary[s];
      const marks = REVIEW_MARKS.map((m) => `${m.name} ${x[m.name]}`).join(', ');
      return `${colourName(s)}: ${marks}; ${x.loss.toFixed(2)} men lost a move on average`;
    };
    $('review-summary').textContent = `${side('B')}. ${side('W')}.`;
    const count = (s) => REVIEW_MARKS.slice(0, 2).reduce((n, m) => n + summary[s][m.name], 0);
    return `Review done: ${count('B')} mistake${count('B') === 1 ? '' : 's'} or blunder${count('B') === 1 ? '' : 's'} by Black, ${count('W')} by White.`;
  }

  /* What survives a reload */

  settings() {
    const value = (id) => $(id).value;
    return {
      variant: this.variant, strength: value('strength'), movetime: value('movetime'), numbers: $('numbers').checked,
      scoreView: value('score-view'), clockOn: $('clock-on').checked, clockBase: value('clock-base'),
      clockInc: value('clock-inc'), reviewBudget: value('review-budget'),
    };
  }

  save() {
    if (!this.storage || document.body.dataset.ready !== 'true') return;
    const review = this.review.map((e) => Object.assign({}, e, { mark: e.mark ? e.mark.name : null }));
    storageSave(this.storage, this.settings(), {
      variant: this.variant, start: this.lineStart, line: this.line, view: this.view, player: this.player,
      ending: this.ending, review, evals: this.evals, clock: this.clock ? this.clock.save() : null,
      analysing: this.analysing, flipped: this.board.flipped, tags: this.gameTags,
    });
  }

  /* Puts back the settings and the game of the last visit; a saved game the
   * engine refuses is dropped with a message. */
  async restore() {
    const saved = storageLoad(this.storage);
    if (!saved) return;
    const s = saved.settings || {};
    const set = (id, v) => v !== undefined && v !== null && ($(id).value = v);
    set('strength', s.strength);
    $('strength-value').textContent = $('strength').value;
    set('movetime', s.movetime);
    set('score-view', s.scoreView);
    set('clock-base', s.clockBase);
    set('clock-inc', s.clockInc);
    set('review-budget', s.reviewBudget);
    $('clock-on').checked = !!s.clockOn;
    $('numbers').checked = !!s.numbers;
    this.board.setNumbers(!!s.numbers);
    const g = saved.game;
    if (!g || !Array.isArray(g.line) || typeof g.start !== 'string') {
      if (s.variant && s.variant !== this.variant && (await this.changeVariant(s.variant))) await this.refresh(true);
      return;
    }
    if (g.variant !== this.variant && !(await this.changeVariant(g.variant))) return;
    const view = Math.max(0, Math.min(g.line.length, Number(g.view) || 0));
    const reply = await this.engine.request([`pos fen=${hubQuote(g.start)} moves=${hubQuote(g.line.join(' '))}`]);
    const problem = hubError(reply);
    if (problem) {
      this.error(`The saved game could not be restored (${problem}); a new game instead.`);
      await this.engine.request(['pos start']);
      await this.refresh(true);
      return;
    }
    await this.refresh(true);
    this.player = g.player === 'W' ? 'W' : 'B';
    this.ending = g.ending || null;
    this.review = (g.review || []).slice(0, this.line.length).map((e) => Object.assign(e, { mark: REVIEW_MARKS.find((m) => m.name === e.mark) || null }));
    this.evals = g.evals || {};
    this.gameTags = g.tags || null;
    this.board.setFlipped(g.flipped === undefined ? this.player === 'B' : !!g.flipped);
    if (g.clock) {
      this.clock = new GameClock(g.clock.base, g.clock.increment, () => performance.now(), (side) => this.flag(side));
      this.clock.restore(g.clock);
    }
    if (view < this.line.length) await this.engine.request([`pos fen=${hubQuote(g.start)} moves=${hubQuote(g.line.slice(0, view).join(' '))}`]);
    await this.refresh();
    if (g.analysing) {
      this.analysing = true;
      $('analyse').checked = true;
    }
    this.startClock();
    this.say(`Restored the game of your last visit: ${this.line.length} move${this.line.length === 1 ? '' : 's'}, you play ${colourName(this.player)}.`);
  }

  /* PDN and FEN */

  savePdn() {
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
    const over = this.rules && this.atEnd ? this.rules : this.ending;
    const result = this.atEnd && over ? over.result : '*';
    const human = 'You';
    /* A game loaded from a file keeps its own names. */
    const own = this.gameTags || {};
    const tags = [
      ['Event', own.Event || 'poolshark web game'],
      ['Date', own.Date || date],
      ['Black', own.Black || (this.player === 'B' ? human : 'poolshark')],
      ['White', own.White || (this.player === 'W' ? human : 'poolshark')],
      ['Result', result],
      ['GameType', $('variant').selectedOptions[0].dataset.gameType],
    ];
    if (this.lineStart !== this.startFen) tags.push(['SetUp', '1'], ['FEN', this.lineStart]);
    if (this.review.length) tags.push(['Annotator', `poolshark review, ${REVIEW_BUDGETS[$('review-budget').value]} nodes a position; scores from White's view`]);
    const notes = this.review.map(reviewNote);
    const text = pdnWrite(tags, this.line, this.lineStart[0], result, this.first, notes);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-pdn' }));
    link.download = 'poolshark-game.pdn';
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    this.say(`Saved poolshark-game.pdn${this.review.length ? ' with the review' : ''}.`);
  }

  /* Reads a PDN text; one game loads at once, several are offered in a list. */
  loadPdn(text, name) {
    const where = name ? ` in ${name}` : '';
    let games;
    try {
      games = pdnReadAll(text);
    } catch (e) {
      this.error(`Bad PDN${where}: ${e.message}.`);
      return;
    }
    this.pdnGames = { games, name };
    $('pdn-choice').hidden = games.length < 2;
    if (games.length === 1) return this.loadGame(0);
    $('pdn-games').replaceChildren(...games.map((g, i) => {
      const option = document.createElement('option');
      option.value = i;
      option.textContent = pdnGameTitle(g, i);
      return option;
    }));
    this.say(`${name || 'The PDN'} holds ${games.length} games: choose one below and press "Load this game".`);
    $('pdn-games').focus();
  }

  chooseGame() {
    if (this.pdnGames) this.loadGame(Number($('pdn-games').value));
  }

  /* Loads game `index` of the PDN read last. A damaged game or one the
   * engine refuses leaves the current game as it was, and the message says
   * which game, move and line. */
  async loadGame(index) {
    const { games, name } = this.pdnGames;
    const game = games[index];
    const where = `Bad PDN${name ? ' in ' + name : ''}, game ${index + 1}`;
    if (game.error) {
      const at = game.error.move ? `move ${game.error.move}, ` : '';
      this.error(`${where}, ${at}line ${game.error.line}: ${game.error.message}.`);
      return;
    }
    const type = game.tags.GameType ? game.tags.GameType.split(',')[0].trim() : '23';
    const option = [...$('variant').options].find((o) => o.dataset.gameType === type);
    if (!option) {
      this.error(`${where}, line ${game.line}: GameType ${type} is not a variant poolshark plays.`);
      return;
    }
    await this.cancelReview();
    await this.interrupt();
    const before = this.variant;
    const switched = option.value !== this.variant;
    if (switched && !(await this.changeVariant(option.value))) return;
    const from = game.tags.FEN ? `fen=${hubQuote(game.tags.FEN)}` : 'start';
    const reply = await this.engine.request([`pos ${from} moves=${hubQuote(game.moves.join(' '))}`]);
    const problem = hubError(reply);
    if (problem) {
      const m = /^move (\d+) in moves: (.*)$/.exec(problem);
      let text = `${where}, line ${game.line}: ${problem}.`;
      if (m) {
        const ply = Number(m[1]) - 1;
        const side = game.tags.FEN ? game.tags.FEN.trim()[0].toUpperCase() : this.first;
        const { number, lead } = pdnMoveNumber(ply, side, this.first);
        text = `${where}, move ${number}${lead ? '.' : '...'} ${game.moves[ply]} (line ${game.lines[ply]}): ${m[2]}.`;
      }
      if (switched) await this.changeVariant(before);
      await this.setUp(); /* the game as it was */
      await this.refresh();
      this.error(text);
      return;
    }
    $('pdn-choice').hidden = true;
    await this.playSetUp((you) => `Loaded ${game.moves.length} moves${name ? ' from ' + name : ''}${games.length > 1 ? ` (game ${index + 1} of ${games.length})` : ''}; ${you}.`, game.tags);
  }

  /* Sets up a position given as a FEN; the engine checks it. */
  async setFen(fen) {
    if (!fen) {
      this.error('Paste a FEN first, e.g. W:W18:B7,15,16,23,24.');
      return false;
    }
    await this.cancelReview();
    await this.interrupt();
    const reply = await this.engine.request([`pos fen=${hubQuote(fen)}`]);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Bad FEN: ${problem}.`);
      await this.setUp();
      return false;
    }
    await this.engine.request(['new-game', `pos fen=${hubQuote(fen)}`]);
    await this.playSetUp((you) => `Position set; ${you}.`);
    return true;
  }

  /* After the engine took a loaded game or a position: the user plays the
   * side to move there, on a new clock; message(you) says what was set up. */
  async playSetUp(message, tags = null) {
    this.forget();
    this.gameTags = tags;
    await this.refresh(true);
    this.player = this.side;
    this.board.setFlipped(this.player === 'B');
    this.drawEval();
    this.clearInfo();
    this.newClock();
    this.startClock();
    this.say(message(`you play ${colourName(this.player)}`));
    this.redraw();
    await this.continueGame();
  }

  openEditor() {
    if (this.editing) return;
    this.interrupt().then(() => {
      this.editing = { pieces: new Map(this.pieces) };
      $('edit-side').value = this.side;
      $('editor').hidden = false;
      this.editorSet(this.editing.pieces);
    });
  }

  editorSet(pieces) {
    if (!this.editing) return;
    this.editing.pieces = pieces;
    this.board.render({ pieces, targets: [] });
    this.drawStatus();
  }

  editorPlace(square) {
    const choice = document.querySelector('input[name=piece]:checked').value;
    const pieces = this.editing.pieces;
    if (!choice || pieces.get(square) === choice) pieces.delete(square);
    else pieces.set(square, choice);
    this.editorSet(pieces);
  }

  async closeEditor(cancel) {
    if (!this.editing) return;
    const fen = fenFromPieces(this.editing.pieces, $('edit-side').value);
    if (cancel === true) {
      this.editing = null;
      $('editor').hidden = true;
      this.redraw();
      return;
    }
    const pieces = this.editing.pieces;
    this.editing = null;
    if (await this.setFen(fen)) {
      $('editor').hidden = true;
    } else {
      this.editing = { pieces };
      this.editorSet(pieces);
    }
  }
}

window.addEventListener('DOMContentLoaded', () => {
  window.poolshark = new App();
  window.poolshark.start();
});
