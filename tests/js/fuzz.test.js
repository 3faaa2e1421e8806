// Random valid and mutated calls of every engine function: a fixed number per seed, so a run
// tries the same calls on every machine and a failure reproduces (FUZZ_SEED=<seed>
// FUZZ_CASES=<n> node --test tests/js/fuzz.test.js).
// Every call either returns or throws an AttentionError; an accepted call returns no NaN or
// Infinity (except the documented ones: -Infinity in attend's masked stage, and the naive
// softmax's results when it says overflow: true); afterwards the engine still answers a known
// case correctly and holds no more wasm memory than before.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine, AttentionError } from '../../web/src/engine.js';
import { attendRef, expectAttend, expectMatrix, mulberry32, softmaxRef } from './reference.js';

const SEED = Number(process.env.FUZZ_SEED || 20261201);
const CASES = Number(process.env.FUZZ_CASES || 6000);
const SECONDS = 600; // a cap against a hang, not a budget: past it the run fails

// ---- random inputs --------------------------------------------------------------------------

function makeRandom(seed) {
  const next = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  const chance = (p) => next() < p;
  const number = (scale = 2) => (next() * 2 - 1) * scale;
  // rows x cols: nested arrays, { rows, cols, data } with an Array or a typed array
  const matrix = (rows, cols, scale = 2) => {
    const data = Array.from({ length: rows * cols }, () => number(scale));
    const form = int(0, 3);
    if (form === 0) return Array.from({ length: rows }, (_, r) => data.slice(r * cols, (r + 1) * cols));
    if (form === 1) return { rows, cols, data };
    if (form === 2) return { rows, cols, data: Float32Array.from(data) };
    return { rows, cols, data: Float64Array.from(data) };
  };
  return { next, int, pick, chance, number, matrix };
}

// Values a careless or hostile caller passes where something else was expected.
function oddValue(R) {
  const sparse = new Array(2 ** 32 - 1);
  return R.pick([
    NaN,
    Infinity,
    -Infinity,
    1e39,
    -1e39,
    1e300,
    1e-300,
    1e-45,
    3e38,
    -3e38,
    1e20,
    -1,
    0,
    2.5,
    2 ** 32,
    2 ** 53,
    '2',
    '',
    'neg-inf',
    null,
    undefined,
    true,
    false,
    {},
    [],
    [[]],
    [[1, 2], [3]],
    Symbol('s'),
    10n,
    new Date(0),
    Promise.resolve(1),
    new WeakMap(),
    Object(3),
    () => 1,
    sparse,
    new Int32Array(3),
    new Float32Array([NaN]),
    { rows: 2, cols: 2, data: [1, 2, 3] },
    { rows: 1e9, cols: 1e9, data: sparse },
    new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    ),
    Object.defineProperty({}, 'data', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    }),
  ]);
}

