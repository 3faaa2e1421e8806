// Lesson 10: debugging attention. One running example (a causal self-attention with padding,
// tokens carrying their drawn vectors) broken in the seven ways the tutorials warn about, each
// bug a toggle whose result the engine computes as the bugged code does (attendWithBug); the
// symptom read from the numbers next to the healthy result; the monitors (entropy against ln n,
// the logits' mean and spread); and why attention weights are not an explanation. The list of
// bugs is the engine's (engine.choices.bug). Pure logic in debug/logic.js.

import { h, setText, rebuildOn } from '../../views/dom.js';
import { createBars } from '../../views/bars.js';
import { fmt } from '../../text/format.js';
import { sentences, list } from '../../text/i18n.js';
import { heatmapFigure, dims } from '../kit/figures.js';
import { selectInput, numberSelect } from '../../views/controls.js';
import { tokensField } from '../kit/fields.js';
import { scrollTable } from '../../views/table.js';
import { createPredict } from '../kit/predict.js';
import {
  DK_CHOICES,
  SCALE_CHOICES,
  SMALL_CHOICES,
  BUG_CODE,
  runLab,
  symptoms,
  zeroFillAnswer,
  flatRow,
  sameWeights,
  monitorVerdict,
  rowReading,
  rowOf,
} from './logic.js';
import strings from './strings.js';
import meta, { MAX_TOKENS } from './meta.js';
import { WEIGHT } from '../../views/palette.js';
const INT_PARAMS = new Set(['k', 'n', 'kh', 'dModel', 'dk', 'h', 'd']);

// The lab's settings as debug/logic.js reads them.
const labState = (state) => ({
  tokens: state.dbTokens,
  dk: state.dbDk,
  heads: state.dbHeads,
  scale: state.dbScale,
  seed: state.seed,
  bug: state.dbBug,
});

// Numbers in a sentence: counts as they are, the engine's values to 3 decimals, lists joined
// the way the language writes them.
function formatParams(c, params) {
  const out = {};
  for (const [k, x] of Object.entries(params)) {
    if (Array.isArray(x))
      out[k] = list(
        c.lang,
        x.map((v) => fmt(v, 2)),
      );
    else if (typeof x === 'number') out[k] = INT_PARAMS.has(k) ? String(x) : fmt(x, 3);
    else out[k] = x;
  }
  return out;
}
const say = (c, { key, params }) => c.s(key, formatParams(c, params));
const vec = (xs) => `(${xs.map((x) => fmt(x, 3)).join(', ')})`; // a vector, written as code writes it

function weightsMap(c, className) {
  return heatmapFigure(c, { kind: 'sequential', className: `db-map ${className}` });
}
function drawWeights(fig, title, result, tokens, blocked) {
  if (fig.title.textContent !== title) fig.title.textContent = title;
  fig.hm.update({
    matrix: result.weights,
    rowLabels: tokens,
    colLabels: tokens,
    domain: [0, 1],
    caption: title,
    blocked,
  });
}

// ---- the controls every step shares: the tokens; d_k, heads and σ ---------------------------------

// The tokens (beside the question's figure: it needs a <pad> after a real token; in the settings
// on the other steps).
function buildTokens(c, v) {
  v.tokens = tokensField(c, c.s('tokens'), 'dbTokens', MAX_TOKENS);
  return v.tokens.wrap;
}

// d_k, the heads (d_model = h · d_k) and the logits' scale σ: what the missing scale, the √d_model
// bug and the naive softmax need turned up (beside the checklist's and the monitors' figures).
function buildSizes(c, v) {
  const { s } = c;
  v.dk = numberSelect(s('dk'), DK_CHOICES, (x) => c.set({ dbDk: x }));
  v.heads = numberSelect(s('heads'), [1, 2, 4, 8, 12, 16, 32, 64], (x) => c.set({ dbHeads: x }));
  v.scale = numberSelect(s('scale'), SCALE_CHOICES, (x) => c.set({ dbScale: x }));
  v.dModel = h('p', { class: 'hint db-dmodel' });
  return [h('div', { class: 'controls' }, v.dk.wrap, v.heads.wrap, v.scale.wrap), v.dModel];
}

