// Chapter 9: long sequences. O(n²) time and memory measured live (naive, flash and windowed
// attention in Web Workers, attend-pool.js), the online softmax of tiled attention block by
// block (engine.flashTrace), sliding-window and strided masks as the engine applies them, and
// when each is worth it. Every number comes from the engine or from a measurement.

import { h, isFocused, setText } from '../../views/dom.js';
import { createSaveButtons, svgScene } from '../../views/save.js';
import { createBars } from '../../views/bars.js';
import { createHeatmap } from '../../views/heatmap.js';
import { dataTable } from '../../views/table.js';
import { fmt } from '../../text/format.js';
import { heatmapStrings, list } from '../../text/i18n.js';
import { createAttendPool } from '../../workers/attend-pool.js';
import { createRun } from '../../workers/run.js';
import { createPredict } from '../kit/predict.js';
import strings from './strings.js';
import meta, { TRACE_N, PATTERN_N } from './meta.js';
import { AMBER, WEIGHT } from '../../views/palette.js';
import { buildSweep, drawSweep, followSweep, sweepCharts, drawSweepCharts, SWEEP_FROM } from './sweep.js';
import { MOTION_MS, markMotion, tween } from '../../views/motion.js';

const D = 64; // head size of the measured runs
const TRACE_D = 8; // the tiling animation's d (TRACE_N queries and keys)
const PATTERN_BLOCK = 8;
const METHODS = ['naive', 'flash', 'window'];
const MIB = 2 ** 20;

export default {
  ...meta,
  strings,
  steps: [
    { id: 'cost', title: { en: 'Time and memory', zh: '时间与内存' }, build: buildCost, draw: drawCost },
    { id: 'tiling', title: { en: 'The online softmax', zh: '在线 softmax' }, build: buildTiling, draw: drawTiling },
    { id: 'patterns', title: { en: 'Window and stride', zh: '窗口与跨步' }, build: buildPatterns, draw: drawPatterns },
    { id: 'when', title: { en: 'When to use which', zh: '何时用哪种' }, build: buildWhen, draw: drawWhen },
  ],
  compute,
  leave(c) {
    clearInterval(c.ui.timer);
    c.step('tiling')?.tilingMotion?.cancel();
  },
};

// ---- the engine calls every part draws from ---------------------------------------------------

// (rows, cols) from the engine's RNG, 2048 rows at a time (randomMatrix's row limit).
function randomRows(engine, rows, cols, seed, stream) {
  const data = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r += 2048) {
    const part = engine.randomMatrix({ rows: Math.min(2048, rows - r), cols, seed, stream: stream * 64 + r / 2048 });
    data.set(part.data, r * cols);
  }
  return { rows, cols, data };
}

const patternOptions = (p, w) =>
  ({
    full: {},
    causal: { causal: true },
    window: { window: w },
    stride: { stride: Math.max(1, w) },
    'causal-window': { causal: true, window: w },
  })[p];

function compute(c) {
  const { engine, state } = c;
  followSweep(c, randomRows); // a sweep the cost or when step started stops when they are left
  if (state.stage === 'tiling') {
    const x = (stream) => engine.randomMatrix({ rows: TRACE_N, cols: TRACE_D, seed: state.seed, stream });
    const o = { query: x(1), key: x(2), value: x(3) };
    return { trace: engine.flashTrace({ ...o, blockSize: Number(state.longBlock) }), naive: engine.attend(o) };
  }
  if (state.stage === 'patterns') {
    const x = (stream) => engine.randomMatrix({ rows: PATTERN_N, cols: 4, seed: state.seed, stream });
    return {
      pattern: engine.flashTrace({
        query: x(4),
        key: x(5),
        value: x(6),
        blockSize: PATTERN_BLOCK,
        ...patternOptions(state.longPattern, state.longWidth),
      }),
    };
  }
  return null;
}

// ---- 1. time and memory, measured in workers --------------------------------------------------

// The engine's messages are English: quoted as such inside a sentence of the page's language.
const englishQuote = (text) => h('span', { lang: 'en', text });

const methodName = (c, m, w) => (m === 'window' ? c.s('windowed', { w }) : c.s(m));

