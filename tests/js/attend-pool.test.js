// The worker pool (attend-pool.js with attend-worker.js under Node's worker_threads): the slice
// plan, results identical to one engine call and to one worker, progress, errors, cancelling.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nodeWorker as thread } from '../support/workers.js';

import { loadEngine, AttentionError } from '../../web/src/engine.js';
import { createAttendPool, planSlices } from '../../web/src/workers/attend-pool.js';
import { randomMatrix } from '../support/random.js';

const WORKER_URL = new URL('../../web/src/workers/attend-worker.js', import.meta.url);
const nodeWorker = () => thread(WORKER_URL);

describe('slice plan', () => {
  test('whole blocks, in order, covering every row', () => {
    for (const [rows, block, parts, causal] of [
      [1000, 64, 2, false],
      [1000, 64, 2, true],
      [100, 64, 4, false],
      [64, 64, 2, false],
      [4096, 32, 3, true],
      [5, 1, 8, false],
    ]) {
      const slices = planSlices(rows, block, parts, causal);
      assert.ok(slices.length >= 1 && slices.length <= parts);
      let next = 0;
      for (const s of slices) {
        assert.equal(s.first, next);
        assert.equal(s.first % block, 0, 'starts on a block');
        assert.ok(s.rows > 0);
        next += s.rows;
      }
      assert.equal(next, rows);
    }
    assert.deepEqual(planSlices(1024, 64, 2), [
      { first: 0, rows: 512 },
      { first: 512, rows: 512 },
    ]);
  });

  test('causal slices balance the work: the later slice is shorter', () => {
    const [a, b] = planSlices(4096, 64, 2, true);
    assert.ok(a.rows > b.rows, `${a.rows} > ${b.rows}`);
    // work of a slice ~ Σ (block + 1) over its blocks: within one block's work of half
    const work = (s) => {
      let w = 0;
      for (let k = s.first / 64; k < (s.first + s.rows) / 64; k++) w += k + 1;
      return w;
    };
    assert.ok(Math.abs(work(a) - work(b)) <= 64 + 1);
  });
});

