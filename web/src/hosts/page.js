// The page (index.html, started by ./boot.js): the host (./host.js) over the URL hash. This file
// only wires the page's own DOM to it: the notice region, the shell around the chapter (title,
// language switch, chapter list, footer), hash changes and anchors, and window.attentionLab for the
// console and tests.

import { chapters } from '../chapters/index.js';
import { createHost, createHashWriter, chapterOf, schema } from './host.js';
import { serializeHash } from './state.js';
import { applyHide } from './hide.js';
import { drawFormulas } from '../views/formula.js';
import { registerOffline } from './offline.js';
import { t as shellT, LANG_NAMES, HTML_LANG } from '../text/i18n.js';
import { browserLang } from './visit.js';
import { createEmbedDialog } from './embed-dialog.js';

const base = { lang: browserLang() };

const $ = (sel) => document.querySelector(sel);
const main = $('#main');
const notice = $('#notice');

// The hash follows the state: another chapter or step is a new history entry (./host.js).
const hash = createHashWriter({ serialize: (state) => '#' + serializeHash(state, schema, base) });
window.addEventListener('pagehide', () => hash.flush());

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

// The build's picture of the first screen (./visit.js) gives way to the page's own header and
// chapter.
function dropFirstScreen() {
  for (const el of document.querySelectorAll('.first-screen')) el.remove();
  $('header.site-header').hidden = false;
  $('#loading')?.classList.remove('visually-hidden');
}

// ---- the shell ----------------------------------------------------------------------------

// "Embed": the code that puts the step on screen into a course page (./embed-dialog.js).
const embed = createEmbedDialog({
  state: () => host.state,
  schema,
  title: (state) => `${shellT(state.lang, 'title')}: ${chapterOf(state.lesson).title[state.lang]}`,
});
$('.lang-switch').before(embed.button);

// A link to a lesson, as a new tab or a copied address opens it.
const lessonHref = (id, lang) => `#lesson=${id}&lang=${lang}`;
// A click the page handles itself (a modified or middle click is the browser's: a new tab).
const plainClick = (e) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

function renderShell(state) {
  const lang = state.lang;
  document.documentElement.lang = HTML_LANG[lang];
  $('#site-title').textContent = shellT(lang, 'title');
  $('#site-tagline').textContent = shellT(lang, 'tagline');
  $('#lang-label').textContent = shellT(lang, 'language');
  $('.skip-link').textContent = shellT(lang, 'skip');
  embed.sync(lang);
  notice.querySelector('.notice-close').textContent = shellT(lang, 'dismiss');
  for (const b of document.querySelectorAll('.lang-switch button')) {
    b.textContent = LANG_NAMES[b.dataset.lang];
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
  }
  const nav = $('#chapter-nav');
  if (!nav.querySelector('.nav-list')) {
    // The start page (home) leads the list unnumbered; the chapters are numbered from 1. Each is
    // a link to its lesson (a new tab, a copied address); a plain click stays on the page. The
    // list (the <nav>, which holds only the links) folds behind one button before it that names
    // the chapter on screen, and opens over the page: Escape or a click elsewhere folds it again.
    const course = chapters.filter((c) => !c.home);
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.className = 'nav-toggle';
    toggle.setAttribute('aria-expanded', 'false');
    toggle.setAttribute('aria-controls', 'chapter-list');
    const fold = (open) => {
      toggle.setAttribute('aria-expanded', String(open));
      nav.classList.toggle('open', open);
    };
    toggle.addEventListener('click', () => fold(toggle.getAttribute('aria-expanded') !== 'true'));
    nav.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !nav.classList.contains('open')) return;
      fold(false);
      toggle.focus();
    });
    document.addEventListener('click', (e) => {
      if (nav.classList.contains('open') && !nav.contains(e.target)) fold(false);
    });
    const list = document.createElement('nav');
    list.className = 'nav-list';
    list.id = 'chapter-list';
    list.append(
      ...chapters.map((c) => {
        const a = document.createElement('a');
        a.dataset.lesson = c.id;
        a.addEventListener('click', (e) => {
          if (!plainClick(e)) return;
          e.preventDefault();
          fold(false);
          host.set({ lesson: c.id, stage: '' });
        });
        if (!c.home)
          a.append(
            Object.assign(document.createElement('span'), {
              className: 'nav-num',
              textContent: `${course.indexOf(c) + 1}`,
            }),
          );
        a.append(Object.assign(document.createElement('span'), { className: 'nav-title' }));
        return a;
      }),
    );
    nav.replaceChildren(toggle, list);
  }
  nav.querySelector('.nav-list').setAttribute('aria-label', shellT(lang, 'chapters'));
  for (const a of nav.querySelectorAll('.nav-list a')) {
    const c = chapterOf(a.dataset.lesson);
    a.href = lessonHref(c.id, lang);
    a.querySelector('.nav-title').textContent = c.title[lang] ?? c.title.en;
    if (c.id === state.lesson) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const course = chapters.filter((c) => !c.home);
  const here = chapterOf(state.lesson);
  const k = course.findIndex((c) => c.id === here.id);
  nav.querySelector('.nav-toggle').textContent =
    k < 0
      ? (here.title[lang] ?? here.title.en)
      : shellT(lang, 'nav.menu', { n: k + 1, total: course.length, title: here.title[lang] ?? here.title.en });
  document.title = `${chapterOf(state.lesson).title[lang]} · ${shellT(lang, 'title')}`;
  if (host.engine)
    $('#footer').textContent = shellT(lang, 'footer', { build: host.engine.simd ? 'SIMD128' : 'scalar' });
}

