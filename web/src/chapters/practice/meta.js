// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { LIMITS } from '../../engine/choices.js';

// The code languages of ../export.js (LANGS), named here so the page need not load that module first.
const CODE_LANGS = ['numpy', 'torch'];

const MAX_LAYER_TOKENS = 12; // tokens of the multi-head step's layer

// The link into this chapter's multi-head step with a given self-attention layer (tokens,
// d_model, heads): the patch for c.set (the multi-head chapter sends its layer here).
export const layerCodeLink = ({ tokens, d, heads }) => ({
  lesson: 'practice',
  stage: 'multihead',
  prTokens: tokens,
  prD: d,
  prH: heads,
});

export default {
  id: 'practice',
  title: { en: 'From here to practice', zh: '从这里走向实践' },
  engines: ['full'],
  questions: ['practice/softmax-axis'],
  state: {
    prLang: { type: 'enum', default: 'numpy', values: CODE_LANGS },
    // the multi-head step's layer (self-attention over these tokens)
    prTokens: { type: 'list', item: 'string', default: ['猫', '吃', '鱼'], maxItems: MAX_LAYER_TOKENS },
    prD: { type: 'int', default: 12, min: 1, max: 64 },
    prH: { type: 'int', default: 3, min: 1, max: LIMITS.maxHeads },
  },
};
