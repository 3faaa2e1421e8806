// Lesson 5: why attention divides the scores by √d_k.
//
// Five steps, one panel of controls:
//   variance     the histogram of q·k for random q, k (N(0, 1) entries): variance d_k
//   growth       variance against d_k on log-log axes, raw and scaled
//   softmax      one query against n keys: raw scores saturate softmax, scaled ones do not
//   gradient     the softmax Jacobian shrinks toward 0: the vanishing gradient
//   temperature  τ divides the scores; √d_k is a temperature; hard vs soft vs Gumbel-softmax
//
// Every measured number comes from the engine: long runs (a million samples, the d_k sweeps)
// in lab-worker.js through lab-client.js, short ones (one query) on this thread. The theory
// curves and reference values (0, d_k, √d_k, the N(0, σ²) density) are formulas evaluated here.

import './scaling.css';
import { createLabClient } from '../lab-client.js';
import { SWEEP_DKS, binsFor } from '../lab-jobs.js';
import { createHistogram } from '../views/histogram.js';
import { createLineChart } from '../views/line-chart.js';
import { nearestStop } from '../format.js';
import { h, nextId } from '../views/dom.js';
import { createStepper } from '../views/stepper.js';
import STRINGS from './scaling.strings.js';

const STEPS = [
  { id: 'variance', title: { en: 'Variance of q·k', zh: 'q·k 的方差' } },
  { id: 'growth', title: { en: 'Against d_k', zh: '随 d_k 增长' } },
  { id: 'softmax', title: { en: 'Saturation', zh: 'softmax 饱和' } },
  { id: 'gradient', title: { en: 'Gradient', zh: '梯度消失' } },
  { id: 'temperature', title: { en: 'Temperature', zh: '温度' } },
];

// ---- settings the lesson uses --------------------------------------------------------------------

const RAW_COLOR = '#b3460a';
const SCALED_COLOR = '#2451b3';
const THEORY_COLOR = '#1b1d23';
const SWEEP_TRIALS = 400;     // queries averaged per d_k in the sweep
const SWEEP_SAMPLES = 10000;  // pairs per d_k for the variance points
const GUMBEL_ROWS = 8;

// Slider stops: d_k = round(2^(k/12)) (powers of two exactly), samples at two significant
// digits of 10^(3 + k/12). A slider moves through the stops; the number box takes any value.
const DK_STOPS = [...new Set(Array.from({ length: 121 }, (_, k) => Math.round(2 ** (k / 12))))];
const SAMPLE_STOPS = [...new Set(Array.from({ length: 37 }, (_, k) => Number((10 ** (3 + k / 12)).toPrecision(2))))];
const TAU_STOPS = [...new Set(Array.from({ length: 97 }, (_, k) => Number((10 ** (-2 + k / 24)).toPrecision(2))))];

// ---- theory (formulas, not results) --------------------------------------------------------------

// The standard normal CDF, by Abramowitz & Stegun 7.1.26 (error below 1.5e-7).
function normalCdf(z) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

// 95% range of the sample mean and variance of n draws of q·k (variance d, fourth moment
// 3d² + 6d, so Var(x²) = 2d² + 6d), divided by `scale²` for the scaled scores.
function expectedRanges(dk, n, scaled) {
  const v = scaled ? 1 : dk;
  const seMean = Math.sqrt(v / n);
  const seVar = Math.sqrt((2 * dk * dk + 6 * dk) / n) / (scaled ? dk : 1);
  return { mean: [-1.96 * seMean, 1.96 * seMean], variance: [v - 1.96 * seVar, v + 1.96 * seVar] };
}

// A labelled slider (moving through `stops`) with a number box and an inline error slot.
function sliderField({ label, stops, valueText, onSlide, onType, name }) {
  const id = nextId(`lab-${name}-`);
  const slider = h('input', { type: 'range', id, min: '0', max: String(stops.length - 1), step: '1', class: 'lab-slider', 'data-field': name });
  const box = h('input', { type: 'text', inputmode: 'decimal', class: 'lab-number', 'aria-label': label, 'data-field': `${name}-box` });
  const error = h('p', { class: 'field-error', role: 'alert', id: `${id}-err` });
  box.setAttribute('aria-describedby', error.id);
  slider.addEventListener('input', () => onSlide(stops[Number(slider.value)]));
  box.addEventListener('change', () => onType(box.value.trim()));
  const wrap = h('div', { class: 'field lab-field' },
    h('label', { for: id, text: label }),
    h('div', { class: 'lab-slider-row' }, slider, box),
    error);
  return {
    wrap, slider, box, error,
    set(v) {
      slider.value = String(nearestStop(stops, v));
      slider.setAttribute('aria-valuetext', valueText(v));
      if (document.activeElement !== box) box.value = String(v);
    },
  };
}

const fmtInt = (n, lang) => n.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US');

// ---- the chapter -------------------------------------------------------------------------------

let ui = null;  // everything the chapter built in enter(), dropped in leave()

