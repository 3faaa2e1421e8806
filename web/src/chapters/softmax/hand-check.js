// Step 1: a softmax worked out by hand first. The learner types a weight per key (or the row an
// article printed) and the engine's weights check it.

import { rowOf } from '../../lesson/example.js';
import { fmt, texVector, parseNumber } from '../../text/format.js';
import { button, h } from '../../views/dom.js';
import { field, showError, syncInput } from '../../views/controls.js';
import { createBars } from '../../views/bars.js';
import { renderFormula } from '../../views/formula.js';
import { dataTable } from '../../views/table.js';
import { WEIGHT } from '../../views/palette.js';
import { PRINTED, handVerdict, labelsOf } from './logic.js';

export function buildHandCheck(c, v) {
  const { s } = c;
  const form = h('form', { class: 'guess-grid', novalidate: true });
  const formError = h('div', { class: 'field-error', role: 'alert' });
  const result = h('div', { class: 'sm-hand-result', 'aria-live': 'polite' });
  const printed = button('btn', s('usePrinted'), () => c.set({ smGuess: PRINTED }));
  const clear = button('btn', s('clearGuess'), () => c.set({ smGuess: [] }));
  const scoresLine = h('div', { class: 'formula' });
  // The row the learner works from, drawn before any guess (the engine's weights, which answer
  // it, appear only beside a checked guess).
  const barsBox = h('div', { class: 'sm-hand-bars', 'data-figure': 'main' });
  v.bars = createBars(barsBox, { color: WEIGHT });
  v.fields = []; // one field per score, made again when the row's length changes
  const nodes = [
    h('p', { class: 'explain', text: s('p.hand1') }),
    h('p', { class: 'explain', text: s('p.hand2') }),
    barsBox,
    scoresLine,
    result,
  ];

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const values = v.fields.map((f) => parseNumber(f.input.value));
    let bad = false;
    v.fields.forEach((f, k) => {
      const ok = !Number.isNaN(values[k]);
      showError(f, ok ? '' : s('errGuess'));
      bad = bad || !ok;
    });
    if (bad) return;
    c.set({ smGuess: values });
  });
  Object.assign(v, { clear, form, formError, printed, result, scoresLine });
  return nodes;
}

export function drawHandCheck(c, scores, v) {
  const { s } = c;
  const { form, formError, printed, result, scoresLine } = v;
  const { engine, state } = c;
  const n = scores.length;
  const labels = labelsOf(n);
  renderFormula(scoresLine, `s = ${texVector(scores, 2)}`);
  const top = Math.max(1, ...scores.map(Math.abs).filter(Number.isFinite));
  v.bars.update({
    values: scores,
    labels,
    domain: [Math.min(0, ...scores.filter(Number.isFinite)) < 0 ? -top : 0, top],
    caption: s('handBars'),
    digits: 2,
  });
  printed.hidden = n !== PRINTED.length;
  if (form.dataset.n !== String(n)) {
    form.dataset.n = String(n);
    v.fields = labels.map((l) =>
      field(s('guessFor', { k: l }), h('input', { type: 'text', inputmode: 'decimal', autocomplete: 'off' })),
    );
    form.replaceChildren(
      ...v.fields.map((f) => f.wrap),
      h('button', { type: 'submit', class: 'btn primary', text: s('check') }),
    );
  }
  const guess = state.smGuess;
  v.fields.forEach((f, k) => syncInput(f, guess[k] !== undefined ? String(guess[k]) : ''));
  if (guess.length === 0) {
    result.replaceChildren();
    formError.textContent = '';
    return;
  }
  if (guess.length !== n) {
    result.replaceChildren();
    formError.textContent = s('errGuessCount', { n });
    return;
  }
  formError.textContent = '';
  const w = rowOf(engine.softmax({ scores: [scores], temperature: 1 }).weights, 0);
  // the learner's numbers checked against the engine's weights
  const { diffs, ok: within, sum, sumOk } = handVerdict(guess, w);
  const wrong = labels.filter((_, k) => !within[k]);
  const ok = (k) => within[k];
  const table = dataTable({
    className: 'data-table sm-hand-table',
    head: ['', ...['colYours', 'colEngine', 'colDiff', 'colOk'].map((k) => s(k))],
    rows: labels.map((l, k) => [
      l,
      fmt(guess[k], 4),
      fmt(w[k], 4),
      { class: ok(k) ? '' : 'flagged', text: fmt(diffs[k], 4) },
      { class: ok(k) ? '' : 'flagged', text: ok(k) ? `✓ ${s('yes')}` : `✗ ${s('no')}` },
    ]),
  });
  const verdict = h('p', {
    class: `msg ${wrong.length ? 'bad' : 'good'} sm-verdict`,
    text: wrong.length ? s('wrong', { n: wrong.length, m: n, list: wrong.join(', ') }) : s('right'),
  });
  verdict.dataset.result = wrong.length ? 'wrong' : 'right';
  const sumMsg = h('p', {
    class: `msg ${sumOk ? 'good' : 'bad'} sm-sum`,
    text: s(sumOk ? 'sumOk' : 'sumBad', { sum: fmt(sum, 3) }),
  });
  sumMsg.dataset.result = sumOk ? 'ok' : 'bad';
  result.replaceChildren(
    verdict,
    sumMsg,
    h('div', { class: 'compare-scroll' }, table),
    h('p', { class: 'hint', text: s('sumNote') }),
  );
}

// Beside the row: the learner's weights, or the row an article printed.
export const handCheckControls = (c, v) => [v.form, v.formError, h('div', { class: 'controls' }, v.printed, v.clear)];
