// The √d_k lab's long jobs: the job checks, the chunked runs against one engine call, progress,
// cancellation, the real worker (variance-worker.js) under Node's worker_threads, and the client's
// watchdog: a worker that hangs, is killed or crashes is replaced and the run still finishes.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { nodeWorker, pageWorker as threadWorker } from '../support/workers.js';

import { loadEngine } from '../../web/src/engine.js';
import {
  chunkSize,
  checkJob,
  runJob,
  yieldToEvents,
  LabError,
  SWEEP_DKS,
  VARIANCE_BINS,
} from '../../web/src/workers/variance-jobs.js';
import { createLabClient } from '../../web/src/workers/variance-client.js';

const WORKER_URL = new URL('../../web/src/workers/variance-worker.js', import.meta.url);

// A worker that says it is ready and then never answers (stuck in a chunk, say).
const frozenWorker = () =>
  threadWorker(
    'const p = require("worker_threads").parentPort; p.on("message", (m) => { if (m.type === "load") p.postMessage({ type: "ready" }); });',
    { eval: true },
  );
// A worker that never even loads.
const deadWorker = () => threadWorker('require("worker_threads").parentPort.on("message", () => {});', { eval: true });

// The engine's limits, which the checks read (engine.limits.maxSamples: 1,000,000).
let limits;
before(async () => {
  limits = (await loadEngine()).limits;
});

const badJob = (job, pattern) =>
  assert.throws(
    () => checkJob(job, limits),
    (e) => e instanceof LabError && e.code === 'bad-job' && pattern.test(e.message),
    String(pattern),
  );

describe('lab jobs: checks and chunks', () => {
  test('absurd jobs are refused before any work, with a message naming the field', async () => {
    const good = { kind: 'variance', args: { dk: 64, samples: 1000, seed: 1, bins: VARIANCE_BINS } };
    checkJob(good, limits);
    const variance = (args) => ({ kind: 'variance', args: { ...good.args, ...args } });
    badJob(variance({ samples: 1e12 }), /^variance job: samples must be from 2 to 1,000,000, got 1000000000000$/);
    badJob(variance({ samples: 1 }), /^variance job: samples must be from 2 to 1,000,000, got 1$/);
    badJob(variance({ samples: Infinity }), /^variance job: samples must be a whole number, got Infinity$/);
    badJob(variance({ samples: NaN }), /samples must be a whole number, got NaN$/);
    badJob(variance({ samples: '1000' }), /samples must be a whole number, got "1000"$/);
    badJob(variance({ dk: undefined }), /^variance job: dk must be a whole number, got undefined$/);
    badJob(variance({ bins: 2.5 }), /bins must be a whole number/);
    badJob(null, /^lab job: expected \{ kind, args \}, got null$/);
    badJob({ kind: 'variance' }, /^variance job: expected an object of arguments, got undefined$/);
    badJob({ kind: 'nope', args: {} }, /unknown kind "nope"/);
    badJob(
      { kind: 'sweep', args: { dks: 'all', nKeys: 8, trials: 10, seed: 1, samples: 100 } },
      /^sweep job: dks must be a list/,
    );
    badJob(
      { kind: 'sweep', args: { dks: [1, 0.5], nKeys: 8, trials: 10, seed: 1, samples: 100 } },
      /dks\[1\] must be a whole number/,
    );
    // refused before the engine is called: only its limits are read
    const untouchable = new Proxy(
      {},
      {
        get(target, name) {
          if (name === 'limits') return limits;
          throw new Error('the engine was called');
        },
      },
    );
    await assert.rejects(
      runJob(untouchable, variance({ samples: 1e12 }), {}),
      (e) => e instanceof LabError && /samples/.test(e.message),
    );
  });

  test('a chunk is at most a million normal draws and at least 2 samples', () => {
    for (let dk = 1; dk <= 1024; dk++) {
      const size = chunkSize(dk);
      assert.ok(Number.isInteger(size) && size >= 2, `d_k ${dk}: ${size}`);
      assert.ok(size * dk <= 1000000 || size === 2, `d_k ${dk}: ${size} samples of ${dk} pairs`);
    }
  });
});

