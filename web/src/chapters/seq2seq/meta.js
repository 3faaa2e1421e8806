// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns. The task and attention names are the trainer module's
// (trainEngine.choices.seq2seqTask / .attention, pinned in ../../engine/choices.js).

import { CHOICES, MAX_SEED } from '../../engine/choices.js';
import { SPEEDS, DEFAULT_SPEED } from '../kit/pace.js';

export const S2S_TASKS = CHOICES.seq2seqTask;
export const S2S_ATTENTIONS = CHOICES.attention.filter((a) => a !== 'none'); // the second model's; the first has none

export default {
  id: 'seq2seq',
  title: { en: 'Playground: encoder–decoder', zh: '训练场：编码器–解码器' },
  questions: ['seq2seq/longest'],
  state: {
    s2Task: { type: 'enum', default: 'copy', values: [...S2S_TASKS] },
    s2Attn: { type: 'enum', default: 'additive', values: S2S_ATTENTIONS },
    s2Seed: { type: 'int', default: 1, min: 0, max: MAX_SEED },
    s2Step: { type: 'int', default: 0, min: 0, max: 100000 },
    s2Speed: { type: 'enum', default: DEFAULT_SPEED, values: SPEEDS }, // how fast it trains (kit/pace.js)
    s2Input: { type: 'list', item: 'string', default: [], maxItems: 24, itemMaxLength: 8 },
  },
};

// The patch that opens this chapter on a task with one attention kind (from lesson 1 and the
// score-functions lesson).
export function seq2seqLink(task = 'copy', attention = 'additive') {
  return { lesson: 'seq2seq', stage: 'race', s2Task: task, s2Attn: attention, s2Step: 0 };
}
