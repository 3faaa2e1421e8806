// Steps 4 and 5: a query row with every key blocked (three fills and softmaxes side by side), and
// the two-token check (one key masked: the output must be the other key's Value exactly).

import { toGrid, rowOf } from '../../lesson/example.js';
import { rowKind } from '../../lesson/rows.js';
import { fmt } from '../../text/format.js';
import { button, h, rebuildOn } from '../../views/dom.js';
import { radioFieldset } from '../../views/controls.js';
import { dataTable } from '../../views/table.js';
import { FILL_SIGNS } from '../../engine/choices.js';
import { createPredict } from '../kit/predict.js';
import { heatmapFigure, drawFigure, dims } from '../kit/figures.js';
import { customGrid, customPatch } from './logic.js';
import { msg, setMsg, vectorRow } from './maps.js';

// ---- 4. a fully blocked row --------------------------------------------------------------------------

export function buildBlocked(c, v) {
  const { s } = c;
  v.rowSel = h('select', { id: 'mk-block-row', onchange: (e) => c.set({ blockRow: Number(e.target.value) }) });
  v.note = msg();
  v.table = h('div', { class: 'compare-scroll' });
  return [h('p', { class: 'explain', text: s('p.blocked') }), v.note, v.table];
}

// Blocks (0) or allows (1) every key of the chosen query row.
function setRow(c, value) {
  const { inputs } = c.data;
  const nq = inputs.queryTokens.length,
    nk = inputs.keyTokens.length;
  const i = Math.min(c.state.blockRow, nq - 1);
  const grid = customGrid(c.state, nq, nk);
  grid[i] = Array(nk).fill(value);
  c.set(customPatch(grid));
}

export const blockedControls = (c, v) =>
  h(
    'div',
    { class: 'controls' },
    h('div', { class: 'field' }, h('label', { for: 'mk-block-row', text: c.s('blockRow') }), v.rowSel),
    button('btn primary', c.s('blockIt'), () => setRow(c, 0)),
    button('btn', c.s('unblockIt'), () => setRow(c, 1)),
  );

// The same example three times, changing only the fill and the softmax.
const CASES = [
  { id: 'neg-inf', maskFill: 'neg-inf', stable: true },
  { id: 'large-negative', maskFill: 'large-negative', stable: true },
  { id: 'naive', maskFill: 'neg-inf', stable: false },
];

export function drawBlocked(c, run, v) {
  const { s } = c;
  const { note, rowSel, table } = v;
  const qt = run.inputs.queryTokens;
  rebuildOn(rowSel, qt.join('\u0001'), () => qt.map((q, i) => h('option', { value: String(i), text: q })));
  const chosen = Math.min(c.state.blockRow, qt.length - 1);
  rowSel.value = String(chosen);
  const full = run.result.fullyMaskedRows;
  if (!full.length) {
    setMsg(note, 'info', s('notBlocked'));
    table.replaceChildren();
    return { cells: [] };
  }
  setMsg(note, 'info', '');
  const i = full.includes(chosen) ? chosen : full[0];
  const head = ['colCase', 'colWeights', 'colOutput', 'colRows', 'colVerdict'].map((k) => s(k, { q: qt[i] }));
  const rows = CASES.map((one) => {
    const r = c.engine.attend({ ...run.args, maskFill: one.maskFill, stable: one.stable });
    const w = rowOf(r.weights, i),
      o = rowOf(r.output, i);
    // data-label: the column name, shown before each cell when the table is stacked on a phone.
    return {
      attrs: { 'data-case': one.id },
      cells: [
        s(`case.${one.id}`),
        { attrs: { 'data-label': head[1] }, node: vectorRow('', w, 3) },
        { attrs: { 'data-label': head[2] }, node: vectorRow('', o, 3) },
        {
          attrs: { 'data-label': head[3] },
          text: r.fullyMaskedRows.length
            ? r.fullyMaskedRows.map((k) => s('rowRef', { k, q: qt[k] })).join(s('listSep'))
            : s('rowsNone'),
        },
        { attrs: { 'data-label': head[4] }, text: s(`verdict.${rowKind(w)}`) },
      ],
    };
  });
  table.replaceChildren(dataTable({ className: 'compare', head, rows }));
  return { cells: [] };
}

// ---- 5. the two-token check -------------------------------------------------------------------------

