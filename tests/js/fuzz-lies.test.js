// Random calls of the trainer and of the attention pool with arrays that lie, a fixed number of
// rounds per seed, so a run tries the same calls on every machine and a failure reproduces
// (FUZZ_SEED=<seed> FUZZ_CASES=<rounds> node --test tests/js/fuzz-lies.test.js): Float32Arrays
// with an own or inherited `length` that says something else, getters honest a few times and
// then not, Proxies whose traps lie about the length or the entries, and getters that re-enter
// the engine (delete the trainer being called, make another). Every call returns or throws an
// AttentionError; no engine stops; a trainer that no call names keeps its weights; afterwards
// every module answers a known case correctly and the trainer module holds no more memory than
// before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeWorker } from '../support/workers.js';

import { AttentionError, loadEngine } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { createAttendPool } from '../../web/src/workers/attend-pool.js';
import { mulberry32 } from './reference.js';

const SEED = Number(process.env.FUZZ_SEED || 20261202);
const ROUNDS = Number(process.env.FUZZ_CASES || 30); // each: a trainer, 4 calls, maybe a pool run
const SECONDS = 600; // a cap against a hang, not a budget: past it the run fails

function makeRandom(seed) {
  const next = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  return { next, int, pick, chance: (p) => next() < p };
}

// n numbers as one of the lying kinds of array (or an honest one); `reenter` is called by the
// getters that re-enter the engine.
function lyingNumbers(R, n, reenter, values = Array.from({ length: n }, () => R.next() * 2 - 1)) {
  const said = R.pick([0, 1, n - 1, n + 1, 2 * n, 2 ** 28, 2 ** 32 - 1, -1, NaN, 1.5]);
  switch (R.int(0, 8)) {
    case 0: {
      const d = Float32Array.from(values);
      Object.defineProperty(d, 'length', { value: said });
      return d;
    }
    case 1: {
      class Lying extends Float32Array {
        get length() {
          return said;
        }
      }
      return Lying.from(values);
    }
    case 2: {
      const d = Float32Array.from(values);
      let reads = 0;
      const honest = R.int(0, 4);
      Object.defineProperty(d, 'length', { get: () => (++reads <= honest ? n : said) });
      return d;
    }
    case 3: {
      let reads = 0;
      return new Proxy(values, {
        get: (t, k) => (k === 'length' ? (++reads === 1 ? n : said) : t[k]),
      });
    }
    case 4: {
      let reads = 0;
      return new Proxy(values, {
        get: (t, k) => (k === 'length' ? n : k === '0' && ++reads > 1 ? 'changed' : t[k]),
      });
    }
    case 5: {
      class Reentrant extends Float32Array {
        get length() {
          reenter();
          return super.length;
        }
      }
      return Reentrant.from(values);
    }
    case 6:
      return new Proxy(values, {
        get: (t, k) => {
          if (k === '1') reenter();
          return t[k];
        },
      });
    case 7:
      return new Proxy(values, {
        get: (t, k) => {
          if (k === 'length') throw new Error('trap');
          return t[k];
        },
      });
    default:
      return Float32Array.from(values);
  }
}

// A matrix argument whose data (or whose rows) lie, now and then through a getter that re-enters.
function lyingMatrix(R, rows, cols, reenter) {
  if (R.chance(0.3)) {
    return Array.from({ length: rows }, () => lyingNumbers(R, cols, reenter));
  }
  const m = { rows, cols, data: lyingNumbers(R, rows * cols, reenter) };
  if (R.chance(0.15)) {
    const data = m.data;
    return {
      rows,
      cols,
      get data() {
        reenter();
        return data;
      },
    };
  }
  return m;
}

const isAttentionError = (e) => e instanceof AttentionError && /^[\w.[\]]+: /.test(e.message);

