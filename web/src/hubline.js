// SPDX-License-Identifier: GPL-3.0-or-later
// Hub protocol lines for the page: split a reply into command, words and key=value pairs; quote a value.
'use strict';

/* Splits a line as doc/PROTOCOL.md says: blanks separate arguments, a value in
 * double quotes may hold blanks, there are no escapes. Returns
 * {command, words: [...], values: {key: value}} (later keys win). */
function hubParse(line) {
  const out = { command: '', words: [], values: {} };
  let i = 0;
  const n = line.length;
  const blank = (c) => c === ' ' || c === '\t';
  const readValue = () => {
    if (line[i] === '"') {
      const close = line.indexOf('"', i + 1);
      const end = close < 0 ? n : close;
      const v = line.slice(i + 1, end);
      i = end + 1;
      return v;
    }
    const start = i;
    while (i < n && !blank(line[i])) i++;
    return line.slice(start, i);
  };
  while (i < n) {
    while (i < n && blank(line[i])) i++;
    if (i >= n) break;
    let key;
    if (line[i] === '"') {
      key = readValue();
    } else {
      const start = i;
      while (i < n && !blank(line[i]) && line[i] !== '=') i++;
      key = line.slice(start, i);
    }
    if (line[i] === '=') {
      i++;
      out.values[key] = readValue();
    } else if (!out.command) {
      out.command = key;
    } else {
      out.words.push(key);
    }
  }
  return out;
}

/* A value as an argument: in double quotes when it holds a blank, '=' or is
 * empty; a '"' cannot be sent and becomes "'" (the engine then names the
 * problem in its own words). Newlines become blanks. */
function hubQuote(value) {
  const v = String(value).replace(/"/g, "'").replace(/[\r\n]+/g, ' ');
  return v === '' || /[\s=]/.test(v) ? '"' + v + '"' : v;
}
