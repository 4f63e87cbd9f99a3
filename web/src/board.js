// SPDX-License-Identifier: GPL-3.0-or-later
// The SVG board: the rule set's squares as the engine draws them, a frame with coordinates, pieces, highlights, arrows, click and drag, animated moves.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const CELL = 100;
const HOP_MS = 140;
/* The frame around the squares, which holds the coordinates. */
const FRAME = 36;
const BOARD_SIZE = 8 * CELL + 2 * FRAME;

function svgElement(name, attributes, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attributes || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/*
 * Which square of the diagram is which: the engine's square numbers (those
 * of its Hub moves, paths and numbered FENs) and the names its players
 * give them, learnt from the engine's own `board` diagram, so that the
 * page holds no numbering of its own. cell(n) is {x, y} of square n in
 * White's view (row 0 is rank 8); square(col, row) is 0 on a light square.
 */
class BoardLayout {
  /* names: 8 rows (rank 8 first) of 8 names, '' on the light squares. A
   * numbered name is that square's number; where the squares are named
   * a-h 1-8, the number counts the dark squares row by row from the top
   * left, as the Hub's position does (doc/PROTOCOL.md). */
  constructor(names) {
    this.cells = new Map();
    this.names = new Map();
    this.numbers = new Map();
    this.grid = names.map((row) => row.map(() => 0));
    this.algebraic = names.some((row) => row.some((n) => /^[a-h]/.test(n)));
    let counted = 0;
    names.forEach((row, r) => row.forEach((name, c) => {
      if (!name) return;
      counted++;
      const square = this.algebraic ? counted : Number(name);
      this.grid[r][c] = square;
      this.cells.set(square, { x: c * CELL, y: r * CELL });
      this.names.set(square, name);
      this.numbers.set(name, square);
    }));
  }

  /* Pool's board as PDN numbers it (square 1 is b8): the page's layout
   * until the engine has drawn its own. */
  static pool() {
    let n = 0;
    return new BoardLayout([...Array(8)].map((_, r) => [...Array(8)].map((_, c) => ((r + c) % 2 ? String(++n) : ''))));
  }

  /* The layout of the squares' side of the engine's `board` diagram (its
   * reply lines), or null when the lines hold no whole diagram. */
  static fromDiagram(lines) {
    const names = [];
    for (const line of lines) {
      const m = /^ {2}([1-8]) .{24} {6}([1-8]) ?(.*)$/.exec(line);
      if (!m || m[1] !== m[2]) continue;
      const row = [...Array(8)].map((_, c) => m[3].slice(3 * c, 3 * c + 3).trim());
      names[8 - Number(m[1])] = row;
    }
    if (names.length !== 8 || names.includes(undefined)) return null;
    if (names.flat().filter(Boolean).length !== 32) return null;
    const layout = new BoardLayout(names);
    /* Squares 1 to 32, each once. */
    return [...Array(32)].every((_, i) => layout.cells.has(i + 1)) ? layout : null;
  }

  cell(square) {
    return this.cells.get(square) || { x: 0, y: 0 };
  }

  square(col, row) {
    return this.grid[row][col];
  }

  name(square) {
    return this.names.get(square) || String(square);
  }

  /* The square of a name or number as the engine writes it (c3, 22), 0 if none. */
  number(text) {
    return this.numbers.get(text) || (/^\d+$/.test(text) ? Number(text) : 0);
  }
}

class BoardView {
  /* handlers: onPress(square) -> true when a drag may start there,
   * onSquare(square) for a click or a drop. */
  constructor(svg, handlers) {
    this.svg = svg;
    this.handlers = handlers;
    this.flipped = false;
    this.numbers = false;
    this.layout = BoardLayout.pool();
    this.state = { pieces: new Map() };
    this.animating = false;
    svg.setAttribute('viewBox', `${-FRAME} ${-FRAME} ${BOARD_SIZE} ${BOARD_SIZE}`);
    const defs = svgElement('defs', {}, svg);
    this.gradient(defs, 'piece-black', '#5a5a5a', '#111');
    this.gradient(defs, 'piece-white', '#fffdf6', '#d8ccb4');
    this.layers = {};
    for (const name of ['frame', 'squares', 'marks', 'pieces', 'numbers', 'arrows', 'top']) {
      this.layers[name] = svgElement('g', { class: 'layer-' + name }, svg);
    }
    svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    svg.addEventListener('pointercancel', () => this.endDrag());
  }

  gradient(defs, id, light, dark) {
    const g = svgElement('radialGradient', { id, cx: '35%', cy: '30%', r: '75%' }, defs);
    svgElement('stop', { offset: '0%', 'stop-color': light }, g);
    svgElement('stop', { offset: '100%', 'stop-color': dark }, g);
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    this.render(this.state);
  }

  setNumbers(numbers) {
    this.numbers = numbers;
    this.render(this.state);
  }

  /* The rule set's squares (a BoardLayout): where each is, and its name. */
  setLayout(layout) {
    this.layout = layout;
    this.render(this.state);
  }

  get algebraic() {
    return this.layout.algebraic;
  }

  name(square) {
    return this.layout.name(square);
  }

  /* Where square n is drawn, {x, y}, as the board is turned. */
  squareCell(square) {
    const { x, y } = this.layout.cell(square);
    return this.flipped ? { x: 7 * CELL - x, y: 7 * CELL - y } : { x, y };
  }

  /* The square drawn at column `col`, row `row` (0 on a light square). */
  cellSquare(col, row) {
    return this.flipped ? this.layout.square(7 - col, 7 - row) : this.layout.square(col, row);
  }

  /*
   * state: pieces (Map square -> 'b', 'B', 'w', 'W'), last (squares of the
   * last move), lastTaken (the squares it captured on), selected (square), targets (squares the selection may go to
   * next), path (squares entered so far of a capture), hint (squares),
   * arrows ([{from, to}], the first drawn strongest).
   */
  render(state) {
    this.state = state;
    /* A move still hopping belongs to the position drawn before. */
    for (const a of this.svg.getAnimations({ subtree: true })) a.cancel();
    this.animating = false;
    for (const layer of Object.values(this.layers)) layer.replaceChildren();
    const { squares, marks, numbers, pieces } = this.layers;
    this.drawFrame();
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const square = this.cellSquare(col, row);
        const attributes = { x: col * CELL, y: row * CELL, width: CELL, height: CELL };
        attributes.class = square ? 'dark' : 'light';
        if (square) attributes['data-square'] = square;
        svgElement('rect', attributes, squares);
        if (square && this.numbers) {
          const t = svgElement('text', { x: col * CELL + 4, y: row * CELL + 4, 'dominant-baseline': 'hanging', class: 'number' }, numbers);
          t.textContent = this.name(square);
        }
      }
    }
    const mark = (list, cls) => {
      for (const s of list || []) {
        const { x, y } = this.squareCell(s);
        svgElement('rect', { x, y, width: CELL, height: CELL, class: cls }, marks);
      }
    };
    mark(state.last, 'mark-last');
    for (const sq of state.lastTaken || []) {
      /* Where the last move took a piece: a small cross. */
      const { x, y } = this.squareCell(sq);
      svgElement('path', { d: `M${x + 40} ${y + 40} l20 20 m0 -20 l-20 20`, class: 'mark-taken' }, marks);
    }
    mark(state.hint, 'mark-hint');
    mark(state.path, 'mark-path');
    if (state.selected) mark([state.selected], 'mark-selected');
    for (const [square, letter] of state.pieces) {
      const moving = state.path && state.path.length > 1 && square === state.path[0];
      const g = this.drawPiece(square, letter, pieces);
      if (moving) g.classList.add('ghost');
      if (state.taken && state.taken.includes(square)) g.classList.add('taken');
    }
    if (state.path && state.path.length > 1) {
      const letter = state.pieces.get(state.path[0]);
      this.drawPiece(state.path[state.path.length - 1], letter, pieces).classList.add('in-hand');
    }
    (state.arrows || []).forEach((a, i) => this.drawArrow(a, i));
    for (const s of state.targets || []) {
      const { x, y } = this.squareCell(s);
      svgElement('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 14, class: 'target', 'data-target': s }, this.layers.top);
    }
  }

  /* The frame and its coordinates in the notation of the rule set: files
   * a-h under the board and ranks 1-8 beside it, or the names of each
   * row's first and last squares, as drawn, on its two sides. */
  drawFrame() {
    const frame = this.layers.frame;
    svgElement('rect', { x: -FRAME, y: -FRAME, width: BOARD_SIZE, height: BOARD_SIZE, rx: 10, class: 'frame' }, frame);
    const label = (x, y, text, side) => {
      svgElement('text', { x, y, class: 'coordinate', 'data-side': side }, frame).textContent = text;
    };
    const mid = (i) => i * CELL + CELL / 2;
    for (let i = 0; i < 8; i++) {
      if (this.algebraic) {
        const k = this.flipped ? 7 - i : i; /* the row (or column) of White's diagram drawn i-th */
        label(mid(i), 8 * CELL + FRAME / 2, 'abcdefgh'[k], 'bottom');
        label(-FRAME / 2, mid(i), String(8 - k), 'left');
      } else {
        const row = [...Array(8)].map((_, col) => this.cellSquare(col, i)).filter(Boolean);
        label(-FRAME / 2, mid(i), this.name(row[0]), 'left');
        label(8 * CELL + FRAME / 2, mid(i), this.name(row[row.length - 1]), 'right');
      }
    }
  }

  /* An arrow from the middle of one square to another; the i-th of several
   * thinner and paler, so that the best reads first. */
  drawArrow(arrow, i) {
    const a = this.squareCell(arrow.from);
    const b = this.squareCell(arrow.to);
    const x1 = a.x + CELL / 2, y1 = a.y + CELL / 2, x2 = b.x + CELL / 2, y2 = b.y + CELL / 2;
    const length = Math.hypot(x2 - x1, y2 - y1);
    if (!length) return;
    const ux = (x2 - x1) / length, uy = (y2 - y1) / length;
    const width = Math.max(6, 16 - 4 * i);
    const head = width * 2.4;
    const opacity = Math.max(0.35, 0.85 - 0.2 * i);
    const g = svgElement('g', { class: 'arrow-group', 'data-rank': i + 1, 'data-from': arrow.from, 'data-to': arrow.to, opacity }, this.layers.arrows);
    const ex = x2 - ux * head, ey = y2 - uy * head;
    svgElement('line', { x1: x1 + ux * 20, y1: y1 + uy * 20, x2: ex, y2: ey, 'stroke-width': width, class: 'arrow' }, g);
    const px = -uy * head * 0.6, py = ux * head * 0.6;
    svgElement('path', { d: `M${x2} ${y2} L${ex + px} ${ey + py} L${ex - px} ${ey - py} Z`, class: 'arrow-head' }, g);
  }

  drawPiece(square, letter, parent) {
    const { x, y } = this.squareCell(square);
    const white = letter === 'w' || letter === 'W';
    const king = letter === 'B' || letter === 'W';
    const g = svgElement('g', { class: 'piece ' + (white ? 'white' : 'black') + (king ? ' king' : ''), 'data-piece': square }, parent);
    g.style.transform = `translate(${x}px, ${y}px)`;
    svgElement('circle', { cx: 50, cy: 54, r: 38, class: 'shadow' }, g);
    svgElement('circle', { cx: 50, cy: 50, r: 38, fill: `url(#piece-${white ? 'white' : 'black'})`, class: 'body' }, g);
    svgElement('circle', { cx: 50, cy: 50, r: 27, class: 'ring' }, g);
    if (king) svgElement('path', { d: 'M31 60 L28 38 L40 48 L50 32 L60 48 L72 38 L69 60 Z', class: 'crown' }, g);
    return g;
  }

  /* Plays a move on the drawn position: the piece hops along `path`, then
   * the captured pieces fade. Resolves when done, or at once when the
   * board is drawn again meanwhile (its animations are then cancelled). */
  async animate(path, captured) {
    const piece = this.layers.pieces.querySelector(`[data-piece="${path[0]}"]`);
    if (!piece || path.length < 2) return;
    this.animating = true;
    try {
      this.layers.pieces.appendChild(piece);
      let from = this.squareCell(path[0]);
      for (let i = 1; i < path.length; i++) {
        const to = this.squareCell(path[i]);
        const a = piece.animate(
          [{ transform: `translate(${from.x}px, ${from.y}px)` }, { transform: `translate(${to.x}px, ${to.y}px)` }],
          { duration: HOP_MS, easing: 'ease-in-out', fill: 'forwards' });
        await a.finished;
        from = to;
      }
      const fades = [];
      for (const s of captured || []) {
        const g = this.layers.pieces.querySelector(`[data-piece="${s}"]`);
        if (g) fades.push(g.animate([{ opacity: 1 }, { opacity: 0 }], { duration: HOP_MS, fill: 'forwards' }).finished);
      }
      await Promise.all(fades);
    } catch (e) {
      /* cancelled: the board was drawn again */
    } finally {
      this.animating = false;
    }
  }

  /* Where a pointer event is, in the board's units (0 to 8 * CELL inside the frame). */
  boardPoint(event) {
    const box = this.svg.getBoundingClientRect();
    return {
      x: ((event.clientX - box.left) / box.width) * BOARD_SIZE - FRAME,
      y: ((event.clientY - box.top) / box.height) * BOARD_SIZE - FRAME,
    };
  }

  squareAt(event) {
    const p = this.boardPoint(event);
    const col = Math.floor(p.x / CELL);
    const row = Math.floor(p.y / CELL);
    if (col < 0 || col > 7 || row < 0 || row > 7) return 0;
    return this.cellSquare(col, row);
  }

  pointerDown(event) {
    if (this.animating || event.button > 0) return;
    const square = this.squareAt(event);
    if (!square) return;
    this.press = { square, dragging: false, ghost: null, x: event.clientX, y: event.clientY };
    this.press.draggable = this.handlers.onPress(square);
    if (this.press.draggable) this.svg.setPointerCapture(event.pointerId);
  }

  pointerMove(event) {
    const p = this.press;
    if (!p || !p.draggable) return;
    if (!p.dragging && Math.hypot(event.clientX - p.x, event.clientY - p.y) < 6) return;
    if (!p.dragging) {
      p.dragging = true;
      const source = this.layers.pieces.querySelector('.in-hand') ||
        this.layers.pieces.querySelector(`[data-piece="${p.square}"]`);
      if (!source) return;
      source.classList.add('lifted');
      p.ghost = source.cloneNode(true);
      p.ghost.classList.remove('lifted');
      p.ghost.classList.add('dragged');
      this.layers.top.appendChild(p.ghost);
    }
    if (p.ghost) {
      const at = this.boardPoint(event);
      p.ghost.style.transform = `translate(${at.x - CELL / 2}px, ${at.y - CELL / 2}px)`;
    }
  }

  pointerUp(event) {
    const p = this.press;
    if (!p) return;
    const square = this.squareAt(event);
    this.endDrag();
    if (p.draggable && square === p.square) return; /* a click on a piece: selected at press */
    if (square) this.handlers.onSquare(square);
  }

  endDrag() {
    const p = this.press;
    this.press = null;
    if (p && p.ghost) p.ghost.remove();
    for (const g of this.layers.pieces.querySelectorAll('.lifted')) g.classList.remove('lifted');
  }
}
