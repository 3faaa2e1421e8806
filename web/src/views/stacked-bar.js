// A stacked bar: one row of weights as the segments of a bar whose full width is 1 (softmax
// as a budget shared out among the keys), with a legend of the values. Values come from the
// caller (the engine); nothing here computes them.

import { fmt, valuesLabel, colonAfter } from '../format.js';
import { h } from './dom.js';
import { createSaveButtons } from './save.js';

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
  let last = null;
  const save = createSaveButtons(() => scene(), () => (last ? last.caption : label));
  figure.append(bar, legend, save.el);
  parent.append(figure);

  // The figure for saving (./save.js): the caption, the bar's segments with their labels, and the legend.
  function scene() {
    const { vals, labels, caption, digits } = last;
    const W = 600, top = 30, barH = 34, ink = '#1b1d23';
    const items = [{ t: 'text', x: 8, y: 20, text: caption, size: 14, weight: 'bold', fill: ink, anchor: 'start', baseline: 'alphabetic' }];
    const total = vals.reduce((s, v) => s + (Number.isFinite(v) && v > 0 ? v : 0), 0) || 1;
    let x = 8;
    vals.forEach((v, i) => {
      if (!(Number.isFinite(v) && v > 0)) return;
      const [bg, fg] = SEGMENTS[i % SEGMENTS.length];
      const w = ((W - 16) * v) / total;
      items.push({ t: 'rect', x, y: top, w, h: barH, fill: bg });
      if (v >= 0.08) items.push({ t: 'text', x: x + w / 2, y: top + barH / 2, text: labels[i], size: 12, fill: fg, anchor: 'middle', baseline: 'middle' });
      x += w;
    });
    items.push({ t: 'rect', x: 8, y: top, w: W - 16, h: barH, fill: 'none', stroke: '#8a92a0', sw: 1 });
    vals.forEach((v, i) => {
      const y = top + barH + 22 + i * 20;
      items.push({ t: 'rect', x: 8, y: y - 10, w: 12, h: 12, fill: SEGMENTS[i % SEGMENTS.length][0] });
      items.push({ t: 'text', x: 26, y, text: `${labels[i]} ${fmt(v, digits)}`, size: 12, fill: ink, anchor: 'start', baseline: 'alphabetic' });
    });
    return { width: W, height: top + barH + 22 + vals.length * 20, items };
  }

  function update({ values, labels, caption = label, digits = 3 }) {
    const vals = Array.from(values);
    last = { vals, labels, caption, digits };
    save.label();
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
