// SPDX-License-Identifier: GPL-3.0-or-later
// The move tree on the page: the main line in numbered moves, side lines indented under the move they replace, review marks.
'use strict';

class MoveList {
  /* onPick(node id): show the position after that move. */
  constructor(box, onPick) {
    this.box = box;
    box.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-node]');
      if (button) onPick(Number(button.dataset.node));
    });
  }

  /*
   * tree: the MoveTree; line: the moves of the line shown; view: plies of
   * it shown; side: who moves at the tree's start; first: who moves first
   * in the variant.
   */
  draw(tree, line, view, side, first) {
    const shown = tree.nodes(line);
    const current = shown[Math.min(view, shown.length - 1)];
    const inLine = new Set(shown);
    const moveButton = (node, ply, numbered) => {
      const { number, lead } = pdnMoveNumber(ply, side, first);
      const mark = node.review && node.review.mark;
      const button = element('button', {
        type: 'button',
        className: 'move' + (mark ? ' ' + mark.name : '') + (inLine.has(node) ? ' in-line' : ''),
        textContent: node.move + (mark ? mark.symbol : ''),
        data: { ply: ply + 1, node: node.id },
      });
      if (node === current) {
        button.classList.add('current');
        button.setAttribute('aria-current', 'true');
      }
      const parts = [];
      if (lead) parts.push(element('span', { className: 'number', textContent: `${number}.` }));
      else if (numbered) parts.push(element('span', { className: 'number', textContent: `${number}…` }));
      parts.push(button);
      if (mark) {
        parts.push(element('span', {
          className: 'note ' + mark.name,
          textContent: `${node.move}${mark.symbol} ${mark.name} (−${node.review.loss.toFixed(2)}); best ${node.review.best}`,
        }));
      }
      return { parts, interrupts: !!mark };
    };
    /* The line that goes on from `node` (ply: the ply of its first child),
     * each move's side lines after it. */
    const drawLine = (node, ply, box, numbered) => {
      for (let n = node; n.children.length; ply++) {
        const [main, ...others] = n.children;
        const m = moveButton(main, ply, numbered);
        box.append(...m.parts);
        numbered = m.interrupts;
        for (const other of others) {
          const variation = element('div', { className: 'variation' + (inLine.has(other) ? ' in-line' : ''), role: 'group' });
          const first = moveButton(other, ply, true);
          variation.append(...first.parts);
          drawLine(other, ply + 1, variation, first.interrupts);
          box.append(variation);
          numbered = true;
        }
        n = main;
      }
    };
    const main = element('div', { className: 'mainline' });
    drawLine(tree.root, 0, main, true);
    this.box.replaceChildren(main);
    const shownButton = this.box.querySelector('.current');
    if (shownButton) {
      const top = shownButton.offsetTop - this.box.offsetTop;
      if (top < this.box.scrollTop || top > this.box.scrollTop + this.box.clientHeight - shownButton.offsetHeight) this.box.scrollTop = top - this.box.clientHeight / 2;
    } else if (view === line.length) this.box.scrollTop = this.box.scrollHeight;
  }
}
