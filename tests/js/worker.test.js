// The √d_k lab's long jobs: the chunk plan, the chunked runs against one engine call, progress,
// cancellation, and the real worker (lab-worker.js) under Node's worker_threads.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';

import { loadEngine } from '../../web/src/engine.js';
import { planChunks, chunkSize, binsFor, runJob, yieldToEvents, SWEEP_DKS } from '../../web/src/lab-jobs.js';
import { createLabClient } from '../../web/src/lab-client.js';

const WORKER_URL = new URL('../../web/src/lab-worker.js', import.meta.url);

describe('chunk plan', () => {
  test('chunks cover 0 .. total - 1 in order, each with at least 2 samples', () => {
    for (const [total, size] of [[2, 5], [10, 5], [11, 5], [12, 5], [1000000, 976], [1001, 1000], [100001, 100000], [7, 2]]) {
      const chunks = planChunks(total, size);
      let next = 0;
      for (const c of chunks) {
        assert.equal(c.first, next, `total ${total} size ${size}: contiguous`);
        assert.ok(c.count >= 2 && c.count <= size + 1, `total ${total} size ${size}: count ${c.count}`);
        next += c.count;
      }
      assert.equal(next, total, `total ${total} size ${size}: covered`);
    }
    assert.deepEqual(planChunks(11, 5), [{ first: 0, count: 5 }, { first: 5, count: 6 }]);
  });

  test('bins: 80 for small d_k, about 80 across the scaled range ±4 above, at most 512', () => {
    assert.equal(binsFor(1), 80);
    assert.equal(binsFor(4), 160);
    assert.equal(binsFor(16), 320);
    assert.equal(binsFor(64), 512);
    assert.equal(binsFor(1024), 512);
  });

  test('chunk size: about a million draws, from 2 to 100,000 pairs', () => {
    assert.equal(chunkSize(1), 100000);
    assert.equal(chunkSize(64), 15625);
    assert.equal(chunkSize(1024), 976);
    for (let dk = 1; dk <= 1024; dk *= 2) assert.ok(chunkSize(dk) >= 2 && chunkSize(dk) <= 100000);
  });
});

describe('jobs on this thread', () => {
  let engine;
  before(async () => { engine = await loadEngine(); });

  const hooks = (log, stopAfter = Infinity) => ({
    progress: (done, total, partial) => log.push({ done, total, partial }),
    cancelled: () => log.length >= stopAfter,
    pause: yieldToEvents,
  });

  test('a chunked variance run equals one engine call, with growing progress and partial results', async () => {
    const args = { dk: 512, samples: 5001, seed: 21, bins: 50 };
    const log = [];
    const r = await runJob(engine, { kind: 'variance', args }, hooks(log));
    const one = engine.varianceExperiment(args);
    assert.equal(log.length, planChunks(5001, chunkSize(512)).length);
    assert.ok(log.length > 1);
    log.forEach((p, i) => {
      assert.equal(p.total, 5001);
      assert.equal(p.partial.samples, p.done, 'partial result covers the samples done');
      if (i > 0) assert.ok(p.done > log[i - 1].done);
      const counted = Array.from(p.partial.histogram.rawCounts).reduce((a, b) => a + b, 0);
      assert.equal(counted, p.done, 'every sample done is in the partial histogram');
    });
    assert.equal(log[log.length - 1].done, 5001);
    assert.deepEqual(Array.from(r.histogram.rawCounts), Array.from(one.histogram.rawCounts));
    assert.deepEqual(Array.from(r.histogram.scaledCounts), Array.from(one.histogram.scaledCounts));
    assert.ok(Math.abs(r.raw.variance - one.raw.variance) <= 1e-9 * one.raw.variance);
    assert.ok(Math.abs(r.raw.mean - one.raw.mean) <= 1e-9);
  });

  test('a cancelled job stops between chunks and resolves to null', async () => {
    const log = [];
    const r = await runJob(engine, { kind: 'variance', args: { dk: 1024, samples: 1000000, seed: 1, bins: 10 } }, hooks(log, 2));
    assert.equal(r, null);
    assert.equal(log.length, 2, 'no chunk after the cancel');
  });

  test('the sweep job gives, per d_k, the engine\'s variance and saturation numbers', async () => {
    const args = { dks: [1, 32, 256], nKeys: 8, trials: 20, seed: 4, samples: 2000 };
    const log = [];
    const r = await runJob(engine, { kind: 'sweep', args }, hooks(log));
    assert.deepEqual(log.map((p) => p.done), [1, 2, 3]);
    const whole = engine.saturationSweep({ dks: args.dks, nKeys: 8, trials: 20, seed: 4 });
    assert.equal(r.logN, whole.logN);
    r.points.forEach((p, i) => {
      assert.equal(p.dk, args.dks[i]);
      assert.deepEqual(p.raw, whole.points[i].raw);
      assert.deepEqual(p.scaled, whole.points[i].scaled);
      const v = engine.varianceExperiment({ dk: p.dk, samples: 2000, seed: 4, bins: 1 });
      assert.equal(p.variance.raw, v.raw.variance);
      assert.equal(p.variance.scaled, v.scaled.variance);
    });
    assert.equal(SWEEP_DKS[0], 1);
    assert.equal(SWEEP_DKS[SWEEP_DKS.length - 1], 1024);
  });

  test('an unknown job kind is an error', async () => {
    await assert.rejects(runJob(engine, { kind: 'nope', args: {} }, hooks([])), /unknown job kind/);
  });
});