function buildCost(c, v) {
  const { s } = c;
  v.predict = createPredict(c, {
    id: 'long/memory',
    question: s('predict'),
    options: [
      { value: '2', label: s('predict2') },
      { value: '4', label: s('predict4') },
    ],
  });
  v.nInput = h('input', {
    type: 'range',
    min: '6',
    max: '14',
    step: '1',
    id: 'long-n',
    oninput: (e) => c.set({ longN: 2 ** Number(e.target.value) }),
  });
  v.nText = h('output', { for: 'long-n', class: 'long-value' });
  v.window = h('input', {
    type: 'number',
    min: '0',
    max: '16384',
    step: '1',
    id: 'long-w',
    class: 'long-num',
    onchange: (e) => {
      const w = Number(e.target.value);
      if (Number.isInteger(w) && w >= 0 && w <= 16384) c.set({ longWindow: w });
    },
  });
  v.workers = h(
    'select',
    { id: 'long-workers', onchange: (e) => c.set({ longWorkers: Number(e.target.value) }) },
    ...[1, 2, 4].map((k) => h('option', { value: String(k), text: String(k) })),
  );
  const run = (methods) => () => runMethods(c, methods);
  v.buttons = [
    h('button', { type: 'button', class: 'btn', text: s('runNaive'), onclick: run(['naive']) }),
    h('button', { type: 'button', class: 'btn', text: s('runFlash'), onclick: run(['flash']) }),
    h('button', { type: 'button', class: 'btn', text: s('runWindow'), onclick: run(['window']) }),
    h('button', { type: 'button', class: 'btn primary', text: s('runAll'), onclick: run(METHODS) }),
  ];
  v.stop = h('button', {
    type: 'button',
    class: 'btn',
    text: s('stop'),
    disabled: true,
    onclick: () => runnerOf(c).stop(),
  });
  v.progress = h('progress', { max: '1', value: '0', 'aria-label': s('idle') });
  v.status = h('p', { class: 'long-status', role: 'status', text: s('idle') });
  v.refused = h('p', { class: 'msg bad long-refused', role: 'alert' });
  const charts = h('div', { class: 'long-charts' });
  v.timeBars = createBars(charts, { color: WEIGHT });
  v.memBars = createBars(charts, { color: AMBER });
  v.noRuns = h('p', { class: 'hint' });
  v.table = h('div', { class: 'long-table' });
  return [
    h('p', { class: 'explain', text: s('p.cost1') }),
    h('p', { class: 'explain', text: s('p.cost2') }),
    v.predict.el,
    buildSweep(c, v, randomRows),
    h('h4', { class: 'long-single', text: s('singleRuns') }),
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('n') }), v.nInput, v.nText),
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('window') }), v.window),
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('workers') }), v.workers),
    ),
    h('div', { class: 'controls long-run' }, ...v.buttons, v.stop),
    v.progress,
    v.status,
    v.refused,
    v.noRuns,
    charts,
    v.table,
  ];
}

function drawCost(c, data, v) {
  const { state, s } = c;
  const n = state.longN;
  // n × n cells: twice the tokens, four times the cells (the runs measure it)
  v.predict.draw('4', { right: s('predictWhy'), wrong: s('predictWhy') });
  v.nInput.value = String(Math.round(Math.log2(n)));
  v.nText.textContent = `n = ${n}`;
  if (!isFocused(v.window)) v.window.value = String(state.longWindow);
  v.workers.value = String(state.longWorkers);
  drawSweep(c, v);
  followSweep(c, randomRows, { drawing: true }); // opened with nothing measured: the short sweep

  const runs = c.ui.runs || [];
  const last = (m) => runs.filter((r) => r.n === n && r.method === m).at(-1);
  const shown = METHODS.map(last);
  const refused = shown[0]?.refused;
  v.refused.replaceChildren(...(refused ? [s('refused', { n }), englishQuote(refused)] : []));
  const measured = shown.filter((r) => r && !r.refused);
  v.noRuns.textContent = measured.length ? '' : s('noRuns');
  const labels = [s('naive'), s('flash'), s('windowShort')];
  for (const [bars, key, title] of [
    [v.timeBars, 'ms', 'timeTitle'],
    [v.memBars, 'mib', 'memTitle'],
  ]) {
    bars.el.hidden = measured.length === 0;
    if (measured.length) {
      bars.update({
        values: shown.map((r) => (r && !r.refused ? r[key] : NaN)),
        labels,
        caption: s(title, { n }),
        digits: 0,
      });
    }
  }
  v.table.replaceChildren(
    runs.length
      ? dataTable({
          caption: s('tableCaption'),
          head: [s('colN'), s('colMethod'), s('colMs'), s('colMib'), s('colWorkers')],
          rows: runs.map((r) => [
            String(r.n),
            methodName(c, r.method, r.window),
            r.refused ? s('refusedCell') : fmt(r.ms, 0),
            r.refused ? '—' : fmt(r.mib, 0),
            String(r.workers),
          ]),
        })
      : '',
  );
}

