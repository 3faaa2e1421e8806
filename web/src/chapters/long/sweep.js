// The long-sequences chapter's sweep on screen: naive, flash, windowed and linear attention at
// n = 64, 128, … (doubling) in the workers (./runs.js), with progress and cancel; time and the
// bytes each method holds for its scores plotted against n on log–log axes (slope 2 and slope 0
// or 1 read as lines), where naive crosses flash marked, and linear attention's error against
// exact attention at each n. Every number is the engine's: the times are measured, the bytes are
// what the engine reports it held (the naive weights' shape, flash's tileBytes, linear's
// stateBytes), the error is engine.outputError of linear against flash (exact) attention.
// The sweep lives in c.kept.sweep: a language switch keeps it on screen, and one still running
// then goes on from the first n it had not finished.

import { format } from 'd3-format';
import { button, h, setText } from '../../views/dom.js';
import { createLineChart } from '../../views/line-chart.js';
import { dataTable } from '../../views/table.js';
import { BLUE, GREEN, ORANGE, WEIGHT } from '../../views/palette.js';
import { fmt, fmtInt } from '../../text/format.js';
import { SWEEP_TO } from './meta.js';
import {
  AUTO_TO,
  REPEATS,
  REPEAT_UP_TO,
  SWEEP_FROM,
  SWEEP_METHODS,
  SWEEP_STEPS,
  crossover,
  newSweep,
  sweepHasPoints,
  sweepSizes,
} from './logic.js';
import { recordedRun, runSweep } from './runs.js';

const COLORS = { naive: ORANGE, flash: BLUE, window: GREEN, linear: WEIGHT };
const DASH = { window: '6 4', linear: '2 3' };

export const methodLabel = (c, m, w) =>
  m === 'window' ? c.s('windowed', { w }) : c.s(m === 'linear' ? 'linearName' : m);

// The engine's messages are English: quoted as such inside a sentence of the page's language.
export const englishQuote = (text) => h('span', { lang: 'en', text });

// Whether a sweep is running in this instance of the chapter.
export const sweepRunning = (c) => !!c.ui.sweepRunner?.run.running;

export function buildSweep(c, v) {
  const { s } = c;
  v.sweepTo = h(
    'select',
    { id: 'long-sweep-to', onchange: (e) => c.set({ longSweepTo: e.target.value }) },
    ...SWEEP_TO.map((n) => h('option', { value: n, text: n })),
  );
  v.sweepGo = button('btn primary long-sweep-go', s('sweep'), () => startSweep(c));
  v.sweepCancel = button('btn long-sweep-cancel', s('cancel'), () => c.ui.sweepRunner?.run.stop(), { disabled: true });
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
  // aria-busy until the first measured points are drawn (drawSweep); its controls go beside it
  // (sweepControls)
  v.sweepFigure = h('section', { class: 'long-sweep', 'data-figure': 'main', 'aria-busy': 'true' }, v.sweepCharts);
  // the figure, and what reads it further (after the step's controls and question)
  return {
    figure: v.sweepFigure,
    more: [v.sweepCross, v.sweepErrors, h('p', { class: 'explain', text: s('p.linear') }), v.sweepBytesNote],
  };
}

// The sweep's last n, Sweep and Cancel, with its progress and where it is (buildSweep made them).
export const sweepControls = (c, v) => [
  h(
    'div',
    { class: 'controls' },
    h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: c.s('sweepTo') }), v.sweepTo),
    v.sweepGo,
    v.sweepCancel,
  ),
  v.sweepProgress,
  v.sweepStatus,
];

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

