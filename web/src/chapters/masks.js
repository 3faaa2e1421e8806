// Chapter 3: masks. Key padding, causal, a custom mask drawn by clicking cells, the fill value
// (−∞, −1e9, 0) and its leak, a reversed causal mask, a fully blocked row, and the two-token
// check. The mask set here is the shared one: the pipeline shows the same example with it.
// Every number comes from engine.attend; this file only decides what to flag and says why.

import { PRESETS, PRESET_IDS, MAX_TOKENS, presetPatch, paddingPatch, runExample, toGrid, rowOf } from '../example.js';
import { fmt } from '../format.js';
import { h, rebuildOn } from '../views/dom.js';
import { createStepper, stepSection } from '../views/stepper.js';
import strings from './masks.strings.js';
import { rowKind } from './pipeline.text.js';

const STEPS = [
  { id: 'padding', title: { en: 'Padding', zh: '填充掩码' } },
  { id: 'causal', title: { en: 'Causal', zh: '因果掩码' } },
  { id: 'custom', title: { en: 'Draw a mask', zh: '自己画掩码' } },
  { id: 'blocked', title: { en: 'A blocked row', zh: '整行屏蔽' } },
  { id: 'two-token', title: { en: 'Two-token check', zh: '两词自检' } },
];

const FILLS = ['neg-inf', 'large-negative', 'zero'];


let ui = null; // DOM handles of the chapter on screen

export default {
  id: 'masks',
  title: { en: 'Masks', zh: '掩码' },
  strings,
  steps: STEPS,
  state: {
    blockRow: { type: 'int', default: 0, min: 0, max: MAX_TOKENS - 1 }, // query row for step 4
    twoMasked: { type: 'int', default: 1, min: 0, max: 1 },             // two-token check: which key is masked
  },

  enter(root, ctx) {
    const { s, lang } = ctx;
    ui = { last: null, maps: {} };
    root.append(h('h2', { text: this.title[lang] }), h('p', { class: 'lead', text: s('intro') }));
    buildPanel(root, ctx);
    ui.stepper = createStepper(ctx, STEPS);
    root.append(ui.stepper.el);
    ui.sections = {
      padding: buildPadding(ctx),
      causal: buildCausal(ctx),
      custom: buildCustom(ctx),
      blocked: buildBlocked(ctx),
      'two-token': buildTwoToken(ctx),
    };
    for (const sec of Object.values(ui.sections)) root.append(sec.el);
    ui.mapsBox = h('div', { class: 'maps' });
    root.append(ui.mapsBox);
  },

  update(ctx) {
    const stage = ctx.state.stage;
    ui.stepper.sync(stage);
    syncPanel(ctx);
    for (const [id, sec] of Object.entries(ui.sections)) sec.el.hidden = id !== stage;
    let run;
    try {
      run = runExample(ctx.engine, ctx.state);
    } catch (e) {
      // Keep the last valid picture; say what the engine refused.
      ui.error.textContent = ctx.s('errEngine', { msg: e.message });
      return;
    }
    ui.error.textContent = '';
    ui.last = run;
    const flags = ui.sections[stage].draw(ctx, run) || {};
    // The two-token check has its own tiny example; the big maps would only distract there.
    ui.mapsBox.hidden = stage === 'two-token';
    drawMaps(ctx, run, stage, flags);
  },

  leave() {
    ui = null;
  },
};

// ---- helpers ----------------------------------------------------------------------------------

const at = (m, i, j) => m.data[i * m.cols + j];

// Cells the mask blocks but that still get weight (> 0 or NaN): the 0-fill leak.
function leakedCells(result) {
  const { mask, weights } = result;
  const cells = [];
  for (let i = 0; i < mask.rows; i++) {
    for (let j = 0; j < mask.cols; j++) {
      const w = at(weights, i, j);
      if (at(mask, i, j) === 0 && (w > 0 || Number.isNaN(w))) cells.push([i, j]);
    }
  }
  return cells;
}

// Cells above the diagonal (key after query) that get weight: the future leak.
function futureCells(result) {
  const { weights } = result;
  const cells = [];
  for (let i = 0; i < weights.rows; i++) {
    for (let j = i + 1; j < weights.cols; j++) {
      const w = at(weights, i, j);
      if (w > 0 || Number.isNaN(w)) cells.push([i, j]);
    }
  }
  return cells;
}