function drawSizes(c, data, v) {
  const { state } = c;
  v.dk.sync(state.dbDk);
  v.heads.sync(state.dbHeads);
  v.scale.sync(state.dbScale);
  setText(v.dModel, c.s('dModelLine', { h: state.dbHeads, dk: state.dbDk, d: state.dbHeads * state.dbDk }));
}

// The settings: what the running example is.
const buildPanel = (c) =>
  h(
    'section',
    { class: 'panel', 'aria-labelledby': 'db-panel-h' },
    h('h3', { class: 'panel-title', id: 'db-panel-h', text: c.s('example') }),
    h('p', { class: 'hint lab-explain', text: c.s('exampleAbout') }),
  );

// ---- step 1: predict what the 0 fill does -----------------------------------------------------------

function buildPredict(c, v) {
  const { s } = c;
  v.reveal = h('div', { class: 'db-reveal' });
  v.predict = createPredict(c, {
    id: 'debug/zero-fill',
    question: '',
    options: ['zero', 'leak', 'nan', 'all'].map((k) => ({ value: k, label: s(`ans.${k}`) })),
    reveal: v.reveal,
  });
  v.healthy = weightsMap(c, 'db-map-before');
  v.zero = weightsMap(c, 'db-map-zero');
  v.line = h('p', { class: 'msg info db-predict-line', 'aria-live': 'polite' });
  // The healthy weights lead; the bugged ones, which answer the question, wait in the reveal.
  v.healthy.wrap.dataset.figure = 'main';
  v.reveal.append(h('div', { class: 'maps db-maps' }, v.zero.wrap), v.line);
  v.none = h('p', { class: 'hint' });
  return [
    v.healthy.wrap,
    h('p', { class: 'about lab-explain', text: s('predict.about') }),
    v.predict.el,
    v.none,
    v.reveal,
  ];
}

function drawPredict(c, data, v) {
  const { s } = c;
  const tokens = c.state.dbTokens;
  const z = data.zero;
  v.predict.el.hidden = !z;
  setText(v.none, z ? '' : s('predict.q.none'));
  v.none.hidden = !!z;
  v.healthy.wrap.hidden = !z;
  if (!z) {
    v.reveal.hidden = true;
    return;
  }
  const tok = tokens[z.row];
  v.predict.ask(s('predict.q', { tok }));
  const params = { tok, w: fmt(z.leaked, 3) };
  v.predict.draw(z.answer, { right: s('predict.right', params), wrong: s('predict.wrong', params) });
  const blocked = z.lab.healthy.mask;
  drawWeights(v.healthy, s('mapHealthy'), z.lab.healthy, tokens, blocked);
  drawWeights(v.zero, s('mapZero'), z.lab.bugged, tokens, blocked);
  setText(v.line, s('sym.zero.pad', params));
}

// ---- step 2: the checklist ----------------------------------------------------------------------------

function buildChecklist(c, v) {
  const { s } = c;
  v.code = h('code', { lang: 'en' });
  const codeBox = h('pre', { class: 'db-code', tabindex: '0', role: 'region', 'aria-label': s('codeLabel') }, v.code);
  v.healthy = weightsMap(c, 'db-map-healthy');
  v.bugged = weightsMap(c, 'db-map-bugged');
  v.symptoms = h('ul', { class: 'db-symptoms', 'aria-live': 'polite' });
  // The healthy weights and the bugged ones side by side, one figure at one size, the symptom
  // right under them; the bug toggles beside (checklistControls).
  return [
    h(
      'div',
      { class: 'db-check-figure' },
      h('div', { class: 'maps db-maps db-pair', 'data-figure': 'main' }, v.healthy.wrap, v.bugged.wrap),
      h('h4', { class: 'db-symptom-h', text: s('symptom') }),
      v.symptoms,
    ),
    h('p', { class: 'about lab-explain', text: s('check.about') }),
    codeBox,
  ];
}

