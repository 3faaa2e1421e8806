// The √d_k lab's long computations, split into chunks so they can report progress, draw
// partial results and be cancelled between chunks. Every number comes from the engine;
// this file only decides the chunks and forwards results. No DOM, no worker API: it runs
// inside lab-worker.js, or on the main thread when a worker is not available.
//
//   await runJob(engine, { kind: 'variance', args: { dk, samples, seed, bins } }, hooks)
//   await runJob(engine, { kind: 'sweep', args: { dks, nKeys, trials, seed, samples } }, hooks)
//   hooks = { progress(done, total, partial), cancelled() -> bool, pause() -> Promise }
// Resolves to the final result, or null when cancelled.

// The d_k values of the sweeps: powers of two from 1 to 1024.
export const SWEEP_DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

// Histogram bins of the variance run at d_k. The engine bins raw and scaled scores over the
// same edges, ±4√d_k; enough bins that the scaled range ±4 still spans about 80 of them
// (at most 512), so one run serves both views and the raw/scaled switch is instant.
export function binsFor(dk) {
  return Math.min(512, Math.max(80, Math.round(80 * Math.sqrt(dk))));
}

// Pairs per variance chunk: about a million normal draws (2 d_k per pair), 2 to 100,000.
export function chunkSize(dk) {
  return Math.max(2, Math.min(100000, Math.floor(1000000 / dk)));
}

// [{ first, count }] covering samples 0 .. total - 1 in order. The engine needs at least two
// samples per run, so a lone last sample joins the chunk before it.
export function planChunks(total, size) {
  const chunks = [];
  for (let first = 0; first < total; first += size) chunks.push({ first, count: Math.min(size, total - first) });
  const last = chunks[chunks.length - 1];
  if (chunks.length > 1 && last.count < 2) {
    chunks.pop();
    chunks[chunks.length - 1].count += last.count;
  }
  return chunks;
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

// ---- the variance experiment, chunk by chunk ---------------------------------------------------

// Chunk i covers samples first .. first + count - 1 (RNG streams of the same numbers), and
// the engine merges it into the running result, so the chunked run equals one long run.
async function varianceJob(engine, { dk, samples, seed, bins }, hooks) {
  let acc;
  let done = 0;
  for (const c of planChunks(samples, chunkSize(dk))) {
    if (hooks.cancelled()) return null;
    const part = engine.varianceExperiment({ dk, samples: c.count, seed, bins, firstSample: c.first });
    acc = engine.mergeVariance({ a: acc, aSamples: done, b: part, bSamples: c.count });
    done += c.count;
    hooks.progress(done, samples, acc);
    await hooks.pause();
  }
  return hooks.cancelled() ? null : acc;
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
    result.points.push({ dk, variance: { raw: v.raw.variance, scaled: v.scaled.variance }, raw: s.points[0].raw, scaled: s.points[0].scaled });
    hooks.progress(result.points.length, dks.length, result);
    await hooks.pause();
  }
  return hooks.cancelled() ? null : result;
}

export async function runJob(engine, job, hooks) {
  if (job.kind === 'variance') return varianceJob(engine, job.args, hooks);
  if (job.kind === 'sweep') return sweepJob(engine, job.args, hooks);
  throw new Error(`unknown job kind: ${job.kind}`);
}
