// Chapter 4: softmax. Stable vs naive (float32 exp overflows past ~88.72), temperature,
// softmax as a budget that sums to 1, hard vs soft attention with Gumbel-softmax in between,
// and a check of a softmax worked out by hand. One row of scores, typed by the learner; every
// weight and entropy comes from the engine (softmax, hardAttention, gumbelSoftmax).

import { MAX_TOKENS, PRESETS, rowOf } from '../../lesson/example.js';
import { fmt, texVector, parseNumber, parseList, nearestStop } from '../../text/format.js';
import { sentences } from '../../text/i18n.js';
import { h } from '../../views/dom.js';
import { field, showError, syncInput, slider } from '../../views/controls.js';
import { createBars } from '../../views/bars.js';
import { renderFormula } from '../../views/formula.js';
import { createStacked, createStackedKey } from '../../views/stacked-bar.js';
import { dataTable, scrollRegion } from '../../views/table.js';
import strings from './strings.js';
import meta, { DEFAULT_SCORES } from './meta.js';
import { gumbelCompare } from './text.js';
import { createPredict } from '../kit/predict.js';
import { WEIGHT } from '../../views/palette.js';
import { MAX_SEED } from '../../engine/choices.js';

// The weights an article printed for the row of the translation example while writing 猫.
const PRINTED = PRESETS['hand-check'].publishedGuess;
const EXP_OVERFLOW = 88.72; // ln(largest float32): exp of anything larger is +∞
const EXP_SUBNORMAL = -87.34; // ln(smallest normal float32): below it exp loses precision
const EXP_UNDERFLOW = -103.97; // ln(2^-150), half the smallest float32: exp of anything smaller is 0
const T_STOPS = [0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10];
const TAU_STOPS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 2, 5];
const GUMBEL_SAMPLES = 5; // draws shown one by one
const GUMBEL_DRAWS = 1000; // draws counted: how often each key wins
const TOLERANCE = 0.005; // per weight, for the hand check
const SUM_TOLERANCE = 0.01;

export default {
  ...meta,
  prefix: 'sm',
  strings,
  // The hand check comes first: every later step shows the weights it asks for. The budget and
  // the hard/soft rows use the shared temperature T, which only step 3 sets (shell.js shows it
  // with a reset on the others when it is not 1).
  steps: [
    { id: 'hand-check', title: { en: 'By hand first', zh: '先手算' }, build: buildHandCheck, draw: drawHandCheck },
    { id: 'overflow', title: { en: 'Overflow', zh: '溢出' }, build: buildOverflow, draw: drawOverflow },
    { id: 'temperature', title: { en: 'Temperature', zh: '温度' }, build: buildTemperature, draw: drawTemperature },
    {
      id: 'budget',
      title: { en: 'A budget of 1', zh: '总额为 1 的预算' },
      build: buildBudget,
      draw: drawBudget,
      carried: ['temperature'],
    },
    {
      id: 'hard-soft',
      title: { en: 'Hard and soft', zh: '硬与软' },
      build: buildHardSoft,
      draw: drawHardSoft,
      carried: ['temperature'],
    },
  ],
  // Every step draws from the one row of scores.
  compute: (c) => c.state.smScores,
  panel: { build: buildPanel, draw: drawPanel },
};

// ---- helpers ----------------------------------------------------------------------------------

// The keys' names: the example's words (The, cat, eats, fish) while the row has one score per
// word, s1, s2, … for a row of another length.
const EXAMPLE_WORDS = PRESETS['hand-check'].keyTokens;
const labelsOf = (n) =>
  n === EXAMPLE_WORDS.length ? EXAMPLE_WORDS.slice() : Array.from({ length: n }, (_, k) => `s${k + 1}`);

function setMsg(el, cls, text) {
  el.className = `msg ${cls}`;
  el.textContent = text;
}

// ---- the scores panel ------------------------------------------------------------------------------