// One toggle per bug of the engine's list (a pressed one switches it off).
function checklistControls(c, v) {
  const { s } = c;
  v.list = h('ul', { class: 'db-bugs', 'aria-label': s('bugs') });
  v.buttons = new Map();
  for (const bug of c.engine.choices.bug) {
    if (bug === 'none') continue;
    const tip = ['missing-scale', 'no-max-subtraction', 'scale-by-d-model'].includes(bug) ? s(`tip.${bug}`) : null;
    const button = h(
      'button',
      {
        type: 'button',
        class: 'db-bug',
        'data-bug': bug,
        'aria-pressed': 'false',
        onclick: () => c.set({ dbBug: c.state.dbBug === bug ? 'none' : bug }),
      },
      h('span', { class: 'db-bug-mark', 'aria-hidden': 'true' }),
      h('span', { class: 'db-bug-name', text: s(`bug.${bug}`) }),
      tip ? h('span', { class: 'db-bug-tip', text: tip }) : null,
    );
    v.buttons.set(bug, button);
    v.list.append(h('li', {}, button));
  }
  return h('fieldset', { class: 'plain db-checklist' }, h('legend', { text: s('bugs') }), v.list);
}

function drawChecklist(c, lab, v) {
  const { s, state } = c;
  const tokens = state.dbTokens;
  for (const [bug, b] of v.buttons) b.setAttribute('aria-pressed', String(state.dbBug === bug));
  setText(v.code, BUG_CODE[lab.bug] ?? '');
  drawWeights(v.healthy, s('mapHealthy'), lab.healthy, tokens, lab.healthy.mask);
  const title = lab.bug === 'none' ? s('mapBuggedNone') : s('mapBugged', { bug: s(`bug.${lab.bug}`) });
  drawWeights(v.bugged, title, lab.bugged, tokens, lab.healthy.mask);
  const items = symptoms(lab, tokens).map((x) => say(c, x));
  rebuildOn(v.symptoms, `${c.lang}|${items.join('|')}`, () => items.map((t) => h('li', { text: t })));
}

// ---- step 3: the monitors -------------------------------------------------------------------------------

function buildMonitors(c, v) {
  const { s } = c;
  v.table = h('div', { class: 'db-mon-table' });
  v.logits = h('div', { class: 'db-logit-table' });
  v.line = h('p', { class: 'msg info db-mon-line', 'aria-live': 'polite' });
  const box = h('div', { class: 'db-bars', 'data-figure': 'main' }, h('h4', { text: s('barsCaption') }));
  v.bars = createBars(box, { color: WEIGHT });
  return [box, v.line, h('p', { class: 'about lab-explain', text: s('mon.about') }), v.table, v.logits];
}

// Which bug the monitors watch (the same as the checklist's).
function monitorControls(c, v) {
  v.bug = selectInput(
    c.s('monBug'),
    c.engine.choices.bug.map((b) => ({ value: b, label: c.s(`bug.${b}`) })),
    (x) => c.set({ dbBug: x }),
  );
  return v.bug.wrap;
}

