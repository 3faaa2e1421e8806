// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { CHOICES, LIMITS } from '../../engine/choices.js';

export const PAD = '<pad>'; // a token that is padding: never attended to
export const MAX_TOKENS = 12;

export default {
  id: 'debug',
  title: { en: 'Debugging attention', zh: '调试注意力' },
  engines: ['full'],
  questions: ['debug/zero-fill'],
  state: {
    dbTokens: {
      type: 'list',
      item: 'string',
      default: ['The', 'cat', 'sat', 'on', 'a', 'mat', PAD, PAD],
      maxItems: MAX_TOKENS,
    },
    dbBug: { type: 'enum', default: 'none', values: CHOICES.bug }, // the engine's bug names
    dbDk: { type: 'int', default: 16, min: 1, max: LIMITS.maxDim },
    dbHeads: { type: 'int', default: 8, min: 1, max: LIMITS.maxHeads },
    dbScale: { type: 'float', default: 1, min: 0.01, max: 100 },
    dbSmall: { type: 'float', default: 0.03, min: 0.001, max: 10 },
  },
};
