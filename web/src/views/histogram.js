// A histogram of counts over fixed bins (from the engine) with a theory curve drawn over it,
// d3 scales and axes, and the same numbers as an accessible table.
//
//   const h = createHistogram(parent, { label, color, strings: { bin, count, expected, showTable, hideTable } })
//   h.update({ edges, counts, domain: [lo, hi], theory: { label, expected(lo, hi) }, caption, markers })
//
// counts come from the engine. theory.expected(lo, hi) is the formula's expected count in a
// bin (e.g. N · P(lo < X < hi) for X ~ N(0, σ²)), evaluated here to draw the curve: a formula,
// not a result. markers: [{ x, label }] vertical guides (e.g. ±σ).

import { scaleLinear } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import { fmt, colonAfter, commaAfter } from '../text/format.js';
import { createChartFrame, drawAxes } from './chart-frame.js';
import { BLUE, INK, MUTED } from './palette.js';

export function createHistogram(parent, { label = '', color = BLUE, strings = {} } = {}) {
  const s = { bin: 'bin', count: 'count', expected: 'expected', ...strings };
  const frame = createChartFrame(parent, { className: 'histogram', strings, table: binTable });

  // The bins that overlap [lo, hi], with their counts and (when a theory is given) expected counts.
  function visibleBins({ edges, counts, domain, theory }) {
    const bins = [];
    for (let i = 0; i < counts.length; i++) {
      const a = edges[i],
        b = edges[i + 1];
      if (b <= domain[0] || a >= domain[1]) continue;
      bins.push({ a, b, count: counts[i], expected: theory ? theory.expected(a, b) : null });
    }
    return bins;
  }

  // The bins on screen with their counts (and expected counts): [caption, head, rows].
  function binTable(opts) {
    const head = [s.bin, s.count].concat(opts.theory ? [`${s.expected} (${opts.theory.label})`] : []);
    const rows = visibleBins(opts).map((bin) =>
      [`[${fmt(bin.a, 2)}, ${fmt(bin.b, 2)})`, String(bin.count)].concat(opts.theory ? [fmt(bin.expected, 1)] : []),
    );
    return [opts.caption ?? label, head, rows];
  }

  function update(opts) {
    const { edges, domain, theory, caption = label, markers = [] } = opts;
    const { width, height } = frame.size(640, 0.4);
    const m = { top: 10, right: 14, bottom: 34, left: 50 };
    const bins = visibleBins(opts);
    const x = scaleLinear()
      .domain(domain)
      .range([m.left, width - m.right]);
    // The theory curve: expected count of a bin of the histogram's width centred at t.
    const w = edges.length > 1 ? edges[1] - edges[0] : 1;
    const curve = [];
    if (theory) {
      for (let k = 0; k <= 240; k++) {
        const t = domain[0] + ((domain[1] - domain[0]) * k) / 240;
        curve.push([t, theory.expected(t - w / 2, t + w / 2)]);
      }
    }
    const top = Math.max(1, ...bins.map((b) => b.count), ...curve.map((p) => p[1]));
    const y = scaleLinear()
      .domain([0, top * 1.08])
      .nice()
      .range([height - m.bottom, m.top]);

    const root = select(frame.svg);
    root
      .append('g')
      .attr('class', 'hist-bars')
      .selectAll('rect')
      .data(bins)
      .join('rect')
      .attr('x', (b) => x(Math.max(b.a, domain[0])))
      .attr('width', (b) => Math.max(0.5, x(Math.min(b.b, domain[1])) - x(Math.max(b.a, domain[0])) - 0.5))
      .attr('y', (b) => y(b.count))
      .attr('height', (b) => y(0) - y(b.count))
      .attr('fill', color)
      .attr('fill-opacity', 0.55);
    for (const mk of markers) {
      if (mk.x < domain[0] || mk.x > domain[1]) continue;
      root
        .append('line')
        .attr('class', 'hist-marker')
        .attr('x1', x(mk.x))
        .attr('x2', x(mk.x))
        .attr('y1', m.top)
        .attr('y2', height - m.bottom)
        .attr('stroke', MUTED)
        .attr('stroke-dasharray', '3 3');
      root
        .append('text')
        .attr('class', 'hist-marker-label')
        .attr('x', x(mk.x) + 3)
        .attr('y', m.top + 10)
        .attr('font-size', 12)
        .attr('fill', MUTED)
        .text(mk.label);
    }
    if (theory) {
      root
        .append('path')
        .attr('class', 'hist-theory')
        .attr(
          'd',
          line()
            .x((p) => x(p[0]))
            .y((p) => y(p[1]))(curve),
        )
        .attr('fill', 'none')
        .attr('stroke', INK)
        .attr('stroke-width', 2);
    }
    drawAxes(
      root,
      axisBottom(x).ticks(width < 450 ? 5 : 8),
      axisLeft(y)
        .ticks(5)
        .tickFormat((v) => fmt(v, 0)),
      m,
      height,
    );
    const total = bins.reduce((n, b) => n + b.count, 0);
    frame.done(
      opts,
      caption,
      `${caption}${colonAfter(caption)}${bins.length} ${s.bin}${commaAfter(s.bin)}${s.count} ${total}`,
    );
  }

  return { el: frame.figure, update, destroy: frame.destroy };
}
