// KaTeX rendered into an element; skips the work when the TeX did not change.
//
// KaTeX (the largest script of the page) loads beside the first chapter, not before it: a
// formula asked for before it has arrived is drawn when it does, so the first heatmap need not
// wait for it. formulasReady resolves once KaTeX is there and every formula asked for is drawn.

let katex = null;
const waiting = new Map(); // element -> display, drawn when KaTeX arrives

function draw(el, display) {
  katex.render(el.dataset.tex, el, { displayMode: display, throwOnError: false, strict: 'ignore', output: 'htmlAndMathml' });
}

export const formulasReady = import('katex').then((m) => {
  katex = m.default;
  for (const [el, display] of waiting) draw(el, display);
  waiting.clear();
});

export function renderFormula(el, tex, { display = true } = {}) {
  if (el.dataset.tex === tex) return;
  el.dataset.tex = tex;
  if (katex) draw(el, display);
  else waiting.set(el, display);
}