function parseWhole(text) {
  const t = text.replace(/[,_\s]/g, '');
  return /^\d+$/.test(t) ? Number(t) : NaN;
}

function buildControls(root, ctx) {
  const { s } = ctx;
  const typed = (field, key, parse, min, max, errKey) => (text) => {
    const v = parse(text);
    if (!(Number.isFinite(v) && v >= min && v <= max)) {
      field.error.textContent = s(errKey, { value: text });
      field.box.setAttribute('aria-invalid', 'true');
      return;
    }
    field.error.textContent = '';
    field.box.setAttribute('aria-invalid', 'false');
    ctx.set({ [key]: v });
  };
  const clear = (field) => { field.error.textContent = ''; field.box.setAttribute('aria-invalid', 'false'); };

  ui.dk = sliderField({
    label: s('dk'), stops: DK_STOPS, name: 'dk', valueText: (v) => s('dkValue', { dk: v }),
    onSlide: (v) => { clear(ui.dk); ctx.set({ labDk: v }); },
    onType: (t) => typed(ui.dk, 'labDk', parseWhole, 1, 1024, 'errDk')(t),
  });
  ui.samples = sliderField({
    label: s('samples'), stops: SAMPLE_STOPS, name: 'samples', valueText: (v) => s('samplesValue', { n: fmtInt(v, ctx.lang) }),
    onSlide: (v) => { clear(ui.samples); ctx.set({ labSamples: v }); },
    onType: (t) => typed(ui.samples, 'labSamples', parseWhole, 1000, 1000000, 'errSamples')(t),
  });
  ui.tau = sliderField({
    label: s('tau'), stops: TAU_STOPS, name: 'tau', valueText: (v) => s('tauValue', { tau: v }),
    onSlide: (v) => { clear(ui.tau); ctx.set({ labTau: v }); },
    onType: (t) => typed(ui.tau, 'labTau', (x) => ctx.views.parseNumber(x), 0.01, 100, 'errTau')(t),
  });

  // seed and n: plain number boxes
  const numberField = (label, name, key, min, max, errKey) => {
    const id = nextId(`lab-${name}-`);
    const box = h('input', { type: 'text', inputmode: 'numeric', id, class: 'lab-number', 'data-field': name });
    const error = h('p', { class: 'field-error', role: 'alert', id: `${id}-err` });
    box.setAttribute('aria-describedby', error.id);
    const f = { box, error, wrap: h('div', { class: 'field' }, h('label', { for: id, text: label }), box, error) };
    box.addEventListener('change', () => typed(f, key, parseWhole, min, max, errKey)(box.value.trim()));
    return f;
  };
  ui.seed = numberField(s('seed'), 'seed', 'labSeed', 0, 4294967295, 'errSeed');
  ui.keys = numberField(s('keys'), 'keys', 'labKeys', 2, 64, 'errKeys');

  // raw vs scaled: a radio group
  const group = nextId('lab-scores-');
  ui.rawRadio = h('input', { type: 'radio', name: group, value: 'raw', 'data-field': 'raw' });
  ui.scaledRadio = h('input', { type: 'radio', name: group, value: 'scaled', 'data-field': 'scaled' });
  ui.rawRadio.addEventListener('change', () => ctx.set({ labScaled: false }));
  ui.scaledRadio.addEventListener('change', () => ctx.set({ labScaled: true }));
  ui.scoresField = h('fieldset', { class: 'field lab-radios' },
    h('legend', { class: 'field-label', text: s('scores') }),
    h('label', { class: 'check' }, ui.rawRadio, h('span', { text: s('raw') })),
    h('label', { class: 'check' }, ui.scaledRadio, h('span', { text: s('scaled') })));

  ui.newQuery = h('button', { type: 'button', class: 'btn', text: s('newQuery'), 'data-field': 'new-query',
    onclick: () => ctx.set({ labTrial: (ctx.state.labTrial + 1) % 10000 }) });

  const panel = h('section', { class: 'panel lab-controls', 'aria-label': s('controls'), 'data-group': 'inputs' },
    h('div', { class: 'controls' }, ui.dk.wrap, ui.samples.wrap, ui.tau.wrap, ui.scoresField, ui.keys.wrap, ui.seed.wrap,
      h('div', { class: 'field lab-new' }, ui.newQuery)));
  root.append(panel);
}

// A progress line: <progress>, a text, a stop/run-again button; a polite live region for
// start and end only (not every chunk).
function progressRow(onStop) {
  const text = h('span', { class: 'lab-progress-text', id: nextId('lab-progress-') });
  const bar = h('progress', { max: '1', value: '0', 'aria-labelledby': text.id });
  const stop = h('button', { type: 'button', class: 'btn lab-stop', onclick: onStop });
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
  return { el: h('div', { class: 'lab-progress' }, bar, text, stop, live), bar, text, stop, live };
}

