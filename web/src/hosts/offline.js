// Offline use: the service worker (sw.js, made by the build next to index.html; see sw.js and
// scripts/service-worker.mjs) keeps the pages, the scripts, the engine and KaTeX's fonts, so after
// a first visit the tutorial works without a network. Not in development (there is no sw.js there).
//
// registerOffline(marker) is called once the first lesson is drawn: by the page always, by an
// embedded lesson (the <attention-lab> element, embed.html) only when its author asks for offline
// use (./element.js). Nothing is registered or fetched for it until the page is idle: the lesson's
// own downloads (its chunk, the engine, KaTeX and its fonts as formulas come into view) go first.
// Then the worker is registered (it keeps the pages, their scripts and the start lesson as it
// installs) and asked to cache the rest of the build (every other lesson, the engine build this
// browser runs, KaTeX). The marker element (<html> on the page, the element itself) carries
// data-offline: "waiting" until then, "ready" once the build is kept (or "failed"): tests wait
// for it. A page holds one worker, whoever asks first.

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

const offline = { kept: null }; // kept: Promise<'ready' | 'failed'>, once asked

export function registerOffline(marker = document.documentElement) {
  if (import.meta.env.DEV || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  marker.dataset.offline = 'waiting';
  offline.kept ??= idle().then(() => {
    const sw = navigator.serviceWorker;
    const done = new Promise((resolve) =>
      sw.addEventListener('message', (event) => {
        if (event.data?.type === PRECACHED) resolve(event.data.error ? 'failed' : 'ready');
      }),
    );
    sw.startMessages();
    return sw
      .register(new URL('sw.js', LAB_ROOT), { scope: LAB_ROOT, updateViaCache: 'none' })
      .then(() => sw.ready)
      .then((reg) => {
        reg.active?.postMessage({ type: PRECACHE });
        return done;
      })
      .catch(() => 'failed'); // offline use is an extra: the page works the same without it
  });
  offline.kept.then((outcome) => {
    marker.dataset.offline = outcome;
  });
}
