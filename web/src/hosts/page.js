// The one wiring file: loads the engine, reads the hash into the state, mounts the chapter
// through the shell (chapters/shell.js), and on every change: set state -> write hash -> update.

import '../styles/lab.css';
import { loadEngine } from '../engine/api.js';
import { chapters, loadChapter, loadedChapter, stageInChapter } from '../chapters/index.js';
import { mountChapter } from '../chapters/kit/shell.js';
import { buildSchema, parseHash, serializeHash, validatePatch } from './state.js';
import { applyHide as hideGroups } from './hide.js';
import { drawFormulas } from '../views/formula.js';
import { registerOffline } from './offline.js';
import { detectLang, t as shellT, reason, clip, LANG_NAMES, HTML_LANG } from '../text/i18n.js';

const schema = buildSchema(chapters);
const base = {
  lang: detectLang(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]),
};

const $ = (sel) => document.querySelector(sel);
const main = $('#main');
const notice = $('#notice');

let state = null; // the one state object (replaced, never mutated)
let engine = null;
let running = null; // the chapter on screen, as mounted by the shell
let started = false; // the first chapter is on screen (until then start() reads the hash)

// A chapter's meta (id, title, state) always; the whole chapter once it has loaded.
const chapterOf = (id) => loadedChapter(id) || chapters.find((c) => c.id === id) || chapters[0];

// A stage that belongs to the lesson (its chapter has loaded): the first step when missing or unknown.
const normaliseStage = (s, problems) => stageInChapter(chapterOf(s.lesson), s, problems);

// The state the hash asks for, once its chapter has loaded (chapters load on first use).
async function readHash() {
  const { state: s, problems } = parseHash(location.hash, schema, base);
  await loadChapter(s.lesson);
  return { state: normaliseStage(s, problems), problems };
}

// The hash follows the state. A change of chapter or step is a new history entry (Back
// returns to it); any other change (a slider, a typed value) rewrites the current entry.
// Rewrites are throttled (at most one per HASH_MS, the last one always lands) because
// browsers slow down pages that call replaceState too often, e.g. while a slider is dragged.
const HASH_MS = 200;
// A navigation the page did not write (a link, a typed or pasted address, Back or Forward)
// always wins over the state on screen. From the moment the address changes until the page has
// drawn what it asks for (its chapter may still be loading), the page writes nothing into the
// address: a rewrite still pending from the state before is dropped (it would overwrite the
// learner's hash, or the entry Back went to), and so are the writes of any change made
// meanwhile. The navigation then writes its own state's hash.
let hashTimer = 0;
let hashWrittenAt = -Infinity;
let stateHash = ''; // the hash of the state (the address shows it once the rewrite has landed)
let shownHash = null; // what the address showed after our last write: anything else is a navigation
const navigationOnItsWay = () => shownHash !== null && location.hash !== shownHash;
function flushHash() {
  clearTimeout(hashTimer);
  hashTimer = 0;
  if (navigationOnItsWay()) return;
  hashWrittenAt = performance.now();
  if (location.hash !== stateHash) history.replaceState(null, '', stateHash);
  shownHash = location.hash;
}
function dropPendingHash() {
  clearTimeout(hashTimer);
  hashTimer = 0;
}
function writeHash() {
  stateHash = '#' + serializeHash(state, schema, base);
  if (hashTimer) return;
  const wait = hashWrittenAt + HASH_MS - performance.now();
  if (wait <= 0) flushHash();
  else hashTimer = setTimeout(flushHash, wait);
}
// A new history entry for the state: the current entry first gets its pending rewrite (so Back
// returns to exactly what was on screen), then the new one is pushed.
function pushHash() {
  if (hashTimer) flushHash();
  stateHash = '#' + serializeHash(state, schema, base);
  if (navigationOnItsWay()) return;
  if (location.hash !== stateHash) history.pushState(null, '', stateHash);
  hashWrittenAt = performance.now();
  shownHash = location.hash;
}
window.addEventListener('pagehide', () => {
  if (hashTimer) flushHash();
});

// ---- the notice region ---------------------------------------------------------------------

function notify(message, lines = []) {
  const body = notice.querySelector('.notice-body');
  body.replaceChildren();
  const p = document.createElement('p');
  p.textContent = message;
  body.append(p);
  if (lines.length) {
    const ul = document.createElement('ul');
    for (const l of lines) {
      const li = document.createElement('li');
      li.textContent = l;
      ul.append(li);
    }
    body.append(ul);
  }
  notice.hidden = false;
}
notice.querySelector('.notice-close').addEventListener('click', () => {
  notice.hidden = true;
});

