// SPDX-License-Identifier: GPL-3.0-or-later
// What survives a reload: the settings and the game in progress, in the browser's localStorage.
'use strict';

const STORAGE_KEY = 'poolshark.page';
const STORAGE_VERSION = 2; /* 2: the game as a tree of moves */

/*
 * Reads what an earlier visit saved: {settings, game} or null when there is
 * nothing, storage is off, or the saved text is not ours. Never throws.
 */
function storageLoad(storage) {
  try {
    const text = storage && storage.getItem(STORAGE_KEY);
    if (!text) return null;
    const saved = JSON.parse(text);
    if (!saved || saved.version !== STORAGE_VERSION || typeof saved !== 'object') return null;
    return saved;
  } catch (e) {
    return null;
  }
}

/* Saves {settings, game}; false when the browser refuses (private mode,
 * quota), which the page can live with. */
function storageSave(storage, settings, game) {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify({ version: STORAGE_VERSION, settings, game }));
    return true;
  } catch (e) {
    return false;
  }
}

function storageClear(storage) {
  try {
    storage.removeItem(STORAGE_KEY);
  } catch (e) {
    /* nothing saved, nothing to clear */
  }
}
