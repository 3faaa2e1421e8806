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
// in variance-worker.js through variance-client.js, each a createRun (../run.js), and short ones (one
// query) on this thread. The theory curves and reference values are formulas
// (scaling/theory.js).

import { maxIndex } from 'd3-array';
import { createLabClient } from '../../workers/variance-client.js';
import { SWEEP_DKS, VARIANCE_BINS } from '../../workers/variance-jobs.js';
import { createRun } from '../../workers/run.js';
import { fmt, fmtInt, tex, parseNumber, nearestStop } from '../../text/format.js';
import { heatmapStrings } from '../../text/i18n.js';
import { createHistogram } from '../../views/histogram.js';
import { createLineChart } from '../../views/line-chart.js';
import { createBars } from '../../views/bars.js';
import { createHeatmap } from '../../views/heatmap.js';
import { renderFormula } from '../../views/formula.js';
import { dataTable, scrollRegion } from '../../views/table.js';
import { h, nextId, isFocused } from '../../views/dom.js';
import { DK_STOPS, SAMPLE_STOPS, TAU_STOPS, expectedCount, expectedRanges, TEX, temperatureTex } from './theory.js';
import strings from './strings.js';
import meta from './meta.js';
import { createPredict } from '../kit/predict.js';
import { BLUE, GREY, INK, MUTED, RUST } from '../../views/palette.js';

// ---- settings the lesson uses --------------------------------------------------------------------

const RAW_COLOR = RUST;
const SCALED_COLOR = BLUE;
const THEORY_COLOR = INK;
const SWEEP_TRIALS = 400; // queries averaged per d_k in the sweep
const SWEEP_SAMPLES = 10000; // pairs per d_k for the variance points
const GUMBEL_ROWS = 8;

export default {
  ...meta,
  prefix: 'lab',
  strings,
  steps: [
    {
      id: 'variance',
      title: { en: 'Variance of q·k', zh: 'q·k 的方差' },
      build: buildVariance,
      draw: drawVarianceStep,
    },
    { id: 'growth', title: { en: 'Against d_k', zh: '随 d_k 增长' }, build: buildGrowth, draw: drawGrowth },
    { id: 'softmax', title: { en: 'Saturation', zh: 'softmax 饱和' }, build: buildSoftmax, draw: drawSoftmax },
    { id: 'gradient', title: { en: 'Gradient', zh: '梯度消失' }, build: buildGradient, draw: drawGradient },
    { id: 'temperature', title: { en: 'Temperature', zh: '温度' }, build: buildTemperature, draw: drawTemperature },
  ],
  panel: { build: buildControls, draw: drawControls },
};

// A labelled slider (moving through `stops`) with a number box and an inline error slot.
function sliderField({ label, stops, valueText, onSlide, onType, name }) {
  const id = nextId(`lab-${name}-`);
  const slider = h('input', {
    type: 'range',
    id,
    min: '0',
    max: String(stops.length - 1),
    step: '1',
    class: 'lab-slider',
    'data-field': name,
  });
  const box = h('input', {
    type: 'text',
    inputmode: 'decimal',
    class: 'lab-number',
    'aria-label': label,
    'data-field': `${name}-box`,
  });
  const error = h('p', { class: 'field-error', role: 'alert', id: `${id}-err` });
  box.setAttribute('aria-describedby', error.id);
  slider.addEventListener('input', () => onSlide(stops[Number(slider.value)]));
  box.addEventListener('change', () => onType(box.value.trim()));
  const wrap = h(
    'div',
    { class: 'field lab-field' },
    h('label', { for: id, text: label }),
    h('div', { class: 'lab-slider-row' }, slider, box),
    error,
  );
  return {
    wrap,
    slider,
    box,
    error,
    set(v) {
      slider.value = String(nearestStop(stops, v));
      slider.setAttribute('aria-valuetext', valueText(v));
      if (!isFocused(box)) box.value = String(v);
    },
  };
}

function parseWhole(text) {
  const t = text.replace(/[,_\s]/g, '');
  return /^\d+$/.test(t) ? Number(t) : NaN;
}

// ---- the controls ---------------------------------------------------------------------------------

