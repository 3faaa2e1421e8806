// Steps 3 and 4: the temperature (T divides every score: cooler is sharper), and softmax as a
// budget of 1 (nudge one score and the others give way).

import { rowOf } from '../../lesson/example.js';
import { fmt } from '../../text/format.js';
import { button, h } from '../../views/dom.js';
import { stopsSlider } from '../../views/controls.js';
import { createBars } from '../../views/bars.js';
import { renderFormula } from '../../views/formula.js';
import { createStacked } from '../../views/stacked-bar.js';
import { WEIGHT } from '../../views/palette.js';
import { createPredict } from '../kit/predict.js';
import { T_STOPS, coolerAnswer, labelsOf } from './logic.js';

// ---- 3. temperature ----------------------------------------------------------------------------

export function buildTemperature(c, v) {
  const { s } = c;
  const sl = stopsSlider('sm-temp', s('temperature'), T_STOPS, 'sm-range', (T) => c.set({ temperature: T }));
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
    barsBox,
    line,
  ];
  Object.assign(v, { bars, formula, line, predict, reveal, sl, title });
  return nodes;
}

export function drawTemperature(c, scores, v) {
  const { s } = c;
  const { bars, formula, line, predict, reveal, sl, title } = v;
  const { engine, state } = c;
  const T = state.temperature;
  sl.show(T, `T = ${T}`);
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
  const { answer, top } = coolerAnswer(w1, w01);
  const params = { k: labelsOf(scores.length)[top], w1: fmt(w1[top], 3), w01: fmt(w01[top], 3) };
  predict.draw(answer, { right: s(`cooler.${answer}.why`, params), wrong: s(`cooler.${answer}.why`, params) });
  reveal.textContent = s('cooler.reveal', params);
}

// ---- 4. the budget -----------------------------------------------------------------------------

export function buildBudget(c, v) {
  const { s } = c;
  const nudges = h('div', { class: 'nudges', role: 'group', 'aria-label': s('nudge') });
  const title = h('h4', { class: 'map-title' });
  const box = h('div', {}, title);
  const stacked = createStacked(box, {});
  const check = h('p', { class: 'hint sm-sum-check' });
  const nodes = [h('p', { class: 'explain', text: s('p.budget') }), box, check];
  Object.assign(v, { check, nudges, stacked, title });
  return nodes;
}

export function drawBudget(c, scores, v) {
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
          button('btn', '−', () => move(k, -1), { 'aria-label': s('lower', { k: l }) }),
          h('span', { class: 'nudge-label' }),
          button('btn', '+', () => move(k, 1), { 'aria-label': s('raise', { k: l }) }),
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

export const temperatureControls = (c, v) => h('div', { class: 'controls' }, v.sl.wrap);

export const budgetControls = (c, v) =>
  h('div', { class: 'controls' }, h('span', { class: 'field-label', text: c.s('nudge') }), v.nudges);