function buildVariance(ctx) {
  const { s } = ctx;
  const sec = h('section', { class: 'lab-step', 'data-step': 'variance' });
  ui.varTitle = h('h3', { class: 'stage-title', tabindex: '-1', text: s('variance.title') });
  ui.varExplain = h('p', { class: 'explain' });
  ui.varFormula = h('div', { class: 'formula' });
  ui.varProgress = progressRow(() => {
    if (ui.varRunning) {
      cancelJob('variance');
    } else {
      ui.varKey = null;
      update(ui.ctx);
    }
  });
  const histBox = h('div', { class: 'lab-hist' });
  ui.hist = createHistogram(histBox, {
    strings: { bin: s('bin'), count: s('count'), expected: s('expected'), showTable: ctx.t('showTable'), hideTable: s('hideTable') },
  });
  ui.moments = h('div', { class: 'lab-moments' });
  ui.callout = h('div', { class: 'lab-callout' });
  ui.small = h('p', { class: 'hint', text: s('variance.small') });
  sec.append(ui.varTitle, ui.varExplain, ui.varFormula, ui.varProgress.el, histBox, ui.moments, ui.callout, ui.small);
  return sec;
}

function buildGrowth(ctx) {
  const { s } = ctx;
  const sec = h('section', { class: 'lab-step', 'data-step': 'growth' });
  ui.growthExplain = h('p', { class: 'explain' });
  ui.growthFormula = h('div', { class: 'formula' });
  ui.growthProgress = sweepProgress(ctx);
  const box = h('div', { class: 'lab-chart' });
  ui.growthChart = createLineChart(box, { xLog: true, yLog: true, xLabel: s('axisDk'), yLabel: s('axisVariance'),
    strings: { showTable: ctx.t('showTable'), hideTable: s('hideTable') } });
  sec.append(h('h3', { class: 'stage-title', tabindex: '-1', text: s('growth.title') }), ui.growthExplain,
    ui.growthFormula, ui.growthProgress.el, box);
  return sec;
}

function sweepProgress(ctx) {
  const row = progressRow(() => {
    if (ui.sweepRunning) cancelJob('sweep');
    else { ui.sweepKey = null; update(ui.ctx); }
  });
  ui.sweepRows = ui.sweepRows || [];
  ui.sweepRows.push(row);
  return row;
}

function buildSoftmax(ctx) {
  const { s } = ctx;
  const sec = h('section', { class: 'lab-step', 'data-step': 'softmax' });
  ui.softExplain = h('p', { class: 'explain' });
  const left = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('barsRaw') }));
  const right = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('barsScaled') }));
  ui.barsRaw = ctx.views.createBars(left, { color: RAW_COLOR });
  ui.barsScaled = ctx.views.createBars(right, { color: SCALED_COLOR });
  ui.statsRaw = h('p', { class: 'lab-stat', 'data-out': 'raw-stats' });
  ui.statsScaled = h('p', { class: 'lab-stat', 'data-out': 'scaled-stats' });
  left.append(ui.statsRaw);
  right.append(ui.statsScaled);
  ui.softProgress = sweepProgress(ctx);
  const c1 = h('div', { class: 'lab-chart' });
  const c2 = h('div', { class: 'lab-chart' });
  const tableStrings = { showTable: ctx.t('showTable'), hideTable: s('hideTable') };
  ui.maxChart = createLineChart(c1, { width: 480, xLog: true, xLabel: s('axisDk'), yLabel: s('axisMax'), strings: tableStrings });
  ui.entropyChart = createLineChart(c2, { width: 480, xLog: true, xLabel: s('axisDk'), yLabel: s('axisEntropy'), strings: tableStrings });
  sec.append(h('h3', { class: 'stage-title', tabindex: '-1', text: s('softmax.title') }), ui.softExplain,
    h('div', { class: 'lab-pair' }, left, right), h('p', { class: 'explain note', text: s('dead') }),
    ui.softProgress.el, h('div', { class: 'lab-pair' }, c1, c2));
  return sec;
}

function buildGradient(ctx) {
  const { s } = ctx;
  const sec = h('section', { class: 'lab-step', 'data-step': 'gradient' });
  ui.gradFormula = h('div', { class: 'formula' });
  ui.gradProgress = sweepProgress(ctx);
  const c = h('div', { class: 'lab-chart' });
  ui.gradChart = createLineChart(c, { xLog: true, xLabel: s('axisDk'), yLabel: s('axisNorm'),
    strings: { showTable: ctx.t('showTable'), hideTable: s('hideTable') } });
  const m1 = h('div', { class: 'map' });
  const m2 = h('div', { class: 'map' });
  ui.jacTitleRaw = h('h4', { class: 'map-title' });
  ui.jacTitleScaled = h('h4', { class: 'map-title' });
  m1.append(ui.jacTitleRaw);
  m2.append(ui.jacTitleScaled);
  const hmStrings = { showTable: ctx.t('showTable'), showHeatmap: ctx.t('showHeatmap') };
  ui.jacRaw = ctx.views.createHeatmap(m1, { kind: 'diverging', digits: 3, strings: hmStrings, maxCell: 28 });
  ui.jacScaled = ctx.views.createHeatmap(m2, { kind: 'diverging', digits: 3, strings: hmStrings, maxCell: 28 });
  sec.append(h('h3', { class: 'stage-title', tabindex: '-1', text: s('gradient.title') }),
    h('p', { class: 'explain', text: s('gradient.explain') }), ui.gradFormula, ui.gradProgress.el, c,
    h('div', { class: 'maps lab-maps' }, m1, m2), h('p', { class: 'hint', text: s('gradNote') }));
  return sec;
}

