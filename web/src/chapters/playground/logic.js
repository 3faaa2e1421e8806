// The attention playground's pure logic (./index.js draws it; tests/js/playground-logic.test.js
// checks it in Node): the runs a state trains, how a task's tokens read, when a task counts as
// learned, the answer to the untrained-model question, the verdict of "what happens without the
// scale" and the induction mark. No DOM, no engine.

import { NO_SCALE } from './meta.js';

// The state's fields the runs are made of: a change of one starts them again from step 0.
export const RUN_FIELDS = ['pgTask', 'pgLayers', 'pgHeads', 'pgD', 'pgLr', 'pgSeed', 'pgScale', 'pgPos', 'pgCompare'];

export function configOf(state) {
  return {
    task: state.pgTask,
    layers: state.pgLayers,
    heads: state.pgHeads,
    dModel: state.pgD,
    learningRate: state.pgLr,
    seed: state.pgSeed,
    scale: state.pgScale,
    position: state.pgPos,
  };
}

// The twin of a run: the same with one switch flipped (or none).
export function twinOf(config, compare) {
  if (compare === 'scale') return { ...config, scale: !config.scale };
  if (compare === 'position') return { ...config, position: config.position === 'none' ? 'learned' : 'none' };
  return null;
}

export function runsOf(state) {
  const main = configOf(state);
  const twin = twinOf(main, state.pgCompare);
  return twin ? { main, twin } : { main };
}

// ---- the tasks -------------------------------------------------------------------------------------

export const vocabOf = (task) => (task === 'reverse' || task === 'sort' ? 11 : task === 'random-induction' ? 64 : 16);
export const lengthOf = (task) => (task === 'random-induction' ? 32 : 16);

// How a token reads: the separator of reverse and sort is |; a position without a target is ·.
export const tokenText = (task, x) => ((task === 'reverse' || task === 'sort') && x === 10 ? '|' : String(x));
export const tokensText = (task, list) => Array.from(list, (x) => (x < 0 ? '·' : tokenText(task, x))).join(' ');

// The held-out accuracy that counts as learned: 0.99, but 0.9 in random-induction, where a model
// that has learned the task levels off at 0.95 to 0.97 of the predictable positions (seeds 1 to 3,
// 3,000 steps at the page's default size) and 0.9 marks the end of its phase change.
export const learnedAccuracy = (task) => (task === 'random-induction' ? 0.9 : 0.99);

// Every head's two scores as curves of the run: 'ind.<k>' and 'prev.<k>', k = layer * heads + head.
export function scoreTracks(r) {
  const out = {};
  if (!r.scores) return out;
  r.scores.induction.forEach((y, k) => (out[`ind.${k}`] = y));
  r.scores.previousToken.forEach((y, k) => (out[`prev.${k}`] = y));
  return out;
}

// ---- predict, then reveal: how often is the untrained model right? --------------------------------

export const GUESSES = ['chance', 'half', 'all'];

// The guess nearest the untrained model's held-out accuracy: a blind guess, a half, all.
export function untrainedAnswer(acc, vocab) {
  const at = { chance: 1 / vocab, half: 0.5, all: 1 };
  return GUESSES.reduce((best, g) => (Math.abs(acc - at[g]) < Math.abs(acc - at[best]) ? g : best));
}

// ---- what happens without the scale -------------------------------------------------------------

// Is the state the preset's (meta.js NO_SCALE), a link to it included?
export const isNoScale = (state) => Object.entries(NO_SCALE).every(([k, x]) => state[k] === x);

// What the two runs of the preset show at step `to`: each run's training loss at steps `from` and
// `to` (the points of its curve there) and its held-out accuracy at `to`, and the step where the
// scaled run was learned. null until both curves have reached `to`.
export function noScaleNumbers(scaled, unscaled, from, to) {
  const at = (points, x) => points.find((p) => p.x === x);
  const one = (hist) => {
    const l0 = at(hist.loss, from),
      l1 = at(hist.loss, to),
      a = at(hist.acc, to);
    return l0 && l1 && a ? { from: l0.y, to: l1.y, acc: a.y } : null;
  };
  const s = one(scaled),
    u = one(unscaled);
  return s && u ? { scaled: s, unscaled: u, learnedAt: scaled.learnedAt } : null;
}

// ---- induction heads -------------------------------------------------------------------------------

export const INDUCTION_MARK = 0.4; // the induction score whose first crossing is marked

export const headName = (k, heads) => ({ l: Math.floor(k / heads) + 1, h: (k % heads) + 1 });

// The first recorded step at which a head's induction score reached the mark, and that head.
export function crossing(hist, count) {
  if (!hist || hist.marks.induction === undefined) return null;
  const step = hist.marks.induction;
  for (let k = 0; k < count; k++) {
    const p = (hist.tracks[`ind.${k}`] || []).find((q) => q.x === step);
    if (p && p.y >= INDUCTION_MARK) return { step, k };
  }
  return { step, k: 0 };
}
