// Step 5: τ divides the scores; √d_k is a temperature; hard vs soft vs Gumbel-softmax.

import { maxIndex } from 'd3-array';
import { fmt, tex } from '../../text/format.js';
import { heatmapStrings } from '../../text/i18n.js';
import { createBars } from '../../views/bars.js';
import { createHeatmap } from '../../views/heatmap.js';
import { renderFormula } from '../../views/formula.js';
import { button, h } from '../../views/dom.js';
import { temperatureTex } from './theory.js';
import { MUTED } from '../../views/palette.js';
import { SCALED_COLOR, GUMBEL_ROWS } from './settings.js';
import { probe, keyLabels } from './probe.js';

export function buildTemperature(c, v) {
  const { s } = c;
  v.formula = h('div', { class: 'formula' });
  const buttons = h(
    'div',
    { class: 'lab-buttons' },
    button(
      'btn',
      s('setTauRaw'),
      () => c.set({ labScaled: false, labTau: Number(Math.sqrt(c.state.labDk).toPrecision(6)) }),
      { 'data-field': 'tau-sqrt' },
    ),
    button('btn', s('setTauOne'), () => c.set({ labScaled: true, labTau: 1 }), { 'data-field': 'tau-one' }),
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

export function drawTemperature(c, data, v) {
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
