// What the long runs draw as they go: the variance histogram and moments, and the sweep charts of
// the growth, softmax and gradient steps (each reads its run's latest result from c.ui.runs).

import { SWEEP_DKS } from '../../workers/variance-jobs.js';
import { fmt, fmtInt } from '../../text/format.js';
import { dataTable, scrollRegion } from '../../views/table.js';
import { button, h } from '../../views/dom.js';
import { expectedCount, expectedRanges } from './theory.js';
import { GREY } from '../../views/palette.js';
import { GROWTH_Y, RAW_COLOR, SCALED_COLOR, THEORY_COLOR, SWEEP_TRIALS } from './settings.js';

// The histogram and moments of the variance run so far (the run's own d_k, not the state's).
export function drawVariance(c) {
  const { s } = c;
  const run = c.ui.runs.variance;
  const r = run.partial;
  const args = run.args;
  if (!r || !args) return;
  const dk = args.dk;
  const scaled = c.state.labScaled;
  const n = r.samples;
  const sigma = scaled ? 1 : Math.sqrt(dk);
  // the shared axis keeps the raw range, so the scaled bars visibly shrink to ±4
  const domain = scaled && !c.state.labShared ? [-4, 4] : [-4 * Math.sqrt(dk), 4 * Math.sqrt(dk)];
  c.ui.hist.update({
    edges: scaled ? r.histogram.scaledEdges : r.histogram.edges,
    counts: scaled ? r.histogram.scaledCounts : r.histogram.rawCounts,
    domain,
    theory: { label: scaled ? 'N(0, 1)' : `N(0, ${dk})`, expected: (a, b) => expectedCount(n, sigma, a, b) },
    caption: s(scaled ? 'histScaled' : 'histRaw', { dk, n: fmtInt(n) }),
    markers: [
      { x: -sigma, label: '−σ' },
      { x: sigma, label: '+σ' },
    ],
  });
  c.ui.hist.el.dataset.samples = String(n);
  c.ui.hist.el.dataset.dk = String(dk);
  c.ui.hist.el.dataset.domain = domain.join(',');

  // moments table: measured (engine) vs theory (formula) with the 95% range of the estimate
  const rows = [];
  for (const side of ['raw', 'scaled']) {
    const m = r[side];
    const isScaled = side === 'scaled';
    const range = expectedRanges(dk, n, isScaled);
    const theory = {
      mean: '0',
      variance: isScaled ? '1' : String(dk),
      std: isScaled
        ? '1'
        : Number.isInteger(Math.sqrt(dk))
          ? `√${dk} = ${Math.sqrt(dk)}`
          : `√${dk} ≈ ${fmt(Math.sqrt(dk), 3)}`,
    };
    const moments = [
      ['mean', m.mean, `${fmt(range.mean[0], 3)} … ${fmt(range.mean[1], 3)}`],
      ['variance', m.variance, `${fmt(range.variance[0], 3)} … ${fmt(range.variance[1], 3)}`],
      ['std', m.std, `${fmt(Math.sqrt(Math.max(0, range.variance[0])), 3)} … ${fmt(Math.sqrt(range.variance[1]), 3)}`],
    ];
    for (const [q, value, rng] of moments) {
      rows.push({
        attrs: { 'data-row': `${side}-${q}` },
        cells: [
          s('momentRow', { side: s(isScaled ? 'scaledRow' : 'rawRow'), q: s(q) }),
          { attrs: { 'data-value': String(value) }, text: fmt(value, 4) },
          theory[q],
          rng,
        ],
      });
    }
  }
  const caption = s('momentsCaption', { dk, n: fmtInt(n) });
  c.ui.moments.replaceChildren(
    dataTable({
      className: 'data-table lab-moments-table',
      caption,
      head: [s('quantity'), s('measured'), s('theory'), s('range95')],
      rows,
    }),
  );
  scrollRegion(c.ui.moments, caption);

  // the d_k = 64 case
  if (dk === 64) {
    c.ui.callout.replaceChildren(
      h('p', {
        class: 'lab-callout-text',
        'data-out': 'callout-64',
        text: s('callout64', { std: fmt(r.raw.std, 3), sstd: fmt(r.scaled.std, 3) }),
      }),
    );
  } else {
    c.ui.callout.replaceChildren(button('btn', s('try64'), () => c.set({ labDk: 64 }), { 'data-field': 'try-64' }));
  }
}

