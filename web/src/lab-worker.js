// A Web Worker that runs the √d_k lab's long jobs (lab-jobs.js) off the page's thread.
//
// page -> worker   { type: 'run', id, simd, job: { kind, args } }     start a job
//                  { type: 'cancel', id }                             stop it after the current chunk
// worker -> page   { type: 'progress', id, done, total, partial }     after every chunk
//                  { type: 'done', id, result } | { type: 'cancelled', id } | { type: 'error', id, message }
//
// A new 'run' of the same kind supersedes the older one, so a moving slider never queues work.
// Also runs under Node's worker_threads (for the tests), where the port is parentPort.

import { loadEngine } from './engine.js';
import { runJob, yieldToEvents } from './lab-jobs.js';

function openPort() {
  if (typeof self !== 'undefined' && typeof self.postMessage === 'function') {
    return { post: (m) => self.postMessage(m), listen: (f) => self.addEventListener('message', (e) => f(e.data)) };
  }
  const { parentPort } = process.getBuiltinModule('worker_threads');
  return { post: (m) => parentPort.postMessage(m), listen: (f) => parentPort.on('message', f) };
}

const port = openPort();
const cancelled = new Set();   // ids asked to stop
const latest = new Map();      // kind -> id of its newest job

async function run({ id, simd, job }) {
  const older = latest.get(job.kind);
  if (older !== undefined) cancelled.add(older);
  latest.set(job.kind, id);
  const hooks = {
    cancelled: () => cancelled.has(id),
    progress: (done, total, partial) => port.post({ type: 'progress', id, done, total, partial }),
    pause: yieldToEvents,
  };
  try {
    const engine = await loadEngine(simd === undefined ? undefined : { simd });
    const result = await runJob(engine, job, hooks);
    port.post(result === null ? { type: 'cancelled', id } : { type: 'done', id, result });
  } catch (e) {
    port.post({ type: 'error', id, message: e && e.message ? e.message : String(e), name: e && e.name });
  } finally {
    cancelled.delete(id);
    if (latest.get(job.kind) === id) latest.delete(job.kind);
  }
}

port.listen((m) => {
  if (m.type === 'run') run(m);
  else if (m.type === 'cancel') cancelled.add(m.id);
});
