// The SIMD and scalar builds agree: the seeded RNG and everything drawn from it bit for bit,
// the arithmetic within float32 tolerance (the SIMD kernels sum in a different order).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine } from '../../web/src/engine.js';
import { randomRows } from '../support/random.js';

const ABS = 1e-5;
const REL = 1e-4;

let simd;
let scalar;
before(async () => {
  simd = await loadEngine({ simd: true });
  scalar = await loadEngine({ simd: false });
  assert.equal(simd.simd, true);
  assert.equal(scalar.simd, false);
});

// Same bits: compares the raw 32-bit patterns (so NaN == NaN and -0 != 0).
function sameBits(what, a, b) {
  assert.equal(a.length, b.length, `${what}: length`);
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  const i = ua.findIndex((x, k) => x !== ub[k]);
  assert.equal(i, -1, `${what}: first difference at ${i}: ${a[i]} vs ${b[i]}`);
}

// |SIMD - scalar| <= ABS * scale + REL * |scalar|, scale = the largest finite magnitude in the
// result (a dot product that cancels to near 0 keeps the rounding of its largest terms); the
// -1e9 mask fill is a marker, not a magnitude.
function closeArrays(what, a, b) {
  assert.equal(a.length, b.length, `${what}: length`);
  const scale = Math.max(
    1,
    ...Array.from(b)
      .filter((v) => Number.isFinite(v) && v !== -1e9)
      .map(Math.abs),
  );
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (Number.isNaN(x) || Number.isNaN(y) || !Number.isFinite(x) || !Number.isFinite(y)) {
      assert.ok(Object.is(x, y), `${what}[${i}]: ${x} vs ${y}`);
    } else {
      assert.ok(Math.abs(x - y) <= ABS * scale + REL * Math.abs(y), `${what}[${i}]: SIMD ${x} vs scalar ${y}`);
    }
  }
}

function closeMatrices(what, a, b) {
  assert.equal(a.rows, b.rows, `${what}: rows`);
  assert.equal(a.cols, b.cols, `${what}: cols`);
  closeArrays(what, a.data, b.data);
}

function closeAttend(what, a, b) {
  for (const stage of ['scores', 'scaled', 'mask', 'masked', 'weights', 'output'])
    closeMatrices(`${what}.${stage}`, a[stage], b[stage]);
  closeArrays(`${what}.entropy`, a.entropy, b.entropy);
  assert.deepEqual(a.fullyMaskedRows, b.fullyMaskedRows);
}

test('randomMatrix: bit-identical in both builds for the same seed, stream and scale', () => {
  for (const [rows, cols, seed, stream, scale] of [
    [1, 1, 0, 0, 1],
    [7, 3, 1, 0, 1],
    [5, 67, 42, 3, 1],
    [64, 64, 2 ** 32 - 1, 9, 0.125],
    [2048, 2, 77, 0, 3],
  ]) {
    const o = { rows, cols, seed, stream, scale };
    const a = simd.randomMatrix(o);
    const b = scalar.randomMatrix(o);
    assert.equal(a.rows, rows);
    assert.equal(a.cols, cols);
    sameBits(JSON.stringify(o), a.data, b.data);
  }
});

test('randomMatrix with streams: row i is the matrix of stream streams[i], in both builds', () => {
  const streams = [5, 0, 2 ** 32 - 1, 5, 123456];
  for (const engine of [simd, scalar]) {
    for (const scale of [1, 0.25]) {
      const m = engine.randomMatrix({
        rows: streams.length,
        cols: 13,
        seed: 9,
        streams: Float64Array.from(streams),
        scale,
      });
      assert.equal(m.rows, streams.length);
      streams.forEach((stream, i) => {
        const row = engine.randomMatrix({ rows: 1, cols: 13, seed: 9, stream, scale });
        sameBits(`stream ${stream}, scale ${scale}`, m.data.subarray(13 * i, 13 * i + 13), row.data);
      });
    }
  }
  sameBits(
    'simd vs scalar',
    simd.randomMatrix({ rows: 5, cols: 13, seed: 9, streams }).data,
    scalar.randomMatrix({ rows: 5, cols: 13, seed: 9, streams }).data,
  );
});

test('varianceExperiment: identical results in both builds (d_k below, at and past the 4-lane width)', () => {
  for (const dk of [1, 3, 4, 5, 7, 64, 67]) {
    const o = { dk, samples: 3001, seed: 1234 + dk, bins: 37 };
    const a = simd.varianceExperiment(o);
    const b = scalar.varianceExperiment(o);
    assert.deepEqual(a, b, `d_k = ${dk}`);
    assert.ok(a.raw.variance > 0);
  }
  // a chunk that starts mid-run
  const o = { dk: 16, samples: 500, seed: 3, firstSample: 777 };
  assert.deepEqual(simd.varianceExperiment(o), scalar.varianceExperiment(o));
});

