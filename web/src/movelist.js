// SPDX-License-Identifier: GPL-3.0-or-later
// The move list: numbered moves as buttons (a click shows that position), the shown one marked, review marks and best moves.
'use strict';

class MoveList {
  /* onPick(view): show the position after `view` plies. */
  constructor(list, onPick) {
    this.list = list;
    list.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-ply]');
      if (button) onPick(Number(button.dataset.ply));
    });
  }

  /*
   * line: the game's moves (PDN); view: plies shown; side: who moves at the
   * start; first: who moves first in the variant; review: reviewJudge's
   * entries for a prefix of the line (or []).
   */
  draw(line, view, side, first, review) {
    const list = this.list;
    list.replaceChildren();
    let li = null;
    let notes = null;
    line.forEach((m, i) => {
      const { number, lead } = pdnMoveNumber(i, side, first);
      if (lead || !li) {
        li = document.createElement('li');
        li.value = number;
        list.appendChild(li);
        if (!lead) li.appendChild(Object.assign(document.createElement('span'), { className: 'gap', textContent: '…' }));
        notes = null;
      }
      const entry = review[i];
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'move' + (entry && entry.mark ? ' ' + entry.mark.name : '');
      button.dataset.ply = i + 1;
      button.textContent = m + (entry && entry.mark ? entry.mark.symbol : '');
      if (i + 1 === view) {
        button.classList.add('current');
        button.setAttribute('aria-current', 'true');
      }
      li.appendChild(button);
      if (entry && entry.mark) {
        if (!notes) {
          notes = document.createElement('div');
          notes.className = 'notes';
          li.notes = notes;
        }
        const note = document.createElement('span');
        note.className = 'note ' + entry.mark.name;
        note.textContent = `${m}${entry.mark.symbol} ${entry.mark.name} (−${entry.loss.toFixed(2)}); best ${entry.best}`;
        notes.appendChild(note);
      }
    });
    /* The notes of a move number under both of its moves. */
    for (const item of list.children) if (item.notes) item.appendChild(item.notes);
    const current = list.querySelector('.current');
    if (current) {
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
    } else if (view === line.length) list.scrollTop = list.scrollHeight;
  }
}