describe('jobs on this thread', () => {
  let engine;
  before(async () => {
    engine = await loadEngine();
  });

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
    assert.equal(log.length, Math.ceil(5001 / chunkSize(512)));
    assert.ok(log.length > 1);
    log.forEach((p, i) => {
      assert.equal(p.total, 5001);
      assert.equal(p.partial.samples, p.done, 'partial result covers the samples done');
      if (i > 0) assert.ok(p.done > log[i - 1].done);
      for (const counts of ['rawCounts', 'scaledCounts']) {
        const counted = Array.from(p.partial.histogram[counts]).reduce((a, b) => a + b, 0);
        assert.equal(counted, p.done, `every sample done is in the partial ${counts}`);
      }
    });
    assert.equal(log[log.length - 1].done, 5001);
    assert.deepEqual(Array.from(r.histogram.rawCounts), Array.from(one.histogram.rawCounts));
    assert.deepEqual(Array.from(r.histogram.scaledCounts), Array.from(one.histogram.scaledCounts));
    assert.deepEqual(Array.from(r.histogram.scaledEdges), Array.from(one.histogram.scaledEdges));
    assert.ok(Math.abs(r.raw.variance - one.raw.variance) <= 1e-12 * one.raw.variance);
    assert.ok(Math.abs(r.raw.mean - one.raw.mean) <= 1e-12);
  });

  test('a cancelled job stops between chunks, resolves to null and frees its run', async () => {
    const log = [];
    const before = engine.memory().usedBytes;
    const r = await runJob(
      engine,
      { kind: 'variance', args: { dk: 1024, samples: 1000000, seed: 1, bins: 10 } },
      hooks(log, 2),
    );
    assert.equal(r, null);
    assert.equal(log.length, 2, 'no chunk after the cancel');
    assert.ok(engine.memory().usedBytes <= before, 'the engine-side run was deleted');
  });

  test("the sweep job gives, per d_k, the engine's variance and saturation numbers", async () => {
    const args = { dks: [1, 32, 256], nKeys: 8, trials: 20, seed: 4, samples: 2000 };
    const log = [];
    const r = await runJob(engine, { kind: 'sweep', args }, hooks(log));
    assert.deepEqual(
      log.map((p) => p.done),
      [1, 2, 3],
    );
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
    assert.deepEqual(SWEEP_DKS, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
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
    assert.ok(
      seen.filter(([who]) => who === 'first').length <= 1,
      'the superseded run reports at most its current chunk',
    );
    const third = client.run('variance', long);
    await yieldToEvents();
    client.cancel('variance');
    assert.equal(await third, null, 'cancelled');
    await assert.rejects(
      client.run('variance', { ...args, samples: 1e12 }),
      (e) => e.name === 'LabError' && /samples must be/.test(e.message),
    );
    client.terminate();
  });
});

describe('variance-worker.js under worker_threads', () => {
  let worker;
  const messages = [];
  let waiters = [];
  before(() => {
    worker = nodeWorker(WORKER_URL);
    worker.on('message', (raw) => {
      const m = { ...raw };
      messages.push(m);
      waiters = waiters.filter((w) => !w(m));
    });
  });
  after(() => worker.terminate());

  // Resolves with the first message for which pred is true.
  const waitFor = (pred, ms = 60000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for the worker')), ms);
      waiters.push((m) => {
        if (!pred(m)) return false;
        clearTimeout(timer);
        resolve(m);
        return true;
      });
    });

  test("the worker's result equals the main-thread engine's", async () => {
    const engine = await loadEngine({ simd: false });
    const args = { dk: 64, samples: 40000, seed: 8, bins: 60 };
    const done = waitFor((m) => m.id === 1 && m.type !== 'progress');
    worker.postMessage({ type: 'run', id: 1, simd: false, job: { kind: 'variance', args } });
    const m = await done;
    assert.equal(m.type, 'done');
    const one = engine.varianceExperiment(args);
    assert.deepEqual(Array.from(m.result.histogram.rawCounts), Array.from(one.histogram.rawCounts));
    assert.ok(Math.abs(m.result.raw.variance - one.raw.variance) <= 1e-12 * one.raw.variance);
    const progress = messages.filter((x) => x.id === 1 && x.type === 'progress');
    assert.equal(progress.length, Math.ceil(40000 / chunkSize(64)));
  });

  test('a new run of the same kind supersedes the old one; cancel stops a long run promptly', async () => {
    const long = { kind: 'variance', args: { dk: 1024, samples: 1000000, seed: 1, bins: 10 } };
    const firstEnd = waitFor((m) => m.id === 2 && m.type !== 'progress');
    worker.postMessage({ type: 'run', id: 2, simd: false, job: long });
    await waitFor((m) => m.id === 2 && m.type === 'progress');
    const secondEnd = waitFor((m) => m.id === 3 && m.type !== 'progress');
    worker.postMessage({ type: 'run', id: 3, simd: false, job: long });
    assert.equal((await firstEnd).type, 'cancelled');
    const seen = await waitFor((m) => m.id === 3 && m.type === 'progress');
    worker.postMessage({ type: 'cancel', id: 3 });
    const end = await secondEnd;
    assert.equal(end.type, 'cancelled');
    // The run stopped part way (its last chunk short of the million samples) and said so; nothing
    // of it came after. How long a cancel takes is printed by bench/responsiveness.mjs.
    const progress = messages.filter((x) => x.id === 3 && x.type === 'progress');
    assert.ok(progress.at(-1).done < progress.at(-1).total, `stopped at ${progress.at(-1).done}`);
    assert.ok(progress.at(-1).done >= seen.done);
    assert.equal(messages.slice(messages.indexOf(end) + 1).filter((x) => x.id === 3).length, 0);
  });

  test("errors: the engine's refusal names the argument; absurd or missing jobs are refused in plain words", async () => {
    const ask = async (id, job) => {
      const end = waitFor((m) => m.id === id && m.type !== 'progress');
      worker.postMessage({ type: 'run', id, simd: false, job });
      return end;
    };
    const engineRefused = await ask(4, { kind: 'variance', args: { dk: 4096, samples: 1000, seed: 1, bins: 10 } });
    assert.equal(engineRefused.type, 'error');
    assert.equal(engineRefused.name, 'AttentionError');
    assert.match(engineRefused.message, /^dk: /);
    const huge = await ask(5, { kind: 'variance', args: { dk: 64, samples: 1e12, seed: 1, bins: 10 } });
    assert.deepEqual([huge.type, huge.name, huge.code], ['error', 'LabError', 'bad-job']);
    assert.match(huge.message, /^variance job: samples must be from 2 to 1,000,000, got 1000000000000$/);
    const none = await ask(6, null);
    assert.deepEqual(
      [none.type, none.name, none.message],
      ['error', 'LabError', 'lab job: expected { kind, args }, got null'],
    );
    for (const junk of [null, 42, 'run']) worker.postMessage(junk); // not messages: ignored
    assert.equal(
      (await ask(7, { kind: 'variance', args: { dk: 4, samples: 10, seed: 1, bins: 4 } })).type,
      'done',
      'still answering',
    );
  });
});

