// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns. The task and position names, the sizes' and the learning rate's
// ranges and defaults are the trainer's (trainEngine.options.createTrainer, read through
// ../../engine/choices.js).

import { CHOICES, TRAIN_OPTIONS, numberField } from '../../engine/choices.js';
import { SPEEDS, DEFAULT_SPEED } from '../kit/pace.js';

const TRAINER = TRAIN_OPTIONS.createTrainer;
// The learning rate a run starts with (the trainer's default) and the ones the page offers around
// it, about half a decade apart: 0.003 -> 0.0003, 0.001, 0.003, 0.01, 0.03.
const LEARNING_RATE = TRAINER.learningRate.default;
export const RATES = [1 / 10, 1 / 3, 1, 10 / 3, 10].map((f) => Number((LEARNING_RATE * f).toPrecision(1)));

export const TASKS = CHOICES.task;
export const POSITIONS = CHOICES.position;
export const COMPARES = ['none', 'scale', 'position']; // the second run: nothing, √d_k flipped, positions flipped

// "What happens without the scale": one click sets this and trains both runs (with and without
// √d_k, the same seed) to NO_SCALE_STEPS; the page's verdict reads both runs at NO_SCALE_FROM and
// NO_SCALE_STEPS. Found by real runs (bench/scale_bench.mjs prints them for several seeds): with
// two layers of one head at d_k = 128 and learning rate 0.003, the scaled run learns
// previous-token within about 20 steps; the unscaled one needs hundreds (at seed 1 its training
// loss is still about 2.2 at step 200 and 1.8 at step 300, where it is right on about half of the
// held-out positions; it gets to 0.87 by step 1,000).
export const NO_SCALE = Object.freeze({
  pgTask: 'previous-token',
  pgLayers: 2,
  pgHeads: 1,
  pgD: 128,
  pgLr: LEARNING_RATE,
  pgSeed: 1,
  pgScale: true,
  pgPos: 'learned',
  pgCompare: 'scale',
});
export const NO_SCALE_STEPS = 300;
export const NO_SCALE_FROM = 100;

// Heads that learned (the multi-head chapter links here next to its hand-built and untrained
// ones): the induction task on two layers of two heads, replayed to step 300. By then a head of
// layer 1 looks at the previous token and the heads of layer 2 at the token after the current
// one's last occurrence (previous-token score about 0.5, induction scores about 0.8; checked by
// tests/js/learned-heads.test.js). The patch for c.set.
export const learnedHeadsLink = () => ({
  lesson: 'playground',
  stage: 'train',
  pgTask: 'induction',
  pgLayers: 2,
  pgHeads: 2,
  pgD: 32,
  pgLr: LEARNING_RATE,
  pgSeed: 1,
  pgScale: true,
  pgPos: 'learned',
  pgCompare: 'none',
  pgStep: 300,
});

export default {
  id: 'playground',
  title: { en: 'Attention playground', zh: '注意力训练场' },
  questions: ['playground/untrained'],
  state: {
    pgTask: { type: 'enum', default: 'previous-token', values: [...TASKS] },
    pgLayers: numberField(TRAINER.layers),
    pgHeads: numberField(TRAINER.heads),
    pgD: numberField(TRAINER.dModel, { default: 32 }), // smaller than the trainer's: it learns at a watchable pace
    pgLr: numberField(TRAINER.learningRate),
    pgSeed: numberField(TRAINER.seed, { default: 1 }),
    pgScale: { type: 'bool', default: true },
    pgPos: { type: 'enum', default: 'learned', values: [...POSITIONS] },
    pgCompare: { type: 'enum', default: 'none', values: COMPARES },
    // a link replays its run from step 0: at most 10,000 steps (minutes, not hours, at the largest size)
    pgStep: { type: 'int', default: 0, min: 0, max: 10000 },
    pgSpeed: { type: 'enum', default: DEFAULT_SPEED, values: SPEEDS }, // how fast it trains (kit/pace.js)
    pgLayer: numberField(TRAINER.layers, { default: 1 }), // the layer and head the figures show
    pgHead: numberField(TRAINER.heads, { default: 1 }),
    pgInput: { type: 'list', item: 'string', default: [], maxItems: 32, itemMaxLength: 2 },
  },
};
