// Step 5: hard and soft attention, and Gumbel-softmax in between: seeded draws one by one, and
// how often each key wins over many draws against its softmax weight.

import { rowOf } from '../../lesson/example.js';
import { fmt } from '../../text/format.js';
import { button, h } from '../../views/dom.js';
import { stopsSlider } from '../../views/controls.js';
import { createStacked, createStackedKey } from '../../views/stacked-bar.js';
import { dataTable, scrollRegion } from '../../views/table.js';
import { MAX_SEED } from '../../engine/choices.js';
import { GUMBEL_DRAWS, GUMBEL_SAMPLES, TAU_STOPS, gumbelCompare, labelsOf, winsOf } from './logic.js';

export function buildHardSoft(c, v) {
  const { s } = c;
  const sl = stopsSlider('sm-tau', s('tau'), TAU_STOPS, 'sm-range', (tau) => c.set({ gumbelTau: tau }));
  const seedOut = h('span', { class: 'hint' });
  const redraw = button('btn', s('redraw'), () => c.set({ gumbelSeed: (c.state.gumbelSeed + 1) % (MAX_SEED + 1) }));
  const list = h('div', { class: 'gumbel-list' });
  const key = createStackedKey(list, { label: s('segmentKey') });
  const compare = h('p', { class: 'explain sm-gumbel-compare' });
  const rows = [];
  const addRow = () => {
    const label = h('span', { class: 'gumbel-label' });
    const cellBox = h('div', {});
    const sb = createStacked(cellBox, { legend: false });
    list.append(h('div', { class: 'gumbel-row' }, label, cellBox));
    rows.push({ label, sb });
  };
  for (let k = 0; k < 2 + GUMBEL_SAMPLES; k++) addRow();
  // How often each key wins over many draws, against its softmax weight at T = 1.
  const freqTitle = h('h4', { class: 'map-title' });
  const freqBars = h('div', { class: 'gumbel-list' });
  const freqRow = (text) => {
    const box = h('div', {});
    freqBars.append(h('div', { class: 'gumbel-row' }, h('span', { class: 'gumbel-label', text }), box));
    return createStacked(box, { legend: false });
  };
  const freqWeights = freqRow(s('freqWeights'));
  const freqShares = freqRow(s('freqShares', { n: GUMBEL_DRAWS }));
  const freqTable = h('div', { class: 'compare-scroll' });
  const freqNote = h('p', { class: 'note sm-gumbel-freq-note' });
  const nodes = [
    h('p', { class: 'explain', text: s('p.hard') }),
    h('p', { class: 'explain', text: s('p.soft') }),
    h('p', { class: 'explain', text: s('p.gumbel') }),
    compare,
    list,
    h('section', { class: 'sm-gumbel-freq', 'aria-label': s('freqRegion') }, freqTitle, freqBars, freqTable, freqNote),
  ];
  Object.assign(v, {
    compare,
    freqNote,
    freqShares,
    freqTable,
    freqTitle,
    freqWeights,
    key,
    redraw,
    rows,
    seedOut,
    sl,
  });
  return nodes;
}

export function drawHardSoft(c, scores, v) {
  const { s } = c;
  const { compare, freqNote, freqShares, freqTable, freqTitle, freqWeights, key, rows, seedOut, sl } = v;
  const { engine, state } = c;
  const labels = labelsOf(scores.length);
  const tau = state.gumbelTau;
  sl.show(tau, `τ = ${tau}`);
  seedOut.textContent = s('seed', { seed: state.gumbelSeed });
  compare.textContent = s(...gumbelCompare(state.temperature));
  key.update(labels);
  const soft = engine.softmax({ scores: [scores], temperature: state.temperature });
  const hard = engine.hardAttention({ scores: [scores] });
  // GUMBEL_DRAWS draws from the seeded generator; the first GUMBEL_SAMPLES are shown one by one.
  const gumbel = engine.gumbelSoftmax({
    scores: Array.from({ length: GUMBEL_DRAWS }, () => scores),
    tau,
    seed: state.gumbelSeed,
  });
  const winner = (w) => w.indexOf(Math.max(...w));
  const show = (row, name, m, i) => {
    const w = rowOf(m, i);
    row.label.textContent = `${name} · ${s('picks', { k: labels[winner(w)] })}`;
    row.sb.update({ values: w, labels, caption: name, digits: 3 });
  };
  show(rows[0], s('softRow'), soft.weights, 0);
  show(rows[1], s('hardRow'), hard, 0);
  for (let k = 0; k < GUMBEL_SAMPLES; k++) show(rows[2 + k], s('gumbelRow', { k: k + 1 }), gumbel, k);

  // The winners counted (the page only tallies the engine's draws), against softmax at T = 1.
  const wins = winsOf(gumbel);
  const shares = wins.map((c) => c / GUMBEL_DRAWS);
  const p = rowOf(engine.softmax({ scores: [scores], temperature: 1 }).weights, 0);
  freqTitle.textContent = s('freqTitle', { n: GUMBEL_DRAWS, seed: state.gumbelSeed });
  freqWeights.update({ values: p, labels, caption: s('freqWeights'), digits: 3 });
  freqShares.update({ values: shares, labels, caption: s('freqShares', { n: GUMBEL_DRAWS }), digits: 3 });
  freqTable.replaceChildren(
    dataTable({
      className: 'data-table sm-gumbel-freq-table',
      head: [s('colKey'), s('freqWeights'), s('colWins', { n: GUMBEL_DRAWS }), s('colShare')],
      rows: labels.map((l, k) => [l, fmt(p[k], 3), String(wins[k]), fmt(shares[k], 3)]),
    }),
  );
  scrollRegion(freqTable, freqTitle.textContent);
  const gap = Math.max(...shares.map((x, k) => Math.abs(x - p[k])));
  freqNote.textContent = s('freqNote', { n: GUMBEL_DRAWS, gap: fmt(gap, 3) });
}

export const hardSoftControls = (c, v) =>
  h(
    'div',
    { class: 'controls' },
    v.sl.wrap,
    h(
      'div',
      { class: 'field' },
      h('span', { class: 'field-label', text: '\u00a0' }),
      h('div', { class: 'sm-range' }, v.redraw, v.seedOut),
    ),
  );