function maxWeightOf(result, cells) {
  let m = 0;
  for (const [i, j] of cells) m = Math.max(m, at(result.weights, i, j));
  return m;
}

// A vector as a row of cells; flagged (non-finite) cells marked.
function vectorRow(label, values, digits = 3) {
  return h('div', { class: 'vec-row' }, label ? h('span', { class: 'vec-label', text: label }) : null,
    h('span', { class: 'vec' }, ...Array.from(values, (v) => h('span', { class: Number.isFinite(v) ? 'vec-cell' : 'vec-cell flagged', text: fmt(v, digits) }))));
}

// A step's section, headed by its h.<id> string.
const section = (id, ctx, ...children) => stepSection('mk', id, ctx.s(`h.${id}`), ...children);

// A message line under a step's controls (class mk-note, so tests and styles can find it).
function msg(cls = 'info') {
  return h('p', { class: `msg ${cls} mk-note`, 'aria-live': 'polite' });
}

function setMsg(el, cls, text) {
  el.className = `msg ${cls} mk-note`;
  el.textContent = text;
}

// The custom mask grid for (nq, nk): the state's, else all ones.
function customGrid(state, nq, nk) {
  const c = state.customMask;
  if (c.length === nq && c.every((r) => r.length === nk)) return c.map((r) => r.slice());
  return Array.from({ length: nq }, () => Array(nk).fill(1));
}

// All ones -> [] so the link stays short and "no custom mask" stays the default.
function customPatch(grid) {
  return { customMask: grid.every((r) => r.every((x) => x !== 0)) ? [] : grid };
}

// ---- the example panel: preset, fill, stable -------------------------------------------------

function buildPanel(root, ctx) {
  const { s } = ctx;
  const presetSel = h('select', { id: 'mk-preset', onchange: (e) => ctx.set({ ...presetPatch(e.target.value), blockRow: 0 }) },
    ...PRESET_IDS.map((id) => h('option', { value: id, text: s(`preset.${id}`) })));
  const fillRadios = FILLS.map((f) => h('input', { type: 'radio', name: 'mk-fill', value: f, onchange: () => ctx.set({ fill: f }) }));
  const fillGroup = h('fieldset', { class: 'plain' }, h('legend', { text: s('fill') }),
    h('div', { class: 'radio-list row', role: 'radiogroup', 'aria-label': s('fill') },
      ...fillRadios.map((r, k) => h('label', { class: 'check' }, r, h('span', { text: s(`fill.${FILLS[k]}`) })))));
  const stable = h('input', { type: 'checkbox', onchange: (e) => ctx.set({ stable: e.target.checked }) });
  ui.fillAbout = h('p', { class: 'hint mk-fill-about' });
  ui.error = h('div', { class: 'field-error', role: 'alert' });
  const panel = h('section', { class: 'panel', 'data-group': 'inputs', 'aria-labelledby': 'mk-panel-h' },
    h('h3', { class: 'panel-title', id: 'mk-panel-h', text: s('example') }),
    h('div', { class: 'controls' },
      h('div', { class: 'field' }, h('label', { for: 'mk-preset', text: s('preset') }), presetSel),
      fillGroup,
      h('label', { class: 'check' }, stable, h('span', { text: s('stable') }))),
    ui.fillAbout, ui.error);
  root.append(panel);
  Object.assign(ui, { presetSel, fillRadios, stable });
}

function syncPanel(ctx) {
  const st = ctx.state;
  ui.presetSel.value = st.preset;
  ui.fillRadios.forEach((r) => { r.checked = r.value === st.fill; });
  ui.stable.checked = st.stable;
  ui.fillAbout.textContent = ctx.s(`fillAbout.${st.fill}`);
}

// ---- the heatmaps under every step -----------------------------------------------------------

function heatmap(ctx, name, opts) {
  if (!ui.maps[name]) {
    const title = h('h4', { class: 'map-title' });
    const wrap = h('div', { class: `map mk-map-${name}` }, title);
    const hm = ctx.views.createHeatmap(wrap, { ...opts, strings: { showTable: ctx.t('showTable'), showHeatmap: ctx.t('showHeatmap') } });
    ui.maps[name] = { wrap, title, hm };
  }
  return ui.maps[name];
}

