// Chapter 3: masks. Key padding, causal, a custom mask drawn by clicking cells, the fill value
// (−∞, −1e9, 0) and its leak, a reversed causal mask, a fully blocked row, and the two-token
// check. The mask set here is the shared one: the pipeline shows the same example with it.
// Every number comes from engine.attend; this file only decides what to flag and says why.

import { PRESETS, PRESET_IDS, presetPatch, paddingPatch, runExample, toGrid, rowOf } from '../../lesson/example.js';
import { fmt } from '../../text/format.js';
import { sentences, heatmapStrings } from '../../text/i18n.js';
import { h, rebuildOn } from '../../views/dom.js';
import { createHeatmap } from '../../views/heatmap.js';
import { dataTable } from '../../views/table.js';
import { at, leakedCells, futureCells, maxWeightOf, customGrid, customPatch } from './cells.js';
import strings from './strings.js';
import meta from './meta.js';
import { rowKind } from '../../lesson/rows.js';
import { createPredict } from '../kit/predict.js';
import { heatmapFigure, drawFigure, dims } from '../kit/figures.js';
import { FILL_SIGNS } from '../../engine/choices.js';

export default {
  ...meta,
  prefix: 'mk',
  strings,
  steps: [
    { id: 'padding', title: { en: 'Padding', zh: '填充掩码' }, build: buildPadding, draw: drawPadding },
    { id: 'causal', title: { en: 'Causal', zh: '因果掩码' }, build: buildCausal, draw: drawCausal },
    { id: 'custom', title: { en: 'Draw a mask', zh: '自己画掩码' }, build: buildCustom, draw: drawCustom },
    { id: 'blocked', title: { en: 'A blocked row', zh: '整行屏蔽' }, build: buildBlocked, draw: drawBlocked },
    { id: 'two-token', title: { en: 'Two-token check', zh: '两词自检' }, build: buildTwoToken, draw: drawTwoToken },
  ],
  // The shared example with the state's masks: { inputs, args, result } (example.js).
  compute: (c) => runExample(c.engine, c.state),
  panel: { build: buildPanel, draw: drawPanel },
  // Mask, masked scores and weights under every step; the cells the step flags are outlined.
  after: { build: (c, v) => (v.box = h('div', { class: 'maps' })), draw: drawMaps },
};

// ---- helpers ----------------------------------------------------------------------------------

// A vector as a row of cells; flagged (non-finite) cells marked.
function vectorRow(label, values, digits = 3) {
  return h(
    'div',
    { class: 'vec-row' },
    label ? h('span', { class: 'vec-label', text: label }) : null,
    h(
      'span',
      { class: 'vec' },
      ...Array.from(values, (v) =>
        h('span', { class: Number.isFinite(v) ? 'vec-cell' : 'vec-cell flagged', text: fmt(v, digits) }),
      ),
    ),
  );
}

// A message line under a step's controls (class mk-note, so tests and styles can find it).
function msg(cls = 'info') {
  return h('p', { class: `msg ${cls} mk-note`, 'aria-live': 'polite' });
}

function setMsg(el, cls, text) {
  el.className = `msg ${cls} mk-note`;
  el.textContent = text;
}

// ---- the example panel: preset, fill, stable -------------------------------------------------

function buildPanel(c, v) {
  const { s } = c;
  v.presetSel = h(
    'select',
    { id: 'mk-preset', onchange: (e) => c.set({ ...presetPatch(e.target.value), blockRow: 0 }) },
    ...PRESET_IDS.map((id) => h('option', { value: id, text: s(`preset.${id}`) })),
  );
  const fills = c.engine.choices.maskFill;
  v.fillRadios = fills.map((f) =>
    h('input', { type: 'radio', name: 'mk-fill', value: f, onchange: () => c.set({ fill: f }) }),
  );
  const fillGroup = h(
    'fieldset',
    { class: 'plain' },
    h('legend', { text: s('fill') }),
    h(
      'div',
      { class: 'radio-list row', role: 'radiogroup', 'aria-label': s('fill') },
      ...v.fillRadios.map((r, k) => h('label', { class: 'check' }, r, h('span', { text: s(`fill.${fills[k]}`) }))),
    ),
  );
  v.stable = h('input', { type: 'checkbox', onchange: (e) => c.set({ stable: e.target.checked }) });
  v.fillAbout = h('p', { class: 'hint mk-fill-about' });
  return h(
    'section',
    { class: 'panel', 'data-group': 'inputs', 'aria-labelledby': 'mk-panel-h' },
    h('h3', { class: 'panel-title', id: 'mk-panel-h', text: s('example') }),
    h(
      'div',
      { class: 'controls' },
      h('div', { class: 'field' }, h('label', { for: 'mk-preset', text: s('preset') }), v.presetSel),
      fillGroup,
      h('label', { class: 'check' }, v.stable, h('span', { text: s('stable') })),
    ),
    v.fillAbout,
  );
}

