// What every step of the Masks chapter shares: the weights it leads with (the mask striped on
// them, the cells the step flags outlined), then the masked scores and the 0/1 mask; the fill
// beside every figure; the example and the softmax in the settings; and the message lines.

import { PRESET_IDS, presetPatch } from '../../lesson/example.js';
import { fmt } from '../../text/format.js';
import { heatmapStrings } from '../../text/i18n.js';
import { h } from '../../views/dom.js';
import { radioFieldset } from '../../views/controls.js';
import { createHeatmap } from '../../views/heatmap.js';
import { at, customGrid, customPatch } from './logic.js';

// ---- message lines and vectors -------------------------------------------------------------------

// A message line of a step (class mk-note, so tests and styles can find it).
export function msg(cls = 'info') {
  return h('p', { class: `msg ${cls} mk-note`, 'aria-live': 'polite' });
}

export function setMsg(el, cls, text) {
  el.className = `msg ${cls} mk-note`;
  el.textContent = text;
}

// A vector as a row of cells; flagged (non-finite) cells marked.
export function vectorRow(label, values, digits = 3) {
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

// ---- the fill, beside every figure ------------------------------------------------------------------

export function buildFill(c, v) {
  const { s } = c;
  const fills = c.engine.choices.maskFill;
  v.fillRadios = fills.map((f) =>
    h('input', { type: 'radio', name: 'mk-fill', value: f, onchange: () => c.set({ fill: f }) }),
  );
  v.fillAbout = h('p', { class: 'hint mk-fill-about' });
  return [
    radioFieldset(
      s('fill'),
      v.fillRadios,
      fills.map((f) => h('span', { text: s(`fill.${f}`) })),
      'radio-list row',
    ),
    v.fillAbout,
  ];
}

export function drawFill(c, run, v) {
  const st = c.state;
  v.fillRadios.forEach((r) => {
    r.checked = r.value === st.fill;
  });
  v.fillAbout.textContent = c.s(`fillAbout.${st.fill}`);
}

// ---- the settings: the example and the softmax ------------------------------------------------------

export function buildPanel(c, v) {
  const { s } = c;
  v.presetSel = h(
    'select',
    { id: 'mk-preset', onchange: (e) => c.set({ ...presetPatch(e.target.value), blockRow: 0 }) },
    ...PRESET_IDS.map((id) => h('option', { value: id, text: s(`preset.${id}`) })),
  );
  v.stable = h('input', { type: 'checkbox', onchange: (e) => c.set({ stable: e.target.checked }) });
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'mk-panel-h' },
    h('h3', { class: 'panel-title', id: 'mk-panel-h', text: s('example') }),
    h(
      'div',
      { class: 'controls' },
      h('div', { class: 'field' }, h('label', { for: 'mk-preset', text: s('preset') }), v.presetSel),
      h('label', { class: 'check' }, v.stable, h('span', { text: s('stable') })),
    ),
  );
}

export function drawPanel(c, run, v) {
  v.presetSel.value = c.state.preset;
  v.stable.checked = c.state.stable;
}

// ---- the heatmaps every step draws -------------------------------------------------------------------

export function buildMaps(c, v) {
  v.box = h('div', { class: 'maps' });
  return v.box;
}

// The three maps, made on the first draw (v: the `after` part's view). The weights lead.
function mapsOf(c, v) {
  if (v.maps) return v.maps;
  const make = (name, opts) => {
    const title = h('h4', { class: 'map-title' });
    const wrap = h('div', { class: `map mk-map-${name}` }, title);
    return { wrap, title, hm: createHeatmap(wrap, { ...opts, strings: heatmapStrings(c.lang) }) };
  };
  // On the custom step a click on the weights blocks or allows that cell, as on the mask.
  const draw = ({ row, col }) => toggleCell(c, row, col);
  v.maps = {
    weights: make('weights', { kind: 'sequential', onSelect: (cell) => c.state.stage === 'custom' && draw(cell) }),
    masked: make('masked', { kind: 'diverging' }),
    mask: make('mask', {
      kind: 'sequential',
      digits: 0,
      levels: [
        [0, c.s('level0')],
        [1, c.s('level1')],
      ],
      onSelect: draw,
    }),
  };
  v.maps.weights.wrap.classList.add('flagmap');
  v.maps.weights.wrap.dataset.figure = 'main';
  v.maps.masked.wrap.classList.add('flagmap');
  // Appended once: moving a heatmap in the DOM would take the keyboard focus away from it.
  v.box.append(v.maps.weights.wrap, h('div', { class: 'mk-maps-more' }, v.maps.masked.wrap, v.maps.mask.wrap));
  return v.maps;
}

// Weights (blocked cells striped), masked scores and mask; flags = { cells: [[i, j]] } (the
// step's) are outlined on the weights and the masked scores.
export function drawMaps(c, run, v, flags = {}) {
  const { s } = c;
  const stage = c.state.stage;
  const { result, inputs } = run;
  const qt = inputs.queryTokens,
    kt = inputs.keyTokens;
  // The two-token check has its own tiny example; the big maps would only distract there.
  v.box.hidden = stage === 'two-token';
  const { mask, masked, weights } = mapsOf(c, v);
  const cap = (t) => s('withAxes', { t, axes: s('rowsCols') });
  weights.title.textContent = s('mapWeights');
  weights.hm.update({
    matrix: result.weights,
    rowLabels: qt,
    colLabels: kt,
    domain: [0, 1],
    blocked: result.mask,
    caption: cap(s('mapWeights')),
  });
  masked.title.textContent = s('mapMasked');
  masked.hm.update({ matrix: result.masked, rowLabels: qt, colLabels: kt, caption: cap(s('mapMasked')) });
  mask.title.textContent = stage === 'custom' ? s('mapMaskClick') : s('mapMask');
  mask.hm.update({ matrix: result.mask, rowLabels: qt, colLabels: kt, domain: [0, 1], caption: cap(s('mapMask')) });
  weights.hm.highlight({ cells: flags.cells || [] });
  masked.hm.highlight({ cells: flags.cells || [] });
}

// Clicking a cell: allowed -> blocked in the custom mask; blocked -> allowed.
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
