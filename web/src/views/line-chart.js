// A line/point chart of a few series against one x, with linear or logarithmic axes (d3),
// a legend, a marker at the current x, and the same numbers as an accessible table.
//
//   const c = createLineChart(parent, { label, xLabel, yLabel, xLog, yLog, width, strings, yTicks })
//   c.update({ series: [{ name, color, dash, mark: 'points' | 'line', points: [{ x, y }] }],
//              yDomain, markX, caption, digits, format })
// format(y) -> text: how a y is written in the table and the accessible label (default
// fmt(y, digits)); yTicks(y) -> text: the y axis's tick labels (default: the number).
//
// Measured series come from the engine; theory series (like variance = d_k) are formulas the
// caller evaluates. Nothing here computes a result, only positions.

import { scaleLinear, scaleLog } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import { format } from 'd3-format';
import { fmt, colonAfter, periodAfter } from '../text/format.js';
import { createChartFrame, drawAxes } from './chart-frame.js';
import { MUTED, ORANGE, WHITE } from './palette.js';

// The ticks of a log axis at the powers of its base (1, 2, 4 ... for base 2; 0.01, 0.1, 1 ...
// for base 10), every `every`-th one: d3's log ticks, asked for no more ticks than the domain
// has powers, give exactly the powers.
export function powerTicks(scale, every = 1) {
  const [lo, hi] = scale.domain();
  const powers = Math.log(hi / lo) / Math.log(scale.base());
  return scale.ticks(Math.max(1, Math.floor(powers / every + 1e-9)));
}

export function createLineChart(
  parent,
  { label = '', xLabel = 'x', yLabel = 'y', xLog = false, yLog = false, width = 640, strings = {}, yTicks = null } = {},
) {
  const frame = createChartFrame(parent, { className: 'line-chart', strings, legend: true, table: seriesTable });

  // Rows: every x of any series, in order; columns: the series. [caption, head, rows].
  function seriesTable({ series, caption = label, digits = 3, format: yText = (y) => fmt(y, digits) }) {
    const xs = [...new Set(series.flatMap((se) => se.points.map((p) => p.x)))].sort((a, b) => a - b);
    const rows = xs.map((xv) => [
      String(xv),
      ...series.map((se) => {
        const p = se.points.find((q) => q.x === xv);
        return p ? yText(p.y) : '';
      }),
    ]);
    return [caption, [xLabel, ...series.map((se) => se.name)], rows];
  }

  function update(opts) {
    const { series, yDomain, markX, caption = label, format: yText = (v) => fmt(v, 3) } = opts;
    const { width: w, height } = frame.size(width, 0.44);
    const m = { top: 12, right: 16, bottom: 42, left: 56 };
    const all = series.flatMap((se) => se.points);
    const xs = all.map((p) => p.x);
    const ys = all.map((p) => p.y).filter((v) => Number.isFinite(v) && (!yLog || v > 0));
    const xd = [Math.min(...xs), Math.max(...xs)];
    if (xd[0] === xd[1]) xd[1] = xd[0] + 1; // a single x (the first step of a run): a unit-wide axis
    const yd = yDomain || [yLog ? Math.min(...ys) : Math.min(0, ...ys), Math.max(...ys)];
    const x = (xLog ? scaleLog().base(2) : scaleLinear()).domain(xd).range([m.left, w - m.right]);
    const y = (yLog ? scaleLog().base(10) : scaleLinear()).domain(yd).range([height - m.bottom, m.top]);
    if (!yLog && !yDomain) y.nice();
    const root = select(frame.svg);
    const xAxis = axisBottom(x);
    if (xLog) xAxis.tickValues(powerTicks(x, w >= 450 ? 1 : 2)).tickFormat((v) => String(v));
    else if (xs.every(Number.isInteger)) xAxis.tickValues(x.ticks(6).filter(Number.isInteger)).tickFormat(format(',d'));
    else xAxis.ticks(6);
    const yAxis = axisLeft(y);
    if (yLog)
      yAxis
        .tickValues(powerTicks(y))
        .tickFormat((v) => (yTicks ? yTicks(v) : v >= 1 ? String(v) : String(+v.toPrecision(1))));
    else yAxis.ticks(5);
    drawAxes(root, xAxis, yAxis, m, height);
    root
      .append('text')
      .attr('class', 'axis-label')
      .attr('x', (m.left + w - m.right) / 2)
      .attr('y', height - 6)
      .attr('text-anchor', 'middle')
      .attr('font-size', 12)
      .attr('fill', MUTED)
      .text(xLabel);
    root
      .append('text')
      .attr('class', 'axis-label')
      .attr('transform', `translate(14,${(m.top + height - m.bottom) / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle')
      .attr('font-size', 12)
      .attr('fill', MUTED)
      .text(yLabel);
    if (markX !== undefined && markX >= xd[0] && markX <= xd[1]) {
      root
        .append('line')
        .attr('class', 'chart-mark')
        .attr('x1', x(markX))
        .attr('x2', x(markX))
        .attr('y1', m.top)
        .attr('y2', height - m.bottom)
        .attr('stroke', ORANGE)
        .attr('stroke-dasharray', '4 3');
    }
    const inside = (p) => Number.isFinite(p.y) && (!yLog || p.y > 0);
    for (const se of series) {
      const pts = se.points.filter(inside);
      const g = root.append('g').attr('class', 'series');
      if (se.mark !== 'points') {
        g.append('path')
          .attr(
            'd',
            line()
              .x((p) => x(p.x))
              .y((p) => y(p.y))(pts),
          )
          .attr('fill', 'none')
          .attr('stroke', se.color)
          .attr('stroke-width', 2)
          .attr('stroke-dasharray', se.dash || null);
      }
      if (se.mark !== 'line' || pts.length === 1) {
        // a line of one point is drawn as its point
        g.selectAll('circle')
          .data(pts)
          .join('circle')
          .attr('cx', (p) => x(p.x))
          .attr('cy', (p) => y(p.y))
          .attr('r', 4)
          .attr('fill', se.color)
          .attr('stroke', WHITE);
      }
    }
    frame.legend.replaceChildren(
      ...series.map((se) => {
        const li = document.createElement('li');
        const sw = document.createElement('span');
        sw.className = `swatch ${se.mark === 'points' ? 'dot' : 'stroke'}${se.dash ? ' dashed' : ''}`;
        sw.style.setProperty('--c', se.color);
        li.append(sw, document.createTextNode(se.name));
        return li;
      }),
    );
    frame.done(
      opts,
      caption,
      `${caption}${periodAfter(caption)}` +
        series
          .map((se) => `${se.name}${colonAfter(se.name)}` + se.points.map((p) => `${p.x} → ${yText(p.y)}`).join(', '))
          .join('; '),
    );
  }

  return { el: frame.figure, update, destroy: frame.destroy };
}
