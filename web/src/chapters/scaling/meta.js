// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { MAX_SEED } from '../../engine/choices.js';

export default {
  id: 'scaling',
  title: { en: 'Why divide by √d_k', zh: '为什么要除以 √d_k' },
  engines: ['full'], // the lessons' whole engine: varianceSample, queryProbe
  questions: ['scaling/double'], // its predict-then-reveal questions (the start page counts them)
  state: {
    labDk: { type: 'int', default: 64, min: 1, max: 1024 },
    labSamples: { type: 'int', default: 100000, min: 1000, max: 1000000 },
    labSeed: { type: 'int', default: 1, min: 0, max: MAX_SEED },
    labScaled: { type: 'bool', default: false },
    labShared: { type: 'bool', default: false },
    labPair: { type: 'int', default: 0, min: 0, max: 999999 },
    labTau: { type: 'float', default: 1, min: 0.01, max: 100 },
    labKeys: { type: 'int', default: 16, min: 2, max: 64 },
    labTrial: { type: 'int', default: 0, min: 0, max: 9999 },
  },
};
