// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

export const MAX_TOKENS = 8; // tokens per sentence
export const RNN_LENGTHS = [8, 32, 128, 512]; // the parallel-vs-sequential measurement

export default {
  id: 'block',
  title: { en: 'The Transformer block', zh: 'Transformer 模块' },
  engines: ['full'],
  questions: ['block/residual'],
  state: {
    blSource: { type: 'list', item: 'string', default: ['The', 'cat', 'eats', 'fish'], maxItems: MAX_TOKENS },
    blTarget: { type: 'list', item: 'string', default: ['猫', '吃', '鱼'], maxItems: MAX_TOKENS },
    blAligned: { type: 'bool', default: false }, // the hand-set cross-attention preset
    blNormFirst: { type: 'bool', default: false },
    blAct: { type: 'enum', default: 'relu', values: ['relu', 'gelu'] },
    blResidual: { type: 'bool', default: true },
    blNorm: { type: 'bool', default: true },
    blLayers: { type: 'int', default: 6, min: 1, max: 6 },
    blHead: { type: 'int', default: 1, min: 1, max: 2 },
  },
};
