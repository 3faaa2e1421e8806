// A Web Worker that runs the √d_k lab's long jobs (variance-jobs.js) off the page's thread.
//
// page -> worker   { type: 'load', simd }                             load the engine
//                  { type: 'run', id, simd, job: { kind, args } }     start a job
//                  { type: 'cancel', id }                             stop it after the current chunk
// worker -> page   { type: 'ready' }                                  the engine is loaded
//                  { type: 'progress', id, done, total, partial }     after every chunk
//                  { type: 'done', id, result } | { type: 'cancelled', id }
//                  | { type: 'error', id, message, name, code }
//
// A new 'run' of the same kind supersedes the older one, so a moving slider never queues work.
// A job is checked before any work (variance-jobs.js checkJob); a message that is not a job is
// answered with an error when it has an id, and ignored otherwise. The page's client
// (variance-client.js) replaces this worker if it stops answering.
// Also runs under Node's worker_threads (for the tests), where the port is parentPort.

import { loadEngine } from '../engine/api.js';
import { checkJob, runJob, yieldToEvents } from './variance-jobs.js';
import { openPort, failure, latestWins } from './port.js';

const port = openPort();
const cancelled = new Set(); // ids asked to stop
const latest = latestWins(); // kind -> id of its newest job

async function run({ id, simd, job }) {
  let engine;
  try {
    engine = await loadEngine(typeof simd === 'boolean' ? { simd } : undefined);
    checkJob(job, engine.limits);
  } catch (e) {
    port.post(failure(id, e));
    return;
  }
  const { previous } = latest.claim(job.kind, id);
  if (previous !== undefined) cancelled.add(previous);
  const hooks = {
    cancelled: () => cancelled.has(id),
    progress: (done, total, partial) => port.post({ type: 'progress', id, done, total, partial }),
    pause: yieldToEvents,
  };
  try {
    const result = await runJob(engine, job, hooks);
    port.post(result === null ? { type: 'cancelled', id } : { type: 'done', id, result });
  } catch (e) {
    port.post(failure(id, e));
  } finally {
    cancelled.delete(id);
    latest.release(job.kind, id);
  }
}

async function load({ simd }) {
  try {
    await loadEngine(typeof simd === 'boolean' ? { simd } : undefined);
    port.post({ type: 'ready' });
  } catch (e) {
    port.post(failure(null, e)); // no 'ready': the page's watchdog replaces this worker
  }
}

port.listen((m) => {
  if (m === null || typeof m !== 'object') return;
  if (m.type === 'load') load(m);
  else if (m.type === 'run') run(m);
  else if (m.type === 'cancel') cancelled.add(m.id);
});
