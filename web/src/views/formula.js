// KaTeX rendered into an element; skips the work when the TeX did not change.
//
// KaTeX (the largest script of the page, and its fonts after it) loads on demand: when a formula
// comes within NEAR of the screen, at the learner's first pointer or key press, or when
// drawFormulas() asks (printing, tests, a course page). Until then a formula keeps its TeX in
// data-tex and its place on the page (.formula-pending); once KaTeX is there, every formula asked
// for is drawn, and every later one at once. A lesson whose formulas sit below the fold shows its
// figures without downloading KaTeX at all.

import { NAN } from './palette.js';

const NEAR = '200px';
let katex = null;
let loading = null;
const waiting = new Set(); // elements with a formula to draw once KaTeX is there

// The macros the page's TeX uses (text/format.js's tex()): NaN in the palette's colour. The
// colour stays out of the formulas' TeX, where its hex digits would read as numbers to set in place.
export const MACROS = { '\\NaN': `\\textcolor{${NAN}}{\\text{NaN}}` };

// A formula KaTeX cannot parse is shown as its TeX in plain text (class formula-error), never
// as KaTeX's own error span, whose inline style a page's style-src 'self' refuses; nothing
// is thrown past this. A formula that differs from the one drawn only in its numbers has them
// set in place (patch) instead of being built again: KaTeX's parse and the new nodes' style and
// layout were most of the cost of an edit. The last few drawings of other shapes are kept, so a
// formula coming back (a step visited again) is not built again either.
function draw(el) {
  el.classList.remove('formula-pending');
  const tex = el.dataset.tex;
  const options = {
    displayMode: el.dataset.display === 'true',
    throwOnError: true,
    strict: 'ignore',
    output: 'htmlAndMathml',
    macros: MACROS,
  };
  const shape = shapeOf(tex, options);
  let known = plans.get(el);
  if (known && el.firstChild !== known.root) known = null; // drawn over since
  if (known?.slots && known.shape === shape) return patch(known, tex);
  // A drawing of this shape that el showed before (a step the learner comes back to) goes back
  // in, with its numbers set in place, or as it was when the TeX is the same.
  const back = known?.shape === shape ? null : swapKept(el, known, shape);
  if (back && (back.slots || back.tex === tex)) {
    el.replaceChildren(back.root);
    plans.set(el, back);
    if (back.slots) patch(back, tex);
    return;
  }
  try {
    katex.render(tex, el, options);
    el.classList.remove('formula-error');
  } catch {
    el.textContent = tex;
    el.classList.add('formula-error');
    plans.delete(el);
    return;
  }
  // A shape seen twice in a row is learnt (a formula whose shape changes at every edit never is).
  const learnt = known?.shape === shape && !known.failed ? learn(el, tex, options) : null;
  plans.set(el, learnt ?? { shape, tex, root: el.firstChild, failed: known?.shape === shape });
}

// The drawings an element showed before, one per shape, the newest last: the one of `shape`
// taken out, the one on screen (known) put in.
const kept = new WeakMap(); // element -> Map(shape -> drawing)
const KEPT = 8;
function swapKept(el, known, shape) {
  let drawings = kept.get(el);
  if (!drawings) kept.set(el, (drawings = new Map()));
  const back = drawings.get(shape) ?? null;
  drawings.delete(shape);
  if (known) {
    drawings.delete(known.shape);
    drawings.set(known.shape, known);
    if (drawings.size > KEPT) drawings.delete(drawings.keys().next().value);
  }
  return back;
}

// ---- numbers set in place -------------------------------------------------------------------

// A formula's numbers: runs of digits with a decimal point inside, and signed numbers written as
// a text of their own (\text{−0.30}, \text{(−0.30)} in a product, \text{4.6×10⁻³}): their sign is a character
// of the same text node, so a formula whose signs change keeps its shape. The shape is the TeX
// with each number as #: two formulas of one shape differ in their numbers only. (A length, such
// as 0.25em, is not a number.)
const SIGNED = '−?\\d+(?:\\.\\d+)?(?:×10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?'; // −4.6×10⁻³
const NUMBER = new RegExp(`(?<=\\\\text\\{)(?:\\(${SIGNED}\\)|${SIGNED})(?=\\})|\\d+(?:\\.\\d+)?(?![\\d.]|em)`, 'g');
const DRAWN = new RegExp(`\\(${SIGNED}\\)|${SIGNED}`, 'g'); // the same, in the drawing's text
const shapeOf = (tex, options) => `${options.displayMode}${tex.replace(NUMBER, '#')}`;
const plans = new WeakMap(); // element -> its drawing: { shape, root, slots } (or { shape, tex, root, failed })

