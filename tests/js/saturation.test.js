// The lesson-5 engine functions (queryProbe, saturationSweep, mergeVariance) in both wasm
// builds, against double-precision references written here, and the variance experiment's
// statistics against theory with bounds from the sampling distribution.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine, simdSupported, AttentionError } from '../../web/src/engine.js';

// ---- references in double precision ----------------------------------------------------------

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

function softmaxRef(s, tau = 1) {
  const z = s.map((x) => x / tau);
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}
const entropyRef = (p) => -p.reduce((h, x) => (x > 0 ? h + x * Math.log(x) : h), 0);
const argmax = (v) => v.reduce((best, x, i) => (x > v[best] ? i : best), 0);

// ‖diag(p) - p pᵀ‖_F and the norm of its row at the argmax
function jacobianNorms(p) {
  const a = argmax(p);
  let fro = 0,
    row = 0;
  for (let i = 0; i < p.length; i++) {
    for (let j = 0; j < p.length; j++) {
      const x = (i === j ? p[i] : 0) - p[i] * p[j];
      fro += x * x;
      if (i === a) row += x * x;
    }
  }
  return { fro: Math.sqrt(fro), row: Math.sqrt(row) };
}

// The draws of trial t: q then the keys, consecutive normals of RNG stream t (documented in
// core/saturation.h), taken from the engine's randomMatrix as plain inputs.
function drawTrial(engine, dk, n, seed, trial) {
  const m = engine.randomMatrix({ rows: n + 1, cols: dk, seed, stream: trial });
  const rows = Array.from({ length: n + 1 }, (_, r) => Array.from(m.data.subarray(r * dk, (r + 1) * dk)));
  return { q: rows[0], keys: rows.slice(1) };
}

function probeRef(engine, { dk, nKeys, seed, trial, tau }) {
  const { q, keys } = drawTrial(engine, dk, nKeys, seed, trial);
  const raw = keys.map((k) => dot(q, k));
  const scaled = raw.map((x) => x / Math.sqrt(dk));
  return { raw, scaled, rawW: softmaxRef(raw, tau), scaledW: softmaxRef(scaled, tau) };
}

const close = (got, want, abs, rel = 0) => Math.abs(got - want) <= abs + rel * Math.abs(want);

function assertArrayClose(got, want, abs, rel, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) {
    assert.ok(close(got[i], want[i], abs, rel), `${what}[${i}]: got ${got[i]}, want ${want[i]}`);
  }
}

const BUILDS = simdSupported() ? [true, false] : [false];