export function buildTwoToken(c, v) {
  const { s } = c;
  v.radios = [0, 1].map((k) =>
    h('input', { type: 'radio', name: 'mk-two', value: String(k), onchange: () => c.set({ twoMasked: k }) }),
  );
  v.labels = v.radios.map(() => h('span'));
  v.vectors = h('div', { class: 'mk-two-vectors' });
  v.verdict = msg();
  // What the question is about, before it is answered: the two Values and which one is masked
  // (the output, which answers it, waits in the reveal).
  v.values = heatmapFigure(c, { kind: 'diverging', digits: 3, className: 'mk-two-values' });
  v.values.wrap.dataset.figure = 'main';
  // The engine's output stays hidden until the learner has said what the fill will do.
  const reveal = h('div', { class: 'mk-two-reveal' }, v.vectors, v.verdict);
  v.predict = createPredict(c, {
    id: 'masks/two-token',
    question: '',
    reveal,
    options: [
      { value: 'pass', label: s('twoPredict.pass') },
      { value: 'fail', label: s('twoPredict.fail') },
    ],
  });
  return [
    h('p', { class: 'explain', text: s('p.two-token') }),
    v.values.wrap,
    v.predict.el,
    reveal,
    h('p', { class: 'hint', text: s('twoCheckNote') }),
  ];
}

export const twoTokenControls = (c, v) => radioFieldset(c.s('twoMask'), v.radios, v.labels, 'radio-list row');

export function drawTwoToken(c, run, v) {
  const { s } = c;
  const { labels, predict, radios, values, vectors, verdict } = v;
  const st = c.state;
  const { inputs } = run;
  const kt = inputs.keyTokens,
    qt = inputs.queryTokens;
  if (kt.length < 2) {
    values.wrap.hidden = true;
    vectors.replaceChildren();
    setMsg(verdict, 'info', s('twoTooFew'));
    return { cells: [] };
  }
  labels.forEach((l, k) => {
    l.textContent = kt[k];
  });
  radios.forEach((r, k) => {
    r.checked = k === st.twoMasked;
  });
  const m = st.twoMasked,
    other = 1 - m;
  // One query, two keys, two values, one of them masked as padding.
  const take = (mat, n) => ({ rows: n, cols: mat.cols, data: mat.data.slice(0, n * mat.cols) });
  const r = c.engine.attend({
    query: take(inputs.query, 1),
    key: take(inputs.key, 2),
    value: take(inputs.value, 2),
    score: inputs.score,
    keyPadding: [m === 0, m === 1],
    maskFill: st.fill,
    stable: st.stable,
    temperature: st.temperature,
  });
  const out = rowOf(r.output, 0);
  const val = toGrid(inputs.value)[other];
  values.wrap.hidden = false;
  const two = take(inputs.value, 2);
  drawFigure(values, {
    title: s('twoValues', { k0: kt[0], k1: kt[1], masked: kt[m] }),
    matrix: two,
    rowLabels: [kt[0], kt[1]],
    colLabels: dims(two.cols),
    domain: [-1, 1].map((x) => x * (Math.max(...Array.from(two.data, Math.abs)) || 1)),
  });
  let d = 0;
  for (let k = 0; k < out.length; k++) d = Math.max(d, Math.abs(out[k] - val[k]));
  vectors.replaceChildren(
    vectorRow(s('twoWeights', { q: qt[0], k0: kt[0], k1: kt[1] }), rowOf(r.weights, 0), 4),
    vectorRow(s('twoOutput'), out, 4),
    vectorRow(s('twoValue', { tok: kt[other] }), val, 4),
    vectorRow(s('twoDiff'), [d], 6),
  );
  if (out.some(Number.isNaN)) setMsg(verdict, 'bad', s('twoNan'));
  else if (d <= 1e-6) setMsg(verdict, 'good', s('twoPass', { tok: kt[other] }));
  else setMsg(verdict, 'bad', s('twoFail', { tok: kt[other], d: fmt(d, 4) }));
  verdict.dataset.result = out.some(Number.isNaN) || d > 1e-6 ? 'fail' : 'pass';
  const params = { tok: kt[other], masked: kt[m], fill: FILL_SIGNS[st.fill].text, d: fmt(d, 4) };
  predict.ask(s('twoPredict.q', params));
  predict.draw(verdict.dataset.result, {
    right: s(`twoPredict.${verdict.dataset.result}.why`, params),
    wrong: s(`twoPredict.${verdict.dataset.result}.why`, params),
  });
  return { cells: [] };
}
