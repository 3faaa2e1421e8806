// Lesson 6: score functions side by side. Additive (Bahdanau), dot, scaled dot and general
// scores on the same Q and K; additive and general with d_q ≠ d_k; their cost measured live.
// Pure logic (parameters, operation counts, timing) is in score-functions/logic.js.

import { button, h, setText } from '../../views/dom.js';
import { renderFormula } from '../../views/formula.js';
import { fmt, fmtInt } from '../../text/format.js';
import { PRESETS, toMatrix } from '../../lesson/example.js';
import { embedTokens, handMadeTable } from '../../lesson/embeddings.js';
import { SCORE_KINDS, againstDot, allScores, argmaxRow, opCount, scoreParams, attendWith, unsettled } from './logic.js';
import { timeSideBySide } from '../../lesson/timing.js';
import { heatmapFigure, drawFigure, dims } from '../kit/figures.js';
import { intInput, selectInput, numberSelect } from '../../views/controls.js';
import { scrollTable } from '../../views/table.js';
import { createPredict } from '../kit/predict.js';
import strings from './strings.js';
import meta from './meta.js';
import { MAX_SEED } from '../../engine/choices.js';

const CROSS = PRESETS['cat-fish'];
const COST_N = [16, 32, 64, 128];
const COST_D = 64;

// The translation example's queries and keys, each token with its own vectors.
function exampleInputs(engine, seed) {
  const table = handMadeTable(CROSS);
  const embed = (tokens, role) =>
    toMatrix(embedTokens(engine, { table, tokens, role, d: CROSS.dk, seed }).grid, tokens.length, CROSS.dk);
  return {
    query: embed(CROSS.queryTokens, 'q'),
    key: embed(CROSS.keyTokens, 'k'),
    value: embed(CROSS.keyTokens, 'v'),
  };
}

const intError = (c) => (min, max) => c.s('errInt', { min, max });

// ---- step 1: four functions on the same Q and K ---------------------------------------------

function buildFour(c, v) {
  const { s } = c;
  v.query = selectInput(
    s('query'),
    CROSS.queryTokens.map((t, i) => ({ value: i, label: t })),
    (x) => c.set({ sfQuery: Number(x) }),
  );
  v.seed = intInput(s('seed'), { min: 0, max: MAX_SEED, onValue: (x) => c.set({ sfSeed: x }), error: intError(c) });
  v.hidden = intInput(s('hidden'), { min: 1, max: 64, onValue: (x) => c.set({ sfHidden: x }), error: intError(c) });
  v.reveal = h('div', { class: 'sf-reveal' });
  v.predict = createPredict(c, {
    id: 'score-functions/winner',
    question: '',
    options: CROSS.keyTokens.map((t, j) => ({ value: j, label: t })),
    reveal: v.reveal,
  });
  // What the guess is made from: the query's vector beside the Keys' (the weights, which answer
  // the question, wait in the reveal).
  v.vectors = heatmapFigure(c, { kind: 'diverging', digits: 2, className: 'sf-vectors' });
  v.vectors.wrap.dataset.figure = 'main';
  v.maps = h('div', { class: 'maps sf-maps' });
  v.figs = {};
  for (const kind of SCORE_KINDS) {
    const fig = heatmapFigure(c, { kind: 'sequential', digits: 3, className: `map-sf-${kind}` });
    fig.formula = h('div', { class: 'formula' });
    fig.wrap.insertBefore(fig.formula, fig.wrap.children[1]);
    v.figs[kind] = fig;
    v.maps.append(fig.wrap);
  }
  v.winners = h('div', { class: 'sf-winners' });
  v.note = h('p', { class: 'lab-explain' });
  v.reveal.append(v.maps, v.winners, v.note);
  return [h('p', { class: 'about', text: s('four.about') }), v.vectors.wrap, v.predict.el, v.reveal];
}

