// Step 2 of the long-sequences chapter: the online softmax of tiled ("flash") attention, one
// query, block by block, from the engine's trace (engine.flashTrace). The figure: the query's
// scores against the keys as bars on a score axis, the blocks framed (folded ones solid), the
// running max m as a dashed line (its value beside it, the m of every folded block on its
// frame), and under them the running sum l after each block, as much of it carried over from the
// blocks before (rescaled) as added by the block itself. Stepped, played, or started over.

import { scaleLinear } from 'd3-scale';
import { axisLeft } from 'd3-axis';
import { select } from 'd3-selection';
import { button, h, setText } from '../../views/dom.js';
import { createSaveButtons, svgScene } from '../../views/save.js';
import { dataTable } from '../../views/table.js';
import { fmt } from '../../text/format.js';
import { list } from '../../text/i18n.js';
import { MOTION_MS, markMotion, tween } from '../../views/motion.js';
import { TRACE_N } from './meta.js';
import { traceRow } from './logic.js';

const PLAY_MS = 1400; // one block folded in per tick while playing

const SVG_NS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, x] of Object.entries(attrs)) el.setAttribute(k, String(x));
  if (text !== undefined) el.textContent = text;
  return el;
}

export function buildTiling(c, v) {
  const { s } = c;
  v.row = h(
    'select',
    { id: 'long-row', onchange: (e) => c.set({ longRow: Number(e.target.value), longStep: 0 }) },
    ...Array.from({ length: TRACE_N }, (_, i) => h('option', { value: String(i), text: String(i) })),
  );
  v.block = h(
    'select',
    { id: 'long-block', onchange: (e) => c.set({ longBlock: e.target.value, longStep: 0 }) },
    ...['2', '4', '8'].map((b) => h('option', { value: b, text: b })),
  );
  const go = (delta) => () => {
    stopPlay(c);
    c.set({ longStep: clampStep(c, c.state.longStep + delta) });
  };
  v.prev = button('btn', s('prev'), go(-1));
  v.next = button('btn primary', s('next'), go(1));
  v.play = button('btn', s('play'), () => togglePlay(c));
  v.reset = button('btn', s('reset'), () => {
    stopPlay(c);
    c.set({ longStep: 0 });
  });
  v.stepText = h('p', { class: 'long-status', 'aria-live': 'polite' });
  v.svg = svgEl('svg', { class: 'long-svg', role: 'img', viewBox: `0 0 ${MAX_W} ${H}` });
  v.caption = h('figcaption', { class: 'long-caption' });
  v.save = createSaveButtons(
    () => svgScene(v.svg, { title: v.caption.textContent }),
    () => v.caption.textContent,
  );
  v.figure = h('figure', { class: 'long-figure', 'data-figure': 'main' }, v.caption, v.svg, v.stepText, v.save.el);
  v.explain = h('p', { class: 'msg info long-explain', 'aria-live': 'polite' });
  v.table = h('div', { class: 'long-table' });
  v.outputs = h('div', { class: 'long-outputs' });
  c.onLeave(() => {
    clearInterval(c.ui.timer);
    v.tilingMotion?.cancel();
  });
  v.controls = [
    h(
      'div',
      { class: 'controls' },
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('row') }), v.row),
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('block') }), v.block),
    ),
    h('div', { class: 'controls long-run' }, v.reset, v.prev, v.next, v.play),
  ];
  return [
    v.figure,
    v.explain,
    h('p', { class: 'explain', text: s('p.tiling1') }),
    h('p', { class: 'explain', text: s('p.tiling2') }),
    v.table,
    v.outputs,
  ];
}

// Beside the figure: the query row, the block size, and the steps through the blocks.
export const tilingControls = (c, v) => v.controls;

const blocksOf = (c) => Math.ceil(TRACE_N / Number(c.state.longBlock));
const clampStep = (c, k) => Math.max(0, Math.min(blocksOf(c), k));

function stopPlay(c) {
  clearInterval(c.ui.timer);
  c.ui.timer = null;
  const v = c.step('tiling');
  if (v.play) v.play.textContent = c.s('play');
}

function togglePlay(c) {
  if (c.ui.timer) return stopPlay(c);
  if (c.state.longStep >= blocksOf(c)) c.set({ longStep: 0 });
  c.step('tiling').play.textContent = c.s('pause');
  c.ui.timer = setInterval(() => {
    const k = c.state.longStep + 1;
    if (k > blocksOf(c) || c.state.stage !== 'tiling') return stopPlay(c);
    c.set({ longStep: k });
    if (k === blocksOf(c)) stopPlay(c);
  }, PLAY_MS);
}

// ---- the figure ------------------------------------------------------------------------------

// The score panel above, the key indices, the running-sum panel below; the values of m and l in
// the right margin. As wide as the figure (between MIN_W and MAX_W, so its text keeps its size;
// a key index every other key where they would not fit), H high.
const MIN_W = 300;
const MAX_W = 560;
const H = 310;
const LEFT = 46;
const RIGHT = 84;
const SCORES = [24, 164]; // top, bottom of the scores panel
const KEYS_Y = 180; // the key indices
const SUMS = [214, 290]; // top, bottom of the running-sum panel

