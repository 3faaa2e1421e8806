// The one lifecycle of the tutorial, whatever holds it: the page (page.js, the URL hash), the
// <attention-lab> element (element.js, its attributes) and embed.html (embed.js, the frame's hash
// and postMessage) are thin adapters over createHost. The host loads the engine and the first
// chapter, keeps the one state object, mounts the chapter through the shell (chapters/kit/shell.js),
// and on every change: set state -> write the address -> update. It also reads a navigation (an
// address or attributes it did not write), loads a fresh engine after one stopped, and reports
// problems (a bad link, a chapter that failed) through its view.
//
//   const host = createHost({ base, view, address, remount });
//   remount(prev, next) -> whether a navigation mounts the chapter again (else it is updated)
//   await host.start(read, stable)  // read() -> the address text; stable(asked) -> nothing changed since
//   host.set(patch)                 // -> errors ([] when applied or on its way)
//   host.set(patch, { strict: true }) // the public set() of the element and the page: each
//                                   // field must have its JS type; errors carry a message
//   host.navigate(text)             // an address the host did not write: it wins (see below)
//   host.stay()                     // the address came back to what is on screen
//   host.enter(), host.leave()      // mount the chapter again / take it off (its workers stop)
//
// view (every hook optional unless marked): article(chapter, lang) -> the element to mount in
// (required; emptied), notify(message, lines) (required), clearNotice(), loading(rawState),
// failed('chapter' | 'engine', message, lang), updated(state) after every update, changed(state)
// after every change that was drawn, focus() after set() moved to another chapter, progress(statement)
// for each step seen, question answered, chapter completed and run learned (./progress.js;
// host.progress is the tracker: its snapshot() and restore()).
//
// address: { write(state, { entry }), accept() } (createHashWriter below, or nothing). entry: the
// change is a new history entry (another chapter or step). accept(): the address as it is now is
// the state's (a navigation landed): writes, blocked while a navigation was on its way, resume.
//
// Race guards. A navigation always wins over the state on screen: from the moment it comes until
// its chapter has loaded and is drawn, set() calls from the chapter on screen are ignored (its
// state is about to be replaced), and so are those from a chapter that has been left (a text field
// that commits its edit as it is removed). A navigation whose chapter is still loading when a newer
// one comes (or the address comes back to what is on screen) is dropped, and so is a change of
// chapter through set() whose chapter was still loading.

import { loadFirstEngine } from '../engine/api.js';
import {
  chapters,
  chapterEngine,
  loadChapter,
  loadChapterEngine,
  loadLessonEngine,
  loadedChapter,
  stageInChapter,
} from '../chapters/index.js';
import { mountChapter } from '../chapters/kit/shell.js';
import { buildSchema, checkSet, parseHash, validatePatch } from './state.js';
import { EXAMPLE_SHAPE } from '../lesson/example.js';
import { t as shellT, reason, clip } from '../text/i18n.js';
import { reloadIntoNewBuild, reloadedIntoNewBuild } from './stale.js';
import { createProgress } from './progress.js';

export const schema = buildSchema(chapters, EXAMPLE_SHAPE);

// A chapter's meta (id, title, state) always; the whole chapter once it has loaded.
export const chapterOf = (id) => loadedChapter(id) || chapters.find((c) => c.id === id) || chapters[0];

// Rewrites of the hash are throttled (at most one per HASH_MS, the last one always lands) because
// browsers slow down pages that call replaceState too often, e.g. while a slider is dragged.
const HASH_MS = 200;

