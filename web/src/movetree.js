// SPDX-License-Identifier: GPL-3.0-or-later
// The game as a tree of moves: the main line and its side lines, what the engine said of each position, promotion, deletion.
'use strict';

/*
 * A node is one move (PDN text as the engine writes it) with the moves
 * that answer it in `children`, the main continuation first. The root
 * stands for the start position (move null). Each node may carry `review`
 * (reviewJudge's entry for its move), `eval` ({white, depth}: the engine's
 * search of the position after it) and `ending` ({result, text}: the game
 * ended there by resignation, agreement or a flag). The moves are only
 * stored: every line was played or checked by the engine first.
 */
class MoveTree {
  /* An empty tree from the position `start` (FEN). */
  constructor(start) {
    this.start = start;
    this.nextId = 1;
    this.root = this.node(null, null);
  }

  node(move, parent) {
    return { id: this.nextId++, move, parent, children: [], review: null, eval: null, ending: null };
  }

  /* The node reached by `moves` from the root, or null. */
  find(moves) {
    let node = this.root;
    for (const m of moves) {
      node = node.children.find((c) => c.move === m);
      if (!node) return null;
    }
    return node;
  }

  /* The node with id `id`, or null. */
  byId(id) {
    const walk = (n) => {
      if (n.id === id) return n;
      for (const c of n.children) {
        const f = walk(c);
        if (f) return f;
      }
      return null;
    };
    return walk(this.root);
  }

  /* The node reached by `moves`, made where missing: a new move becomes
   * the main continuation where there was none, a side line otherwise. */
  add(moves) {
    let node = this.root;
    for (const m of moves) {
      let next = node.children.find((c) => c.move === m);
      if (!next) {
        next = this.node(m, node);
        node.children.push(next);
      }
      node = next;
    }
    return node;
  }

  /* The moves from the root to `node`. */
  path(node) {
    const moves = [];
    for (let n = node; n && n.parent; n = n.parent) moves.unshift(n.move);
    return moves;
  }

  /* The moves of the main continuation after `node`, to the end. */
  continuation(node) {
    const moves = [];
    for (let n = node.children[0]; n; n = n.children[0]) moves.push(n.move);
    return moves;
  }

  /* The whole line through `node`: its path and then its main continuation. */
  lineThrough(node) {
    return this.path(node).concat(this.continuation(node));
  }

  /* The nodes of `moves` from the root (as many as exist), the root first. */
  nodes(moves) {
    const out = [this.root];
    let node = this.root;
    for (const m of moves) {
      node = node.children.find((c) => c.move === m);
      if (!node) break;
      out.push(node);
    }
    return out;
  }

  /* Whether `moves` is the main line (every move the first of its siblings). */
  isMain(moves) {
    return this.nodes(moves).every((n) => !n.parent || n.parent.children[0] === n);
  }

  /* Makes the side line of `moves` the main one at its last branch before
   * the end of `moves`: that move becomes the first of its siblings.
   * Returns the node moved up, or null when `moves` is the main line. */
  promote(moves) {
    const nodes = this.nodes(moves);
    for (let i = nodes.length - 1; i > 0; i--) {
      const n = nodes[i];
      const siblings = n.parent.children;
      const k = siblings.indexOf(n);
      if (k > 0) {
        siblings.splice(k, 1);
        siblings.unshift(n);
        return n;
      }
    }
    return null;
  }

  /* Takes `node` and everything after it out of the tree; returns the
   * number of moves removed (0 for the root). */
  remove(node) {
    if (!node.parent) return 0;
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    return this.count(node);
  }

  /* The number of moves in the subtree of `node`, itself included unless it is the root. */
  count(node) {
    return (node.parent ? 1 : 0) + node.children.reduce((s, c) => s + this.count(c), 0);
  }

  /* The sibling `delta` places from the node of `moves` at the deepest
   * branch along them, or null: for walking between lines. */
  sibling(moves, delta) {
    const nodes = this.nodes(moves);
    for (let i = nodes.length - 1; i > 0; i--) {
      const siblings = nodes[i].parent.children;
      if (siblings.length < 2) continue;
      const k = siblings.indexOf(nodes[i]) + delta;
      return k >= 0 && k < siblings.length ? siblings[k] : null;
    }
    return null;
  }

  /* Every line from the root to a leaf, the main line first. */
  leaves() {
    const out = [];
    const walk = (n, moves) => {
      if (!n.children.length) out.push(moves);
      for (const c of n.children) walk(c, moves.concat(c.move));
    };
    walk(this.root, []);
    return out;
  }

  /* A plain copy for storage (JSON): nested [move, children, extras]. */
  save() {
    const pack = (n) => {
      const extra = {};
      if (n.review) extra.review = Object.assign({}, n.review, { mark: n.review.mark ? n.review.mark.name : null });
      if (n.eval) extra.eval = n.eval;
      if (n.ending) extra.ending = n.ending;
      return [n.move, n.children.map(pack), extra];
    };
    return { start: this.start, root: pack(this.root) };
  }

  /* The tree save() gave, or null when `saved` is not one. */
  static load(saved) {
    if (!saved || typeof saved.start !== 'string' || !Array.isArray(saved.root)) return null;
    const tree = new MoveTree(saved.start);
    const unpack = (packed, parent) => {
      if (!Array.isArray(packed) || !Array.isArray(packed[1])) throw new Error('not a tree');
      const n = parent ? tree.node(String(packed[0]), parent) : tree.root;
      const extra = packed[2] || {};
      if (extra.review) n.review = Object.assign(extra.review, { mark: REVIEW_MARKS.find((m) => m.name === extra.review.mark) || null });
      n.eval = extra.eval || null;
      n.ending = extra.ending || null;
      for (const c of packed[1]) n.children.push(unpack(c, n));
      return n;
    };
    try {
      unpack(saved.root, null);
    } catch (e) {
      return null;
    }
    return tree;
  }
}