function drawPanel(c, run, v) {
  const st = c.state;
  v.presetSel.value = st.preset;
  v.fillRadios.forEach((r) => {
    r.checked = r.value === st.fill;
  });
  v.stable.checked = st.stable;
  v.fillAbout.textContent = c.s(`fillAbout.${st.fill}`);
}

// ---- the heatmaps under every step -----------------------------------------------------------

// The three maps, made on the first draw (v: the `after` part's view).
function mapsOf(c, v) {
  if (v.maps) return v.maps;
  const make = (name, opts) => {
    const title = h('h4', { class: 'map-title' });
    const wrap = h('div', { class: `map mk-map-${name}` }, title);
    return { wrap, title, hm: createHeatmap(wrap, { ...opts, strings: heatmapStrings(c.lang) }) };
  };
  v.maps = {
    mask: make('mask', {
      kind: 'sequential',
      digits: 0,
      levels: [
        [0, c.s('level0')],
        [1, c.s('level1')],
      ],
      onSelect: ({ row, col }) => toggleCell(c, row, col),
    }),
    masked: make('masked', { kind: 'diverging' }),
    weights: make('weights', { kind: 'sequential' }),
  };
  // Appended once: moving a heatmap in the DOM would take the keyboard focus away from it.
  v.maps.weights.wrap.classList.add('flagmap');
  v.maps.masked.wrap.classList.add('flagmap');
  v.box.append(v.maps.mask.wrap, v.maps.masked.wrap, v.maps.weights.wrap);
  return v.maps;
}

// Mask, masked scores and weights; flags = { cells: [[i, j]] } (the step's) are outlined.
function drawMaps(c, run, v, flags = {}) {
  const { s } = c;
  const stage = c.state.stage;
  const { result, inputs } = run;
  const qt = inputs.queryTokens,
    kt = inputs.keyTokens;
  // The two-token check has its own tiny example; the big maps would only distract there.
  v.box.hidden = stage === 'two-token';
  const { mask, masked, weights } = mapsOf(c, v);
  const cap = (t) => s('withAxes', { t, axes: s('rowsCols') });
  mask.title.textContent = stage === 'custom' ? s('mapMaskClick') : s('mapMask');
  mask.hm.update({ matrix: result.mask, rowLabels: qt, colLabels: kt, domain: [0, 1], caption: cap(s('mapMask')) });
  masked.title.textContent = s('mapMasked');
  masked.hm.update({ matrix: result.masked, rowLabels: qt, colLabels: kt, caption: cap(s('mapMasked')) });
  weights.title.textContent = s('mapWeights');
  weights.hm.update({
    matrix: result.weights,
    rowLabels: qt,
    colLabels: kt,
    domain: [0, 1],
    caption: cap(s('mapWeights')),
  });
  weights.hm.highlight({ cells: flags.cells || [] });
  masked.hm.highlight({ cells: flags.cells || [] });
}

// Clicking a mask cell: allowed -> blocked in the custom mask; blocked -> allowed.
function toggleCell(c, i, j) {
  if (i === null || j === null || !c.data) return;
  const { inputs, result } = c.data;
  const nq = inputs.queryTokens.length,
    nk = inputs.keyTokens.length;
  const grid = customGrid(c.state, nq, nk);
  grid[i][j] = at(result.mask, i, j) === 0 ? 1 : 0;
  c.set(customPatch(grid));
  // Still blocked (by padding or causal)? Say so next to the mask.
  if (grid[i][j] === 1 && at(c.data.result.mask, i, j) === 0) {
    setMsg(c.step('custom').note, 'info', c.s('alsoBlocked', { q: inputs.queryTokens[i], k: inputs.keyTokens[j] }));
  }
}

// ---- 1. padding ------------------------------------------------------------------------------

function buildPadding(c, v) {
  const { s } = c;
  const pads = h('div', { class: 'pad-toggles', role: 'group', 'aria-label': s('padKeys') });
  const note = msg();
  const nodes = [
    h('p', { class: 'explain', text: s('p.padding') }),
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('span', { class: 'field-label', text: s('padKeys') }),
      pads,
    ),
    note,
  ];
  Object.assign(v, { note, pads });
  return nodes;
}

