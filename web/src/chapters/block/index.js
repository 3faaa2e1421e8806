// The Transformer block: an encoder layer over "The cat eats fish" and a decoder layer over
// "猫 吃 鱼" that attends to it, one stage a step: self-attention, + residual and LayerNorm,
// feed-forward, masked self-attention, cross-attention; then why each part is there (residual
// and LayerNorm off, 1-6 stacked layers, pre- or post-norm) and the parallel pass against an
// RNN's n dependent steps, measured. The block diagram above the steps is the step bar's map:
// each box goes to its step. Pure logic in block/logic.js; every number from the engine.

import { h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { dataTable } from '../../views/table.js';
import { createLineChart } from '../../views/line-chart.js';
import { heatmapFigure, drawFigure, dims } from '../kit/figures.js';
import { tokensInput, selectInput } from '../../views/controls.js';
import { createPredict } from '../kit/predict.js';
import {
  runBlock,
  similarity,
  ownRowCount,
  rowNorms,
  stack,
  parallelVsSequential,
  gruWeights,
  HIDDEN,
  D_MODEL,
  HEADS,
} from './logic.js';
import { BLUE, ORANGE } from '../../views/palette.js';
import strings from './strings.js';
import meta, { MAX_TOKENS, RNN_LENGTHS } from './meta.js';

const check = (c, name, label) => {
  const input = h('input', { type: 'checkbox', onchange: (e) => c.set({ [name]: e.target.checked }) });
  return { input, wrap: h('label', { class: 'check', 'data-group': 'inputs' }, input, h('span', { text: label })) };
};

// A step's layout: the live figure first, then a short lead and its (at most 3) controls beside
// it (the LayerNorm step: its table too), the rest of the prose below. lead: its text, or the
// paragraph itself when the step's draw fills it in.
const layout = (figure, lead, controls, ...rest) => [
  h(
    'div',
    { class: 'bl-lead' },
    figure,
    h(
      'div',
      { class: 'bl-side' },
      typeof lead === 'string' ? h('p', { class: 'about lab-explain', text: lead }) : lead,
      ...controls,
    ),
  ),
  ...rest,
];

const headMaps = (c, v, prefix) => {
  v.maps = h('div', { class: 'maps bl-maps' });
  v.figs = Array.from({ length: HEADS }, (_, k) => {
    const fig = heatmapFigure(c, { kind: 'sequential', className: `map-bl-${prefix}-${k + 1}` });
    // every head is drawn as the step's figure (head 1 leads it): the heads at one size, not
    // the first one large and the others small
    fig.wrap.dataset.figure = 'main';
    v.maps.append(fig.wrap);
    return fig;
  });
  return v.maps;
};

// ---- the panel: the sentences and the block diagram ------------------------------------------------

const BOXES = {
  encoder: [
    ['self', 'box.self'],
    ['norm', 'box.norm'],
    ['ff', 'box.ff'],
    ['norm', 'box.norm'],
  ],
  decoder: [
    ['masked', 'box.masked'],
    ['norm', 'box.norm'],
    ['cross', 'box.cross'],
    ['norm', 'box.norm'],
    ['ff', 'box.ff'],
    ['norm', 'box.norm'],
  ],
};

function buildPanel(c, v) {
  const { s } = c;
  const tokens = (label, name) =>
    tokensInput(label, {
      max: MAX_TOKENS,
      onValue: (list) => c.set({ [name]: list }),
      error: (m) => s('errTokens', { max: m }),
    });
  v.source = tokens(s('source'), 'blSource');
  v.target = tokens(s('target'), 'blTarget');
  v.boxes = [];
  const column = (side) =>
    h(
      'ol',
      { class: `bl-column bl-${side}`, 'aria-label': s(`side.${side}`) },
      h('li', { class: 'bl-side-title', text: s(`side.${side}`) }),
      ...BOXES[side].map(([step, key]) => {
        const b = h('button', {
          type: 'button',
          class: `bl-box bl-box-${step}`,
          'data-step': step,
          text: s(key),
          onclick: () => c.set({ stage: step }),
        });
        v.boxes.push(b);
        return h('li', {}, b);
      }),
    );
  const extra = ['stack', 'parallel'].map((step) => {
    const b = h('button', {
      type: 'button',
      class: `bl-box bl-box-${step}`,
      'data-step': step,
      text: s(`box.${step}`),
      onclick: () => c.set({ stage: step }),
    });
    v.boxes.push(b);
    return b;
  });
  return h(
    'section',
    { class: 'panel bl-panel', 'aria-labelledby': 'bl-panel-h' },
    h('h3', { class: 'panel-title', id: 'bl-panel-h', text: s('example') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, v.source.wrap, v.target.wrap),
    h(
      'nav',
      { class: 'bl-diagram', 'aria-label': s('diagram') },
      column('encoder'),
      h('span', { class: 'bl-arrow', 'aria-hidden': 'true', text: '→' }),
      column('decoder'),
      h('div', { class: 'bl-extra' }, ...extra),
    ),
  );
}

function drawPanel(c, data, v) {
  v.source.sync(c.state.blSource);
  v.target.sync(c.state.blTarget);
  for (const b of v.boxes) {
    const here = b.dataset.step === c.state.stage;
    b.classList.toggle('bl-here', here);
    if (here) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  }
}

// ---- step: encoder self-attention -------------------------------------------------------------------

function buildSelf(c, v) {
  const { s } = c;
  v.formula = h('p', { class: 'formula bl-formula' });
  return layout(
    headMaps(c, v, 'self'),
    s('self.lead'),
    [],
    v.formula,
    h('p', { class: 'lab-explain', text: s('self.more') }),
  );
}

function drawSelf(c, p, v) {
  const { s, state } = c;
  const heads = p.encoder.selfAttention.heads;
  heads.forEach((hd, k) =>
    drawFigure(v.figs[k], {
      title: s('mapSelf', { k: k + 1 }),
      matrix: hd.weights,
      rowLabels: state.blSource,
      colLabels: state.blSource,
      domain: [0, 1],
    }),
  );
  setText(v.formula, s('self.formula', { n: state.blSource.length, d: D_MODEL, h: HEADS, dh: D_MODEL / HEADS }));
}

// ---- step: + residual, LayerNorm -----------------------------------------------------------------

function buildNorm(c, v) {
  const { s } = c;
  v.residual = check(c, 'blResidual', s('residual'));
  v.norm = check(c, 'blNorm', s('layerNorm'));
  v.fig = heatmapFigure(c, { className: 'map-bl-sim' });
  v.reveal = h('div', { class: 'bl-reveal' });
  v.predict = createPredict(c, {
    id: 'block/residual',
    question: s('norm.question'),
    options: [
      { value: 'own', label: s('opt.own') },
      { value: 'lost', label: s('opt.lost') },
    ],
    reveal: v.reveal,
  });
  v.verdict = h('p', { class: 'bl-verdict', 'aria-live': 'polite' });
  v.table = h('div', { class: 'bl-table' });
  v.reveal.append(v.verdict);
  // the LayerNorm's own numbers (each row's mean and std before and after) beside the map
  return layout(
    v.fig.wrap,
    s('norm.lead'),
    [v.residual.wrap, v.norm.wrap, v.table],
    v.predict.el,
    v.reveal,
    h('p', { class: 'lab-explain', text: s('norm.more') }),
  );
}

function drawNorm(c, p, v) {
  const { s, state } = c;
  v.residual.input.checked = state.blResidual;
  v.norm.input.checked = state.blNorm;
  const out = p.encoder.normFirst ? p.encoder.residuals[0] : p.encoder.normed[0].output;
  const sim = similarity(out, p.x);
  const own = ownRowCount(sim);
  const other = p.otherResidual;
  drawFigure(v.fig, {
    title: s('mapSim'),
    matrix: sim,
    rowLabels: state.blSource.map((t) => `${t}′`),
    colLabels: state.blSource,
    domain: [-1, 1],
  });
  const n = state.blSource.length;
  v.predict.draw(other.own === n ? 'own' : 'lost', {
    right: s('norm.right', { on: other.onOwn, off: other.offOwn, n }),
    wrong: s('norm.wrong', { on: other.onOwn, off: other.offOwn, n }),
  });
  setText(v.verdict, s('norm.verdict', { own, n }));
  // mean and std of each token's row: the sum before LayerNorm, its output after
  const ln = p.encoder.normed[0];
  const after = (m, i) => {
    const row = Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
    const mean = row.reduce((a, b) => a + b, 0) / row.length;
    return [mean, Math.sqrt(row.reduce((a, b) => a + (b - mean) ** 2, 0) / row.length)];
  };
  v.table.replaceChildren(
    dataTable({
      caption: s('norm.table'),
      head: [s('token'), s('meanBefore'), s('stdBefore'), s('meanAfter'), s('stdAfter')],
      rows: state.blSource.map((tok, i) => {
        const [m2, s2] = after(ln.output, i);
        return [tok, fmt(ln.mean[i], 3), fmt(ln.std[i], 3), fmt(m2, 3), fmt(s2, 3)];
      }),
    }),
  );
}

// ---- step: feed-forward --------------------------------------------------------------------------

function buildFf(c, v) {
  const { s } = c;
  v.act = selectInput(
    s('activation'),
    [
      { value: 'relu', label: 'ReLU' },
      { value: 'gelu', label: 'GELU' },
    ],
    (x) => c.set({ blAct: x }),
  );
  v.fig = heatmapFigure(c, { className: 'map-bl-ff' });
  v.note = h('p', { class: 'bl-verdict' });
  return layout(v.fig.wrap, s('ff.lead'), [v.act.wrap], v.note, h('p', { class: 'lab-explain', text: s('ff.more') }));
}

function drawFf(c, p, v) {
  const { s, state } = c;
  v.act.sync(state.blAct);
  const hid = p.encoder.ff.hidden;
  drawFigure(v.fig, {
    title: s('mapFf', { hidden: HIDDEN }),
    matrix: hid,
    rowLabels: state.blSource,
    colLabels: dims(HIDDEN),
  });
  const zeros = hid.data.filter((x) => x === 0).length;
  setText(v.note, s('ff.note', { zeros, cells: hid.data.length, hidden: HIDDEN, d: D_MODEL }));
}

// ---- step: masked self-attention (decoder) ------------------------------------------------------

function buildMasked(c, v) {
  return layout(
    headMaps(c, v, 'masked'),
    c.s('masked.lead'),
    [],
    h('p', { class: 'lab-explain', text: c.s('masked.more') }),
  );
}

function drawMasked(c, p, v) {
  const { s, state } = c;
  p.decoder.selfAttention.heads.forEach((hd, k) =>
    drawFigure(v.figs[k], {
      title: s('mapMasked', { k: k + 1 }),
      matrix: hd.weights,
      rowLabels: state.blTarget,
      colLabels: state.blTarget,
      domain: [0, 1],
    }),
  );
}

// ---- step: cross-attention ---------------------------------------------------------------------

function buildCross(c, v) {
  const { s } = c;
  v.aligned = check(c, 'blAligned', s('aligned'));
  v.note = h('p', { class: 'bl-verdict', 'aria-live': 'polite' });
  v.lead = h('p', { class: 'about lab-explain' }); // its shape (n_q × n_k) follows the sentences
  return layout(
    headMaps(c, v, 'cross'),
    v.lead,
    [v.aligned.wrap],
    v.note,
    h('p', { class: 'lab-explain', text: s('cross.more') }),
  );
}

function drawCross(c, p, v) {
  const { s, state } = c;
  v.aligned.input.checked = state.blAligned;
  setText(v.lead, s('cross.lead', { nq: state.blTarget.length, nk: state.blSource.length }));
  p.decoder.crossAttention.heads.forEach((hd, k) =>
    drawFigure(v.figs[k], {
      title: s('mapCross', { k: k + 1 }),
      matrix: hd.weights,
      rowLabels: state.blTarget,
      colLabels: state.blSource,
      domain: [0, 1],
    }),
  );
  setText(
    v.note,
    s(state.blAligned ? 'cross.handSet' : 'cross.drawn', { nq: state.blTarget.length, nk: state.blSource.length }),
  );
}

// ---- step: stacking layers -----------------------------------------------------------------------

function buildStack(c, v) {
  const { s } = c;
  v.layers = selectInput(
    s('layers'),
    [1, 2, 3, 4, 5, 6].map((n) => ({ value: n, label: String(n) })),
    (x) => c.set({ blLayers: Number(x) }),
  );
  v.normFirst = check(c, 'blNormFirst', s('normFirst'));
  v.box = h('div', { class: 'bl-chart' });
  v.chart = createLineChart(v.box, {
    label: s('stack.chart'),
    xLabel: s('stack.x'),
    yLabel: s('stack.y'),
    strings: { showTable: c.t('showTable'), hideTable: s('hideTable') },
  });
  v.note = h('p', { class: 'bl-verdict' });
  return layout(
    v.box,
    s('stack.lead'),
    [v.layers.wrap, v.normFirst.wrap],
    v.note,
    h('p', { class: 'lab-explain', text: s('stack.more') }),
  );
}

function drawStack(c, p, v) {
  const { s, state } = c;
  v.layers.sync(state.blLayers);
  v.normFirst.input.checked = state.blNormFirst;
  const series = [
    { name: s('stack.with'), color: BLUE, mark: 'line', points: p.stackOn.map((y, x) => ({ x, y })) },
    { name: s('stack.without'), color: ORANGE, mark: 'line', points: p.stackOff.map((y, x) => ({ x, y })) },
  ];
  v.chart.update({ series, caption: s('stack.chart'), digits: 3 });
  const last = state.blLayers;
  setText(
    v.note,
    s('stack.note', {
      layers: last,
      on: fmt(p.stackOn[last], 3),
      off: fmt(p.stackOff[last], 3),
      start: fmt(p.stackOn[0], 3),
    }),
  );
}

// ---- step: parallel vs sequential ----------------------------------------------------------------

function buildParallel(c, v) {
  const { s } = c;
  v.fig = heatmapFigure(c, { className: 'map-bl-rnn' });
  v.measure = h('button', { type: 'button', class: 'bl-measure', text: s('measure'), onclick: () => measure(c, v) });
  v.replay = h('button', {
    type: 'button',
    class: 'bl-replay',
    text: s('replay'),
    onclick: () => {
      v.rnn = null; // the states appear again, one after another
      c.redraw();
    },
  });
  v.table = h('div', { class: 'bl-table', 'aria-live': 'polite' });
  v.verdict = h('p', { class: 'lab-explain bl-verdict bl-timed', 'aria-live': 'polite' });
  v.paths = h('div', { class: 'bl-table' });
  c.onLeave(() => clearTimeout(v.rnn?.timer));
  return layout(
    v.fig.wrap,
    s('parallel.lead'),
    [v.replay, v.measure],
    v.paths,
    v.table,
    v.verdict,
    h('p', { class: 'lab-explain', text: s('parallel.more') }),
  );
}

// The timed comparison, measured on request; kept (c.kept) when the chapter is mounted again.
function measure(c, v) {
  c.kept.parallel = parallelVsSequential(c.engine, c.state.seed, RNN_LENGTHS);
  drawMeasured(c, v);
}

function drawMeasured(c, v) {
  const rows = c.kept.parallel;
  if (!rows) return;
  v.table.replaceChildren(
    dataTable({
      caption: c.s('parallel.timed'),
      head: ['n', c.s('col.attention'), c.s('col.rnn'), c.s('col.steps')],
      rows: rows.map((r) => [String(r.n), fmt(r.attentionMs, 3), fmt(r.rnnMs, 3), String(r.rnnSteps)]),
    }),
  );
  const last = rows[rows.length - 1];
  setText(
    v.verdict,
    c.s('parallel.verdict', {
      rnnFaster: rows.filter((r) => r.rnnMs < r.attentionMs).length,
      lengths: rows.length,
      n: last.n,
      ratio: fmt(last.attentionMs / last.rnnMs, 1),
    }),
  );
}

// The GRU's hidden states appear one after another, as the RNN computes them (state t after
// state t - 1), every STATE_MS; with prefers-reduced-motion all at once. The figure's
// data-shown is the number of states drawn, data-done is set once the last one is.
const STATE_MS = 450;

// Draws the first k states (k = v.rnn.shown; `mark`: say so in data-shown / data-done).
function showStates(c, v, hidden, labels, k = v.rnn.shown, mark = true) {
  drawFigure(v.fig, {
    title: c.s('mapRnn'),
    matrix: { rows: k, cols: hidden.cols, data: hidden.data.subarray(0, k * hidden.cols) },
    rowLabels: labels.slice(0, k),
    colLabels: dims(hidden.cols),
    domain: [-1, 1], // a GRU's state stays in (−1, 1): the colours do not move as rows appear
  });
  if (!mark) return;
  v.fig.wrap.dataset.shown = String(k);
  if (k === hidden.rows) {
    v.fig.wrap.dataset.done = 'true';
    v.fig.wrap.style.minHeight = '';
  } else {
    delete v.fig.wrap.dataset.done;
  }
}

function drawStates(c, v, hidden, labels) {
  const key = `${labels.join('\u0000')}|${Array.from(hidden.data).join(',')}`;
  if (v.rnn?.key !== key) {
    clearTimeout(v.rnn?.timer);
    const still = !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    v.rnn = { key, shown: hidden.rows, timer: 0 };
    if (!still && hidden.rows > 1) {
      // the whole figure once, unmarked, so its final height is kept while the rows come in
      showStates(c, v, hidden, labels, hidden.rows, false);
      v.fig.wrap.style.minHeight = `${v.fig.wrap.offsetHeight}px`;
      v.rnn.shown = 1;
      const tick = () => {
        v.rnn.shown++;
        showStates(c, v, hidden, labels);
        if (v.rnn.shown < hidden.rows) v.rnn.timer = setTimeout(tick, STATE_MS);
      };
      v.rnn.timer = setTimeout(tick, STATE_MS);
    }
  }
  showStates(c, v, hidden, labels);
}

function drawParallel(c, p, v) {
  const { s, state } = c;
  const n = state.blSource.length;
  const rnn = p.rnn;
  drawStates(
    c,
    v,
    rnn.hidden,
    state.blSource.map((t, i) => `h${i + 1} ${t}`),
  );
  if (!v.table.firstChild) drawMeasured(c, v);
  v.paths.replaceChildren(
    dataTable({
      caption: s('parallel.table', { n }),
      head: ['', s('col.sequential'), s('col.path')],
      rows: [
        [s('row.attention'), '1', '1'],
        [s('row.rnn'), String(rnn.steps), String(n)],
      ],
    }),
  );
}

// ---- the chapter ---------------------------------------------------------------------------------

const STEPS = [
  { id: 'self', title: { en: 'Self-attention', zh: '自注意力' }, build: buildSelf, draw: drawSelf },
  { id: 'norm', title: { en: 'Add & LayerNorm', zh: '残差与层归一化' }, build: buildNorm, draw: drawNorm },
  { id: 'ff', title: { en: 'Feed-forward', zh: '前馈网络' }, build: buildFf, draw: drawFf },
  { id: 'masked', title: { en: 'Masked self-attention', zh: '掩码自注意力' }, build: buildMasked, draw: drawMasked },
  { id: 'cross', title: { en: 'Cross-attention', zh: '交叉注意力' }, build: buildCross, draw: drawCross },
  { id: 'stack', title: { en: 'Stacked layers', zh: '堆叠多层' }, build: buildStack, draw: drawStack },
  {
    id: 'parallel',
    title: { en: 'Parallel vs sequential', zh: '并行与串行' },
    build: buildParallel,
    draw: drawParallel,
  },
];

export default {
  ...meta,
  prefix: 'bl',
  strings,
  steps: STEPS,
  after: { build: buildPanel, draw: drawPanel },
  compute(c) {
    const { engine, state } = c;
    const p = runBlock(engine, state);
    p.encoder.normFirst = state.blNormFirst;
    const stage = state.stage;
    if (stage === 'norm') {
      // the prediction's answer: own rows kept with and without the residual
      const own = (residual) => {
        const r = runBlock(engine, state, { blResidual: residual }).encoder;
        const out = state.blNormFirst ? r.residuals[0] : r.normed[0].output;
        return ownRowCount(similarity(out, p.x));
      };
      const onOwn = own(true);
      const offOwn = own(false);
      p.otherResidual = { onOwn, offOwn, own: offOwn };
    }
    if (stage === 'stack') {
      const opts = { normFirst: state.blNormFirst };
      p.stackOn = stack(engine, state, state.blLayers, { ...opts, layerNorm: true });
      p.stackOff = stack(engine, state, state.blLayers, { ...opts, layerNorm: false });
    }
    if (stage === 'parallel') p.rnn = engine.gruEncoder({ x: p.x, ...gruWeights(engine, state.seed) });
    p.rowNorms = rowNorms(p.x);
    return p;
  },
};
