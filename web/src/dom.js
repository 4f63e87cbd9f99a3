// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers of the page's scripts: an element by id, a new element with its properties and children.
'use strict';

const $ = (id) => document.getElementById(id);

/* A new element `tag` with `properties` (className, textContent, title,
 * dataset entries as `data`) and `children` (elements or text). */
function element(tag, properties = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(properties)) {
    if (k === 'data') Object.assign(e.dataset, v);
    else e[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