function setBusy(c, busy) {
  const v = c.step('cost');
  for (const b of v.buttons) b.disabled = busy;
  v.stop.disabled = !busy;
}

// One measuring run at a time (run.js): the latest request wins, Stop terminates the workers.
function runnerOf(c) {
  if (c.ui.runner) return c.ui.runner;
  const v = c.step('cost');
  const s = c.s;
  const live = { pool: null };
  c.ui.runner = createRun({
    key: (args) => String(args.click),
    job: (args, onProgress) => measure(c, args, onProgress, live),
    cancel: () => live.pool?.terminate(),
    onStart: () => {
      setBusy(c, true);
      v.refused.replaceChildren();
    },
    onProgress: (partial, done, total) => {
      v.progress.value = total ? done / total : 0;
      v.status.textContent =
        done === 0
          ? s('loading', { method: partial.name, workers: partial.workers })
          : s('running', { method: partial.name, pct: Math.round((100 * done) / total) });
    },
    onDone: () => {
      setBusy(c, false);
      v.progress.value = 1;
    },
    onStop: () => {
      setBusy(c, false);
      v.status.textContent = s('stopped');
    },
    onError: (e) => {
      setBusy(c, false);
      if (!e || e.name !== 'AttentionError') console.error(e);
      v.refused.replaceChildren(
        ...(e && e.name === 'AttentionError'
          ? [s('engineSays'), englishQuote(e.message)]
          : [c.t('chapterError', { msg: e && e.message })]),
      );
    },
  });
  c.onLeave(() => c.ui.runner.dispose());
  return c.ui.runner;
}

function runMethods(c, methods) {
  c.ui.clicks = (c.ui.clicks || 0) + 1;
  const { longN: n, longWindow: w, longWorkers: workers, seed } = c.state;
  runnerOf(c).request({ click: c.ui.clicks, methods, n, w, workers, seed });
}

// Runs the methods one after another at length n, each in a fresh pool of workers (so its
// memory afterwards is the run's peak); records each result and redraws. null when stopped.
async function measure(c, { methods, n, w, workers, seed }, onProgress, live) {
  const { engine, s } = c;
  const v = c.step('cost');
  c.ui.runs = c.ui.runs || [];
  const redraw = () => {
    if (c.state.stage === 'cost') drawCost(c, c.data, v);
  };
  const o = {
    query: randomRows(engine, n, D, seed, 1),
    key: randomRows(engine, n, D, seed, 2),
    value: randomRows(engine, n, D, seed, 3),
  };
  for (const m of methods) {
    const name = methodName(c, m, w);
    if (m === 'naive' && n > engine.limits.maxTokens) {
      // the engine refuses before it allocates; its message names the memory it would need
      try {
        engine.attend(o);
      } catch (e) {
        if (e.name !== 'AttentionError') throw e;
        c.ui.runs.push({ n, method: m, window: w, workers, refused: e.message });
        redraw();
        continue;
      }
    }
    onProgress(0, n, { name, workers });
    const pool = createAttendPool({ workers, simd: engine.simd });
    live.pool = pool;
    try {
      await pool.ready();
      const options = m === 'window' ? { ...o, window: w } : o;
      const r = await pool.run(m === 'naive' ? 'naive' : 'flash', options, (done, total) =>
        onProgress(done, total, { name, workers }),
      );
      if (r === null) return null;
      const mib = r.workers.reduce((a, x) => a + x.heapBytes, 0) / MIB;
      c.ui.runs.push({ n, method: m, window: w, workers, ms: r.ms, mib });
      v.status.textContent = s('doneRun', { method: name, n, ms: fmt(r.ms, 0), mib: fmt(mib, 0), workers });
      redraw();
    } finally {
      pool.terminate();
      if (live.pool === pool) live.pool = null; // a newer run's pool stays stoppable
    }
  }
  return c.ui.runs;
}