// Draws the sweep so far into charts made by sweepCharts (v.timeChart, v.bytesChart); returns
// where naive crosses flash in time and in bytes ({ tCross, bCross }), or null with nothing to draw.
export function drawSweepCharts(c, v) {
  const { s } = c;
  const sw = c.kept.sweep;
  const has = sweepHasPoints(sw);
  v.sweepCharts.hidden = !has;
  if (!has) return null;
  const series = (key) =>
    SWEEP_METHODS.map((m) => ({
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

// Where the sweep is, in words: idle, running (which n and method), done, cancelled or failed.
function sweepStatusText(c, sw) {
  const { s } = c;
  if (!sw) return s('sweepIdle');
  if (sw.status === 'running') {
    const p = sw.progress;
    if (!p || p.method === 'warm') return s('sweepWarm', { n: p?.n ?? sw.sizes[0] });
    const k = Math.min(p.total, Math.floor(p.done) + 1);
    return s('sweepRunning', { n: p.n, method: methodLabel(c, p.method, p.w), k, total: p.total });
  }
  if (sw.status === 'done')
    return s(sw.auto ? 'sweepDoneAuto' : 'sweepDone', {
      from: SWEEP_FROM,
      to: sw.sizes.at(-1),
      runs: sw.points.length,
    });
  if (sw.status === 'stopped') return s('sweepCancelled', { n: sw.at ?? SWEEP_FROM });
  return sw.failure.engine
    ? `${s('engineSays')}${sw.failure.message}`
    : c.t('chapterError', { msg: sw.failure.message });
}

// The cost step's sweep controls, progress and status.
function drawSweepProgress(c, v) {
  const sw = c.kept.sweep;
  v.sweepTo.value = c.state.longSweepTo;
  const busy = sweepRunning(c);
  v.sweepGo.disabled = busy;
  v.sweepCancel.disabled = !busy;
  const p = sw?.progress;
  v.sweepProgress.value = !sw ? 0 : sw.status === 'done' ? 1 : p ? p.done / p.total : 0;
  setText(v.sweepStatus, sweepStatusText(c, sw));
}

// The cost step's sweep: controls, progress, status, charts and what they show.
export function drawSweep(c, v) {
  const { s } = c;
  const sw = c.kept.sweep;
  drawSweepProgress(c, v);
  const crossed = drawSweepCharts(c, v);
  if (!crossed) {
    setText(v.sweepCross, '');
    setText(v.sweepBytesNote, '');
    v.sweepErrors.replaceChildren();
    return;
  }
  v.sweepFigure.removeAttribute('aria-busy');
  const { tCross, bCross } = crossed;
  const to = Math.max(...sw.points.filter((x) => !x.refused).map((x) => x.n)); // measured so far
  setText(
    v.sweepCross,
    [
      bCross ? s('crossBytes', { n: fmt(bCross, 0) }) : s('noCrossBytes', { from: SWEEP_FROM, to }),
      tCross ? s('crossTime', { n: fmt(tCross, 0) }) : s('noCrossTime', { from: SWEEP_FROM, to }),
    ].join(c.lang === 'zh' ? '' : ' '),
  );
  const flash = sw.points.find((x) => x.method === 'flash');
  const linear = sw.points.find((x) => x.method === 'linear');
  setText(
    v.sweepBytesNote,
    s('bytesNote', {
      tile: flash ? fmtInt(flash.bytes) : '—',
      b: sw.block,
      d: sw.d,
      state: linear ? fmtInt(linear.bytes) : '—',
    }),
  );
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

// The sweep's progress and status (in the cost step, shown or not), and with a new point or the
// end, the step on screen that shows the sweep (c.ui.redrawCost: the cost step's answer reads the
// sweep too; c.ui.drawWhenSweep: the when step's own copy of the charts).
function redrawSweep(c, progressOnly = false) {
  const stage = c.state.stage;
  drawSweepProgress(c, c.step('cost'));
  if (stage === 'cost' && !progressOnly) c.ui.redrawCost?.();
  if (stage === 'when') c.ui.drawWhenSweep?.(progressOnly);
}

// One sweep at a time: Cancel terminates the pool's workers; the points so far stay.
function sweepRunner(c) {
  if (!c.ui.sweepRunner) {
    c.ui.sweepRunner = recordedRun({
      job: (sw, onProgress, live) => runSweep(c.engine, sw, { onProgress, measured: () => redrawSweep(c), live }),
      draw: (progressOnly) => redrawSweep(c, progressOnly),
    });
    c.onLeave(() => c.ui.sweepRunner.run.dispose());
  }
  return c.ui.sweepRunner;
}

// A sweep to the state's last n (the learner's), or to AUTO_TO at most (auto: started by a step).
function startSweep(c, auto = false) {
  const { longSweepTo, longWindow: w, longWorkers: workers, seed } = c.state;
  const to = auto ? Math.min(AUTO_TO, Number(longSweepTo)) : Number(longSweepTo);
  c.kept.sweep = newSweep({ sizes: sweepSizes(to), w, workers, seed, auto });
  sweepRunner(c).request(c.kept.sweep);
}

// The steps of SWEEP_STEPS open on the sweep's charts: entering one with nothing measured (and
// no sweep running) starts the short sweep once the step has been drawn on screen (the next
// animation frame, so a step passed through in one go starts nothing); leaving them, or the
// chapter, stops a sweep they started, and coming back to one goes on with the sizes it had
// left (the memory question waits for two of them). A sweep that was running when the chapter was mounted
// again (a language switch) goes on from where it was, in the same frame. Called with the step
// on screen after every change (the chapter's compute) and by those steps' draws.
export function followSweep(c, { drawing = false } = {}) {
  const ui = c.ui;
  const stage = c.state.stage;
  if (!ui.sweepHooked) {
    ui.sweepHooked = true;
    c.onLeave(() => (ui.sweepLeft = true));
    const sw = c.kept.sweep;
    if (sw?.status === 'running') {
      if (sw.auto && !SWEEP_STEPS.includes(stage)) Object.assign(sw, { status: 'stopped', left: true });
      else
        requestAnimationFrame(() => {
          if (!ui.sweepLeft && c.kept.sweep === sw && !sweepRunning(c)) sweepRunner(c).request(sw);
        });
    }
  }
  if (ui.sweepStage !== stage) {
    ui.sweepStage = stage;
    ui.sweepVisit = (ui.sweepVisit || 0) + 1;
    ui.sweepOpen = SWEEP_STEPS.includes(stage); // an auto sweep may start on this visit of the step
    const run = ui.sweepRunner?.run;
    if (!ui.sweepOpen && run?.running && run.args.record.auto) {
      run.args.record.left = true; // stopped because the learner left: it goes on when they return
      run.stop();
    }
  }
  if (!drawing || !ui.sweepOpen) return;
  ui.sweepOpen = false;
  const visit = ui.sweepVisit;
  requestAnimationFrame(() => {
    if (ui.sweepLeft || ui.sweepVisit !== visit || sweepRunning(c)) return; // moved on, or running
    const sw = c.kept.sweep;
    if (sw?.left && sw.status === 'stopped') {
      sw.left = false;
      sw.status = 'running';
      sweepRunner(c).request(sw); // from the sizes it had left
    } else if (!sweepHasPoints(sw)) startSweep(c, true);
  });
}