function buildControls(c, v) {
  const { s } = c;
  const typed = (field, key, parse, min, max, errKey) => (text) => {
    const x = parse(text);
    if (!(Number.isFinite(x) && x >= min && x <= max)) {
      field.error.textContent = s(errKey, { value: text });
      field.box.setAttribute('aria-invalid', 'true');
      return;
    }
    field.error.textContent = '';
    field.box.setAttribute('aria-invalid', 'false');
    c.set({ [key]: x });
  };
  const clear = (field) => {
    field.error.textContent = '';
    field.box.setAttribute('aria-invalid', 'false');
  };

  v.dk = sliderField({
    label: s('dk'),
    stops: DK_STOPS,
    name: 'dk',
    valueText: (x) => s('dkValue', { dk: x }),
    onSlide: (x) => {
      clear(v.dk);
      c.set({ labDk: x });
    },
    onType: (t) => typed(v.dk, 'labDk', parseWhole, 1, 1024, 'errDk')(t),
  });
  v.samples = sliderField({
    label: s('samples'),
    stops: SAMPLE_STOPS,
    name: 'samples',
    valueText: (x) => s('samplesValue', { n: fmtInt(x) }),
    onSlide: (x) => {
      clear(v.samples);
      c.set({ labSamples: x });
    },
    onType: (t) => typed(v.samples, 'labSamples', parseWhole, 1000, 1000000, 'errSamples')(t),
  });
  v.tau = sliderField({
    label: s('tau'),
    stops: TAU_STOPS,
    name: 'tau',
    valueText: (x) => s('tauValue', { tau: x }),
    onSlide: (x) => {
      clear(v.tau);
      c.set({ labTau: x });
    },
    onType: (t) => typed(v.tau, 'labTau', parseNumber, 0.01, 100, 'errTau')(t),
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
  v.seed = numberField(s('seed'), 'seed', 'labSeed', 0, 4294967295, 'errSeed');
  v.keys = numberField(s('keys'), 'keys', 'labKeys', 2, 64, 'errKeys');

  // raw vs scaled: a radio group
  const group = nextId('lab-scores-');
  v.rawRadio = h('input', {
    type: 'radio',
    name: group,
    value: 'raw',
    'data-field': 'raw',
    onchange: () => c.set({ labScaled: false }),
  });
  v.scaledRadio = h('input', {
    type: 'radio',
    name: group,
    value: 'scaled',
    'data-field': 'scaled',
    onchange: () => c.set({ labScaled: true }),
  });
  v.sharedBox = h('input', {
    type: 'checkbox',
    'data-field': 'shared',
    onchange: () => c.set({ labShared: v.sharedBox.checked }),
  });
  v.sharedLabel = h('label', { class: 'check' }, v.sharedBox, h('span', { text: s('sharedAxis') }));
  v.scoresField = h(
    'fieldset',
    { class: 'field lab-radios' },
    h('legend', { class: 'field-label', text: s('scores') }),
    h('label', { class: 'check' }, v.rawRadio, h('span', { text: s('raw') })),
    h('label', { class: 'check' }, v.scaledRadio, h('span', { text: s('scaled') })),
    v.sharedLabel,
  );

  v.newQuery = h(
    'div',
    { class: 'field lab-new' },
    h('button', {
      type: 'button',
      class: 'btn',
      text: s('newQuery'),
      'data-field': 'new-query',
      onclick: () => c.set({ labTrial: (c.state.labTrial + 1) % 10000 }),
    }),
  );

  return [
    h(
      'section',
      { class: 'panel lab-controls', 'aria-label': s('controls'), 'data-group': 'inputs' },
      h(
        'div',
        { class: 'controls' },
        v.dk.wrap,
        v.samples.wrap,
        v.tau.wrap,
        v.scoresField,
        v.keys.wrap,
        v.seed.wrap,
        v.newQuery,
      ),
    ),
    h('p', { class: 'hint keys-hint', 'data-group': 'stepper', text: s('keysHint') }),
  ];
}

// The controls' values, and which of them the current step uses.
function drawControls(c, data, v) {
  const st = c.state;
  const stage = st.stage;
  v.dk.set(st.labDk);
  v.samples.set(st.labSamples);
  v.tau.set(st.labTau);
  if (!isFocused(v.seed.box)) v.seed.box.value = String(st.labSeed);
  if (!isFocused(v.keys.box)) v.keys.box.value = String(st.labKeys);
  v.rawRadio.checked = !st.labScaled;
  v.scaledRadio.checked = st.labScaled;
  v.sharedBox.checked = st.labShared;
  v.sharedLabel.hidden = stage !== 'variance';
  v.samples.wrap.hidden = stage !== 'variance';
  v.tau.wrap.hidden = stage !== 'temperature';
  v.scoresField.hidden = !(stage === 'variance' || stage === 'temperature');
  v.keys.wrap.hidden = stage === 'variance' || stage === 'growth';
  v.newQuery.hidden = !(stage === 'softmax' || stage === 'gradient' || stage === 'temperature');
}

// ---- the long runs --------------------------------------------------------------------------------

// A progress line: <progress>, a text, a stop/run-again button; a polite live region for
// start and end only (not every chunk).
function progressRow(onStop) {
  const text = h('span', { class: 'lab-progress-text', id: nextId('lab-progress-') });
  const bar = h('progress', { max: '1', value: '0', 'aria-labelledby': text.id });
  const stop = h('button', { type: 'button', class: 'btn lab-stop', onclick: onStop });
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
  return { el: h('div', { class: 'lab-progress' }, bar, text, stop, live), bar, text, stop, live };
}

function setProgress(row, { state, done, total, text, stopLabel }) {
  row.bar.max = total || 1;
  row.bar.value = done;
  row.text.textContent = text;
  row.stop.textContent = stopLabel;
  row.el.classList.toggle('running', state === 'running');
  row.el.dataset.state = state;
}

// The variance run (one progress row) and the d_k sweep (a progress row in each step that
// draws it), made on first use with the lab worker behind them; both end with the chapter.
function runsOf(c) {
  const ui = c.ui;
  if (ui.runs) return ui.runs;
  const { s } = c;
  // a replaced worker is said in plain words; the run goes on in the new one
  const lab = createLabClient({
    engine: c.engine,
    onRestart: ({ code }) => c.notify(s(code === 'stuck' ? 'labRestartStuck' : 'labRestartCrashed')),
  });
  c.onLeave(() => lab.terminate());
  ui.varRows = [];
  ui.sweepRows = [];
  const rows = (list) => (o) => {
    for (const row of list) setProgress(row, o);
  };
  const failed = (list) => (e) => {
    // a LabError is the background computation's own problem, said in the page's words
    const key =
      { stuck: 'errLabStuck', crashed: 'errLabCrashed', 'bad-job': 'errLabJob' }[e.name === 'LabError' && e.code] ||
      'errEngine';
    for (const row of list)
      setProgress(row, { state: 'error', done: 0, total: 1, text: s(key, { msg: e.message }), stopLabel: s('rerun') });
  };
  const live = (list, msg) => {
    for (const row of list) row.live.textContent = msg;
  };

  const variance = createRun({
    job: (args, onProgress) => lab.run('variance', args, onProgress),
    cancel: () => lab.cancel('variance'),
    onStart: (args) => {
      live(ui.varRows, s('started', { total: fmtInt(args.samples), dk: args.dk }));
      rows(ui.varRows)({
        state: 'running',
        done: 0,
        total: args.samples,
        stopLabel: s('cancel'),
        text: s('running', { done: 0, total: fmtInt(args.samples), pct: 0 }),
      });
    },
    onProgress: (partial, done, total) => {
      rows(ui.varRows)({
        state: 'running',
        done,
        total,
        stopLabel: s('cancel'),
        text: s('running', { done: fmtInt(done), total: fmtInt(total), pct: Math.floor((100 * done) / total) }),
      });
      drawVariance(c);
    },
    onDone: (result, args, ms) => {
      const msg = s('finished', { total: fmtInt(args.samples), ms: Math.round(ms) });
      rows(ui.varRows)({ state: 'done', done: args.samples, total: args.samples, stopLabel: s('rerun'), text: msg });
      live(ui.varRows, msg);
      drawVariance(c);
    },
    onStop: (partial, done, args) => {
      const msg = s('stopped', { done: fmtInt(done), total: fmtInt(args.samples) });
      rows(ui.varRows)({ state: 'stopped', done, total: args.samples, stopLabel: s('rerun'), text: msg });
      live(ui.varRows, msg);
      drawVariance(c);
    },
    onError: failed(ui.varRows),
  });

  const sweep = createRun({
    job: (args, onProgress) => lab.run('sweep', args, onProgress),
    cancel: () => lab.cancel('sweep'),
    onStart: (args) =>
      rows(ui.sweepRows)({
        state: 'running',
        done: 0,
        total: args.dks.length,
        stopLabel: s('cancel'),
        text: s('sweepRunning', { done: 0, total: args.dks.length }),
      }),
    onProgress: (partial, done, total) => {
      rows(ui.sweepRows)({
        state: 'running',
        done,
        total,
        stopLabel: s('cancel'),
        text: s('sweepRunning', { done, total }),
      });
      drawSweep(c);
    },
    onDone: (result, args, ms) => {
      const msg = s('sweepDone', { ms: Math.round(ms) });
      rows(ui.sweepRows)({
        state: 'done',
        done: args.dks.length,
        total: args.dks.length,
        stopLabel: s('rerun'),
        text: msg,
      });
      live(ui.sweepRows, msg);
      drawSweep(c);
    },
    onStop: (partial, done, args) => {
      rows(ui.sweepRows)({
        state: 'stopped',
        done,
        total: args.dks.length,
        stopLabel: s('rerun'),
        text: s('sweepRunning', { done, total: args.dks.length }),
      });
      drawSweep(c);
    },
    onError: failed(ui.sweepRows),
  });
  c.onLeave(() => {
    variance.dispose();
    sweep.dispose();
  });
  ui.runs = { variance, sweep };
  return ui.runs;
}

// A progress row of the run `kind`: its button stops the run, or runs it again.
function runRow(c, kind) {
  const row = progressRow(() => {
    const run = runsOf(c)[kind];
    if (run.running) run.stop();
    else run.restart();
  });
  runsOf(c);
  (kind === 'variance' ? c.ui.varRows : c.ui.sweepRows).push(row);
  return row;
}

const varianceArgs = (st) => ({ dk: st.labDk, samples: st.labSamples, seed: st.labSeed, bins: VARIANCE_BINS });
const sweepArgs = (st) => ({
  dks: SWEEP_DKS,
  nKeys: st.labKeys,
  trials: SWEEP_TRIALS,
  seed: st.labSeed,
  samples: SWEEP_SAMPLES,
});

// ---- 1. variance ----------------------------------------------------------------------------------

function buildVariance(c, v) {
  const { s } = c;
  v.explain = h('p', { class: 'explain' });
  v.formula = h('div', { class: 'formula' });
  const progress = runRow(c, 'variance');
  const histBox = h('div', { class: 'lab-hist' });
  c.ui.hist = createHistogram(histBox, {
    strings: {
      bin: s('bin'),
      count: s('count'),
      expected: s('expected'),
      showTable: c.t('showTable'),
      hideTable: s('hideTable'),
    },
  });
  c.ui.moments = h('div', { class: 'lab-moments' });
  c.ui.callout = h('div', { class: 'lab-callout' });
  v.pair = h('div', { class: 'lab-drawn', 'data-out': 'drawn-pair' });
  v.pairButton = h('button', {
    type: 'button',
    class: 'btn',
    'data-field': 'another-pair',
    text: s('anotherPair'),
    onclick: () => c.set({ labPair: (c.state.labPair + 1) % 1000000 }),
  });
  const pairBox = h(
    'section',
    { class: 'lab-drawn-box', 'aria-label': s('pairTitle') },
    h('h4', { class: 'map-title', text: s('pairTitle') }),
    v.pair,
    v.pairButton,
  );
  return [
    v.explain,
    v.formula,
    pairBox,
    progress.el,
    histBox,
    c.ui.moments,
    c.ui.callout,
    h('p', { class: 'hint', text: s('variance.small') }),
  ];
}

// One pair of the run, drawn by the engine exactly as the experiment draws it: its q, k (the
// first few entries when d_k is large) and q·k.
const PAIR_ROWS = 8;
function drawPair(c, v) {
  const { s } = c;
  const st = c.state;
  const i = st.labPair;
  const pair = c.engine.varianceSample({ dk: st.labDk, seed: st.labSeed, sample: i });
  const rows = [];
  for (let j = 0; j < Math.min(st.labDk, PAIR_ROWS); j++) {
    rows.push({
      cells: [
        String(j + 1),
        { attrs: { 'data-value': String(pair.q[j]) }, text: fmt(pair.q[j], 3) },
        { attrs: { 'data-value': String(pair.k[j]) }, text: fmt(pair.k[j], 3) },
      ],
    });
  }
  if (st.labDk > PAIR_ROWS)
    rows.push({
      cells: ['…', { attrs: { colspan: '2' }, text: s('pairMore', { more: fmtInt(st.labDk - PAIR_ROWS) }) }],
    });
  v.pair.replaceChildren(
    h('p', {
      class: 'explain',
      text: s('pairExplain', { num: fmtInt(i + 1), i, dk: st.labDk, seed: st.labSeed, n: fmtInt(st.labSamples) }),
    }),
    dataTable({
      className: 'data-table lab-drawn-table',
      caption: s('pairCaption', { num: fmtInt(i + 1), dk: st.labDk }),
      head: ['i', 'q_i', 'k_i'],
      rows,
    }),
    h('p', {
      class: 'lab-stat',
      'data-out': 'pair-dot',
      'data-value': String(pair.dot),
      text: s('pairDot', { dot: fmt(pair.dot, 4) }),
    }),
  );
}

function drawVarianceStep(c, data, v) {
  v.explain.textContent = c.s('variance.explain', { n: fmtInt(c.state.labSamples) });
  renderFormula(v.formula, TEX.variance);
  drawPair(c, v);
  // A new run when the settings changed; otherwise redraw what the last one measured.
  if (!runsOf(c).variance.request(varianceArgs(c.state))) drawVariance(c);
}

// The histogram and moments of the variance run so far (the run's own d_k, not the state's).
function drawVariance(c) {
  const { s } = c;
  const run = runsOf(c).variance;
  const r = run.partial;
  const args = run.args;
  if (!r || !args) return;
  const dk = args.dk;
  const scaled = c.state.labScaled;
  const n = r.samples;
  const sigma = scaled ? 1 : Math.sqrt(dk);
  // the shared axis keeps the raw range, so the scaled bars visibly shrink to ±4
  const domain = scaled && !c.state.labShared ? [-4, 4] : [-4 * Math.sqrt(dk), 4 * Math.sqrt(dk)];
  c.ui.hist.update({
    edges: scaled ? r.histogram.scaledEdges : r.histogram.edges,
    counts: scaled ? r.histogram.scaledCounts : r.histogram.rawCounts,
    domain,
    theory: { label: scaled ? 'N(0, 1)' : `N(0, ${dk})`, expected: (a, b) => expectedCount(n, sigma, a, b) },
    caption: s(scaled ? 'histScaled' : 'histRaw', { dk, n: fmtInt(n) }),
    markers: [
      { x: -sigma, label: '−σ' },
      { x: sigma, label: '+σ' },
    ],
  });
  c.ui.hist.el.dataset.samples = String(n);
  c.ui.hist.el.dataset.dk = String(dk);
  c.ui.hist.el.dataset.domain = domain.join(',');

  // moments table: measured (engine) vs theory (formula) with the 95% range of the estimate
  const rows = [];
  for (const side of ['raw', 'scaled']) {
    const m = r[side];
    const isScaled = side === 'scaled';
    const range = expectedRanges(dk, n, isScaled);
    const theory = {
      mean: '0',
      variance: isScaled ? '1' : String(dk),
      std: isScaled
        ? '1'
        : Number.isInteger(Math.sqrt(dk))
          ? `√${dk} = ${Math.sqrt(dk)}`
          : `√${dk} ≈ ${fmt(Math.sqrt(dk), 3)}`,
    };
    const moments = [
      ['mean', m.mean, `${fmt(range.mean[0], 3)} … ${fmt(range.mean[1], 3)}`],
      ['variance', m.variance, `${fmt(range.variance[0], 3)} … ${fmt(range.variance[1], 3)}`],
      ['std', m.std, `${fmt(Math.sqrt(Math.max(0, range.variance[0])), 3)} … ${fmt(Math.sqrt(range.variance[1]), 3)}`],
    ];
    for (const [q, value, rng] of moments) {
      rows.push({
        attrs: { 'data-row': `${side}-${q}` },
        cells: [
          s('momentRow', { side: s(isScaled ? 'scaledRow' : 'rawRow'), q: s(q) }),
          { attrs: { 'data-value': String(value) }, text: fmt(value, 4) },
          theory[q],
          rng,
        ],
      });
    }
  }
  const caption = s('momentsCaption', { dk, n: fmtInt(n) });
  c.ui.moments.replaceChildren(
    dataTable({
      className: 'data-table lab-moments-table',
      caption,
      head: [s('quantity'), s('measured'), s('theory'), s('range95')],
      rows,
    }),
  );
  scrollRegion(c.ui.moments, caption);

  // the d_k = 64 case
  if (dk === 64) {
    c.ui.callout.replaceChildren(
      h('p', {
        class: 'lab-callout-text',
        'data-out': 'callout-64',
        text: s('callout64', { std: fmt(r.raw.std, 3), sstd: fmt(r.scaled.std, 3) }),
      }),
    );
  } else {
    c.ui.callout.replaceChildren(
      h('button', {
        type: 'button',
        class: 'btn',
        'data-field': 'try-64',
        text: s('try64'),
        onclick: () => c.set({ labDk: 64 }),
      }),
    );
  }
}

// ---- the sweep charts (growth, softmax, gradient) -----------------------------------------------

const chartStrings = (c) => ({ showTable: c.t('showTable'), hideTable: c.s('hideTable') });

function sweepSeries(points, pick, name, color, mark = 'both', dash) {
  return { name, color, mark, dash, points: points.map((p) => ({ x: p.dk, y: pick(p) })) };
}

function drawSweep(c) {
  const { s } = c;
  const sw = runsOf(c).sweep.partial;
  if (!sw || sw.points.length === 0) return;
  const P = sw.points;
  const st = c.state;
  const stage = st.stage;
  const params = { trials: SWEEP_TRIALS, n: st.labKeys };
  const v = c.step(stage);
  if (stage === 'growth') {
    v.chart.update({
      caption: s('growthCaption'),
      markX: st.labDk,
      yDomain: [0.5, 2048],
      series: [
        {
          name: s('theoryRaw'),
          color: THEORY_COLOR,
          mark: 'line',
          dash: '5 4',
          points: SWEEP_DKS.map((dk) => ({ x: dk, y: dk })),
        },
        {
          name: s('theoryScaled'),
          color: GREY,
          mark: 'line',
          dash: '2 3',
          points: SWEEP_DKS.map((dk) => ({ x: dk, y: 1 })),
        },
        sweepSeries(P, (p) => p.variance.raw, s('measuredRaw'), RAW_COLOR, 'points'),
        sweepSeries(P, (p) => p.variance.scaled, s('measuredScaled'), SCALED_COLOR, 'points'),
      ],
    });
  } else if (stage === 'softmax') {
    v.maxChart.update({
      caption: s('maxCaption', params),
      markX: st.labDk,
      yDomain: [0, 1],
      series: [
        sweepSeries(P, (p) => p.raw.maxWeight, s('raw'), RAW_COLOR),
        sweepSeries(P, (p) => p.scaled.maxWeight, s('scaled'), SCALED_COLOR),
      ],
    });
    v.entropyChart.update({
      caption: s('entropyCaption'),
      markX: st.labDk,
      yDomain: [0, Math.max(sw.logN * 1.05, 0.1)],
      series: [
        {
          name: s('logn'),
          color: THEORY_COLOR,
          mark: 'line',
          dash: '5 4',
          points: SWEEP_DKS.map((dk) => ({ x: dk, y: sw.logN })),
        },
        sweepSeries(P, (p) => p.raw.entropy, s('raw'), RAW_COLOR),
        sweepSeries(P, (p) => p.scaled.entropy, s('scaled'), SCALED_COLOR),
      ],
    });
  } else if (stage === 'gradient') {
    v.chart.update({
      caption: s('gradCaption', params),
      markX: st.labDk,
      series: [
        sweepSeries(P, (p) => p.raw.jacobianNorm, s('jacRaw'), RAW_COLOR),
        sweepSeries(P, (p) => p.scaled.jacobianNorm, s('jacScaled'), SCALED_COLOR),
        sweepSeries(P, (p) => p.raw.gradNorm, s('gradRaw'), RAW_COLOR, 'line', '4 3'),
        sweepSeries(P, (p) => p.scaled.gradNorm, s('gradScaled'), SCALED_COLOR, 'line', '4 3'),
      ],
    });
  }
}

// The sweep for the current settings (a new run when they changed), and its charts.
function requestSweep(c) {
  runsOf(c).sweep.request(sweepArgs(c.state));
  drawSweep(c);
}

// ---- 2. growth ------------------------------------------------------------------------------------

function buildGrowth(c, v) {
  const { s } = c;
  v.explain = h('p', { class: 'explain' });
  v.formula = h('div', { class: 'formula' });
  const progress = runRow(c, 'sweep');
  const box = h('div', { class: 'lab-chart' });
  v.chart = createLineChart(box, {
    xLog: true,
    yLog: true,
    xLabel: s('axisDk'),
    yLabel: s('axisVariance'),
    strings: chartStrings(c),
  });
  // The sweep stays hidden until the learner has guessed what doubling d_k does.
  v.measured = h('p', { class: 'msg info lab-double-reveal' });
  v.reveal = h('div', { class: 'lab-growth-reveal' }, v.measured, v.explain, v.formula, progress.el, box);
  v.predict = createPredict(c, {
    id: 'scaling/double',
    question: '',
    reveal: v.reveal,
    options: ['same', 'double', 'four'].map((value) => ({ value, label: s(`double.${value}`) })),
  });
  return [v.predict.el, v.reveal];
}

// Doubling d_k: the variance of q·k measured by the engine at d_k and 2·d_k (the largest d_k
// is compared with its half), on this thread with DOUBLE_SAMPLES pairs each; kept per setting.
const DOUBLE_SAMPLES = 20000;
function doubling(c, v) {
  const st = c.state;
  const lo = st.labDk * 2 <= 1024 ? st.labDk : st.labDk / 2;
  const key = `${lo},${st.labSeed}`;
  if (v.doubling?.key !== key) {
    const at = (dk) =>
      c.engine.varianceExperiment({ dk, samples: DOUBLE_SAMPLES, seed: st.labSeed, bins: 1 }).raw.variance;
    const a = at(lo),
      b = at(2 * lo);
    const ratio = b / a;
    // the nearest of ×1, ×2, ×4 on a log scale
    const answer = ['same', 'double', 'four'][
      [1, 2, 4].map((x) => Math.abs(Math.log(ratio / x))).reduce((best, e, k, all) => (e < all[best] ? k : best), 0)
    ];
    v.doubling = { key, lo, a, b, ratio, answer };
  }
  return v.doubling;
}

function drawGrowth(c, data, v) {
  const { s } = c;
  const d = doubling(c, v);
  const params = {
    lo: d.lo,
    hi: 2 * d.lo,
    a: fmt(d.a, 2),
    b: fmt(d.b, 2),
    ratio: fmt(d.ratio, 2),
    n: fmtInt(DOUBLE_SAMPLES),
  };
  v.predict.ask(s('double.q', params));
  v.predict.draw(d.answer, { right: s('double.why', params), wrong: s('double.why', params) });
  v.measured.textContent = s('double.measured', params);
  v.explain.textContent = s('growth.explain', { n: fmtInt(SWEEP_SAMPLES) });
  renderFormula(v.formula, TEX.growth);
  requestSweep(c);
}

// ---- 3. softmax saturation -----------------------------------------------------------------------

// One query against n keys (cheap: on this thread).
function probe(c, tau, scaled, gumbelSamples = 0) {
  const st = c.state;
  return c.engine.queryProbe({
    dk: st.labDk,
    nKeys: st.labKeys,
    seed: st.labSeed,
    trial: st.labTrial,
    tau,
    scaled,
    gumbelSamples,
  });
}

const keyLabels = (n) => Array.from({ length: n }, (_, j) => `k${j + 1}`);

function buildSoftmax(c, v) {
  const { s } = c;
  v.explain = h('p', { class: 'explain' });
  const left = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('barsRaw') }));
  const right = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('barsScaled') }));
  v.barsRaw = createBars(left, { color: RAW_COLOR });
  v.barsScaled = createBars(right, { color: SCALED_COLOR });
  v.statsRaw = h('p', { class: 'lab-stat', 'data-out': 'raw-stats' });
  v.statsScaled = h('p', { class: 'lab-stat', 'data-out': 'scaled-stats' });
  left.append(v.statsRaw);
  right.append(v.statsScaled);
  const progress = runRow(c, 'sweep');
  const c1 = h('div', { class: 'lab-chart' });
  const c2 = h('div', { class: 'lab-chart' });
  v.maxChart = createLineChart(c1, {
    width: 480,
    xLog: true,
    xLabel: s('axisDk'),
    yLabel: s('axisMax'),
    strings: chartStrings(c),
  });
  v.entropyChart = createLineChart(c2, {
    width: 480,
    xLog: true,
    xLabel: s('axisDk'),
    yLabel: s('axisEntropy'),
    strings: chartStrings(c),
  });
  return [
    v.explain,
    h('div', { class: 'lab-pair' }, left, right),
    h('p', { class: 'explain note', text: s('dead') }),
    progress.el,
    h('div', { class: 'lab-pair' }, c1, c2),
  ];
}