function drawPadding(c, run, v) {
  const { s } = c;
  const { note, pads } = v;
  const st = c.state;
  const kt = run.inputs.keyTokens;
  rebuildOn(pads, kt.join('\u0001'), () =>
    kt.map((tok, j) =>
      h('button', {
        type: 'button',
        class: 'btn toggle pad-key',
        'aria-pressed': 'false',
        'aria-label': s('padOf', { tok }),
        'data-key': String(j),
        text: tok,
        onclick: () => c.set(paddingPatch(c.state, kt.length, j, c.state.keyPadding[j] !== true)),
      }),
    ),
  );
  [...pads.children].forEach((b, j) => b.setAttribute('aria-pressed', String(st.keyPadding[j] === true)));
  const anyPad = kt.some((_, j) => st.keyPadding[j] === true);
  const leaks = leakedCells(run.result);
  if (leaks.length) setMsg(note, 'bad', s('leak', { n: leaks.length, max: fmt(maxWeightOf(run.result, leaks), 3) }));
  else if (anyPad) setMsg(note, 'good', s('noLeak'));
  else setMsg(note, 'info', s('padNone'));
  return { cells: leaks };
}

// ---- 2. causal and reversed causal --------------------------------------------------------------

function buildCausal(c, v) {
  const { s } = c;
  const causal = h('input', { type: 'checkbox', onchange: (e) => c.set({ causal: e.target.checked }) });
  const reverse = h('input', { type: 'checkbox', onchange: (e) => c.set({ reverseCausal: e.target.checked }) });
  const crossText = h('span');
  const toSelf = h('button', {
    type: 'button',
    class: 'btn',
    text: s('toSelf'),
    onclick: () => c.set({ ...presetPatch('cat-chase'), causal: true }),
  });
  const crossHint = h('div', { class: 'msg info mk-cross-hint' }, crossText, ' ', toSelf);
  const note = msg();
  const nodes = [
    h('p', { class: 'explain', text: s('p.causal') }),
    h('p', { class: 'explain', text: s('p.reverse') }),
    h(
      'div',
      { class: 'radio-list', 'data-group': 'inputs' },
      h('label', { class: 'check' }, causal, h('span', { text: s('causal') })),
      h('label', { class: 'check' }, reverse, h('span', { text: s('reverse') })),
    ),
    crossHint,
    note,
  ];
  Object.assign(v, { causal, crossHint, crossText, note, reverse });
  return nodes;
}

function drawCausal(c, run, v) {
  const { s } = c;
  const { causal, crossHint, crossText, note, reverse } = v;
  const st = c.state;
  causal.checked = st.causal;
  reverse.checked = st.reverseCausal;
  crossHint.hidden = PRESETS[st.preset].kind !== 'cross';
  crossText.textContent = s('crossHint');
  const future = futureCells(run.result);
  const on = st.causal || st.reverseCausal;
  if (!on) setMsg(note, 'info', s('noCausal'));
  // Both at once block everything off the diagonal: each query sees only itself.
  else if (st.causal && st.reverseCausal) setMsg(note, 'bad', s('bothCausal'));
  else if (future.length)
    setMsg(
      note,
      'bad',
      sentences(c.lang, [s('futureLeak', { n: future.length }), st.reverseCausal ? '' : s('fillLeak')]),
    );
  else setMsg(note, 'good', s('upperZero'));
  return { cells: on ? future : [] };
}

// ---- 3. custom mask ------------------------------------------------------------------------------

