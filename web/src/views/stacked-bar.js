// A stacked bar: one row of weights as the segments of a bar whose full width is 1 (softmax
// as a budget shared out among the keys), with a legend of the values. Values come from the
// caller (the engine); nothing here computes them. Each key has a colour and a fill pattern
// (./segments.js), repeated in the legend's swatch, so no segment is told apart by colour alone.

import { fmt, valuesLabel, colonAfter } from '../text/format.js';
import { h } from './dom.js';
import { createSaveButtons } from './save.js';
import { segmentStyle, patternShapes } from './segments.js';
import { BLACK, FRAME, INK } from './palette.js';

// Paints el with key k's colour and pattern (the pattern in the key's ink colour, half opaque).
function paint(el, k) {
  const { background, ink, pattern, patternOpacity } = segmentStyle(k);
  el.classList.add(`seg-pattern-${pattern}`);
  el.style.backgroundColor = background;
  el.style.setProperty('--pat', `rgba(${ink === BLACK ? '0, 0, 0' : '255, 255, 255'}, ${patternOpacity})`);
  return { background, ink };
}

// Key k's pattern over a rectangle of a saved figure, as the page paints it (paint above).
function pattern(k, x, y, w, h) {
  const { ink, pattern: name, patternOpacity } = segmentStyle(k);
  return patternShapes(name, x, y, w, h, ink, patternOpacity);
}

// The swatch of key k: its colour and pattern.
function swatch(k) {
  const sw = h('span', { class: 'stacked-swatch', 'aria-hidden': 'true' });
  paint(sw, k);
  return sw;
}

// A stacked bar: one row of weights as segments of a bar whose full width is 1.
//   const sb = createStacked(parent, { label, legend })   // legend: false when a shared key (below) names the segments
//   sb.update({ values, labels, caption, digits })
// Non-finite values (NaN, ±∞) get no width and are listed as flagged under the bar.
export function createStacked(parent, { label = '', legend: withLegend = true } = {}) {
  const figure = h('figure', { class: 'stacked' });
  const bar = h('div', { class: 'stacked-bar', role: 'img' });
  const legend = withLegend ? h('ul', { class: 'stacked-legend' }) : null;
  let last = null;
  const save = createSaveButtons(
    () => scene(),
    () => (last ? last.caption : label),
    () => ({ head: [], rows: last ? last.labels.map((l, k) => [l, last.vals[k]]) : [] }),
  );
  figure.append(...[bar, legend, save.el].filter(Boolean));
  parent.append(figure);

  // The figure for saving (./save.js): the caption, the bar's segments with their labels, and the legend.
  function scene() {
    const { vals, labels, caption, digits } = last;
    const W = 600,
      top = 30,
      barH = 34,
      ink = INK;
    const items = [
      {
        t: 'text',
        x: 8,
        y: 20,
        text: caption,
        size: 14,
        weight: 'bold',
        fill: ink,
        anchor: 'start',
        baseline: 'alphabetic',
      },
    ];
    const total = vals.reduce((s, v) => s + (Number.isFinite(v) && v > 0 ? v : 0), 0) || 1;
    let x = 8;
    vals.forEach((v, i) => {
      if (!(Number.isFinite(v) && v > 0)) return;
      const { background, ink: fg } = segmentStyle(i);
      const w = ((W - 16) * v) / total;
      items.push({ t: 'rect', x, y: top, w, h: barH, fill: background }, ...pattern(i, x, top, w, barH));
      if (v >= 0.08)
        items.push({
          t: 'text',
          x: x + w / 2,
          y: top + barH / 2,
          text: labels[i],
          size: 12,
          fill: fg,
          anchor: 'middle',
          baseline: 'middle',
        });
      x += w;
    });
    items.push({ t: 'rect', x: 8, y: top, w: W - 16, h: barH, fill: 'none', stroke: FRAME, sw: 1 });
    vals.forEach((v, i) => {
      const y = top + barH + 22 + i * 20;
      items.push(
        { t: 'rect', x: 8, y: y - 10, w: 12, h: 12, fill: segmentStyle(i).background },
        ...pattern(i, 8, y - 10, 12, 12),
      );
      items.push({
        t: 'text',
        x: 26,
        y,
        text: `${labels[i]} ${fmt(v, digits)}`,
        size: 12,
        fill: ink,
        anchor: 'start',
        baseline: 'alphabetic',
      });
    });
    return { width: W, height: top + barH + 22 + vals.length * 20, items };
  }

  function update({ values, labels, caption = label, digits = 3 }) {
    const vals = Array.from(values);
    last = { vals, labels, caption, digits };
    save.label();
    bar.setAttribute('aria-label', valuesLabel(caption, labels, vals, digits));
    bar.replaceChildren(
      ...vals.map((v, i) => {
        const ok = Number.isFinite(v) && v > 0;
        const seg = h('span', { class: 'stacked-seg', title: `${labels[i]}${colonAfter(labels[i])}${fmt(v, digits)}` });
        const { background, ink } = paint(seg, i);
        seg.style.flexGrow = ok ? String(v) : '0';
        seg.style.flexBasis = '0';
        seg.hidden = !ok;
        // The key's name inside the segment when there is room for it (about 8% of the bar), on a
        // plain chip of its colour; a narrower segment is known by its pattern and the legend.
        if (ok && v >= 0.08) {
          const text = h('span', { class: 'stacked-text', text: labels[i] });
          text.style.backgroundColor = background;
          text.style.color = ink;
          seg.append(text);
        }
        return seg;
      }),
    );
    if (legend) {
      legend.replaceChildren(
        ...vals.map((v, i) => {
          const flagged = !Number.isFinite(v);
          return h(
            'li',
            { class: flagged ? 'flagged' : '' },
            swatch(i),
            h('span', { text: `${labels[i]} ${fmt(v, digits)}` }),
          );
        }),
      );
    }
  }
  return { el: figure, update, destroy: () => figure.remove() };
}

// The key shared by several bars over the same labels: each label with its swatch.
//   const key = createStackedKey(parent, { label }); key.update(labels)
export function createStackedKey(parent, { label = '' } = {}) {
  const list = h('ul', { class: 'stacked-legend stacked-key', 'aria-label': label || null });
  parent.append(list);
  let shown = '';
  function update(labels) {
    const key = JSON.stringify(labels);
    if (key === shown) return;
    shown = key;
    list.replaceChildren(...labels.map((l, i) => h('li', {}, swatch(i), h('span', { text: l }))));
  }
  return { el: list, update };
}
