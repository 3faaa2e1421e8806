// Step 1: the histogram of q·k for random q, k (N(0, 1) entries), its variance d_k, and one pair drawn.

import { fmt, fmtInt } from '../../text/format.js';
import { createHistogram } from '../../views/histogram.js';
import { renderFormula } from '../../views/formula.js';
import { dataTable } from '../../views/table.js';
import { button, h } from '../../views/dom.js';
import { TEX } from './theory.js';
import { drawVariance } from './run-figures.js';
import { runsOf, runRow, varianceArgs } from './runs.js';

export function buildVariance(c, v) {
  const { s } = c;
  v.explain = h('p', { class: 'explain' });
  v.formula = h('div', { class: 'formula' });
  const progress = runRow(c, 'variance');
  const histBox = h('div', { class: 'lab-hist' });
  c.ui.hist = createHistogram(histBox, {
    strings: {
      bin: s('bin'),
      count: s('count'),
      expected: s('expected'),
      showTable: c.t('showTable'),
      hideTable: s('hideTable'),
    },
  });
  c.ui.moments = h('div', { class: 'lab-moments' });
  c.ui.callout = h('div', { class: 'lab-callout' });
  v.pair = h('div', { class: 'lab-drawn', 'data-out': 'drawn-pair' });
  v.pairButton = button('btn', s('anotherPair'), () => c.set({ labPair: (c.state.labPair + 1) % 1000000 }), {
    'data-field': 'another-pair',
  });
  const pairBox = h(
    'section',
    { class: 'lab-drawn-box', 'aria-label': s('pairTitle') },
    h('h4', { class: 'map-title', text: s('pairTitle') }),
    v.pair,
    v.pairButton,
  );
  return [
    v.explain,
    v.formula,
    pairBox,
    progress.el,
    histBox,
    c.ui.moments,
    c.ui.callout,
    h('p', { class: 'hint', text: s('variance.small') }),
  ];
}

// One pair of the run, drawn by the engine exactly as the experiment draws it: its q, k (the
// first few entries when d_k is large) and q·k.
const PAIR_ROWS = 8;
function drawPair(c, v) {
  const { s } = c;
  const st = c.state;
  const i = st.labPair;
  const pair = c.engine.varianceSample({ dk: st.labDk, seed: st.labSeed, sample: i });
  const rows = [];
  for (let j = 0; j < Math.min(st.labDk, PAIR_ROWS); j++) {
    rows.push({
      cells: [
        String(j + 1),
        { attrs: { 'data-value': String(pair.q[j]) }, text: fmt(pair.q[j], 3) },
        { attrs: { 'data-value': String(pair.k[j]) }, text: fmt(pair.k[j], 3) },
      ],
    });
  }
  if (st.labDk > PAIR_ROWS)
    rows.push({
      cells: ['…', { attrs: { colspan: '2' }, text: s('pairMore', { more: fmtInt(st.labDk - PAIR_ROWS) }) }],
    });
  v.pair.replaceChildren(
    h('p', {
      class: 'explain',
      text: s('pairExplain', { num: fmtInt(i + 1), i, dk: st.labDk, seed: st.labSeed, n: fmtInt(st.labSamples) }),
    }),
    dataTable({
      className: 'data-table lab-drawn-table',
      caption: s('pairCaption', { num: fmtInt(i + 1), dk: st.labDk }),
      head: ['i', 'q_i', 'k_i'],
      rows,
    }),
    h('p', {
      class: 'lab-stat',
      'data-out': 'pair-dot',
      'data-value': String(pair.dot),
      text: s('pairDot', { dot: fmt(pair.dot, 4) }),
    }),
  );
}

export function drawVarianceStep(c, data, v) {
  v.explain.textContent = c.s('variance.explain', { n: fmtInt(c.state.labSamples) });
  renderFormula(v.formula, TEX.variance);
  drawPair(c, v);
  // A new run when the settings changed; otherwise redraw what the last one measured.
  if (!runsOf(c).variance.request(varianceArgs(c.state))) drawVariance(c);
}
