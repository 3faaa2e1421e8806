// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { term } from '../../text/glossary.js';

import { MAX_TOKENS, MAX_DK } from '../../lesson/example.js';
import { GEO_FIELD } from '../../lesson/geometry.js';

export default {
  id: 'pipeline',
  title: { en: 'The pipeline, step by step', zh: term('pipeline', 'zh') },
  questions: ['pipeline/top-weight'],
  // Shared settings that change this chapter's numbers but have no control in it: the shell
  // shows them, with a reset, when another chapter changed them.
  carried: ['temperature', 'fill', 'stable', 'reverseCausal', 'customMask'],
  state: {
    selRow: { type: 'int', default: 0, min: 0, max: MAX_TOKENS - 1 }, // selected query row
    selCol: { type: 'int', default: 0, min: -1, max: MAX_DK - 1 }, // selected column, -1 = whole row
    plArrows: GEO_FIELD, // the scores step's geometry figure: rows q, k_1 … k_4; [] = the example
  },
};
