// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { MAX_SEED } from '../../engine/choices.js';

export default {
  id: 'score-functions',
  title: { en: 'Score functions', zh: '打分函数' },
  questions: ['score-functions/winner'],
  state: {
    sfQuery: { type: 'int', default: 2, min: 0, max: 2 },
    sfSeed: { type: 'int', default: 7, min: 0, max: MAX_SEED },
    sfHidden: { type: 'int', default: 4, min: 1, max: 64 },
    sfDq: { type: 'int', default: 3, min: 1, max: 16 },
    sfDk: { type: 'int', default: 5, min: 1, max: 16 },
    sfN: { type: 'int', default: 64, min: 16, max: 128 },
  },
};
