// engine.linearAttend (φ(x) = elu(x) + 1) and engine.outputError in both wasm builds: against a
// double-precision reference written here from the formula, without and with causal, at odd
// sizes and across the engine's chunks; the bytes it reports; the same floats in both builds;
// flashAttend's tile bytes from the block size; every bad argument named; no heap growth.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine, simdSupported, AttentionError } from '../../web/src/engine.js';
import { randomMatrix } from '../support/random.js';

const phi = (x) => (x > 0 ? x + 1 : Math.exp(x));

// out_i = Σ_j (φ(q_i)·φ(k_j)) v_j / Σ_j φ(q_i)·φ(k_j), over j <= i with causal; in double.
function linearRef({ query: Q, key: K, value: V }, causal) {
  const d = Q.cols;
  const out = new Float64Array(Q.rows * V.cols);
  for (let i = 0; i < Q.rows; i++) {
    let den = 0;
    const last = causal ? Math.min(i, K.rows - 1) : K.rows - 1;
    for (let j = 0; j <= last; j++) {
      let w = 0;
      for (let c = 0; c < d; c++) w += phi(Q.data[i * d + c]) * phi(K.data[j * d + c]);
      den += w;
      for (let c = 0; c < V.cols; c++) out[i * V.cols + c] += w * V.data[j * V.cols + c];
    }
    for (let c = 0; c < V.cols; c++) out[i * V.cols + c] /= den;
  }
  return out;
}

const inputs = (nQ, nK, d, dV, seed) => ({
  query: randomMatrix(nQ, d, seed, 2),
  key: randomMatrix(nK, d, seed + 1, 2),
  value: randomMatrix(nK, dV, seed + 2, 2),
});

const SIZES = [
  [1, 1, 1, 1],
  [5, 3, 7, 2],
  [64, 64, 16, 16],
  [65, 129, 9, 33],
  [130, 130, 64, 64],
];

const builds = simdSupported() ? [true, false] : [false];

