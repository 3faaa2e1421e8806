// <attention-lab>: one lesson of the tutorial inside any page, loaded by one script import.
//
//   <script type="module" src="https://school.example/lab/attention-lab.js"></script>
//   <attention-lab lesson="masks" stage="padding" preset="cat-chase" lang="en" seed="7"
//                  hide="inputs" height="640"></attention-lab>
//
// Attributes: lesson, stage, preset, lang, seed (as in the page's link), hide (control groups,
// separated by commas or spaces: inputs, stepper, footer), height (CSS pixels, or any CSS
// length; the element scrolls inside it), and state (any further fields of the page's link,
// e.g. "causal=1&fill=zero"). A bad value is reported inside the element and its default used.
//
// Each element keeps its own state (never the page's URL), and all of them share one engine
// (engine.js loads the wasm once per page). The element draws inside a shadow root: the host
// page's CSS cannot reach in and its own CSS cannot leak out. It fires `attention-lab-change`
// (detail: { lesson, stage, state }) after every change, e.g. a step chosen by the learner.

import labCss from '../styles/lab.css?inline';
import shellCss from './element-shell.css?inline';
import { FONTS_HREF, LAB_ROOT } from './root-url.js';
import { loadEngine } from '../engine/api.js';
import { chapters, loadChapter, loadedChapter, stageInChapter } from '../chapters/index.js';
import { mountChapter } from '../chapters/kit/shell.js';
import { buildSchema, parseHash, serializeHash, validatePatch } from './state.js';
import { detectLang, t as shellT, reason, clip, HTML_LANG } from '../text/i18n.js';
import { applyHide } from './hide.js';
import { h } from '../views/dom.js';
import { shadowCss } from './shadow-css.js';

export const schema = buildSchema(chapters);
export const ATTRIBUTES = ['lesson', 'stage', 'preset', 'lang', 'seed', 'hide', 'height', 'state'];
const FIELDS = ['lesson', 'stage', 'preset', 'lang', 'seed', 'hide']; // attributes that are state fields

let sheet = null; // one constructed stylesheet, adopted by every element
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(shadowCss(labCss + '\n' + shellCss));
  }
  return sheet;
}

