// A page left open across a deploy: its next lesson (or KaTeX, or any chunk it loads on demand)
// may be a file the new build no longer has. The import then fails ("Failed to fetch dynamically
// imported module …masks-….js", a 404) and would fail for good: the page reloads once into the
// new build instead, and says so once it is drawn again. Only when the server says the file is
// gone (a network that is down is no deploy), and at most once for the same failure, so a build
// that is broken cannot reload in a loop.
//
//   if (reloadIntoNewBuild(error, showError)) return;  // reloading (or checking); else show it
//   if (reloadedIntoNewBuild()) notify(...)             // once the page has started again

import { LAB_ROOT } from './root-url.js';

const KEY = 'attention-lab:reloaded-for';
const MISSING = /dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

const missingChunk = (e) => !!e && typeof e.message === 'string' && MISSING.test(e.message);

// While the server is asked: what each caller asked for (the same failure reaches Vite's
// preloadError event and then the lesson's loader).
const state = { waiting: null }; // { show: [], before: [] } while the server is asked

function session() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

// Whether the file the failure names (or, when it names none, the page) is gone from the server:
// asked past every cache.
async function gone(message) {
  const named = /\bhttps?:\/\/[^\s'"]+?\.(?:js|css)\b/.exec(message)?.[0];
  try {
    const res = await fetch(named || new URL('index.html', LAB_ROOT), { method: 'HEAD', cache: 'no-store' });
    return named ? res.status === 404 || res.status === 410 : res.ok;
  } catch {
    return false;
  }
}

// -> true when the error is a missing chunk being dealt with (the page is about to reload, or
// showError is called once the server has been asked and a reload would not help); false when
// the caller should show the error itself.
// beforeReload() writes into the address what the page was asked to show (a lesson chosen whose
// chunk was missing), so the reload lands there.
export function reloadIntoNewBuild(error, showError = () => {}, beforeReload = () => {}) {
  if (!missingChunk(error)) return false;
  const { waiting } = state;
  if (waiting) {
    waiting.show.push(showError);
    waiting.before.push(beforeReload);
    return true;
  }
  const store = session();
  if (!store || store.getItem(KEY) === error.message) return false;
  const asked = (state.waiting = { show: [showError], before: [beforeReload] });
  gone(error.message).then((yes) => {
    if (yes) {
      store.setItem(KEY, error.message);
      for (const f of asked.before) f();
      location.reload();
    } else {
      state.waiting = null;
      for (const f of asked.show) f();
    }
  });
  return true;
}

// After the page has started: whether it reloaded into a new build (the notice is shown once).
export function reloadedIntoNewBuild() {
  const store = session();
  if (!store || store.getItem(KEY) === null) return false;
  store.removeItem(KEY);
  return true;
}

// A chunk loaded on demand outside a lesson's own load (KaTeX, a view): Vite reports its failure
// here; the import still rejects (its caller says so) while the page checks and reloads.
if (typeof window !== 'undefined')
  window.addEventListener('vite:preloadError', (event) => reloadIntoNewBuild(event.payload));
