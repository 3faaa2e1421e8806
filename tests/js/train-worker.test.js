// The training worker (train-worker.js under Node's worker_threads): every message is checked
// (types and ranges) before it is acted on, a bad one gets exactly one error reply and changes
// nothing (a train request of chunk 0 used to report empty progress forever), a reset of more
// runs than the trainers' cap is refused whole, and inspect refuses tokens outside the
// vocabulary with the engine's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeWorker } from '../support/workers.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';

const WORKER_URL = new URL('../../web/src/workers/train-worker.js', import.meta.url);

// The worker with a queue of its replies: next(test) waits for the next reply that passes test.
// A worker that stops (an uncaught error, its exit) fails every wait, and load() fails with the
// worker's own error when its engine does not load (no wasm build): a test fails then, at once,
// instead of waiting for a reply that never comes.
function start() {
  const worker = nodeWorker(WORKER_URL);
  const replies = [];
  const waiters = [];
  let stopped = null;
  worker.on('message', (m) => {
    replies.push(m);
    for (const w of [...waiters]) {
      if (w.test(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const stop = (error) => {
    stopped ??= error;
    for (const w of waiters.splice(0)) w.reject(stopped);
  };
  worker.on('error', stop);
  worker.on('exit', (code) => stop(new Error(`the training worker exited (code ${code})`)));
  const next = (test) =>
    new Promise((resolve, reject) => {
      const seen = replies.find((m) => test(m) && !m.taken);
      if (seen) {
        seen.taken = true;
        resolve(seen);
      } else if (stopped) reject(stopped);
      else
        waiters.push({
          test,
          resolve: (m) => {
            m.taken = true;
            resolve(m);
          },
          reject,
        });
    });
  const post = (m) => worker.postMessage(m);
  async function load() {
    post({ type: 'load', simd: false });
    const m = await next((m) => m.type === 'ready' || (m.type === 'error' && m.id === null));
    if (m.type === 'error') throw new Error(`the training worker could not load its engine: ${m.message}`);
  }
  return { worker, replies, next, post, load };
}

const config = { dModel: 8, heads: 2, layers: 1, batch: 2 };

// The worker checks its messages before it has an engine, with its own copies of two of the
// trainer module's limits: these tests expect 50 runs and chunks of 1000 steps from it, so the
// module must say the same (a limit changed in the core fails here until the worker follows).
test("the worker's caps are the trainer module's: 50 runs (maxTrainers), 1000 steps a chunk (maxTrainSteps)", async () => {
  const { limits } = await loadTrainEngine({ simd: false });
  assert.equal(limits.maxTrainers, 50);
  assert.equal(limits.maxTrainSteps, 1000);
});

test('every bad message gets one error reply and changes nothing', async () => {
  const w = start();
  try {
    await w.load();
    w.post({ type: 'reset', id: 1, runs: { main: config } });
    await w.next((m) => m.type === 'report' && m.id === 1);
    const bad = [
      [null, null, /^training worker: expected a message object, got null$/],
      [42, null, /^training worker: expected a message object, got 42$/],
      [
        { type: 'nope', id: 1 },
        1,
        /^training worker: type: expected one of load, reset, train, pause, inspect, ablate, got 'nope'$/,
      ],
      [
        { type: 'train', id: 1, until: 10, chunk: 0 },
        1,
        /^training worker: train\.chunk: expected an integer from 1 to 1000, got 0$/,
      ],
      [{ type: 'train', chunk: 5, until: 10 }, null, /^training worker: train\.id: expected an integer id/],
      [
        { type: 'train', id: 1, until: -1, chunk: 5 },
        1,
        /^training worker: train\.until: expected a step of 0 or more/,
      ],
      [
        { type: 'train', id: 1, until: 10, chunk: '5' },
        1,
        /train\.chunk: expected an integer from 1 to 1000, got '5'$/,
      ],
      [
        { type: 'inspect', id: 7, run: 'main', tokens: 'abc' },
        7,
        /^training worker: inspect\.tokens: expected an array/,
      ],
      [{ type: 'reset', id: 2, runs: [] }, 2, /^training worker: reset\.runs: expected \{ name: trainer options \}/],
      [{ type: 'ablate', id: 8, run: 'main', heads: [0, 1] }, 8, /^training worker: ablate\.heads: expected up to 8/],
      [{ type: 'load', simd: 'yes' }, null, /^training worker: load\.simd: expected true, false or absent, got 'yes'$/],
    ];
    for (const [message] of bad) w.post(message);
    // a good message after them: its reply comes after every error reply
    w.post({ type: 'pause', id: 1 });
    await w.next((m) => m.type === 'paused');
    const errors = w.replies.filter((m) => m.type === 'error');
    assert.equal(errors.length, bad.length, 'one error reply per bad message');
    bad.forEach(([, id, re], i) => {
      assert.equal(errors[i].id, id);
      assert.equal(errors[i].name, 'AttentionError');
      assert.match(errors[i].message, re);
    });
    assert.equal(w.replies.filter((m) => m.type === 'report').length, 1, 'no report but the reset one');
    const paused = w.replies.find((m) => m.type === 'paused');
    assert.deepEqual(paused.steps, { main: 0 }, 'nothing trained');
  } finally {
    await w.worker.terminate();
  }
});

test('a reset of 51 runs is refused whole; inspect refuses tokens outside the vocabulary', async () => {
  const w = start();
  try {
    await w.load();
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`run${i}`, config]));
    w.post({ type: 'reset', id: 1, runs: many });
    const refused = await w.next((m) => m.type === 'error');
    assert.equal(refused.id, 1);
    assert.match(refused.message, /^training worker: reset\.runs: expected 1 to 50 runs \(got 51\)/);
    w.post({ type: 'reset', id: 2, runs: { main: config } });
    await w.next((m) => m.type === 'report' && m.id === 2);
    w.post({ type: 'inspect', id: 3, run: 'main', tokens: [2 ** 32 + 3] });
    const wrapped = await w.next((m) => m.id === 3);
    assert.equal(wrapped.type, 'error');
    assert.match(wrapped.message, /^tokens: entry 0 is 4294967299 \(expected a token from 0 to 15\)$/);
    w.post({ type: 'inspect', id: 4, run: 'main', tokens: [3, 1, 4] });
    const ok = await w.next((m) => m.id === 4);
    assert.equal(ok.type, 'inspected');
    assert.deepEqual(Array.from(ok.result.tokens), [3, 1, 4]);
    // ablation: the run's held-out batch and probe with the head's output zeroed, and without
    w.post({ type: 'ablate', id: 5, run: 'main', heads: [[0, 1]] });
    const cut = await w.next((m) => m.id === 5);
    assert.equal(cut.type, 'inspected');
    assert.deepEqual(cut.result.heads, [[0, 1]]);
    for (const k of ['heldOut', 'probe']) {
      assert.ok(Number.isFinite(cut.result[k].loss) && Number.isFinite(cut.result.whole[k].loss), k);
      assert.notEqual(cut.result[k].loss, cut.result.whole[k].loss, k);
    }
    w.post({ type: 'ablate', id: 6, run: 'main', heads: [[0, 9]] });
    const refusedHead = await w.next((m) => m.id === 6);
    assert.equal(refusedHead.type, 'error');
    assert.match(refusedHead.message, /^ablate: entry 0 is \[0, 9\] \(expected \[layer, head\]/);
    w.post({ type: 'ablate', id: 7, run: 'twin', heads: [] });
    assert.match((await w.next((m) => m.id === 7)).message, /no attention-only run 'twin'/);
  } finally {
    await w.worker.terminate();
  }
});
