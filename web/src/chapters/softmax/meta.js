// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { MAX_TOKENS, PRESETS } from '../../lesson/example.js';
import { MAX_SEED } from '../../engine/choices.js';

// The row of the translation example while writing 猫.
export const DEFAULT_SCORES = PRESETS['hand-check'].scores[0];

export default {
  id: 'softmax',
  title: { en: 'Softmax', zh: 'Softmax' },
  questions: ['softmax/cooler'],
  state: {
    smScores: { type: 'list', item: 'float', default: DEFAULT_SCORES, maxItems: MAX_TOKENS }, // the row of scores
    smShift: { type: 'float', default: 0, min: -120, max: 120 }, // added to every score (overflow step)
    gumbelTau: { type: 'float', default: 0.5, min: 0.01, max: 100 },
    gumbelSeed: { type: 'int', default: 1, min: 0, max: MAX_SEED }, // its own, so drawing does not reseed the random example
    smGuess: { type: 'list', item: 'float', default: [], maxItems: MAX_TOKENS }, // the learner's hand-computed weights
  },
};

// The link other chapters use to open the hand check on a row of scores (the pipeline's
// hand-check preset sends its row here). A new row starts with no answer; the same row keeps
// the learner's. Returns the patch for c.set.
export function handCheckLink(state, scores) {
  const same = scores.length === state.smScores.length && scores.every((x, j) => x === state.smScores[j]);
  return { lesson: 'softmax', stage: 'hand-check', smScores: scores, ...(same ? {} : { smGuess: [] }) };
}
