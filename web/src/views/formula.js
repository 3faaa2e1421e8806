// KaTeX rendered into an element; skips the work when the TeX did not change.
//
// KaTeX (the largest script of the page) loads beside the first chapter, not before it, and the
// first formulas are typeset in a task of their own after the one that drew the chapter: the
// first figures reach the screen without waiting for either. formulasReady resolves once KaTeX
// is there and every formula asked for until then is drawn; from then on formulas are drawn
// at once.

let katex = null;
const waiting = new Map(); // element -> display, drawn when formulasReady settles

function draw(el, display) {
  katex.render(el.dataset.tex, el, { displayMode: display, throwOnError: false, strict: 'ignore', output: 'htmlAndMathml' });
}

export const formulasReady = import('katex')
  .then((m) => new Promise((resolve) => { setTimeout(() => resolve(m.default), 0); }))
  .then((k) => {
    katex = k;
    for (const [el, display] of waiting) draw(el, display);
    waiting.clear();
  });

export function renderFormula(el, tex, { display = true } = {}) {
  if (el.dataset.tex === tex) return;
  el.dataset.tex = tex;
  if (katex) draw(el, display);
  else waiting.set(el, display);
}
