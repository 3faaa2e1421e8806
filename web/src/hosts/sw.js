// The service worker that keeps Attention Lab working offline. The build (vite.config.js) emits
// it as sw.js next to index.html, with PRECACHE set to every file of the build that the pages
// use (hashed scripts, styles, both wasm builds, KaTeX's woff2 fonts, the HTML pages) and
// VERSION to a hash of that list.
//
// Hashed files never change, so they come from the cache first. The pages and the element's
// script (fixed names) come from the network first, and from the cache when it is unreachable.

const PRECACHE = self.__PRECACHE__ || [];
const VERSION = self.__VERSION__ || 'dev';
const CACHE = `attention-lab-${VERSION}`;
const scope = new URL(self.registration.scope);
const FIXED = new Set(['', 'index.html', 'embed.html', 'attention-lab.js', 'examples/course.html']);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((f) => new URL(f, scope).href)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('attention-lab-') && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (e) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw e;
  }
}

async function cacheFirst(request) {
  const hit = await caches.match(request, { cacheName: CACHE });
  return hit || fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  const rel = url.pathname.slice(scope.pathname.length);
  // A page is cached under its path without query or hash (the lesson is in the hash).
  if (request.mode === 'navigate' || FIXED.has(rel)) {
    const key = new URL(rel === '' ? 'index.html' : rel, scope).href;
    event.respondWith(networkFirst(request, key));
  } else {
    event.respondWith(cacheFirst(request));
  }
});
