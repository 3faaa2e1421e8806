// The playground's second mode: two RNN encoder–decoders (trainEngine.seq2seq, engine-train.js)
// train side by side in the training worker (../kit/training.js), one without attention (the
// fixed-vector bottleneck) and one with it, on the same seed and batches, at a pace a learner can
// watch. Every step leads with its figure and has the training panel (task, play / pause, step,
// reset, speed, attention kind) beside it. The state in the hash (task, attention kind, seed and
// the step the run stopped at) replays the same run. The steps are ./race.js, ./own.js and
// ./lengths.js, the pure logic ./logic.js.

import { h } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { intInput, selectInput } from '../../views/controls.js';
import { createTraining } from '../kit/training.js';
import { MAX_SEED } from '../../engine/choices.js';
import strings from './strings.js';
import meta, { S2S_TASKS, S2S_ATTENTIONS } from './meta.js';
import { RUNS, RUN_FIELDS, isLearned, runName, runsOf } from './logic.js';
import { raceStep } from './race.js';
import { ownStep } from './own.js';
import { lengthsStep } from './lengths.js';

const training = createTraining({
  prefix: 's2',
  fields: { step: 's2Step', speed: 's2Speed', task: 's2Task' },
  runOn: RUN_FIELDS,
  runsOf,
  tasks: (c) => S2S_TASKS.map((t) => ({ value: t, label: c.s(`task.${t}`) })),
  controls: (c, set) => {
    const attn = selectInput(
      c.s('attention'),
      S2S_ATTENTIONS.map((a) => ({ value: a, label: c.s(`attention.${a}`) })),
      (x) => set({ s2Attn: x }),
    );
    return [{ wrap: attn.wrap, sync: (state) => attn.sync(state.s2Attn) }];
  },
  rule: (c) => c.s(`rule.${c.state.s2Task}`),
  status: (c, hist) => {
    const params = {
      step: hist.main.step,
      none: fmt(hist.twin.latest.evalAccuracy, 3),
      attn: fmt(hist.main.latest.evalAccuracy, 3),
      speed: fmt(c.ui.rate, 1),
    };
    return c.s(c.ui.playing && c.ui.rate > 0 ? 'status' : 'statusIdle', params);
  },
  learnedLine: (c, hist) =>
    RUNS.filter((n) => hist[n] && hist[n].learnedAt !== null)
      .map((n) => c.s('learned', { run: runName(c, n), step: hist[n].learnedAt }))
      .join(c.s('gap')),
  learned: isLearned,
});

// ---- the settings: the seed -----------------------------------------------------------------------

function buildSettings(c, v) {
  v.seed = intInput(c.s('seed'), {
    min: 0,
    max: MAX_SEED,
    onValue: (x) => c.set({ s2Seed: x, s2Step: 0 }),
    error: (min, max) => c.s('errInt', { min, max }),
  });
  return h('div', { class: 'controls s2-settings', 'data-group': 'inputs' }, v.seed.wrap);
}

function drawSettings(c, data, v) {
  v.seed.sync(c.state.s2Seed);
}

// ---- the chapter ---------------------------------------------------------------------------------

export default training.chapter({
  meta,
  strings,
  // what the runs are made of besides the task and the attention kind, in "More settings"
  panel: { build: buildSettings, draw: drawSettings },
  steps: [raceStep(training), ownStep(training), lengthsStep()],
});