// Mask, masked scores and weights; flags = { cells: [[i, j]] } are outlined on the weights.
function drawMaps(ctx, run, stage, flags) {
  const { s } = ctx;
  const { result, inputs } = run;
  const qt = inputs.queryTokens, kt = inputs.keyTokens;
  const mask = heatmap(ctx, 'mask', { kind: 'sequential', digits: 0, onSelect: ({ row, col }) => toggleCell(ctx, row, col) });
  const masked = heatmap(ctx, 'masked', { kind: 'diverging' });
  const weights = heatmap(ctx, 'weights', { kind: 'sequential' });
  if (!weights.wrap.parentNode) {
    // Appended once: moving a heatmap in the DOM would take the keyboard focus away from it.
    weights.wrap.classList.add('flagmap');
    masked.wrap.classList.add('flagmap');
    ui.mapsBox.append(mask.wrap, masked.wrap, weights.wrap);
  }
  const cap = (t) => s('withAxes', { t, axes: s('rowsCols') });
  mask.title.textContent = stage === 'custom' ? s('mapMaskClick') : s('mapMask');
  mask.hm.update({ matrix: result.mask, rowLabels: qt, colLabels: kt, domain: [0, 1], caption: cap(s('mapMask')) });
  masked.title.textContent = s('mapMasked');
  masked.hm.update({ matrix: result.masked, rowLabels: qt, colLabels: kt, caption: cap(s('mapMasked')) });
  weights.title.textContent = s('mapWeights');
  weights.hm.update({ matrix: result.weights, rowLabels: qt, colLabels: kt, domain: [0, 1], caption: cap(s('mapWeights')) });
  weights.hm.highlight({ cells: flags.cells || [] });
  masked.hm.highlight({ cells: flags.cells || [] });
}

// Clicking a mask cell: allowed -> blocked in the custom mask; blocked -> allowed.
function toggleCell(ctx, i, j) {
  if (i === null || j === null || !ui.last) return;
  const { inputs, result } = ui.last;
  const nq = inputs.queryTokens.length, nk = inputs.keyTokens.length;
  const grid = customGrid(ctx.state, nq, nk);
  grid[i][j] = at(result.mask, i, j) === 0 ? 1 : 0;
  ctx.set(customPatch(grid));
  // Still blocked (by padding or causal)? Say so next to the mask.
  if (ui.last && grid[i][j] === 1 && at(ui.last.result.mask, i, j) === 0) {
    setMsg(ui.sections.custom.note, 'info', ctx.s('alsoBlocked', { q: inputs.queryTokens[i], k: inputs.keyTokens[j] }));
  }
}

// ---- 1. padding ------------------------------------------------------------------------------