function drawSoftmax(c, data, v) {
  const { s } = c;
  const st = c.state;
  requestSweep(c);
  const p = probe(c, 1, true);
  const labels = keyLabels(st.labKeys);
  const logn = Math.log(st.labKeys);
  v.barsRaw.update({
    values: p.rawWeights,
    labels,
    domain: [0, 1],
    highlight: maxIndex(p.rawWeights),
    caption: s('barsRaw'),
    digits: 3,
  });
  v.barsScaled.update({
    values: p.scaledWeights,
    labels,
    domain: [0, 1],
    highlight: maxIndex(p.scaledWeights),
    caption: s('barsScaled'),
    digits: 3,
  });
  const stat = (max, ent) => s('probeStats', { max: fmt(max, 3), h: fmt(ent, 3), n: st.labKeys, logn: fmt(logn, 3) });
  v.statsRaw.textContent = stat(p.rawMax, p.rawEntropy);
  v.statsScaled.textContent = stat(p.scaledMax, p.scaledEntropy);
  v.statsRaw.dataset.max = String(p.rawMax);
  v.statsScaled.dataset.max = String(p.scaledMax);
  v.explain.textContent = s('softmax.explain', { n: st.labKeys, dk: st.labDk, trials: SWEEP_TRIALS });
}

// ---- 4. gradient ----------------------------------------------------------------------------------

