// The Softmax chapter's logic (web/src/chapters/softmax/logic.js) on rows worked out here: why a
// naive softmax broke, the cooler question's answer, the Gumbel winners and the hand check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  labelsOf,
  overflowVerdict,
  coolerAnswer,
  winsOf,
  handVerdict,
  EXP_OVERFLOW,
  EXP_UNDERFLOW,
} from '../../web/src/chapters/softmax/logic.js';

// A softmax in double precision, the reference here.
const softmax = (row, T = 1) => {
  const m = Math.max(...row);
  const e = row.map((x) => Math.exp((x - m) / T));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
};

test('the keys are the example words for a row of four, s1 … sn otherwise', () => {
  assert.deepEqual(labelsOf(4), ['The', 'cat', 'eats', 'fish']);
  assert.deepEqual(labelsOf(3), ['s1', 's2', 's3']);
});

test('overflowVerdict: overflow, underflow and a lost precision are told apart', () => {
  const row = [2.6, 1.2, 6.1, 2.0];
  const w = softmax(row);
  // Shifted past ln(largest float32): the naive exp is ∞ for one key, ∞/∞ = NaN.
  const up = row.map((x) => x + 90);
  assert.ok(up[2] > EXP_OVERFLOW);
  let v = overflowVerdict(up, w, [0, 0, NaN, 0], w);
  assert.deepEqual([v.nans, v.off, v.same, v.allUnder, v.cause], [1, 3, true, false, 'overflow']);
  // Shifted far below: every exp is 0, 0/0 = NaN everywhere.
  const down = row.map((x) => x - 120);
  assert.ok(down.every((x) => x < EXP_UNDERFLOW));
  v = overflowVerdict(down, w, [NaN, NaN, NaN, NaN], w);
  assert.deepEqual([v.nans, v.off, v.allUnder, v.cause], [4, 0, true, 'underflow']);
  // Subnormal exponentials: finite weights, but wrong ones.
  const low = row.map((x) => x - 95);
  v = overflowVerdict(low, w, [0, 0, 1, 0], w);
  assert.deepEqual([v.nans, v.off, v.tiny, v.cause], [0, 4, true, 'subnormal']);
  // Nothing shifted: the naive weights are the stable ones.
  v = overflowVerdict(row, w, w, w);
  assert.deepEqual([v.nans, v.off, v.cause], [0, 0, '']);
});

test('coolerAnswer: at T = 0.1 the top weight of the example row goes up; equal scores stay', () => {
  const row = [2.6, 1.2, 6.1, 2.0];
  assert.deepEqual(coolerAnswer(softmax(row), softmax(row, 0.1)), { answer: 'up', top: 2 });
  assert.equal(coolerAnswer(softmax([1, 1]), softmax([1, 1], 0.1)).answer, 'same');
});

test('winsOf counts the largest weight of each row, the first on ties', () => {
  const m = { rows: 3, cols: 3, data: Float32Array.from([0.1, 0.8, 0.1, 0.5, 0.5, 0, 0.2, 0.3, 0.5]) };
  assert.deepEqual(winsOf(m), [1, 1, 1]);
});

test('handVerdict: each weight within 0.005, the sum within 0.01 of 1', () => {
  const w = softmax([2.6, 1.2, 6.1, 2.0]);
  const good = w.map((x) => Number(x.toFixed(3)));
  let v = handVerdict(good, w);
  assert.deepEqual([v.ok, v.sumOk], [[true, true, true, true], true]);
  // The row an article printed: no sum of 1, and only one weight close.
  v = handVerdict([0.2, 0.06, 0.1, 0.1], w);
  assert.deepEqual(v.ok, [false, false, false, false]);
  assert.equal(v.sumOk, false);
  assert.ok(Math.abs(v.sum - 0.46) < 1e-12);
});