function drawFour(c, d, v) {
  const { s, state } = c;
  v.query.sync(state.sfQuery);
  v.seed.sync(state.sfSeed);
  v.hidden.sync(state.sfHidden);
  const qi = Math.min(state.sfQuery, CROSS.queryTokens.length - 1);
  const q = CROSS.queryTokens[qi];
  const scaled = d.results['scaled-dot'];
  const win = argmaxRow(scaled.weights, qi);
  v.predict.ask(s('four.question', { q }));
  const { query, key } = d.inputs;
  const stack = new Float32Array((1 + key.rows) * key.cols);
  stack.set(query.data.subarray(qi * query.cols, (qi + 1) * query.cols));
  stack.set(key.data, query.cols);
  const span = Math.max(...Array.from(stack, Math.abs)) || 1;
  drawFigure(v.vectors, {
    title: s('four.vectors', { q }),
    matrix: { rows: 1 + key.rows, cols: key.cols, data: stack },
    rowLabels: [`q ${q}`, ...CROSS.keyTokens.map((k) => `k ${k}`)],
    colLabels: d.dims,
    domain: [-span, span],
  });
  const w = fmt(scaled.weights.data[qi * scaled.weights.cols + win], 3);
  v.predict.draw(win, {
    right: s('four.right', { k: CROSS.keyTokens[win], w }),
    wrong: s('four.wrong', { k: CROSS.keyTokens[win], w }),
  });
  for (const kind of SCORE_KINDS) {
    const fig = v.figs[kind];
    renderFormula(fig.formula, s(`tex.${kind}`), { display: false });
    drawFigure(fig, {
      title: s('weightsOf', { kind: s(`kind.${kind}`) }),
      matrix: d.results[kind].weights,
      rowLabels: CROSS.queryTokens,
      colLabels: CROSS.keyTokens,
      domain: [0, 1],
    });
  }
  const rows = CROSS.queryTokens.map((tok, i) => [
    tok,
    ...SCORE_KINDS.map((kind) => CROSS.keyTokens[argmaxRow(d.results[kind].weights, i)]),
  ]);
  v.winners.replaceChildren(
    scrollTable(s('winners'), [s('winnersHead'), ...SCORE_KINDS.map((k) => s(`kind.${k}`))], rows),
  );
  setText(v.note, s('sameNote', { r: fmt(Math.sqrt(CROSS.dk), 2) }));
}

// ---- step 2: q and k of different sizes --------------------------------------------------------

function buildSizes(c, v) {
  const { s } = c;
  v.dq = intInput(s('dq'), { min: 1, max: 16, onValue: (x) => c.set({ sfDq: x }), error: intError(c) });
  v.dk = intInput(s('dk'), { min: 1, max: 16, onValue: (x) => c.set({ sfDk: x }), error: intError(c) });
  v.verdicts = h('ul', { class: 'sf-verdicts', 'aria-live': 'polite' });
  v.maps = h('div', { class: 'maps' });
  v.figs = {};
  for (const kind of ['additive', 'general']) {
    v.figs[kind] = heatmapFigure(c, { kind: 'sequential', digits: 3, className: `map-sizes-${kind}` });
    v.maps.append(v.figs[kind].wrap);
  }
  return [h('p', { class: 'about', text: s('sizes.about') }), v.verdicts, v.maps];
}

function drawSizes(c, d, v) {
  const { s, state } = c;
  v.dq.sync(state.sfDq);
  v.dk.sync(state.sfDk);
  v.verdicts.replaceChildren(
    ...SCORE_KINDS.map((kind) => {
      const r = d.results[kind];
      const sizes = { kind: s(`kind.${kind}`), dq: state.sfDq, dk: state.sfDk };
      // The engine's own message is quoted as it is, marked as English.
      if (r.error)
        return h(
          'li',
          { class: 'refused', 'data-kind': kind },
          s('refused', sizes),
          ' ',
          h('code', { lang: 'en', text: r.error }),
        );
      return h('li', { class: 'works', 'data-kind': kind, text: s('works', sizes) });
    }),
  );
  for (const kind of ['additive', 'general']) {
    drawFigure(v.figs[kind], {
      title: s('weightsOf', { kind: s(`kind.${kind}`) }),
      matrix: d.results[kind].weights,
      rowLabels: CROSS.queryTokens,
      colLabels: CROSS.keyTokens,
      domain: [0, 1],
    });
  }
}

// ---- step 3: cost, measured ---------------------------------------------------------------------

function buildCost(c, v) {
  const { s } = c;
  v.n = numberSelect(s('n'), COST_N, (x) => c.set({ sfN: x }));
  v.again = button('btn', s('measure'), () => {
    v.key = '';
    c.redraw();
  });
  v.status = h('p', { class: 'hint', 'aria-live': 'polite' });
  v.table = h('div', { class: 'sf-cost', 'data-figure': 'main' });
  v.order = h('p', { class: 'msg info sf-order', 'aria-live': 'polite' });
  v.key = '';
  return [
    h('p', { class: 'about', text: s('cost.about') }),
    v.status,
    v.table,
    v.order,
    h('p', { class: 'explain', text: s('costNote') }),
  ];
}

// Times engine.attend for each score function at n × n, d = 64, h = 64.
function measureCosts(engine, n, seed) {
  const draw = (rows, stream) => engine.randomMatrix({ rows, cols: COST_D, seed, stream });
  const inputs = { query: draw(n, 0), key: draw(n, 1), value: draw(n, 2) };
  const params = scoreParams(engine, { dq: COST_D, dk: COST_D, hidden: COST_D, seed });
  const fns = Object.fromEntries(SCORE_KINDS.map((kind) => [kind, () => attendWith(engine, kind, inputs, params)]));
  const ms = timeSideBySide(fns, { rounds: n >= 128 ? 5 : 9, minMs: 12 });
  const out = {};
  for (const kind of SCORE_KINDS) {
    out[kind] = { ms: ms[kind], ops: opCount(kind, { nq: n, nk: n, dq: COST_D, dk: COST_D, hidden: COST_D }) };
  }
  return out;
}

