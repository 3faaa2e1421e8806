// Lesson 8: position. 我 爱 你 vs 你 爱 我 without positions (scores and outputs only permuted)
// and with sinusoidal encodings (they differ); the sinusoidal table; RoPE's q_m · k_n against
// m − n; learned encodings. Pure logic in position/logic.js; every number from the engine.

import { h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { list } from '../../text/i18n.js';
import { createLineChart } from '../../views/line-chart.js';
import { sentenceLayer, permutationBetween, permutedDifference, ropeDots, ropeDot } from './logic.js';
import { heatmapFigure, drawFigure, dims } from '../kit/figures.js';
import { intInput } from '../../views/controls.js';
import { tokensField } from '../kit/fields.js';
import { createPredict } from '../kit/predict.js';
import strings from './strings.js';
import meta, { MAX_TOKENS } from './meta.js';
import { BLUE, GREEN, ORANGE } from '../../views/palette.js';

const LAYER_D = 8;
const ROPE_COUNT = 16;
const ROPE_SERIES = [0, 7, 15];
const SAME = 1e-5; // float32 rounding: a permutation reorders sums

const intError = (c) => (min, max) => c.s('errInt', { min, max });
const labelsFrom = (first, n) => Array.from({ length: n }, (_, k) => String(first + k));

// ---- step 1: shuffle --------------------------------------------------------------------------------

function buildShuffle(c, v) {
  const { s } = c;
  v.reveal = h('div', { class: 'pos-reveal' });
  v.predict = createPredict(c, {
    id: 'position/shuffle',
    question: '',
    options: [
      { value: 'same', label: s('opt.same') },
      { value: 'differ', label: s('opt.differ') },
    ],
    reveal: v.reveal,
  });
  v.perm = h('p', { class: 'perm-list' });
  v.verdict = h('p', { class: 'pos-verdict', 'aria-live': 'polite' });
  v.maps = h('div', { class: 'maps pos-maps' });
  v.figs = {};
  for (const name of ['scoresA', 'scoresB', 'outA', 'outB']) {
    v.figs[name] = heatmapFigure(c, { className: `map-pos-${name}` });
    if (name !== 'scoresA') v.maps.append(v.figs[name].wrap);
  }
  // Sentence A's scores lead: the question is whether B's are the same numbers reordered, so
  // B's wait in the reveal.
  v.figs.scoresA.wrap.dataset.figure = 'main';
  v.reveal.append(v.perm, v.verdict, v.maps);
  return [
    v.figs.scoresA.wrap,
    h('p', { class: 'about lab-explain', text: s('shuffle.about') }),
    v.predict.el,
    v.reveal,
  ];
}

// The two sentences and the positions switch, beside sentence A's scores.
function shuffleControls(c, v) {
  const { s } = c;
  v.a = tokensField(c, s('sentenceA'), 'posA', MAX_TOKENS);
  v.b = tokensField(c, s('sentenceB'), 'posB', MAX_TOKENS);
  v.pe = h('input', { type: 'checkbox', onchange: (e) => c.set({ posPE: e.target.checked }) });
  return [
    h('div', { class: 'controls' }, v.a.wrap, v.b.wrap),
    h('label', { class: 'check' }, v.pe, h('span', { text: s('addPE') })),
  ];
}

function computeShuffle(c) {
  const { state, engine } = c;
  const opts = { d: LAYER_D, seed: state.seed, positions: state.posPE };
  const A = sentenceLayer(engine, state.posA, opts);
  const B = sentenceLayer(engine, state.posB, opts);
  const perm = permutationBetween(state.posA, state.posB);
  const diff = perm ? permutedDifference(A.scaled, B.scaled, perm) : null;
  const out = perm ? permutedDifference(A.output, B.output, perm, false) : null;
  return { A, B, perm, diff, out };
}

function drawShuffle(c, p, v) {
  const { s, state } = c;
  v.a.sync(state.posA);
  v.b.sync(state.posB);
  v.pe.checked = state.posPE;
  const same = p.perm !== null && p.diff <= SAME;
  const answer = same ? 'same' : 'differ';
  const diff = p.diff === null ? '' : fmt(p.diff, 3);
  v.predict.ask(s(state.posPE ? 'shuffle.question.on' : 'shuffle.question.off'));
  v.predict.draw(answer, {
    right: s(`shuffle.right.${answer}`, { diff }),
    wrong: s(`shuffle.wrong.${answer}`, { diff }),
  });
  if (p.perm) {
    const pairs = list(
      c.lang,
      p.perm.map((j, i) => `${state.posB[i]} ${i + 1} → ${j + 1}`),
    );
    setText(v.perm, s('permLine', { list: pairs }));
    setText(v.verdict, s(same ? 'verdictSame' : 'verdictDiffer', { diff, out: fmt(p.out, 3) }));
  } else {
    setText(v.perm, s('notPermutation'));
    setText(v.verdict, '');
  }
  v.verdict.className = `pos-verdict ${same ? 'same' : 'differ'}`;
  const a = state.posA,
    b = state.posB;
  const dd = dims(LAYER_D);
  // one colour scale for A and B, so equal numbers look equal
  const span = (m1, m2) => {
    const r = Math.max(...m1.data.map(Math.abs), ...m2.data.map(Math.abs)) || 1;
    return [-r, r];
  };
  const sd = span(p.A.scaled, p.B.scaled),
    od = span(p.A.output, p.B.output);
  drawFigure(v.figs.scoresA, { title: s('mapScoresA'), matrix: p.A.scaled, rowLabels: a, colLabels: a, domain: sd });
  drawFigure(v.figs.scoresB, { title: s('mapScoresB'), matrix: p.B.scaled, rowLabels: b, colLabels: b, domain: sd });
  drawFigure(v.figs.outA, { title: s('mapOutA'), matrix: p.A.output, rowLabels: a, colLabels: dd, domain: od });
  drawFigure(v.figs.outB, { title: s('mapOutB'), matrix: p.B.output, rowLabels: b, colLabels: dd, domain: od });
}

// ---- step 2: the sinusoidal table -----------------------------------------------------------------

function buildSinusoidal(c, v) {
  v.fig = heatmapFigure(c, { className: 'map-pos-sin' });
  return [v.fig.wrap, h('p', { class: 'about lab-explain', text: c.s('sin.about') })];
}

function sinusoidalControls(c, v) {
  const { s } = c;
  v.n = intInput(s('n'), { min: 1, max: 128, onValue: (x) => c.set({ posN: x }), error: intError(c) });
  v.d = intInput(s('d'), { min: 2, max: 64, onValue: (x) => c.set({ posDim: x }), error: intError(c) });
  return h('div', { class: 'controls' }, v.n.wrap, v.d.wrap);
}

function drawSinusoidal(c, p, v) {
  const { s, state } = c;
  v.n.sync(state.posN);
  v.d.sync(state.posDim);
  drawFigure(v.fig, {
    title: s('mapSin', { n: state.posN, d: state.posDim }),
    matrix: p.pe,
    rowLabels: labelsFrom(0, state.posN),
    colLabels: dims(state.posDim),
    domain: [-1, 1],
  });
}

// ---- step 3: RoPE -----------------------------------------------------------------------------------

function buildRope(c, v) {
  const { s } = c;
  v.lines = h('div', { class: 'formula rope-pairs', 'aria-live': 'polite' });
  v.verdict = h('p', { class: 'pos-verdict' });
  v.chartBox = h('div', { 'data-figure': 'main' });
  v.chart = createLineChart(v.chartBox, {
    label: s('chartCaption'),
    xLabel: s('xLabel'),
    yLabel: s('yLabel'),
    strings: { showTable: c.t('showTable'), hideTable: s('hideTable') },
  });
  return [
    v.chartBox,
    h('p', { class: 'about lab-explain', text: s('rope.about') }),
    h('p', { class: 'hint', text: s('chartNote') }),
    v.lines,
    v.verdict,
  ];
}

// d, and the two pairs of positions (m, n) whose q_m · k_n the step compares.
function ropeControls(c, v) {
  const { s } = c;
  const num = (label, name, max) =>
    intInput(label, { min: 0, max, onValue: (x) => c.set({ [name]: x }), error: intError(c) });
  v.d = intInput(s('ropeD'), { min: 2, max: 64, onValue: (x) => c.set({ posRopeD: x - (x % 2) }), error: intError(c) });
  v.m1 = num(s('m1'), 'posM1', 10000);
  v.n1 = num(s('n1'), 'posN1', 10000);
  v.m2 = num(s('m2'), 'posM2', 10000);
  v.n2 = num(s('n2'), 'posN2', 10000);
  return [
    h('div', { class: 'controls' }, v.d.wrap),
    h('div', { class: 'controls' }, v.m1.wrap, v.n1.wrap, v.m2.wrap, v.n2.wrap),
  ];
}

function computeRope(c) {
  const { state, engine } = c;
  const d = state.posRopeD;
  const q = Array.from(engine.randomMatrix({ rows: 1, cols: d, seed: state.seed, stream: 500 }).data);
  const k = Array.from(engine.randomMatrix({ rows: 1, cols: d, seed: state.seed, stream: 501 }).data);
  const dots = ropeDots(engine, q, k, ROPE_COUNT);
  const p1 = ropeDot(engine, q, k, state.posM1, state.posN1);
  const p2 = ropeDot(engine, q, k, state.posM2, state.posN2);
  return { dots, p1, p2 };
}

function drawRope(c, p, v) {
  const { s, state } = c;
  for (const name of ['m1', 'n1', 'm2', 'n2']) v[name].sync(state[`pos${name.toUpperCase()}`]);
  v.d.sync(state.posRopeD);
  const o1 = state.posM1 - state.posN1,
    o2 = state.posM2 - state.posN2;
  v.lines.replaceChildren(
    h('p', { text: s('pairLine', { m: state.posM1, n: state.posN1, v: fmt(p.p1, 4), o: o1 }) }),
    h('p', { text: s('pairLine', { m: state.posM2, n: state.posN2, v: fmt(p.p2, 4), o: o2 }) }),
  );
  setText(
    v.verdict,
    o1 === o2 ? s('pairsSame', { diff: fmt(Math.abs(p.p1 - p.p2), 6) }) : s('pairsDiffer', { o1, o2 }),
  );
  v.verdict.className = `pos-verdict ${o1 === o2 ? 'same' : 'differ'}`;
  const colors = [BLUE, ORANGE, GREEN];
  const series = ROPE_SERIES.map((n, k) => ({
    name: s('seriesN', { n }),
    color: colors[k],
    mark: n === ROPE_SERIES[1] ? 'line' : 'points',
    points: Array.from({ length: ROPE_COUNT }, (_, m) => ({ x: m - n, y: p.dots.data[m * ROPE_COUNT + n] })),
  }));
  v.chart.update({ series, caption: s('chartCaption'), digits: 4 });
}

// ---- step 4: learned ----------------------------------------------------------------------------------

function buildLearned(c, v) {
  const { s } = c;
  v.fig = heatmapFigure(c, { className: 'map-pos-learned', digits: 3 });
  return [
    v.fig.wrap,
    h('p', { class: 'about lab-explain', text: s('learned.about') }),
    h('p', { class: 'lab-explain', text: s('learned.compare') }),
  ];
}

function drawLearned(c, p, v) {
  drawFigure(v.fig, {
    title: c.s('mapLearned', { n: 16, d: 8 }),
    matrix: p.table,
    rowLabels: labelsFrom(0, 16),
    colLabels: dims(8),
  });
}

// ---- the chapter ----------------------------------------------------------------------------------------

const STEPS = [
  {
    id: 'shuffle',
    title: { en: 'Shuffled words', zh: '打乱词序' },
    build: buildShuffle,
    controls: shuffleControls,
    draw: drawShuffle,
    compute: computeShuffle,
  },
  {
    id: 'sinusoidal',
    title: { en: 'Sinusoidal', zh: '正弦编码' },
    build: buildSinusoidal,
    controls: sinusoidalControls,
    draw: drawSinusoidal,
    compute: (c) => ({ pe: c.engine.sinusoidal({ n: c.state.posN, d: c.state.posDim }) }),
  },
  {
    id: 'rope',
    title: { en: 'RoPE', zh: 'RoPE' },
    build: buildRope,
    controls: ropeControls,
    draw: drawRope,
    compute: computeRope,
  },
  {
    id: 'learned',
    title: { en: 'Learned', zh: '可学习编码' },
    build: buildLearned,
    draw: drawLearned,
    compute: (c) => ({
      table: c.engine.randomMatrix({ rows: 16, cols: 8, seed: c.state.seed, stream: 600, scale: 0.02 }),
    }),
  },
];

export default {
  ...meta,
  strings,
  steps: STEPS,
};
