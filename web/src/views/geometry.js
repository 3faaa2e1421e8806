// q·k as geometry: a query arrow and key arrows from the origin of a 2-D plane, each key's dot
// product with the query drawn as its projection onto the query (a dashed foot line and the
// signed length q·k / |q|), and beside the plot the scores, the scaled scores and the softmax
// weights as bars. Every number comes from the caller (the engine); the view only places them:
// the foot of a projection is the engine's score over |q|² along q.
//
// The learner drags an arrow's tip (pointer) or moves the focused arrow with the arrow keys
// (Shift: bigger steps). Moves are coalesced: at most one onMove per animation frame, the last
// position winning; the caller changes its state and calls update().
//
//   const g = createGeometry(parent, { strings, onMove: (i, [x, y]) => ..., limit, step, bigStep, intro })
//     intro: nodes set at the head of the column beside the plot (a title, a line on what it shows)
//   g.update({ tokens, arrows, scores, scaled, weights, best, axes, title, caption })
//     tokens: [query, key 1, …]; arrows: [[x, y], …] in the same order; scores / scaled / weights:
//     one per key; best: the key with the largest weight (drawn bold)
//   strings: { plot, roledesc, hint, table (the bars' caption), head: [key, score, scaled, weight], query(name),
//     arrow({ role, name, x, y, score, weight, proj }) -> aria-label }

import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { h, nextId, setText } from './dom.js';
import { fmt } from '../text/format.js';
import { createSaveButtons, svgScene } from './save.js';
import { BLUE, GREY, GRID, INK, MUTED, ORANGE, WEIGHT, WHITE } from './palette.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SIZE = 320; // the plot: a square of SIZE × SIZE (viewBox units), the origin in the middle
const ROOM = 24; // and room on the right for the names of arrows that point there
const MARGIN = 24;
const HEAD = 9; // arrowhead length (px of the viewBox)

const svgEl = (tag, attrs = {}) => {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
};
const r1 = (x) => Math.round(x * 10) / 10;
// A coordinate as it reads: one decimal on the arrows' 0.1 grid, two otherwise (a link's own).
const coordText = (x) => fmt(x, Math.abs(x * 10 - Math.round(x * 10)) < 1e-9 ? 1 : 2);