test('attend: both builds agree within float32 tolerance, for every score, mask and size', () => {
  let seed = 1;
  for (const [nQ, nK, d, dV] of [
    [1, 1, 1, 1],
    [2, 3, 3, 2],
    [4, 4, 4, 4],
    [5, 7, 5, 3],
    [9, 17, 16, 8],
    [13, 33, 67, 5],
    [64, 64, 64, 64],
  ]) {
    const query = randomRows(nQ, d, seed++, 2);
    const key = randomRows(nK, d, seed++, 2);
    const value = randomRows(nK, dV, seed++);
    const mask = randomRows(nQ, nK, seed++).map((row) => row.map((x) => (x > -0.6 ? 1 : 0)));
    const keyPadding = Array.from({ length: nK }, (_, j) => j === nK - 1 && nK > 1);
    const variants = [
      {},
      { score: 'dot', temperature: 0.7 },
      { causal: true, maskFill: 'large-negative' },
      { mask, keyPadding, maskFill: 'zero' },
      { mask, causal: true },
      { score: 'general', general: { W: randomRows(d, d, seed++) } },
      {
        score: 'additive',
        additive: { Wq: randomRows(6, d, seed++), Wk: randomRows(6, d, seed++), v: randomRows(1, 6, seed++)[0] },
      },
    ];
    for (const v of variants) {
      const o = { query, key, value, ...v };
      closeAttend(`(${nQ}, ${nK}, ${d}, ${dV}) ${JSON.stringify(Object.keys(v))}`, simd.attend(o), scalar.attend(o));
    }
  }
});

test('softmax: both builds agree, including logits in [90, 100] where a naive exp overflows', () => {
  for (const cols of [1, 3, 4, 5, 8, 31, 67]) {
    const scores = randomRows(3, cols, cols, 5).map((row, r) => (r === 2 ? row.map((x) => 95 + x) : row));
    const a = simd.softmax({ scores });
    const b = scalar.softmax({ scores });
    closeMatrices(`softmax (3, ${cols})`, a.weights, b.weights);
    closeArrays(`entropy (3, ${cols})`, a.entropy, b.entropy);
    const naiveA = simd.softmax({ scores, stable: false }).weights;
    const naiveB = scalar.softmax({ scores, stable: false }).weights;
    closeMatrices(`naive softmax (3, ${cols})`, naiveA, naiveB);
    assert.ok(naiveA.data.subarray(2 * cols).every(Number.isNaN), 'naive overflow gives NaN in both');
  }
});

test('multiHead, gumbelSoftmax, positional encodings, linear: both builds agree', () => {
  const x = randomRows(6, 12, 90);
  const W = (seed) => randomRows(12, 12, seed, 0.5);
  const o = {
    query: x,
    key: x,
    value: x,
    heads: 3,
    Wq: W(91),
    Wk: W(92),
    Wv: W(93),
    Wo: W(94),
    bq: randomRows(1, 12, 95)[0],
    bo: randomRows(1, 12, 96)[0],
    causal: true,
  };
  const a = simd.multiHead(o);
  const b = scalar.multiHead(o);
  a.heads.forEach((h, i) => closeAttend(`head ${i}`, h, b.heads[i]));
  closeMatrices('concat', a.concat, b.concat);
  closeMatrices('output', a.output, b.output);

  const scores = randomRows(5, 9, 97, 3);
  closeMatrices(
    'gumbel',
    simd.gumbelSoftmax({ scores, tau: 0.5, seed: 8 }),
    scalar.gumbelSoftmax({ scores, tau: 0.5, seed: 8 }),
  );
  closeMatrices('hard', simd.hardAttention({ scores }), scalar.hardAttention({ scores }));
  closeMatrices('sinusoidal', simd.sinusoidal({ n: 20, d: 10 }), scalar.sinusoidal({ n: 20, d: 10 }));
  closeMatrices(
    'rope',
    simd.rope({ x: randomRows(7, 8, 98), first: 5 }),
    scalar.rope({ x: randomRows(7, 8, 98), first: 5 }),
  );
  closeMatrices(
    'linear',
    simd.linear({ x, W: W(99), b: randomRows(1, 12, 100)[0] }),
    scalar.linear({ x, W: W(99), b: randomRows(1, 12, 100)[0] }),
  );
  closeMatrices(
    'jacobian',
    simd.softmaxJacobian([0.1, 0.2, 0.3, 0.4, 0]),
    scalar.softmaxJacobian([0.1, 0.2, 0.3, 0.4, 0]),
  );
});
