// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

import { LIMITS } from '../../engine/choices.js';
export const ROLE_SLOTS = 8; // positions and distinct words the hand-built layer can tell apart
export const MAX_TOKENS = 12; // tokens per side
export const MAX_D_MODEL = 768; // d_model of the heads step (768 = 12 × 64, a base-size Transformer)

// The link into this chapter's heads step (self-attention) with a given layer (tokens, d_model,
// heads): the patch for c.set (how another chapter sends the learner here).
export const layerLink = ({ tokens, d, heads }) => ({
  lesson: 'multihead',
  stage: 'heads',
  mhTokens: tokens,
  mhD: d,
  mhH: heads,
});

export default {
  id: 'multihead',
  title: { en: 'Projections and multi-head', zh: '投影与多头注意力' },
  questions: ['multihead/head-1'],
  state: {
    mhMode: { type: 'enum', default: 'cross', values: ['self', 'cross'] },
    mhTokens: { type: 'list', item: 'string', default: ['猫', '吃', '鱼'], maxItems: MAX_TOKENS },
    mhSource: { type: 'list', item: 'string', default: ['The', 'cat', 'eats', 'fish'], maxItems: MAX_TOKENS },
    mhProjD: { type: 'int', default: 6, min: 2, max: 16 },
    mhD: { type: 'int', default: 12, min: 1, max: MAX_D_MODEL },
    mhH: { type: 'int', default: 3, min: 1, max: LIMITS.maxHeads },
    mhRoleTokens: {
      type: 'list',
      item: 'string',
      default: ['the', 'cat', 'sat', 'on', 'the', 'mat'],
      maxItems: ROLE_SLOTS,
    },
    mhStrength: { type: 'int', default: 8, min: 0, max: 20 },
    mhBreakPrev: { type: 'bool', default: false },
    mhBreakMatch: { type: 'bool', default: false },
    mhManyH: { type: 'int', default: 8, min: 1, max: LIMITS.maxHeads },
  },
};