const stateOf = (blk, step) => (blk < step - 1 ? 'done' : blk === step - 1 ? 'current' : 'todo');

// An axis (d3) on the left of a panel, ticks in the page's number format.
function leftAxis(scale, ticks) {
  const g = svgEl('g', { class: 'long-yaxis', transform: `translate(${LEFT},0)` });
  select(g).call(
    axisLeft(scale)
      .ticks(ticks)
      .tickFormat((x) => fmt(x, Math.abs(x) < 10 && !Number.isInteger(x) ? 1 : 0)),
  );
  return g;
}

// Draws the figure for `step` blocks folded in; returns the parts the motion moves.
function drawFigure(c, v, { scores, rows, b, step }) {
  const { s } = c;
  const n = scores.length;
  const W = Math.max(MIN_W, Math.min(MAX_W, v.figure.clientWidth || MAX_W));
  v.svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const bw = (W - LEFT - RIGHT) / n;
  const every = bw < 18 ? 2 : 1;
  const xKey = (j) => LEFT + j * bw;
  const y = scaleLinear()
    .domain([Math.min(0, ...scores), Math.max(0, ...scores)])
    .nice()
    .range([SCORES[1], SCORES[0]]);
  const yl = scaleLinear()
    .domain([0, Math.max(...rows.map((r) => r.l))])
    .nice()
    .range([SUMS[1], SUMS[0]]);
  const kids = [
    svgEl('text', { x: 4, y: SCORES[0] - 10, class: 'long-axis-title' }, s('axisScore')),
    leftAxis(y, 4),
    svgEl('text', { x: 4, y: SUMS[0] - 10, class: 'long-axis-title' }, s('axisSum')),
    leftAxis(yl, 3),
    svgEl('line', { x1: LEFT, x2: W - RIGHT, y1: y(0), y2: y(0), class: 'long-axis' }),
    svgEl('line', { x1: LEFT, x2: W - RIGHT, y1: SUMS[1], y2: SUMS[1], class: 'long-axis' }),
    svgEl('text', { x: LEFT - 6, y: KEYS_Y, class: 'long-tick', 'text-anchor': 'end' }, s('axisKey')),
  ];
  let tile = null;
  for (const r of rows) {
    const frame = svgEl('rect', {
      x: xKey(r.j0) + 1,
      y: SCORES[0] - 6,
      width: (r.j1 - r.j0 + 1) * bw - 2,
      height: SCORES[1] - SCORES[0] + 8,
      class: `long-tile ${stateOf(r.block, step)}`,
    });
    kids.push(frame);
    if (r.block === step - 1) tile = frame;
  }
  scores.forEach((x, j) => {
    kids.push(
      svgEl('rect', {
        x: xKey(j) + bw * 0.2,
        y: Math.min(y(x), y(0)),
        width: bw * 0.6,
        height: Math.abs(y(x) - y(0)),
        class: `long-bar ${stateOf(Math.floor(j / b), step)}`,
      }),
    );
    if (j % every === 0)
      kids.push(
        svgEl('text', { x: xKey(j) + bw / 2, y: KEYS_Y, class: 'long-tick', 'text-anchor': 'middle' }, String(j)),
      );
  });
  // each folded block: the m it left (on its frame), and l as carried over + added by the block
  for (const r of rows.slice(0, step)) {
    const x0 = xKey(r.j0);
    const x1 = xKey(r.j1 + 1);
    const mid = (x0 + x1) / 2;
    const half = Math.min(bw * 0.8, (x1 - x0) * 0.3);
    const state = stateOf(r.block, step);
    kids.push(svgEl('line', { x1: x0 + 2, x2: x1 - 2, y1: y(r.m), y2: y(r.m), class: 'long-mpast' }));
    if (r.carried > 0)
      kids.push(
        svgEl('rect', {
          x: mid - half,
          y: yl(r.carried),
          width: 2 * half,
          height: yl(0) - yl(r.carried),
          class: 'long-carried',
        }),
      );
    kids.push(
      svgEl('rect', {
        x: mid - half,
        y: yl(r.l),
        width: 2 * half,
        height: yl(r.carried) - yl(r.l),
        class: `long-added ${state}`,
      }),
    );
    // the sum before it was rescaled, outlined, where the current block shrank it
    if (state === 'current' && r.block > 0 && r.rescale < 1)
      kids.push(
        svgEl('rect', {
          x: mid - half,
          y: yl(rows[r.block - 1].l),
          width: 2 * half,
          height: yl(0) - yl(rows[r.block - 1].l),
          class: 'long-before',
        }),
      );
  }
  const now = step > 0 ? rows[step - 1] : null;
  const parts = { tile, mLine: null, mLabel: null, m: now ? y(now.m) : null, top: SCORES[0] };
  if (now) {
    parts.mLine = svgEl('line', { x1: LEFT, x2: W - RIGHT + 4, y1: y(now.m), y2: y(now.m), class: 'long-max' });
    parts.mLabel = svgEl('text', { x: W - RIGHT + 8, y: y(now.m) + 4, class: 'long-mlabel' }, `m = ${fmt(now.m, 3)}`);
    kids.push(
      parts.mLine,
      parts.mLabel,
      svgEl('text', { x: W - RIGHT + 8, y: yl(now.l) + 4, class: 'long-llabel' }, `l = ${fmt(now.l, 3)}`),
    );
  }
  v.svg.replaceChildren(...kids);
  return parts;
}