// The hash follows the state. With `entries`, a change of chapter or step is a new history entry
// (Back returns to it); any other change rewrites the current entry. A navigation the host did not
// write (a link, a typed or pasted address, Back or Forward) always wins: from the moment the
// address changes until the host has drawn what it asks for (accept()), nothing is written into
// the address: a rewrite still pending from the state before is dropped (it would overwrite the
// learner's hash, or the entry Back went to), and so are the writes of any change made meanwhile.
//
//   const hash = createHashWriter({ serialize: (state) => '#' + ..., entries: true });
//   hash.write(state, { entry }), hash.accept(), hash.navigation() -> whether it is the state's own
//   hash (call it on hashchange: drops a pending rewrite), hash.hash, hash.flush() (pagehide),
//   hash.own() -> whether the current history entry is one the writer wrote (a link typed or
//   pasted is not: its entry carries no OWN)
// While a rewrite waits for its turn, <html> carries data-hash-pending: tests wait for it to go
// instead of waiting out the throttle.
const OWN = { attentionLab: true };
export function createHashWriter({ serialize, entries = true, ms = HASH_MS }) {
  let timer = 0;
  const pending = (on) => document.documentElement.toggleAttribute('data-hash-pending', on);
  let writtenAt = -Infinity;
  let stateHash = ''; // the hash of the state (the address shows it once the rewrite has landed)
  let shown = null; // what the address showed after our last write: anything else is a navigation
  const onItsWay = () => shown !== null && location.hash !== shown;
  function drop() {
    clearTimeout(timer);
    timer = 0;
    pending(false);
  }
  function flush() {
    drop();
    if (onItsWay()) return;
    writtenAt = performance.now();
    if (location.hash !== stateHash || !history.state?.attentionLab) history.replaceState(OWN, '', stateHash);
    shown = location.hash;
  }
  function rewrite() {
    if (timer) return;
    const wait = writtenAt + ms - performance.now();
    if (wait <= 0) return flush();
    timer = setTimeout(flush, wait);
    pending(true);
  }
  // A new history entry for the state: the current entry first gets its pending rewrite (so Back
  // returns to exactly what was on screen), then the new one is pushed.
  function push(hash) {
    if (timer) flush();
    stateHash = hash;
    if (onItsWay()) return;
    if (location.hash !== stateHash) history.pushState(OWN, '', stateHash);
    writtenAt = performance.now();
    shown = location.hash;
  }
  return {
    write(state, { entry = false } = {}) {
      const hash = serialize(state);
      if (entry && entries) return push(hash);
      stateHash = hash;
      rewrite();
    },
    accept() {
      shown = location.hash;
    },
    navigation() {
      drop();
      return location.hash === stateHash;
    },
    get hash() {
      return stateHash;
    },
    flush() {
      if (timer) flush();
    },
    own: () => !!history.state?.attentionLab,
  };
}

const NO_ADDRESS = { write() {}, accept() {} };

