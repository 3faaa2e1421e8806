// The √d_k lab's long computations, split into chunks so they can report progress, draw
// partial results and be cancelled between chunks. Every number comes from the engine;
// this file only checks the job, decides the chunks and forwards results. No DOM, no worker
// API: it runs inside variance-worker.js, or on the main thread when a worker is not available.
//
//   await runJob(engine, { kind: 'variance', args: { dk, samples, seed, bins } }, hooks)
//   await runJob(engine, { kind: 'sweep', args: { dks, nKeys, trials, seed, samples } }, hooks)
//   hooks = { progress(done, total, partial), cancelled() -> bool, pause() -> Promise }
// Resolves to the final result, or null when cancelled. A job that makes no sense (a size past
// the engine's limits, NaN, a missing field) is refused with a LabError before any work.

// The d_k values of the sweeps: powers of two from 1 to 1024.
export const SWEEP_DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

// Histogram bars of the variance run. Raw and scaled values each have their own edges (±4 of
// their own standard deviation), so this many bars serve both views at every d_k.
export const VARIANCE_BINS = 60;

// A problem with a lab job itself (not with the engine): code says which, for the page's words.
export class LabError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'LabError';
    this.code = code;
  }
}

// Samples per variance chunk: about a million normal draws (2 d_k per sample), 2 to 100,000.
export function chunkSize(dk) {
  return Math.max(2, Math.min(100000, Math.floor(1000000 / dk)));
}

// Yields to the event loop so a cancel message can arrive between chunks.
export function yieldToEvents() {
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        ch.port1.close();
        resolve();
      };
      ch.port2.postMessage(0);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// ---- checking a job before any work -------------------------------------------------------------

// The sizes that decide how much work a job plans: checked here, before anything runs, against
// the engine's limits (engine.limits). The other fields only need to be whole numbers; the engine
// checks their ranges and names them.
const FIELDS = { variance: ['dk', 'samples', 'seed', 'bins'], sweep: ['nKeys', 'trials', 'seed', 'samples'] };

function shown(x) {
  if (typeof x === 'string') return JSON.stringify(x.length > 20 ? `${x.slice(0, 20)}…` : x);
  if (typeof x === 'number' || typeof x === 'boolean' || x == null) return String(x);
  return Array.isArray(x) ? 'an array' : `a ${typeof x}`;
}

function refuse(message) {
  throw new LabError('bad-job', message);
}

// Throws a LabError naming the first field that is missing or makes no sense; limits: the
// engine's (engine.limits).
export function checkJob(job, { maxSamples }) {
  if (job === null || typeof job !== 'object') refuse(`lab job: expected { kind, args }, got ${shown(job)}`);
  const { kind, args } = job;
  if (!Object.hasOwn(FIELDS, kind)) refuse(`lab job: unknown kind ${shown(kind)} (expected 'variance' or 'sweep')`);
  if (args === null || typeof args !== 'object')
    refuse(`${kind} job: expected an object of arguments, got ${shown(args)}`);
  for (const name of FIELDS[kind]) {
    if (!Number.isSafeInteger(args[name]))
      refuse(`${kind} job: ${name} must be a whole number, got ${shown(args[name])}`);
  }
  if (args.samples < 2 || args.samples > maxSamples) {
    refuse(`${kind} job: samples must be from 2 to ${maxSamples.toLocaleString('en')}, got ${shown(args.samples)}`);
  }
  if (kind === 'sweep') {
    if (!Array.isArray(args.dks) || args.dks.length < 1 || args.dks.length > SWEEP_DKS.length) {
      refuse(`sweep job: dks must be a list of 1 to ${SWEEP_DKS.length} values of d_k, got ${shown(args.dks)}`);
    }
    args.dks.forEach((dk, i) => {
      if (!Number.isSafeInteger(dk)) refuse(`sweep job: dks[${i}] must be a whole number, got ${shown(dk)}`);
    });
  }
}

// ---- the variance experiment, chunk by chunk ---------------------------------------------------

// One engine-side run (engine.varianceRun) grows chunk by chunk; after each chunk its snapshot
// is the partial result. The chunks draw the samples of one long run, in order.
async function varianceJob(engine, { dk, samples, seed, bins }, hooks) {
  const run = engine.varianceRun({ dk, seed, bins });
  try {
    for (let done = 0; done < samples;) {
      if (hooks.cancelled()) return null;
      const count = Math.min(chunkSize(dk), samples - done);
      run.step(count);
      done += count;
      hooks.progress(done, samples, run.snapshot());
      await hooks.pause();
    }
    return hooks.cancelled() ? null : run.snapshot();
  } finally {
    run.delete();
  }
}

// ---- the d_k sweep: variance, softmax saturation and gradient size per d_k --------------------

// For each d_k: the measured variance of q·k over `samples` pairs, and the means over `trials`
// of the softmax max weight, entropy and Jacobian norm of one query against nKeys keys.
async function sweepJob(engine, { dks, nKeys, trials, seed, samples }, hooks) {
  const result = { logN: 0, points: [] };
  for (const dk of dks) {
    if (hooks.cancelled()) return null;
    const v = engine.varianceExperiment({ dk, samples, seed, bins: 1 });
    const s = engine.saturationSweep({ dks: [dk], nKeys, trials, seed });
    result.logN = s.logN;
    result.points.push({
      dk,
      variance: { raw: v.raw.variance, scaled: v.scaled.variance },
      raw: s.points[0].raw,
      scaled: s.points[0].scaled,
    });
    hooks.progress(result.points.length, dks.length, result);
    await hooks.pause();
  }
  return hooks.cancelled() ? null : result;
}

export async function runJob(engine, job, hooks) {
  checkJob(job, engine.limits);
  return job.kind === 'variance' ? varianceJob(engine, job.args, hooks) : sweepJob(engine, job.args, hooks);
}