// KaTeX's fonts are declared on the host document (a shadow root's @font-face is not read).
function addFonts(doc) {
  const href = FONTS_HREF;
  if ([...doc.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return;
  doc.head.append(h('link', { rel: 'stylesheet', href, 'data-attention-lab': 'fonts' }));
}

// The whole tutorial, for "Open in Attention Lab".
const FULL_PAGE = new URL('index.html', LAB_ROOT);

// The attributes as the page's hash text, read by the same schema.
function hashOf(el) {
  const parts = [];
  const extra = el.getAttribute('state');
  if (extra) parts.push(extra.replace(/^#/, ''));
  for (const name of FIELDS) {
    const v = el.getAttribute(name);
    if (v === null) continue;
    const text =
      name === 'hide'
        ? v
            .split(/[\s,]+/)
            .filter(Boolean)
            .map(encodeURIComponent)
            .join(',')
        : encodeURIComponent(v.trim());
    parts.push(`${name}=${text}`);
  }
  return parts.join('&');
}

// A CSS length from the height attribute: "640" is pixels; "" or a bad value is no height.
function heightOf(value) {
  if (value === null || value.trim() === '') return '';
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return `${v}px`;
  return CSS.supports('height', v) ? v : '';
}

export class AttentionLab extends HTMLElement {
  static observedAttributes = ATTRIBUTES;

  #state = null;
  #running = null; // the chapter on screen (./chapters/shell.js)
  #mounted = ''; // lesson:lang of the chapter on screen
  #engine = null;
  #restarting = false; // a fresh engine is being loaded after the last one stopped
  #started = false;
  #parts = null; // { lab, notice, body, article, foot, link }
  #base = null; // defaults that come from the reader (the language)

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  // The element's state (read-only) and its set(patch) -> errors ([] when applied).
  get state() {
    return this.#state;
  }
  get engine() {
    return this.#engine;
  }

  connectedCallback() {
    if (this.#started) {
      if (this.#state) this.#enter();
      return;
    }
    this.#started = true;
    this.shadowRoot.adoptedStyleSheets = [styleSheet()];
    addFonts(this.ownerDocument);
    const notice = h(
      'div',
      { class: 'notice', role: 'status', 'aria-live': 'polite', hidden: true },
      h('div', { class: 'notice-body' }),
      h('button', {
        type: 'button',
        class: 'notice-close',
        onclick: () => {
          notice.hidden = true;
        },
      }),
    );
    const article = h('article', { class: 'chapter' }, h('p', { class: 'loading' }));
    const link = h('a', { target: '_blank', rel: 'noopener' });
    const foot = h('p', { class: 'lab-foot', 'data-group': 'footer' }, link);
    const lab = h('div', { class: 'lab' }, notice, article, foot);
    this.shadowRoot.replaceChildren(lab);
    this.#parts = { lab, notice, article, foot, link };
    this.#base = {
      lang: detectLang(
        [this.ownerDocument.documentElement.lang, ...(navigator.languages || [navigator.language])].filter(Boolean),
      ),
    };
    this.#applyHeight();
    this.#start();
  }

  disconnectedCallback() {
    // Moved in the page: connectedCallback mounts again. Removed: the chapter's workers stop.
    if (this.#running) this.#running.leave();
    this.#running = null;
    this.#mounted = '';
  }

  attributeChangedCallback(name) {
    if (!this.#started) return;
    if (name === 'height') {
      this.#applyHeight();
      return;
    }
    if (!this.#state) return; // the first read happens in #start
    this.#readAttributes();
  }

  set(patch) {
    const check = validatePatch(patch, schema);
    if (!check.ok) return check.errors;
    if (patch.lesson !== undefined && !loadedChapter(patch.lesson)) {
      loadChapter(patch.lesson).then(
        () => this.set(patch),
        (e) => this.#notify(this.#t('chapterError', { msg: e.message })),
      );
      return [];
    }
    const prev = this.#state;
    let next = { ...prev, ...patch };
    if (next.lesson !== prev.lesson) next = { ...next, stage: patch.stage ?? '' };
    this.#state = stageInChapter(loadedChapter(next.lesson), next);
    this.#show(prev);
    return [];
  }

  #t(key, params) {
    return shellT(this.#state ? this.#state.lang : 'en', key, params);
  }

  #applyHeight() {
    if (!this.#parts) return;
    const height = heightOf(this.getAttribute('height'));
    this.#parts.lab.style.height = height;
  }

  async #start() {
    const engineLoad = loadEngine();
    engineLoad.catch(() => {}); // reported below, once the chapter is known
    // Attributes set while the chapter loaded (a page's script right after the element) count too.
    let first, asked;
    do {
      asked = hashOf(this);
      first = await this.#parse();
      if (!first) return;
    } while (hashOf(this) !== asked);
    this.#state = first.state;
    this.#parts.article.querySelector('.loading').textContent = this.#t('loading');
    try {
      this.#engine = await engineLoad;
    } catch (e) {
      this.#parts.article.querySelector('.loading').textContent = this.#t('engineFailed', { msg: e.message });
      return;
    }
    this.#report(first.problems);
    this.#show(null);
  }

  // The attributes read as a state (the lesson's chapter loaded): { state, problems } or null.
  async #parse() {
    const { state, problems } = parseHash(hashOf(this), schema, this.#base);
    try {
      const chapter = await loadChapter(state.lesson);
      return { state: stageInChapter(chapter, state, problems), problems };
    } catch (e) {
      this.#notify(shellT(state.lang, 'chapterError', { msg: e.message }));
      return null;
    }
  }

  async #readAttributes() {
    const asked = hashOf(this);
    const next = await this.#parse();
    if (!next || hashOf(this) !== asked) return; // changed again meanwhile: the later read wins
    const prev = this.#state;
    this.#state = next.state;
    this.#parts.notice.hidden = true;
    this.#report(next.problems);
    this.#show(prev);
  }

  #report(problems) {
    if (!problems.length) return;
    const lang = this.#state.lang;
    this.#notify(
      shellT(lang, 'badHash'),
      problems.slice(0, 20).map((p) => `${clip(p.key, 24)}=${clip(p.value)}: ${reason(lang, p.reason)}`),
    );
  }

  #notify(message, lines = []) {
    const { notice } = this.#parts;
    notice
      .querySelector('.notice-body')
      .replaceChildren(
        h('p', { text: message }),
        ...(lines.length ? [h('ul', {}, ...lines.map((l) => h('li', { text: l })))] : []),
      );
    notice.querySelector('.notice-close').textContent = this.#t('dismiss');
    notice.hidden = false;
  }

  // After a change: mount the chapter again when the lesson or language changed, else update it.
  #show(prev) {
    if (!this.#engine) return;
    const s = this.#state;
    if (
      !prev ||
      !this.#running ||
      s.lesson !== prev.lesson ||
      s.lang !== prev.lang ||
      this.#mounted !== `${s.lesson}:${s.lang}`
    )
      this.#enter();
    else this.#update();
    this.dispatchEvent(
      new CustomEvent('attention-lab-change', {
        detail: { lesson: s.lesson, stage: s.stage, state: s },
        bubbles: true,
        composed: true,
      }),
    );
  }

  #enter() {
    if (!this.#engine || !this.#state) return;
    if (this.#running) this.#running.leave();
    this.#running = null;
    const s = this.#state;
    const chapter = loadedChapter(s.lesson);
    const { lab, article } = this.#parts;
    lab.lang = HTML_LANG[s.lang];
    article.className = `chapter chapter-${chapter.id}`;
    article.replaceChildren();
    this.#mounted = `${s.lesson}:${s.lang}`;
    try {
      const env = {
        state: () => this.#state,
        set: (patch) => this.set(patch),
        engine: this.#engine,
        lang: s.lang,
        notify: (m, l) => this.#notify(m, l),
        engineStopped: () => this.#restartEngine(),
        chapters,
        schema,
      };
      this.#running = mountChapter(chapter, article, env);
      this.#update();
    } catch (e) {
      console.error(e);
      this.#notify(this.#t('chapterError', { msg: e.message }));
    }
  }

  // The engine stopped after an internal error: load a fresh one (every element gets the same
  // new instance), redraw with the same state and say so.
  #restartEngine() {
    if (this.#restarting) return;
    this.#restarting = true;
    loadEngine().then(
      (fresh) => {
        this.#restarting = false;
        this.#engine = fresh;
        this.#enter();
        this.#notify(this.#t('engineRestarted'));
      },
      (e) => {
        this.#restarting = false;
        this.#notify(this.#t('engineFailed', { msg: e.message }));
      },
    );
  }

  #update() {
    const s = this.#state;
    try {
      this.#running.update();
    } catch (e) {
      console.error(e);
      this.#notify(this.#t('chapterError', { msg: e.message }));
    }
    const { link } = this.#parts;
    link.textContent = this.#t('openFull');
    link.href = `${FULL_PAGE.href}#${serializeHash({ ...s, hide: [] }, schema, this.#base)}`;
    applyHide(this.shadowRoot, s.hide, (key, params) => this.#t(key, params));
  }
}

if (!customElements.get('attention-lab')) customElements.define('attention-lab', AttentionLab);
