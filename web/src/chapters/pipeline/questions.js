// What two steps of the pipeline add to the stage: the scores step's question (how large will the
// top weight be?) and the Softmax step's hand check (the hand-check preset keeps the engine's
// weights back until the learner has worked them out) with the selected row's weights as bars.

import { max } from 'd3-array';
import { PRESETS, rowOf } from '../../lesson/example.js';
import { button, h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { createBars } from '../../views/bars.js';
import { createPredict } from '../kit/predict.js';
import { handCheckLink } from '../softmax/meta.js';
import { WEIGHT } from '../../views/palette.js';
import { holdStage } from './stage.js';

// ---- step 1: the top weight ---------------------------------------------------------------------

export function buildTopWeight(c, v) {
  const { s } = c;
  // Step 1 asks what the top weight will be before step 2 shows it.
  v.topReveal = h('p', { class: 'msg info pl-top-reveal' });
  v.predict = createPredict(c, {
    id: 'pipeline/top-weight',
    question: '',
    reveal: v.topReveal,
    options: ['low', 'mid', 'high'].map((value) => ({ value, label: s(`predictTop.${value}`) })),
  });
  return h('div', { class: 'pl-predict' }, v.predict.el, v.topReveal);
}

// After scaling and softmax, how large will the top weight of the selected row i be? The answer
// is the engine's weight (with the temperature, masks and fill on screen).
export function drawTopWeight(c, v, { inputs, result }, i) {
  const { s } = c;
  const w = rowOf(result.weights, i);
  const top = max(w);
  const best = top === undefined ? -1 : w.indexOf(top);
  const band = !(top >= 0.5) ? 'low' : top > 0.9 ? 'high' : 'mid';
  const params = { q: inputs.queryTokens[i], k: best >= 0 ? inputs.keyTokens[best] : '—', w: fmt(top ?? NaN, 3) };
  v.predict.ask(s('predictTop.q', params));
  v.predict.draw(band, { right: s('predictTop.right', params), wrong: s('predictTop.wrong', params) });
  setText(
    v.topReveal,
    s('predictTop.reveal', {
      q: params.q,
      list: inputs.keyTokens.map((k, j) => s('mixItem', { k, w: fmt(w[j], 3) })).join(s('listSep')),
    }),
  );
}

// ---- step 4: the hand check and the bars ----------------------------------------------------------

// The box for the hand check (before the figures: the learner works the weights out first) and
// the bars (after them).
export function buildHandCheck(c, v) {
  v.guessBox = h('div', { class: 'guess-box' });
  v.barsBox = h('div', { class: 'bars-box' });
  return { guess: v.guessBox, bars: v.barsBox };
}

// Whether the engine's weights are kept back: the hand-check preset, until the learner asks.
const held = (c) => !!PRESETS[c.state.preset].publishedGuess && !c.ui.handShown;

export function drawHandCheck(c, v, { inputs, result }, i) {
  drawGuess(c, v, inputs);
  drawBars(c, v, inputs, result, i);
  const hold = held(c);
  holdStage(c, v, hold);
  if (v.barsBox.hidden !== hold) v.barsBox.hidden = hold;
}

// The selected row's weights as bars.
function drawBars(c, v, inputs, result, i) {
  if (!v.bars) v.bars = createBars(v.barsBox, { color: WEIGHT });
  const title = c.s('weightsOf', { token: inputs.queryTokens[i] });
  v.bars.update({
    values: rowOf(result.weights, i),
    labels: inputs.keyTokens,
    domain: [0, 1],
    caption: title,
    digits: 3,
  });
}

// The hand-check preset: the learner works the softmax of the typed row out by hand; the
// Softmax chapter's "check by hand" step checks it. A button takes the row there; another shows
// the engine's weights (drawn already, kept back until then).
function drawGuess(c, v, inputs) {
  const { s, state } = c;
  const p = PRESETS[state.preset];
  if (!p.publishedGuess) {
    v.guessBox.replaceChildren();
    v.guessBox.dataset.key = '';
    return;
  }
  const row = inputs.grids.scores[0];
  const key = row.join(',') + c.lang;
  if (v.guessBox.dataset.key === key) return;
  v.guessBox.dataset.key = key;
  const show = button(
    'btn hand-check-show',
    s('guessShow'),
    () => {
      c.ui.handShown = true;
      holdStage(c, v, false);
      v.barsBox.hidden = false;
      show.hidden = true;
    },
    { hidden: !!c.ui.handShown },
  );
  v.guessBox.replaceChildren(
    h('h4', { text: s('guessTitle') }),
    h('p', { class: 'hint', text: s('guessHint', { scores: row.join(', '), printed: p.publishedGuess.join(', ') }) }),
    h(
      'div',
      { class: 'controls' },
      button('btn primary hand-check-go', s('guessGo'), () => c.set(handCheckLink(c.state, row))),
      show,
    ),
  );
}