function buildPanel(c, v) {
  const { s } = c;
  const f = field(
    s('scores'),
    h('input', { type: 'text', class: 'wide', inputmode: 'decimal', autocomplete: 'off', spellcheck: false }),
    s('scoresHint'),
  );
  f.input.addEventListener('change', () => {
    const r = parseList(f.input.value, { min: 1, max: MAX_TOKENS });
    if (r.error === 'count') return showError(f, s('errCount', { max: MAX_TOKENS }));
    if (r.error) return showError(f, s('errNumber', { k: r.at + 1 }));
    showError(f, '');
    c.set({ smScores: r.values, smGuess: [] });
  });
  const reset = h('button', {
    type: 'button',
    class: 'btn',
    text: s('reset'),
    onclick: () => {
      showError(f, '');
      c.set({ smScores: DEFAULT_SCORES, smGuess: [] });
    },
  });
  v.scores = f;
  return h(
    'section',
    { class: 'panel', 'data-group': 'inputs', 'aria-labelledby': 'sm-panel-h' },
    h('h3', { class: 'panel-title', id: 'sm-panel-h', text: s('inputs') }),
    h('div', { class: 'controls sm-scores-row' }, f.wrap, reset),
  );
}

function drawPanel(c, scores, v) {
  syncInput(v.scores, scores.join(', '));
}

// ---- 1. overflow: stable vs naive -----------------------------------------------------------------

function buildOverflow(c, v) {
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
    h('div', { class: 'controls', 'data-group': 'inputs' }, sl.wrap),
    table,
    note,
    h('p', { class: 'hint', text: s('driftNote') }),
  ];
  Object.assign(v, { formula, note, sl, table });
  return nodes;
}