function drawMonitors(c, lab, v) {
  const { s, state } = c;
  const tokens = state.dbTokens;
  v.bug.sync(state.dbBug);
  const bugName = s(`bug.${lab.bug}`);
  const head = ['col.query', 'col.eh', 'col.eb', 'col.max', 'col.sh', 'col.sb', 'col.leak', 'col.flag'].map((k) =>
    s(k),
  );
  const rows = tokens.map((t, i) => [
    `${i + 1}. ${t}`,
    fmt(lab.healthy.entropy[i], 3),
    fmt(lab.bugged.entropy[i], 3),
    fmt(lab.mb.maxEntropy[i], 3),
    fmt(lab.mh.rowSums[i], 3),
    fmt(lab.mb.rowSums[i], 3),
    fmt(lab.mb.leaked[i], 3),
    s(`flag.${rowReading(lab, i)}`),
  ]);
  v.table.replaceChildren(scrollTable(s('monCaption', { bug: bugName }), head, rows, [7]));
  const logitRow = (name, m) => [s(name), fmt(m.logitMean, 3), fmt(m.logitStd, 3), fmt(m.logitMax, 3)];
  v.logits.replaceChildren(
    scrollTable(
      s('logitCaption'),
      ['col.what', 'col.mean', 'col.std', 'col.maxLogit'].map((k) => s(k)),
      [logitRow('run.healthy', lab.mh), logitRow('run.bugged', lab.mb)],
    ),
  );
  // Degraded (near uniform) or too sharp (nearly one-hot): rows the healthy run has not so,
  // counted over every row of the example.
  const verdict = monitorVerdict(lab);
  const { rows: n, uniform, sharp, healthyUniform } = verdict;
  const names = (rows) =>
    list(
      c.lang,
      rows.map((i) => `“${tokens[i]}”`),
    );
  const said = [];
  if (uniform.length) said.push(s('mon.uniform', { k: uniform.length, n, rows: names(uniform) }));
  if (sharp.length) said.push(s('mon.sharp', { k: sharp.length, n, rows: names(sharp) }));
  if (!said.length)
    said.push(
      healthyUniform.length
        ? s('mon.asHealthy', { k: healthyUniform.length, n, rows: names(healthyUniform) })
        : s('mon.fine'),
    );
  said.push(s('mon.std', { sb: fmt(lab.mb.logitStd, 3), sh: fmt(lab.mh.logitStd, 3) }));
  setText(v.line, sentences(c.lang, said));
  const top = Math.max(...Array.from(lab.mb.maxEntropy));
  v.bars.update({
    values: Array.from(lab.bugged.entropy),
    labels: tokens,
    caption: s('barsCaption'),
    domain: [0, Math.max(top, 1e-6)],
    digits: 3,
  });
}

// ---- step 4: attention weights are not an explanation ------------------------------------------------------

function buildExplain(c, v) {
  const { s } = c;
  v.flatAbout = h('p', { class: 'lab-explain' });
  const barsBox = h('div', { class: 'db-bars' });
  v.bars = createBars(barsBox, { color: WEIGHT });
  v.flatTable = h('div', { class: 'db-flat-table' });
  v.flatLine = h('p', { class: 'msg info db-flat-line', 'aria-live': 'polite' });
  v.draws = h('div', { class: 'db-draws' });
  v.sameAbout = h('p', { class: 'lab-explain' });
  v.sameLine = h('p', { class: 'msg info db-same-line', 'aria-live': 'polite' });
  v.figs = {
    wa: weightsMap(c, 'db-map-wa'),
    wb: weightsMap(c, 'db-map-wb'),
    oa: heatmapFigure(c, { kind: 'diverging', className: 'db-map db-map-oa' }),
    ob: heatmapFigure(c, { kind: 'diverging', className: 'db-map db-map-ob' }),
  };
  return [
    h('div', { class: 'db-flat-figure', 'data-figure': 'main' }, h('h4', { text: s('flat.h') }), barsBox),
    v.flatAbout,
    h('p', { class: 'about lab-explain', text: s('explain.about') }),
    v.flatTable,
    v.flatLine,
    v.draws,
    h('h4', { text: s('same.h') }),
    v.sameAbout,
    h('div', { class: 'maps db-maps' }, v.figs.wa.wrap, v.figs.wb.wrap),
    v.sameLine,
    h('div', { class: 'maps db-maps' }, v.figs.oa.wrap, v.figs.ob.wrap),
  ];
}

// The size of the query whose row is near uniform.
function explainControls(c, v) {
  v.small = selectInput(
    c.s('small'),
    SMALL_CHOICES.map((x) => ({ value: x, label: `× ${x}` })),
    (x) => c.set({ dbSmall: Number(x) }),
  );
  return v.small.wrap;
}