function buildPadding(ctx) {
  const { s } = ctx;
  const pads = h('div', { class: 'pad-toggles', role: 'group', 'aria-label': s('padKeys') });
  const note = msg();
  const el = section('padding', ctx, h('p', { class: 'explain', text: s('p.padding') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, h('span', { class: 'field-label', text: s('padKeys') }), pads), note);

  function draw(ctx, run) {
    const st = ctx.state;
    const kt = run.inputs.keyTokens;
    rebuildOn(pads, kt.join('\u0001'), () => kt.map((tok, j) => h('button', {
      type: 'button', class: 'btn toggle pad-key', 'aria-pressed': 'false', 'aria-label': s('padOf', { tok }), 'data-key': String(j), text: tok,
      onclick: () => ctx.set(paddingPatch(ctx.state, kt.length, j, ctx.state.keyPadding[j] !== true)),
    })));
    [...pads.children].forEach((b, j) => b.setAttribute('aria-pressed', String(st.keyPadding[j] === true)));
    const anyPad = kt.some((_, j) => st.keyPadding[j] === true);
    const leaks = leakedCells(run.result);
    if (leaks.length) setMsg(note, 'bad', s('leak', { n: leaks.length, max: ctx.views.fmt(maxWeightOf(run.result, leaks), 3) }));
    else if (anyPad) setMsg(note, 'good', s('noLeak'));
    else setMsg(note, 'info', s('padNone'));
    return { cells: leaks };
  }
  return { el, draw };
}

// ---- 2. causal and reversed causal --------------------------------------------------------------

function buildCausal(ctx) {
  const { s } = ctx;
  const causal = h('input', { type: 'checkbox', onchange: (e) => ctx.set({ causal: e.target.checked }) });
  const reverse = h('input', { type: 'checkbox', onchange: (e) => ctx.set({ reverseCausal: e.target.checked }) });
  const crossText = h('span');
  const toSelf = h('button', { type: 'button', class: 'btn', text: s('toSelf'), onclick: () => ctx.set({ ...presetPatch('cat-chase'), causal: true }) });
  const crossHint = h('div', { class: 'msg info mk-cross-hint' }, crossText, ' ', toSelf);
  const note = msg();
  const el = section('causal', ctx, h('p', { class: 'explain', text: s('p.causal') }), h('p', { class: 'explain', text: s('p.reverse') }),
    h('div', { class: 'radio-list', 'data-group': 'inputs' },
      h('label', { class: 'check' }, causal, h('span', { text: s('causal') })),
      h('label', { class: 'check' }, reverse, h('span', { text: s('reverse') }))),
    crossHint, note);

  function draw(ctx, run) {
    const st = ctx.state;
    causal.checked = st.causal;
    reverse.checked = st.reverseCausal;
    crossHint.hidden = PRESETS[st.preset].kind !== 'cross';
    crossText.textContent = s('crossHint');
    const future = futureCells(run.result);
    const on = st.causal || st.reverseCausal;
    const join = ctx.lang === 'zh' ? '' : ' ';
    if (!on) setMsg(note, 'info', s('noCausal'));
    else if (future.length) setMsg(note, 'bad', s('futureLeak', { n: future.length }) + (st.reverseCausal ? '' : join + s('fillLeak')));
    else setMsg(note, 'good', s('upperZero'));
    return { cells: on ? future : [] };
  }
  return { el, draw };
}

// ---- 3. custom mask ------------------------------------------------------------------------------

function buildCustom(ctx) {
  const { s } = ctx;
  const note = msg();
  const leakNote = msg();
  const clear = h('button', { type: 'button', class: 'btn', text: s('clearCustom'), onclick: () => ctx.set({ customMask: [] }) });
  const el = section('custom', ctx, h('p', { class: 'explain', text: s('p.custom') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, clear), note, leakNote);
  function draw(ctx, run) {
    clear.disabled = ctx.state.customMask.length === 0;
    setMsg(note, 'info', ''); // a click may set it again right after this draw
    const leaks = leakedCells(run.result);
    if (leaks.length) setMsg(leakNote, 'bad', s('leak', { n: leaks.length, max: ctx.views.fmt(maxWeightOf(run.result, leaks), 3) }));
    else setMsg(leakNote, 'info', '');
    return { cells: leaks };
  }
  return { el, draw, note };
}

// ---- 4. a fully blocked row ------------------------------------------------------------------------

function buildBlocked(ctx) {
  const { s } = ctx;
  const rowSel = h('select', { id: 'mk-block-row', onchange: (e) => ctx.set({ blockRow: Number(e.target.value) }) });
  const block = h('button', { type: 'button', class: 'btn primary', text: s('blockIt'), onclick: () => setRow(ctx, 0) });
  const unblock = h('button', { type: 'button', class: 'btn', text: s('unblockIt'), onclick: () => setRow(ctx, 1) });
  const note = msg();
  const table = h('div', { class: 'compare-scroll' });
  const el = section('blocked', ctx, h('p', { class: 'explain', text: s('p.blocked') }),
    h('div', { class: 'controls', 'data-group': 'inputs' },
      h('div', { class: 'field' }, h('label', { for: 'mk-block-row', text: s('blockRow') }), rowSel), block, unblock),
    note, table);

  function setRow(ctx, value) {
    const { inputs } = ui.last;
    const nq = inputs.queryTokens.length, nk = inputs.keyTokens.length;
    const i = Math.min(ctx.state.blockRow, nq - 1);
    const grid = customGrid(ctx.state, nq, nk);
    grid[i] = Array(nk).fill(value);
    ctx.set(customPatch(grid));
  }

  function draw(ctx, run) {
    const st = ctx.state;
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
    const rows = cases.map((c) => {
      const r = ctx.engine.attend({ ...run.args, maskFill: c.maskFill, stable: c.stable });
      const w = rowOf(r.weights, i), o = rowOf(r.output, i);
      // data-label: the column name, shown before each cell when the table is stacked on a phone.
      return h('tr', { 'data-case': c.id },
        h('th', { scope: 'row', text: s(`case.${c.id}`) }),
        h('td', { 'data-label': head[1] }, vectorRow('', w, 3)),
        h('td', { 'data-label': head[2] }, vectorRow('', o, 3)),
        h('td', { 'data-label': head[3], text: r.fullyMaskedRows.length ? r.fullyMaskedRows.map((k) => s('rowRef', { k, q: qt[k] })).join(s('listSep')) : s('rowsNone') }),
        h('td', { 'data-label': head[4], text: s(`verdict.${rowKind(w)}`) }));
    });
    table.replaceChildren(h('table', { class: 'compare' },
      h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, ...rows)));
    return { cells: [] };
  }
  return { el, draw };
}


// ---- 5. the two-token check -------------------------------------------------------------------------

function buildTwoToken(ctx) {
  const { s } = ctx;
  const radios = [0, 1].map((k) => h('input', { type: 'radio', name: 'mk-two', value: String(k), onchange: () => ctx.set({ twoMasked: k }) }));
  const labels = radios.map((r) => h('span'));
  const pick = h('div', { class: 'radio-list row', role: 'radiogroup', 'aria-label': s('twoMask') },
    ...radios.map((r, k) => h('label', { class: 'check' }, r, labels[k])));
  const vectors = h('div', { class: 'mk-two-vectors' });
  const verdict = msg();
  const el = section('two-token', ctx, h('p', { class: 'explain', text: s('p.two-token') }),
    h('fieldset', { class: 'plain', 'data-group': 'inputs' }, h('legend', { text: s('twoMask') }), pick),
    vectors, verdict, h('p', { class: 'hint', text: s('twoCheckNote') }));

  function draw(ctx, run) {
    const { views, engine } = ctx;
    const st = ctx.state;
    const { inputs } = run;
    const kt = inputs.keyTokens, qt = inputs.queryTokens;
    if (kt.length < 2) {
      vectors.replaceChildren();
      setMsg(verdict, 'info', s('twoTooFew'));
      return { cells: [] };
    }
    labels.forEach((l, k) => { l.textContent = kt[k]; });
    radios.forEach((r, k) => { r.checked = k === st.twoMasked; });
    const m = st.twoMasked, other = 1 - m;
    // One query, two keys, two values, one of them masked as padding.
    const take = (mat, n) => ({ rows: n, cols: mat.cols, data: mat.data.slice(0, n * mat.cols) });
    const r = engine.attend({
      query: take(inputs.query, 1), key: take(inputs.key, 2), value: take(inputs.value, 2), score: inputs.score,
      keyPadding: [m === 0, m === 1], maskFill: st.fill, stable: st.stable, temperature: st.temperature,
    });
    const out = rowOf(r.output, 0);
    const val = toGrid(inputs.value)[other];
    let d = 0;
    for (let k = 0; k < out.length; k++) d = Math.max(d, Math.abs(out[k] - val[k]));
    vectors.replaceChildren(
      vectorRow(s('twoWeights', { q: qt[0], k0: kt[0], k1: kt[1] }), rowOf(r.weights, 0), 4),
      vectorRow(s('twoOutput'), out, 4),
      vectorRow(s('twoValue', { tok: kt[other] }), val, 4),
      vectorRow(s('twoDiff'), [d], 6));
    if (out.some(Number.isNaN)) setMsg(verdict, 'bad', s('twoNan'));
    else if (d <= 1e-6) setMsg(verdict, 'good', s('twoPass', { tok: kt[other] }));
    else setMsg(verdict, 'bad', s('twoFail', { tok: kt[other], d: views.fmt(d, 4) }));
    verdict.dataset.result = out.some(Number.isNaN) || d > 1e-6 ? 'fail' : 'pass';
    return { cells: [] };
  }
  return { el, draw };
}
