// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { MAX_TOKENS } from '../../lesson/example.js';

export default {
  id: 'masks',
  title: { en: 'Masks', zh: '掩码' },
  questions: ['masks/two-token'],
  carried: ['temperature'], // set in Softmax; shown here with a reset (shell.js)
  state: {
    blockRow: { type: 'int', default: 0, min: 0, max: MAX_TOKENS - 1 }, // query row for step 4
    twoMasked: { type: 'int', default: 1, min: 0, max: 1 }, // two-token check: which key is masked
  },
};