function buildTemperature(ctx) {
  const { s } = ctx;
  const sec = h('section', { class: 'lab-step', 'data-step': 'temperature' });
  ui.tauFormula = h('div', { class: 'formula' });
  ui.tauButtons = h('div', { class: 'lab-buttons' },
    h('button', { type: 'button', class: 'btn', 'data-field': 'tau-sqrt', text: s('setTauRaw'),
      onclick: () => ctx.set({ labScaled: false, labTau: Number(Math.sqrt(ctx.state.labDk).toPrecision(6)) }) }),
    h('button', { type: 'button', class: 'btn', 'data-field': 'tau-one', text: s('setTauOne'),
      onclick: () => ctx.set({ labScaled: true, labTau: 1 }) }));
  ui.tauCompare = h('p', { class: 'lab-stat', 'data-out': 'tau-compare' });
  const soft = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('soft') }));
  const hard = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('hard') }));
  ui.barsSoft = ctx.views.createBars(soft, { color: SCALED_COLOR });
  ui.barsHard = ctx.views.createBars(hard, { color: '#4f5562' });
  ui.tauStats = h('p', { class: 'lab-stat', 'data-out': 'tau-stats' });
  soft.append(ui.tauStats);
  const g = h('div', { class: 'map' }, h('h4', { class: 'map-title', text: s('gumbel') }));
  ui.gumbelMap = ctx.views.createHeatmap(g, { kind: 'sequential', digits: 3, maxCell: 32,
    strings: { showTable: ctx.t('showTable'), showHeatmap: ctx.t('showHeatmap') } });
  sec.append(h('h3', { class: 'stage-title', tabindex: '-1', text: s('temperature.title') }),
    h('p', { class: 'explain', text: s('temperature.explain') }), ui.tauFormula, ui.tauButtons, ui.tauCompare,
    h('div', { class: 'lab-pair' }, soft, hard), g, h('p', { class: 'explain', text: s('hardNote') }));
  return sec;
}

// ---- running the long jobs --------------------------------------------------------------------------

function cancelJob(kind) {
  ui.lab.cancel(kind);
}

function setProgress(row, { running, done, total, text, stopLabel }) {
  row.bar.max = total || 1;
  row.bar.value = done;
  row.text.textContent = text;
  row.stop.textContent = stopLabel;
  row.el.classList.toggle('running', running);
  row.el.dataset.state = running ? 'running' : 'idle';
}

// Partial results arrive after every chunk (every ~20 ms); redraw at most every 120 ms so the
// page's thread stays free for the learner. The last call of a burst always draws.
const DRAW_EVERY_MS = 120;
function throttled(kind, draw) {
  const t = ui.throttle[kind] || (ui.throttle[kind] = { last: 0, timer: null, draw: null });
  t.draw = draw;
  if (t.timer !== null) return;
  const wait = Math.max(0, t.last + DRAW_EVERY_MS - performance.now());
  t.timer = setTimeout(() => {
    t.timer = null;
    t.last = performance.now();
    if (ui && t.draw) t.draw();
  }, wait);
}
function cancelThrottled(kind) {
  const t = ui && ui.throttle[kind];
  if (t && t.timer !== null) { clearTimeout(t.timer); t.timer = null; }
}

function varianceArgs(st) {
  return { dk: st.labDk, samples: st.labSamples, seed: st.labSeed, bins: binsFor(st.labDk) };
}

function startVariance(ctx, args) {
  const { s } = ctx;
  const t0 = performance.now();
  cancelThrottled('variance');
  ui.varRunning = true;
  ui.varArgs = args;
  ui.varResult = null;
  ui.varDone = 0;
  ui.varProgress.live.textContent = s('started', { total: fmtInt(args.samples, ctx.lang), dk: args.dk });
  setProgress(ui.varProgress, { running: true, done: 0, total: args.samples, stopLabel: s('cancel'),
    text: s('running', { done: 0, total: fmtInt(args.samples, ctx.lang), pct: 0 }) });
  ui.lab.run('variance', args, (done, total, partial) => {
    ui.varResult = partial;
    ui.varDone = done;
    throttled('variance', () => {
      setProgress(ui.varProgress, { running: true, done: ui.varDone, total, stopLabel: s('cancel'),
        text: s('running', { done: fmtInt(ui.varDone, ctx.lang), total: fmtInt(total, ctx.lang), pct: Math.floor((100 * ui.varDone) / total) }) });
      drawVariance(ctx);
    });
  }).then((result) => {
    if (ui === null || ui.varArgs !== args) return;
    ui.varRunning = false;
    cancelThrottled('variance');
    if (result) {
      ui.varResult = result;
      ui.varDone = args.samples;
      const msg = s('finished', { total: fmtInt(args.samples, ctx.lang), ms: Math.round(performance.now() - t0) });
      setProgress(ui.varProgress, { running: false, done: args.samples, total: args.samples, stopLabel: s('rerun'), text: msg });
      ui.varProgress.live.textContent = msg;
      ui.varProgress.el.dataset.state = 'done';
      drawVariance(ctx);
    } else {
      const msg = s('stopped', { done: fmtInt(ui.varDone, ctx.lang), total: fmtInt(args.samples, ctx.lang) });
      setProgress(ui.varProgress, { running: false, done: ui.varDone, total: args.samples, stopLabel: s('rerun'), text: msg });
      ui.varProgress.live.textContent = msg;
      ui.varProgress.el.dataset.state = 'stopped';
      drawVariance(ctx);
    }
  }, (e) => engineFailed(ctx, ui.varProgress, e));
}

