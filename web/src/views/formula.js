// KaTeX rendered into an element; skips the work when the TeX did not change.
//
// KaTeX (the largest script of the page, and its fonts after it) loads on demand: when a formula
// comes within NEAR of the screen, at the learner's first pointer or key press, or when
// drawFormulas() asks (printing, tests, a course page). Until then a formula keeps its TeX in
// data-tex and its place on the page (.formula-pending); once KaTeX is there, every formula asked
// for is drawn, and every later one at once. A lesson whose formulas sit below the fold shows its
// figures without downloading KaTeX at all.

const NEAR = '200px';
let katex = null;
let loading = null;
const waiting = new Set(); // elements with a formula to draw once KaTeX is there

// A formula KaTeX cannot parse is shown as its TeX in plain text (class formula-error), never
// as KaTeX's own error span, whose inline style a page's style-src 'self' refuses; nothing
// is thrown past this.
function draw(el) {
  el.classList.remove('formula-pending');
  try {
    katex.render(el.dataset.tex, el, {
      displayMode: el.dataset.display === 'true',
      throwOnError: true,
      strict: 'ignore',
      output: 'htmlAndMathml',
    });
    el.classList.remove('formula-error');
  } catch {
    el.textContent = el.dataset.tex;
    el.classList.add('formula-error');
  }
}

// Loads KaTeX (once) and draws every formula waiting for it; resolves when they are drawn. A
// failed download (the network dropped) is tried again at the next trigger.
export function drawFormulas() {
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