function buildGradient(c, v) {
  const { s } = c;
  v.formula = h('div', { class: 'formula' });
  const progress = runRow(c, 'sweep');
  const box = h('div', { class: 'lab-chart' });
  v.chart = createLineChart(box, { xLog: true, xLabel: s('axisDk'), yLabel: s('axisNorm'), strings: chartStrings(c) });
  v.titleRaw = h('h4', { class: 'map-title' });
  v.titleScaled = h('h4', { class: 'map-title' });
  const m1 = h('div', { class: 'map' }, v.titleRaw);
  const m2 = h('div', { class: 'map' }, v.titleScaled);
  v.jacRaw = createHeatmap(m1, { kind: 'diverging', digits: 3, strings: heatmapStrings(c.lang), maxCell: 28 });
  v.jacScaled = createHeatmap(m2, { kind: 'diverging', digits: 3, strings: heatmapStrings(c.lang), maxCell: 28 });
  return [
    h('p', { class: 'explain', text: s('gradient.explain') }),
    v.formula,
    progress.el,
    box,
    h('div', { class: 'maps lab-maps' }, m1, m2),
    h('p', { class: 'hint', text: s('gradNote') }),
  ];
}

function drawGradient(c, data, v) {
  const { s } = c;
  const st = c.state;
  requestSweep(c);
  renderFormula(v.formula, TEX.gradient);
  const p = probe(c, 1, true);
  const labels = keyLabels(st.labKeys);
  const jr = c.engine.softmaxJacobian(p.rawWeights);
  const js = c.engine.softmaxJacobian(p.scaledWeights);
  v.titleRaw.textContent = s('jacMapRaw', { dk: st.labDk });
  v.titleScaled.textContent = s('jacMapScaled', { dk: st.labDk });
  const domain = [-0.25, 0.25];
  v.jacRaw.update({
    matrix: jr,
    rowLabels: labels,
    colLabels: labels,
    domain,
    caption: s('jacMapRaw', { dk: st.labDk }),
  });
  v.jacScaled.update({
    matrix: js,
    rowLabels: labels,
    colLabels: labels,
    domain,
    caption: s('jacMapScaled', { dk: st.labDk }),
  });
}