// ---- 2. the online softmax, block by block ----------------------------------------------------

const SVG_NS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, x] of Object.entries(attrs)) el.setAttribute(k, String(x));
  if (text !== undefined) el.textContent = text;
  return el;
}

function buildTiling(c, v) {
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
  v.prev = h('button', { type: 'button', class: 'btn', text: s('prev'), onclick: go(-1) });
  v.next = h('button', { type: 'button', class: 'btn primary', text: s('next'), onclick: go(1) });
  v.play = h('button', { type: 'button', class: 'btn', text: s('play'), onclick: () => togglePlay(c) });
  v.reset = h('button', {
    type: 'button',
    class: 'btn',
    text: s('reset'),
    onclick: () => {
      stopPlay(c);
      c.set({ longStep: 0 });
    },
  });
  v.stepText = h('p', { class: 'long-status', 'aria-live': 'polite' });
  v.svg = svgEl('svg', { class: 'long-svg', role: 'img', viewBox: '0 0 480 200' });
  v.save = createSaveButtons(
    () => svgScene(v.svg, { title: v.title }),
    () => v.title,
  );
  v.explain = h('p', { class: 'msg info long-explain', 'aria-live': 'polite' });
  v.table = h('div', { class: 'long-table' });
  v.outputs = h('div', { class: 'long-outputs' });
  return [
    h('p', { class: 'explain', text: s('p.tiling1') }),
    h('p', { class: 'explain', text: s('p.tiling2') }),
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('row') }), v.row),
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('block') }), v.block),
    ),
    h('div', { class: 'controls long-run' }, v.reset, v.prev, v.next, v.play),
    v.stepText,
    (v.figure = h('figure', { class: 'long-figure' }, v.svg, v.save.el)),
    v.explain,
    v.table,
    v.outputs,
  ];
}

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
  }, 1400);
}