// ---- the host ------------------------------------------------------------------------------

// Whether two states differ in nothing but the step.
const stepOnly = (a, b) =>
  !!a && Object.keys({ ...a, ...b }).every((k) => k === 'stage' || JSON.stringify(a[k]) === JSON.stringify(b[k]));
// Whether a text field of the chapter has the focus (it may hold an edit not yet committed).
const editing = () =>
  !!document.activeElement?.matches('main textarea, main input:not([type="checkbox"], [type="radio"], [type="range"])');

const host = createHost({
  base,
  address: hash,
  // A hash navigation draws the chapter again from the hash alone (an edit left in a field is
  // dropped with the field), except Back or Forward between two steps of the chapter on screen
  // with no field being edited: drawn as the step bar draws it, so trained runs and workers stay.
  remount: (prev, next) => !stepOnly(prev, next) || editing(),
  view: {
    // The chapter's article, in a fresh <main> (with the shell around it in the chapter's language).
    article(ch, lang) {
      dropFirstScreen();
      main.replaceChildren();
      main.lang = HTML_LANG[lang];
      const root = document.createElement('article');
      root.className = `chapter chapter-${ch.id}`;
      main.append(root);
      renderShell(host.state);
      return root;
    },
    notify,
    clearNotice: () => {
      notice.hidden = true;
    },
    loading(raw) {
      renderShell({ ...raw, stage: '' });
      $('#loading').textContent = shellT(raw.lang, 'loading');
    },
    failed: (kind, message) => {
      dropFirstScreen();
      $('#loading').textContent = message;
    },
    // Hide-flags for embedding: #hide=inputs,nav hides every [data-group=inputs] and [data-group=nav]
    // (hidden inputs leave their values as text: ./hide.js).
    updated: (state) => applyHide(document, state.hide, (key, params) => shellT(state.lang, key, params)),
    // A new chapter starts at its heading: the focus goes to it and it is scrolled to the top.
    focus: () => {
      const heading = main.querySelector('h2');
      if (!heading) return main.focus();
      heading.focus({ preventScroll: true });
      heading.scrollIntoView({ block: 'start' });
    },
  },
});

// ---- start --------------------------------------------------------------------------------

for (const b of document.querySelectorAll('.lang-switch button')) {
  b.addEventListener('click', () => host.set({ lang: b.dataset.lang }));
}

// A navigation anchor (#main from "Skip to content", or any #id of the page) is not state:
// it moves the focus there and the state's hash is put back.
function isAnchor(h) {
  const id = h.replace(/^#/, '');
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

// A link, a typed address, Back or Forward: the host reads the state from the hash (./host.js).
window.addEventListener('hashchange', () => {
  if (!host.started) return; // start() reads the address once the page has loaded
  if (hash.navigation()) {
    // What is on screen already (a navigation whose chapter is still loading is dropped).
    host.stay();
    hash.accept();
    return;
  }
  if (isAnchor(location.hash)) {
    // An anchor of the page: the focus goes there and the state's hash is put back.
    host.stay();
    const id = location.hash.slice(1);
    history.replaceState(null, '', hash.hash || '#');
    hash.accept();
    goToAnchor(id);
    return;
  }
  host.navigate(location.hash);
});

async function start() {
  if (isAnchor(location.hash)) history.replaceState(null, '', location.pathname + location.search);
  // A hash set while the page loads (a link followed, Back) is read again: the latest wins; an
  // anchor followed meanwhile is put back as the hash that was read.
  const drawn = await host.start(
    () => location.hash,
    (asked) => {
      if (isAnchor(location.hash)) history.replaceState(null, '', location.pathname + location.search + asked);
      return location.hash === asked;
    },
  );
  if (!drawn) return;
  document.documentElement.dataset.ready = 'true'; // the chapter is drawn (its formulas on demand)
  // For the console, course pages and tests: the engine, the state, and drawing every formula now.
  window.attentionLab = {
    get engine() {
      return host.engine;
    },
    schema,
    get state() {
      return host.state;
    },
    set: (patch) => host.set(patch, { strict: true }),
    formulas: drawFormulas,
  };
  registerOffline();
}

start();