function drawCost(c, d, v) {
  const { s, state } = c;
  v.n.sync(state.sfN);
  const key = `${state.sfN}`;
  if (v.key !== key) {
    v.key = key;
    v.status.textContent = s('measuring');
    v.costs = measureCosts(c.engine, state.sfN, state.sfSeed);
    v.status.textContent = '';
  }
  const costs = v.costs;
  // the median, then the fastest and slowest round (in the median's unit)
  const spread = ({ median, min, max }) => {
    const [k, unit, digits] = median >= 1 ? [1, 'ms', 2] : [1000, 'us', 1];
    return s('spread', {
      t: s(unit, { t: fmt(median * k, digits) }),
      lo: fmt(min * k, digits),
      hi: fmt(max * k, digits),
    });
  };
  // A ratio this run does not settle (the ranges overlap, or the order contradicts the work) is
  // marked as noise, never shown as a ranking.
  const ratio = (kind) => {
    const { ratio: r, settled } = againstDot(kind, costs);
    return settled ? `× ${fmt(r, 2)}` : `× ${fmt(r, 2)} ${s('noise')}`;
  };
  // The score functions this run does not rank, named as a sentence names them ("A, B and C").
  const open = unsettled(costs).map((k) => s(`kind.${k}`));
  const kinds = open.length > 1 ? `${open.slice(0, -1).join(s('sep'))}${s('lastSep')}${open.at(-1)}` : open[0];
  setText(v.order, open.length ? s('unsettled', { kinds }) : s('settled'));
  const rows = SCORE_KINDS.map((kind) => [
    s(`kind.${kind}`),
    fmtInt(costs[kind].ops.mul),
    fmtInt(costs[kind].ops.tanh),
    spread(costs[kind].ms),
    ratio(kind),
    s(`par.${kind}`),
    s(kind === 'additive' || kind === 'general' ? 'yes' : 'no'),
  ]);
  v.table.replaceChildren(
    scrollTable(
      s('costCaption', { n: state.sfN }),
      ['col.kind', 'col.mul', 'col.tanh', 'col.time', 'col.ratio', 'col.parallel', 'col.sizes'].map((k) => s(k)),
      rows,
      [5, 6],
    ),
  );
}

// ---- what the steps draw from ------------------------------------------------------------------

// The four scores on the example's own vectors.
function computeFour(c) {
  const { state, engine } = c;
  const inputs = exampleInputs(engine, state.seed);
  const params = scoreParams(engine, { dq: CROSS.dk, dk: CROSS.dk, hidden: state.sfHidden, seed: state.sfSeed });
  return { results: allScores(engine, inputs, params), dims: dims(CROSS.dk), inputs };
}

// The four scores with each word's own drawn vectors, at the sizes chosen.
function computeSizes(c) {
  const { state, engine } = c;
  const embed = (tokens, role, d) =>
    toMatrix(embedTokens(engine, { table: null, tokens, role, d, seed: state.seed }).grid, tokens.length, d);
  const inputs = {
    query: embed(CROSS.queryTokens, 'q', state.sfDq),
    key: embed(CROSS.keyTokens, 'k', state.sfDk),
    value: embed(CROSS.keyTokens, 'v', 2),
  };
  const params = scoreParams(engine, { dq: state.sfDq, dk: state.sfDk, hidden: state.sfHidden, seed: state.sfSeed });
  return { results: allScores(engine, inputs, params) };
}

// ---- the chapter --------------------------------------------------------------------------------

export default {
  ...meta,
  strings,
  steps: [
    {
      id: 'four',
      title: { en: 'Four scores', zh: '四种打分' },
      build: buildFour,
      controls: (c, v) => h('div', { class: 'controls' }, v.query.wrap, v.seed.wrap, v.hidden.wrap),
      draw: drawFour,
      compute: computeFour,
    },
    {
      id: 'sizes',
      title: { en: 'Different sizes', zh: '长度不同时' },
      build: buildSizes,
      controls: (c, v) => h('div', { class: 'controls' }, v.dq.wrap, v.dk.wrap),
      draw: drawSizes,
      compute: computeSizes,
    },
    {
      id: 'cost',
      title: { en: 'Cost', zh: '开销' },
      build: buildCost,
      controls: (c, v) => h('div', { class: 'controls' }, v.n.wrap, v.again),
      draw: drawCost,
      compute: () => ({}),
    },
  ],
};
