// The √d_k chapter's theory (web/src/chapters/scaling/theory.js) against tabulated values of
// the normal distribution and the moments of q·k worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  normalCdf,
  expectedCount,
  expectedRanges,
  DK_STOPS,
  SAMPLE_STOPS,
  TAU_STOPS,
  temperatureTex,
} from '../../web/src/chapters/scaling/theory.js';

test('normalCdf matches the table of Φ to 1.5e-7', () => {
  // Φ(z) from a standard table (to 10 digits).
  const table = [
    [0, 0.5],
    [1, 0.8413447461],
    [-1, 0.1586552539],
    [1.96, 0.9750021049],
    [-2.5, 0.0062096653],
    [4, 0.9999683288],
  ];
  for (const [z, p] of table) assert.ok(Math.abs(normalCdf(z) - p) < 1.5e-7, `Φ(${z}) = ${normalCdf(z)}, table ${p}`);
  // One standard deviation either side holds 68.27 % of N(0, 64) draws.
  assert.ok(Math.abs(expectedCount(1e5, 8, -8, 8) - 68268.9) < 0.1);
});

test('expectedRanges: ±1.96 standard errors of the mean and of the variance of q·k', () => {
  // d_k = 64, n = 100,000: SE(mean) = √(64/1e5); Var(x²) = 2·64² + 6·64 = 8576, SE(var) = √(8576/1e5).
  const raw = expectedRanges(64, 1e5, false);
  assert.ok(Math.abs(raw.mean[1] - 1.96 * Math.sqrt(64 / 1e5)) < 1e-12);
  assert.ok(Math.abs(raw.variance[0] - (64 - 1.96 * Math.sqrt(8576 / 1e5))) < 1e-12);
  const scaled = expectedRanges(64, 1e5, true);
  assert.ok(Math.abs(scaled.mean[1] - 1.96 * Math.sqrt(1 / 1e5)) < 1e-12);
  assert.ok(Math.abs(scaled.variance[1] - (1 + (1.96 * Math.sqrt(8576 / 1e5)) / 64)) < 1e-12);
});

test('slider stops: every power of two for d_k, round sample counts, τ around 1', () => {
  for (let e = 0; e <= 10; e++) assert.ok(DK_STOPS.includes(2 ** e), `2^${e}`);
  assert.deepEqual([DK_STOPS[0], DK_STOPS.at(-1)], [1, 1024]);
  assert.deepEqual([SAMPLE_STOPS[0], SAMPLE_STOPS.at(-1)], [1000, 1000000]);
  assert.ok(SAMPLE_STOPS.includes(100000));
  assert.deepEqual([TAU_STOPS[0], TAU_STOPS.at(-1)], [0.01, 100]);
  assert.ok(TAU_STOPS.includes(1) && TAU_STOPS.includes(8) === false);
  for (const stops of [DK_STOPS, SAMPLE_STOPS, TAU_STOPS])
    assert.ok(stops.every((x, k) => k === 0 || x > stops[k - 1]));
});

test('temperatureTex: √d_k exact when it is whole, approximate otherwise', () => {
  const tex = (x, d) => x.toFixed(d);
  assert.match(temperatureTex(64, 'with', tex), /\\sqrt\{64\} = 8 \\end/);
  assert.match(temperatureTex(2, 'with', tex), /\\sqrt\{2\} \\approx 1\.414 \\end/);
});
