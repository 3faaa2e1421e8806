// What a visit asks for, and the first screen of the built page.
//
// The built page's first script (index.html, first in <head>, async and render-blocking: it
// arrives before the stylesheet, and the page is not painted before it has run; the build adds it:
// vite.config.js). It imports nothing, and it decides what downloads first:
//   1. The first screen. On a first visit (nothing kept in this browser, no offline copy yet) to a
//      link that names at most a lesson and a language, the page shows the build's picture of that
//      lesson's first screen: the page itself, drawn by the engine when the site was built
//      (scripts/first-screens.mjs), at a wide or a narrow width, in the visit's language. It is
//      inert (nothing in it but the title can be reached) and ./page.js replaces it with the live
//      chapter.
//   2. Then the page: its scripts and the engine's wasm, which the build keeps in
//      <template id="page-start"> so that they do not share the first round trips with the first
//      screen, and the chunks of the lesson the link opens (listed in the page:
//      <script type="application/json" id="lesson-chunks">).
// In development, in embed.html and in the element there is no such data and nothing to do; the
// exports below serve every host.

// The lesson a link names (state.js reads the whole hash; a lesson it would not accept is only a
// chapter loaded early for nothing).
export const linkedLesson = /(?:^#|&)lesson=([\w-]+)/.exec(globalThis.location?.hash ?? '')?.[1];

// 'zh' for any Chinese language in the list, else 'en' (the first of the two to appear).
export function detectLang(languages) {
  const list = Array.isArray(languages) ? languages : [languages];
  for (const l of list) {
    if (typeof l !== 'string') continue;
    if (/^zh\b/i.test(l)) return 'zh';
    if (/^en\b/i.test(l)) return 'en';
  }
  return 'en';
}

// The browser's language, as the page starts in it.
export const browserLang = () =>
  detectLang(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);

// Anything this lab keeps in a browser is under a localStorage key that starts with this
// (chapters/kit/predict.js: the answers). A visit with such a key is not a first visit.
export const KEPT = 'attention-lab';

// The narrow picture at the page's own breakpoint (styles/base.css). A media query, because
// reading the window's width would wait for the page's first layout.
const NARROW = '(max-width: 700px)';

const listed = (id) => {
  const el = globalThis.document?.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
};

// The picture's files for this visit ([html, its images...]), or none when the page draws its
// first screen itself.
function screenFiles(screens) {
  const asked = new URLSearchParams(location.hash.slice(1));
  if ([...asked.keys()].some((k) => k !== 'lesson' && k !== 'lang')) return [];
  if (navigator.serviceWorker?.controller) return []; // the offline copy: the page is as quick
  const lang = asked.get('lang') ?? browserLang();
  const width = matchMedia(NARROW).matches ? 'narrow' : 'wide';
  return screens[`${asked.get('lesson') ?? ''}.${lang}.${width}`] ?? []; // '': the start page
}

// Whether this browser keeps anything of the lab.
function kept() {
  try {
    return Object.keys(localStorage).some((k) => k.startsWith(KEPT));
  } catch {
    return false; // storage blocked: nothing kept
  }
}

// Puts the picture in place, inert: its header in place of the page's own (hidden until the page
// draws the chapter) and its chapter in <main>, each element with the style it had (set through
// the CSSOM, which a strict Content-Security-Policy allows). It is laid out while its images
// download; it counts as shown once they are in.
async function showScreen([file, ...images]) {
  if (kept()) return;
  const asked = fetch(file, { priority: 'high' });
  for (const src of images) new Image().src = src; // beside the HTML, not after it
  const response = await asked;
  if (!response.ok) return;
  const text = await response.text();
  const holder = document.createElement('div');
  holder.innerHTML = text;
  for (const el of holder.querySelectorAll('[data-style]')) {
    el.style.cssText = el.dataset.style;
    delete el.dataset.style;
  }
  const [header, chapter] = holder.children;
  const own = document.querySelector('header.site-header');
  const main = document.getElementById('main');
  const loading = document.getElementById('loading');
  if (!header || !chapter || !own || !main || !loading) return;
  // Inert: nothing in it can be clicked or focused before the page runs. The title stays
  // readable (the page's one <h1> while its own header is hidden), and so does "Loading…".
  for (const el of [...header.children, chapter]) el.inert = !el.querySelector('h1');
  own.after(header); // after: the page's scripts find their own header's parts first
  own.hidden = true;
  loading.classList.add('visually-hidden');
  main.append(chapter);
  // (Its images were asked for beside it: they are usually in by now.)
  const arriving = [...chapter.querySelectorAll('img')].filter((img) => !img.complete);
  await Promise.all(arriving.map((img) => img.decode().catch(() => {})));
  document.documentElement.dataset.firstScreen = 'shown';
  // The page's scripts start once this frame is out: their first tasks would hold it back.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}

function startPage(chunks) {
  for (const href of Object.hasOwn(chunks, linkedLesson ?? '') ? chunks[linkedLesson] : [])
    document.head.append(
      Object.assign(document.createElement('link'), { rel: 'modulepreload', crossOrigin: '', href }),
    );
  const held = document.getElementById('page-start');
  if (held) document.head.append(document.importNode(held.content, true));
}

const screens = listed('first-screens');
const chunks = listed('lesson-chunks');
if (chunks) {
  const files = screens ? screenFiles(screens) : [];
  // A picture that fails to arrive only leaves the first screen to the page.
  (files.length ? showScreen(files).catch(() => {}) : Promise.resolve()).then(() => startPage(chunks));
}
