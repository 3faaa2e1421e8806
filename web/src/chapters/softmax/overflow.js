// Step 2: overflow. The same row shifted by a slider, through the stable and the naive softmax
// side by side: past ln(largest float32) exp overflows, far below zero it underflows.

import { rowOf } from '../../lesson/example.js';
import { fmt } from '../../text/format.js';
import { sentences } from '../../text/i18n.js';
import { h } from '../../views/dom.js';
import { slider } from '../../views/controls.js';
import { renderFormula } from '../../views/formula.js';
import { dataTable } from '../../views/table.js';
import { EXP_OVERFLOW, EXP_UNDERFLOW, labelsOf, overflowVerdict } from './logic.js';

function setMsg(el, cls, text) {
  el.className = `msg ${cls}`;
  el.textContent = text;
}

export function buildOverflow(c, v) {
  const { s } = c;
  const sl = slider('sm-shift', s('shift'), {
    min: -120,
    max: 120,
    step: 1,
    rowClass: 'sm-range',
    onInput: (v) => c.set({ smShift: v }),
  });
  const formula = h('div', { class: 'formula' });
  const table = h('div', { class: 'compare-scroll' });
  const note = h('p', { class: 'msg info', 'aria-live': 'polite' });
  const nodes = [
    h('p', { class: 'explain', text: s('p.overflow1') }),
    h('p', { class: 'explain', text: s('p.overflow2') }),
    formula,
    table,
    note,
    h('p', { class: 'hint', text: s('driftNote') }),
  ];
  Object.assign(v, { formula, note, sl, table });
  return nodes;
}

export function drawOverflow(c, scores, v) {
  const { s } = c;
  const { formula, note, sl, table } = v;
  const { engine, state } = c;
  sl.input.value = String(state.smShift);
  sl.out.textContent = (state.smShift > 0 ? '+' : '') + fmt(state.smShift, 0);
  renderFormula(
    formula,
    `\\begin{aligned} &\\text{${s('mathNaive')} } & w_i &= \\frac{e^{s_i}}{\\sum_j e^{s_j}} \\\\[4pt] &\\text{${s('mathStable')} } & w_i &= \\frac{e^{s_i - \\max_k s_k}}{\\sum_j e^{s_j - \\max_k s_k}} \\end{aligned}`,
  );
  const shifted = scores.map((x) => x + state.smShift); // the inputs, moved by the slider
  const stable = engine.softmax({ scores: [shifted], stable: true });
  const naive = engine.softmax({ scores: [shifted], stable: false });
  const ws = rowOf(stable.weights, 0),
    wn = rowOf(naive.weights, 0);
  const labels = labelsOf(scores.length);
  const cell = (x, digits, wrong = false) => ({
    class: Number.isFinite(x) && !wrong ? '' : 'flagged',
    text: fmt(x, digits) + (wrong && Number.isFinite(x) ? ' ≠' : ''),
  });
  const rows = shifted.map((x, k) => [
    labels[k],
    x > EXP_OVERFLOW
      ? { class: 'flagged', node: [fmt(x, 2), h('span', { class: 'flag-mark', text: ` ⚠ ${s('overflowFlag')}` })] }
      : x < EXP_UNDERFLOW
        ? { class: 'flagged', node: [fmt(x, 2), h('span', { class: 'flag-mark', text: ` ⚠ ${s('underflowFlag')}` })] }
        : fmt(x, 2),
    cell(ws[k], 4),
    cell(wn[k], 4, !(Math.abs(wn[k] - ws[k]) <= 1e-4)),
  ]);
  rows.push({
    attrs: { class: 'entropy-row' },
    cells: [s('entropy'), '', cell(stable.entropy[0], 4), cell(naive.entropy[0], 4)],
  });
  table.replaceChildren(
    dataTable({
      className: 'data-table sm-overflow-table',
      head: ['', s('colScore'), s('colStable'), s('colNaive')],
      rows,
    }),
  );
  // Does the stable column still match the unshifted scores? (a check, to 4 decimals)
  const base = rowOf(engine.softmax({ scores: [scores], stable: true }).weights, 0);
  const { nans, off, same, allUnder, tiny, cause } = overflowVerdict(shifted, ws, wn, base);
  if (nans)
    setMsg(
      note,
      'bad',
      sentences(c.lang, [
        s('naiveBroken', { n: nans, m: wn.length }),
        allUnder ? s('naiveUnderflow') : '',
        off ? s('naiveOthers') : '',
        same ? s('stableSame') : '',
      ]),
    );
  else if (off)
    setMsg(
      note,
      'bad',
      sentences(c.lang, [s('naiveZeros', { n: off, m: wn.length }), tiny ? s('naiveSubnormal') : '']),
    );
  else setMsg(note, 'info', s('naiveOk'));
  note.dataset.broken = String(nans > 0);
  note.dataset.cause = cause;
}

export const overflowControls = (c, v) => h('div', { class: 'controls' }, v.sl.wrap);
