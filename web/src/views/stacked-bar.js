// A stacked bar: one row of weights as the segments of a bar whose full width is 1 (softmax
// as a budget shared out among the keys), with a legend of the values. Values come from the
// caller (the engine); nothing here computes them.

import { fmt, valuesLabel, colonAfter } from '../format.js';
import { h } from './dom.js';

// Ten colour-blind-safe segment colours (Okabe–Ito, then two greys), with the text colour each needs.
const SEGMENTS = [
  ['#0072B2', '#fff'], ['#E69F00', '#000'], ['#009E73', '#fff'], ['#CC79A7', '#000'], ['#56B4E9', '#000'],
  ['#D55E00', '#fff'], ['#F0E442', '#000'], ['#000000', '#fff'], ['#999999', '#000'], ['#666666', '#fff'],
];

// A stacked bar: one row of weights as segments of a bar whose full width is 1.
//   const sb = createStacked(parent, { label })
//   sb.update({ values, labels, caption, digits })
// Non-finite values (NaN, ±∞) get no width and are listed as flagged under the bar.
export function createStacked(parent, { label = '' } = {}) {
  const figure = h('figure', { class: 'stacked' });
  const bar = h('div', { class: 'stacked-bar', role: 'img' });
  const legend = h('ul', { class: 'stacked-legend' });
  figure.append(bar, legend);
  parent.append(figure);

  function update({ values, labels, caption = label, digits = 3 }) {
    const vals = Array.from(values);
    bar.setAttribute('aria-label', valuesLabel(caption, labels, vals, digits));
    bar.replaceChildren(...vals.map((v, i) => {
      const [bg, ink] = SEGMENTS[i % SEGMENTS.length];
      const ok = Number.isFinite(v) && v > 0;
      const seg = h('span', { class: 'stacked-seg', title: `${labels[i]}${colonAfter(labels[i])}${fmt(v, digits)}` });
      seg.style.flexGrow = ok ? String(v) : '0';
      seg.style.flexBasis = '0';
      seg.style.background = bg;
      seg.style.color = ink;
      seg.hidden = !ok;
      // A label inside the segment only when there is room for it (about 8% of the bar).
      if (ok && v >= 0.08) seg.textContent = labels[i];
      return seg;
    }));
    legend.replaceChildren(...vals.map((v, i) => {
      const [bg] = SEGMENTS[i % SEGMENTS.length];
      const sw = h('span', { class: 'stacked-swatch', 'aria-hidden': 'true' });
      sw.style.background = bg;
      const flagged = !Number.isFinite(v);
      return h('li', { class: flagged ? 'flagged' : '' }, sw, h('span', { text: `${labels[i]} ${fmt(v, digits)}` }));
    }));
  }
  return { el: figure, update, destroy: () => figure.remove() };
}