// A valid call of each function, as [name, options] (softmaxJacobian takes p itself).
function validCall(R) {
  const nQ = R.int(1, 6),
    nK = R.int(1, 6),
    d = R.int(1, 6),
    dv = R.int(1, 4);
  const fill = () => R.pick(['neg-inf', 'large-negative', 'zero']);
  const fn = R.pick([
    'attend',
    'attend',
    'multiHead',
    'softmax',
    'softmaxJacobian',
    'hardAttention',
    'gumbelSoftmax',
    'sinusoidal',
    'rope',
    'linear',
    'randomMatrix',
    'varianceExperiment',
    'queryProbe',
    'saturationSweep',
  ]);
  switch (fn) {
    case 'attend': {
      const o = { query: R.matrix(nQ, d), key: R.matrix(nK, d), value: R.matrix(nK, dv) };
      const score = R.pick(['dot', 'scaled-dot', 'additive', 'general']);
      o.score = score;
      if (score === 'additive') {
        const h = R.int(1, 5);
        o.additive = { Wq: R.matrix(h, d), Wk: R.matrix(h, d), v: Array.from({ length: h }, () => R.number()) };
      }
      if (score === 'general') o.general = { W: R.matrix(d, d) };
      if (R.chance(0.3)) o.causal = true;
      if (R.chance(0.2)) o.reverseCausal = true;
      if (R.chance(0.3)) o.keyPadding = Array.from({ length: nK }, () => R.chance(0.3));
      if (R.chance(0.3))
        o.mask = Array.from({ length: nQ }, () => Array.from({ length: nK }, () => (R.chance(0.7) ? 1 : 0)));
      if (R.chance(0.3)) o.maskFill = fill();
      if (R.chance(0.3)) o.temperature = R.pick([0.1, 0.5, 2, 10]);
      if (R.chance(0.2)) o.stable = false;
      if (R.chance(0.3)) o.stages = false;
      return ['attend', o];
    }
    case 'multiHead': {
      const heads = R.pick([1, 2, 3]);
      const dm = heads * R.int(1, 3);
      const o = {
        query: R.matrix(nQ, dm),
        key: R.matrix(nK, dm),
        value: R.matrix(nK, dm),
        heads,
        Wq: R.matrix(dm, dm),
        Wk: R.matrix(dm, dm),
        Wv: R.matrix(dm, dm),
        Wo: R.matrix(dm, dm),
      };
      if (R.chance(0.5)) o.bq = Array.from({ length: dm }, () => R.number());
      if (R.chance(0.3)) o.causal = true;
      return ['multiHead', o];
    }
    case 'softmax':
      return ['softmax', { scores: R.matrix(nQ, nK, 10), stable: R.chance(0.7), temperature: R.pick([0.2, 1, 3]) }];
    case 'softmaxJacobian':
      return ['softmaxJacobian', Array.from({ length: nK }, () => R.next())];
    case 'hardAttention':
      return ['hardAttention', { scores: R.matrix(nQ, nK) }];
    case 'gumbelSoftmax':
      return ['gumbelSoftmax', { scores: R.matrix(nQ, nK), tau: R.pick([0.1, 1, 5]), seed: R.int(0, 1000) }];
    case 'sinusoidal':
      return ['sinusoidal', { n: nQ, d, base: R.pick([100, 10000]) }];
    case 'rope':
      return ['rope', { x: R.matrix(nQ, 2 * d), first: R.int(0, 100) }];
    case 'linear':
      return [
        'linear',
        {
          x: R.matrix(nQ, d),
          W: R.matrix(dv, d),
          b: R.chance(0.5) ? Array.from({ length: dv }, () => R.number()) : undefined,
        },
      ];
    case 'randomMatrix':
      return [
        'randomMatrix',
        { rows: nQ, cols: nK, seed: R.int(0, 99), stream: R.int(0, 9), scale: R.pick([0.5, 1, -3]) },
      ];
    case 'varianceExperiment':
      return ['varianceExperiment', { dk: d, samples: R.int(2, 200), seed: R.int(0, 99), bins: R.int(1, 16) }];
    case 'queryProbe':
      return [
        'queryProbe',
        { dk: d, nKeys: R.int(2, 8), seed: R.int(0, 99), tau: R.pick([0.5, 1]), gumbelSamples: R.int(0, 3) },
      ];
    default:
      return [
        'saturationSweep',
        { dks: [R.int(1, 8), R.int(1, 8)], nKeys: R.int(2, 8), trials: R.int(1, 5), seed: R.int(0, 99) },
      ];
  }
}

// One mutation of a valid call: an odd value somewhere, an extreme entry, a wrong size, an
// unknown or missing option, or an odd options object.
function mutate(R, fn, options) {
  if (fn === 'softmaxJacobian') {
    if (R.chance(0.5)) return oddValue(R);
    const p = [...options];
    p[R.int(0, p.length - 1)] = R.pick([NaN, 1e20, 'x', -Infinity, 1e39]);
    return p;
  }
  const o = { ...options };
  const keys = Object.keys(o);
  const kind = R.int(0, 5);
  if (kind === 0 && keys.length) o[R.pick(keys)] = oddValue(R);
  else if (kind === 1) {
    // an extreme entry inside one matrix
    const key = R.pick(keys.filter((k) => typeof o[k] === 'object' && o[k] !== null).concat(['none']));
    const m = o[key];
    const extreme = R.pick([1e20, -1e20, 3e38, 1e30, 1e-40, NaN, Infinity, -Infinity, 1e39]);
    if (Array.isArray(m) && Array.isArray(m[0])) {
      const copy = m.map((row) => [...row]);
      copy[R.int(0, copy.length - 1)][R.int(0, copy[0].length - 1)] = extreme;
      o[key] = copy;
    } else if (m && m.data && m.data.length) {
      const data = Array.from(m.data);
      data[R.int(0, data.length - 1)] = extreme;
      o[key] = { ...m, data };
    }
  } else if (kind === 2) {
    // a wrong size: one row or column fewer or more
    const key = R.pick(keys);
    const m = o[key];
    if (Array.isArray(m) && Array.isArray(m[0])) {
      o[key] = R.chance(0.5) ? m.slice(0, -1) : m.map((row) => row.concat([1]));
    }
  } else if (kind === 3) {
    o[R.pick(['foo', 'fill', 'Temperature', 'dropout'])] = 1;
  } else if (kind === 4 && keys.length) {
    delete o[R.pick(keys)];
  } else {
    return R.pick([null, 42, 'options', [o], new Date(0), Object.create(Array.prototype)]);
  }
  return o;
}