function sweepArgs(st) {
  return { dks: SWEEP_DKS, nKeys: st.labKeys, trials: SWEEP_TRIALS, seed: st.labSeed, samples: SWEEP_SAMPLES };
}

function startSweep(ctx, args) {
  const { s } = ctx;
  const t0 = performance.now();
  cancelThrottled('sweep');
  ui.sweepRunning = true;
  ui.sweepArgs = args;
  ui.sweep = null;
  const show = (o) => { for (const row of ui.sweepRows) setProgress(row, o); };
  show({ running: true, done: 0, total: args.dks.length, stopLabel: s('cancel'), text: s('sweepRunning', { done: 0, total: args.dks.length }) });
  ui.lab.run('sweep', args, (done, total, partial) => {
    ui.sweep = partial;
    throttled('sweep', () => {
      show({ running: true, done, total, stopLabel: s('cancel'), text: s('sweepRunning', { done, total }) });
      drawSweep(ctx);
    });
  }).then((result) => {
    if (ui === null || ui.sweepArgs !== args) return;
    ui.sweepRunning = false;
    cancelThrottled('sweep');
    if (result) {
      ui.sweep = result;
      const msg = s('sweepDone', { ms: Math.round(performance.now() - t0) });
      show({ running: false, done: args.dks.length, total: args.dks.length, stopLabel: s('rerun'), text: msg });
      for (const row of ui.sweepRows) { row.el.dataset.state = 'done'; row.live.textContent = msg; }
      drawSweep(ctx);
    } else {
      const done = ui.sweep ? ui.sweep.points.length : 0;
      show({ running: false, done, total: args.dks.length, stopLabel: s('rerun'), text: s('sweepRunning', { done, total: args.dks.length }) });
      for (const row of ui.sweepRows) row.el.dataset.state = 'stopped';
      drawSweep(ctx);
    }
  }, (e) => { for (const row of ui.sweepRows) engineFailed(ctx, row, e); });
}

function engineFailed(ctx, row, e) {
  if (ui === null) return;
  ui.varRunning = false;
  ui.sweepRunning = false;
  row.text.textContent = ctx.s('errEngine', { msg: e.message });
  row.el.dataset.state = 'error';
  row.stop.textContent = ctx.s('rerun');
}

// ---- drawing ---------------------------------------------------------------------------------------

function drawVariance(ctx) {
  const { s, views, lang } = ctx;
  const st = ctx.state;
  const r = ui.varResult;
  const args = ui.varArgs;
  if (!r || !args) return;
  const dk = args.dk;
  const scaled = st.labScaled;
  const n = r.samples;
  const sigma = scaled ? 1 : Math.sqrt(dk);
  const domain = scaled ? [-4, 4] : [-4 * Math.sqrt(dk), 4 * Math.sqrt(dk)];
  ui.hist.update({
    edges: r.histogram.edges,
    counts: scaled ? r.histogram.scaledCounts : r.histogram.rawCounts,
    domain,
    theory: { label: scaled ? 'N(0, 1)' : `N(0, ${dk})`, expected: (a, b) => n * (normalCdf(b / sigma) - normalCdf(a / sigma)) },
    caption: s(scaled ? 'histScaled' : 'histRaw', { dk, n: fmtInt(n, lang) }),
    markers: [{ x: -sigma, label: '−σ' }, { x: sigma, label: '+σ' }],
  });
  ui.hist.el.dataset.samples = String(n);
  ui.hist.el.dataset.dk = String(dk);

  // moments table: measured (engine) vs theory (formula) with the 95% range of the estimate
  const table = h('table', { class: 'data-table lab-moments-table' });
  table.append(h('caption', { text: s('momentsCaption', { dk, n: fmtInt(n, lang) }) }));
  table.append(h('thead', {}, h('tr', {}, ...[s('quantity'), s('measured'), s('theory'), s('range95')].map((t) => h('th', { scope: 'col', text: t })))));
  const body = h('tbody');
  for (const side of ['raw', 'scaled']) {
    const m = r[side];
    const isScaled = side === 'scaled';
    const range = expectedRanges(dk, n, isScaled);
    const theory = { mean: '0', variance: isScaled ? '1' : String(dk), std: isScaled ? '1' : (Number.isInteger(Math.sqrt(dk)) ? `√${dk} = ${Math.sqrt(dk)}` : `√${dk} ≈ ${views.fmt(Math.sqrt(dk), 3)}`) };
    const rows = [
      ['mean', m.mean, `${views.fmt(range.mean[0], 3)} … ${views.fmt(range.mean[1], 3)}`],
      ['variance', m.variance, `${views.fmt(range.variance[0], 3)} … ${views.fmt(range.variance[1], 3)}`],
      ['std', m.std, `${views.fmt(Math.sqrt(Math.max(0, range.variance[0])), 3)} … ${views.fmt(Math.sqrt(range.variance[1]), 3)}`],
    ];
    for (const [q, value, rng] of rows) {
      body.append(h('tr', { 'data-row': `${side}-${q}` },
        h('th', { scope: 'row', text: s('momentRow', { side: s(isScaled ? 'scaledRow' : 'rawRow'), q: s(q) }) }),
        h('td', { 'data-value': String(value), text: views.fmt(value, 4) }),
        h('td', { text: theory[q] }),
        h('td', { text: rng })));
    }
  }
  table.append(body);
  ui.moments.replaceChildren(table);

  // the d_k = 64 case
  if (dk === 64) {
    ui.callout.replaceChildren(h('p', { class: 'lab-callout-text', 'data-out': 'callout-64',
      text: s('callout64', { std: views.fmt(r.raw.std, 3), sstd: views.fmt(r.scaled.std, 3) }) }));
  } else {
    ui.callout.replaceChildren(h('button', { type: 'button', class: 'btn', 'data-field': 'try-64', text: s('try64'),
      onclick: () => ctx.set({ labDk: 64 }) }));
  }
}

