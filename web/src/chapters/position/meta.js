// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

export const MAX_TOKENS = 8; // tokens per sentence

export default {
  id: 'position',
  title: { en: 'Position', zh: '位置编码' },
  questions: ['position/shuffle'],
  state: {
    posA: { type: 'list', item: 'string', default: ['我', '爱', '你'], maxItems: MAX_TOKENS },
    posB: { type: 'list', item: 'string', default: ['你', '爱', '我'], maxItems: MAX_TOKENS },
    posPE: { type: 'bool', default: false },
    posN: { type: 'int', default: 32, min: 1, max: 128 },
    posDim: { type: 'int', default: 16, min: 2, max: 64 },
    posRopeD: { type: 'int', default: 8, min: 2, max: 64 },
    posM1: { type: 'int', default: 5, min: 0, max: 10000 },
    posN1: { type: 'int', default: 2, min: 0, max: 10000 },
    posM2: { type: 'int', default: 9, min: 0, max: 10000 },
    posN2: { type: 'int', default: 6, min: 0, max: 10000 },
  },
};