describe('lab client without Worker support (runs the jobs on this thread)', () => {
  test('a newer run supersedes the older one, cancel stops a run, results equal one engine call', async () => {
    const engine = await loadEngine();
    const client = createLabClient({ engine });
    assert.equal(client.usesWorker(), false, 'Node has no global Worker');
    const long = { dk: 1024, samples: 1000000, seed: 1, bins: 10 };
    const seen = [];
    const first = client.run('variance', long, (done) => seen.push(['first', done]));
    const args = { dk: 16, samples: 30000, seed: 2, bins: 20 };
    const second = client.run('variance', args, (done) => seen.push(['second', done]));
    assert.equal(await first, null, 'superseded');
    const r = await second;
    const one = engine.varianceExperiment(args);
    assert.deepEqual(Array.from(r.histogram.rawCounts), Array.from(one.histogram.rawCounts));
    assert.ok(seen.filter(([who]) => who === 'first').length <= 1, 'the superseded run reports at most its current chunk');
    const third = client.run('variance', long);
    await yieldToEvents();
    client.cancel('variance');
    assert.equal(await third, null, 'cancelled');
    client.terminate();
  });
});

describe('lab-worker.js under worker_threads', () => {
  let worker;
  const messages = [];
  let waiters = [];
  before(() => {
    worker = new Worker(WORKER_URL);
    worker.on('message', (raw) => {
      const m = { ...raw, at: performance.now() };
      messages.push(m);
      waiters = waiters.filter((w) => !w(m));
    });
  });
  after(() => worker.terminate());

  // Resolves with the first message for which pred is true.
  const waitFor = (pred, ms = 60000) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out waiting for the worker')), ms);
    waiters.push((m) => { if (!pred(m)) return false; clearTimeout(timer); resolve(m); return true; });
  });

  test('the worker\'s result equals the main-thread engine\'s', async () => {
    const engine = await loadEngine({ simd: false });
    const args = { dk: 64, samples: 40000, seed: 8, bins: 60 };
    const done = waitFor((m) => m.id === 1 && m.type !== 'progress');
    worker.postMessage({ type: 'run', id: 1, simd: false, job: { kind: 'variance', args } });
    const m = await done;
    assert.equal(m.type, 'done');
    const one = engine.varianceExperiment(args);
    assert.deepEqual(Array.from(m.result.histogram.rawCounts), Array.from(one.histogram.rawCounts));
    assert.ok(Math.abs(m.result.raw.variance - one.raw.variance) <= 1e-9 * one.raw.variance);
    const progress = messages.filter((x) => x.id === 1 && x.type === 'progress');
    assert.equal(progress.length, planChunks(40000, chunkSize(64)).length);
  });

  test('a new run of the same kind supersedes the old one; cancel stops a long run promptly', async () => {
    const long = { kind: 'variance', args: { dk: 1024, samples: 1000000, seed: 1, bins: 10 } };
    const firstEnd = waitFor((m) => m.id === 2 && m.type !== 'progress');
    worker.postMessage({ type: 'run', id: 2, simd: false, job: long });
    await waitFor((m) => m.id === 2 && m.type === 'progress');
    const secondEnd = waitFor((m) => m.id === 3 && m.type !== 'progress');
    worker.postMessage({ type: 'run', id: 3, simd: false, job: long });
    assert.equal((await firstEnd).type, 'cancelled');
    await waitFor((m) => m.id === 3 && m.type === 'progress');
    const asked = performance.now();
    worker.postMessage({ type: 'cancel', id: 3 });
    const end = await secondEnd;
    assert.equal(end.type, 'cancelled');
    // at most one more chunk (about a million draws) after the cancel
    assert.ok(end.at - asked < 2000, `cancel took ${Math.round(end.at - asked)} ms`);
    const afterCancel = messages.filter((x) => x.id === 3 && x.type === 'progress' && x.at > end.at);
    assert.equal(afterCancel.length, 0);
  });

  test('bad arguments come back as an error message naming the argument', async () => {
    const end = waitFor((m) => m.id === 4 && m.type !== 'progress');
    worker.postMessage({ type: 'run', id: 4, simd: false, job: { kind: 'variance', args: { dk: 4096, samples: 1000, seed: 1, bins: 10 } } });
    const m = await end;
    assert.equal(m.type, 'error');
    assert.equal(m.name, 'AttentionError');
    assert.match(m.message, /^dk: /);
  });
});
