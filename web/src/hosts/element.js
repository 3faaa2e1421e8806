// <attention-lab>: one lesson of the tutorial inside any page, loaded by one script import.
//
//   <script type="module" src="https://school.example/lab/attention-lab.js"></script>
//   <attention-lab lesson="masks" stage="padding" preset="cat-chase" lang="en" seed="7"
//                  hide="inputs" height="640"></attention-lab>
//
// Attributes: lesson, stage, preset, lang, seed (as in the page's link), hide (control groups,
// separated by commas or spaces: inputs, stepper, footer), height (CSS pixels, or any CSS
// length; the element scrolls inside it), model-src (the real-model lesson's checkpoint hosted by
// the course: the URL of its model.safetensors, its config.json beside it; the link's modelSrc),
// and state (any further fields of the page's link, e.g. "causal=1&fill=zero"). A bad value is
// reported inside the element and its default used.
// offline (or offline=1 in state, or in embed.html's hash): keep the tutorial for offline use
// once the page is idle (./offline.js); without it an embedded lesson caches nothing.
//
// Each element keeps its own state (never the page's URL), and all of them share one engine
// (engine.js loads the wasm once per page). The element draws inside a shadow root: the host
// page's CSS cannot reach in and its own CSS cannot leak out. It fires `attention-lab-change`
// (detail: { lesson, stage, state }) after every change, e.g. a step chosen by the learner, and
// `attention-lab-progress` (detail: an xAPI-shaped statement, ./progress.js) for every step seen,
// question answered, chapter completed and training run learned. `element.progress` is what the
// learner has done so far (plain JSON), and setting it restores that (a host that keeps it).

import labCss from '../styles/lab.css?inline';
import shellCss from './element-shell.css?inline';
import { FONTS_HREF, LAB_ROOT } from './root-url.js';
import { createHost, schema } from './host.js';
import { checkSet, serializeHash } from './state.js';
import { t as shellT, HTML_LANG } from '../text/i18n.js';
import { detectLang } from './visit.js';
import { applyHide } from './hide.js';
import { h } from '../views/dom.js';
import { shadowCss } from './shadow-css.js';
import { cannotStart, langOf, misbehavingBuiltin } from './start-check.js';
import { registerOffline } from './offline.js';

export { schema };
export const ATTRIBUTES = ['lesson', 'stage', 'preset', 'lang', 'seed', 'hide', 'height', 'state', 'model-src'];
const FIELDS = ['lesson', 'stage', 'preset', 'lang', 'seed', 'hide']; // attributes that are state fields

// A page whose built-ins misbehave gets a message instead of a lab (./start-check.js).
const brokenBuiltin = misbehavingBuiltin();

// One constructed stylesheet, adopted by every element.
const sheet = new CSSStyleSheet();
if (!brokenBuiltin) sheet.replaceSync(shadowCss(labCss + '\n' + shellCss));

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
  const src = el.getAttribute('model-src');
  if (src !== null) parts.push(`modelSrc=${encodeURIComponent(src.trim())}`);
  return parts.join('&');
}

// A CSS length from the height attribute: "640" (or "640px") is pixels, kept within
// HEIGHT.min..HEIGHT.max (clamped: { css, clamped: { asked, used } }); any other CSS length is
// held to the same range by clamp(); "" or a bad value is no height.
const HEIGHT = { min: 120, max: 20000 };
function heightOf(value) {
  if (value === null || value.trim() === '') return { css: '' };
  const v = value.trim();
  const px = /^(\d+(?:\.\d+)?|\d*\.\d+)(?:px)?$/i.exec(v);
  if (px) {
    const asked = Number(px[1]);
    const used = Math.min(HEIGHT.max, Math.max(HEIGHT.min, asked));
    return { css: `${used}px`, clamped: used === asked ? null : { asked: v, used } };
  }
  if (!CSS.supports('height', v)) return { css: '' };
  return { css: `clamp(${HEIGHT.min}px, ${v}, ${HEIGHT.max}px)` };
}

// Marks the lab's own element class, in every copy of the lab's script.
const LAB = Symbol.for('attention-lab');

export class AttentionLab extends HTMLElement {
  static observedAttributes = ATTRIBUTES;
  static [LAB] = true;