for (const simd of builds) {
  describe(`linearAttend (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    for (const causal of [false, true]) {
      test(`equals the double reference${causal ? ' with causal (prefix sums)' : ''}`, () => {
        for (const [nQ, nK, d, dV] of SIZES) {
          if (causal && nQ !== nK && nK < nQ) continue;
          const o = inputs(nQ, nK, d, dV, nQ * 7 + d);
          const r = engine.linearAttend({ ...o, causal });
          const want = linearRef(o, causal);
          assert.equal(r.output.rows, nQ);
          assert.equal(r.output.cols, dV);
          assert.deepEqual(r.zeroRows, []);
          for (let c = 0; c < want.length; c++) {
            const err = Math.abs(r.output.data[c] - want[c]);
            assert.ok(
              err <= 2e-5 * Math.max(1, Math.abs(want[c])),
              `${nQ}x${nK} entry ${c}: ${r.output.data[c]} vs ${want[c]}`,
            );
          }
        }
      });
    }

    test('reports its state (d_k × d_v + d_k floats) and flashAttend its tiles at the block used', () => {
      const o = inputs(200, 200, 24, 40, 3);
      const r = engine.linearAttend(o);
      assert.equal(r.stateBytes, 4 * (24 * 40 + 24));
      assert.ok(r.chunkBytes > 0);
      for (const blockSize of [8, 32, 64]) {
        const f = engine.flashAttend({ ...o, blockSize });
        assert.equal(f.tileBytes, 4 * (blockSize * blockSize + blockSize * 40 + 4 * blockSize), `block ${blockSize}`);
        assert.equal(f.packedBytes, 4 * (Math.ceil(200 / 8) * 8 * 24 + Math.ceil(40 / 8) * 8 * 200));
      }
    });

    test('outputError: max |Δ| and ‖Δ‖ / ‖reference‖, as computed here in double', () => {
      const o = inputs(50, 50, 8, 8, 11);
      const lin = engine.linearAttend(o).output;
      const exact = engine.flashAttend(o).output;
      let maxAbs = 0,
        d2 = 0,
        r2 = 0;
      for (let c = 0; c < lin.data.length; c++) {
        const d = lin.data[c] - exact.data[c];
        maxAbs = Math.max(maxAbs, Math.abs(d));
        d2 += d * d;
        r2 += exact.data[c] * exact.data[c];
      }
      const e = engine.outputError({ output: lin, reference: exact });
      assert.equal(e.maxAbs, maxAbs);
      assert.ok(Math.abs(e.relative - Math.sqrt(d2 / r2)) <= 1e-12, `${e.relative}`);
      assert.ok(e.relative > 0.01, 'linear attention is another model, not exact attention');
    });

    test('bad arguments are refused by name, and the heap does not grow across calls', () => {
      const o = inputs(4, 5, 3, 2, 1);
      const refuses = (args, re) =>
        assert.throws(
          () => engine.linearAttend(args),
          (e) => e instanceof AttentionError && re.test(e.message),
        );
      refuses(
        { ...o, key: randomMatrix(5, 4, 2) },
        /^key: expected 3 columns \(d_k must equal the query's d_q\), got 4$/,
      );
      refuses({ ...o, value: randomMatrix(4, 2, 2) }, /^value: expected 5 rows \(one per key\), got 4$/);
      refuses({ ...o, causal: 'yes' }, /^causal: expected true or false/);
      refuses({ ...o, window: 3 }, /^linearAttend: unknown option 'window'/);
      refuses({ ...o, query: [[1, 2, NaN]] }, /^query: /);
      const big = new Float32Array(4 * 3).fill(1e19);
      refuses(
        {
          ...o,
          query: { rows: 4, cols: 3, data: big },
          key: { rows: 5, cols: 3, data: new Float32Array(15).fill(1e19) },
        },
        /^query: linear attention's sums overflow float32/,
      );
      assert.throws(
        () => engine.outputError({ output: o.value, reference: o.query }),
        (e) =>
          e instanceof AttentionError &&
          /^reference: expected shape of the output = \(5, 2\), got \(4, 3\)$/.test(e.message),
      );
      engine.linearAttend(o);
      const before = engine.memory().heapBytes;
      const used = engine.memory().usedBytes;
      for (let k = 0; k < 50; k++) {
        engine.linearAttend({ ...inputs(100, 100, 16, 16, k), causal: k % 2 === 0 });
        assert.throws(() => engine.linearAttend({ ...o, key: randomMatrix(5, 4, 2) }));
      }
      assert.equal(engine.memory().heapBytes, before);
      if (used !== undefined) assert.equal(engine.memory().usedBytes, used);
    });

    test('arguments whose getters lie or call back into the engine: an answer or an AttentionError', () => {
      const o = inputs(4, 5, 3, 2, 1);
      const want = engine.linearAttend(o).output;
      let calls = 0;
      const reentering = {
        rows: 4,
        cols: 3,
        get data() {
          calls++;
          engine.linearAttend(o); // the engine is called while it reads this argument
          return o.query.data;
        },
      };
      const lying = {
        rows: 4,
        cols: 3,
        data: Object.defineProperty(Float32Array.from(o.query.data), 'length', { value: 2 ** 28 }),
      };
      for (const query of [reentering, lying]) {
        try {
          const r = engine.linearAttend({ ...o, query });
          assert.ok(r.output.data.every(Number.isFinite));
        } catch (e) {
          assert.ok(e instanceof AttentionError, String(e));
        }
      }
      assert.ok(calls >= 1);
      assert.deepEqual(engine.linearAttend(o).output, want, 'the engine still answers as before');
    });
  });
}

test('both builds give the same floats', { skip: !simdSupported() }, async () => {
  const [a, b] = await Promise.all([loadEngine({ simd: true }), loadEngine({ simd: false })]);
  for (const causal of [false, true]) {
    const o = { ...inputs(150, 150, 20, 12, 5), causal };
    assert.deepEqual(a.linearAttend(o).output.data, b.linearAttend(o).output.data, `causal ${causal}`);
  }
});