function sweepSeries(points, pick, name, color, mark = 'both', dash) {
  return { name, color, mark, dash, points: points.map((p) => ({ x: p.dk, y: pick(p) })) };
}

function drawSweep(ctx) {
  const { s } = ctx;
  const sw = ui.sweep;
  if (!sw || sw.points.length === 0) return;
  const P = sw.points;
  const st = ctx.state;
  const stage = st.stage;
  const theoryDks = SWEEP_DKS;
  const params = { trials: SWEEP_TRIALS, n: st.labKeys };
  if (stage === 'growth') {
    ui.growthChart.update({
      caption: s('growthCaption'),
      markX: st.labDk,
      yDomain: [0.5, 2048],
      series: [
        { name: s('theoryRaw'), color: THEORY_COLOR, mark: 'line', dash: '5 4', points: theoryDks.map((dk) => ({ x: dk, y: dk })) },
        { name: s('theoryScaled'), color: '#6b7280', mark: 'line', dash: '2 3', points: theoryDks.map((dk) => ({ x: dk, y: 1 })) },
        sweepSeries(P, (p) => p.variance.raw, s('measuredRaw'), RAW_COLOR, 'points'),
        sweepSeries(P, (p) => p.variance.scaled, s('measuredScaled'), SCALED_COLOR, 'points'),
      ],
    });
  } else if (stage === 'softmax') {
    ui.maxChart.update({
      caption: s('maxCaption', params), markX: st.labDk, yDomain: [0, 1],
      series: [sweepSeries(P, (p) => p.raw.maxWeight, s('raw'), RAW_COLOR), sweepSeries(P, (p) => p.scaled.maxWeight, s('scaled'), SCALED_COLOR)],
    });
    ui.entropyChart.update({
      caption: s('entropyCaption'), markX: st.labDk, yDomain: [0, Math.max(sw.logN * 1.05, 0.1)],
      series: [
        { name: s('logn'), color: THEORY_COLOR, mark: 'line', dash: '5 4', points: theoryDks.map((dk) => ({ x: dk, y: sw.logN })) },
        sweepSeries(P, (p) => p.raw.entropy, s('raw'), RAW_COLOR), sweepSeries(P, (p) => p.scaled.entropy, s('scaled'), SCALED_COLOR),
      ],
    });
  } else if (stage === 'gradient') {
    ui.gradChart.update({
      caption: s('gradCaption', params), markX: st.labDk,
      series: [
        sweepSeries(P, (p) => p.raw.jacobianNorm, s('jacRaw'), RAW_COLOR),
        sweepSeries(P, (p) => p.scaled.jacobianNorm, s('jacScaled'), SCALED_COLOR),
        sweepSeries(P, (p) => p.raw.gradNorm, s('gradRaw'), RAW_COLOR, 'line', '4 3'),
        sweepSeries(P, (p) => p.scaled.gradNorm, s('gradScaled'), SCALED_COLOR, 'line', '4 3'),
      ],
    });
  }
}

// One query against n keys (cheap: on this thread).
function probe(ctx, tau, scaled, gumbelSamples = 0) {
  const st = ctx.state;
  return ctx.engine.queryProbe({ dk: st.labDk, nKeys: st.labKeys, seed: st.labSeed, trial: st.labTrial, tau, scaled, gumbelSamples });
}

