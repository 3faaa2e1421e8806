// Position through the JS API, in both builds: without positions a shuffle only permutes the
// scores and outputs (attend and multiHead); sinusoidal encodings break that; RoPE's q_m · k_n
// depends only on m - n. References in double precision, written here.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine } from '../../web/src/engine.js';

const rows = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
const permute = (grid, perm) => perm.map((p) => grid[p]);
const plus = (a, b) => a.map((r, i) => r.map((x, j) => Math.fround(x + b[i][j])));

// Double-precision scaled dot-product scores X Xᵀ / √d.
function scaledScores(x) {
  const d = x[0].length;
  return x.map((q) => x.map((k) => q.reduce((s, v, c) => s + v * k[c], 0) / Math.sqrt(d)));
}

// q_m · k_n in closed form: Σ_i (a c + b e) cos((m-n)θ_i) + (a e - b c) sin((m-n)θ_i).
function ropeDot(q, k, offset) {
  const d = q.length;
  let s = 0;
  for (let i = 0; 2 * i < d; i++) {
    const th = offset * 10000 ** ((-2 * i) / d);
    const [a, b, c, e] = [q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1]];
    s += (a * c + b * e) * Math.cos(th) + (a * e - b * c) * Math.sin(th);
  }
  return s;
}

for (const simd of [true, false]) {
  describe(`position, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    test('我 爱 你 -> 你 爱 我 without position: scores exactly permuted, outputs to rounding', () => {
      const x = rows(engine.randomMatrix({ rows: 3, cols: 4, seed: 5 }));
      const perm = [2, 1, 0];
      const a = engine.attend({ query: x, key: x, value: x });
      const px = permute(x, perm);
      const b = engine.attend({ query: px, key: px, value: px });
      const sa = rows(a.scores),
        sb = rows(b.scores),
        oa = rows(a.output),
        ob = rows(b.output);
      const ref = scaledScores(x);
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          assert.equal(sb[i][j], sa[perm[i]][perm[j]]);
          assert.ok(Math.abs(rows(a.scaled)[i][j] - ref[i][j]) < 1e-5);
        }
        for (let c = 0; c < 4; c++) assert.ok(Math.abs(ob[i][c] - oa[perm[i]][c]) < 1e-6);
      }
    });

    test('multi-head with learned projections is equivariant too', () => {
      const x = rows(engine.randomMatrix({ rows: 4, cols: 6, seed: 6 }));
      const W = (stream) => engine.randomMatrix({ rows: 6, cols: 6, seed: 6, stream, scale: 0.4 });
      const args = { heads: 3, Wq: W(1), Wk: W(2), Wv: W(3), Wo: W(4) };
      const perm = [1, 3, 0, 2];
      const a = rows(engine.multiHead({ ...args, query: x, key: x, value: x }).output);
      const px = permute(x, perm);
      const b = rows(engine.multiHead({ ...args, query: px, key: px, value: px }).output);
      b.forEach((r, i) => r.forEach((v, c) => assert.ok(Math.abs(v - a[perm[i]][c]) < 1e-5)));
    });

    test('with sinusoidal encodings the shuffled sentence is no longer a permutation', () => {
      const x = rows(engine.randomMatrix({ rows: 3, cols: 4, seed: 5 }));
      const pe = rows(engine.sinusoidal({ n: 3, d: 4 }));
      const perm = [2, 1, 0];
      const a = rows(engine.attend({ query: plus(x, pe), key: plus(x, pe), value: plus(x, pe) }).scaled);
      const px = plus(permute(x, perm), pe);
      const b = rows(engine.attend({ query: px, key: px, value: px }).scaled);
      const ref = scaledScores(px);
      b.forEach((r, i) => r.forEach((v, j) => assert.ok(Math.abs(v - ref[i][j]) < 1e-5)));
      let largest = 0;
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) largest = Math.max(largest, Math.abs(b[i][j] - a[perm[i]][perm[j]]));
      assert.ok(largest > 0.05, `largest change ${largest}`);
    });

    test('RoPE: q_m · k_n is the closed form of m - n; equal offsets give equal numbers', () => {
      const q = rows(engine.randomMatrix({ rows: 1, cols: 8, seed: 9, stream: 0 }))[0];
      const k = rows(engine.randomMatrix({ rows: 1, cols: 8, seed: 9, stream: 1 }))[0];
      // q at positions 0..11 (one call, rows at first + r), k at positions 0..11
      const qs = rows(engine.rope({ x: Array(12).fill(q) }));
      const ks = rows(engine.rope({ x: Array(12).fill(k) }));
      const dot = (m, n) => qs[m].reduce((s, v, c) => s + v * ks[n][c], 0);
      for (let m = 0; m < 12; m++)
        for (let n = 0; n < 12; n++) {
          assert.ok(Math.abs(dot(m, n) - ropeDot(q, k, m - n)) < 1e-4, `${m},${n}`);
        }
      assert.ok(Math.abs(dot(5, 2) - dot(9, 6)) < 1e-4);
      assert.ok(Math.abs(dot(5, 2) - dot(5, 3)) > 1e-3);
    });
  });
}
