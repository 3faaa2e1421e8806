// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { MAX_SEED, numberField, OPTIONS } from '../../engine/choices.js';

export default {
  id: 'scaling',
  title: { en: 'Why divide by √d_k', zh: '为什么要除以 √d_k' },
  engines: ['full'],
  questions: ['scaling/double'],
  state: {
    labDk: numberField(OPTIONS.varianceExperiment.dk),
    labSamples: { type: 'int', default: 100000, min: 1000, max: 1000000 },
    labSeed: { type: 'int', default: 1, min: 0, max: MAX_SEED },
    labScaled: { type: 'bool', default: false },
    labShared: { type: 'bool', default: false },
    labPair: numberField(OPTIONS.varianceSample.sample),
    labTau: { type: 'float', default: 1, min: 0.01, max: 100 },
    labKeys: numberField(OPTIONS.queryProbe.nKeys, { max: 64 }), // the figure shows up to 64 keys
    labTrial: { type: 'int', default: 0, min: 0, max: 9999 },
  },
};
