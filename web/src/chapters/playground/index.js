// Lesson 13: the attention playground. A tiny attention-only transformer (../../engine-train.js)
// learns a toy task in a Web Worker (../kit/training.js, ../../workers/train-client.js) at a pace a
// learner can watch; every step leads with its figure and has the training panel (task, play /
// pause, step, reset, speed, learning rate) beside it. A second model can train next to it with
// √d_k scaling or the positional encoding switched. The state in the hash (task, sizes, learning
// rate, seed, switches and the step the run stopped at) replays the same run: a seed fixes the
// weights and every batch. The steps are ./train.js, ./compare.js, ./inspect.js and
// ./induction.js, their figures ./figures.js, the pure logic ./logic.js.

import { h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { intInput, selectInput, numberSelect } from '../../views/controls.js';
import { createTraining } from '../kit/training.js';
import { MAX_SEED } from '../../engine/choices.js';
import strings from './strings.js';
import meta, { RATES, TASKS, POSITIONS } from './meta.js';
import { RUN_FIELDS, learnedAccuracy, runsOf, scoreTracks, INDUCTION_MARK } from './logic.js';
import { trainStep } from './train.js';
import { compareStep } from './compare.js';
import { inspectStep } from './inspect.js';
import { inductionStep } from './induction.js';

const D_MODELS = [16, 32, 64, 128];

const training = createTraining({
  prefix: 'pg',
  fields: { step: 'pgStep', speed: 'pgSpeed', task: 'pgTask' },
  runOn: RUN_FIELDS,
  runsOf,
  tasks: (c) => TASKS.map((t) => ({ value: t, label: c.s(`task.${t}`) })),
  controls: (c, set) => {
    const lr = numberSelect(c.s('learningRate'), RATES, (x) => set({ pgLr: x }));
    return [{ wrap: lr.wrap, sync: (state) => lr.sync(state.pgLr) }];
  },
  rule: (c) => c.s(`rule.${c.state.pgTask}`),
  status: (c, hist) => {
    const { step, latest: r } = hist.main;
    const params = { step, acc: fmt(r.evalAccuracy, 3), loss: fmt(r.evalLoss, 3), speed: fmt(c.ui.rate, 1) };
    return c.s(c.ui.playing && c.ui.rate > 0 ? 'status' : 'statusIdle', params);
  },
  learnedLine: (c, hist) =>
    hist.main.learnedAt === null
      ? ''
      : c.s('learned', { step: hist.main.learnedAt, acc: fmt(learnedAccuracy(c.state.pgTask), 2) }),
  accuracy: (r) => r.evalAccuracy,
  learned: (r, state) => r.evalAccuracy >= learnedAccuracy(state.pgTask),
  clear: (ui) => {
    ui.ablation = null;
    ui.ablate = [];
  },
  track: scoreTracks,
  marks: { induction: (r) => !!r.scores && Math.max(...r.scores.induction) >= INDUCTION_MARK },
});

// ---- the settings: what the runs are made of besides the task and the learning rate ------------------

function buildSettings(c, v) {
  const { s } = c;
  const set = (patch) => c.set({ ...patch, pgStep: 0 });
  const choose = (label, values, field) => numberSelect(label, values, (x) => set({ [field]: x }));
  v.layers = choose(s('layers'), [1, 2], 'pgLayers');
  v.heads = choose(s('heads'), [1, 2, 4], 'pgHeads');
  v.d = choose(s('dModel'), D_MODELS, 'pgD');
  v.seed = intInput(s('seed'), {
    min: 0,
    max: MAX_SEED,
    onValue: (x) => set({ pgSeed: x }),
    error: (min, max) => s('errInt', { min, max }),
  });
  v.pos = selectInput(
    s('position'),
    POSITIONS.map((p) => ({ value: p, label: s(`position.${p}`) })),
    (x) => set({ pgPos: x }),
  );
  v.scale = h('input', { type: 'checkbox', onchange: (e) => set({ pgScale: e.target.checked }) });
  v.about = h('p', { class: 'about' });
  return h(
    'div',
    { class: 'pg-settings', 'data-group': 'inputs' },
    h('div', { class: 'controls pg-controls' }, v.layers.wrap, v.heads.wrap, v.d.wrap, v.seed.wrap, v.pos.wrap),
    h('label', { class: 'check' }, v.scale, h('span', { text: s('scale') })),
    v.about,
  );
}

function drawSettings(c, data, v) {
  const { state } = c;
  v.layers.sync(state.pgLayers);
  v.heads.sync(state.pgHeads);
  v.d.sync(state.pgD);
  v.seed.sync(state.pgSeed);
  v.pos.sync(state.pgPos);
  v.scale.checked = state.pgScale;
  setText(v.about, c.s('settingsAbout'));
}

// ---- the chapter ---------------------------------------------------------------------------------

// no compute(): the worker's reports are what every step draws
export default training.chapter({
  meta,
  strings,
  // what the runs are made of besides the task and the learning rate, in "More settings"
  panel: { build: buildSettings, draw: drawSettings },
  steps: [
    trainStep(training),
    compareStep(training),
    inspectStep(training),
    inductionStep(training, training.redrawStep),
  ],
});