test(`fuzz: ${ROUNDS} rounds of the trainer and the pool with lying arrays (seed ${SEED})`, async () => {
  const train = await loadTrainEngine({ simd: false });
  const lessons = await loadEngine({ simd: false });
  const pool = createAttendPool({
    workers: 2,
    simd: false,
    createWorker: () => nodeWorker(new URL('../../web/src/workers/attend-worker.js', import.meta.url)),
  });
  const small = { dModel: 8, heads: 2, layers: 1, batch: 2 };
  const bystander = train.trainer({ ...small, seed: 99 });
  const bystanderWeights = JSON.stringify(Object.values(bystander.parameters()).map((t) => Array.from(t.data)));
  const used = train.memory().usedBytes;
  const R = makeRandom(SEED);
  const counts = { trainerCalls: 0, poolRuns: 0, accepted: 0, refused: 0 };
  const cap = Date.now() + SECONDS * 1000;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      assert.ok(Date.now() < cap, `${round} of ${ROUNDS} rounds in the ${SECONDS} s cap`);
      const made = [];
      let t = train.trainer(small);
      made.push(t);
      const reenter = () => {
        if (R.chance(0.5)) t.delete();
        if (made.length < 6) made.push(train.trainer(small));
      };
      for (let call = 0; call < 4; call++) {
        counts.trainerCalls++;
        try {
          switch (R.int(0, 3)) {
            case 0: {
              const name = R.pick(['embedding', 'layers.0.Wq', 'layers.0.bo', 'unembeddingBias']);
              const shape = {
                embedding: [16, 8],
                'layers.0.Wq': [8, 8],
                'layers.0.bo': [1, 8],
                unembeddingBias: [1, 16],
              }[name];
              t.setParameters({ [name]: lyingMatrix(R, shape[0], shape[1], reenter) });
              break;
            }
            case 1: {
              const n = R.int(1, 5);
              const ints = Array.from({ length: n }, () => R.int(-1, 17));
              const tokens = R.chance(0.5) ? ints : lyingNumbers(R, n, reenter, ints);
              t.run(tokens);
              break;
            }
            case 2: {
              const n = R.int(1, 4);
              const tokens = Array.from({ length: n }, () => R.int(-1, 17));
              const ints = Array.from({ length: n }, () => R.int(-2, 17));
              const targets = R.chance(0.5) ? lyingNumbers(R, n, reenter, ints) : ints;
              (R.chance(0.5) ? t.gradients : t.stepOn)({ tokens, targets });
              break;
            }
            default:
              t.step(R.pick([1, 2, 0, -1, 1.5, 2 ** 32 + 1]));
          }
          counts.accepted++;
        } catch (e) {
          assert.ok(isAttentionError(e), `trainer: ${e?.name}: ${e?.message}`);
          counts.refused++;
        }
        assert.equal(train.stopped, false, 'the trainer module still runs');
      }
      for (const x of made) x.delete();
      if (R.chance(0.25)) {
        counts.poolRuns++;
        const n = R.int(1, 70),
          d = R.int(1, 5);
        const kind = R.pick(['flash', 'naive']);
        const options = {
          query: lyingMatrix(R, n, d, () => {}),
          key: lyingMatrix(R, n, d, () => {}),
          value: lyingMatrix(R, n, d, () => {}),
        };
        if (kind === 'flash' && R.chance(0.3)) options.causal = R.pick([true, 'yes', null]);
        try {
          await pool.run(kind, R.chance(0.05) ? R.pick([null, () => {}, 3]) : options);
          counts.accepted++;
        } catch (e) {
          assert.ok(isAttentionError(e), `pool: ${e?.name}: ${e?.message}`);
          counts.refused++;
        }
      }
    }
    console.log(
      `fuzz-lies: ${counts.trainerCalls} trainer calls, ${counts.poolRuns} pool runs ` +
        `(${counts.accepted} accepted, ${counts.refused} refused with an AttentionError)`,
    );
    assert.equal(
      JSON.stringify(Object.values(bystander.parameters()).map((x) => Array.from(x.data))),
      bystanderWeights,
      'a trainer no call named keeps its weights',
    );
    assert.equal(train.memory().usedBytes, used, 'every trainer made was freed');
    // a known case afterwards, in each module and the pool
    const q = { rows: 1, cols: 2, data: new Float32Array([1, 0]) };
    const v = { rows: 1, cols: 2, data: new Float32Array([3, 4]) };
    assert.deepEqual(Array.from(lessons.attend({ query: q, key: q, value: v }).output.data), [3, 4]);
    assert.deepEqual(Array.from((await pool.run('flash', { query: q, key: q, value: v })).output.data), [3, 4]);
    assert.ok(Number.isFinite(bystander.step(1).losses[0]));
  } finally {
    bystander.delete();
    pool.terminate();
  }
});
