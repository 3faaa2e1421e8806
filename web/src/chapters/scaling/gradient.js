// Step 4: the softmax Jacobian shrinks toward 0 as d_k grows: the vanishing gradient.

import { heatmapStrings } from '../../text/i18n.js';
import { createLineChart } from '../../views/line-chart.js';
import { createHeatmap } from '../../views/heatmap.js';
import { renderFormula } from '../../views/formula.js';
import { h } from '../../views/dom.js';
import { TEX } from './theory.js';
import { probe, keyLabels } from './probe.js';
import { chartStrings } from './run-figures.js';
import { runRow, requestSweep } from './runs.js';

export function buildGradient(c, v) {
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

export function drawGradient(c, data, v) {
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