// ---- 5. temperature -------------------------------------------------------------------------------

function buildTemperature(c, v) {
  const { s } = c;
  v.formula = h('div', { class: 'formula' });
  const buttons = h(
    'div',
    { class: 'lab-buttons' },
    h('button', {
      type: 'button',
      class: 'btn',
      'data-field': 'tau-sqrt',
      text: s('setTauRaw'),
      onclick: () => c.set({ labScaled: false, labTau: Number(Math.sqrt(c.state.labDk).toPrecision(6)) }),
    }),
    h('button', {
      type: 'button',
      class: 'btn',
      'data-field': 'tau-one',
      text: s('setTauOne'),
      onclick: () => c.set({ labScaled: true, labTau: 1 }),
    }),
  );
  v.compare = h('p', { class: 'lab-stat', 'data-out': 'tau-compare' });
  const soft = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('soft') }));
  const hard = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('hard') }));
  v.barsSoft = createBars(soft, { color: SCALED_COLOR });
  v.barsHard = createBars(hard, { color: MUTED });
  v.stats = h('p', { class: 'lab-stat', 'data-out': 'tau-stats' });
  soft.append(v.stats);
  const g = h('div', { class: 'map' }, h('h4', { class: 'map-title', text: s('gumbel') }));
  v.gumbelMap = createHeatmap(g, { kind: 'sequential', digits: 3, maxCell: 32, strings: heatmapStrings(c.lang) });
  return [
    h('p', { class: 'explain', text: s('temperature.explain') }),
    v.formula,
    buttons,
    v.compare,
    h('div', { class: 'lab-pair' }, soft, hard),
    g,
    h('p', { class: 'explain', text: s('hardNote') }),
  ];
}

