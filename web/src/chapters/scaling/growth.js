// Step 2: the variance against d_k on log-log axes, raw and scaled, after a guess at what doubling d_k does.

import { fmt, fmtInt } from '../../text/format.js';
import { createLineChart } from '../../views/line-chart.js';
import { renderFormula } from '../../views/formula.js';
import { h } from '../../views/dom.js';
import { TEX } from './theory.js';
import { createPredict } from '../kit/predict.js';
import { SWEEP_SAMPLES } from './settings.js';
import { chartStrings } from './run-figures.js';
import { runRow, requestSweep } from './runs.js';

export function buildGrowth(c, v) {
  const { s } = c;
  v.explain = h('p', { class: 'explain' });
  v.formula = h('div', { class: 'formula' });
  const progress = runRow(c, 'sweep');
  const box = h('div', { class: 'lab-chart' });
  v.chart = createLineChart(box, {
    xLog: true,
    yLog: true,
    xLabel: s('axisDk'),
    yLabel: s('axisVariance'),
    strings: chartStrings(c),
  });
  // The sweep stays hidden until the learner has guessed what doubling d_k does.
  v.measured = h('p', { class: 'msg info lab-double-reveal' });
  v.reveal = h('div', { class: 'lab-growth-reveal' }, v.measured, v.explain, v.formula, progress.el, box);
  v.predict = createPredict(c, {
    id: 'scaling/double',
    question: '',
    reveal: v.reveal,
    options: ['same', 'double', 'four'].map((value) => ({ value, label: s(`double.${value}`) })),
  });
  return [v.predict.el, v.reveal];
}

// Doubling d_k: the variance of q·k measured by the engine at d_k and 2·d_k (the largest d_k
// is compared with its half), on this thread with DOUBLE_SAMPLES pairs each; kept per setting.
const DOUBLE_SAMPLES = 20000;
function doubling(c, v) {
  const st = c.state;
  const lo = st.labDk * 2 <= 1024 ? st.labDk : st.labDk / 2;
  const key = `${lo},${st.labSeed}`;
  if (v.doubling?.key !== key) {
    const at = (dk) =>
      c.engine.varianceExperiment({ dk, samples: DOUBLE_SAMPLES, seed: st.labSeed, bins: 1 }).raw.variance;
    const a = at(lo),
      b = at(2 * lo);
    const ratio = b / a;
    // the nearest of ×1, ×2, ×4 on a log scale
    const answer = ['same', 'double', 'four'][
      [1, 2, 4].map((x) => Math.abs(Math.log(ratio / x))).reduce((best, e, k, all) => (e < all[best] ? k : best), 0)
    ];
    v.doubling = { key, lo, a, b, ratio, answer };
  }
  return v.doubling;
}

export function drawGrowth(c, data, v) {
  const { s } = c;
  const d = doubling(c, v);
  const params = {
    lo: d.lo,
    hi: 2 * d.lo,
    a: fmt(d.a, 2),
    b: fmt(d.b, 2),
    ratio: fmt(d.ratio, 2),
    n: fmtInt(DOUBLE_SAMPLES),
  };
  v.predict.ask(s('double.q', params));
  v.predict.draw(d.answer, { right: s('double.why', params), wrong: s('double.why', params) });
  v.measured.textContent = s('double.measured', params);
  v.explain.textContent = s('growth.explain', { n: fmtInt(SWEEP_SAMPLES) });
  renderFormula(v.formula, TEX.growth);
  requestSweep(c);
}
