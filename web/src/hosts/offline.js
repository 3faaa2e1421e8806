// Offline use: the service worker (sw.js, made by the build next to index.html; see sw.js and
// scripts/service-worker.mjs) keeps the pages, the scripts, the engine and KaTeX's fonts, so after
// a first visit the tutorial works without a network. Not in development (there is no sw.js there).
//
// registerOffline() is called once the first lesson is on screen. It registers the worker and,
// when the page is next idle, asks it to cache the rest of the build (what the first lesson did
// not need: every other lesson, the engine build this browser runs, KaTeX). Once that is done
// <html> carries data-offline="ready" (or "failed"): tests wait for it.

import { LAB_ROOT } from './root-url.js';
import { PRECACHE, PRECACHED } from './sw-messages.js';

// Idle: no file fetched for QUIET_MS (the lesson's own downloads, KaTeX and its fonts drawn as
// formulas come into view, are done), then a moment the main thread has nothing to do.
const QUIET_MS = 2000;
const idle = () =>
  new Promise((resolve) => {
    const fetched = () => performance.getEntriesByType('resource').length;
    let seen = fetched();
    const check = () => {
      const n = fetched();
      if (n !== seen) {
        seen = n;
        setTimeout(check, QUIET_MS);
      } else if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 5000 });
      else resolve();
    };
    setTimeout(check, QUIET_MS);
  });

export function registerOffline() {
  if (import.meta.env.DEV || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const sw = navigator.serviceWorker;
  sw.addEventListener('message', (event) => {
    if (event.data?.type !== PRECACHED) return;
    document.documentElement.dataset.offline = event.data.error ? 'failed' : 'ready';
  });
  sw.startMessages();
  sw.register(new URL('sw.js', LAB_ROOT), { scope: LAB_ROOT, updateViaCache: 'none' })
    .then(() => Promise.all([sw.ready, document.fonts.ready]))
    .then(([reg]) => idle().then(() => reg.active?.postMessage({ type: PRECACHE })))
    .catch(() => {
      // Offline use is an extra: the page works the same without it.
    });
}
