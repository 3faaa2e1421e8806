// Chapter 4: softmax. Stable vs naive (float32 exp overflows past ~88.72), temperature,
// softmax as a budget that sums to 1, hard vs soft attention with Gumbel-softmax in between,
// and a check of a softmax worked out by hand. One row of scores, typed by the learner; every
// weight and entropy comes from the engine (softmax, hardAttention, gumbelSoftmax).
//
// Beside every step's figure: the step's own controls, then the row of scores. Files: the row
// (scores.js), the hand check (hand-check.js), overflow (overflow.js), temperature and the
// budget (temperature.js), hard, soft and Gumbel (gumbel.js), and what they compare and count
// without the DOM (logic.js).

import strings from './strings.js';
import meta from './meta.js';
import { buildScores, drawScores } from './scores.js';
import { buildHandCheck, drawHandCheck, handCheckControls } from './hand-check.js';
import { buildOverflow, drawOverflow, overflowControls } from './overflow.js';
import {
  budgetControls,
  buildBudget,
  buildTemperature,
  drawBudget,
  drawTemperature,
  temperatureControls,
} from './temperature.js';
import { buildHardSoft, drawHardSoft, hardSoftControls } from './gumbel.js';

export default {
  ...meta,
  prefix: 'sm',
  strings,
  // The hand check comes first: every later step shows the weights it asks for. The budget and
  // the hard/soft rows use the shared temperature T, which only step 3 sets (shell.js shows it
  // with a reset on the others when it is not 1).
  steps: [
    {
      id: 'hand-check',
      title: { en: 'By hand first', zh: '先手算' },
      build: buildHandCheck,
      controls: handCheckControls,
      draw: drawHandCheck,
    },
    {
      id: 'overflow',
      title: { en: 'Overflow', zh: '溢出' },
      build: buildOverflow,
      controls: overflowControls,
      draw: drawOverflow,
    },
    {
      id: 'temperature',
      title: { en: 'Temperature', zh: '温度' },
      build: buildTemperature,
      controls: temperatureControls,
      draw: drawTemperature,
    },
    {
      id: 'budget',
      title: { en: 'A budget of 1', zh: '总额为 1 的预算' },
      build: buildBudget,
      controls: budgetControls,
      draw: drawBudget,
      carried: ['temperature'],
    },
    {
      id: 'hard-soft',
      title: { en: 'Hard and soft', zh: '硬与软' },
      build: buildHardSoft,
      controls: hardSoftControls,
      draw: drawHardSoft,
      carried: ['temperature'],
    },
  ],
  // Every step draws from the one row of scores, typed beside every figure.
  compute: (c) => c.state.smScores,
  controls: [{ steps: '*', build: buildScores, draw: drawScores }],
};