for (const simd of BUILDS) {
  describe(`lesson-5 experiments, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    test('queryProbe matches a double reference (scores, weights, entropy, max)', () => {
      for (const dk of [1, 5, 64, 300]) {
        for (const tau of [1, 0.3, 4]) {
          const args = { dk, nKeys: 7, seed: 123, trial: 2, tau };
          const r = engine.queryProbe(args);
          const ref = probeRef(engine, args);
          // a float32 dot of d_k terms: error grows like sqrt(d_k) ulps of the terms
          assertArrayClose(r.rawScores, ref.raw, 1e-5 * Math.sqrt(dk) * 4, 1e-5, `raw scores dk ${dk}`);
          assertArrayClose(r.scaledScores, ref.scaled, 4e-5, 1e-5, `scaled scores dk ${dk}`);
          // exp turns a score error e into a relative weight error e / tau
          assertArrayClose(r.rawWeights, ref.rawW, 2e-4, 1e-3, `raw weights dk ${dk} tau ${tau}`);
          assertArrayClose(r.scaledWeights, ref.scaledW, 5e-5, 1e-3, `scaled weights dk ${dk} tau ${tau}`);
          assert.ok(close(r.scaledEntropy, entropyRef(ref.scaledW), 2e-4, 1e-3), `scaled entropy dk ${dk} tau ${tau}`);
          assert.ok(close(r.rawMax, Math.max(...ref.rawW), 2e-4, 1e-3), `raw max dk ${dk} tau ${tau}`);
          assert.ok(close(r.scaledMax, Math.max(...ref.scaledW), 5e-5, 1e-3), `scaled max dk ${dk} tau ${tau}`);
        }
      }
    });

    test('queryProbe: d_k = 1 leaves the scores unchanged; τ = √d_k on raw scores equals scaling', () => {
      const one = engine.queryProbe({ dk: 1, nKeys: 12, seed: 4 });
      assert.deepEqual(Array.from(one.rawWeights), Array.from(one.scaledWeights));
      const raw = engine.queryProbe({ dk: 256, nKeys: 12, seed: 4, tau: 16 });
      const scaled = engine.queryProbe({ dk: 256, nKeys: 12, seed: 4, tau: 1 });
      assertArrayClose(raw.rawWeights, Array.from(scaled.scaledWeights), 1e-6, 1e-5, 'raw at tau 16 vs scaled');
    });

    test('queryProbe: hard is one-hot at the argmax; Gumbel rows sum to 1 and become one-hot as τ → 0', () => {
      const r = engine.queryProbe({ dk: 16, nKeys: 10, seed: 8, tau: 0.01, scaled: true, gumbelSamples: 16 });
      const ref = probeRef(engine, { dk: 16, nKeys: 10, seed: 8, trial: 0, tau: 1 });
      const best = argmax(ref.scaled);
      assert.deepEqual(
        Array.from(r.hard),
        ref.scaled.map((_, j) => (j === best ? 1 : 0)),
      );
      assert.equal(r.gumbel.rows, 16);
      assert.equal(r.gumbel.cols, 10);
      const winners = new Set();
      let sharp = 0;
      for (let s = 0; s < 16; s++) {
        const row = Array.from(r.gumbel.data.subarray(s * 10, (s + 1) * 10));
        assert.ok(
          close(
            row.reduce((a, b) => a + b, 0),
            1,
            1e-5,
          ),
          `gumbel row ${s} sums to 1`,
        );
        if (Math.max(...row) > 0.95) sharp++;
        winners.add(argmax(row));
      }
      // nearly one-hot unless two noisy scores happen to fall within ~0.03 of each other
      assert.ok(sharp >= 14, `only ${sharp} of 16 Gumbel rows are nearly one-hot at tau 0.01`);
      assert.ok(winners.size >= 2, 'Gumbel samples land on different keys (a sample, not the argmax)');
      // at a high temperature the samples are soft
      const warm = engine.queryProbe({ dk: 16, nKeys: 10, seed: 8, tau: 5, scaled: true, gumbelSamples: 4 });
      assert.ok(Math.max(...warm.gumbel.data) < 0.9);
    });

    test('saturationSweep matches a double reference, trial by trial', () => {
      const args = { dks: [3, 40, 200], nKeys: 6, trials: 5, seed: 77 };
      const r = engine.saturationSweep(args);
      assert.ok(close(r.logN, Math.log(6), 1e-12));
      assert.deepEqual(
        r.points.map((p) => p.dk),
        args.dks,
      );
      for (const [i, dk] of args.dks.entries()) {
        const want = {
          raw: { maxWeight: 0, entropy: 0, jacobianNorm: 0, gradNorm: 0 },
          scaled: { maxWeight: 0, entropy: 0, jacobianNorm: 0, gradNorm: 0 },
        };
        for (let t = 0; t < args.trials; t++) {
          const ref = probeRef(engine, { dk, nKeys: 6, seed: 77, trial: t, tau: 1 });
          for (const [side, w] of [
            ['raw', ref.rawW],
            ['scaled', ref.scaledW],
          ]) {
            const j = jacobianNorms(w);
            want[side].maxWeight += Math.max(...w) / args.trials;
            want[side].entropy += entropyRef(w) / args.trials;
            want[side].jacobianNorm += j.fro / args.trials;
            want[side].gradNorm += j.row / args.trials;
          }
        }
        for (const side of ['raw', 'scaled']) {
          for (const key of Object.keys(want[side])) {
            const got = r.points[i][side][key];
            assert.ok(
              close(got, want[side][key], 1e-3, 1e-3),
              `dk ${dk} ${side}.${key}: got ${got}, want ${want[side][key]}`,
            );
          }
        }
      }
    });

    test('saturationSweep: raw softmax saturates and its Jacobian vanishes; scaled stays alive', () => {
      const r = engine.saturationSweep({ dks: [1, 16, 64, 256, 1024], nKeys: 16, trials: 300, seed: 5 });
      const [d1, d16, d64, d256, d1024] = r.points;
      assert.equal(d1.raw.maxWeight, d1.scaled.maxWeight, 'd_k = 1: scaling changes nothing');
      assert.ok(
        d16.raw.maxWeight < d64.raw.maxWeight &&
          d64.raw.maxWeight < d256.raw.maxWeight &&
          d256.raw.maxWeight < d1024.raw.maxWeight,
      );
      assert.ok(d1024.raw.maxWeight > 0.95, `raw max weight at d_k 1024: ${d1024.raw.maxWeight}`);
      assert.ok(d1024.raw.entropy < 0.1 * r.logN, `raw entropy at d_k 1024: ${d1024.raw.entropy}`);
      assert.ok(
        d16.raw.jacobianNorm > d64.raw.jacobianNorm &&
          d64.raw.jacobianNorm > d256.raw.jacobianNorm &&
          d256.raw.jacobianNorm > d1024.raw.jacobianNorm,
      );
      assert.ok(d1024.raw.jacobianNorm < 0.1);
      for (const p of [d16, d64, d256, d1024]) {
        assert.ok(Math.abs(p.scaled.maxWeight - d16.scaled.maxWeight) < 0.05, `scaled max at ${p.dk}`);
        assert.ok(p.scaled.entropy > 0.6 * r.logN, `scaled entropy at ${p.dk}`);
        assert.ok(p.scaled.jacobianNorm > 4 * d1024.raw.jacobianNorm, `scaled Jacobian at ${p.dk}`);
      }
    });

    test('mergeVariance: chunks merged by the engine equal one run; std is the root of the variance', () => {
      const one = engine.varianceExperiment({ dk: 32, samples: 9001, seed: 3, bins: 40 });
      let acc,
        done = 0;
      for (const count of [2, 4000, 4999]) {
        const part = engine.varianceExperiment({ dk: 32, samples: count, seed: 3, bins: 40, firstSample: done });
        acc = engine.mergeVariance({ a: acc, aSamples: done, b: part, bSamples: count });
        done += count;
      }
      assert.equal(acc.samples, 9001);
      assert.deepEqual(Array.from(acc.histogram.rawCounts), Array.from(one.histogram.rawCounts));
      assert.deepEqual(Array.from(acc.histogram.scaledCounts), Array.from(one.histogram.scaledCounts));
      assert.deepEqual(Array.from(acc.histogram.edges), Array.from(one.histogram.edges));
      for (const side of ['raw', 'scaled']) {
        assert.ok(close(acc[side].mean, one[side].mean, 1e-9), `${side} mean`);
        assert.ok(close(acc[side].variance, one[side].variance, 0, 1e-9), `${side} variance`);
        assert.ok(close(acc[side].std, Math.sqrt(one[side].variance), 0, 1e-9), `${side} std`);
      }
      assert.deepEqual(Array.from(acc.histogram.scaledEdges), Array.from(one.histogram.scaledEdges));
      // a hand example: {1, 2, 3} then {4, 5} -> mean 3, variance 2.5
      const part = (mean, variance, n) => ({
        raw: { mean, variance },
        scaled: { mean, variance },
        histogram: { edges: [0, 1], rawCounts: [n], scaledCounts: [n] },
      });
      const m = engine.mergeVariance({ a: part(2, 1, 3), aSamples: 3, b: part(4.5, 0.5, 2), bSamples: 2 });
      assert.ok(close(m.raw.mean, 3, 1e-12) && close(m.raw.variance, 2.5, 1e-12));
      assert.deepEqual(Array.from(m.histogram.rawCounts), [5]);
      // contents are checked: counts past int32, fractional or not adding up; NaN moments
      const bad = (edit) => {
        const p = part(4.5, 0.5, 2);
        edit(p);
        return p;
      };
      const refusedWith = (b, message) =>
        assert.throws(
          () => engine.mergeVariance({ a: part(2, 1, 3), aSamples: 3, b, bSamples: 2 }),
          (e) => e instanceof AttentionError && e.message === message,
          message,
        );
      refusedWith(
        bad((p) => {
          p.histogram.rawCounts = [2 ** 32 + 2];
        }),
        'b.histogram.rawCounts: expected whole counts from 0 to 1000000',
      );
      refusedWith(
        bad((p) => {
          p.histogram.scaledCounts = [1.5];
        }),
        'b.histogram.scaledCounts: expected whole counts from 0 to 1000000',
      );
      refusedWith(
        bad((p) => {
          p.histogram.rawCounts = [3];
        }),
        'b.histogram.rawCounts: the counts add up to 3, expected 2 (the samples)',
      );
      refusedWith(
        bad((p) => {
          p.raw.mean = NaN;
        }),
        'b.raw.mean: expected a number from -1e12 to 1e12, got NaN',
      );
      refusedWith(
        bad((p) => {
          p.scaled.variance = -Infinity;
        }),
        'b.scaled.variance: expected a number from 0 to 1e24, got -Infinity',
      );
      assert.ok(
        close(
          engine.mergeVariance({ a: part(2, 1, 3), aSamples: 3, b: part(4.5, 0.5, 2), bSamples: 2 }).raw.variance,
          2.5,
          1e-12,
        ),
      );
    });

    // Var(q·k) = d_k; the sample variance of n draws has standard error sqrt((2 d_k² + 6 d_k) / n)
    // (fourth moment of q·k: 3 d_k² + 6 d_k). Five standard errors: a false alarm about once in
    // 1.7 million runs, and the seeds are fixed, so the test is deterministic.
    test('variance experiment against theory, bounds from the sampling distribution', () => {
      const n = 20000;
      for (const dk of [1, 8, 64, 256]) {
        const r = engine.mergeVariance({
          b: engine.varianceExperiment({ dk, samples: n, seed: 11, bins: 10 }),
          bSamples: n,
        });
        const se = Math.sqrt((2 * dk * dk + 6 * dk) / n);
        assert.ok(
          Math.abs(r.raw.variance - dk) < 5 * se,
          `dk ${dk}: variance ${r.raw.variance}, want ${dk} ± ${5 * se}`,
        );
        assert.ok(Math.abs(r.raw.mean) < 5 * Math.sqrt(dk / n), `dk ${dk}: mean ${r.raw.mean}`);
        assert.ok(Math.abs(r.scaled.variance - 1) < (5 * se) / dk, `dk ${dk}: scaled variance ${r.scaled.variance}`);
        if (dk === 64) assert.ok(Math.abs(r.raw.std - 8) < 0.15, `d_k 64: std ${r.raw.std}, want about 8`);
      }
    });

    test('varianceRun: steps equal one experiment; raw and scaled edges from their own theory; deleted runs refuse', () => {
      const one = engine.varianceExperiment({ dk: 16, samples: 3000, seed: 4, bins: 12 });
      const run = engine.varianceRun({ dk: 16, seed: 4, bins: 12 });
      for (const n of [2, 998, 2000]) run.step(n);
      const s = run.snapshot();
      assert.equal(s.samples, 3000);
      assert.deepEqual(Array.from(s.histogram.rawCounts), Array.from(one.histogram.rawCounts));
      assert.deepEqual(Array.from(s.histogram.scaledCounts), Array.from(one.histogram.scaledCounts));
      assert.ok(close(s.raw.variance, one.raw.variance, 0, 1e-12), `${s.raw.variance} vs ${one.raw.variance}`);
      assert.ok(close(s.raw.std, Math.sqrt(one.raw.variance), 0, 1e-12));
      // ±4√d_k = ±16 for raw, ±4 for scaled, 12 bars each
      assert.equal(s.histogram.edges[0], -16);
      assert.equal(s.histogram.edges[12], 16);
      assert.equal(s.histogram.scaledEdges[0], -4);
      assert.equal(s.histogram.scaledEdges[12], 4);
      assert.throws(
        () => run.step(0),
        (e) => e instanceof AttentionError && e.message.startsWith('samples'),
      );
      assert.throws(
        () => run.step(999999),
        (e) => e instanceof AttentionError && /at most 1000000 samples/.test(e.message),
      );
      run.delete();
      run.delete(); // twice is harmless
      assert.throws(
        () => run.snapshot(),
        (e) => e instanceof AttentionError && e.message === 'varianceRun.snapshot: this run has been deleted',
      );
      assert.throws(
        () => engine.varianceRun({ dk: 0 }),
        (e) => e instanceof AttentionError && e.message.startsWith('dk'),
      );
      const before = engine.memory().usedBytes;
      for (let i = 0; i < 50; i++) {
        const r = engine.varianceRun({ dk: 64, seed: i, bins: 80 });
        r.step(10);
        r.snapshot();
        r.delete();
      }
      assert.ok(engine.memory().usedBytes <= before, 'runs that are deleted free their memory');
    });

    test('varianceSample: the q and k of sample i, and their q·k is the sample the experiment uses', () => {
      const dk = 8;
      const xs = [0, 1].map((i) => engine.varianceSample({ dk, seed: 9, sample: i }));
      for (const x of xs) {
        assert.equal(x.q.length, dk);
        assert.equal(x.k.length, dk);
        const dot = x.q.reduce((a, q, i) => a + q * x.k[i], 0); // in double
        assert.ok(Math.abs(dot - x.dot) < 1e-5 * (1 + Math.abs(dot)), `${dot} vs ${x.dot}`);
      }
      assert.notDeepEqual(Array.from(xs[0].q), Array.from(xs[1].q));
      const r = engine.varianceExperiment({ dk, samples: 2, seed: 9, bins: 4 });
      assert.ok(close(r.raw.mean, (xs[0].dot + xs[1].dot) / 2, 1e-12));
      assert.ok(close(r.raw.variance, (xs[0].dot - xs[1].dot) ** 2 / 2, 0, 1e-9));
      assert.throws(
        () => engine.varianceSample({ dk, sample: 1000000 }),
        (e) => e instanceof AttentionError && e.message.startsWith('sample'),
      );
    });

    test('bad input is refused with an AttentionError naming the argument', () => {
      const refused = (fn, name) =>
        assert.throws(fn, (e) => e instanceof AttentionError && e.message.startsWith(name), name);
      refused(() => engine.queryProbe({ dk: 0 }), 'dk');
      refused(() => engine.queryProbe({ dk: 1025 }), 'dk');
      refused(() => engine.queryProbe({ dk: 2.5 }), 'dk');
      refused(() => engine.queryProbe({ dk: '64' }), 'dk');
      refused(() => engine.queryProbe({ nKeys: 1 }), 'nKeys');
      refused(() => engine.queryProbe({ tau: 0 }), 'tau');
      refused(() => engine.queryProbe({ tau: NaN }), 'tau');
      refused(() => engine.queryProbe({ gumbelSamples: 65 }), 'gumbelSamples');
      refused(() => engine.queryProbe({ temperature: 1 }), 'queryProbe');
      refused(() => engine.saturationSweep({ dks: [] }), 'dks');
      refused(() => engine.saturationSweep({ dks: [64, 0] }), 'dks[1]');
      refused(() => engine.saturationSweep({ dks: 64 }), 'dks');
      refused(() => engine.saturationSweep({ dks: [64], nKeys: 257 }), 'nKeys');
      refused(() => engine.saturationSweep({ dks: [64], trials: 0 }), 'trials');
      refused(() => engine.saturationSweep({ dks: [1024, 1024, 1024], nKeys: 256, trials: 100000 }), 'trials');
      refused(() => engine.varianceExperiment({ dk: 64, samples: 1000001 }), 'samples');
      const a = engine.varianceExperiment({ dk: 4, samples: 10, bins: 5 });
      const b = engine.varianceExperiment({ dk: 8, samples: 10, bins: 5 });
      refused(() => engine.mergeVariance({ a, aSamples: 10, b, bSamples: 10 }), 'edges');
      refused(() => engine.mergeVariance({ a, aSamples: 10, b: a, bSamples: 0 }), 'bSamples');
      refused(() => engine.mergeVariance({ a, aSamples: 10, b: { raw: 1 }, bSamples: 10 }), 'b');
      refused(() => engine.mergeVariance({ a, aSamples: 999999, b: a, bSamples: 10 }), 'samples');
    });

    test('repeated calls and refused calls do not grow the wasm heap', () => {
      const run = () => {
        engine.queryProbe({ dk: 128, nKeys: 32, gumbelSamples: 8 });
        engine.saturationSweep({ dks: [8, 64], nKeys: 8, trials: 10 });
        const v = engine.varianceExperiment({ dk: 16, samples: 1000, bins: 20 });
        engine.mergeVariance({ a: v, aSamples: 1000, b: v, bSamples: 1000 });
        try {
          engine.saturationSweep({ dks: [5000] });
        } catch {
          /* refused */
        }
      };
      for (let i = 0; i < 5; i++) run();
      const before = engine.memory().usedBytes;
      for (let i = 0; i < 50; i++) run();
      assert.ok(engine.memory().usedBytes <= before, `heap use grew from ${before} to ${engine.memory().usedBytes}`);
    });
  });
}

// Same seed -> same numbers in the SIMD and scalar builds.
describe('SIMD and scalar builds agree', { skip: !simdSupported() }, () => {
  test('the same seed gives the same histogram and moments in both builds', async () => {
    const simd = await loadEngine({ simd: true });
    const scalar = await loadEngine({ simd: false });
    for (const dk of [1, 7, 64, 1024]) {
      const args = { dk, samples: 3000, seed: 99, bins: 64 };
      const a = simd.varianceExperiment(args);
      const b = scalar.varianceExperiment(args);
      assert.deepEqual(Array.from(a.histogram.rawCounts), Array.from(b.histogram.rawCounts), `dk ${dk} raw counts`);
      assert.deepEqual(
        Array.from(a.histogram.scaledCounts),
        Array.from(b.histogram.scaledCounts),
        `dk ${dk} scaled counts`,
      );
      assert.equal(a.raw.variance, b.raw.variance, `dk ${dk} variance`);
    }
  });

  test('queryProbe and saturationSweep agree between the builds to float precision', async () => {
    const simd = await loadEngine({ simd: true });
    const scalar = await loadEngine({ simd: false });
    const a = simd.queryProbe({ dk: 64, nKeys: 16, seed: 2 });
    const b = scalar.queryProbe({ dk: 64, nKeys: 16, seed: 2 });
    assertArrayClose(a.rawScores, Array.from(b.rawScores), 1e-4, 1e-5, 'raw scores');
    assertArrayClose(a.scaledWeights, Array.from(b.scaledWeights), 1e-5, 1e-4, 'scaled weights');
    const sa = simd.saturationSweep({ dks: [16, 256], trials: 50 });
    const sb = scalar.saturationSweep({ dks: [16, 256], trials: 50 });
    for (let i = 0; i < 2; i++) {
      for (const side of ['raw', 'scaled']) {
        assert.ok(close(sa.points[i][side].jacobianNorm, sb.points[i][side].jacobianNorm, 1e-4, 1e-3));
      }
    }
  });
});
