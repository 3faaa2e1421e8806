// The encoder–decoder playground's pure logic (./index.js draws it; tests/js/seq2seq-logic.test.js
// checks it in Node): the two runs a state trains, when a run counts as learned, and the answer to
// the question about the longest inputs. No DOM, no engine.

// The state's fields the runs are made of: a change of one starts them again from step 0.
export const RUN_FIELDS = ['s2Task', 's2Attn', 's2Seed'];
export const RUNS = ['twin', 'main']; // twin: no attention; main: with the chosen attention

// The two runs: 'main' with the chosen attention, 'twin' the same model without it.
export function runsOf(state) {
  const base = { kind: 'seq2seq', task: state.s2Task, seed: state.s2Seed };
  return { main: { ...base, attention: state.s2Attn }, twin: { ...base, attention: 'none' } };
}

// A run's name: without attention, or with the chosen kind (c: the chapter instance).
export const runName = (c, name) =>
  name === 'twin' ? c.s('runNone') : c.s('runAttn', { kind: c.s(`attention.${c.state.s2Attn}`) });

// A run is learned once at every input length (2 to 24) at least LEARNED of the held-out tokens
// are right (greedy decoding: evaluateByLength()).
const LEARNED = 0.95;
export const isLearned = (r) => r.step > 0 && Math.min(...r.byLength.tokenAccuracy) >= LEARNED;

// Predict, then reveal: on the longest inputs, which model gets more of the output right? Within
// 0.05 of each other counts as the same.
export const GUESSES = ['none', 'attn', 'same'];
export function longestAnswer(withAttention, without) {
  const last = withAttention.lengths.length - 1;
  const attn = withAttention.tokenAccuracy[last],
    none = without.tokenAccuracy[last];
  return {
    length: withAttention.lengths[last],
    attn,
    none,
    answer: Math.abs(attn - none) < 0.05 ? 'same' : attn > none ? 'attn' : 'none',
  };
}

// Whether a sentence is made of the task's words (1 to 24 of them).
export const isOwnSentence = (words, vocabulary) =>
  words.length >= 1 && words.length <= 24 && words.every((w) => vocabulary.includes(w));