// Where each number of tex sits in el's drawing. KaTeX draws the TeX twice more into a spare
// element: with number k written k, and with each signed one written (−k). When the three
// drawings have the same elements, classes and inline styles (KaTeX's heights and depths), the
// numbers and their signs change only text, and the first of the two tells which text holds
// which number. -> { shape, root, slots: [{ node, parts }] } (parts: the node's text as strings
// and number indices), or null when the drawings differ otherwise.
function learn(el, tex, options) {
  const numbers = tex.match(NUMBER);
  if (!numbers) return null;
  const probe = (signed) => {
    let k = 0;
    const t = tex.replace(NUMBER, (x, at) => (signed && tex.endsWith('\\text{', at) ? `(−${k++})` : `${k++}`));
    const root = document.createElement('div');
    try {
      katex.render(t, root, options);
    } catch {
      return null;
    }
    return root;
  };
  const drawings = [el, probe(false), probe(true)].map((root) => root && read(root));
  if (drawings.some((d) => !d || d.tags !== drawings[0].tags || d.texts.length !== drawings[0].texts.length))
    return null;
  const [real, indexed] = drawings;
  const slots = [];
  for (let t = 0; t < real.texts.length; t++) {
    const node = real.texts[t];
    const numbered = indexed.texts[t].data;
    const pattern = node.parentNode.nodeName === 'annotation' ? NUMBER : DRAWN; // the TeX itself
    if (node.data.replace(pattern, '#') !== numbered.replace(pattern, '#')) return null;
    if (!/\d/.test(numbered)) continue; // no number in it: the same text in every drawing
    const parts = [];
    let at = 0;
    for (const m of numbered.matchAll(pattern)) {
      parts.push(numbered.slice(at, m.index), +m[0]);
      at = m.index + m[0].length;
    }
    parts.push(numbered.slice(at));
    if (fill(parts, numbers) !== node.data) return null; // read wrongly: never set in place
    slots.push({ node, parts });
  }
  return { shape: shapeOf(tex, options), root: el.firstChild, slots };
}

// A drawing's text nodes, and its elements with their classes and styles as one string.
function read(root) {
  const texts = [];
  let tags = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if (n.nodeType === Node.TEXT_NODE) texts.push(n);
    else tags += `<${n.nodeName} ${n.getAttribute('class')} ${n.getAttribute('style')}>`;
  return { texts, tags };
}

const fill = (parts, numbers) => parts.map((p, k) => (k % 2 ? numbers[p] : p)).join('');

function patch(plan, tex) {
  const numbers = tex.match(NUMBER);
  for (const { node, parts } of plan.slots) {
    const text = fill(parts, numbers);
    if (node.data !== text) node.data = text;
  }
}

// Loads KaTeX (once) and draws every formula waiting for it; resolves when they are drawn. A
// failed download (the network dropped) is tried again at the next trigger, or at once when a
// trigger came while it was on its way (that press is not lost).
let again = false;
export function drawFormulas() {
  if (loading && !katex) again = true;
  loading ??= import('katex').then(
    (m) => {
      katex = m.default;
      observer?.disconnect();
      listen(false);
      for (const el of waiting) if (el.isConnected) draw(el);
      waiting.clear();
    },
    (e) => {
      loading = null;
      if (again) {
        again = false;
        trigger();
      }
      throw e;
    },
  );
  return loading;
}
const trigger = () => {
  drawFormulas().catch(() => {});
}; // the formulas keep waiting

// The learner's first pointer or key press, and printing, load KaTeX too.
const TRIGGERS = ['pointerdown', 'keydown', 'beforeprint'];
function listen(on) {
  if (typeof addEventListener !== 'function') return;
  for (const type of TRIGGERS)
    (on ? addEventListener : removeEventListener)(type, trigger, { capture: true, passive: true });
}

// Where nothing can tell that a formula is near the screen (no IntersectionObserver), KaTeX
// loads at once.
const observer =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) trigger();
        },
        { rootMargin: NEAR },
      )
    : null;
listen(true);
if (!observer) trigger();

export function renderFormula(el, tex, { display = true } = {}) {
  if (el.dataset.tex === tex) return;
  el.dataset.tex = tex;
  el.dataset.display = String(display);
  if (katex) return draw(el);
  el.classList.add('formula-pending');
  waiting.add(el);
  observer?.observe(el);
}