function keyLabels(n) {
  return Array.from({ length: n }, (_, j) => `k${j + 1}`);
}

function argmaxOf(values) {
  let best = 0;
  for (let j = 1; j < values.length; j++) if (values[j] > values[best]) best = j;
  return best;
}

function drawSoftmax(ctx) {
  const { s, views } = ctx;
  const st = ctx.state;
  const p = probe(ctx, 1, true);
  const labels = keyLabels(st.labKeys);
  const logn = Math.log(st.labKeys);
  ui.barsRaw.update({ values: p.rawWeights, labels, domain: [0, 1], highlight: argmaxOf(p.rawWeights), caption: s('barsRaw'), digits: 3 });
  ui.barsScaled.update({ values: p.scaledWeights, labels, domain: [0, 1], highlight: argmaxOf(p.scaledWeights), caption: s('barsScaled'), digits: 3 });
  const stat = (max, ent) => s('probeStats', { max: views.fmt(max, 3), h: views.fmt(ent, 3), n: st.labKeys, logn: views.fmt(logn, 3) });
  ui.statsRaw.textContent = stat(p.rawMax, p.rawEntropy);
  ui.statsScaled.textContent = stat(p.scaledMax, p.scaledEntropy);
  ui.statsRaw.dataset.max = String(p.rawMax);
  ui.statsScaled.dataset.max = String(p.scaledMax);
  ui.softExplain.textContent = s('softmax.explain', { n: st.labKeys, dk: st.labDk, trials: SWEEP_TRIALS });
}

function drawGradient(ctx) {
  const { s, views } = ctx;
  const st = ctx.state;
  views.renderFormula(ui.gradFormula, String.raw`\begin{gathered} J = \operatorname{diag}(p) - p\,p^{\top} \\ J_{ij} = \frac{\partial p_i}{\partial s_j} = p_i(\delta_{ij} - p_j) \end{gathered}`);
  const p = probe(ctx, 1, true);
  const labels = keyLabels(st.labKeys);
  const jr = ctx.engine.softmaxJacobian(p.rawWeights);
  const js = ctx.engine.softmaxJacobian(p.scaledWeights);
  ui.jacTitleRaw.textContent = s('jacMapRaw', { dk: st.labDk });
  ui.jacTitleScaled.textContent = s('jacMapScaled', { dk: st.labDk });
  const domain = [-0.25, 0.25];
  ui.jacRaw.update({ matrix: jr, rowLabels: labels, colLabels: labels, domain, caption: s('jacMapRaw', { dk: st.labDk }) });
  ui.jacScaled.update({ matrix: js, rowLabels: labels, colLabels: labels, domain, caption: s('jacMapScaled', { dk: st.labDk }) });
}

function drawTemperature(ctx) {
  const { s, views } = ctx;
  const st = ctx.state;
  const tau = st.labTau;
  const root = Math.sqrt(st.labDk);
  const rootTex = Number.isInteger(root) ? `= ${root}` : `\\approx ${views.tex(root, 3)}`;
  views.renderFormula(ui.tauFormula, String.raw`\begin{gathered} \operatorname{softmax}\!\Big(\frac{q\cdot k}{\sqrt{d_k}}\Big) = \operatorname{softmax}\!\Big(\frac{q\cdot k}{\tau}\Big) \\ \text{${s('with')}}\ \tau = \sqrt{d_k} = \sqrt{${st.labDk}} ${rootTex} \end{gathered}`);
  const p = probe(ctx, tau, st.labScaled, GUMBEL_ROWS);
  const labels = keyLabels(st.labKeys);
  const soft = st.labScaled ? p.scaledWeights : p.rawWeights;
  const max = st.labScaled ? p.scaledMax : p.rawMax;
  const ent = st.labScaled ? p.scaledEntropy : p.rawEntropy;
  ui.barsSoft.update({ values: soft, labels, domain: [0, 1], highlight: argmaxOf(soft), caption: s('soft'), digits: 3 });
  ui.barsHard.update({ values: p.hard, labels, domain: [0, 1], highlight: argmaxOf(p.hard), caption: s('hard'), digits: 0 });
  ui.tauStats.textContent = s('tauStats', { tau, max: views.fmt(max, 3), h: views.fmt(ent, 3) });
  ui.gumbelMap.update({ matrix: p.gumbel, rowLabels: Array.from({ length: GUMBEL_ROWS }, (_, k) => s('gumbelRows', { k: k + 1 })),
    colLabels: labels, domain: [0, 1], caption: s('gumbel') });
  // √d_k as a temperature: raw scores at the chosen τ against scaled scores at τ = 1
  const one = probe(ctx, 1, true);
  ui.tauCompare.textContent = s('tauCompare', { tau, rmax: views.fmt(p.rawMax, 3), rh: views.fmt(p.rawEntropy, 3),
    smax: views.fmt(one.scaledMax, 3), sh: views.fmt(one.scaledEntropy, 3) });
}

// ---- update -----------------------------------------------------------------------------------------

