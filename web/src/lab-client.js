// The page's side of lab-worker.js: start a job, hear its progress, cancel it.
//
//   const lab = createLabClient({ engine });
//   const result = await lab.run('variance', args, (done, total, partial) => draw(partial));
//   // null when a newer run of the same kind (or lab.cancel(kind)) replaced it
//
// Without Worker support the same chunked jobs run on this thread, yielding between chunks.

import { runJob, yieldToEvents } from './lab-jobs.js';

export function createLabClient({ engine }) {
  let worker = null;
  try {
    worker = new Worker(new URL('./lab-worker.js', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
  }
  let nextId = 1;
  const jobs = new Map();    // id -> { resolve, reject, onProgress, kind }
  const current = new Map(); // kind -> id

  if (worker) {
    worker.addEventListener('message', (e) => {
      const m = e.data;
      const job = jobs.get(m.id);
      if (!job) return;
      if (m.type === 'progress') {
        if (current.get(job.kind) === m.id) job.onProgress(m.done, m.total, m.partial);
        return;
      }
      jobs.delete(m.id);
      if (current.get(job.kind) === m.id) current.delete(job.kind);
      if (m.type === 'done') job.resolve(m.result);
      else if (m.type === 'cancelled') job.resolve(null);
      else job.reject(Object.assign(new Error(m.message), { name: m.name || 'Error' }));
    });
    // A worker that cannot start (blocked or missing script): its jobs fail with a message,
    // and later jobs run on this thread instead.
    worker.addEventListener('error', (e) => {
      for (const [, job] of jobs) job.reject(new Error(`lab worker: ${e.message || 'failed to start'}`));
      jobs.clear();
      current.clear();
      worker.terminate();
      worker = null;
    });
  }

  // Starts a job of `kind`, replacing the previous one of that kind.
  function run(kind, args, onProgress = () => {}) {
    cancel(kind);
    const id = nextId++;
    current.set(kind, id);
    const job = { kind: kind, args };
    if (!worker) {
      const hooks = {
        cancelled: () => current.get(kind) !== id,
        progress: (done, total, partial) => { if (current.get(kind) === id) onProgress(done, total, partial); },
        pause: yieldToEvents,
      };
      return runJob(engine, job, hooks).finally(() => { if (current.get(kind) === id) current.delete(kind); });
    }
    return new Promise((resolve, reject) => {
      jobs.set(id, { resolve, reject, onProgress, kind });
      worker.postMessage({ type: 'run', id, simd: engine.simd, job });
    });
  }

  // Stops the running job of `kind` (its promise resolves to null).
  function cancel(kind) {
    const id = current.get(kind);
    if (id === undefined) return;
    current.delete(kind);
    if (worker) worker.postMessage({ type: 'cancel', id });
  }

  function terminate() {
    if (worker) worker.terminate();
    for (const [, job] of jobs) job.resolve(null);
    jobs.clear();
    current.clear();
  }

  return { run, cancel, terminate, usesWorker: () => worker !== null };
}