function drawExplain(c, data, v) {
  const { s, state } = c;
  const tokens = state.dbTokens;
  const { flat, same } = data;
  const small = state.dbSmall;
  v.small.sync(small);
  const tok = tokens[flat.row];
  setText(v.flatAbout, s('flat.about', { tok, small }));
  const caption = s('flatCaption', { tok, small });
  v.bars.update({ values: flat.weights, labels: flat.keys, caption, highlight: flat.top, digits: 3 });
  v.flatTable.replaceChildren(
    scrollTable(caption, [s('col.query'), ...flat.keys], [[tok, ...flat.weights.map((x) => fmt(x, 3))]]),
  );
  const distinct = new Set(flat.draws.map((d) => d.top)).size;
  setText(
    v.flatLine,
    sentences(c.lang, [
      s('flat.line', {
        top: flat.keys[flat.top],
        w: fmt(flat.weights[flat.top], 3),
        e: fmt(flat.entropy, 3),
        max: fmt(flat.maxEntropy, 3),
      }),
      s('flat.draws', { k: distinct }),
      s('flat.mean', { out: vec(flat.output), mean: vec(flat.mean) }),
    ]),
  );
  v.draws.replaceChildren(
    scrollTable(
      s('drawsCaption', { n: flat.draws.length }),
      ['col.draw', 'col.top', 'col.w'].map((k) => s(k)),
      flat.draws.map((d, k) => [String(k + 1), flat.keys[d.top], fmt(d.weight, 3)]),
      [1],
    ),
  );

  const stok = tokens[same.row];
  setText(v.sameAbout, s('same.about', { tok: stok }));
  const blocked = same.a.mask;
  drawWeights(v.figs.wa, s('mapWeightsA'), same.a, tokens, blocked);
  drawWeights(v.figs.wb, s('mapWeightsB'), same.b, tokens, blocked);
  setText(
    v.sameLine,
    sentences(c.lang, [
      same.same ? s('same.yes', { tok: stok, top: tokens[same.top] }) : s('same.no'),
      s('same.out', { tok: stok, a: vec(rowOf(same.a.output, same.row)), b: vec(rowOf(same.b.output, same.row)) }),
    ]),
  );
  const cols = dims(same.a.output.cols).map((j) => s('dims', { j }));
  for (const [fig, key, r] of [
    [v.figs.oa, 'mapOutA', same.a],
    [v.figs.ob, 'mapOutB', same.b],
  ]) {
    const title = s(key);
    if (fig.title.textContent !== title) fig.title.textContent = title;
    fig.hm.update({ matrix: r.output, rowLabels: tokens, colLabels: cols, caption: title });
  }
}

// ---- the chapter ------------------------------------------------------------------------------------------

const STEPS = [
  {
    id: 'predict',
    title: { en: 'Predict', zh: '先猜一猜' },
    build: buildPredict,
    draw: drawPredict,
    compute: (c) => ({ zero: zeroFillAnswer(c.engine, labState(c.state)) }),
  },
  {
    id: 'checklist',
    title: { en: 'Bug checklist', zh: '错误清单' },
    build: buildChecklist,
    controls: checklistControls,
    draw: drawChecklist,
    compute: (c) => runLab(c.engine, labState(c.state)),
  },
  {
    id: 'monitors',
    title: { en: 'Monitors', zh: '监测量' },
    build: buildMonitors,
    controls: monitorControls,
    draw: drawMonitors,
    compute: (c) => runLab(c.engine, labState(c.state)),
  },
  {
    id: 'explanation',
    title: { en: 'Explanation?', zh: '权重≠解释' },
    build: buildExplain,
    controls: explainControls,
    draw: drawExplain,
    compute: (c) => ({
      flat: flatRow(c.engine, labState(c.state), c.state.dbSmall),
      same: sameWeights(c.engine, labState(c.state)),
    }),
  },
];

export default {
  ...meta,
  prefix: 'db',
  strings,
  steps: STEPS,
  controls: [
    { steps: ['checklist', 'monitors'], build: buildSizes, draw: drawSizes },
    { steps: ['predict'], build: buildTokens, draw: (c, data, v) => v.tokens.sync(c.state.dbTokens) },
  ],
  panel: { build: buildPanel },
};
