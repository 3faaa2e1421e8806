// The long-sequences chapter's measurements, in the attend pool's Web Workers (attend-pool.js),
// without the DOM: single runs of naive, flash and windowed attention at one n, and the sweep of
// every method over n = 64, 128, …. Each job records what it measures in the chapter's kept
// results (c.kept: they outlive the chapter mounted again, e.g. after a language switch) and calls
// `measured()` after each record, so whatever is on screen draws it.

import { createAttendPool } from '../../workers/attend-pool.js';
import { createRun } from '../../workers/run.js';
import { FLASH_BLOCK } from '../../engine/choices.js';
import { REPEATS, REPEAT_UP_TO, SWEEP_METHODS, median, resumeSweep, runInputs } from './logic.js';

const MIB = 2 ** 20;

// One measuring job at a time (workers/run.js: the latest request wins; stop() terminates the
// job's workers), each request carrying its record, a plain object kept in c.kept: the job
// measures into it, and the run notes there the progress and how it ended (status 'running' |
// 'done' | 'stopped' | 'failed', failure: { engine, message }), so the chapter mounted again
// draws where it was. draw(progressOnly) after each note.
//   const r = recordedRun({ job: (record, onProgress, live) => Promise, draw })
//   r.request(record), r.run (the createRun: running, stop(), dispose())
export function recordedRun({ job, draw }) {
  const live = { pool: null }; // the pool of the job running now
  let requests = 0;
  const end = (record, status) => {
    record.status = status;
    draw(false);
  };
  const run = createRun({
    key: (args) => String(args.request),
    job: ({ record }, onProgress) => job(record, onProgress, live),
    cancel: () => live.pool?.terminate(),
    onStart: () => draw(false),
    onProgress: (partial, done, total, { record }) => {
      record.progress = { ...partial, done, total };
      draw(true);
    },
    onDone: (r, { record }) => end(record, 'done'),
    onStop: (partial, done, { record }) => end(record, 'stopped'),
    onError: (e, { record }) => {
      const engine = !!e && e.name === 'AttentionError';
      if (!engine) console.error(e);
      record.failure = { engine, message: e && e.message };
      end(record, 'failed');
    },
  });
  return { run, request: (record) => run.request({ request: ++requests, record }) };
}

// ---- single runs ------------------------------------------------------------------------------

// The methods of args.methods one after another at length n, each in a fresh pool of workers (so
// its memory afterwards is the run's peak); each result is pushed to runs (a naive run the engine
// refuses before it allocates, with the engine's reason). args.done: the methods measured
// already (a run resumed). Resolves with runs, or null when stopped.
export async function measureRuns(engine, runs, args, { onProgress, measured, live }) {
  const { methods, n, w, workers, seed, done = [] } = args;
  const o = runInputs(engine, n, seed);
  for (const m of methods) {
    if (done.includes(m)) continue;
    if (m === 'naive' && n > engine.limits.maxTokens) {
      try {
        engine.attend(o);
      } catch (e) {
        if (e.name !== 'AttentionError') throw e;
        runs.push({ n, method: m, window: w, workers, refused: e.message });
        done.push(m);
        measured();
        continue;
      }
    }
    onProgress(0, n, { method: m, workers });
    const pool = createAttendPool({ workers, simd: engine.simd });
    live.pool = pool;
    try {
      await pool.ready();
      const options = m === 'window' ? { ...o, window: w } : o;
      const r = await pool.run(m === 'naive' ? 'naive' : 'flash', options, (k, total) =>
        onProgress(k, total, { method: m, workers }),
      );
      if (r === null) return null;
      const mib = r.workers.reduce((a, x) => a + x.heapBytes, 0) / MIB;
      runs.push({ n, method: m, window: w, workers, ms: r.ms, mib });
      done.push(m);
      measured();
    } finally {
      pool.terminate();
      if (live.pool === pool) live.pool = null; // a newer run's pool stays stoppable
    }
  }
  return runs;
}

// ---- the sweep -----------------------------------------------------------------------------------

// Every method at every n of sw (logic.js newSweep) not measured yet, in one pool; the points and
// linear attention's error against exact attention are added to sw as they come. Resolves with
// sw, or null when cancelled.
export async function runSweep(engine, sw, { onProgress, measured, live }) {
  const sizes = resumeSweep(sw);
  sw.block = FLASH_BLOCK; // the pool's default block
  const { w, workers, seed } = sw;
  const total = sw.sizes.length * SWEEP_METHODS.length;
  let k = total - sizes.length * SWEEP_METHODS.length;
  measured();
  if (!sizes.length) return sw;
  const pool = createAttendPool({ workers, simd: engine.simd });
  live.pool = pool;
  try {
    // every kind once at the first n, untimed: the workers' engines compile their code first
    const warm = runInputs(engine, sizes[0], seed);
    onProgress(k, total, { n: sizes[0], method: 'warm', w });
    for (const kind of ['naive', 'flash', 'linear']) if ((await pool.run(kind, warm)) === null) return null;
    for (const n of sizes) {
      sw.at = n;
      const o = runInputs(engine, n, seed);
      const outputs = {};
      for (const m of SWEEP_METHODS) {
        const at = { n, method: m, w };
        onProgress(k, total, at);
        if (m === 'naive' && n > engine.limits.maxTokens) {
          sw.points.push({ n, method: m, refused: true }); // the engine refuses it (the single runs say why)
          k++;
          continue;
        }
        const kind = m === 'window' ? 'flash' : m;
        const args = m === 'window' ? { ...o, window: w } : o;
        // the median of REPEATS runs up to REPEAT_UP_TO (short runs are the noisiest), one above
        const reps = n <= REPEAT_UP_TO ? REPEATS : 1;
        const times = [];
        let r;
        for (let rep = 0; rep < reps; rep++) {
          r = await pool.run(kind, args, (done, rows) => onProgress(k + (rep + done / rows) / reps, total, at));
          if (r === null) return null;
          times.push(r.ms);
        }
        // naive: the slices' (rows, n) weights add up to the n × n matrix; the others hold the
        // same tiles or state in every worker
        const held = r.workers.map((x) => x.heldBytes);
        const bytes = m === 'naive' ? held.reduce((a, b) => a + b, 0) : held[0];
        sw.points.push({ n, method: m, ms: median(times), bytes });
        if (m === 'flash') outputs.exact = r.output;
        if (m === 'linear') outputs.linear = r.output;
        k++;
        measured();
      }
      const e = engine.outputError({ output: outputs.linear, reference: outputs.exact });
      sw.errors.push({ n, maxAbs: e.maxAbs, relative: e.relative });
      measured();
    }
    return sw;
  } finally {
    pool.terminate();
    if (live.pool === pool) live.pool = null; // a newer sweep's pool stays cancellable
  }
}
