// The long-sequences chapter's logic (web/src/chapters/long/logic.js) in Node: the sweep's sizes
// and where two measured series cross (against power laws whose crossing is known), a sweep
// resumed where it stopped, the online softmax of one query read from the engine's trace against
// a double-precision replay written here, the mask patterns counted against their definitions,
// and the memory question's answer from measured bytes.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/src/engine.js';
import {
  crossover,
  memoryGrowth,
  newSweep,
  patternCounts,
  patternOptions,
  resumeSweep,
  sweepSizes,
  traceRow,
} from '../../web/src/chapters/long/logic.js';

let engine;
before(async () => {
  engine = await loadEngine();
});

const rowsOf = (m) =>
  Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));

test('the sweep doubles n from 64; a crossing of two power laws is found where they meet', () => {
  assert.deepEqual(sweepSizes(1024), [64, 128, 256, 512, 1024]);
  assert.deepEqual(sweepSizes(100), [64]);
  const at = (f) => [64, 128, 256].map((x) => ({ x, y: f(x) }));
  // 4 n² against a constant 40,000: equal at n = 100, exact in log–log between 64 and 128
  assert.ok(
    Math.abs(
      crossover(
        at((x) => 4 * x * x),
        at(() => 40000),
      ) - 100,
    ) < 1e-9,
  );
  assert.equal(
    crossover(
      at((x) => x),
      at((x) => 2 * x),
    ),
    null,
  );
});

test('a sweep stopped half way through an n goes on from that n, its partial points dropped', () => {
  const sw = newSweep({ sizes: [64, 128, 256], w: 16, workers: 1, seed: 42, auto: false });
  sw.points.push({ n: 64, method: 'naive', ms: 1, bytes: 1 }, { n: 128, method: 'naive', ms: 2, bytes: 4 });
  sw.errors.push({ n: 64, maxAbs: 0.1, relative: 0.1 });
  assert.deepEqual(resumeSweep(sw), [128, 256]);
  assert.deepEqual(
    sw.points.map((p) => p.n),
    [64],
  );
});

test('the online softmax read from the engine’s trace equals a double replay, block by block', () => {
  const x = (stream) => engine.randomMatrix({ rows: 16, cols: 8, seed: 7, stream });
  const q = x(1),
    k = x(2);
  for (const b of [2, 4, 8]) {
    const trace = engine.flashTrace({ query: q, key: k, value: x(3), blockSize: b });
    for (const i of [0, 9, 15]) {
      const rows = traceRow(trace, i);
      // the replay: scores q_i·k_j / √8, then m, the factor exp(m_old − m_new) and l per block
      const s = rowsOf(k).map((kj) => rowsOf(q)[i].reduce((a, v, c) => a + v * kj[c], 0) / Math.sqrt(8));
      let m = -Infinity,
        l = 0;
      assert.equal(rows.length, 16 / b);
      rows.forEach((r, blk) => {
        const part = s.slice(blk * b, blk * b + b);
        const mNew = Math.max(m, ...part);
        const rescale = blk === 0 ? 0 : Math.exp(m - mNew);
        const carried = rescale * l;
        l = carried + part.reduce((a, v) => a + Math.exp(v - mNew), 0);
        m = mNew;
        const near = (got, want, what) =>
          assert.ok(
            Math.abs(got - want) <= 1e-5 * Math.max(1, Math.abs(want)),
            `b ${b}, query ${i}, block ${blk} ${what}: ${got} vs ${want}`,
          );
        assert.deepEqual([r.j0, r.j1], [blk * b, blk * b + b - 1]);
        near(r.blockMax, Math.max(...part), 'block max');
        near(r.m, m, 'm');
        near(r.rescale, rescale, 'rescale');
        near(r.carried, carried, 'carried');
        near(r.l, l, 'l');
      });
    }
  }
});

test('the mask patterns, counted from their definitions', () => {
  const x = (stream) => engine.randomMatrix({ rows: 32, cols: 4, seed: 1, stream });
  const trace = (p, w) =>
    engine.flashTrace({ query: x(4), key: x(5), value: x(6), blockSize: 8, ...patternOptions(p, w) });
  const count = (ok) => {
    let n = 0;
    for (let i = 0; i < 32; i++) for (let j = 0; j < 32; j++) n += ok(i, j) ? 1 : 0;
    return n;
  };
  const window3 = patternCounts(trace('window', 3));
  assert.equal(
    window3.count,
    count((i, j) => Math.abs(i - j) <= 3),
  );
  assert.equal(window3.cells, 1024);
  // 16 tiles of 8 × 8: the diagonal ones and their neighbours are computed, 6 lie outside the band
  assert.deepEqual([window3.skipped, window3.tiles], [6, 16]);
  assert.equal(
    patternCounts(trace('stride', 4)).count,
    count((i, j) => Math.abs(i - j) < 4 || Math.abs(i - j) % 4 === 0),
  );
  assert.equal(
    patternCounts(trace('causal', 0)).count,
    count((i, j) => j <= i),
  );
  assert.equal(patternCounts(trace('full', 0)).skipped, 0);
});

test('the memory question: the naive bytes at the two largest sizes measured, and the option they pick', () => {
  const naive = (n, bytes) => ({ n, method: 'naive', ms: 1, bytes });
  assert.equal(memoryGrowth(null), null);
  assert.equal(memoryGrowth({ points: [naive(64, 16384)] }), null);
  const grown = memoryGrowth({
    points: [
      naive(64, 16384),
      { n: 64, method: 'flash', bytes: 9 },
      naive(128, 65536),
      { n: 256, method: 'naive', refused: true },
    ],
  });
  assert.deepEqual(grown, { n1: 64, b1: 16384, n2: 128, b2: 65536, ratio: 4, answer: '4' });
  assert.equal(memoryGrowth({ points: [naive(64, 100), naive(128, 210)] }).answer, '2');
});
