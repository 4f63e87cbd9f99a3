// SPDX-License-Identifier: GPL-3.0-or-later
// Sounds for a move, a capture and the end of a game, made with Web Audio (no files); off unless asked for.
'use strict';

class Sounds {
  /* toggle: the check box that turns them on. */
  constructor(toggle) {
    this.toggle = toggle;
    this.context = null;
  }

  /* A tone at each of `notes` ([frequency Hz, start s, length s]). */
  play(kind, notes) {
    if (!this.toggle.checked) return;
    document.body.dataset.sound = kind;
    document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
    try {
      this.context = this.context || new AudioContext();
      const now = this.context.currentTime;
      for (const [frequency, start, length] of notes) {
        const tone = this.context.createOscillator();
        const level = this.context.createGain();
        tone.type = 'triangle';
        tone.frequency.value = frequency;
        level.gain.setValueAtTime(0.0001, now + start);
        level.gain.exponentialRampToValueAtTime(0.25, now + start + 0.01);
        level.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
        tone.connect(level).connect(this.context.destination);
        tone.start(now + start);
        tone.stop(now + start + length + 0.02);
      }
    } catch (e) {
      /* no audio here: the page plays on in silence */
    }
  }

  /* A move (entry of `legal`): a click, or two lower ones for a capture. */
  move(entry) {
    if (entry && entry.captured.length) this.play('capture', [[330, 0, 0.08], [262, 0.09, 0.1]]);
    else this.play('move', [[523, 0, 0.07]]);
  }

  end() {
    this.play('end', [[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.3]]);
  }
}
