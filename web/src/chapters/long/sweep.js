// The long-sequences lesson's sweep: naive, flash, windowed and linear attention at n = 64, 128,
// … (doubling) in the attend pool's workers, with progress and cancel; time and the bytes each
// method holds for its scores plotted against n on log–log axes (slope 2 and slope 0 or 1 read
// as lines), where naive crosses flash marked, and linear attention's error against exact
// attention at each n. Every number is the engine's: the times are measured, the bytes are what
// the engine reports it held (the naive weights' shape, flash's tileBytes, linear's stateBytes),
// the error is engine.outputError of linear against flash (exact) attention.

import { format } from 'd3-format';
import { h } from '../../views/dom.js';
import { createLineChart } from '../../views/line-chart.js';
import { dataTable } from '../../views/table.js';
import { BLUE, GREEN, ORANGE, WEIGHT } from '../../views/palette.js';
import { fmt, fmtInt } from '../../text/format.js';
import { createAttendPool } from '../../workers/attend-pool.js';
import { createRun } from '../../workers/run.js';
import { FLASH_BLOCK } from '../../engine/choices.js';
import { SWEEP_TO } from './meta.js';

export const SWEEP_FROM = 64;
// The sweep a step of SWEEP_STEPS starts by itself when it opens with nothing measured: n = 64
// … AUTO_TO (a second or so); the learner extends it with "Sweep n". It stops when the learner
// leaves those steps.
export const AUTO_TO = 512;
export const SWEEP_STEPS = ['cost', 'when'];
const METHODS = ['naive', 'flash', 'window', 'linear'];
const COLORS = { naive: ORANGE, flash: BLUE, window: GREEN, linear: WEIGHT };
const DASH = { window: '6 4', linear: '2 3' };
export const REPEATS = 3; // runs per point up to REPEAT_UP_TO, their median plotted
export const REPEAT_UP_TO = 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// n = 64, 128, … up to `to`.
export function sweepSizes(to) {
  const sizes = [];
  for (let n = SWEEP_FROM; n <= to; n *= 2) sizes.push(n);
  return sizes;
}

// Where series a crosses series b (points { x, y } on the same xs), interpolated in log–log
// between the two measured sizes around it; null when one stays above the other.
export function crossover(a, b) {
  const at = (pts, x) => pts.find((p) => p.x === x)?.y;
  const xs = a.map((p) => p.x).filter((x) => at(b, x) > 0 && at(a, x) > 0);
  for (let k = 1; k < xs.length; k++) {
    const d0 = Math.log(at(a, xs[k - 1]) / at(b, xs[k - 1]));
    const d1 = Math.log(at(a, xs[k]) / at(b, xs[k]));
    if (d0 === 0) return xs[k - 1];
    if (d0 < 0 !== d1 < 0 || d1 === 0) {
      const t = d0 / (d0 - d1);
      return Math.exp(Math.log(xs[k - 1]) + t * (Math.log(xs[k]) - Math.log(xs[k - 1])));
    }
  }
  return null;
}

const methodLabel = (c, m, w) => (m === 'window' ? c.s('windowed', { w }) : c.s(m === 'linear' ? 'linearName' : m));

export function buildSweep(c, v, randomRows) {
  const { s } = c;
  v.sweepTo = h(
    'select',
    { id: 'long-sweep-to', onchange: (e) => c.set({ longSweepTo: e.target.value }) },
    ...SWEEP_TO.map((n) => h('option', { value: n, text: n })),
  );
  v.sweepGo = h('button', {
    type: 'button',
    class: 'btn primary long-sweep-go',
    text: s('sweep'),
    onclick: () => startSweep(c, randomRows),
  });
  v.sweepCancel = h('button', {
    type: 'button',
    class: 'btn long-sweep-cancel',
    text: s('cancel'),
    disabled: true,
    onclick: () => sweepRunner(c, randomRows).stop(),
  });
  v.sweepProgress = h('progress', {
    class: 'long-sweep-progress',
    max: '1',
    value: '0',
    'aria-label': s('sweepProgress'),
  });
  v.sweepStatus = h('p', { class: 'long-sweep-status', role: 'status', text: s('sweepIdle') });
  Object.assign(v, sweepCharts(c));
  v.sweepCross = h('p', { class: 'hint long-sweep-cross', 'aria-live': 'polite' });
  v.sweepBytesNote = h('p', { class: 'explain long-sweep-note' });
  v.sweepErrors = h('div', { class: 'long-sweep-errors' });
  // aria-busy until the first measured points are drawn (drawSweep)
  v.sweepFigure = h(
    'section',
    { class: 'long-sweep', 'data-figure': 'main', 'aria-busy': 'true' },
    h(
      'div',
      { class: 'controls' },
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('sweepTo') }), v.sweepTo),
      v.sweepGo,
      v.sweepCancel,
    ),
    v.sweepProgress,
    v.sweepStatus,
    v.sweepCharts,
    v.sweepCross,
    v.sweepErrors,
    h('p', { class: 'explain', text: s('p.linear') }),
    v.sweepBytesNote,
  );
  return v.sweepFigure;
}

