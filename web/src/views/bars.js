// A horizontal bar chart of one row of numbers (e.g. the attention weights of one query),
// drawn with d3 scales and an axis. Values come from the caller (the engine); nothing is
// computed here but positions.

import { scaleBand, scaleLinear } from 'd3-scale';
import { axisBottom } from 'd3-axis';
import { select } from 'd3-selection';
import { max } from 'd3-array';
import { fmt, valuesLabel } from '../text/format.js';
import { createSaveButtons, svgScene } from './save.js';
import { WEIGHT } from './palette.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Text and attributes are set only when they changed (setting either restyles the element);
// a text is changed in its text node, which lays out less than a new node.
function setText(el, text) {
  const node = el.firstChild;
  if (node && node.nodeType === Node.TEXT_NODE && !node.nextSibling) {
    if (node.data !== text) node.data = text;
  } else if (el.textContent !== text) el.textContent = text;
}
function attrs(selection, values) {
  const entries = Object.entries(values);
  selection.each(function (d, i) {
    for (const [name, f] of entries) {
      const v = String(typeof f === 'function' ? f(d, i) : f);
      if (this.getAttribute(name) !== v) this.setAttribute(name, v);
    }
  });
}

export function createBars(parent, { label = '', color = WEIGHT } = {}) {
  const figure = document.createElement('figure');
  figure.className = 'bars';
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('role', 'img');
  let title = label;
  let shown = { values: [], labels: [] }; // the last update's numbers (for "Copy the numbers")
  const save = createSaveButtons(
    () => svgScene(svg, { title }),
    () => title,
    () => ({ head: [], rows: shown.labels.map((l, k) => [l, shown.values[k]]) }),
  );
  figure.append(svg, save.el);
  parent.append(figure);

  let axisKey = '';
  // values: numbers ; labels: strings ; highlight: index or -1 ; domain: [lo, hi] or auto.
  // Elements are joined by index, so an update only moves bars and changes texts.
  function update({ values, labels, highlight = -1, domain, caption = label, digits = 2 }) {
    shown = { values, labels };
    const n = values.length;
    const rowH = 22;
    const margin = { top: 4, right: 52, bottom: 24, left: 64 };
    const width = 360;
    const height = margin.top + margin.bottom + n * rowH;
    attrs(select(svg), {
      viewBox: `0 0 ${width} ${height}`,
      'aria-label': valuesLabel(caption, labels, values, digits),
    });
    title = caption;
    save.label();
    const finite = Array.from(values).filter(Number.isFinite);
    const hi = domain ? domain[1] : Math.max(1e-9, max(finite) ?? 1);
    const lo = domain ? domain[0] : 0;
    const x = scaleLinear()
      .domain([lo, hi])
      .range([margin.left, width - margin.right])
      .clamp(true);
    const y = scaleBand()
      .domain(labels.map((_, i) => i))
      .range([margin.top, height - margin.bottom])
      .padding(0.2);
    const x0 = x(Math.max(lo, 0));
    const root = select(svg);
    const row = root
      .selectAll('g.bar')
      .data(Array.from(values))
      .join((enter) => {
        const g = enter.append('g').attr('class', 'bar');
        g.append('rect').attr('fill', color);
        g.append('text').attr('class', 'bar-label').attr('dy', '0.35em').attr('text-anchor', 'end');
        g.append('text').attr('class', 'bar-value').attr('dy', '0.35em');
        return g;
      });
    row.each(function (_, i) {
      if (this.classList.contains('hl') !== (i === highlight)) this.classList.toggle('hl');
    });
    attrs(row.select('rect'), {
      x: (v) => (Number.isFinite(v) ? Math.min(x(v), x0) : x0),
      y: (_, i) => y(i),
      height: y.bandwidth(),
      width: (v) => (Number.isFinite(v) ? Math.abs(x(v) - x0) : 0),
    });
    attrs(row.select('.bar-label'), { x: margin.left - 6, y: (_, i) => y(i) + y.bandwidth() / 2 });
    row.select('.bar-label').each(function (_, i) {
      setText(this, labels[i]);
    });
    attrs(row.select('.bar-value'), {
      x: (v) => (Number.isFinite(v) ? x(v) : x(lo)) + 4,
      y: (_, i) => y(i) + y.bandwidth() / 2,
    });
    row.select('.bar-value').each(function (v) {
      setText(this, fmt(v, digits));
    });
    const key = `${lo}:${hi}:${height}`;
    if (key !== axisKey) {
      axisKey = key;
      root.selectAll('g.axis').remove();
      root
        .append('g')
        .attr('class', 'axis')
        .attr('transform', `translate(0,${height - margin.bottom})`)
        .call(axisBottom(x).ticks(4));
    }
  }

  return { el: figure, update, destroy: () => figure.remove() };
}