function drawTiling(c, data, v) {
  const { state, s } = c;
  const { trace, naive } = data;
  const i = state.longRow,
    b = trace.blockSize,
    blocks = trace.blocks;
  const step = clampStep(c, state.longStep);
  v.row.value = String(i);
  v.block.value = String(b);
  v.prev.disabled = step === 0;
  v.next.disabled = step === blocks;
  v.stepText.textContent = s('stepOf', { k: step, blocks });
  const at = (name, blk) => trace[name].data[blk * trace[name].cols + i];
  const scores = Array.from(trace.scores.data.subarray(i * TRACE_N, (i + 1) * TRACE_N));

  // the row of scores as bars, blocks framed; folded blocks solid; m as a dashed line
  const W = 480,
    H = 200,
    left = 34,
    top = 14,
    bottom = 26;
  const lo = Math.min(0, ...scores),
    hi = Math.max(0, ...scores);
  const y = (x) => top + ((hi - x) / (hi - lo || 1)) * (H - top - bottom);
  const bw = (W - left - 8) / TRACE_N;
  const kids = [svgEl('line', { x1: left, x2: W - 8, y1: y(0), y2: y(0), class: 'long-axis' })];
  for (let blk = 0; blk < blocks; blk++) {
    const cls = blk < step - 1 ? 'done' : blk === step - 1 ? 'current' : 'todo';
    kids.push(
      svgEl('rect', {
        x: left + blk * b * bw + 1,
        y: top - 10,
        width: b * bw - 2,
        height: H - top - bottom + 12,
        class: `long-tile ${cls}`,
      }),
    );
  }
  scores.forEach((x, j) => {
    const blk = Math.floor(j / b);
    const cls = blk < step - 1 ? 'done' : blk === step - 1 ? 'current' : 'todo';
    kids.push(
      svgEl('rect', {
        x: left + j * bw + bw * 0.2,
        y: Math.min(y(x), y(0)),
        width: bw * 0.6,
        height: Math.abs(y(x) - y(0)),
        class: `long-bar ${cls}`,
      }),
    );
    kids.push(
      svgEl('text', { x: left + j * bw + bw / 2, y: H - 8, class: 'long-tick', 'text-anchor': 'middle' }, String(j)),
    );
  });
  const m = step > 0 ? at('runningMax', step - 1) : null;
  const mLine = svgEl('line', { x1: left, x2: W - 8, y1: y(m), y2: y(m), class: 'long-max' });
  const mLabel = svgEl('text', { x: 4, y: y(m) + 4, class: 'long-mlabel' }, 'm');
  if (step > 0) kids.push(mLine, mLabel);
  v.svg.replaceChildren(...kids);
  const tile = step > 0 ? kids[step] : null; // kids: the axis, then one frame per block
  moveTiling(v, { key: `${state.seed}|${i}|${b}`, step, m: m === null ? null : y(m), top, tile, mLine, mLabel });
  v.title = s('scoresLabel', { i, b });
  v.save.label();
  v.svg.setAttribute(
    'aria-label',
    `${s('scoresLabel', { i, b })}${s('colon')}${list(
      c.lang,
      scores.map((x, j) => `${j} ${fmt(x, 2)}`),
    )}`,
  );

  // what the last folded block did, in words, with the engine's numbers
  if (step === 0) v.explain.textContent = s('atStart');
  else {
    const blk = step - 1;
    const r = at('rescale', blk);
    const p = {
      c: blk,
      j0: blk * b,
      j1: blk * b + b - 1,
      bm: fmt(at('blockMax', blk), 3),
      m: fmt(at('runningMax', blk), 3),
      r: fmt(r, 3),
      l: fmt(at('runningSum', blk), 3),
    };
    v.explain.textContent = s(blk === 0 ? 'first' : r !== 1 ? 'grows' : 'same', p);
  }

  // the table behind the animation: one row per folded block
  const rows = [];
  for (let blk = 0; blk < step; blk++) {
    rows.push([
      String(blk),
      `${blk * b}–${blk * b + b - 1}`,
      fmt(at('blockMax', blk), 3),
      fmt(at('runningMax', blk), 3),
      blk === 0 ? '—' : fmt(at('rescale', blk), 3),
      fmt(at('runningSum', blk), 3),
    ]);
  }
  v.table.replaceChildren(
    dataTable({
      caption: s('traceCaption', { i }),
      head: [s('colBlock'), s('colKeys'), s('colBlockMax'), s('colM'), s('colRescale'), s('colL')],
      rows,
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

// ---- 3. window and strided masks ------------------------------------------------------------

function buildPatterns(c, v) {
  const { s } = c;
  const names = {
    full: 'pFull',
    causal: 'pCausal',
    window: 'pWindow',
    stride: 'pStride',
    'causal-window': 'pCausalWindow',
  };
  v.pattern = h(
    'select',
    { id: 'long-pattern', onchange: (e) => c.set({ longPattern: e.target.value }) },
    ...Object.entries(names).map(([p, key]) => h('option', { value: p, text: s(key) })),
  );
  v.width = h('input', {
    type: 'number',
    min: '0',
    max: String(PATTERN_N),
    step: '1',
    class: 'long-num',
    onchange: (e) => {
      const w = Number(e.target.value);
      if (Number.isInteger(w) && w >= 0 && w <= PATTERN_N) c.set({ longWidth: w });
    },
  });
  const box = h('div', { class: 'long-mask' });
  v.heatmap = createHeatmap(box, { label: s('maskLabel'), strings: heatmapStrings(c.lang), digits: 0 });
  v.caption = h('p', { class: 'hint', 'aria-live': 'polite' });
  return [
    h('p', { class: 'explain', text: s('p.patterns1') }),
    h('p', { class: 'explain', text: s('p.patterns2') }),
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('pattern') }), v.pattern),
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('width') }), v.width),
    ),
    box,
    v.caption,
  ];
}

