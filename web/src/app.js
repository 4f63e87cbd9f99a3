// SPDX-License-Identifier: GPL-3.0-or-later
// The page's controller: the game as the engine records it, the player's input, the engine's turns, analysis.
'use strict';

const START_FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const DRAW_ACCEPT_MEN = 0.25; /* poolshark takes a draw unless it thinks it is this much better */

const $ = (id) => document.getElementById(id);

/* The pieces of a FEN as the engine writes it (no ranges): Map square ->
 * letter. Drawing only; the engine has read and checked every FEN first. */
function fenPieces(fen) {
  const pieces = new Map();
  const [, ...lists] = fen.split(':');
  for (const list of lists) {
    const colour = list[0] === 'W' ? 'w' : 'b';
    for (const item of list.slice(1).split(',')) {
      if (!item) continue;
      const king = item[0] === 'K';
      pieces.set(Number(king ? item.slice(1) : item), king ? colour.toUpperCase() : colour);
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

function colourName(side) {
  return side === 'B' ? 'Black' : 'White';
}

/* A score in men from the side to move, as "Black +0.25" (the side that is
 * better) or a forced win in plies. */
function describeScore(score, side) {
  const other = side === 'B' ? 'W' : 'B';
  const better = score >= 0 ? side : other;
  const value = Math.abs(score);
  if (value >= 90) return `${colourName(better)} wins in ${Math.round((100 - value) * 100)} plies`;
  if (value < 0.005) return 'level (0.00)';
  return `${colourName(better)} +${value.toFixed(2)}`;
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
    this.player = 'B';
    /* What the engine says of the variant: its start position, the side
     * that moves first there, and whether its moves name squares a-h 1-8. */
    this.variant = 'pool';
    this.startFen = START_FEN;
    this.first = 'B';
    this.record = { start: START_FEN, fen: START_FEN, moves: [], result: '', reason: '' };
    this.legal = [];
    this.pieces = fenPieces(START_FEN);
    this.last = null;
    this.hint = null;
    this.selection = null;
    this.ending = null; /* {result, text} once the game is over, by the rules or by the players */
    this.analysing = false;
    this.searching = false;
    this.editing = null;
    this.restarts = 0;
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
    $('variant').value = this.variant;
    await this.engine.request(['new-game', 'pos start']);
    this.board.setFlipped(this.player === 'B');
    this.drawEval();
    await this.refresh();
    this.learnVariant();
    document.body.dataset.ready = 'true';
  }

  wire() {
    const on = (id, f) => $(id).addEventListener('click', () => f.call(this));
    on('new-black', () => this.newGame('B'));
    on('new-white', () => this.newGame('W'));
    on('takeback', this.takeBack);
    on('hint', this.showHint);
    on('draw', this.offerDraw);
    on('resign', this.resign);
    on('flip', () => this.board.setFlipped(!this.board.flipped) || this.drawEval());
    on('stop', this.stopAnalysis);
    on('pdn-save', this.savePdn);
    on('pdn-load', () => this.loadPdn($('pdn-text').value));
    on('fen-set', () => this.setFen($('fen-text').value.trim()));
    on('move-play', this.typedMove);
    on('edit', this.openEditor);
    on('edit-clear', () => this.editorSet(new Map()));
    on('edit-start', () => this.editorSet(fenPieces(this.startFen)));
    on('edit-done', this.closeEditor);
    on('edit-cancel', () => this.closeEditor(true));
    $('move-input').addEventListener('keydown', (e) => e.key === 'Enter' && this.typedMove());
    $('variant').addEventListener('change', (e) => this.setVariant(e.target.value));
    $('numbers').addEventListener('change', (e) => this.board.setNumbers(e.target.checked));
    $('strength').addEventListener('input', (e) => ($('strength-value').textContent = e.target.value));
    $('analyse').addEventListener('change', (e) => this.setAnalysis(e.target.checked));
    $('pdn-file').addEventListener('change', async (e) => {
      const file = e.target.files[0];
      e.target.value = '';
      if (file) this.loadPdn(await file.text(), file.name);
    });
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

  async refresh() {
    const reply = await this.engine.request(['game', 'legal']);
    if (reply.aborted) return;
    const game = hubReplies(reply, 'game')[0];
    if (!game) {
      this.error(hubError(reply) || 'the engine did not report its game');
      return;
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
    if (this.record.result) {
      this.ending = this.rulesEnding();
      this.evalWhite = { '1-0': 99, '0-1': -99 }[this.record.result] || 0;
      this.drawEval();
    }
    else if (this.ending && this.ending.byRules) this.ending = null;
    this.selection = null;
    this.redraw();
  }

  get side() {
    return this.record.fen[0];
  }

  rulesEnding() {
    const { result, reason } = this.record;
    const loser = this.side;
    let text;
    if (result === '1/2-1/2') text = `Draw: ${reason}.`;
    else if (reason === 'no legal move') text = `${colourName(loser === 'B' ? 'W' : 'B')} wins: ${colourName(loser)} has no legal move.`;
    else text = `${result === '1-0' ? 'White' : 'Black'} wins: ${reason}.`;
    return { result, text, byRules: true };
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
    this.drawMoves();
    this.drawStatus();
    document.body.dataset.fen = this.record.fen;
    document.body.dataset.moves = this.record.moves.join(' ');
    document.body.dataset.busy = String(this.searching);
  }

  drawMoves() {
    const list = $('moves');
    list.replaceChildren();
    const side = this.record.start[0];
    let li = null;
    this.record.moves.forEach((m, i) => {
      const { number, lead } = pdnMoveNumber(i, side, this.first);
      if (lead || !li) {
        li = document.createElement('li');
        li.value = number;
        list.appendChild(li);
        if (!lead) li.appendChild(Object.assign(document.createElement('span'), { textContent: '…' }));
      }
      const span = document.createElement('span');
      span.textContent = m;
      if (i === this.record.moves.length - 1) span.className = 'current';
      li.appendChild(span);
    });
    list.scrollTop = list.scrollHeight;
  }

  drawStatus() {
    const status = $('status');
    status.classList.toggle('over', !!this.ending);
    if (this.ending) status.textContent = this.ending.text;
    else if (this.editing) status.textContent = 'Editing: click squares to place the chosen piece.';
    else if (this.analysing) status.textContent = `Analysis: ${colourName(this.side)} to move.`;
    else if (this.side === this.player) status.textContent = `Your move (${colourName(this.player)}).`;
    else status.textContent = 'poolshark is thinking…';
    document.body.dataset.over = this.ending ? this.ending.result : '';
    const playing = !this.ending && !this.analysing && !this.editing;
    $('hint').disabled = !playing || this.side !== this.player;
    $('draw').disabled = !playing;
    $('resign').disabled = !playing;
    $('stop').disabled = !this.analysing;
  }

  /* Analysis goes on while the player thinks; a move interrupts it. */
  canMove() {
    return !this.ending && !this.editing && (this.analysing || (!this.searching && this.side === this.player));
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
    const reply = await this.engine.request([`move ${hubQuote(text)}`]);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Not played: ${problem}.`);
      return;
    }
    $('move-input').value = '';
    const played = hubReplies(reply, 'move')[0].values.played;
    const entry = this.legal.find((m) => m.move === played);
    await this.afterMove(entry);
  }

  /* Plays one of the legal moves for the player. */
  async play(entry) {
    this.selection = null;
    await this.interrupt();
    const reply = await this.engine.request([`move ${entry.path.join(entry.captured.length ? 'x' : '-')}`]);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Not played: ${problem}.`);
      this.redraw();
      return;
    }
    this.say('');
    await this.afterMove(entry);
  }

  async afterMove(entry) {
    this.hint = null;
    this.redraw();
    if (entry) {
      await this.board.animate(entry.path, entry.captured);
      this.last = { path: entry.path, captured: entry.captured };
    }
    await this.refresh();
    await this.continueGame();
  }

  /* After any change to the game: the engine moves or analyses, or nothing. */
  async continueGame() {
    if (this.ending) return;
    if (this.analysing) this.analyse();
    else if (this.side !== this.player) await this.engineMove();
  }

  /* The engine's turn */

  /* Sends the game again (a restarted worker has forgotten it, and its variant). */
  async setUp(extra) {
    const lines = [`set-param name=variant value=${this.variant}`, `pos fen=${hubQuote(this.record.start)} moves=${hubQuote(this.record.moves.join(' '))}`];
    return this.engine.request(lines.concat(extra || []));
  }

  /* A search of the current position; resolves with the `done` line's
   * values, or null when it was stopped or failed. */
  async search(levelLines, strength, onInfo) {
    this.searching = true;
    this.redraw();
    await this.engine.request([`set-param name=strength value=${strength}`, ...levelLines]);
    const reply = await this.engine.request(['go think'], {
      search: true,
      onLine: (line) => line.startsWith('info ') && onInfo && onInfo(hubParse(line).values),
    });
    this.searching = false;
    if (reply.aborted) return null;
    const done = hubReplies(reply, 'done')[0];
    if (!done) {
      this.error(hubError(reply) || 'the search failed');
      return null;
    }
    return done.values;
  }

  async engineMove() {
    const seconds = $('movetime').value;
    const done = await this.search([`level move-time=${seconds}`], $('strength').value);
    this.redraw();
    if (!done || !done.move) return;
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
    await this.refresh();
  }

  /* Interrupts the engine (restarting the worker build) and sets the game up again. */
  async interrupt() {
    if (!this.engine.busy) return;
    const restarted = await this.engine.stop();
    this.searching = false;
    if (restarted) await this.setUp();
  }

  /* Game commands */

  async newGame(colour, title = 'New game') {
    await this.interrupt();
    this.player = colour;
    this.ending = null;
    this.last = null;
    this.hint = null;
    this.closeEditor(true);
    await this.engine.request(['new-game', 'pos start']);
    this.board.setFlipped(colour === 'B');
    this.drawEval();
    this.say(`${title}: you play ${colourName(colour)}.`);
    await this.refresh();
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

  async takeBack() {
    await this.interrupt();
    if (!this.record.moves.length) {
      this.error('No move to take back.');
      return;
    }
    const resigned = this.ending && !this.ending.byRules;
    let undone = 0;
    let side = this.side;
    while (undone < this.record.moves.length && (undone === 0 || (!this.analysing && side !== this.player))) {
      const reply = await this.engine.request(['undo']);
      const u = hubReplies(reply, 'undo')[0];
      if (!u) break;
      side = u.values.fen[0];
      undone++;
    }
    if (resigned) this.ending = null;
    this.last = null;
    this.hint = null;
    this.say(`Took back ${undone} move${undone === 1 ? '' : 's'}.`);
    await this.refresh();
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
    if (this.ending || this.searching) return;
    this.say('poolshark considers your offer…');
    const done = await this.search(['level move-time=0.5'], 100, (info) => (this.lastInfo = info));
    const info = this.lastInfo;
    this.lastInfo = null;
    if (!done || !info) {
      this.redraw();
      return;
    }
    const engineScore = this.side === this.player ? -Number(info.score) : Number(info.score);
    if (engineScore <= DRAW_ACCEPT_MEN) {
      this.ending = { result: '1/2-1/2', text: 'Draw by agreement: poolshark accepts your offer.' };
      this.say('');
    } else {
      this.say(`poolshark declines the draw (it counts itself ${engineScore.toFixed(2)} men better).`);
    }
    this.redraw();
  }

  resign() {
    if (this.ending) return;
    const winner = this.player === 'B' ? 'W' : 'B';
    this.ending = { result: winner === 'W' ? '1-0' : '0-1', text: `${colourName(winner)} wins: ${colourName(this.player)} resigned.` };
    this.redraw();
  }

  /* Analysis */

  async setAnalysis(on) {
    await this.interrupt();
    this.analysing = on;
    this.redraw();
    if (on) this.analyse();
    else {
      this.say('');
      await this.continueGame();
    }
  }

  async analyse() {
    if (this.ending) return;
    const side = this.side;
    const fen = this.record.fen;
    $('pv').textContent = '';
    $('score').textContent = '…';
    $('depth').textContent = '';
    this.say('Analysing; Stop ends the search.');
    this.searching = true;
    this.redraw();
    const reply = await this.engine.request(['set-param name=strength value=100', 'level infinite', 'go analyze'], {
      search: true,
      onLine: (line) => line.startsWith('info ') && this.showInfo(hubParse(line).values, side, fen),
    });
    if (!reply.aborted) {
      this.searching = false;
      this.redraw();
    }
  }

  showInfo(info, side, fen) {
    if (fen !== this.record.fen) return;
    const score = Number(info.score);
    $('score').textContent = describeScore(score, side);
    $('depth').textContent = `depth ${info.depth}, ${Number(info.nodes).toLocaleString('en')} nodes`;
    const moves = (info.pv || '').split(' ').filter(Boolean);
    const start = this.record.start[0];
    const first = this.record.moves.length;
    $('pv').textContent = moves.map((m, i) => {
      const { number, lead } = pdnMoveNumber(first + i, start, this.first);
      return (lead ? `${number}. ` : i === 0 ? `${number}... ` : '') +
        shortMove(m, (q) => this.board.name(q), this.captureMark());
    }).join(' ');
    const white = side === 'W' ? score : -score;
    this.evalWhite = white;
    this.drawEval();
    document.body.dataset.pv = info.pv || '';
  }

  drawEval() {
    const white = this.evalWhite || 0;
    const share = 0.5 + 0.5 * Math.tanh(white / 2.5);
    $('eval-fill').style.height = `${(share * 100).toFixed(1)}%`;
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

  /* PDN and FEN */

  savePdn() {
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
    const result = this.ending ? this.ending.result : '*';
    const human = 'You';
    const tags = [
      ['Event', 'poolshark web game'],
      ['Date', date],
      ['Black', this.player === 'B' ? human : 'poolshark'],
      ['White', this.player === 'W' ? human : 'poolshark'],
      ['Result', result],
      ['GameType', $('variant').selectedOptions[0].dataset.gameType],
    ];
    if (this.record.start !== this.startFen) tags.push(['SetUp', '1'], ['FEN', this.record.start]);
    const text = pdnWrite(tags, this.record.moves, this.record.start[0], result, this.first);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-pdn' }));
    link.download = 'poolshark-game.pdn';
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    this.say('Saved poolshark-game.pdn.');
  }

  async loadPdn(text, name) {
    let game;
    try {
      game = pdnRead(text);
    } catch (e) {
      this.error(`Bad PDN${name ? ' in ' + name : ''}: ${e.message}.`);
      return;
    }
    const type = game.tags.GameType ? game.tags.GameType.split(',')[0].trim() : '23';
    const option = [...$('variant').options].find((o) => o.dataset.gameType === type);
    if (!option) {
      this.error(`Bad PDN${name ? ' in ' + name : ''}: GameType ${type} is not a variant poolshark plays.`);
      return;
    }
    await this.interrupt();
    const switched = option.value !== this.variant;
    if (switched && !(await this.changeVariant(option.value))) return;
    const where = game.tags.FEN ? `fen=${hubQuote(game.tags.FEN)}` : 'start';
    const reply = await this.engine.request([`pos ${where} moves=${hubQuote(game.moves.join(' '))}`]);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Bad PDN${name ? ' in ' + name : ''}: ${problem}.`);
      if (switched) await this.refresh(); /* the new variant's start */
      return;
    }
    this.ending = null;
    this.last = null;
    this.hint = null;
    await this.refresh();
    this.player = this.side;
    this.board.setFlipped(this.player === 'B');
    this.evalWhite = 0;
    this.drawEval();
    this.say(`Loaded ${game.moves.length} moves${name ? ' from ' + name : ''}; you play ${colourName(this.player)}.`);
    this.redraw();
    await this.continueGame();
  }

  /* Sets up a position given as a FEN; the engine checks it. */
  async setFen(fen) {
    if (!fen) {
      this.error('Paste a FEN first, e.g. W:W18:B7,15,16,23,24.');
      return false;
    }
    await this.interrupt();
    const reply = await this.engine.request([`pos fen=${hubQuote(fen)}`]);
    const problem = hubError(reply);
    if (problem) {
      this.error(`Bad FEN: ${problem}.`);
      return false;
    }
    await this.engine.request(['new-game', `pos fen=${hubQuote(fen)}`]);
    this.ending = null;
    this.last = null;
    this.hint = null;
    await this.refresh();
    this.player = this.side;
    this.board.setFlipped(this.player === 'B');
    this.evalWhite = 0;
    this.drawEval();
    this.say(`Position set; you play ${colourName(this.player)}.`);
    this.redraw();
    await this.continueGame();
    return true;
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