// ---- the sweep charts (growth, softmax, gradient) -----------------------------------------------

export const chartStrings = (c) => ({ showTable: c.t('showTable'), hideTable: c.s('hideTable') });

function sweepSeries(points, pick, name, color, mark = 'both', dash) {
  return { name, color, mark, dash, points: points.map((p) => ({ x: p.dk, y: pick(p) })) };
}

export function drawSweep(c) {
  const { s } = c;
  const sw = c.ui.runs.sweep.partial;
  if (!sw || sw.points.length === 0) return;
  const P = sw.points;
  const st = c.state;
  const stage = st.stage;
  const params = { trials: SWEEP_TRIALS, n: st.labKeys };
  const v = c.step(stage);
  if (stage === 'growth') {
    if (v.reveal.hidden) return; // the question's chart (growth.js) until the guess
    v.box.dataset.shows = 'sweep';
    v.chart.update({
      caption: s('growthCaption'),
      markX: st.labDk,
      yDomain: GROWTH_Y,
      series: [
        {
          name: s('theoryRaw'),
          color: THEORY_COLOR,
          mark: 'line',
          dash: '5 4',
          points: SWEEP_DKS.map((dk) => ({ x: dk, y: dk })),
        },
        {
          name: s('theoryScaled'),
          color: GREY,
          mark: 'line',
          dash: '2 3',
          points: SWEEP_DKS.map((dk) => ({ x: dk, y: 1 })),
        },
        sweepSeries(P, (p) => p.variance.raw, s('measuredRaw'), RAW_COLOR, 'points'),
        sweepSeries(P, (p) => p.variance.scaled, s('measuredScaled'), SCALED_COLOR, 'points'),
      ],
    });
  } else if (stage === 'softmax') {
    v.maxChart.update({
      caption: s('maxCaption', params),
      markX: st.labDk,
      yDomain: [0, 1],
      series: [
        sweepSeries(P, (p) => p.raw.maxWeight, s('raw'), RAW_COLOR),
        sweepSeries(P, (p) => p.scaled.maxWeight, s('scaled'), SCALED_COLOR),
      ],
    });
    v.entropyChart.update({
      caption: s('entropyCaption'),
      markX: st.labDk,
      yDomain: [0, Math.max(sw.logN * 1.05, 0.1)],
      series: [
        {
          name: s('logn'),
          color: THEORY_COLOR,
          mark: 'line',
          dash: '5 4',
          points: SWEEP_DKS.map((dk) => ({ x: dk, y: sw.logN })),
        },
        sweepSeries(P, (p) => p.raw.entropy, s('raw'), RAW_COLOR),
        sweepSeries(P, (p) => p.scaled.entropy, s('scaled'), SCALED_COLOR),
      ],
    });
  } else if (stage === 'gradient') {
    v.chart.update({
      caption: s('gradCaption', params),
      markX: st.labDk,
      series: [
        sweepSeries(P, (p) => p.raw.jacobianNorm, s('jacRaw'), RAW_COLOR),
        sweepSeries(P, (p) => p.scaled.jacobianNorm, s('jacScaled'), SCALED_COLOR),
        sweepSeries(P, (p) => p.raw.gradNorm, s('gradRaw'), RAW_COLOR, 'line', '4 3'),
        sweepSeries(P, (p) => p.scaled.gradNorm, s('gradScaled'), SCALED_COLOR, 'line', '4 3'),
      ],
    });
  }
}
