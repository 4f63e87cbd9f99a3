// SPDX-License-Identifier: GPL-3.0-or-later
// The page as an installable app: its manifest and service worker, when it is served (a page opened from disk has neither).
'use strict';

function installApp() {
  if (!/^https?:$/.test(location.protocol)) return;
  document.head.appendChild(element('link', { rel: 'manifest', href: 'manifest.webmanifest' }));
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('sw.js').then(
    () => (document.body.dataset.serviceWorker = 'registered'),
    (e) => console.debug('poolshark: no service worker:', e.message));
}

window.addEventListener('DOMContentLoaded', installApp);