// The sweep's two charts, time and bytes held against n: { sweepCharts (their box), timeChart,
// bytesChart }.
export function sweepCharts(c) {
  const { s } = c;
  const strings = { showTable: c.t('showTable'), hideTable: s('hideTable') };
  const timeBox = h('div', { class: 'long-sweep-chart long-sweep-time' });
  const bytesBox = h('div', { class: 'long-sweep-chart long-sweep-bytes' });
  const logAxes = { xLabel: s('xN'), xLog: true, yLog: true, width: 560, strings };
  const timeChart = createLineChart(timeBox, {
    ...logAxes,
    label: s('sweepTimeTitle', { reps: REPEATS, upTo: REPEAT_UP_TO }),
    yLabel: s('yMs'),
  });
  const bytesChart = createLineChart(bytesBox, {
    ...logAxes,
    label: s('sweepBytesTitle'),
    yLabel: s('yBytes'),
    yTicks: format('~s'),
  });
  return { sweepCharts: h('div', { class: 'long-sweep-charts' }, timeBox, bytesBox), timeChart, bytesChart };
}

// Whether the sweep so far has a measured point to draw.
export const sweepDrawn = (c) => !!c.ui.sweep && c.ui.sweep.points.some((p) => !p.refused);

// Draws the sweep so far into charts made by sweepCharts (v.timeChart, v.bytesChart); returns
// where naive crosses flash in time and in bytes ({ tCross, bCross }), or null with nothing to draw.
export function drawSweepCharts(c, v) {
  const { s } = c;
  const sw = c.ui.sweep;
  const has = sweepDrawn(c);
  v.sweepCharts.hidden = !has;
  if (!has) return null;
  const series = (key) =>
    METHODS.map((m) => ({
      name: methodLabel(c, m, sw.w),
      color: COLORS[m],
      dash: DASH[m],
      points: sw.points.filter((p) => p.method === m && !p.refused).map((p) => ({ x: p.n, y: p[key] })),
    })).filter((se) => se.points.length);
  const time = series('ms');
  const bytes = series('bytes');
  const pick = (list, m) => list.find((se) => se.name === methodLabel(c, m, sw.w))?.points || [];
  const tCross = crossover(pick(time, 'naive'), pick(time, 'flash'));
  const bCross = crossover(pick(bytes, 'naive'), pick(bytes, 'flash'));
  const room = (list) => {
    const ys = list.flatMap((se) => se.points.map((p) => p.y)).filter((y) => y > 0);
    return ys.length ? [Math.min(...ys) / 2, Math.max(...ys) * 2] : undefined;
  };
  v.timeChart.update({
    series: time,
    yDomain: room(time),
    markX: tCross ?? undefined,
    caption: s('sweepTimeTitle', { reps: REPEATS, upTo: REPEAT_UP_TO }),
    digits: 1,
    format: (y) => fmt(y, 1),
  });
  v.bytesChart.update({
    series: bytes,
    yDomain: room(bytes),
    markX: bCross ?? undefined,
    caption: s('sweepBytesTitle'),
    digits: 0,
    format: (y) => fmtInt(y),
  });
  return { tCross, bCross };
}