  #host = null; // the lifecycle (./host.js), made when the element first connects
  #parts = null; // { lab, notice, article, foot, link }
  #address = null; // where the state is written besides the event (embed.js: the frame's hash)
  #lang = 'en'; // the language the element starts in (before its state is known)
  #progress = null; // progress given before the element started: restored when it starts

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  // The element's state (read-only) and its set(patch) -> errors ([] when applied).
  get state() {
    return this.#host ? this.#host.state : null;
  }
  get engine() {
    return this.#host ? this.#host.engine : null;
  }
  // An address the state is also written into, with the host's race guards (./host.js
  // createHashWriter): embed.html writes the frame's hash through it.
  set address(writer) {
    this.#address = writer;
  }
  // What the learner has done (./progress.js snapshot()); setting it restores it, reporting nothing.
  get progress() {
    return this.#host ? this.#host.progress.snapshot() : this.#progress;
  }
  set progress(snapshot) {
    if (this.#host) this.#host.progress.restore(snapshot);
    else this.#progress = snapshot;
  }

  connectedCallback() {
    if (this.#host) {
      this.#host.enter();
      return;
    }
    if (brokenBuiltin) return cannotStart(this.shadowRoot, langOf(this), 'builtinsBroken', brokenBuiltin);
    try {
      this.#start();
    } catch (e) {
      cannotStart(this.shadowRoot, langOf(this), 'startFailed', e && e.message ? e.message : String(e));
    }
  }

  // The first connection: the element's parts, its host and the first chapter.
  #start() {
    this.shadowRoot.adoptedStyleSheets = [sheet];
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
    const base = {
      lang: detectLang(
        [this.ownerDocument.documentElement.lang, ...(navigator.languages || [navigator.language])].filter(Boolean),
      ),
    };
    this.#lang = base.lang;
    // An embedded lesson stays its lesson: no previous / next chapter links unless the author asks
    // for them (<attention-lab navigation>).
    this.#host = createHost({
      base,
      address: () => this.#address,
      view: this.#view(base),
      navigation: () => this.hasAttribute('navigation'),
    });
    if (this.#progress) this.#host.progress.restore(this.#progress);
    this.#applyHeight();
    // Attributes set while the chapter loaded (a page's script right after the element) count too.
    this.#host.start(() => hashOf(this));
  }

  disconnectedCallback() {
    // Moved in the page: connectedCallback mounts again. Removed: the chapter's workers stop.
    if (this.#host) this.#host.leave();
  }

  // A change of the attributes is a navigation: the latest wins (./host.js).
  attributeChangedCallback(name) {
    if (!this.#host) return;
    if (name === 'height') this.#applyHeight();
    else this.#host.navigate(hashOf(this));
  }

  // Before the element has started too, a bad call gets its errors (the schema's, with a message).
  set(patch) {
    if (this.#host) return this.#host.set(patch, { strict: true });
    const check = checkSet(patch, schema);
    return check.ok ? [] : check.errors;
  }

  #applyHeight() {
    if (!this.#parts) return;
    const { css, clamped } = heightOf(this.getAttribute('height'));
    this.#parts.lab.style.height = css;
    if (clamped) {
      const attr = this.getAttribute('lang');
      const lang = this.state ? this.state.lang : attr === 'en' || attr === 'zh' ? attr : this.#lang;
      this.#host.notify(shellT(lang, 'heightClamped', { ...clamped, ...HEIGHT }));
    }
  }

  #fire(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  // The host's view: the element's shadow root.
  #view(base) {
    const { lab, notice, article, link } = this.#parts;
    const t = (key, params) => shellT(this.state ? this.state.lang : 'en', key, params);
    const loading = (text) => {
      const p = article.querySelector('.loading');
      if (p) p.textContent = text;
    };
    const notify = (message, lines = []) => {
      notice
        .querySelector('.notice-body')
        .replaceChildren(
          h('p', { text: message }),
          ...(lines.length ? [h('ul', {}, ...lines.map((l) => h('li', { text: l })))] : []),
        );
      notice.querySelector('.notice-close').textContent = t('dismiss');
      notice.hidden = false;
    };
    return {
      article(chapter, lang) {
        lab.lang = HTML_LANG[lang];
        article.className = `chapter chapter-${chapter.id}`;
        article.replaceChildren();
        return article;
      },
      notify,
      clearNotice: () => {
        notice.hidden = true;
      },
      loading: (raw) => loading(shellT(raw.lang, 'loading')),
      failed: (kind, message) => (kind === 'engine' ? loading(message) : notify(message)),
      updated: (s) => {
        link.textContent = t('openFull');
        link.href = `${FULL_PAGE.href}#${serializeHash({ ...s, hide: [] }, schema, base)}`;
        applyHide(this.shadowRoot, s.hide, (key, params) => t(key, params));
      },
      changed: (s) => {
        if (!this.dataset.offline && (s.offline || this.hasAttribute('offline'))) registerOffline(this);
        this.#fire('attention-lab-change', { lesson: s.lesson, stage: s.stage, state: s });
      },
      progress: (statement) => this.#fire('attention-lab-progress', statement),
    };
  }
}

// Another copy of the lab (a second script of it) already draws every <attention-lab>; another
// element of that name leaves this one nothing to draw in, which is said.
const defined = customElements.get('attention-lab');
if (!defined) customElements.define('attention-lab', AttentionLab);
else if (!defined[LAB]) cannotStart(null, 'en', 'otherElement', String(defined.name || 'an anonymous class'));
