// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation graph of a reviewed game: inline SVG, one point a ply from White's view, a click goes to that ply.
'use strict';

const GRAPH_W = 600;
const GRAPH_H = 120;

class EvalGraph {
  /* onPick(view): the position after ply `view` (1 = after the first move)
   * was chosen. */
  constructor(svg, onPick) {
    this.svg = svg;
    this.onPick = onPick;
    this.count = 0;
    svg.setAttribute('viewBox', `0 0 ${GRAPH_W} ${GRAPH_H}`);
    svg.addEventListener('click', (e) => this.click(e));
  }

  x(view) {
    return this.count <= 1 ? GRAPH_W / 2 : 6 + ((view - 1) / (this.count - 1)) * (GRAPH_W - 12);
  }

  /* A click anywhere picks the nearest ply (a finger rarely hits a point). */
  click(event) {
    if (!this.count) return;
    const box = this.svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * GRAPH_W;
    let best = 1;
    for (let v = 1; v <= this.count; v++) if (Math.abs(this.x(v) - x) < Math.abs(this.x(best) - x)) best = v;
    this.onPick(best);
  }

  /* entries: reviewJudge's, one a ply of the line or of its first part
   * (empty: no graph); view: the ply shown. */
  draw(entries, view) {
    this.svg.replaceChildren();
    this.count = entries.length;
    this.svg.closest('.graph-box').hidden = !entries.length;
    if (!entries.length) return;
    const y = (white) => 4 + (1 - scoreShare(white)) * (GRAPH_H - 8);
    svgElement('rect', { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, class: 'graph-bg' }, this.svg);
    const points = entries.map((e, i) => `${this.x(i + 1).toFixed(1)},${y(reviewCap(e.white)).toFixed(1)}`);
    svgElement('path', { d: `M${this.x(1).toFixed(1)},${GRAPH_H} L${points.join(' L')} L${this.x(this.count).toFixed(1)},${GRAPH_H} Z`, class: 'graph-white' }, this.svg);
    svgElement('line', { x1: 0, x2: GRAPH_W, y1: GRAPH_H / 2, y2: GRAPH_H / 2, class: 'graph-mid' }, this.svg);
    svgElement('path', { d: `M${points.join(' L')}`, class: 'graph-line' }, this.svg);
    if (view >= 1 && view <= this.count) {
      svgElement('line', { x1: this.x(view), x2: this.x(view), y1: 0, y2: GRAPH_H, class: 'graph-now' }, this.svg);
    }
    entries.forEach((e, i) => {
      const c = svgElement('circle', {
        cx: this.x(i + 1).toFixed(1), cy: y(reviewCap(e.white)).toFixed(1), r: e.mark ? 5 : 2.5,
        class: 'graph-point' + (e.mark ? ' ' + e.mark.name : ''), 'data-ply': i + 1,
      }, this.svg);
      const title = svgElement('title', {}, c);
      title.textContent = `${e.played}: ${signedScore(e.white)} (White)${e.mark ? `, ${e.mark.name}, best ${e.best}` : ''}`;
    });
  }
}