function buildCustom(c, v) {
  const { s } = c;
  const note = msg();
  const leakNote = msg();
  const clear = h('button', {
    type: 'button',
    class: 'btn',
    text: s('clearCustom'),
    onclick: () => c.set({ customMask: [] }),
  });
  const nodes = [
    h('p', { class: 'explain', text: s('p.custom') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, clear),
    note,
    leakNote,
  ];
  Object.assign(v, { clear, leakNote, note });
  return nodes;
}

function drawCustom(c, run, v) {
  const { s } = c;
  const { clear, leakNote, note } = v;
  clear.disabled = c.state.customMask.length === 0;
  setMsg(note, 'info', ''); // a click may set it again right after this draw
  const leaks = leakedCells(run.result);
  if (leaks.length)
    setMsg(leakNote, 'bad', s('leak', { n: leaks.length, max: fmt(maxWeightOf(run.result, leaks), 3) }));
  else setMsg(leakNote, 'info', '');
  return { cells: leaks };
}

// ---- 4. a fully blocked row ------------------------------------------------------------------------

function buildBlocked(c, v) {
  const { s } = c;
  const rowSel = h('select', { id: 'mk-block-row', onchange: (e) => c.set({ blockRow: Number(e.target.value) }) });
  const block = h('button', {
    type: 'button',
    class: 'btn primary',
    text: s('blockIt'),
    onclick: () => setRow(c, 0),
  });
  const unblock = h('button', { type: 'button', class: 'btn', text: s('unblockIt'), onclick: () => setRow(c, 1) });
  const note = msg();
  const table = h('div', { class: 'compare-scroll' });
  const nodes = [
    h('p', { class: 'explain', text: s('p.blocked') }),
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('div', { class: 'field' }, h('label', { for: 'mk-block-row', text: s('blockRow') }), rowSel),
      block,
      unblock,
    ),
    note,
    table,
  ];

  function setRow(c, value) {
    const { inputs } = c.data;
    const nq = inputs.queryTokens.length,
      nk = inputs.keyTokens.length;
    const i = Math.min(c.state.blockRow, nq - 1);
    const grid = customGrid(c.state, nq, nk);
    grid[i] = Array(nk).fill(value);
    c.set(customPatch(grid));
  }
  Object.assign(v, { note, rowSel, table });
  return nodes;
}

function drawBlocked(c, run, v) {
  const { s } = c;
  const { note, rowSel, table } = v;
  const st = c.state;
  const qt = run.inputs.queryTokens;
  rebuildOn(rowSel, qt.join('\u0001'), () => qt.map((q, i) => h('option', { value: String(i), text: q })));
  const chosen = Math.min(st.blockRow, qt.length - 1);
  rowSel.value = String(chosen);
  const full = run.result.fullyMaskedRows;
  if (!full.length) {
    setMsg(note, 'info', s('notBlocked'));
    table.replaceChildren();
    return { cells: [] };
  }
  setMsg(note, 'info', '');
  const i = full.includes(chosen) ? chosen : full[0];
  // The same example three times, changing only the fill and the softmax.
  const cases = [
    { id: 'neg-inf', maskFill: 'neg-inf', stable: true },
    { id: 'large-negative', maskFill: 'large-negative', stable: true },
    { id: 'naive', maskFill: 'neg-inf', stable: false },
  ];
  const head = ['colCase', 'colWeights', 'colOutput', 'colRows', 'colVerdict'].map((k) => s(k, { q: qt[i] }));
  const rows = cases.map((one) => {
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

function buildTwoToken(c, v) {
  const { s } = c;
  const radios = [0, 1].map((k) =>
    h('input', { type: 'radio', name: 'mk-two', value: String(k), onchange: () => c.set({ twoMasked: k }) }),
  );
  const labels = radios.map((r) => h('span'));
  const pick = h(
    'div',
    { class: 'radio-list row', role: 'radiogroup', 'aria-label': s('twoMask') },
    ...radios.map((r, k) => h('label', { class: 'check' }, r, labels[k])),
  );
  const vectors = h('div', { class: 'mk-two-vectors' });
  const verdict = msg();
  // What the question is about, before it is answered: the two Values and which one is masked
  // (the output, which answers it, waits in the reveal).
  const values = heatmapFigure(c, { kind: 'diverging', digits: 3, className: 'mk-two-values' });
  values.wrap.dataset.figure = 'main';
  // The engine's output stays hidden until the learner has said what the fill will do.
  const reveal = h('div', { class: 'mk-two-reveal' }, vectors, verdict);
  const predict = createPredict(c, {
    id: 'masks/two-token',
    question: '',
    reveal,
    options: [
      { value: 'pass', label: s('twoPredict.pass') },
      { value: 'fail', label: s('twoPredict.fail') },
    ],
  });
  const nodes = [
    h('p', { class: 'explain', text: s('p.two-token') }),
    values.wrap,
    h('fieldset', { class: 'plain', 'data-group': 'inputs' }, h('legend', { text: s('twoMask') }), pick),
    predict.el,
    reveal,
    h('p', { class: 'hint', text: s('twoCheckNote') }),
  ];
  Object.assign(v, { labels, predict, radios, values, vectors, verdict });
  return nodes;
}

function drawTwoToken(c, run, v) {
  const { s } = c;
  const { labels, predict, radios, values, vectors, verdict } = v;
  const { engine } = c;
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
  const r = engine.attend({
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