describe('the pool under worker_threads', () => {
  let engine, pool, one;
  before(async () => {
    engine = await loadEngine();
    pool = createAttendPool({ workers: 2, simd: engine.simd, createWorker: nodeWorker });
    one = createAttendPool({ workers: 1, simd: engine.simd, createWorker: nodeWorker });
    await Promise.all([pool.ready(), one.ready()]);
  });
  after(() => {
    pool.terminate();
    one.terminate();
  });

  const inputs = (n, d, seed) => ({
    query: randomMatrix(n, d, seed),
    key: randomMatrix(n, d, seed + 1),
    value: randomMatrix(n, d, seed + 2),
  });

  for (const [name, pattern] of [
    ['full', {}],
    ['causal', { causal: true }],
    ['causal window', { causal: true, window: 50 }],
    ['stride, blocks of 32', { stride: 9, blockSize: 32 }],
    ['padding', { keyPadding: Array.from({ length: 300 }, (_, j) => j > 250) }],
  ]) {
    test(`flash, ${name}: 2 workers give the bits of one engine call and of 1 worker`, async () => {
      const o = { ...inputs(300, 16, 1), ...pattern };
      const progress = [];
      const two = await pool.run('flash', o, (done, total) => progress.push([done, total]));
      const single = await one.run('flash', o);
      const direct = engine.flashAttend(o);
      assert.deepEqual(two.output, direct.output);
      assert.deepEqual(two.entropy, direct.entropy);
      assert.deepEqual(two.fullyMaskedRows, direct.fullyMaskedRows);
      assert.deepEqual(single.output, direct.output);
      assert.equal(two.workers.length, 2);
      assert.equal(two.workers[0].rows + two.workers[1].rows, 300);
      for (const w of two.workers) assert.ok(w.heapBytes >= 32 * 2 ** 20 && w.ms >= 0);
      assert.ok(progress.length >= 2, 'progress reported');
      for (let i = 1; i < progress.length; i++) assert.ok(progress[i][0] >= progress[i - 1][0]);
      assert.deepEqual(progress.at(-1), [300, 300]);
    });
  }

  test('fully blocked rows are listed by their row in the whole query', async () => {
    const o = {
      ...inputs(200, 4, 7),
      causal: true,
      keyPadding: Array.from({ length: 200 }, (_, j) => j < 3 || j === 150),
    };
    const r = await pool.run('flash', o);
    assert.deepEqual(r.fullyMaskedRows, [0, 1, 2]);
    assert.deepEqual(r.fullyMaskedRows, engine.flashAttend(o).fullyMaskedRows);
  });

  test('a worker that stops answering, or crashes, is replaced and its slice sent again: the same bits', async () => {
    // The first worker of each pool says it loaded, then never answers; the second one throws.
    const frozen = () =>
      thread(
        'const p = require("worker_threads").parentPort; p.on("message", (m) => { if (m.type === "load") p.postMessage({ type: "ready" }); });',
        { eval: true },
      );
    const crashing = () =>
      thread(
        'const p = require("worker_threads").parentPort; p.on("message", (m) => { if (m.type === "load") p.postMessage({ type: "ready" }); else throw new Error("out of memory"); });',
        { eval: true },
      );
    const o = { ...inputs(300, 16, 5), causal: true };
    const direct = engine.flashAttend(o);
    for (const bad of [frozen, crashing]) {
      let made = 0;
      const p = createAttendPool({
        workers: 2,
        simd: engine.simd,
        replyTimeoutMs: 500,
        createWorker: () => (made++ === 0 ? bad() : nodeWorker()),
      });
      const r = await p.run('flash', o);
      assert.deepEqual(r.output, direct.output);
      assert.deepEqual(r.entropy, direct.entropy);
      assert.equal(made, 3, 'one worker was replaced');
      p.terminate();
    }
    // A slice that fails twice rejects the run with a plain message.
    const dead = createAttendPool({ workers: 1, simd: engine.simd, replyTimeoutMs: 300, createWorker: frozen });
    await assert.rejects(
      dead.run('flash', o),
      /^Error: attend worker: stopped answering twice \(no reply for 0\.3 s\)$/,
    );
    dead.terminate();
  });

  test('naive: the same bits as one attend() call', async () => {
    const o = { ...inputs(200, 8, 4), keyPadding: Array.from({ length: 200 }, (_, j) => j % 7 === 0) };
    const r = await pool.run('naive', o);
    const direct = engine.attend(o);
    assert.deepEqual(r.output, direct.output);
    assert.deepEqual(r.entropy, direct.entropy);
  });

  test("naive refuses the position-dependent masks; the engine's errors arrive as AttentionError", async () => {
    await assert.rejects(
      pool.run('naive', { ...inputs(10, 4, 1), causal: true }),
      (e) => e instanceof AttentionError && /^naive: unknown option 'causal'/.test(e.message),
    );
    await assert.rejects(
      pool.run('flash', { ...inputs(10, 4, 1), window: 2, stride: 3 }),
      (e) =>
        e instanceof AttentionError && e.message === 'stride: cannot be combined with window (pick one sparse pattern)',
    );
    const x = randomMatrix(4096, 4, 2);
    await assert.rejects(
      pool.run('naive', { query: x, key: x, value: x }),
      // each worker would hold its own slice: 2048 queries over 4096 keys
      (e) =>
        e instanceof AttentionError &&
        /^key: expected 1 to 2048 rows .* 5 × 2048 × 4096 × 4 bytes = 160\.0 MiB here/.test(e.message),
    );
    // the pool still works afterwards
    const o = inputs(70, 4, 3);
    assert.deepEqual((await pool.run('flash', o)).output, engine.flashAttend(o).output);
  });

  // issue item 11: rows that do not match, and options that are not options objects
  test('the pool checks its inputs as the engine does and rejects with an AttentionError', async () => {
    const good = inputs(3, 4, 9);
    const rows = (m) =>
      Array.from({ length: m.rows }, (_, r) => Array.from(m.data.slice(r * m.cols, (r + 1) * m.cols)));
    const nested = rows(good.query);
    const refuses = async (kind, options, re) => {
      await assert.rejects(pool.run(kind, options), (e) => {
        assert.ok(e instanceof AttentionError, `${e?.name}: ${e?.message}`);
        assert.match(e.message, re);
        return true;
      });
      // the engine says the same of the same input
      if (options && typeof options === 'object' && kind === 'flash')
        assert.throws(
          () => engine.flashAttend(options),
          (e) => e instanceof AttentionError && re.test(e.message),
        );
    };
    for (const kind of ['flash', 'naive']) {
      const short = [nested[0], nested[1].slice(0, 3), nested[2]];
      await refuses(kind, { ...good, query: short }, /^query: row 1 has 3 numbers, expected 4$/);
      const longMiddle = [nested[0], [...nested[1], 9], nested[2]];
      await refuses(kind, { ...good, query: longMiddle }, /^query: row 1 has 5 numbers, expected 4$/);
      const longLast = [nested[0], nested[1], [...nested[2], 9]];
      await refuses(kind, { ...good, query: longLast }, /^query: row 2 has 5 numbers, expected 4$/);
      await refuses(kind, null, /^(flash|naive): expected an options object/);
      await refuses(kind, () => {}, /^(flash|naive): expected an options object/);
      await refuses(
        kind,
        { ...good, query: { rows: 3, cols: 4, data: new Float32Array(11) } },
        /^query: expected 12 numbers for 3 rows x 4 columns, got 11$/,
      );
    }
    await refuses(
      'flash',
      { ...good, window: () => 1 },
      /^window: expected an integer from 0 to 16384, got a function$/,
    );
    await refuses('flash', { ...good, causal: 'yes' }, /^causal: expected true or false, got 'yes'$/);
    // the pool still works afterwards
    assert.deepEqual((await pool.run('flash', { ...good, query: nested })).output, engine.flashAttend(good).output);
  });

  test('a newer run replaces the running one, which resolves to null', async () => {
    const big = inputs(2048, 32, 5);
    const first = pool.run('flash', big);
    const o = inputs(64, 4, 6);
    const second = pool.run('flash', o);
    assert.equal(await first, null);
    assert.deepEqual((await second).output, engine.flashAttend(o).output);
  });
});
