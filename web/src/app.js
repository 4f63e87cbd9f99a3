// SPDX-License-Identifier: GPL-3.0-or-later
// The page's turn controller: the game as the engine records it, whose turn it is, the engine's moves, the walk.
'use strict';

const START_FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const DRAW_ACCEPT_MEN = 0.25; /* poolshark takes a draw unless it thinks it is this much better */

/*
 * The game and the turns. The panels (clock, analysis, review, PDN,
 * editor, move input, persistence) each own their controls and call back
 * here; this class keeps what they share: the engine, the game as the
 * engine records it, the line, and whose move it is.
 */
class App {
  constructor() {
    const params = new URLSearchParams(location.search);
    this.engine = new EngineClient({
      url: params.get('engine') || '',
      onLog: (text) => console.debug('engine:', text),
      onCrash: (text) => this.crashed(text),
    });
    this.input = new MoveInput(this);
    this.board = new BoardView($('board'), {
      onPress: (s) => this.input.press(s),
      onSquare: (s) => this.input.square(s),
    });
    this.moveList = new MoveList($('moves'), (id) => this.goToNode(id));
    this.graph = new EvalGraph($('graph'), (view) => this.goTo(view));
    this.persist = new Persistence(this, params.has('nostore') ? null : window.localStorage);
    this.clocks = new ClockPanel(this);
    this.analysis = new AnalysisPanel(this);
    this.reviews = new ReviewPanel(this);
    this.pdn = new PdnPanel(this);
    this.editor = new PositionEditor(this);
    this.treePanel = new TreePanel(this);
    this.share = new ShareLinks(this);
    this.lookups = new LookupPanels(this);
    this.sounds = new Sounds($('sounds'));
    this.player = 'B';
    /* What the engine says of the variant: its start position, the side
     * that moves first there, and its squares (the board's layout). */
    this.variant = 'pool';
    this.startFen = START_FEN;
    this.first = 'B';
    /* The engine's game is the position shown: `record.moves` are the
     * first `view` moves of `line`, one line of the tree from its start to
     * its end, the one shown. */
    this.record = { start: START_FEN, fen: START_FEN, moves: [], result: '', reason: '' };
    this.tree = new MoveTree(START_FEN);
    this.line = [];
    this.legal = [];
    this.pieces = fenPieces(START_FEN, this.board.layout);
    this.last = null;
    this.hint = null;
    this.rules = null; /* {result, text} when the rules end the game at the position shown */
    this.searching = false;
    this.starting = false; /* a new game is being set up: no move is taken */
    this.restarts = 0;
    this.gameTags = null; /* the tags of a game loaded from PDN */
    this.epoch = 0; /* counts interruptions: an engine's move of an earlier epoch is not played */
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
    this.reviews.help();
    await this.analysis.learn();
    $('variant').value = this.variant;
    const diagram = await this.engine.request(['new-game', 'pos start', 'board', 'game']);
    this.board.setFlipped(this.player === 'B');
    this.analysis.drawEval();
    this.learnVariant(hubReplies(diagram, 'game')[0].values.start, diagram.lines);
    await this.refresh();
    await this.persist.restore();
    await this.share.open();
    this.clocks.run();
    document.body.dataset.ready = 'true';
    this.persist.save();
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
    on('flip', () => this.board.setFlipped(!this.board.flipped) || this.analysis.drawEval() || this.clocks.draw());
    on('walk-start', () => this.goTo(0));
    on('walk-back', () => this.step(-1));
    on('walk-forward', () => this.step(1));
    on('walk-end', () => this.goTo(this.line.length));
    $('hide-thinking').addEventListener('change', () => this.persist.save() || this.redraw());
    $('variant').addEventListener('change', (e) => this.setVariant(e.target.value));
    $('numbers').addEventListener('change', (e) => this.board.setNumbers(e.target.checked) || this.persist.save());
    $('strength').addEventListener('input', (e) => ($('strength-value').textContent = e.target.value));
    document.addEventListener('keydown', (e) => this.key(e));
  }

