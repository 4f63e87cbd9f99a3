// SPDX-License-Identifier: GPL-3.0-or-later
// The review panel: Review game runs a review of the line in the engine, then its marks, graph and summary show.
'use strict';

class ReviewPanel {
  /* app: the page's controller. */
  constructor(app) {
    this.app = app;
    this.running = null; /* {cancelled, text} while a review runs */
    $('review').addEventListener('click', () => this.run());
  }

  /* The footer's sentence on the marks. */
  help() {
    const [dubious, ...worse] = REVIEW_MARKS.slice().reverse();
    $('review-help').textContent = `Review: a move that loses at least ${dubious.loss} of a man is ${dubious.name} (${dubious.symbol}), ` +
      worse.map((m) => `${m.loss} a ${m.name} (${m.symbol})`).join(', ') + '.';
  }

  /* Searches every position of the line on the chosen budget, then marks
   * the moves and draws the graph; pressed again, stops. */
  async run() {
    const app = this.app;
    if (this.running) {
      this.running.cancelled = true;
      return;
    }
    if (!app.line.length) return;
    await app.interrupt();
    const run = { cancelled: false, text: 'Reviewing…' };
    this.running = run;
    app.redraw();
    const line = app.line.slice();
    const start = app.lineStart;
    const budget = REVIEW_BUDGETS[$('review-budget').value] || REVIEW_BUDGETS.normal;
    const { positions, problem } = await reviewSearch(app.engine, start, line, budget, (done, total) => {
      run.text = `Reviewing the game: ${done} of ${total} positions searched.`;
      app.drawStatus();
    }, () => run.cancelled || this.running !== run, app.analysis.multipvLine(1));
    if (this.running !== run) return; /* the game changed under it */
    this.running = null;
    /* The closing message comes after the marks and the graph are drawn:
     * "Review done" on screen means everything is. */
    let closing = () => app.say('Review stopped.');
    if (positions) {
      const entries = reviewJudge(positions, line);
      const nodes = app.tree.nodes(line);
      entries.forEach((entry, i) => nodes[i + 1] && (nodes[i + 1].review = entry));
      closing = () => app.say(this.text(reviewSummary(entries)));
    } else if (problem) closing = () => app.error(`Review failed: ${problem}.`);
    await app.setUp();
    await app.refresh();
    closing();
    await app.continueGame();
  }

  /* The summary under the graph: the review of the line shown, as far as
   * it goes; nothing while a review runs. */
  drawSummary(review) {
    const box = $('review-summary');
    if (this.running || !review.length) {
      box.textContent = this.running ? 'Reviewing…' : '';
      return;
    }
    const n = this.app.line.length;
    box.textContent = this.summaryText(reviewSummary(review)) + (review.length < n ? ` (the first ${review.length} of the line's ${n} moves)` : '');
  }

  /* Stops a review (a new game, a take back) and waits for it to end. */
  async cancel() {
    if (!this.running) return;
    this.running.cancelled = true;
    this.running = null;
    await this.app.engine.request([]);
  }

  /* Each side's marks and average loss, in a sentence each. */
  summaryText(summary) {
    const side = (s) => {
      const x = summary[s];
      const marks = REVIEW_MARKS.map((m) => `${m.name} ${x[m.name]}`).join(', ');
      return `${colourName(s)}: ${marks}; ${x.loss.toFixed(2)} men lost a move on average`;
    };
    return `${side('B')}. ${side('W')}.`;
  }

  /* A short line for the message when a review is done. */
  text(summary) {
    const count = (s) => REVIEW_MARKS.slice(0, 2).reduce((n, m) => n + summary[s][m.name], 0);
    return `Review done: ${count('B')} mistake${count('B') === 1 ? '' : 's'} or blunder${count('B') === 1 ? '' : 's'} by Black, ${count('W')} by White.`;
  }
}