function notifyProblems(problems) {
  if (!problems.length) return;
  // Keys and values as they came in the link, cut short: a link may hold a megabyte of anything.
  notify(
    shellT(state.lang, 'badHash'),
    problems.slice(0, 20).map((p) => `${clip(p.key, 24)}=${clip(p.value)}: ${reason(state.lang, p.reason)}`),
  );
}

// ---- the shell ----------------------------------------------------------------------------

function renderShell() {
  const lang = state.lang;
  document.documentElement.lang = HTML_LANG[lang];
  $('#site-title').textContent = shellT(lang, 'title');
  $('#site-tagline').textContent = shellT(lang, 'tagline');
  $('#lang-label').textContent = shellT(lang, 'language');
  $('.skip-link').textContent = shellT(lang, 'skip');
  notice.querySelector('.notice-close').textContent = shellT(lang, 'dismiss');
  for (const b of document.querySelectorAll('.lang-switch button')) {
    b.textContent = LANG_NAMES[b.dataset.lang];
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
  }
  const nav = $('#chapter-nav');
  nav.setAttribute('aria-label', shellT(lang, 'chapters'));
  if (nav.childElementCount !== chapters.length) {
    // The start page (home) leads the list unnumbered; the chapters are numbered from 1.
    const course = chapters.filter((c) => !c.home);
    nav.replaceChildren(
      ...chapters.map((c) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.lesson = c.id;
        b.addEventListener('click', () => set({ lesson: c.id, stage: '' }));
        if (!c.home)
          b.append(
            Object.assign(document.createElement('span'), {
              className: 'nav-num',
              textContent: `${course.indexOf(c) + 1}`,
            }),
          );
        b.append(Object.assign(document.createElement('span'), { className: 'nav-title' }));
        return b;
      }),
    );
  }
  for (const b of nav.children) {
    const c = chapterOf(b.dataset.lesson);
    b.querySelector('.nav-title').textContent = c.title[lang] ?? c.title.en;
    if (c.id === state.lesson) b.setAttribute('aria-current', 'page');
    else b.removeAttribute('aria-current');
  }
  document.title = `${chapterOf(state.lesson).title[lang]} · ${shellT(lang, 'title')}`;
  if (engine) $('#footer').textContent = shellT(lang, 'footer', { build: engine.simd ? 'SIMD128' : 'scalar' });
}

// Hide-flags for embedding: #hide=inputs,nav hides every [data-group=inputs] and [data-group=nav]
// (hidden inputs leave their values as text: ./hide.js).
function applyHide() {
  hideGroups(document, state.hide, (key, params) => shellT(state.lang, key, params));
}

// ---- chapters -----------------------------------------------------------------------------

// The chapter on screen, as a token: set() calls from a chapter that has been left (a text
// field that commits its edit as it is removed from the page) are ignored, and so are those
// from the chapter a hash navigation is leaving (navigating: its state is about to be replaced).
let mounted = null;
let navigating = false;
// Hash navigations so far: one whose chapter is still loading when a newer one comes is dropped,
// and so is a change of chapter through set() whose chapter was still loading.
let navigation = 0;

function enterChapter() {
  mounted = null;
  if (running) running.leave();
  running = null;
  const ch = chapterOf(state.lesson);
  const lang = state.lang;
  main.replaceChildren();
  main.lang = HTML_LANG[lang];
  const root = document.createElement('article');
  root.className = `chapter chapter-${ch.id}`;
  main.append(root);
  renderShell();
  try {
    const token = {};
    mounted = token;
    const env = {
      state: () => state,
      set: (patch) => (mounted === token && !navigating ? set(patch) : []),
      engine,
      lang,
      notify,
      engineStopped: restartEngine,
      chapters,
      schema,
    };
    running = mountChapter(ch, root, env);
    runUpdate();
  } catch (e) {
    console.error(e);
    notify(shellT(lang, 'chapterError', { msg: e.message }));
  }
}

// The engine's module stopped after an internal error (engine.js, code 'engine-stopped'):
// load a fresh one, keep the state, redraw the chapter and say what happened.
let restarting = false;
function restartEngine() {
  if (restarting) return;
  restarting = true;
  loadEngine().then(
    (fresh) => {
      restarting = false;
      engine = fresh;
      enterChapter();
      notify(shellT(state.lang, 'engineRestarted'));
    },
    (e) => {
      restarting = false;
      notify(shellT(state.lang, 'engineFailed', { msg: e.message }));
    },
  );
}

function runUpdate() {
  if (!running) return;
  performance.mark('attn-update-start');
  running.update();
  performance.mark('attn-update-end');
  performance.measure('attn-update', 'attn-update-start', 'attn-update-end');
  applyHide();
}

