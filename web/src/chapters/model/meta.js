// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

export const STAGES = ['scores', 'scaled', 'masked', 'weights', 'output'];
export const MAX_TEXT = 400; // characters of the sentence in a link
export const MAX_HEADS = 1024; // ablated heads a link can name (GPT-2 XL has 48 × 25)

export default {
  id: 'model',
  title: { en: 'A real model', zh: '真实的模型' },
  questions: ['model/next', 'model/induction-layer', 'model/matters'],
  state: {
    // the sentence; '' is the example sentence of the page's language
    mdText: { type: 'string', default: '', maxLength: MAX_TEXT },
    mdPos: { type: 'int', default: -1, min: -1, max: 100000 }, // the position read; -1: the last
    mdLayer: { type: 'int', default: 2, min: 0, max: 1000 }, // the head opened (its layer …
    mdHead: { type: 'int', default: 0, min: 0, max: 1000 }, //  … and its index in the layer)
    mdStage: { type: 'enum', default: 'weights', values: STAGES },
    mdAblate: { type: 'list', item: 'string', default: [], maxItems: MAX_HEADS, itemMaxLength: 12 }, // "layer.head"
    // which model: '' the shipped one; 'file:<name>' a learner's own file (the link says which
    // file it needs); a course author's hosted checkpoint is modelSrc (also the element's
    // model-src attribute): the URL of its model.safetensors, config.json beside it
    mdModel: { type: 'string', default: '', maxLength: 200 },
    modelSrc: { type: 'string', default: '', maxLength: 2000 },
  },
};
