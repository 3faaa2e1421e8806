// The training worker's client (web/src/workers/train-client.js) under Node's worker_threads:
// a worker that stops answering or crashes mid-run is replaced, the same run is trained again
// to the step already reported and goes on from there, with every step reported once and the
// numbers of one uninterrupted trainer; a run whose worker fails twice in a row is given up.
// No clock is asserted: the watchdog's delay is short, and every wait is for a report.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { pageWorker as threadWorker } from '../support/workers.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { createTrainClient } from '../../web/src/workers/train-client.js';

const WORKER_URL = new URL('../../web/src/workers/train-worker.js', import.meta.url);
const CONFIG = { task: 'previous-token', layers: 1, heads: 2, dModel: 16, learningRate: 0.003, seed: 5 };

// A worker that says it is ready and then never answers.
const frozenWorker = () =>
  threadWorker(
    'const p = require("worker_threads").parentPort; p.on("message", (m) => { if (m.type === "load") p.postMessage({ type: "ready" }); });',
    { eval: true },
  );

let engine;
before(async () => {
  engine = await loadTrainEngine();
});

// The held-out loss and accuracy of one uninterrupted trainer after `steps` steps.
function reference(steps) {
  const t = engine.trainer(CONFIG);
  t.step(steps);
  const e = t.evaluate();
  t.delete();
  return { loss: e.loss, accuracy: e.accuracy };
}

// A client whose workers come from make(k) (k: 0 for the first); resolves reports as they come.
function client(make, options = {}) {
  const made = [];
  const reports = [];
  const restarts = [];
  const errors = [];
  const paused = [];
  let wake = () => {};
  const c = createTrainClient({
    simd: engine.simd,
    replyTimeoutMs: 1500,
    ...options,
    createWorker: () => {
      made.push(make(made.length));
      return made.at(-1);
    },
    onReport: (runs, training) => {
      reports.push({ runs, training });
      wake();
    },
    onRestart: (x) => restarts.push(x),
    onPaused: (step) => {
      paused.push(step);
      wake();
    },
    onError: (e) => {
      errors.push(e);
      wake();
    },
  });
  const until = (done) =>
    new Promise((resolve) => {
      const check = () => {
        if (done()) resolve();
        else wake = check;
      };
      check();
    });
  return { c, made, reports, restarts, errors, paused, until };
}

const stepsOf = (reports) => reports.filter((r) => r.runs.main).map((r) => r.runs.main.step);

test('a training worker killed mid-run is replaced; the run goes on from the step reported, with the same numbers', async () => {
  const t = client(() => threadWorker(WORKER_URL));
  t.c.reset({ main: CONFIG });
  t.c.train(50, 10);
  await t.until(() => stepsOf(t.reports).includes(20));
  t.made[0].thread.terminate(); // it never answers again
  await t.until(() => t.reports.some((r) => r.runs.main?.step === 50 && !r.training));
  assert.deepEqual(stepsOf(t.reports), [0, 10, 20, 30, 40, 50], 'every step reported once, in order');
  assert.equal(t.made.length, 2);
  assert.deepEqual(
    t.restarts.map((r) => r.code),
    ['stuck'],
  );
  const last = t.reports.at(-1).runs.main;
  const want = reference(50);
  assert.equal(last.evalLoss, want.loss);
  assert.equal(last.evalAccuracy, want.accuracy);
  assert.deepEqual(t.errors, []);
  t.c.terminate();
});

test('a training worker that crashes is replaced; a pause and an inspect then land on the new one', async () => {
  const t = client(() => threadWorker(WORKER_URL));
  t.c.reset({ main: CONFIG });
  t.c.train(Infinity, 10);
  await t.until(() => stepsOf(t.reports).includes(10));
  t.made[0].thread.emit('error', new Error('out of memory')); // an uncaught error of the worker
  await t.until(() => t.made.length === 2 && stepsOf(t.reports).some((s) => s > 10));
  t.c.pause();
  await t.until(() => t.paused.length === 1);
  const steps = stepsOf(t.reports);
  assert.deepEqual(steps.slice(0, 3), [0, 10, 20]);
  steps.forEach((s, k) => assert.equal(s, 10 * k, `report ${k}: step ${s}, each step once and in order`));
  assert.equal(t.paused[0], steps.at(-1), 'paused where the last report was');
  assert.deepEqual(
    t.restarts.map((r) => r.code),
    ['crashed'],
  );
  const inspected = await t.c.inspect('main', [1, 2, 3]);
  assert.deepEqual(Array.from(inspected.tokens), [1, 2, 3]);
  assert.deepEqual(t.errors, []);
  t.c.terminate();
});

test('a run whose worker stops answering twice in a row is given up with a plain message', async () => {
  const t = client(() => frozenWorker(), { replyTimeoutMs: 300 });
  t.c.reset({ main: CONFIG });
  await t.until(() => t.errors.length > 0);
  assert.equal(
    t.errors[0].message,
    "The training's background computation stopped answering twice (no reply for 0.3 s); the training was stopped. Reset to start again, or try a smaller model.",
  );
  assert.equal(t.c.restarts(), 2);
  t.c.terminate();
});