describe("the client's watchdog", () => {
  let engine;
  before(async () => {
    engine = await loadEngine();
  });
  const args = { dk: 32, samples: 20000, seed: 5, bins: 20 };
  const expectResult = (r) =>
    assert.deepEqual(
      Array.from(r.histogram.rawCounts),
      Array.from(engine.varianceExperiment(args).histogram.rawCounts),
    );

  test('a worker that never answers is replaced and the run finishes on the new one', async () => {
    const made = [];
    const client = createLabClient({
      engine,
      chunkTimeoutMs: 400,
      createWorker: () => {
        made.push(made.length === 0 ? frozenWorker() : threadWorker(WORKER_URL));
        return made.at(-1);
      },
    });
    expectResult(await client.run('variance', args));
    assert.equal(client.restarts(), 1);
    assert.equal(made.length, 2);
    client.terminate();
  });

  test('Stop and a new seed answer at once while the worker hangs; the new run completes', async () => {
    const made = [];
    const client = createLabClient({
      engine,
      chunkTimeoutMs: 400,
      createWorker: () => {
        made.push(made.length === 0 ? frozenWorker() : threadWorker(WORKER_URL));
        return made.at(-1);
      },
    });
    const first = client.run('variance', { ...args, seed: 1 });
    client.cancel('variance');
    assert.equal(await first, null);
    // Stop did not wait for the worker: the run resolved before the watchdog (400 ms without an
    // answer) replaced the hung worker
    assert.equal(client.restarts(), 0, 'Stop waited for the watchdog');
    const stale = client.run('variance', { ...args, seed: 2 });
    const fresh = client.run('variance', args); // a new seed: the old run resolves to null at once
    assert.equal(await stale, null);
    expectResult(await fresh);
    assert.equal(client.restarts(), 1);
    client.terminate();
  });

  test('a worker killed mid-run is replaced, and the run starts again there and finishes', async () => {
    const made = [];
    const client = createLabClient({
      engine,
      chunkTimeoutMs: 1500,
      createWorker: () => {
        made.push(threadWorker(WORKER_URL));
        return made.at(-1);
      },
    });
    let killed = false;
    const long = { ...args, samples: 300000 }; // ten chunks
    const r = await client.run('variance', long, () => {
      if (!killed) {
        killed = true;
        made[0].thread.terminate();
      }
    });
    assert.deepEqual(
      Array.from(r.histogram.rawCounts),
      Array.from(engine.varianceExperiment(long).histogram.rawCounts),
    );
    assert.ok(killed);
    assert.equal(client.restarts(), 1);
    client.terminate();
  });

  test('a worker that crashes is replaced; a run that hangs twice is given up with a plain message', async () => {
    const crashing = () =>
      threadWorker(
        'const p = require("worker_threads").parentPort; p.on("message", (m) => { if (m.type === "load") p.postMessage({ type: "ready" }); else setTimeout(() => { throw new Error("out of memory"); }, 10); });',
        { eval: true },
      );
    const made = [];
    const client = createLabClient({
      engine,
      chunkTimeoutMs: 1500,
      createWorker: () => {
        made.push(made.length === 0 ? crashing() : threadWorker(WORKER_URL));
        return made.at(-1);
      },
    });
    expectResult(await client.run('variance', args));
    assert.equal(client.restarts(), 1);
    client.terminate();

    const hangs = createLabClient({ engine, chunkTimeoutMs: 300, createWorker: frozenWorker });
    await assert.rejects(
      hangs.run('variance', args),
      (e) =>
        e instanceof LabError &&
        e.code === 'stuck' &&
        e.message ===
          "The lab's background computation stopped answering twice on this run (no reply for 0.3 s); the run was stopped. Start it again, or with fewer samples.",
    );
    assert.equal(hangs.restarts(), 2);
    hangs.terminate();
    const never = createLabClient({ engine, loadTimeoutMs: 300, createWorker: deadWorker });
    await assert.rejects(
      never.run('variance', args),
      (e) => e instanceof LabError && e.code === 'stuck' && /not started after 0\.3 s/.test(e.message),
    );
    never.terminate();
  });
});
