// KaTeX rendered into an element; skips the work when the TeX did not change.

import katex from 'katex';

export function renderFormula(el, tex, { display = true } = {}) {
  if (el.dataset.tex === tex) return;
  el.dataset.tex = tex;
  katex.render(tex, el, { displayMode: display, throwOnError: false, strict: 'ignore', output: 'htmlAndMathml' });
}