function drawOverflow(c, scores, v) {
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
  const nans = wn.filter((x) => !Number.isFinite(x)).length;
  const off = wn.filter((x, k) => Number.isFinite(x) && Math.abs(x - ws[k]) > 1e-4).length;
  // Does the stable column still match the unshifted scores? (a check, to 4 decimals)
  const base = rowOf(engine.softmax({ scores: [scores], stable: true }).weights, 0);
  const same = base.every((x, k) => Math.abs(x - ws[k]) <= 1e-4);
  // Why: every exponential underflowed to 0 (0/0), or one overflowed to ∞ (∞/∞); tiny ones
  // (subnormal or 0) make finite weights wrong.
  const allUnder = shifted.every((x) => x < EXP_UNDERFLOW);
  const tiny = shifted.some((x) => x < EXP_SUBNORMAL);
  const cause = nans ? (allUnder ? 'underflow' : 'overflow') : off && tiny ? 'subnormal' : '';
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

// ---- 2. temperature --------------------------------------------------------------------------------

function buildTemperature(c, v) {
  const { s } = c;
  const sl = slider('sm-temp', s('temperature'), {
    min: 0,
    max: T_STOPS.length - 1,
    step: 1,
    rowClass: 'sm-range',
    onInput: (k) => c.set({ temperature: T_STOPS[k] }),
  });
  const formula = h('div', { class: 'formula' });
  const barsBox = h('div', {});
  const title = h('h4', { class: 'map-title' });
  barsBox.append(title);
  const bars = createBars(barsBox, { color: WEIGHT });
  const line = h('p', { class: 'note', 'aria-live': 'polite' });
  // Before moving the slider: what does a cooler softmax do to the top weight?
  const reveal = h('p', { class: 'msg info sm-cooler-reveal' });
  const predict = createPredict(c, {
    id: 'softmax/cooler',
    question: s('cooler.q'),
    reveal,
    options: ['up', 'same', 'down'].map((value) => ({ value, label: s(`cooler.${value}`) })),
  });
  const nodes = [
    h('p', { class: 'explain', text: s('p.temperature') }),
    predict.el,
    reveal,
    h('p', { class: 'explain', text: s('p.temperature2') }),
    formula,
    h('div', { class: 'controls', 'data-group': 'inputs' }, sl.wrap),
    barsBox,
    line,
  ];
  Object.assign(v, { bars, formula, line, predict, reveal, sl, title });
  return nodes;
}

function drawTemperature(c, scores, v) {
  const { s } = c;
  const { bars, formula, line, predict, reveal, sl, title } = v;
  const { engine, state } = c;
  const T = state.temperature;
  sl.input.value = String(nearestStop(T_STOPS, T));
  sl.out.textContent = `T = ${T}`;
  sl.input.setAttribute('aria-valuetext', sl.out.textContent); // the slider moves over stops, not over T itself
  renderFormula(formula, `w_i = \\frac{e^{s_i / T}}{\\sum_j e^{s_j / T}}, \\qquad T = ${T}`);
  const r = engine.softmax({ scores: [scores], temperature: T });
  const even = engine.softmax({ scores: [scores.map(() => 0)] }); // equal scores: the largest entropy
  title.textContent = s('weightsAt', { T });
  bars.update({
    values: rowOf(r.weights, 0),
    labels: labelsOf(scores.length),
    domain: [0, 1],
    caption: title.textContent,
    digits: 3,
  });
  line.textContent = s('entropyLine', { h: fmt(r.entropy[0], 3), n: scores.length, hmax: fmt(even.entropy[0], 3) });
  // The question's answer: the top weight at T = 1 and at T = 0.1, from the engine.
  const at = (temperature) => rowOf(engine.softmax({ scores: [scores], temperature }).weights, 0);
  const w1 = at(1),
    w01 = at(0.1);
  const top = w1.indexOf(Math.max(...w1));
  const d = w01[top] - w1[top];
  const answer = d > 1e-6 ? 'up' : d < -1e-6 ? 'down' : 'same';
  const params = { k: labelsOf(scores.length)[top], w1: fmt(w1[top], 3), w01: fmt(w01[top], 3) };
  predict.draw(answer, { right: s(`cooler.${answer}.why`, params), wrong: s(`cooler.${answer}.why`, params) });
  reveal.textContent = s('cooler.reveal', params);
}

// ---- 3. the budget ---------------------------------------------------------------------------------

function buildBudget(c, v) {
  const { s } = c;
  const nudges = h('div', { class: 'nudges', role: 'group', 'aria-label': s('nudge') });
  const title = h('h4', { class: 'map-title' });
  const box = h('div', {}, title);
  const stacked = createStacked(box, {});
  const check = h('p', { class: 'hint' });
  const nodes = [
    h('p', { class: 'explain', text: s('p.budget') }),
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('span', { class: 'field-label', text: s('nudge') }),
      nudges,
    ),
    box,
    check,
  ];
  Object.assign(v, { check, nudges, stacked, title });
  return nodes;
}

function drawBudget(c, scores, v) {
  const { s } = c;
  const { check, nudges, stacked, title } = v;
  const { engine, state } = c;
  const labels = labelsOf(scores.length);
  const move = (k, d) => {
    const next = state.smScores.slice();
    next[k] = Number((next[k] + d).toFixed(6));
    c.set({ smScores: next, smGuess: [] });
  };
  if (nudges.dataset.n !== String(scores.length)) {
    nudges.dataset.n = String(scores.length);
    nudges.replaceChildren(
      ...labels.map((l, k) =>
        h(
          'span',
          { class: 'nudge' },
          h('button', {
            type: 'button',
            class: 'btn',
            'aria-label': s('lower', { k: l }),
            text: '−',
            onclick: () => move(k, -1),
          }),
          h('span', { class: 'nudge-label' }),
          h('button', {
            type: 'button',
            class: 'btn',
            'aria-label': s('raise', { k: l }),
            text: '+',
            onclick: () => move(k, 1),
          }),
        ),
      ),
    );
  }
  [...nudges.querySelectorAll('.nudge-label')].forEach((el, k) => {
    el.textContent = `${labels[k]} = ${fmt(scores[k], 2)}`;
  });
  const r = engine.softmax({ scores: [scores], temperature: state.temperature });
  const w = rowOf(r.weights, 0);
  title.textContent = s('budgetBar', { T: state.temperature });
  stacked.update({ values: w, labels, caption: title.textContent, digits: 4 });
  const sum = w.reduce((a, b) => a + b, 0); // a check of the engine's output, not a result
  check.textContent = s('sumCheck', { sum: fmt(sum, 4) });
}