// ---- what an accepted call may return ----------------------------------------------------------

// Every number in the result is finite, except -Infinity in `masked` and the naive softmax's
// results when the call says overflow: true. Returns the path of the first offender, or ''.
function nonFinite(value, path = 'result', overflow = false) {
  if (typeof value === 'number') return Number.isFinite(value) ? '' : `${path} = ${value}`;
  if (ArrayBuffer.isView(value)) {
    for (let i = 0; i < value.length; i++) {
      const x = value[i];
      if (Number.isFinite(x)) continue;
      if (path.endsWith('.masked.data') && x === -Infinity) continue;
      if (overflow && /\.(weights|output|entropy)\b/.test(path)) continue;
      return `${path}[${i}] = ${x}`;
    }
    return '';
  }
  if (value && typeof value === 'object') {
    const flag = overflow || value.overflow === true;
    for (const [k, v] of Object.entries(value)) {
      const bad = nonFinite(v, `${path}.${k}`, flag);
      if (bad) return bad;
    }
  }
  return '';
}

// ---- the run -------------------------------------------------------------------------------------

test(`fuzz: ${CASES} random valid and mutated calls (seed ${SEED}), both builds`, async () => {
  const engines = [await loadEngine({ simd: true }), await loadEngine({ simd: false })];
  const R = makeRandom(SEED);
  // warm-up: the first call of each function may allocate for good
  for (let i = 0; i < 200; i++) {
    const [fn, options] = validCall(R);
    for (const e of engines) fn === 'softmaxJacobian' ? e[fn](options) : e[fn](options);
  }
  const before = engines.map((e) => e.memory().usedBytes);
  const stats = { calls: 0, accepted: 0, refused: 0 };
  const cap = Date.now() + SECONDS * 1000;
  for (let i = 0; i < CASES; i++) {
    assert.ok(Date.now() < cap, `${i} of ${CASES} calls in the ${SECONDS} s cap`);
    const [fn, valid] = validCall(R);
    const options = R.chance(0.6) ? mutate(R, fn, valid) : valid;
    const engine = engines[i % 2];
    const where = `seed ${SEED}, call ${i}: ${fn}`;
    let result;
    try {
      result = engine[fn](options);
    } catch (e) {
      assert.ok(e instanceof AttentionError, `${where} threw ${e && e.name}: ${e && e.message}`);
      assert.ok(/^[\w.[\]]+: /.test(e.message), `${where}: the message names an argument: ${e.message}`);
      stats.refused++;
      stats.calls++;
      continue;
    }
    stats.accepted++;
    stats.calls++;
    if (fn !== 'mergeVariance') {
      const bad = nonFinite(result);
      assert.equal(bad, '', `${where} returned ${bad}`);
    }
  }
  console.log(`fuzz: ${stats.calls} calls (${stats.accepted} accepted, ${stats.refused} refused)`);
  assert.ok(stats.accepted > 100 && stats.refused > 100, JSON.stringify(stats));
  // a known case afterwards, against the double reference
  const known = {
    query: [
      [1, 0, 2],
      [0, 1, -1],
    ],
    key: [
      [1, 1, 0],
      [0, 2, 1],
      [-1, 0, 1],
    ],
    value: [
      [1, 2],
      [3, 4],
      [5, 6],
    ],
    causal: true,
  };
  engines.forEach((e, k) => {
    expectAttend('known attend', e.attend(known), attendRef(known));
    expectMatrix('known softmax', e.softmax({ scores: [[2.6, 1.2, 6.1, 2.0]] }).weights, [
      softmaxRef([2.6, 1.2, 6.1, 2.0]),
    ]);
    assert.equal(e.memory().usedBytes, before[k], 'the allocator holds what it held before the run');
  });
});