function drawTemperature(c, data, v) {
  const { s } = c;
  const st = c.state;
  const tau = st.labTau;
  renderFormula(v.formula, temperatureTex(st.labDk, s('with'), tex));
  const p = probe(c, tau, st.labScaled, GUMBEL_ROWS);
  const labels = keyLabels(st.labKeys);
  const soft = st.labScaled ? p.scaledWeights : p.rawWeights;
  const max = st.labScaled ? p.scaledMax : p.rawMax;
  const ent = st.labScaled ? p.scaledEntropy : p.rawEntropy;
  v.barsSoft.update({ values: soft, labels, domain: [0, 1], highlight: maxIndex(soft), caption: s('soft'), digits: 3 });
  v.barsHard.update({
    values: p.hard,
    labels,
    domain: [0, 1],
    highlight: maxIndex(p.hard),
    caption: s('hard'),
    digits: 0,
  });
  v.stats.textContent = s('tauStats', { tau, max: fmt(max, 3), h: fmt(ent, 3) });
  v.gumbelMap.update({
    matrix: p.gumbel,
    rowLabels: Array.from({ length: GUMBEL_ROWS }, (_, k) => s('gumbelRows', { k: k + 1 })),
    colLabels: labels,
    domain: [0, 1],
    caption: s('gumbel'),
  });
  // √d_k as a temperature: raw scores at the chosen τ against scaled scores at τ = 1
  const one = probe(c, 1, true);
  v.compare.textContent = s('tauCompare', {
    tau,
    rmax: fmt(p.rawMax, 3),
    rh: fmt(p.rawEntropy, 3),
    smax: fmt(one.scaledMax, 3),
    sh: fmt(one.scaledEntropy, 3),
  });
}