function showError(ctx, e) {
  ui.error.textContent = ctx.s('errEngine', { msg: e.message });
  ui.error.hidden = false;
}

function update(ctx) {
  if (!ui) return;
  ui.ctx = ctx;
  const { s, views } = ctx;
  const st = ctx.state;
  const stage = st.stage || 'variance';
  ui.error.hidden = true;

  // stepper and visible step
  ui.stepper.sync(stage);
  for (const sec of ui.sections) sec.hidden = sec.dataset.step !== stage;

  // controls: values and which ones this step uses
  ui.dk.set(st.labDk);
  ui.samples.set(st.labSamples);
  ui.tau.set(st.labTau);
  if (document.activeElement !== ui.seed.box) ui.seed.box.value = String(st.labSeed);
  if (document.activeElement !== ui.keys.box) ui.keys.box.value = String(st.labKeys);
  ui.rawRadio.checked = !st.labScaled;
  ui.scaledRadio.checked = st.labScaled;
  ui.samples.wrap.hidden = stage !== 'variance';
  ui.tau.wrap.hidden = stage !== 'temperature';
  ui.scoresField.hidden = !(stage === 'variance' || stage === 'temperature');
  ui.keys.wrap.hidden = stage === 'variance' || stage === 'growth';
  ui.newQuery.parentElement.hidden = !(stage === 'softmax' || stage === 'gradient' || stage === 'temperature');

  try {
    if (stage === 'variance') {
      ui.varExplain.textContent = s('variance.explain', { n: fmtInt(st.labSamples, ctx.lang) });
      views.renderFormula(ui.varFormula, String.raw`\begin{gathered} q\cdot k = \sum_{d=1}^{d_k} q_d k_d,\qquad \operatorname{Var}(q_d k_d) = 1 \\ \operatorname{Var}(q\cdot k) = d_k,\qquad \operatorname{Var}\!\Big(\frac{q\cdot k}{\sqrt{d_k}}\Big) = 1 \end{gathered}`);
      const args = varianceArgs(st);
      const key = JSON.stringify(args);
      if (key !== ui.varKey) {
        ui.varKey = key;
        startVariance(ctx, args);
      } else {
        drawVariance(ctx);
      }
    } else {
      const args = sweepArgs(st);
      const key = JSON.stringify(args);
      if (stage !== 'temperature' && key !== ui.sweepKey) {
        ui.sweepKey = key;
        startSweep(ctx, args);
      }
      if (stage === 'growth') {
        ui.growthExplain.textContent = s('growth.explain', { n: fmtInt(SWEEP_SAMPLES, ctx.lang) });
        views.renderFormula(ui.growthFormula, String.raw`\begin{gathered} \log \operatorname{Var}(q\cdot k) = \log d_k \\ \log \operatorname{Var}\!\Big(\frac{q\cdot k}{\sqrt{d_k}}\Big) = 0 \end{gathered}`);
      }
      if (stage === 'softmax') drawSoftmax(ctx);
      if (stage === 'gradient') drawGradient(ctx);
      if (stage === 'temperature') drawTemperature(ctx);
      drawSweep(ctx);
    }
  } catch (e) {
    showError(ctx, e);
  }
}

export default {
  id: 'scaling',
  title: { en: 'Why divide by √d_k', zh: '为什么要除以 √d_k' },
  strings: STRINGS,
  state: {
    labDk: { type: 'int', default: 64, min: 1, max: 1024 },
    labSamples: { type: 'int', default: 100000, min: 1000, max: 1000000 },
    labSeed: { type: 'int', default: 1, min: 0, max: 2 ** 32 - 1 },
    labScaled: { type: 'bool', default: false },
    labTau: { type: 'float', default: 1, min: 0.01, max: 100 },
    labKeys: { type: 'int', default: 16, min: 2, max: 64 },
    labTrial: { type: 'int', default: 0, min: 0, max: 9999 },
  },
  steps: STEPS,

  enter(root, ctx) {
    if (ui) this.leave();
    ui = { lab: createLabClient({ engine: ctx.engine }), varKey: null, sweepKey: null, sweepRows: [], throttle: {}, ctx };
    const { s } = ctx;
    root.append(h('h2', { text: this.title[ctx.lang] }),
      h('p', { class: 'lead', text: s('intro') }));
    ui.stepper = createStepper(ctx, STEPS);
    root.append(ui.stepper.el);
    buildControls(root, ctx);
    root.append(h('p', { class: 'hint keys-hint', text: s('keysHint') }));
    ui.error = h('p', { class: 'field-error engine-error', role: 'alert', hidden: '' });
    root.append(ui.error);
    ui.sections = [buildVariance(ctx), buildGrowth(ctx), buildSoftmax(ctx), buildGradient(ctx), buildTemperature(ctx)];
    root.append(...ui.sections);
  },

  update(ctx) {
    update(ctx);
  },

  leave() {
    if (!ui) return;
    cancelThrottled('variance');
    cancelThrottled('sweep');
    ui.lab.terminate();
    ui = null;
  },
};