export function drawTiling(c, data, v) {
  const { state, s } = c;
  const { trace, naive } = data;
  const i = state.longRow;
  const b = trace.blockSize;
  const blocks = trace.blocks;
  const step = clampStep(c, state.longStep);
  v.row.value = String(i);
  v.block.value = String(b);
  v.prev.disabled = step === 0;
  v.next.disabled = step === blocks;
  setText(v.stepText, s('stepOf', { k: step, blocks }));
  const rows = traceRow(trace, i);
  const scores = Array.from(trace.scores.data.subarray(i * TRACE_N, (i + 1) * TRACE_N));
  const parts = drawFigure(c, v, { scores, rows, b, step });
  moveTiling(v, { key: `${state.seed}|${i}|${b}`, step, ...parts });
  setText(v.caption, s('tilingTitle', { i, n: TRACE_N, b }));
  v.save.label();
  const now = step > 0 ? rows[step - 1] : null;
  v.svg.setAttribute(
    'aria-label',
    `${s('scoresLabel', { i, b })}${s('colon')}${list(
      c.lang,
      scores.map((x, j) => `${j} ${fmt(x, 2)}`),
    )}${now ? `${c.lang === 'zh' ? '；' : '; '}m = ${fmt(now.m, 3)}, l = ${fmt(now.l, 3)}` : ''}`,
  );

  // what the last folded block did, in words, with the engine's numbers
  if (!now) setText(v.explain, s('atStart'));
  else {
    const p = {
      c: now.block,
      j0: now.j0,
      j1: now.j1,
      bm: fmt(now.blockMax, 3),
      m: fmt(now.m, 3),
      r: fmt(now.rescale, 3),
      l: fmt(now.l, 3),
    };
    setText(v.explain, s(now.block === 0 ? 'first' : now.rescale !== 1 ? 'grows' : 'same', p));
  }

  // the table behind the figure: one row per folded block
  v.table.replaceChildren(
    dataTable({
      caption: s('traceCaption', { i }),
      head: [s('colBlock'), s('colKeys'), s('colBlockMax'), s('colM'), s('colRescale'), s('colL')],
      rows: rows
        .slice(0, step)
        .map((r) => [
          String(r.block),
          `${r.j0}–${r.j1}`,
          fmt(r.blockMax, 3),
          fmt(r.m, 3),
          r.block === 0 ? '—' : fmt(r.rescale, 3),
          fmt(r.l, 3),
        ]),
    }),
  );

  // after the last block: the flash output next to the naive one
  if (step === blocks) {
    const row = (m) =>
      Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols))
        .map((x) => fmt(x, 4))
        .join(', ');
    v.outputs.replaceChildren(
      h('p', { text: s('outputs', { i }) }),
      h('p', { class: 'long-vec' }, h('strong', { text: `${s('flashOut')}${s('colon')}` }), `[${row(trace.output)}]`),
      h('p', { class: 'long-vec' }, h('strong', { text: `${s('naiveOut')}${s('colon')}` }), `[${row(naive.output)}]`),
    );
  } else v.outputs.replaceChildren();
}

// From the last step of the same trace (same seed, row and block size) to this one, the running
// max's line slides from where it was (from the top at the first block) and the current block's
// frame from the block before: about MOTION_MS, none under prefers-reduced-motion
// (views/motion.js); the figure's data-motion says running or done. The numbers (table, words)
// are the new step's at once; only the picture moves.
function moveTiling(v, now) {
  const was = v.tilingShown;
  v.tilingShown = {
    key: now.key,
    step: now.step,
    m: now.m,
    tileX: now.tile ? Number(now.tile.getAttribute('x')) : null,
  };
  v.tilingMotion?.cancel();
  if (!was || was.key !== now.key || was.step === now.step || now.m === null) return markMotion(v.figure, 'done');
  const m0 = was.m ?? now.top,
    m1 = now.m;
  const x0 = was.tileX,
    x1 = v.tilingShown.tileX;
  v.tilingMotion = tween(
    MOTION_MS,
    (t) => {
      const my = m0 + (m1 - m0) * t;
      now.mLine.setAttribute('y1', my);
      now.mLine.setAttribute('y2', my);
      now.mLabel.setAttribute('y', my + 4);
      if (x0 !== null && now.tile) now.tile.setAttribute('x', x0 + (x1 - x0) * t);
    },
    { el: v.figure },
  );
}