// ---- 4. hard, soft, Gumbel -------------------------------------------------------------------------

function buildHardSoft(c, v) {
  const { s } = c;
  const sl = slider('sm-tau', s('tau'), {
    min: 0,
    max: TAU_STOPS.length - 1,
    step: 1,
    rowClass: 'sm-range',
    onInput: (k) => c.set({ gumbelTau: TAU_STOPS[k] }),
  });
  const seedOut = h('span', { class: 'hint' });
  const redraw = h('button', {
    type: 'button',
    class: 'btn',
    text: s('redraw'),
    onclick: () => c.set({ gumbelSeed: (c.state.gumbelSeed + 1) % (MAX_SEED + 1) }),
  });
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
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      sl.wrap,
      h(
        'div',
        { class: 'field' },
        h('span', { class: 'field-label', text: '\u00a0' }),
        h('div', { class: 'sm-range' }, redraw, seedOut),
      ),
    ),
    list,
    h('section', { class: 'sm-gumbel-freq', 'aria-label': s('freqRegion') }, freqTitle, freqBars, freqTable, freqNote),
  ];
  Object.assign(v, { compare, freqNote, freqShares, freqTable, freqTitle, freqWeights, key, rows, seedOut, sl });
  return nodes;
}

function drawHardSoft(c, scores, v) {
  const { s } = c;
  const { compare, freqNote, freqShares, freqTable, freqTitle, freqWeights, key, rows, seedOut, sl } = v;
  const { engine, state } = c;
  const labels = labelsOf(scores.length);
  const tau = state.gumbelTau;
  sl.input.value = String(nearestStop(TAU_STOPS, tau));
  sl.out.textContent = `τ = ${tau}`;
  sl.input.setAttribute('aria-valuetext', sl.out.textContent);
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
  const wins = new Array(scores.length).fill(0);
  for (let i = 0; i < GUMBEL_DRAWS; i++) wins[winner(rowOf(gumbel, i))]++;
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

// ---- 5. the hand check -----------------------------------------------------------------------------

function buildHandCheck(c, v) {
  const { s } = c;
  const form = h('form', { class: 'guess-grid', novalidate: true });
  const formError = h('div', { class: 'field-error', role: 'alert' });
  const result = h('div', { class: 'sm-hand-result', 'aria-live': 'polite' });
  const printed = h('button', {
    type: 'button',
    class: 'btn',
    text: s('usePrinted'),
    onclick: () => c.set({ smGuess: PRINTED }),
  });
  const clear = h('button', {
    type: 'button',
    class: 'btn',
    text: s('clearGuess'),
    onclick: () => c.set({ smGuess: [] }),
  });
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
    form,
    formError,
    h('div', { class: 'controls' }, printed, clear),
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
  Object.assign(v, { form, formError, printed, result, scoresLine });
  return nodes;
}

function drawHandCheck(c, scores, v) {
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
  const diffs = guess.map((g, k) => Math.abs(g - w[k])); // checks against the engine's weights
  const wrong = labels.filter((_, k) => !(diffs[k] <= TOLERANCE));
  const sum = guess.reduce((a, b) => a + b, 0); // the learner's own numbers
  const sumOk = Math.abs(sum - 1) <= SUM_TOLERANCE;
  const ok = (k) => diffs[k] <= TOLERANCE;
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