  /* Left and right arrows walk along the line, up and down go to the line
   * before or after it at the last branch, Home and End to its ends;
   * unless a text field or a list has the keys. */
  key(event) {
    const target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target.type !== 'checkbox' && target.type !== 'radio') return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const go = {
      ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1), Home: () => this.goTo(0), End: () => this.goTo(this.line.length),
      ArrowUp: () => this.switchLine(-1), ArrowDown: () => this.switchLine(1),
    }[event.key];
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

  get editing() {
    return this.editor.pieces !== null;
  }

  get reviewing() {
    return this.reviews.running;
  }

  /* How the game stands at the position shown, or null while it goes on. */
  get over() {
    return this.rules || (this.atEnd ? this.ending : null);
  }

  /* The start of the line (FEN). */
  get lineStart() {
    return this.tree.start;
  }

  /* The node of the position after `view` plies of the line. */
  nodeAt(view) {
    const nodes = this.tree.nodes(this.line.slice(0, view));
    return nodes[nodes.length - 1];
  }

  /* How the players ended the game at the end of the line (resigned,
   * agreed, flag), or null; kept on the line's last node. */
  get ending() {
    return this.nodeAt(this.line.length).ending;
  }

  set ending(value) {
    this.nodeAt(this.line.length).ending = value;
  }

  /* reviewJudge's entries of the line's moves, as far as they were reviewed. */
  get review() {
    const out = [];
    for (const node of this.tree.nodes(this.line).slice(1)) {
      if (!node.review) break;
      out.push(node.review);
    }
    return out;
  }

  get side() {
    return this.record.fen[0];
  }

  /*
   * Reads the engine's game and legal moves, and puts the engine's moves
   * into the tree (a new move starts a side line; nothing is dropped).
   * The line is kept when the engine's moves are a first part of it (the
   * player walked back, or played the line's next move); otherwise the
   * line becomes the engine's moves and their main continuation. A game
   * from another start starts a new tree. `before`: lines sent first in
   * the same request (a `pos`), so that nothing else reaches the engine in
   * between. False when the engine refused.
   */
  async refresh(before = []) {
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
        path: l.values.path.split(/[-x:]/).map((q) => this.board.layout.number(q)),
        captured: l.values.captured ? l.values.captured.split(',').map(Number) : [],
        hub: l.values.hub,
      }));
    this.pieces = fenPieces(this.record.fen, this.board.layout);
    this.keepLine();
    this.rules = this.record.result ? this.rulesEnding() : null;
    const known = this.knownEval(this.view);
    if (this.rules) this.analysis.evalWhite = { '1-0': 99, '0-1': -99 }[this.record.result] || 0;
    else if (known !== null) this.analysis.evalWhite = known;
    if (this.over) this.clocks.stop();
    this.share.write();
    this.analysis.drawEval();
    this.input.selection = null;
    this.redraw();
    this.persist.save();
    return true;
  }

  keepLine() {
    const moves = this.record.moves;
    if (this.tree.start !== this.record.start) this.tree = new MoveTree(this.record.start);
    const node = this.tree.add(moves);
    if (moves.every((m, i) => m === this.line[i]) && this.tree.find(this.line)) return;
    this.line = this.tree.lineThrough(node);
  }

  /* White's score of the position after `view` plies, from the review or
   * the engine's own search there, or null. */
  knownEval(view) {
    const node = this.nodeAt(view);
    if (node.review) return reviewCap(node.review.white);
    return node.eval ? node.eval.white : null;
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
    const s = this.input.selection;
    this.board.render({
      pieces: this.pieces,
      last: this.last ? this.last.path : null,
      lastTaken: this.last ? this.last.captured : null,
      hint: this.hint,
      selected: s ? s.path[0] : null,
      path: s && s.path.length > 1 ? s.path : null,
      taken: s ? s.taken : null,
      targets: s ? s.targets : [],
      arrows: this.analysis.arrows(),
    });
    this.moveList.draw(this.tree, this.line, this.view, this.lineStart[0], this.first);
    const review = this.review;
    this.graph.draw(review, this.view);
    this.reviews.drawSummary(review);
    this.drawStatus();
    this.pdn.drawGameInfo();
    this.clocks.drawNote();
    this.clocks.draw();
    this.analysis.drawVisibility();
    document.body.dataset.fen = this.record.fen;
    document.body.dataset.moves = this.record.moves.join(' ');
    document.body.dataset.line = this.line.join(' ');
    document.body.dataset.view = String(this.view);
    document.body.dataset.busy = String(this.searching || this.starting);
    document.body.dataset.analysing = String(this.analysis.on);
  }

  drawStatus() {
    const status = $('status');
    const over = this.over;
    status.classList.toggle('over', !!over);
    if (over) status.textContent = over.text;
    else if (this.editing) status.textContent = 'Editing: click squares to place the chosen piece.';
    else if (this.starting) status.textContent = 'Setting up the new game…';
    else if (this.reviewing) status.textContent = this.reviewing.text;
    else if (this.analysis.on) status.textContent = `Analysis: ${colourName(this.side)} to move.`;
    else if (!this.atEnd) status.textContent = `Move ${this.view} of ${this.line.length}` +
      (this.side === this.player ? `: a move of yours plays on from here (${colourName(this.player)}).` : ': poolshark to move here; › or End goes on.');
    else if (this.side === this.player) status.textContent = `Your move (${colourName(this.player)}).`;
    else status.textContent = 'poolshark is thinking…';
    document.body.dataset.over = over ? over.result : '';
    const playing = !over && !this.analysis.on && !this.editing && !this.reviewing;
    $('hint').disabled = !playing || this.side !== this.player;
    $('draw').disabled = !playing || !this.atEnd;
    $('resign').disabled = !playing || !this.atEnd;
    $('stop').disabled = !this.analysis.on;
    $('walk-start').disabled = $('walk-back').disabled = this.view === 0;
    $('walk-forward').disabled = $('walk-end').disabled = this.atEnd;
    $('promote').disabled = this.tree.isMain(this.line) || !!this.reviewing;
    $('delete').disabled = this.view === 0 || !!this.reviewing || this.clocks.running();
    document.body.dataset.lines = String(this.tree.leaves().length);
    $('review').textContent = this.reviewing ? 'Stop review' : 'Review game';
    $('review').disabled = !this.reviewing && (!this.line.length || this.clocks.running());
  }

  /* Analysis goes on while the player thinks; a move interrupts it. */
  canMove() {
    return !this.over && !this.editing && !this.reviewing && !this.starting && !(this.ending && !this.analysis.on) &&
      (this.analysis.on || (!this.searching && this.side === this.player));
  }

  /* Plays one of the legal moves for the player. */
  async play(entry) {
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
   * the tree (a move other than the line's next one starts a side line). */
  async afterMove(entry, mover) {
    const epoch = this.epoch;
    this.hint = null;
    if (!this.analysis.on) this.clocks.press(mover);
    this.analysis.clearLines();
    this.redraw();
    if (entry) {
      this.sounds.move(entry);
      await this.board.animate(entry.path, entry.captured);
      this.last = { path: entry.path, captured: entry.captured };
    }
    if (epoch !== this.epoch) return; /* the game changed meanwhile (a new game, a FEN) */
    await this.refresh();
    if (this.over) this.sounds.end();
    if (epoch === this.epoch) await this.continueGame();
  }

  /* After any change to the game: the engine moves or analyses, or nothing
   * (a position of the past is only shown, until the player moves there). */
  async continueGame() {
    if (this.reviewing || this.editing) return;
    if (this.over) return this.lookups.refresh();
    if (!this.analysis.on) this.lookups.hide();
    if (this.analysis.on) this.analysis.analyse();
    else if (this.atEnd && this.side !== this.player) await this.engineMove();
    else await this.analysis.glance();
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
      while (!this.showing(this.walkTarget)) {
        const to = this.walkTarget;
        if (!this.reviewing) await this.interrupt();
        this.last = null;
        this.hint = null;
        this.analysis.clearLines();
        if (!(await this.refresh([`pos fen=${hubQuote(this.lineStart)} moves=${hubQuote(this.line.slice(0, to).join(' '))}`])))break;
        if (!this.showing(to)) break; /* the game changed under the walk */
        this.walkTarget = Math.min(this.walkTarget, this.line.length);
      }
    } finally {
      this.walking = false;
    }
    await this.continueGame();
  }

  /* Whether the position after `view` plies of the line is the one shown. */
  showing(view) {
    return this.view === view && this.record.moves.every((m, i) => m === this.line[i]);
  }

  /* `delta` plies on (or back) from where the walk is going. */
  step(delta) {
    return this.goTo((this.walking ? this.walkTarget : this.view) + delta);
  }

  /* Shows the position after the move `id` of the tree, on its line. */
  goToNode(id) {
    const node = this.tree.byId(id);
    if (!node || this.editing || this.walking) return;
    this.line = this.tree.lineThrough(node);
    return this.goTo(this.tree.path(node).length);
  }

  /* The line before (-1) or after (1) the one shown at its last branch. */
  switchLine(delta) {
    const other = this.tree.sibling(this.line.slice(0, this.view), delta) || this.tree.sibling(this.line, delta);
    if (other) return this.goToNode(other.id);
  }

  /* The side to move at the end of the line (whose clock runs). */
  lineSide() {
    const plies = this.line.length - this.view;
    return plies % 2 === 0 ? this.side : otherSide(this.side);
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
    await this.engine.request([`set-param name=strength value=${strength}`, ...this.analysis.multipvLine(1), ...levelLines]);
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

  async engineMove() {
    const side = this.side;
    const fen = this.record.fen;
    const node = this.nodeAt(this.view);
    const forced = this.legal.length === 1;
    const epoch = this.epoch;
    const level = this.clocks.engineLevel(side);
    document.body.dataset.level = level;
    /* A forced reply is searched to depth 1 only: its score says nothing,
     * and the last one stands. */
    const done = await this.search([level], $('strength').value, forced ? null : (info) => this.analysis.show(info, side, fen, 'poolshark'));
    this.analysis.flush();
    this.redraw();
    /* Stopped, or the game changed while it thought (a new game, a FEN). */
    if (!done || !done.move || this.over || epoch !== this.epoch) return;
    if (forced) node.eval = node.parent ? node.parent.eval : null;
    else if (done.info && fen === this.record.fen) node.eval = { white: reviewCap(scoreFrom(Number(done.info.score), side, 'W')), depth: Number(done.info.depth) };
    if (!this.clocks.press(side)) return; /* flagged while it thought */
    const entry = this.legal.find((m) => m.hub === done.move);
    const reply = await this.engine.request([`move ${done.move}`]);
    if (epoch !== this.epoch) return;
    if (hubError(reply)) {
      this.error('the engine could not play its move: ' + hubError(reply));
      return;
    }
    this.say(`poolshark played ${entry ? entry.move : done.move}${forced ? ' (forced)' : ''}.`);
    if (forced) this.analysis.forced();
    this.hint = null;
    if (entry) {
      this.sounds.move(entry);
      await this.board.animate(entry.path, entry.captured);
      this.last = { path: entry.path, captured: entry.captured };
    }
    if (epoch !== this.epoch) return;
    await this.refresh();
    if (this.over) this.sounds.end();
  }

  /* Interrupts the engine (restarting the worker build) and sets the game up again. */
  async interrupt() {
    this.epoch++;
    await this.analysis.glanceDone();
    if (!this.engine.busy) return;
    const restarted = await this.engine.stop();
    this.searching = false;
    if (restarted) await this.setUp();
  }

  /* Game commands */

  /* Clears what belonged to the previous game: a new tree from `start`. */
  forget(start = this.startFen) {
    this.last = null;
    this.hint = null;
    this.tree = new MoveTree(start);
    this.line = [];
    this.analysis.evalWhite = 0;
    this.analysis.clearLines();
    this.gameTags = null;
  }

  /* A new game from the start, the player `colour`; the game it replaces
   * is kept for Undo unless the caller kept it already (`keep` false). */
  async newGame(colour, title = 'New game', keep = true) {
    /* No move is taken until the new game stands on the engine's board:
     * a click in between would be lost to the new game's first drawing. */
    this.starting = true;
    this.redraw();
    try {
      await this.setUpNewGame(colour, title, keep);
    } finally {
      this.starting = false;
      this.redraw();
    }
    this.clocks.start();
    await this.continueGame();
  }

  async setUpNewGame(colour, title, keep) {
    await this.reviews.cancel();
    await this.interrupt();
    if (keep) this.treePanel.keep();
    this.player = colour;
    this.forget();
    this.analysis.setOn(false);
    this.editor.close(true);
    await this.engine.request(['new-game', 'pos start']);
    this.board.setFlipped(colour === 'B');
    this.analysis.drawEval();
    this.analysis.clear();
    this.clocks.renew();
    const clock = this.clocks.describe();
    this.say(`${title}: you play ${colourName(colour)}${clock ? `, ${clock}` : ''}.`);
    await this.refresh();
  }

  /* After the engine took a loaded game or a position (a new tree from
   * `start` holding the `lines` of moves, each as the engine wrote it): a
   * loaded game opens for analysis, a position is played from by the side
   * to move there, on a new clock; message(you) says what was set up. */
  async playSetUp(message, { tags = null, lines = [], analyse = false } = {}) {
    const game = hubReplies(await this.engine.request(['game']), 'game')[0];
    this.forget(game ? game.values.start : this.record.start);
    for (const moves of lines) this.tree.add(moves);
    this.gameTags = tags;
    await this.refresh();
    this.player = this.side;
    this.board.setFlipped(this.player === 'B');
    this.analysis.setOn(analyse);
    this.analysis.drawEval();
    this.analysis.clear();
    this.clocks.renew();
    if (analyse) this.clocks.stop();
    this.clocks.start();
    this.say(message(analyse ? 'analysis mode: you move both sides' : `you play ${colourName(this.player)}`));
    this.redraw();
    /* Not awaited: the player is to move, and the bar's search or the
     * analysis goes on in the background. */
    this.continueGame();
  }

  /* The variant selector: the engine changes its rules and starts a new
   * game at that variant's start; the player keeps their colour. */
  async setVariant(name) {
    await this.reviews.cancel();
    await this.interrupt();
    this.treePanel.keep();
    if (!(await this.changeVariant(name))) return;
    await this.newGame(this.player, `New game of ${$('variant').selectedOptions[0].textContent}`, false);
  }

  /* Sets the engine's variant option and learns the variant's start from
   * it; false (and the selector back) when the engine refuses. */
  async changeVariant(name) {
    const reply = await this.engine.request([`set-param name=variant value=${name}`, 'pos start', 'board', 'game']);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Variant not changed: ${problem}.`);
      $('variant').value = this.variant;
      return false;
    }
    this.variant = name;
    $('variant').value = name;
    this.learnVariant(hubReplies(reply, 'game')[0].values.start, reply.lines);
    this.last = null;
    this.hint = null;
    return true;
  }

  /* From the engine's start position and its diagram of it (the lines of
   * a `board` reply): who moves first, where each square is and how it is
   * named. */
  learnVariant(start, diagram) {
    this.startFen = start;
    this.first = start[0];
    const layout = BoardLayout.fromDiagram(diagram);
    if (layout) this.board.setLayout(layout);
    else this.error('the engine did not draw its board; squares are named as in pool.');
    $('move-input').placeholder = this.board.algebraic
      ? 'or type a move: c3-d4, c3:e5'
      : 'or type a move: 11-15, 15x22, 18x11x2';
    document.body.dataset.variant = this.variant;
    $('subtitle').textContent = $('variant').selectedOptions[0].textContent;
    document.title = `poolshark: ${$('variant').selectedOptions[0].textContent}`;
  }

  /* How a capture is written in the squares the board names. */
  captureMark() {
    return this.board.algebraic ? ':' : 'x';
  }

  /* Takes back the player's last move of the position shown (and the
   * engine's answer): the position before it is shown; the moves stay in
   * the tree, and another move there starts a side line. */
  async takeBack() {
    await this.reviews.cancel();
    await this.interrupt();
    if (!this.view) {
      this.error('No move to take back.');
      return;
    }
    let back = 1;
    if (!this.analysis.on) while (back < this.view && this.sideAfter(this.view - back) !== this.player) back++;
    this.hint = null;
    await this.goTo(this.view - back);
    this.say(`Took back ${back} move${back === 1 ? '' : 's'}; they stay in the move list, and another move starts a side line.`);
    this.clocks.start();
  }

  /* The side to move after `view` plies of the line. */
  sideAfter(view) {
    return (this.view - view) % 2 === 0 ? this.side : otherSide(this.side);
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
      this.clocks.stop();
      this.say('');
    } else {
      this.say(`poolshark declines the draw (it counts itself ${engineScore.toFixed(2)} men better).`);
    }
    this.redraw();
    this.persist.save();
  }

  resign() {
    if (this.over || !this.atEnd) return;
    const winner = otherSide(this.player);
    this.ending = { result: winner === 'W' ? '1-0' : '0-1', text: `${colourName(winner)} wins: ${colourName(this.player)} resigned.` };
    this.clocks.stop();
    this.redraw();
    this.persist.save();
  }
}

window.addEventListener('DOMContentLoaded', () => {
  window.poolshark = new App();
  window.poolshark.start();
});