function drawPatterns(c, data, v) {
  const { state, s } = c;
  const t = data.pattern;
  v.pattern.value = state.longPattern;
  if (!isFocused(v.width)) v.width.value = String(state.longWidth);
  v.width.disabled = state.longPattern === 'full' || state.longPattern === 'causal';
  // allowed cells: the engine's scores are -inf exactly where its mask blocks
  const allowed = { rows: PATTERN_N, cols: PATTERN_N, data: t.scores.data.map((x) => (x === -Infinity ? 0 : 1)) };
  const labels = Array.from({ length: PATTERN_N }, (_, k) => String(k));
  v.heatmap.update({
    matrix: allowed,
    rowLabels: labels,
    colLabels: labels,
    domain: [0, 1],
    blocked: allowed,
    caption: s('maskLabel'),
  });
  let count = 0;
  for (const x of allowed.data) count += x;
  // skipped tiles: one entry per (key block, query); the first query of each query block speaks for its tile
  let skipped = 0;
  const tiles = t.blocks * Math.ceil(PATTERN_N / PATTERN_BLOCK);
  for (let kb = 0; kb < t.blocks; kb++)
    for (let q = 0; q < PATTERN_N; q += PATTERN_BLOCK) skipped += t.skipped.data[kb * PATTERN_N + q];
  v.caption.textContent = s('maskCaption', {
    allowed: count,
    cells: PATTERN_N * PATTERN_N,
    pct: fmt((100 * count) / (PATTERN_N * PATTERN_N), 0),
    skipped,
    tiles,
  });
}

// ---- 4. when each is worth it -----------------------------------------------------------------

// The step opens on the sweep's charts (the cost step's sweep, or the short one it starts when
// nothing was measured yet), then the thresholds in words and the learner's own runs.
function buildWhen(c, v) {
  const { s } = c;
  v.mine = h('div', { class: 'long-mine' });
  v.sweep = sweepCharts(c);
  v.sweepNote = h('p', { class: 'hint long-when-sweep', role: 'status' });
  v.cancel = h('button', {
    type: 'button',
    class: 'btn long-when-cancel',
    text: s('cancel'),
    onclick: () => c.ui.sweepRunner?.stop(),
  });
  v.figure = h('div', { class: 'long-when-figure', 'data-figure': 'main', 'aria-busy': 'true' }, v.sweep.sweepCharts);
  c.ui.drawWhenSweep = () => drawWhenSweep(c, v);
  return [
    v.figure,
    h('div', { class: 'long-when-status' }, v.sweepNote, v.cancel),
    h('p', { class: 'explain', text: s('p.when1') }),
    h('p', { class: 'explain', text: s('p.when2') }),
    h('p', { class: 'explain', text: s('p.when3') }),
    h('p', { class: 'explain', text: s('p.when4') }),
    v.mine,
  ];
}

function drawWhenSweep(c, v) {
  const { s } = c;
  const run = c.ui.sweepRunner;
  const running = !!run?.running;
  v.cancel.disabled = !running;
  const drawn = drawSweepCharts(c, v.sweep);
  if (drawn) v.figure.removeAttribute('aria-busy');
  const sw = c.ui.sweep;
  const measured = sw ? [...new Set(sw.points.filter((p) => !p.refused).map((p) => p.n))] : [];
  setText(
    v.sweepNote,
    running
      ? s('whenMeasuring', { from: SWEEP_FROM, to: sw.sizes.at(-1) })
      : measured.length
        ? s('whenSwept', { from: SWEEP_FROM, to: measured.at(-1) })
        : s('whenNone'),
  );
}

function drawWhen(c, data, v) {
  const { s } = c;
  drawWhenSweep(c, v);
  followSweep(c, randomRows, { drawing: true }); // opened with nothing measured: the short sweep
  const runs = (c.ui.runs || []).filter((r) => !r.refused);
  const sizes = [...new Set(runs.map((r) => r.n))].sort((a, b) => a - b);
  if (!sizes.length) {
    v.mine.replaceChildren(h('p', { class: 'hint', text: s('noneYet') }));
    return;
  }
  const cell = (n, m) => {
    const r = runs.filter((x) => x.n === n && x.method === m).at(-1);
    return r ? fmt(r.ms, 0) : '—';
  };
  v.mine.replaceChildren(
    h('p', { text: s('yourRuns') }),
    dataTable({
      caption: s('timeTitle', { n: sizes.join(', ') }),
      head: [
        s('colN'),
        s('naive'),
        s('flash'),
        s('windowed', { w: runs.filter((r) => r.method === 'window').at(-1)?.window ?? c.state.longWindow }),
      ],
      rows: sizes.map((n) => [String(n), cell(n, 'naive'), cell(n, 'flash'), cell(n, 'window')]),
    }),
  );
}
