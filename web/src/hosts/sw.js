// The service worker that keeps Attention Lab working offline, on Workbox's precaching. The build
// (scripts/service-worker.mjs, run by vite.config.js after the page is built) bundles this file as
// sw.js next to index.html and injects the manifest: every file of the build the pages use, each
// with its revision (hashed names are their own revision; the pages and attention-lab.js get a
// hash of their content), each marked by the build:
//   group 'now'    the pages, their scripts and styles, the start lesson: cached when the worker
//                  installs
//   group 'later'  every other lesson, the engine's wasm, the trainer, KaTeX and its fonts: cached
//                  only when a page says it is idle (offline.js posts PRECACHE), so a first visit
//                  downloads the lesson first; of the engine and the trainer only the build this
//                  browser runs (simd 'simd' or 'scalar', engine/simd.js)
//
// One build never mixes with another: a page, a script and a wasm file are found under their
// revision, and an old build's files are deleted when the new worker activates (it takes over
// open pages at once: a page of the old build that then asks for a file of its own that is gone
// reloads into the new build, hosts/stale.js). Nothing leans on the HTTP cache: what is not in
// the caches goes to the network.

import { PrecacheController, PrecacheRoute, cleanupOutdatedCaches } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { clientsClaim } from 'workbox-core';
import { simdSupported } from '../engine/simd.js';
import { PRECACHE, PRECACHED } from './sw-messages.js';

const manifest = self.__WB_MANIFEST;
const simd = simdSupported() ? 'simd' : 'scalar';
const wanted = (e) => !e.simd || e.simd === simd;
const entry = ({ url, revision }) => ({ url, revision });
const scope = self.registration.scope;
const LATER_CACHE = `attention-lab-later-${scope}`;

const now = new PrecacheController(); // Workbox's own precache (workbox-precache-v2-<scope>)
const later = new PrecacheController({ cacheName: LATER_CACHE });
now.addToCacheList(manifest.filter((e) => e.group !== 'later' && wanted(e)).map(entry));
later.addToCacheList(manifest.filter((e) => e.group === 'later' && wanted(e)).map(entry));

// Pages are asked for without their hash; a query (a course site's tracking) is not part of a page.
const routeOptions = { ignoreURLParametersMatching: [/.*/], directoryIndex: 'index.html', cleanURLs: false };
registerRoute(new PrecacheRoute(now, routeOptions));
registerRoute(new PrecacheRoute(later, routeOptions));

self.addEventListener('install', (event) => {
  self.skipWaiting();
  now.install(event);
});

self.addEventListener('activate', (event) => {
  now.activate(event);
  later.activate(event);
  // The caches of the service worker before Workbox (attention-lab-<version>).
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => /^attention-lab-[0-9a-f]{12}$/.test(k) && k !== LATER_CACHE).map((k) => caches.delete(k)),
        ),
      ),
  );
});
cleanupOutdatedCaches();
clientsClaim();

// The rest of the build, once a page is idle: cached one file at a time (files already cached for
// this revision are skipped), then the page is told how many files are kept.
const rest = { done: null }; // the caching of the rest, once asked
self.addEventListener('message', (event) => {
  if (!event.data || event.data.type !== PRECACHE) return;
  // Workbox caches what it fetches only while the worker installs; this is the same step, later.
  const asInstall = { type: 'install', waitUntil: (p) => event.waitUntil(p) };
  rest.done ||= later.install(asInstall).then(
    () => later.getCachedURLs().length,
    (e) => {
      rest.done = null; // tried again at the next message
      throw e;
    },
  );
  event.waitUntil(
    rest.done.then(
      (files) => event.source?.postMessage({ type: PRECACHED, files: files + now.getCachedURLs().length }),
      (e) => event.source?.postMessage({ type: PRECACHED, error: String(e && e.message) }),
    ),
  );
});
