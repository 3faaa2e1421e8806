// Step 3: one query against n keys: raw scores saturate softmax, scaled ones do not.

import { maxIndex } from 'd3-array';
import { fmt } from '../../text/format.js';
import { createLineChart } from '../../views/line-chart.js';
import { createBars } from '../../views/bars.js';
import { h } from '../../views/dom.js';
import { RAW_COLOR, SCALED_COLOR, SWEEP_TRIALS } from './settings.js';
import { probe, keyLabels } from './probe.js';
import { chartStrings } from './run-figures.js';
import { runRow, requestSweep } from './runs.js';

export function buildSoftmax(c, v) {
  const { s } = c;
  v.explain = h('p', { class: 'explain' });
  const left = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('barsRaw') }));
  const right = h('div', { class: 'lab-bars' }, h('h4', { class: 'map-title', text: s('barsScaled') }));
  v.barsRaw = createBars(left, { color: RAW_COLOR });
  v.barsScaled = createBars(right, { color: SCALED_COLOR });
  v.statsRaw = h('p', { class: 'lab-stat', 'data-out': 'raw-stats' });
  v.statsScaled = h('p', { class: 'lab-stat', 'data-out': 'scaled-stats' });
  left.append(v.statsRaw);
  right.append(v.statsScaled);
  const progress = runRow(c, 'sweep');
  const c1 = h('div', { class: 'lab-chart' });
  const c2 = h('div', { class: 'lab-chart' });
  v.maxChart = createLineChart(c1, {
    width: 480,
    xLog: true,
    xLabel: s('axisDk'),
    yLabel: s('axisMax'),
    strings: chartStrings(c),
  });
  v.entropyChart = createLineChart(c2, {
    width: 480,
    xLog: true,
    xLabel: s('axisDk'),
    yLabel: s('axisEntropy'),
    strings: chartStrings(c),
  });
  return [
    v.explain,
    h('div', { class: 'lab-pair' }, left, right),
    h('p', { class: 'explain note', text: s('dead') }),
    progress.el,
    h('div', { class: 'lab-pair' }, c1, c2),
  ];
}

export function drawSoftmax(c, data, v) {
  const { s } = c;
  const st = c.state;
  requestSweep(c);
  const p = probe(c, 1, true);
  const labels = keyLabels(st.labKeys);
  const logn = Math.log(st.labKeys);
  v.barsRaw.update({
    values: p.rawWeights,
    labels,
    domain: [0, 1],
    highlight: maxIndex(p.rawWeights),
    caption: s('barsRaw'),
    digits: 3,
  });
  v.barsScaled.update({
    values: p.scaledWeights,
    labels,
    domain: [0, 1],
    highlight: maxIndex(p.scaledWeights),
    caption: s('barsScaled'),
    digits: 3,
  });
  const stat = (max, ent) => s('probeStats', { max: fmt(max, 3), h: fmt(ent, 3), n: st.labKeys, logn: fmt(logn, 3) });
  v.statsRaw.textContent = stat(p.rawMax, p.rawEntropy);
  v.statsScaled.textContent = stat(p.scaledMax, p.scaledEntropy);
  v.statsRaw.dataset.max = String(p.rawMax);
  v.statsScaled.dataset.max = String(p.scaledMax);
  v.explain.textContent = s('softmax.explain', { n: st.labKeys, dk: st.labDk, trials: SWEEP_TRIALS });
}
