// SPDX-License-Identifier: GPL-3.0-or-later
// Share and keep: the address's fragment holds the line shown, a link opens it elsewhere; copy FEN, PDN and link.
'use strict';

class ShareLinks {
  /* app: the page's controller. */
  constructor(app) {
    this.app = app;
    const on = (id, f) => $(id).addEventListener('click', f);
    on('copy-fen', () => this.copy(app.record.fen, 'the FEN'));
    on('copy-pdn', () => this.copy(app.pdn.text(), 'the PDN'));
    on('copy-link', () => this.copy(this.link(), 'a link to this position'));
  }

  /* The fragment for the line shown: variant, start when not the
   * variant's, the moves and the ply shown. */
  fragment() {
    const app = this.app;
    const params = new URLSearchParams();
    params.set('variant', app.variant);
    if (app.lineStart !== app.startFen) params.set('fen', app.lineStart);
    if (app.line.length) params.set('moves', app.line.join(' '));
    if (app.view !== app.line.length) params.set('ply', String(app.view));
    return params.toString();
  }

  link() {
    return location.href.replace(/#.*$/, '') + '#' + this.fragment();
  }

  /* Keeps the address's fragment on the line shown (no new history entry). */
  write() {
    if (document.body.dataset.ready !== 'true') return;
    history.replaceState(null, '', '#' + this.fragment());
  }

  /* Opens the game of the address's fragment when it names one (a link
   * from elsewhere), in analysis mode; the game restored from the last
   * visit, when it is another, is kept for Undo. */
  async open() {
    const app = this.app;
    const params = new URLSearchParams(location.hash.slice(1));
    if (!params.has('moves') && !params.has('fen')) return;
    const variant = params.get('variant') || 'pool';
    const moves = (params.get('moves') || '').split(' ').filter(Boolean);
    const link = { variant, start: params.get('fen') || '', moves };
    const same = variant === app.variant && moves.join(' ') === app.line.join(' ') && (!link.start || link.start === app.lineStart);
    if (same) {
      const ply = Math.min(Number(params.get('ply') ?? moves.length) || 0, moves.length);
      if (ply !== app.view) await app.goTo(ply);
      return;
    }
    app.treePanel.keep();
    const before = app.variant;
    if (variant !== app.variant && !(await app.changeVariant(variant))) return this.refuse('its variant', before);
    const from = link.start ? `fen=${hubQuote(link.start)}` : 'start';
    const problem = hubError(await app.engine.request([`pos ${from} moves=${hubQuote(moves.join(' '))}`]));
    if (problem) return this.refuse(problem, before);
    await app.engine.request(['new-game', `pos ${from} moves=${hubQuote(moves.join(' '))}`]);
    const game = hubReplies(await app.engine.request(['game']), 'game')[0].values;
    const canonical = game.moves ? game.moves.split(' ') : [];
    await app.playSetUp((you) => `Opened the link: ${canonical.length} move${canonical.length === 1 ? '' : 's'}; ${you}.`, { lines: [canonical], analyse: true });
    const ply = params.has('ply') ? Math.max(0, Math.min(Number(params.get('ply')) || 0, canonical.length)) : canonical.length;
    if (ply !== app.view) await app.goTo(ply);
  }

  async refuse(problem, variant) {
    const app = this.app;
    if (variant !== app.variant) await app.changeVariant(variant);
    await app.setUp();
    await app.refresh();
    app.error(`The link's game could not be opened (${problem}).`);
  }

  /* Puts `text` on the clipboard (the older way where the browser refuses the newer). */
  async copy(text, what) {
    let done = false;
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch (e) {
      const area = element('textarea', { value: text });
      document.body.appendChild(area);
      area.select();
      done = document.execCommand('copy');
      area.remove();
    }
    document.body.dataset.copied = text;
    if (done) this.app.say(`Copied ${what}.`);
    else this.app.error(`The browser would not copy ${what}; here it is: ${text}`);
  }
}