export function drawSweep(c, v) {
  const { s, state } = c;
  v.sweepTo.value = state.longSweepTo;
  const sw = c.ui.sweep;
  const crossed = drawSweepCharts(c, v);
  if (!crossed) {
    v.sweepCross.textContent = '';
    v.sweepBytesNote.textContent = '';
    v.sweepErrors.replaceChildren();
    return;
  }
  v.sweepFigure.removeAttribute('aria-busy');
  const { tCross, bCross } = crossed;
  const to = sw.sizes.at(-1);
  v.sweepCross.textContent = [
    bCross ? s('crossBytes', { n: fmt(bCross, 0) }) : s('noCrossBytes', { from: SWEEP_FROM, to }),
    tCross ? s('crossTime', { n: fmt(tCross, 0) }) : s('noCrossTime', { from: SWEEP_FROM, to }),
  ].join(c.lang === 'zh' ? '' : ' ');
  const flash = sw.points.find((p) => p.method === 'flash');
  const linear = sw.points.find((p) => p.method === 'linear');
  v.sweepBytesNote.textContent = s('bytesNote', {
    tile: flash ? fmtInt(flash.bytes) : '—',
    b: sw.block,
    d: sw.d,
    state: linear ? fmtInt(linear.bytes) : '—',
  });
  v.sweepErrors.replaceChildren(
    sw.errors.length
      ? dataTable({
          caption: s('errCaption', { d: sw.d }),
          head: [s('colN'), s('colMaxAbs'), s('colRelative')],
          rows: sw.errors.map((e) => [String(e.n), fmt(e.maxAbs, 4), `${fmt(100 * e.relative, 1)} %`]),
        })
      : '',
  );
}

function setSweepBusy(c, busy) {
  const v = c.step('cost');
  v.sweepGo.disabled = busy;
  v.sweepCancel.disabled = !busy;
}

// One sweep at a time (run.js): Cancel terminates the pool's workers; the points so far stay.
function sweepRunner(c, randomRows) {
  if (c.ui.sweepRunner) return c.ui.sweepRunner;
  const v = c.step('cost');
  const s = c.s;
  const live = { pool: null, at: null };
  c.ui.sweepRunner = createRun({
    key: (args) => String(args.click),
    job: (args, onProgress) => sweep(c, args, onProgress, live, randomRows),
    cancel: () => live.pool?.terminate(),
    onStart: () => setSweepBusy(c, true),
    onProgress: (partial, done, total) => {
      v.sweepProgress.value = total ? done / total : 0;
      if (partial.method === 'warm') {
        v.sweepStatus.textContent = s('sweepWarm', { n: partial.n });
        return;
      }
      v.sweepStatus.textContent = s('sweepRunning', {
        n: partial.n,
        method: methodLabel(c, partial.method, partial.w),
        k: Math.min(total, Math.floor(done) + 1),
        total,
      });
    },
    onDone: (r, args) => {
      setSweepBusy(c, false);
      v.sweepProgress.value = 1;
      const done = { from: SWEEP_FROM, to: r.sizes.at(-1), runs: r.points.length };
      v.sweepStatus.textContent = s(args.auto ? 'sweepDoneAuto' : 'sweepDone', done);
      redrawWhen(c);
    },
    onStop: () => {
      setSweepBusy(c, false);
      v.sweepStatus.textContent = s('sweepCancelled', { n: live.at ?? SWEEP_FROM });
      redrawWhen(c);
    },
    onError: (e) => {
      setSweepBusy(c, false);
      if (!e || e.name !== 'AttentionError') console.error(e);
      v.sweepStatus.textContent =
        e && e.name === 'AttentionError'
          ? `${s('engineSays')}${e.message}`
          : c.t('chapterError', { msg: e && e.message });
    },
  });
  c.onLeave(() => c.ui.sweepRunner.dispose());
  return c.ui.sweepRunner;
}

// A sweep to the state's last n (the learner's), or to AUTO_TO at most (auto: started by a step).
function startSweep(c, randomRows, auto = false) {
  c.ui.sweepClicks = (c.ui.sweepClicks || 0) + 1;
  const { longSweepTo, longWindow: w, longWorkers: workers, seed } = c.state;
  const to = auto ? Math.min(AUTO_TO, Number(longSweepTo)) : Number(longSweepTo);
  sweepRunner(c, randomRows).request({ click: c.ui.sweepClicks, sizes: sweepSizes(to), w, workers, seed, auto });
}

