// The engine's JavaScript API, in both wasm builds (SIMD and scalar), against references
// in double precision (tests/js/reference.js: plain loops, independent of the engine).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadEngine, simdSupported, AttentionError } from '../../web/src/engine.js';

import {
  randomRows,
  toRows,
  dot,
  linearRef,
  softmaxRef,
  entropyRef,
  FILL,
  attendRef,
  multiHeadRef,
  expectMatrix,
  expectVector,
  expectAttend,
} from './reference.js';

// ---- the tests, once per build ---------------------------------------------------------------

for (const simd of [true, false]) {
  describe(`engine API (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    test('loadEngine picks the asked build and caches one engine per build', async () => {
      assert.equal(engine.simd, simd);
      assert.equal(await loadEngine({ simd }), engine);
    });

    test('engine.limits are the numbers of cpp/core/matrix.h', () => {
      const header = readFileSync(new URL('../../cpp/core/matrix.h', import.meta.url), 'utf8');
      const constant = (name) => {
        const m = header.match(new RegExp(`constexpr int ${name} = ([^;]+);`));
        assert.ok(m, `${name} in matrix.h`);
        const text = m[1].trim();
        const shift = text.match(/^(\d+)\s*<<\s*(\d+)$/);
        return shift ? Number(shift[1]) * 2 ** Number(shift[2]) : Number(text);
      };
      assert.equal(engine.limits.maxTokens, constant('kMaxTokens'));
      assert.equal(engine.limits.maxDim, constant('kMaxDim'));
      assert.equal(engine.limits.maxHeads, constant('kMaxHeads'));
      assert.equal(engine.limits.maxSamples, constant('kMaxSamples'));
      assert.equal(engine.limits.maxBins, constant('kMaxBins'));
      assert.equal(engine.limits.maxTrials, constant('kMaxTrials'));
      assert.equal(engine.limits.maxHeadCells, constant('kMaxHeadCells'));
      assert.equal(engine.limits.maxPosition, constant('kMaxPosition'));
      assert.ok(Object.isFrozen(engine.limits));
    });

    // ---- the argument contract: names <-> behaviour -----------------------------------------------

    test("engine.choices lists the core's names, frozen, and each name does what it says", () => {
      assert.deepEqual(Object.keys(engine.choices).sort(), ['activation', 'bug', 'kind', 'maskFill', 'score']); // the trainer's: engine-train.js
      assert.deepEqual([...engine.choices.score], ['dot', 'scaled-dot', 'additive', 'general']);
      assert.deepEqual([...engine.choices.maskFill], ['neg-inf', 'large-negative', 'zero']);
      assert.ok(
        Object.isFrozen(engine.choices) &&
          Object.isFrozen(engine.choices.score) &&
          Object.isFrozen(engine.choices.maskFill),
      );
      assert.ok(Object.isFrozen(engine.choices.bug)); // the bugs' own test is bugs.test.js
      // every score name against the reference of that score
      const query = randomRows(3, 4, 70),
        key = randomRows(4, 4, 71),
        value = randomRows(4, 2, 72);
      const extra = {
        additive: { additive: { Wq: randomRows(5, 4, 73), Wk: randomRows(5, 4, 74), v: randomRows(1, 5, 75)[0] } },
        general: { general: { W: randomRows(4, 4, 76) } },
      };
      for (const score of engine.choices.score) {
        const args = { query, key, value, score, ...extra[score] };
        expectAttend(score, engine.attend(args), attendRef(args));
      }
      // every fill name puts its value in the blocked cells
      for (const maskFill of engine.choices.maskFill) {
        const got = engine.attend({ query, key, value, causal: true, maskFill });
        assert.equal(got.masked.data[1], FILL[maskFill], maskFill);
      }
    });

    test('reverseCausal: key j >= query i, the reversed mask the masks lesson shows', () => {
      const query = randomRows(4, 3, 80),
        key = randomRows(4, 3, 81),
        value = randomRows(4, 2, 82);
      const got = engine.attend({ query, key, value, reverseCausal: true });
      const mask = [
        [1, 1, 1, 1],
        [0, 1, 1, 1],
        [0, 0, 1, 1],
        [0, 0, 0, 1],
      ];
      expectMatrix('reversed mask', got.mask, mask);
      expectAttend('reverseCausal', got, attendRef({ query, key, value, mask }));
      // together with causal only the diagonal is left: each query sees itself
      expectMatrix('both', engine.attend({ query, key, value, causal: true, reverseCausal: true }).weights, [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ]);
    });

    // (with no mask but the causal one the output-only path runs its own row step, so its floats
    // match the stages' to rounding, not bit for bit)
    test('stages: false returns only output, entropy and fullyMaskedRows, the same numbers', () => {
      const query = randomRows(5, 6, 83),
        key = randomRows(7, 6, 84),
        value = randomRows(7, 3, 85);
      const mask = randomRows(5, 7, 86).map((row, i) => row.map((x) => (i === 2 ? 0 : x > -0.5 ? 1 : 0)));
      for (const extra of [
        {},
        { causal: true, keyPadding: [false, true, false, false, false, false, true] },
        { mask, maskFill: 'zero' },
      ]) {
        const args = { query, key, value, ...extra };
        const all = engine.attend(args);
        const lean = engine.attend({ ...args, stages: false });
        assert.deepEqual(Object.keys(lean).sort(), ['entropy', 'fullyMaskedRows', 'output', 'overflow']);
        expectMatrix('lean output vs stages', lean.output, toRows(all.output));
        expectVector('lean entropy vs stages', lean.entropy, Array.from(all.entropy));
        assert.deepEqual(lean.fullyMaskedRows, all.fullyMaskedRows);
        const want = attendRef(args);
        expectMatrix('lean output', lean.output, want.output);
        expectVector('lean entropy', lean.entropy, want.entropy);
        assert.deepEqual(lean.fullyMaskedRows, want.fullyMaskedRows);
      }
    });

    // ---- softmax ----------------------------------------------------------------------------

    test('softmax of [2.6, 1.2, 6.1, 2.0] is [0.0286, 0.0071, 0.9486, 0.0157] and sums to 1', () => {
      const { weights, entropy } = engine.softmax({ scores: [[2.6, 1.2, 6.1, 2.0]] });
      assert.equal(weights.rows, 1);
      assert.equal(weights.cols, 4);
      [0.0286, 0.0071, 0.9486, 0.0157].forEach((w, i) =>
        assert.ok(Math.abs(weights.data[i] - w) < 5e-5, `weight ${i}: ${weights.data[i]} vs ${w}`),
      );
      assert.ok(Math.abs(weights.data.reduce((a, b) => a + b, 0) - 1) < 1e-6);
      const want = softmaxRef([2.6, 1.2, 6.1, 2.0]);
      expectVector('entropy', entropy, [entropyRef(want)]);
      // a flat array is read as one row
      assert.deepEqual(engine.softmax({ scores: [2.6, 1.2, 6.1, 2.0] }).weights, weights);
    });

    test('softmax with temperature matches the reference row by row, -Infinity means blocked', () => {
      const scores = randomRows(5, 9, 11, 4);
      scores[2][3] = -Infinity;
      scores[4] = scores[4].map(() => -Infinity);
      for (const temperature of [0.25, 1, 3]) {
        const got = engine.softmax({ scores, temperature });
        const want = scores.map((row) => softmaxRef(row.map((x) => x / temperature)));
        expectMatrix(`softmax T=${temperature}`, got.weights, want);
        expectVector(`entropy T=${temperature}`, got.entropy, want.map(entropyRef));
      }
    });

    test('naive softmax overflows to NaN past ~88.7, the stable one does not', () => {
      const scores = [
        [100, 1, 2],
        [1, 2, 3],
      ];
      const naiveResult = engine.softmax({ scores, stable: false });
      const naive = naiveResult.weights;
      assert.ok(Number.isNaN(naive.data[0]), `naive exp(100)/sum is ${naive.data[0]}`);
      assert.equal(naiveResult.overflow, true, 'the overflow is flagged');
      assert.equal(engine.softmax({ scores, stable: false, temperature: 10 }).overflow, false);
      assert.equal(engine.softmax({ scores }).overflow, false);
      expectMatrix('naive small row', { rows: 1, cols: 3, data: naive.data.subarray(3) }, [softmaxRef([1, 2, 3])]);
      expectMatrix('stable', engine.softmax({ scores }).weights, scores.map(softmaxRef));
    });

    test('softmaxJacobian is diag(p) - p pᵀ', () => {
      const p = softmaxRef([0.3, -1.2, 2.0, 0.7, 0.1]).map(Math.fround);
      const want = p.map((pi, i) => p.map((pj, j) => (i === j ? pi : 0) - pi * pj));
      expectMatrix('jacobian', engine.softmaxJacobian(p), want);
      expectMatrix('jacobian of a one-row matrix', engine.softmaxJacobian({ rows: 1, cols: 5, data: p }), want);
    });

    test('hardAttention is one-hot at the first argmax of each row', () => {
      const got = engine.hardAttention({
        scores: [
          [0.1, 3, -1, 3],
          [-Infinity, -2, -5, -2.5],
          [7, 7, 7, 7],
        ],
      });
      expectMatrix('hard', got, [
        [0, 1, 0, 0],
        [0, 1, 0, 0],
        [1, 0, 0, 0],
      ]);
    });

    test('gumbelSoftmax rows are distributions, seeded, and near one-hot at small tau', () => {
      const scores = randomRows(4, 6, 5, 2);
      const a = engine.gumbelSoftmax({ scores, tau: 1, seed: 42 });
      assert.deepEqual(engine.gumbelSoftmax({ scores, tau: 1, seed: 42 }), a);
      assert.notDeepEqual(engine.gumbelSoftmax({ scores, tau: 1, seed: 43 }).data, a.data);
      for (const row of toRows(a)) {
        assert.ok(row.every((w) => w >= 0 && w <= 1));
        assert.ok(Math.abs(row.reduce((s, w) => s + w, 0) - 1) < 1e-5);
      }
      // The same seed draws the same noise g at every tau: log(w_i / w_0) = (s_i + g_i - s_0 - g_0) / tau.
      const half = engine.gumbelSoftmax({ scores, tau: 0.5, seed: 42 });
      toRows(a).forEach((row, r) =>
        row.forEach((w, i) => {
          const want = 2 * Math.log(w / row[0]);
          const got = Math.log(half.data[r * 6 + i] / half.data[r * 6]);
          assert.ok(Math.abs(got - want) < 1e-3 * (1 + Math.abs(want)), `row ${r}, key ${i}: ${got} vs ${want}`);
        }),
      );
      // Small tau: rows become (nearly) one-hot.
      const sharp = engine.gumbelSoftmax({ scores: randomRows(40, 6, 6, 2), tau: 0.01, seed: 7 });
      const maxima = toRows(sharp).map((row) => Math.max(...row));
      assert.ok(maxima.reduce((s, m) => s + m, 0) / maxima.length > 0.95, `mean max ${maxima}`);
      // Over many seeds the argmax lands on key j about softmax(scores)_j of the time.
      const probs = softmaxRef([1, 0, -1]);
      const hits = [0, 0, 0];
      const trials = 3000;
      for (let s = 0; s < trials; s++) {
        const w = engine.gumbelSoftmax({ scores: [[1, 0, -1]], tau: 0.5, seed: s }).data;
        hits[w.indexOf(Math.max(...w))] += 1;
      }
      hits.forEach((h, j) =>
        assert.ok(Math.abs(h / trials - probs[j]) < 0.03, `key ${j}: ${h / trials} vs ${probs[j]}`),
      );
    });

    // ---- attend ---------------------------------------------------------------------------------

    test('attend, scaled-dot: every stage matches the reference (cross-attention, n_q != n_k)', () => {
      const query = randomRows(3, 4, 1);
      const key = randomRows(5, 4, 2);
      const value = randomRows(5, 3, 3);
      expectAttend('scaled-dot', engine.attend({ query, key, value }), attendRef({ query, key, value }));
    });

    test('attend, dot / general / additive scores and temperature', () => {
      const query = randomRows(4, 6, 4);
      const key = randomRows(5, 6, 5);
      const value = randomRows(5, 2, 6);
      for (const temperature of [0.5, 2]) {
        const o = { query, key, value, score: 'dot', temperature };
        expectAttend(`dot T=${temperature}`, engine.attend(o), attendRef(o));
      }
      const general = { W: randomRows(6, 6, 7) };
      const g = { query, key, value, score: 'general', general };
      expectAttend('general', engine.attend(g), attendRef(g));
      // additive also works when d_q != d_k
      const key3 = randomRows(5, 3, 8);
      const additive = { Wq: randomRows(7, 6, 9), Wk: randomRows(7, 3, 10), v: randomRows(1, 7, 11)[0] };
      const a = { query, key: key3, value, score: 'additive', additive };
      expectAttend('additive', engine.attend(a), attendRef(a));
    });

    test('attend accepts { rows, cols, data } with any array-like data, same as nested arrays', () => {
      const query = randomRows(2, 3, 12);
      const key = randomRows(4, 3, 13);
      const value = randomRows(4, 2, 14);
      const flat = (m, Type) => ({ rows: m.length, cols: m[0].length, data: Type.from(m.flat()) });
      const nested = engine.attend({ query, key, value });
      for (const Type of [Array, Float32Array, Float64Array]) {
        const got = engine.attend({ query: flat(query, Type), key: flat(key, Type), value: flat(value, Type) });
        assert.deepEqual(got, nested, `data as ${Type.name}`);
      }
    });

    test('typed arrays are accepted wherever arrays are', () => {
      const query = randomRows(3, 4, 90),
        key = randomRows(4, 4, 91),
        value = randomRows(4, 2, 92);
      const mask = [
        [1, 0, 1, 1],
        [1, 1, 0, 1],
        [0, 1, 1, 1],
      ];
      const keyPadding = [false, true, false, false];
      const plain = engine.attend({ query, key, value, mask, keyPadding });
      const typed = engine.attend({
        query: query.map((r) => Float64Array.from(r)),
        key,
        value,
        mask: { rows: 3, cols: 4, data: Int32Array.from(mask.flat()) },
        keyPadding: Uint8Array.from(keyPadding, Number),
      });
      assert.deepEqual(typed, plain);
      expectAttend('typed', typed, attendRef({ query, key, value, mask, keyPadding }));
      const sweep = { nKeys: 4, trials: 3, seed: 2 };
      assert.deepEqual(
        engine.saturationSweep({ ...sweep, dks: Int32Array.from([2, 8]) }),
        engine.saturationSweep({ ...sweep, dks: [2, 8] }),
      );
      assert.deepEqual(engine.softmaxJacobian(Float64Array.from([0.25, 0.75])), engine.softmaxJacobian([0.25, 0.75]));
    });

    test('masks: causal, key padding and an explicit mask combine with AND', () => {
      const query = randomRows(4, 3, 15);
      const key = randomRows(4, 3, 16);
      const value = randomRows(4, 3, 17);
      const mask = [
        [1, 1, 0, 1],
        [1, 1, 1, 1],
        [0, 1, 1, 1],
        [1, 1, 1, 0],
      ];
      const keyPadding = [false, false, false, true];
      for (const o of [{ causal: true }, { keyPadding }, { mask }, { mask, causal: true, keyPadding }]) {
        const args = { query, key, value, ...o };
        const got = engine.attend(args);
        expectAttend(JSON.stringify(o), got, attendRef(args));
        // blocked cells get exactly zero weight
        got.mask.data.forEach((m, i) => m === 0 && assert.equal(got.weights.data[i], 0));
      }
      // the causal mask itself: key j <= query i
      expectMatrix('causal mask', engine.attend({ query, key, value, causal: true }).mask, [
        [1, 0, 0, 0],
        [1, 1, 0, 0],
        [1, 1, 1, 0],
        [1, 1, 1, 1],
      ]);
      // mask entries may be booleans
      const boolMask = mask.map((row) => row.map((m) => m === 1));
      assert.deepEqual(
        engine.attend({ query, key, value, mask: boolMask }),
        engine.attend({ query, key, value, mask }),
      );
    });

    test('mask fills: -inf and -1e9 block, 0 leaks weight to padded keys', () => {
      const query = randomRows(2, 4, 18);
      const key = randomRows(3, 4, 19);
      const value = randomRows(3, 2, 20);
      const keyPadding = [false, true, false];
      for (const maskFill of ['neg-inf', 'large-negative', 'zero']) {
        const args = { query, key, value, keyPadding, maskFill };
        const got = engine.attend(args);
        expectAttend(maskFill, got, attendRef(args));
        assert.equal(got.masked.data[1], FILL[maskFill], `${maskFill}: the masked score`);
        if (maskFill === 'zero') {
          assert.ok(got.weights.data[1] > 0.05, `0-fill leak: padded key gets ${got.weights.data[1]}`);
        } else {
          assert.equal(got.weights.data[1], 0);
          assert.equal(got.weights.data[4], 0);
        }
      }
    });

    test("two tokens, one masked: the output is the other token's value", () => {
      const value = [
        [0.25, -1.5, 3],
        [7, 8, -9],
      ];
      const got = engine.attend({
        query: [[1, 2]],
        key: [
          [0.3, 0.1],
          [-2, 5],
        ],
        value,
        keyPadding: [true, false],
      });
      assert.deepEqual(Array.from(got.output.data), value[1]);
      assert.deepEqual(Array.from(got.weights.data), [0, 1]);
    });

    test('a fully blocked row: zero weights, zero output, listed; NaN when stable: false', () => {
      const query = randomRows(3, 2, 21);
      const key = randomRows(3, 2, 22);
      const value = randomRows(3, 2, 23);
      const mask = [
        [1, 1, 0],
        [0, 0, 0],
        [1, 0, 1],
      ];
      const args = { query, key, value, mask };
      const got = engine.attend(args);
      expectAttend('blocked row', got, attendRef(args));
      assert.deepEqual(got.fullyMaskedRows, [1]);
      assert.deepEqual(Array.from(got.weights.data.subarray(3, 6)), [0, 0, 0]);
      assert.deepEqual(Array.from(got.output.data.subarray(2, 4)), [0, 0]);
      assert.equal(got.entropy[1], 0);
      const naive = engine.attend({ ...args, stable: false });
      assert.ok(Array.from(naive.weights.data.subarray(3, 6)).every(Number.isNaN));
      assert.ok(Number.isNaN(naive.output.data[2]));
      assert.deepEqual(naive.fullyMaskedRows, [1]);
      // the other rows are the same in the naive arithmetic at these small scores
      expectVector('naive row 0', naive.weights.data.subarray(0, 3), Array.from(got.weights.data.subarray(0, 3)));
    });

    test('naive softmax inside attend: scores past 88.7 overflow to NaN', () => {
      const query = [[10, 10]];
      const key = [
        [10, 10],
        [0, 1],
      ]; // score 200 unscaled
      const value = [
        [1, 0],
        [0, 1],
      ];
      const naive = engine.attend({ query, key, value, score: 'dot', stable: false });
      assert.ok(Number.isNaN(naive.weights.data[0]));
      assert.equal(naive.overflow, true);
      assert.ok(Number.isNaN(naive.output.data[0]));
      const stable = engine.attend({ query, key, value, score: 'dot' });
      expectAttend('stable', stable, attendRef({ query, key, value, score: 'dot' }));
    });

    // ---- multi-head -----------------------------------------------------------------------------

    test('multiHead: shapes and every head against a double torch-convention reference', () => {
      const nQ = 3,
        nK = 5,
        dModel = 8,
        heads = 2,
        kdim = 6,
        vdim = 4;
      const args = {
        query: randomRows(nQ, dModel, 30),
        key: randomRows(nK, kdim, 31),
        value: randomRows(nK, vdim, 32),
        heads,
        Wq: randomRows(dModel, dModel, 33),
        Wk: randomRows(dModel, kdim, 34),
        Wv: randomRows(dModel, vdim, 35),
        Wo: randomRows(dModel, dModel, 36),
        bq: randomRows(1, dModel, 37)[0],
        bk: randomRows(1, dModel, 38)[0],
        bv: randomRows(1, dModel, 39)[0],
        bo: randomRows(1, dModel, 40)[0],
        keyPadding: [false, false, true, false, false],
      };
      const got = engine.multiHead(args);
      const want = multiHeadRef(args);
      assert.equal(got.heads.length, heads);
      got.heads.forEach((h, i) => {
        assert.equal(h.weights.rows, nQ);
        assert.equal(h.weights.cols, nK);
        assert.equal(h.output.cols, dModel / heads);
        expectAttend(`head ${i}`, h, want.heads[i]);
      });
      expectMatrix('concat', got.concat, want.concat);
      expectMatrix('output', got.output, want.output);

      // self-attention with a causal mask and no biases
      const x = randomRows(4, 6, 41);
      const self = {
        query: x,
        key: x,
        value: x,
        heads: 3,
        causal: true,
        Wq: randomRows(6, 6, 42),
        Wk: randomRows(6, 6, 43),
        Wv: randomRows(6, 6, 44),
        Wo: randomRows(6, 6, 45),
      };
      const g = engine.multiHead(self);
      const w = multiHeadRef(self);
      assert.equal(g.heads.length, 3);
      g.heads.forEach((h, i) => expectAttend(`causal head ${i}`, h, w.heads[i]));
      expectMatrix('causal output', g.output, w.output);
    });

    test("multiHead stages: false: each head is attend()'s stages: false result, the same numbers to rounding", () => {
      const x = randomRows(5, 8, 46);
      const W = (seed) => randomRows(8, 8, seed);
      const mask = randomRows(5, 5, 51).map((row, i) => row.map((v) => (i === 3 ? 0 : v > -0.5 ? 1 : 0)));
      for (const extra of [
        {},
        { causal: true },
        { causal: true, keyPadding: [false, true, false, false, false] },
        { mask },
      ]) {
        const args = { query: x, key: x, value: x, heads: 4, Wq: W(47), Wk: W(48), Wv: W(49), Wo: W(50), ...extra };
        const all = engine.multiHead(args);
        const lean = engine.multiHead({ ...args, stages: false });
        const want = multiHeadRef(args);
        assert.deepEqual(Object.keys(lean).sort(), ['concat', 'heads', 'output']);
        assert.equal(lean.heads.length, 4);
        lean.heads.forEach((h, i) => {
          assert.deepEqual(Object.keys(h).sort(), ['entropy', 'fullyMaskedRows', 'output', 'overflow']);
          expectMatrix(`lean head ${i} vs stages`, h.output, toRows(all.heads[i].output));
          expectVector(`lean head ${i} entropy vs stages`, h.entropy, Array.from(all.heads[i].entropy));
          assert.deepEqual(h.fullyMaskedRows, all.heads[i].fullyMaskedRows);
          assert.equal(h.overflow, all.heads[i].overflow);
          expectMatrix(`lean head ${i} output`, h.output, want.heads[i].output);
        });
        expectMatrix('lean concat vs stages', lean.concat, toRows(all.concat));
        expectMatrix('lean output vs stages', lean.output, toRows(all.output));
        expectMatrix('lean output', lean.output, want.output);
      }
    });

    // ---- experiments and helpers -------------------------------------------------------------------

    test('varianceExperiment: Var(q·k) ≈ d_k, ≈ 1 after scaling, histogram consistent', () => {
      const dk = 64,
        samples = 20000;
      const r = engine.varianceExperiment({ dk, samples, seed: 5, bins: 8 });
      assert.ok(Math.abs(r.raw.variance / dk - 1) < 0.05, `raw variance ${r.raw.variance}`);
      assert.ok(Math.abs(r.scaled.variance - 1) < 0.05, `scaled variance ${r.scaled.variance}`);
      assert.ok(Math.abs(r.raw.mean) < 5 * Math.sqrt(dk / samples), `raw mean ${r.raw.mean}`);
      assert.ok(Math.abs(r.scaled.mean) < 5 * Math.sqrt(1 / samples), `scaled mean ${r.scaled.mean}`);
      // Var of the sample variance of q·k/sqrt(d_k) is about (2 + 6/d_k) / samples: 4 standard errors
      assert.ok(
        Math.abs(r.scaled.variance - 1) < 4 * Math.sqrt((2 + 6 / dk) / samples),
        `scaled variance ${r.scaled.variance}`,
      );
      const { edges, rawCounts, scaledCounts } = r.histogram;
      assert.ok(edges instanceof Float32Array);
      assert.ok(rawCounts instanceof Int32Array || rawCounts instanceof Uint32Array);
      assert.equal(edges.length, 9);
      assert.equal(rawCounts.length, 8);
      assert.equal(scaledCounts.length, 8);
      expectVector(
        'edges',
        edges,
        Array.from({ length: 9 }, (_, i) => -32 + 8 * i),
      ); // ±4 sqrt(d_k)
      const sum = (c) => c.reduce((a, b) => a + b, 0);
      assert.ok(sum(rawCounts) <= samples && sum(rawCounts) > 0.999 * samples);
      // within one standard deviation (8) of 0: about 68.3% of raw products
      const central = (rawCounts[3] + rawCounts[4]) / samples;
      assert.ok(Math.abs(central - 0.6827) < 0.02, `central fraction ${central}`);
      // scaled products (std 1) on their own edges, ±4: the same shape, 68.3% within one std
      expectVector(
        'scaledEdges',
        r.histogram.scaledEdges,
        Array.from({ length: 9 }, (_, i) => -4 + i),
      );
      assert.equal(sum(scaledCounts), samples);
      const scaledCentral = (scaledCounts[3] + scaledCounts[4]) / samples;
      assert.ok(Math.abs(scaledCentral - 0.6827) < 0.02, `scaled central fraction ${scaledCentral}`);
      // the same seed gives the same numbers; chunks add up to the whole run
      assert.deepEqual(engine.varianceExperiment({ dk, samples, seed: 5, bins: 8 }), r);
      const first = engine.varianceExperiment({ dk, samples: 12000, seed: 5, bins: 8 });
      const rest = engine.varianceExperiment({ dk, samples: 8000, seed: 5, bins: 8, firstSample: 12000 });
      rawCounts.forEach((c, i) => assert.equal(first.histogram.rawCounts[i] + rest.histogram.rawCounts[i], c));
      assert.notDeepEqual(
        engine.varianceExperiment({ dk, samples: 1000, seed: 6 }).raw,
        engine.varianceExperiment({ dk, samples: 1000, seed: 5 }).raw,
      );
      // default bins
      assert.equal(engine.varianceExperiment({ dk: 4, samples: 100, seed: 1 }).histogram.edges.length, 61);
    });

    test('sinusoidal matches PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i+1] = cos(...)', () => {
      for (const [n, d, base] of [
        [6, 8, 10000],
        [5, 7, 100],
      ]) {
        const want = Array.from({ length: n }, (_, p) =>
          Array.from({ length: d }, (_, c) => {
            const angle = p / base ** ((c - (c % 2)) / d);
            return c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
          }),
        );
        const got = base === 10000 ? engine.sinusoidal({ n, d }) : engine.sinusoidal({ n, d, base });
        expectMatrix(`sinusoidal ${n}x${d}`, got, want);
      }
    });

    test('rope rotates pairs by (first + r) base^(-2i/d), and q_m·k_n depends only on m - n', () => {
      const x = randomRows(4, 6, 50);
      for (const first of [0, 3]) {
        const want = x.map((row, r) =>
          row.map((_, c) => {
            const i2 = c - (c % 2);
            const angle = (first + r) * 10000 ** (-i2 / 6);
            const [x0, x1] = [row[i2], row[i2 + 1]];
            return c % 2 === 0
              ? x0 * Math.cos(angle) - x1 * Math.sin(angle)
              : x0 * Math.sin(angle) + x1 * Math.cos(angle);
          }),
        );
        expectMatrix(`rope first=${first}`, engine.rope({ x, first }), want);
      }
      const q = randomRows(1, 8, 51)[0];
      const k = randomRows(1, 8, 52)[0];
      const at = (v, pos) => toRows(engine.rope({ x: [v], first: pos }))[0];
      const d1 = dot(at(q, 7), at(k, 4));
      const d2 = dot(at(q, 23), at(k, 20));
      assert.ok(Math.abs(d1 - d2) < 1e-4, `${d1} vs ${d2}`);
    });

    test('linear is x Wᵀ + b (torch.nn.Linear)', () => {
      const x = randomRows(3, 5, 60);
      const W = randomRows(4, 5, 61);
      const b = randomRows(1, 4, 62)[0];
      expectMatrix('linear', engine.linear({ x, W, b }), linearRef(x, W, b));
      expectMatrix('linear without bias', engine.linear({ x, W }), linearRef(x, W));
    });

    test('randomMatrix: N(0, 1) * scale, seeded, one stream per number', () => {
      const a = engine.randomMatrix({ rows: 200, cols: 100, seed: 9 });
      assert.equal(a.rows, 200);
      assert.equal(a.cols, 100);
      assert.ok(a.data instanceof Float32Array && a.data.length === 20000);
      const mean = a.data.reduce((s, x) => s + x, 0) / a.data.length;
      const variance = a.data.reduce((s, x) => s + (x - mean) ** 2, 0) / (a.data.length - 1);
      assert.ok(Math.abs(mean) < 0.04, `mean ${mean}`);
      assert.ok(Math.abs(variance - 1) < 0.04, `variance ${variance}`);
      const within1 = a.data.filter((x) => Math.abs(x) < 1).length / a.data.length;
      assert.ok(Math.abs(within1 - 0.6827) < 0.02, `P(|x| < 1) = ${within1}`);
      assert.deepEqual(engine.randomMatrix({ rows: 200, cols: 100, seed: 9 }), a);
      assert.notDeepEqual(engine.randomMatrix({ rows: 200, cols: 100, seed: 9, stream: 1 }).data, a.data);
      assert.notDeepEqual(engine.randomMatrix({ rows: 200, cols: 100, seed: 10 }).data, a.data);
      const scaled = engine.randomMatrix({ rows: 200, cols: 100, seed: 9, scale: 0.5 });
      scaled.data.forEach((x, i) => assert.ok(Math.abs(x - 0.5 * a.data[i]) <= 1e-6 * Math.abs(a.data[i])));
    });

    test('results are JS-owned copies: heap growth leaves earlier results intact', () => {
      const small = engine.attend({
        query: [[1, 2]],
        key: [
          [1, 0],
          [0, 1],
        ],
        value: [
          [1, 2],
          [3, 4],
        ],
      });
      const copy = Array.from(small.weights.data);
      const before = engine.memory();
      const n = engine.limits.maxTokens;
      const big = engine.attend({
        query: { rows: n, cols: 2, data: new Float32Array(2 * n).fill(0.5) },
        key: { rows: n, cols: 2, data: new Float32Array(2 * n).fill(0.25) },
        value: { rows: n, cols: 1, data: new Float32Array(n).fill(2) },
        causal: true,
      });
      assert.equal(big.weights.data.length, n * n);
      assert.ok(Math.abs(big.output.data[n - 1] - 2) < 1e-4);
      const after = engine.memory();
      assert.ok(after.heapBytes >= before.heapBytes);
      assert.equal(small.weights.data.length, 2);
      assert.deepEqual(Array.from(small.weights.data), copy);
      assert.equal(after.usedBytes, before.usedBytes, 'nothing left allocated');
    });

    test('memory() reports the allocator and the wasm memory size', () => {
      const m = engine.memory();
      // the Embind registry and the RNG tables live in the heap: a broken counter reads 0
      assert.ok(Number.isInteger(m.usedBytes) && m.usedBytes > 0);
      engine.attend({
        query: [[1, 2]],
        key: [
          [1, 0],
          [0, 1],
        ],
        value: [
          [1, 2],
          [3, 4],
        ],
      });
      assert.equal(engine.memory().usedBytes, m.usedBytes, 'a call frees what it allocated');
      assert.ok(Number.isInteger(m.heapBytes) && m.heapBytes >= 16 * 1024 * 1024);
      assert.ok(m.heapBytes % 65536 === 0);
      assert.ok(m.usedBytes < m.heapBytes);
    });
  });
}

test('the engine modules import nothing from Node, so a page bundler can take them as they are', () => {
  const calls = ['attend', 'flash', 'block', 'bugs', 'experiments'].map((area) => `engine/calls/${area}.js`);
  for (const file of [
    'engine.js',
    'engine/api.js',
    ...calls,
    'engine/loader.js',
    'engine/inputs.js',
    'engine/args.js',
  ]) {
    const source = readFileSync(new URL(`../../web/src/${file}`, import.meta.url), 'utf8');
    const imports = [
      ...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g),
    ].map((m) => m[1] ?? m[2]);
    assert.ok(imports.length > 0 || file === 'engine/args.js');
    for (const spec of imports) assert.match(spec, /^\.\.?\//, `${file} imports ${spec}`);
  }
});

test('loadEngine() with no options loads the SIMD build when the runtime supports it', async () => {
  assert.equal(simdSupported(), true); // Node 20 runs wasm SIMD128
  const engine = await loadEngine();
  assert.equal(engine.simd, true);
  assert.equal(engine, await loadEngine({ simd: true }));
  assert.equal(new AttentionError('x').name, 'AttentionError');
});
