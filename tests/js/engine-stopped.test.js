// An engine whose module dies (a trap or abort inside a call; see wasm-traps.js): the call
// throws an AttentionError with code 'engine-stopped', the instance refuses every later call,
// loadEngine() gives a fresh instance that computes correctly, and the lab client replaces a
// worker whose engine stopped and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageWorker } from '../support/workers.js';

import { installWasmTraps } from './wasm-traps.js';
import { loadEngine, AttentionError } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { createLabClient } from '../../web/src/workers/variance-client.js';
import { attendRef, expectAttend } from './reference.js';

installWasmTraps(); // before any engine of this file is made

const args = {
  query: [
    [1, 0, 2],
    [0, 1, -1],
  ],
  key: [
    [1, 1, 0],
    [0, 2, 1],
    [1, 0, 0],
  ],
  value: [
    [1, 2],
    [3, 4],
    [5, 6],
  ],
  causal: true,
};
const isStopped = (name) => (e) =>
  e instanceof AttentionError &&
  e.code === 'engine-stopped' &&
  e.message.startsWith(`${name}: the engine stopped after an internal error (unreachable)`);

for (const simd of [true, false]) {
  test(`a trap inside a call stops that engine, and loadEngine() gives a working one (${simd ? 'SIMD' : 'scalar'})`, async () => {
    const engine = await loadEngine({ simd });
    expectAttend('before', engine.attend(args), attendRef(args));
    const run = engine.varianceRun({ dk: 4, seed: 1, bins: 4 });
    run.step(10);
    assert.equal(engine.stopped, false);

    globalThis.__attnTraps = 1;
    assert.throws(() => engine.attend(args), isStopped('query')); // the first call in: the size check
    assert.equal(globalThis.__attnTraps, 0);
    assert.equal(engine.stopped, true);
    assert.throws(
      () => engine.softmax({ scores: [[1, 2]] }),
      isStopped('scores'),
      'a stopped engine refuses every call',
    );
    assert.throws(() => run.step(10), isStopped('varianceRun.step'));
    assert.doesNotThrow(() => run.delete(), 'deleting a run of a stopped engine is a no-op');

    const fresh = await loadEngine({ simd });
    assert.notEqual(fresh, engine);
    assert.equal(fresh.stopped, false);
    expectAttend('after', fresh.attend(args), attendRef(args));

    globalThis.__attnTraps = 1;
    assert.throws(() => fresh.softmaxJacobian([0.5, 0.5]), isStopped('p'));
    const third = await loadEngine({ simd });
    assert.deepEqual(Array.from(third.softmaxJacobian([0.5, 0.5]).data), [0.25, -0.25, -0.25, 0.25]);
  });
}

for (const simd of [true, false]) {
  test(`a trap inside the trainer stops the trainer's engine like any other call (${simd ? 'SIMD' : 'scalar'})`, async () => {
    const engine = await loadTrainEngine({ simd });
    const trainer = engine.trainer({ task: 'previous-token', layers: 1, heads: 1, dModel: 8, seed: 2 });
    const first = trainer.step(2);
    assert.equal(first.step, 2);
    globalThis.__attnTraps = 1;
    assert.throws(() => trainer.step(1), isStopped('trainer.step'));
    assert.equal(engine.stopped, true);
    assert.throws(
      () => trainer.evaluate(),
      isStopped('trainer.evaluate'),
      'a stopped engine refuses every trainer call',
    );
    assert.doesNotThrow(() => trainer.delete(), 'deleting a trainer of a stopped engine is a no-op');
    assert.throws(
      () => engine.trainer({ task: 'reverse' }),
      (e) => e.code === 'engine-stopped' && /call loadTrainEngine\(\) again$/.test(e.message),
      'the message names the loader that gives a fresh one',
    );
    // a fresh engine trains the same run from the same seed to the same losses
    const fresh = await loadTrainEngine({ simd });
    assert.notEqual(fresh, engine);
    const again = fresh.trainer({ task: 'previous-token', layers: 1, heads: 1, dModel: 8, seed: 2 });
    assert.deepEqual(Array.from(again.step(2).losses), Array.from(first.losses));
    again.delete();
  });
}

// A worker whose engine stopped answers every job with the engine's 'engine-stopped' error.
const stoppedWorker = () =>
  pageWorker(
    `const p = require("worker_threads").parentPort;
    p.on("message", (m) => {
      if (m.type === "load") p.postMessage({ type: "ready" });
      if (m.type === "run") p.postMessage({ type: "error", id: m.id, name: "AttentionError", code: "engine-stopped",
        message: "dk: the engine stopped after an internal error (unreachable); call loadEngine() again" });
    });`,
    { eval: true },
  );

test('the lab client replaces a worker whose engine stopped, runs the job again there, and says so', async () => {
  const engine = await loadEngine();
  const job = { dk: 16, samples: 5000, seed: 3, bins: 10 };
  const made = [];
  const restarts = [];
  const real = () => pageWorker(new URL('../../web/src/workers/variance-worker.js', import.meta.url));
  const client = createLabClient({
    engine,
    chunkTimeoutMs: 20000,
    createWorker: () => {
      made.push(made.length === 0 ? stoppedWorker() : real());
      return made.at(-1);
    },
    onRestart: (r) => restarts.push(r),
  });
  const r = await client.run('variance', job);
  assert.deepEqual(Array.from(r.histogram.rawCounts), Array.from(engine.varianceExperiment(job).histogram.rawCounts));
  assert.equal(client.restarts(), 1);
  assert.deepEqual(restarts, [
    { code: 'crashed', detail: 'its engine stopped after an internal error', kinds: ['variance'] },
  ]);

  // twice in a row: the run is given up in plain words
  const dead = createLabClient({ engine, createWorker: stoppedWorker, onRestart: (x) => restarts.push(x) });
  await assert.rejects(
    dead.run('variance', job),
    (e) =>
      e.name === 'LabError' &&
      e.code === 'crashed' &&
      /failed twice on this run \(its engine stopped after an internal error\)/.test(e.message),
  );
  client.terminate();
  dead.terminate();
});