// Merges a patch into the state: refused (errors returned, nothing changes) when it breaks
// the schema; otherwise writes the hash and redraws.
function set(patch) {
  const check = validatePatch(patch, schema);
  if (!check.ok) return check.errors;
  // Another chapter that has not loaded yet: the state changes once it has.
  if (patch.lesson !== undefined && !loadedChapter(patch.lesson)) {
    const nav = navigation;
    loadChapter(patch.lesson).then(
      () => {
        if (nav === navigation) set(patch);
      },
      (e) => notify(shellT(state.lang, 'chapterError', { msg: e.message })),
    );
    return [];
  }
  const prev = state;
  state = { ...state, ...patch };
  if (state.lesson !== prev.lesson) state = normaliseStage({ ...state, stage: patch.stage ?? '' });
  else state = normaliseStage(state);
  if (state.lesson !== prev.lesson || state.stage !== prev.stage) pushHash();
  else writeHash();
  if (state.lesson !== prev.lesson || state.lang !== prev.lang) {
    enterChapter();
    if (state.lesson !== prev.lesson) main.focus({ preventScroll: false });
  } else {
    try {
      runUpdate();
    } catch (e) {
      console.error(e);
      notify(shellT(state.lang, 'chapterError', { msg: e.message }));
    }
  }
  return [];
}

// ---- start --------------------------------------------------------------------------------

for (const b of document.querySelectorAll('.lang-switch button')) {
  b.addEventListener('click', () => set({ lang: b.dataset.lang }));
}

// A navigation anchor (#main from "Skip to content", or any #id of the page) is not state:
// it moves the focus there and the state's hash is put back.
function isAnchor(hash) {
  const id = hash.replace(/^#/, '');
  return id !== '' && !id.includes('=') && !id.includes('&') && document.getElementById(id) !== null;
}
function goToAnchor(id) {
  const el = document.getElementById(id);
  if (!el) return;
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
  el.scrollIntoView();
}
document.querySelector('.skip-link').addEventListener('click', (e) => {
  e.preventDefault();
  goToAnchor('main');
});

// A link, a typed address, Back or Forward: the state is read from the hash and the chapter
// drawn again from it alone (an edit left uncommitted in a field is dropped with the field).
window.addEventListener('hashchange', () => {
  if (!started) return; // start() reads the address once the page has loaded
  const nav = ++navigation;
  dropPendingHash();
  if (location.hash === stateHash) {
    // What is on screen already (a navigation whose chapter is still loading is dropped).
    navigating = false;
    shownHash = location.hash;
    return;
  }
  if (isAnchor(location.hash)) {
    // An anchor of the page: the focus goes there and the state's hash is put back.
    navigating = false;
    const id = location.hash.slice(1);
    history.replaceState(null, '', stateHash || '#');
    shownHash = location.hash;
    goToAnchor(id);
    return;
  }
  navigating = true;
  readHash().then(
    ({ state: s, problems }) => {
      if (nav !== navigation) return; // a newer navigation came while the chapter loaded
      navigating = false;
      state = s;
      shownHash = location.hash; // the learner's hash: rewritten as the state's
      writeHash();
      notice.hidden = true;
      notifyProblems(problems);
      enterChapter();
    },
    (e) => {
      if (nav !== navigation) return;
      navigating = false;
      shownHash = location.hash;
      notify(shellT(state.lang, 'chapterError', { msg: e.message }));
    },
  );
});

async function start() {
  if (isAnchor(location.hash)) history.replaceState(null, '', location.pathname + location.search);
  // The engine and the first chapter load side by side.
  const engineLoad = loadEngine();
  const raw = parseHash(location.hash, schema, base).state;
  state = { ...raw, stage: '' };
  renderShell();
  $('#loading').textContent = shellT(state.lang, 'loading');
  // A hash set while the page loads (a link followed, Back) is read again: the latest wins.
  let first, asked;
  for (;;) {
    asked = location.hash;
    try {
      first = await readHash();
    } catch (e) {
      $('#loading').textContent = shellT(state.lang, 'chapterError', { msg: e.message });
      return;
    }
    try {
      engine = await engineLoad;
    } catch (e) {
      $('#loading').textContent = shellT(state.lang, 'engineFailed', { msg: e.message });
      return;
    }
    if (isAnchor(location.hash)) history.replaceState(null, '', location.pathname + location.search + asked);
    if (location.hash === asked) break;
  }
  state = first.state;
  notifyProblems(first.problems);
  shownHash = location.hash;
  writeHash();
  started = true;
  enterChapter();
  document.documentElement.dataset.ready = 'true'; // the chapter is drawn (its formulas on demand)
  // For the console, course pages and tests: the engine, the state, and drawing every formula now.
  window.attentionLab = {
    get engine() {
      return engine;
    },
    schema,
    get state() {
      return state;
    },
    set,
    formulas: drawFormulas,
  };
  registerOffline();
}

start();