export function createGeometry(parent, { strings, onMove, limit = 3, step = 0.1, bigStep = 0.5, intro = [] }) {
  const x = scaleLinear()
    .domain([-limit, limit])
    .range([MARGIN, SIZE - MARGIN]);
  const y = scaleLinear()
    .domain([-limit, limit])
    .range([SIZE - MARGIN, MARGIN]);

  const figure = h('figure', { class: 'geo' });
  const hintId = nextId('geo-hint');
  const svg = svgEl('svg', {
    viewBox: `0 0 ${SIZE + ROOM} ${SIZE}`,
    class: 'geo-plot',
    role: 'group',
    'aria-label': strings.plot,
    'aria-describedby': hintId,
  });
  const grid = svgEl('g', { class: 'geo-grid', 'aria-hidden': 'true' });
  const axes = svgEl('g', { class: 'geo-axes', 'aria-hidden': 'true' });
  const qLine = svgEl('line', { class: 'geo-qline', stroke: GREY, 'stroke-width': 1, 'stroke-dasharray': '2 3' });
  const marks = svgEl('g', { class: 'geo-marks', 'aria-hidden': 'true' }); // feet, projections
  const drawn = svgEl('g', { class: 'geo-arrows', 'aria-hidden': 'true' }); // arrows and their names
  const handles = svgEl('g', { class: 'geo-handles' });
  svg.append(grid, axes, marks, drawn, handles);
  // The top key's projection: its shadow on the query's line, from the origin to its foot.
  const shadow = svgEl('line', { class: 'geo-shadow', stroke: BLUE, 'stroke-width': 7, 'stroke-linecap': 'round' });
  shadow.style.opacity = '0.3';
  marks.append(qLine, shadow);
  // Grid lines at the whole numbers, numbered at ±2 (fewer labels where the projections are).
  for (let k = -Math.floor(limit); k <= limit; k++) {
    if (k === 0) continue;
    grid.append(svgEl('line', { x1: x(k), x2: x(k), y1: y(-limit), y2: y(limit), stroke: GRID }));
    grid.append(svgEl('line', { x1: x(-limit), x2: x(limit), y1: y(k), y2: y(k), stroke: GRID }));
    if (Math.abs(k) !== 2) continue;
    // (no number at x = 2, where the x axis is named)
    const tx = svgEl('text', { x: x(k), y: y(0) + 15, 'text-anchor': 'middle', fill: MUTED, class: 'geo-tick' });
    tx.textContent = k < 0 ? fmt(k, 0) : '';
    const ty = svgEl('text', {
      x: x(0) - 5,
      y: y(k),
      dy: '0.35em',
      'text-anchor': 'end',
      fill: MUTED,
      class: 'geo-tick',
    });
    ty.textContent = fmt(k, 0);
    grid.append(tx, ty);
  }
  axes.append(
    svgEl('line', { x1: x(-limit), x2: x(limit), y1: y(0), y2: y(0), stroke: MUTED }),
    svgEl('line', { x1: x(0), x2: x(0), y1: y(-limit), y2: y(limit), stroke: MUTED }),
  );
  const xName = svgEl('text', { x: x(limit), y: y(0) + 15, 'text-anchor': 'end', fill: MUTED, class: 'geo-axis-name' });
  // (the y axis named over the plot, where no arrow's name goes)
  const yName = svgEl('text', { x: x(0), y: MARGIN - 8, 'text-anchor': 'middle', fill: MUTED, class: 'geo-axis-name' });
  axes.append(xName, yName);

  // The bars: one row per key, its score, scaled score and weight.
  const head = h('tr', {}, ...strings.head.map((t, k) => h('th', { scope: 'col', class: k ? 'num' : '', text: t })));
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'geo-bars' },
    h('caption', { class: 'visually-hidden', text: strings.table }),
    h('thead', {}, head),
    body,
  );
  const caption = h('p', { class: 'geo-caption' });
  const hint = h('p', { class: 'hint geo-hint', id: hintId, text: strings.hint });
  const side = h('div', { class: 'geo-side' }, table, caption, hint);
  let shown = null; // the last update (for the keys, the save menu and the copied numbers)
  const save = createSaveButtons(
    () => svgScene(svg, { title: shown?.title ?? '' }),
    () => shown?.title ?? '',
    () => ({
      head: strings.head,
      rows: shown ? shown.tokens.slice(1).map((t, j) => [t, shown.scores[j], shown.scaled[j], shown.weights[j]]) : [],
    }),
  );
  side.append(save.el);
  // The intro and the side sit beside the plot on a wide screen; on a phone the intro comes first.
  const introBox = h('div', { class: 'geo-intro' }, ...intro);
  figure.append(h('div', { class: 'geo-body' }, introBox, h('div', { class: 'geo-plot-box' }, svg), side));
  parent.append(figure);

  // ---- moves: one per animation frame -----------------------------------------------------------
  let pending = null;
  let frame = 0;
  function run() {
    frame = 0;
    const p = pending;
    pending = null;
    if (p) onMove(p.i, p.xy);
  }
  function queue(i, xy) {
    pending = { i, xy };
    if (!frame) frame = requestAnimationFrame(run);
  }
  function flush() {
    if (!frame) return;
    cancelAnimationFrame(frame);
    run();
  }

  let drag = null; // { i, inv: screen -> viewBox, id }
  function handle(i) {
    const g = svgEl('g', { class: 'geo-handle', tabindex: '0', role: 'button', 'data-index': String(i) });
    g.setAttribute('aria-roledescription', strings.roledesc);
    g.setAttribute('aria-describedby', hintId);
    const hit = svgEl('circle', { r: 16, class: 'geo-hit', fill: 'transparent' });
    const dot = svgEl('circle', { r: 6, class: 'geo-dot', fill: WHITE, 'stroke-width': 2.5 });
    g.append(hit, dot);
    g.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      g.focus({ preventScroll: true });
      g.setPointerCapture(e.pointerId);
      drag = { i, inv: svg.getScreenCTM().inverse(), id: e.pointerId }; // one layout read per drag
    });
    g.addEventListener('pointermove', (e) => {
      if (!drag || drag.i !== i || e.pointerId !== drag.id) return;
      const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(drag.inv);
      queue(i, [x.invert(p.x), y.invert(p.y)]);
    });
    const end = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      drag = null;
      flush();
    };
    g.addEventListener('pointerup', end);
    g.addEventListener('pointercancel', end);
    g.addEventListener('lostpointercapture', end);
    g.addEventListener('keydown', (e) => {
      const d = e.shiftKey ? bigStep : step;
      const move = { ArrowLeft: [-d, 0], ArrowRight: [d, 0], ArrowUp: [0, d], ArrowDown: [0, -d] }[e.key];
      if (!move || !shown) return;
      e.preventDefault();
      const [px, py] = pending && pending.i === i ? pending.xy : shown.arrows[i];
      queue(i, [r1(px + move[0]), r1(py + move[1])]);
    });
    return g;
  }

  // ---- drawing ------------------------------------------------------------------------------------
  function arrowPath([ax, ay]) {
    const X = x(ax),
      Y = y(ay),
      X0 = x(0),
      Y0 = y(0);
    const len = Math.hypot(X - X0, Y - Y0);
    if (len < 1e-9) return { line: '', head: '' };
    const ux = (X - X0) / len,
      uy = (Y - Y0) / len;
    const hl = Math.min(HEAD, len * 0.6);
    const bx = X - ux * hl,
      by = Y - uy * hl;
    const w = hl * 0.55;
    return {
      line: `M${X0} ${Y0}L${bx} ${by}`,
      head: `M${X} ${Y}L${bx - uy * w} ${by + ux * w}L${bx + uy * w} ${by - ux * w}Z`,
    };
  }

  function update(next) {
    shown = next;
    const { tokens, arrows, scores, scaled, weights, best } = next;
    setText(xName, `${next.axes[0]} →`);
    setText(yName, `↑ ${next.axes[1]}`);
    setText(caption, next.caption);
    const [q] = arrows;
    const qq = q[0] * q[0] + q[1] * q[1];
    const colour = (i) => (i === 0 ? ORANGE : BLUE);

    // The query's line through the origin, across the plot (to its edge).
    if (qq > 0) {
      const s = limit / Math.max(Math.abs(q[0]), Math.abs(q[1]));
      qLine.setAttribute('x1', x(-q[0] * s));
      qLine.setAttribute('y1', y(-q[1] * s));
      qLine.setAttribute('x2', x(q[0] * s));
      qLine.setAttribute('y2', y(q[1] * s));
    }
    qLine.style.display = qq > 0 ? '' : 'none';

    // Each key's foot on the query's line (the engine's score over |q|² along q), the dashed line
    // to it, and the signed length score / |q| (labels that would overlap a bolder one are left
    // out; every number is also in the table and the arrow's label).
    const feet = arrows.slice(1).map((k, j) => {
      const t = qq > 0 ? scores[j] / qq : 0;
      return { j, k, fx: t * q[0], fy: t * q[1], proj: qq > 0 ? scores[j] / Math.sqrt(qq) : 0 };
    });
    const top = feet[best];
    if (top) {
      shadow.setAttribute('x1', x(0));
      shadow.setAttribute('y1', y(0));
      shadow.setAttribute('x2', x(top.fx));
      shadow.setAttribute('y2', y(top.fy));
    }
    shadow.style.display = qq > 0 && top ? '' : 'none';
    const order = [...feet].sort((a, b) => (a.j === best ? -1 : b.j === best ? 1 : a.j - b.j));
    const placed = [];
    const labelAt = new Map();
    for (const f of order) {
      // Beside the foot, on the side of the query's line away from the key.
      const side = q[0] * f.k[1] - q[1] * f.k[0] >= 0 ? -1 : 1;
      const n = qq > 0 ? [(-q[1] / Math.sqrt(qq)) * side, (q[0] / Math.sqrt(qq)) * side] : [0, 0];
      const lx = x(f.fx) + n[0] * 14,
        ly = y(f.fy) - n[1] * 14;
      const clash = placed.some(([px, py]) => Math.abs(px - lx) < 34 && Math.abs(py - ly) < 14);
      if (!clash) placed.push([lx, ly]);
      labelAt.set(f.j, clash ? null : [lx, ly]);
    }
    select(marks)
      .selectAll('g.geo-foot')
      .data(feet)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'geo-foot');
        g.append('line').attr('stroke', GREY).attr('stroke-width', 1.2).attr('stroke-dasharray', '4 3');
        g.append('circle').attr('r', 3).attr('fill', INK);
        g.append('text').attr('class', 'geo-proj').attr('text-anchor', 'middle').attr('dy', '0.35em').attr('fill', INK);
        return g;
      })
      .style('display', qq > 0 ? null : 'none')
      .each(function (f) {
        const [line, dot, text] = this.children;
        line.setAttribute('x1', x(f.k[0]));
        line.setAttribute('y1', y(f.k[1]));
        line.setAttribute('x2', x(f.fx));
        line.setAttribute('y2', y(f.fy));
        dot.setAttribute('cx', x(f.fx));
        dot.setAttribute('cy', y(f.fy));
        const at = labelAt.get(f.j);
        text.style.display = at ? '' : 'none';
        if (at) {
          text.setAttribute('x', at[0]);
          text.setAttribute('y', at[1]);
          setText(text, fmt(f.proj, 2));
        }
      });

    // The arrows, their names at the tips.
    select(drawn)
      .selectAll('g.geo-arrow')
      .data(arrows)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'geo-arrow');
        g.append('path').attr('class', 'geo-shaft').attr('fill', 'none');
        g.append('path').attr('class', 'geo-head');
        g.append('text').attr('class', 'geo-name').attr('dy', '0.35em');
        return g;
      })
      .each(function (a, i) {
        const [shaft, tip, name] = this.children;
        const p = arrowPath(a);
        const bold = i === 0 || i - 1 === best;
        shaft.setAttribute('d', p.line);
        shaft.setAttribute('stroke', colour(i));
        shaft.setAttribute('stroke-width', bold ? 3 : 2);
        tip.setAttribute('d', p.head);
        tip.setAttribute('fill', colour(i));
        // The name beyond the tip, away from the origin.
        const len = Math.hypot(a[0], a[1]) || 1;
        let nx = x(a[0]) + (a[0] / len) * 16,
          ny = y(a[1]) - (a[1] / len) * 14;
        let anchor = a[0] / len > 0.35 ? 'start' : a[0] / len < -0.35 ? 'end' : 'middle';
        // Near a side edge the name goes over the tip, on the inner side, so it stays in the plot.
        if ((anchor === 'start' && nx > SIZE + ROOM - 44) || (anchor === 'end' && nx < 44)) {
          anchor = anchor === 'start' ? 'end' : 'start';
          nx = x(a[0]) + (anchor === 'end' ? -10 : 10);
          ny = y(a[1]) + (y(a[1]) < 30 ? 18 : -14);
        }
        ny = Math.max(10, Math.min(SIZE - 8, ny));
        name.setAttribute('x', nx);
        name.setAttribute('y', ny);
        name.setAttribute('text-anchor', anchor);
        name.setAttribute('fill', colour(i));
        name.setAttribute('font-weight', bold ? '700' : '400');
        setText(name, i === 0 ? strings.query(tokens[0]) : tokens[i]);
      });

    // The tips the learner moves: one focusable element per arrow, its coordinates in its label.
    while (handles.children.length < arrows.length) handles.append(handle(handles.children.length));
    arrows.forEach((a, i) => {
      const g = handles.children[i];
      g.setAttribute('transform', `translate(${x(a[0])},${y(a[1])})`);
      g.dataset.x = String(a[0]);
      g.dataset.y = String(a[1]);
      g.dataset.role = i === 0 ? 'query' : 'key';
      g.lastChild.setAttribute('stroke', colour(i));
      const f = feet[i - 1];
      const label = strings.arrow({
        role: i === 0 ? 'query' : 'key',
        name: tokens[i],
        x: coordText(a[0]),
        y: coordText(a[1]),
        score: i ? fmt(scores[i - 1], 2) : '',
        weight: i ? fmt(weights[i - 1], 2) : '',
        proj: i && qq > 0 ? fmt(f.proj, 2) : '',
      });
      if (g.getAttribute('aria-label') !== label) g.setAttribute('aria-label', label);
    });

    // The bars: scores and scaled scores on one diverging scale (so the scale's shrinking shows),
    // weights from 0 to 1.
    const span = Math.max(1, ...scores.map(Math.abs), ...scaled.map(Math.abs));
    while (body.children.length < scores.length) body.append(barRow(body.children.length));
    while (body.children.length > scores.length) body.lastChild.remove();
    scores.forEach((_, j) => {
      const row = body.children[j];
      row.classList.toggle('geo-best', j === best);
      setText(row.firstChild, tokens[j + 1]);
      setBar(row.children[1], scores[j], span, true);
      setBar(row.children[2], scaled[j], span, true);
      setBar(row.children[3], weights[j], 1, false);
    });
  }

  function barRow(j) {
    const cell = (cls) =>
      h(
        'td',
        { class: `num ${cls}` },
        h('span', { class: 'geo-num' }),
        h(
          'span',
          { class: `geo-track${cls === 'geo-weight' ? '' : ' geo-signed'}`, 'aria-hidden': 'true' },
          h('span', { class: 'geo-fill' }),
        ),
      );
    return h(
      'tr',
      { 'data-key': String(j) },
      h('th', { scope: 'row', class: 'geo-key' }),
      cell('geo-score'),
      cell('geo-scaled'),
      cell('geo-weight'),
    );
  }

  // A bar from 0 (the middle of the track when the numbers may be negative) to v, and its number.
  function setBar(td, v, span, signed) {
    const [num, track] = td.children;
    const fill = track.firstChild;
    const f = Math.max(0, Math.min(1, Math.abs(v) / span));
    const left = signed ? (v < 0 ? 50 - 50 * f : 50) : 0;
    const width = signed ? 50 * f : 100 * f;
    fill.style.left = `${left.toFixed(2)}%`;
    fill.style.width = `${width.toFixed(2)}%`;
    fill.style.background = signed ? (v < 0 ? MUTED : WEIGHT) : WEIGHT;
    td.dataset.value = String(v);
    setText(num, fmt(v, 2));
  }

  return {
    el: figure,
    update,
    destroy() {
      if (frame) cancelAnimationFrame(frame);
      figure.remove();
    },
  };
}
