// Small figure helpers shared by the chapters (their input controls are ../../views/controls.js).

import { h } from '../../views/dom.js';
import { createHeatmap } from '../../views/heatmap.js';
import { heatmapStrings } from '../../text/i18n.js';

// A titled heatmap: { wrap, title, hm }. The heatmap speaks the page's language (c.views) and
// carries its accessible table (the "Show as table" toggle).
export function heatmapFigure(c, { kind = 'diverging', digits = 2, className = '' } = {}) {
  const title = h('h4', { class: 'map-title' });
  const wrap = h('div', { class: `map ${className}`.trim() }, title);
  const hm = createHeatmap(wrap, { kind, digits, strings: heatmapStrings(c.lang) });
  return { wrap, title, hm };
}

// Draws a heatmap figure: title text and the matrix with its labels.
export function drawFigure(fig, { title, matrix, rowLabels, colLabels, domain }) {
  if (fig.title.textContent !== title) fig.title.textContent = title;
  fig.hm.update({ matrix, rowLabels, colLabels, domain, caption: title });
}

// Column labels 1 … n (dimensions of a vector).
export const dims = (n) => Array.from({ length: n }, (_, j) => String(j + 1));
