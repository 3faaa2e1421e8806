// The messages between the pages (offline.js) and the service worker (sw.js): a page that is idle
// posts { type: PRECACHE }; the worker answers { type: PRECACHED, files } once the rest of the
// build is cached (or { type: PRECACHED, error }).
export const PRECACHE = 'attention-lab:precache';
export const PRECACHED = 'attention-lab:precached';