// navigation() -> whether the chapter shows its previous / next chapter links (an embedded lesson
// stays its lesson unless its author asks for them).
export function createHost({
  base,
  view,
  address = NO_ADDRESS,
  remount = () => false,
  navigation: withPath = () => true,
}) {
  const hooks = {
    clearNotice() {},
    loading() {},
    failed() {},
    updated() {},
    changed() {},
    focus() {},
    progress() {},
    ...view,
  };
  const addr = () => (typeof address === 'function' ? address() : address) || NO_ADDRESS;

  let state = null; // the one state object (replaced, never mutated)
  let engine = null; // the first part of the lessons' engine (api.js, loadFirstEngine), or the whole
  // The engine the chapters run on: the page starts on the first part of the lessons' engine (its
  // first figure comes sooner); once a chapter has needed the whole engine (its meta's engines:
  // ['full'], or a function the first part does not have), every chapter runs on that.
  const lessonEngine = () => chapterEngine('full') ?? engine;
  let running = null; // the chapter on screen, as mounted by the shell
  let mountedKey = ''; // lesson:lang of the chapter on screen
  // What the chapter on screen measured, trained and answered (the shell's c.kept): handed again to
  // the same lesson mounted anew (a language switch, a fresh engine, a navigation that redraws it),
  // dropped when another lesson is mounted.
  let kept = { lesson: null, store: null };
  let started = false; // the first chapter is on screen (until then start() reads the address)
  let restarting = false; // a fresh engine is being loaded after the last one stopped
  // The chapter on screen, as a token: set() calls from a chapter that has been left are ignored,
  // and so are those from the chapter a navigation is leaving (navigating).
  let mounted = null;
  let navigating = false;
  let navigation = 0; // navigations so far: one still loading when a newer one comes is dropped
  // The language the learner chose (set() with a lang): not a step of the lesson, so Back and
  // Forward through the host's own history entries keep it (a link that names another one wins).
  let chosenLang = null;

  const progress = createProgress({ emit: (statement) => hooks.progress(statement), chapterOf });
  const t = (key, params) => shellT(state ? state.lang : 'en', key, params);
  const notify = (message, lines) => hooks.notify(message, lines);
  const normalise = (s, problems) => stageInChapter(chapterOf(s.lesson), s, problems);

  // The address read as a state, its lesson's chapter loaded (chapters load on first use).
  async function parse(text) {
    const { state: s, problems } = parseHash(text, schema, base);
    await loadChapter(s.lesson);
    return { state: normalise(s, problems), problems };
  }

  // A chapter that could not be loaded: said so, unless it is a file of an older build that the
  // server no longer has (a deploy while the page was open): then the page reloads into the new
  // build (./stale.js).
  function chapterFailed(e, beforeReload) {
    const show = () => notify(t('chapterError', { msg: e.message }));
    if (!reloadIntoNewBuild(e, show, beforeReload)) show();
  }

  function report(problems) {
    if (!problems.length) return;
    // Keys and values as they came in the link, cut short: a link may hold a megabyte of anything.
    notify(
      t('badHash'),
      problems.slice(0, 20).map((p) => `${clip(p.key, 24)}=${clip(p.value)}: ${reason(state.lang, p.reason)}`),
    );
  }

  function update() {
    if (!running) return;
    try {
      performance.mark('attn-update-start');
      running.update();
      performance.mark('attn-update-end');
      performance.measure('attn-update', 'attn-update-start', 'attn-update-end');
    } catch (e) {
      console.error(e);
      notify(t('chapterError', { msg: e.message }));
    }
    hooks.updated(state);
  }

  function leave() {
    mounted = null;
    if (running) running.leave();
    running = null;
    mountedKey = '';
  }

  function enter() {
    if (!engine || !state) return;
    leave();
    const ch = chapterOf(state.lesson);
    const lang = state.lang;
    const root = hooks.article(ch, lang);
    if (kept.lesson !== state.lesson) kept = { lesson: state.lesson, store: {} };
    try {
      const token = {};
      mounted = token;
      mountedKey = `${state.lesson}:${lang}`;
      const env = {
        state: () => state,
        set: (patch) => (mounted === token && !navigating ? set(patch) : []),
        // 'answered' (kit/predict.js) and 'learned' (kit/training.js), from the chapter on screen
        progress: (kind, detail) => {
          if (mounted === token && !navigating && (kind === 'answered' || kind === 'learned'))
            progress[kind](state, detail);
        },
        engine: lessonEngine(),
        lang,
        kept: kept.store,
        notify,
        engineStopped: restartEngine,
        engineMissing: wholeEngine,
        chapters,
        schema,
        path: withPath(),
      };
      running = mountChapter(ch, root, env);
    } catch (e) {
      console.error(e);
      notify(t('chapterError', { msg: e.message }));
      return;
    }
    update();
  }

  // After a change: mount the chapter again when the lesson or language changed, else update it.
  function show(prev, { always = false } = {}) {
    if (always || !prev || !running || state.lesson !== prev.lesson || state.lang !== prev.lang) enter();
    else if (mountedKey !== `${state.lesson}:${state.lang}`) enter();
    else update();
    hooks.changed(state);
    progress.visited(state);
  }

  // The engine's module stopped after an internal error (engine/api.js, code 'engine-stopped'):
  // load a fresh one (every host of the page gets the same new instance), keep the state, redraw
  // the chapter and say what happened.
  function restartEngine() {
    if (restarting) return;
    restarting = true;
    const whole = !!chapterEngine('full');
    (whole ? loadChapterEngine('full') : loadFirstEngine()).then(
      (fresh) => {
        restarting = false;
        if (!whole) engine = fresh;
        enter();
        notify(t('engineRestarted'));
      },
      (e) => {
        restarting = false;
        notify(t('engineFailed', { msg: e.message }));
      },
    );
  }

  // The chapter met a function the first part of the engine does not have: the whole engine is
  // loaded and the chapter drawn again on it.
  function wholeEngine() {
    if (chapterEngine('full')) return;
    loadChapterEngine('full').then(enter, (e) => notify(t('engineFailed', { msg: e.message })));
  }

  // Merges a patch into the state: refused (errors returned, nothing changes) when it breaks the
  // schema; otherwise writes the address and redraws.
  // What is stored is what was checked (validatePatch reads the caller's object once and parses
  // each value back from its text), never the caller's object.
  function set(raw, { strict = false } = {}) {
    const check = strict ? checkSet(raw, schema, state ? state.lang : 'en') : validatePatch(raw, schema);
    if (!check.ok) return check.errors;
    const patch = check.patch;
    if (!state) return [];
    if (patch.lang !== undefined) chosenLang = patch.lang;
    // Another chapter that has not loaded yet: the state changes once it has (unless a navigation
    // came meanwhile).
    if (patch.lesson !== undefined && !loadedChapter(patch.lesson)) {
      const nav = navigation;
      loadChapter(patch.lesson).then(
        () => {
          if (nav === navigation) set(patch);
        },
        (e) => chapterFailed(e, () => addr().write({ ...state, ...patch, stage: patch.stage ?? '' }, { entry: true })),
      );
      return [];
    }
    const prev = state;
    const next = { ...state, ...patch };
    state = next.lesson !== prev.lesson ? normalise({ ...next, stage: patch.stage ?? '' }) : normalise(next);
    if (!engine) return [];
    addr().write(state, { entry: state.lesson !== prev.lesson || state.stage !== prev.stage });
    show(prev);
    if (state.lesson !== prev.lesson) hooks.focus();
    return [];
  }

  // An address the host did not write: the state is read from it alone and the chapter drawn
  // again (an edit left uncommitted in a field is dropped with the field).
  function navigate(text) {
    if (!started) return; // start() reads the address once the engine and chapter have loaded
    const nav = ++navigation;
    navigating = true;
    parse(text).then(
      ({ state: s, problems }) => {
        if (nav !== navigation) return; // a newer navigation came while the chapter loaded
        navigating = false;
        const prev = state;
        const keepLang = chosenLang && s.lang !== chosenLang && addr().own?.();
        state = keepLang ? { ...s, lang: chosenLang } : s;
        addr().accept(); // the learner's address: rewritten as the state's
        addr().write(state);
        hooks.clearNotice();
        report(problems);
        show(prev, { always: remount(prev, state) });
      },
      (e) => {
        if (nav !== navigation) return;
        navigating = false;
        addr().accept();
        chapterFailed(e);
      },
    );
  }

  // The address is back to what is on screen: a navigation still loading is dropped.
  function stay() {
    navigation++;
    navigating = false;
  }

  // The engine and the first chapter load side by side. An address changed while they load (a
  // link followed, Back, attributes set by the page's script) is read again: the latest wins.
  async function start(read, stable = (asked) => read() === asked) {
    const raw = parseHash(read(), schema, base).state;
    const engineLoad = loadLessonEngine(raw.lesson);
    engineLoad.catch(() => {}); // reported below, once the chapter is known
    hooks.loading(raw);
    let first;
    for (;;) {
      const asked = read();
      try {
        first = await parse(asked);
      } catch (e) {
        const show = () => hooks.failed('chapter', shellT(raw.lang, 'chapterError', { msg: e.message }), raw.lang);
        if (!reloadIntoNewBuild(e, show)) show();
        return false;
      }
      state = first.state;
      try {
        engine = await engineLoad;
      } catch (e) {
        hooks.failed('engine', shellT(state.lang, 'engineFailed', { msg: e.message }), state.lang);
        return false;
      }
      if (stable(asked)) break;
    }
    report(first.problems);
    addr().accept();
    addr().write(state);
    started = true;
    show(null);
    // After the first figure: sessionStorage's first read can wait on the browser.
    if (reloadedIntoNewBuild()) notify(t('reloadedNewBuild'));
    return true;
  }

  return {
    get state() {
      return state;
    },
    get engine() {
      return engine && lessonEngine();
    },
    get started() {
      return started;
    },
    progress,
    set,
    navigate,
    stay,
    start,
    enter,
    leave,
    notify,
  };
}