// The steps of SWEEP_STEPS open on the sweep's charts: entering one with nothing measured (and
// no sweep running) starts the short sweep once the step has been drawn on screen (the next
// animation frame, so a step passed through in one go starts nothing); leaving them, or the
// chapter, stops a sweep they started. Called with the step on screen after every change (the
// chapter's compute) and by those steps' draws.
export function followSweep(c, randomRows, { drawing = false } = {}) {
  const ui = c.ui;
  const stage = c.state.stage;
  if (!ui.sweepHooked) {
    ui.sweepHooked = true;
    c.onLeave(() => (ui.sweepLeft = true));
  }
  if (ui.sweepStage !== stage) {
    ui.sweepStage = stage;
    ui.sweepVisit = (ui.sweepVisit || 0) + 1;
    ui.sweepOpen = SWEEP_STEPS.includes(stage); // an auto sweep may start on this visit of the step
    const run = ui.sweepRunner;
    if (!ui.sweepOpen && run?.running && run.args.auto) run.stop();
  }
  if (!drawing || !ui.sweepOpen) return;
  ui.sweepOpen = false;
  const visit = ui.sweepVisit;
  requestAnimationFrame(() => {
    if (ui.sweepLeft || ui.sweepVisit !== visit) return; // the learner has moved on
    if (!sweepDrawn(c) && !ui.sweepRunner?.running) startSweep(c, randomRows, true);
  });
}

// The when step's copy of the charts (index.js draws it; c.ui.drawWhenSweep).
function redrawWhen(c) {
  if (c.state.stage === 'when') c.ui.drawWhenSweep?.();
}

// Every method at every n in one pool; c.ui.sweep holds the points and errors so far and is
// drawn after each run. null when cancelled.
async function sweep(c, { sizes, w, workers, seed }, onProgress, live, randomRows) {
  const { engine } = c;
  const D = 64;
  const sw = { sizes, w, d: D, block: FLASH_BLOCK, points: [], errors: [] }; // the pool's default block
  c.ui.sweep = sw;
  const redraw = () => {
    if (c.state.stage === 'cost') drawSweep(c, c.step('cost'));
    redrawWhen(c);
  };
  redraw();
  const total = sizes.length * METHODS.length;
  const pool = createAttendPool({ workers, simd: engine.simd });
  live.pool = pool;
  try {
    // every kind once at the first n, untimed: the workers' engines compile their code first
    const first = sizes[0];
    const warm = { query: randomRows(engine, first, D, seed, 1), key: randomRows(engine, first, D, seed, 2) };
    warm.value = randomRows(engine, first, D, seed, 3);
    onProgress(0, total, { n: first, method: 'warm', w });
    for (const kind of ['naive', 'flash', 'linear']) if ((await pool.run(kind, warm)) === null) return null;
    let k = 0;
    for (const n of sizes) {
      live.at = n;
      const o = {
        query: randomRows(engine, n, D, seed, 1),
        key: randomRows(engine, n, D, seed, 2),
        value: randomRows(engine, n, D, seed, 3),
      };
      const outputs = {};
      for (const m of METHODS) {
        const at = { n, method: m, w };
        onProgress(k, total, at);
        if (m === 'naive' && n > engine.limits.maxTokens) {
          sw.points.push({ n, method: m, refused: true }); // the engine refuses it (the runs below say why)
          k++;
          continue;
        }
        const kind = m === 'window' ? 'flash' : m;
        const args = m === 'window' ? { ...o, window: w } : o;
        // the median of REPEATS runs up to REPEAT_UP_TO (short runs are the noisiest), one above
        const reps = n <= REPEAT_UP_TO ? REPEATS : 1;
        const times = [];
        let r;
        for (let rep = 0; rep < reps; rep++) {
          r = await pool.run(kind, args, (done, rows) => onProgress(k + (rep + done / rows) / reps, total, at));
          if (r === null) return null;
          times.push(r.ms);
        }
        // naive: the slices' (rows, n) weights add up to the n × n matrix; the others hold the
        // same tiles or state in every worker
        const held = r.workers.map((x) => x.heldBytes);
        const bytes = m === 'naive' ? held.reduce((a, b) => a + b, 0) : held[0];
        sw.points.push({ n, method: m, ms: median(times), bytes });
        if (m === 'flash') outputs.exact = r.output;
        if (m === 'linear') outputs.linear = r.output;
        k++;
        redraw();
      }
      const e = engine.outputError({ output: outputs.linear, reference: outputs.exact });
      sw.errors.push({ n, maxAbs: e.maxAbs, relative: e.relative });
      redraw();
    }
    return sw;
  } finally {
    pool.terminate();
    if (live.pool === pool) live.pool = null; // a newer sweep's pool stays cancellable
  }
}
