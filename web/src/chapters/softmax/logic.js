// The Softmax chapter without the DOM: the float32 limits of exp, the slider stops, the keys'
// names, and what the steps read off the engine's weights (why a naive softmax broke, the
// cooler question's answer, the Gumbel winners, the hand check's verdict). Every weight comes
// from the engine; this only compares and counts.

import { PRESETS } from '../../lesson/example.js';

// The weights an article printed for the row of the translation example while writing 猫.
export const PRINTED = PRESETS['hand-check'].publishedGuess;
export const EXP_OVERFLOW = 88.72; // ln(largest float32): exp of anything larger is +∞
const EXP_SUBNORMAL = -87.34; // ln(smallest normal float32): below it exp loses precision
export const EXP_UNDERFLOW = -103.97; // ln(2^-150), half the smallest float32: exp of anything smaller is 0
export const T_STOPS = [0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10];
export const TAU_STOPS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 2, 5];
export const GUMBEL_SAMPLES = 5; // draws shown one by one
export const GUMBEL_DRAWS = 1000; // draws counted: how often each key wins
const TOLERANCE = 0.005; // per weight, for the hand check
const SUM_TOLERANCE = 0.01;
const SAME = 1e-4; // two weights that agree to 4 decimals

// The keys' names: the example's words (The, cat, eats, fish) while the row has one score per
// word, s1, s2, … for a row of another length.
const EXAMPLE_WORDS = PRESETS['hand-check'].keyTokens;
export const labelsOf = (n) =>
  n === EXAMPLE_WORDS.length ? EXAMPLE_WORDS.slice() : Array.from({ length: n }, (_, k) => `s${k + 1}`);

// Which sentence compares the Gumbel draws with the soft row, chosen from the shared
// temperature T: the draws follow softmax at temperature 1, the soft row uses T.
// Pure: T -> [key, params] of softmax/strings.js.
export function gumbelCompare(T) {
  return T === 1 ? ['gumbel.sameT', {}] : ['gumbel.otherT', { T }];
}

// The naive softmax against the stable one on the shifted scores: { nans: weights that are not
// finite, off: finite weights that differ, same: the stable weights still equal those of the
// unshifted row (base), allUnder: every exp underflowed, tiny: some exp lost precision, cause:
// 'overflow' | 'underflow' | 'subnormal' | '' }.
export function overflowVerdict(shifted, stable, naive, base) {
  const nans = naive.filter((x) => !Number.isFinite(x)).length;
  const off = naive.filter((x, k) => Number.isFinite(x) && Math.abs(x - stable[k]) > SAME).length;
  const same = base.every((x, k) => Math.abs(x - stable[k]) <= SAME);
  // Why: every exponential underflowed to 0 (0/0), or one overflowed to ∞ (∞/∞); tiny ones
  // (subnormal or 0) make finite weights wrong.
  const allUnder = shifted.every((x) => x < EXP_UNDERFLOW);
  const tiny = shifted.some((x) => x < EXP_SUBNORMAL);
  const cause = nans ? (allUnder ? 'underflow' : 'overflow') : off && tiny ? 'subnormal' : '';
  return { nans, off, same, allUnder, tiny, cause };
}

// The cooler question: does the top weight at T = 1 go up, stay or go down at T = 0.1?
// -> { answer: 'up' | 'same' | 'down', top: its key's index }.
export function coolerAnswer(w1, w01) {
  const top = w1.indexOf(Math.max(...w1));
  const d = w01[top] - w1[top];
  return { answer: d > 1e-6 ? 'up' : d < -1e-6 ? 'down' : 'same', top };
}

// How often each key wins (has the largest weight) over the rows of an engine matrix.
export function winsOf(m) {
  const wins = new Array(m.cols).fill(0);
  for (let i = 0; i < m.rows; i++) {
    const row = m.data.subarray(i * m.cols, (i + 1) * m.cols);
    let best = 0;
    for (let j = 1; j < m.cols; j++) if (row[j] > row[best]) best = j;
    wins[best]++;
  }
  return wins;
}

// A hand-computed row against the engine's weights: { diffs, ok: per key within TOLERANCE,
// sum: of the learner's numbers, sumOk: within SUM_TOLERANCE of 1 }.
export function handVerdict(guess, weights) {
  const diffs = guess.map((g, k) => Math.abs(g - weights[k]));
  const sum = guess.reduce((a, b) => a + b, 0);
  return { diffs, ok: diffs.map((d) => d <= TOLERANCE), sum, sumOk: Math.abs(sum - 1) <= SUM_TOLERANCE };
}
