// Step 2: the variance against d_k on log-log axes, raw and scaled, after a guess at what doubling d_k does.
//
// The step opens on its chart: before the guess it shows the variance the engine measured at
// d_k = lo and, at 2·lo, the three answers the question offers (that variance kept, doubled,
// four times), so the guess is made on the figure; the measured point at 2·lo, the sweep over d_k
// and the theory lines follow the guess (drawSweep in ./run-figures.js once it has points).

import { fmt, fmtInt } from '../../text/format.js';
import { createLineChart } from '../../views/line-chart.js';
import { renderFormula } from '../../views/formula.js';
import { h } from '../../views/dom.js';
import { BROWN, GREEN, WEIGHT } from '../../views/palette.js';
import { TEX } from './theory.js';
import { createPredict } from '../kit/predict.js';
import { GROWTH_Y, RAW_COLOR, SWEEP_SAMPLES } from './settings.js';
import { chartStrings } from './run-figures.js';
import { runRow, requestSweep } from './runs.js';

// The question's answers: the factor each one puts on the variance, and its colour on the chart.
const ANSWERS = [
  { value: 'same', factor: 1, color: GREEN },
  { value: 'double', factor: 2, color: WEIGHT },
  { value: 'four', factor: 4, color: BROWN },
];

export function buildGrowth(c, v) {
  const { s } = c;
  v.explain = h('p', { class: 'explain' });
  v.formula = h('div', { class: 'formula' });
  const progress = runRow(c, 'sweep');
  v.box = h('div', { class: 'lab-chart lab-growth-chart', 'data-figure': 'main' });
  v.chart = createLineChart(v.box, {
    xLog: true,
    yLog: true,
    xLabel: s('axisDk'),
    yLabel: s('axisVariance'),
    strings: chartStrings(c),
  });
  // The sweep stays hidden until the learner has guessed what doubling d_k does.
  v.measured = h('p', { class: 'msg info lab-double-reveal' });
  v.reveal = h('div', { class: 'lab-growth-reveal' }, v.measured, v.explain, v.formula, progress.el);
  v.predict = createPredict(c, {
    id: 'scaling/double',
    question: '',
    reveal: v.reveal,
    options: ANSWERS.map(({ value }) => ({ value, label: s(`double.${value}`) })),
  });
  // a guess (or "Just show me") draws the chart again: the answer and the sweep
  v.predict.el.addEventListener('click', (e) => {
    if (e.target.closest('button')) c.redraw();
  });
  return [v.box, v.predict.el, v.reveal];
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

// The chart of the question: the engine's variance at lo, the answers at 2·lo, and after the
// guess the engine's variance at 2·lo (until the sweep draws the whole chart).
function drawDoubling(c, v, d) {
  const { s } = c;
  const hi = 2 * d.lo;
  const shown = !v.reveal.hidden;
  const series = [
    {
      name: s('double.atLo', { dk: d.lo }),
      color: RAW_COLOR,
      mark: 'points',
      points: [{ x: d.lo, y: d.a }],
    },
    ...ANSWERS.map(({ value, factor, color }) => ({
      name: s('double.option', { answer: s(`double.${value}`) }),
      color,
      mark: 'points',
      points: [{ x: hi, y: factor * d.a }],
    })),
  ];
  if (shown)
    series.push({
      name: s('double.atHi', { dk: hi }),
      color: RAW_COLOR,
      mark: 'line',
      points: [
        { x: d.lo, y: d.a },
        { x: hi, y: d.b },
      ],
    });
  v.chart.update({
    caption: s(shown ? 'double.captionShown' : 'double.caption', { lo: d.lo, hi }),
    digits: 2,
    xDomain: [d.lo / 2, 2 * hi], // an octave either side of the question's two d_k
    yDomain: GROWTH_Y,
    series,
  });
  v.box.dataset.shows = shown ? 'answer' : 'question';
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
  drawDoubling(c, v, d);
  requestSweep(c); // draws the sweep over the question's chart once the guess is made
}
