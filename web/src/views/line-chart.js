// A line/point chart of a few series against one x, with linear or logarithmic axes (d3),
// a legend, a marker at the current x, and the same numbers as an accessible table.
//
//   const c = createLineChart(parent, { label, xLabel, yLabel, xLog, yLog, width, strings, yTicks })
//   c.update({ series: [{ name, color, dash, mark: 'points' | 'line', points: [{ x, y }] }],
//              xDomain, yDomain, markX, markLabel, caption, digits, format, grow })
// (xDomain, yDomain: the axes' ranges; by default those of the points; markX: a dashed line at
// that x, named by markLabel at its top)
// format(y) -> text: how a y is written in the table and the accessible label (default
// fmt(y, digits)); yTicks(y) -> text: the y axis's tick labels (default: the number).
// grow: a line that gained points since the last update (a training curve) draws its new part
// in from the last point it had (views/motion.js: about MOTION_MS, none under
// prefers-reduced-motion; the figure's data-motion says running or done). An update with new
// points ends it (and grows from there); one with the same points lets it run on.
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
import { MOTION_MS, markMotion, tween } from './motion.js';

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

  let ends = new Map(); // series name -> the last point its line reached at the last update
  let motion = null; // the running growth: { run, from: the ends it grows from, tails }
  const inside = (p) => Number.isFinite(p.y) && (!yLog || p.y > 0);
  const lastPoint = (se) => se.points.filter(inside).at(-1);
  const samePoint = (a, b) => a === b || (a && b && a.x === b.x && a.y === b.y);

  function update(opts) {
    const {
      series,
      xDomain,
      yDomain,
      markX,
      markLabel,
      caption = label,
      format: yText = (v) => fmt(v, 3),
      grow = false,
    } = opts;
    // The same points as the running growth's end: it runs on, on the lines drawn anew.
    const goesOn = grow && motion?.run.running && series.every((se) => samePoint(lastPoint(se), ends.get(se.name)));
    if (!goesOn) motion?.run.cancel();
    const from = goesOn ? motion.from : ends; // where each line grows from
    const tails = []; // the lines that grow: { el, old: d to the point reached, full: d, xy: the new part's points }
    const { width: w, height } = frame.size(width, 0.44);
    const m = { top: 12, right: 16, bottom: 42, left: 56 };
    const all = series.flatMap((se) => se.points);
    const xs = all.map((p) => p.x);
    const ys = all.map((p) => p.y).filter((v) => Number.isFinite(v) && (!yLog || v > 0));
    const xd = xDomain ? [...xDomain] : [Math.min(...xs), Math.max(...xs)];
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
      if (markLabel) {
        // on the side of the line with more room
        const right = x(markX) < (m.left + w - m.right) / 2;
        root
          .append('text')
          .attr('class', 'chart-mark-label')
          .attr('x', x(markX) + (right ? 4 : -4))
          .attr('y', m.top + 10)
          .attr('text-anchor', right ? 'start' : 'end')
          .attr('font-size', 11)
          .attr('fill', MUTED)
          .text(markLabel);
      }
    }
    for (const se of series) {
      const pts = se.points.filter(inside);
      const g = root.append('g').attr('class', 'series');
      if (se.mark !== 'points') {
        const path = line()
          .x((p) => x(p.x))
          .y((p) => y(p.y));
        // A line that reached `end` at the last update: drawn to there, then grown to its end.
        const end = grow ? from.get(se.name) : null;
        let k = -1;
        if (end) for (k = pts.length - 1; k >= 0 && !(pts[k].x === end.x && pts[k].y === end.y); k--);
        const grows = k >= 0 && k < pts.length - 1;
        const old = grows ? path(pts.slice(0, k + 1)) : null;
        const el = g
          .append('path')
          .attr('d', old ?? path(pts))
          .attr('fill', 'none')
          .attr('stroke', se.color)
          .attr('stroke-width', 2)
          .attr('stroke-dasharray', se.dash || null);
        if (grows) tails.push({ el, old, full: path(pts), xy: pts.slice(k).map((p) => [x(p.x), y(p.y)]) });
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
    ends = new Map(series.map((se) => [se.name, lastPoint(se)]));
    if (goesOn) motion.tails = tails;
    else if (tails.length) {
      const growth = { from, tails };
      motion = growth;
      growth.run = tween(
        MOTION_MS,
        (t) => {
          for (const tail of growth.tails) tail.el.attr('d', t < 1 ? grown(tail, t) : tail.full);
        },
        { el: frame.figure },
      );
    } else {
      motion = null;
      markMotion(frame.figure, 'done');
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

  // A line's drawn part and, of its new part (tail.xy, from the point it had reached), the share t
  // of its width: the path's d.
  function grown(tail, t) {
    const { xy } = tail;
    const cut = xy[0][0] + t * (xy.at(-1)[0] - xy[0][0]);
    let d = tail.old;
    let k = 1;
    for (; k < xy.length && xy[k][0] <= cut; k++) d += `L${xy[k][0]},${xy[k][1]}`;
    if (k < xy.length) {
      const [x0, y0] = xy[k - 1],
        [x1, y1] = xy[k];
      const f = x1 > x0 ? (cut - x0) / (x1 - x0) : 1;
      d += `L${x0 + f * (x1 - x0)},${y0 + f * (y1 - y0)}`;
    }
    return d;
  }

  return {
    el: frame.figure,
    update,
    destroy() {
      motion?.run.cancel();
      frame.destroy();
    },
  };
}
