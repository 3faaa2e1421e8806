// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

// The code languages of ../export.js (LANGS), named here so the page need not load that module first.
export const CODE_LANGS = ['numpy', 'torch'];

export default {
  id: 'practice',
  title: { en: 'From here to practice', zh: '从这里走向实践' },
  questions: ['practice/softmax-axis'], // its predict-then-reveal questions (the start page counts them)
  state: {
    prLang: { type: 'enum', default: 'numpy', values: CODE_LANGS },
  },
};
