// The page's side of variance-worker.js: start a job, hear its progress, cancel it, and keep the
// worker alive.
//
//   const lab = createLabClient({ engine });
//   const result = await lab.run('variance', args, (done, total, partial) => draw(partial));
//   // null when a newer run of the same kind (or lab.cancel(kind)) replaced it
//
// Errors: an AttentionError when the engine refuses the arguments; a LabError (code 'bad-job',
// 'stuck' or 'crashed') when the job makes no sense or the worker failed. A worker that does
// not load its engine within loadTimeoutMs, stops answering (no message about a job for
// chunkTimeoutMs once loaded) or crashes is replaced by a new one, and its jobs are sent again
// once; a job that fails that way twice is given up. A job whose engine stopped inside the
// worker (engine.js's 'engine-stopped') counts as a crash. onRestart({ code, detail, kinds })
// says that a worker was replaced and which kinds of job were sent again, so the page can say
// so. Stop and a new run always answer at once: their promises never wait for the worker.
// Without Worker support (or when the worker cannot start) the same chunked jobs run on this
// thread, yielding between chunks.

import { LabError, runJob, yieldToEvents } from './variance-jobs.js';

function browserWorker() {
  if (typeof Worker !== 'function') return null;
  return new Worker(new URL('./variance-worker.js', import.meta.url), { type: 'module' });
}

export function createLabClient({
  engine,
  chunkTimeoutMs = 15000,
  loadTimeoutMs = 60000,
  createWorker = browserWorker,
  onRestart = () => {},
}) {
  let worker = null;
  let ready = false; // whether the current worker has loaded its engine
  let loadTimer = null;
  let restarts = 0;
  let nextId = 1;
  const jobs = new Map(); // id -> { id, kind, args, resolve, reject, onProgress, timer, retried }
  const current = new Map(); // kind -> id

  function settle(job) {
    clearTimeout(job.timer);
    jobs.delete(job.id);
    if (current.get(job.kind) === job.id) current.delete(job.kind);
  }

  // ---- the worker ----------------------------------------------------------------------------

  // A new worker, asked to load its engine first: loading has loadTimeoutMs, and the jobs'
  // watchdogs start once it is ready.
  function start() {
    try {
      worker = createWorker();
    } catch {
      worker = null;
    }
    ready = false;
    clearTimeout(loadTimer);
    if (!worker) return;
    const self = worker;
    worker.addEventListener('message', (e) => {
      if (worker === self) heard(e.data);
    });
    worker.addEventListener('error', (e) => {
      if (worker === self) crashed(e && e.message);
    });
    loadTimer = setTimeout(() => replace('stuck', `not started after ${loadTimeoutMs / 1000} s`), loadTimeoutMs);
    worker.postMessage({ type: 'load', simd: engine.simd });
  }

  // The job's watchdog: the worker must say something about it within chunkTimeoutMs.
  function arm(job) {
    clearTimeout(job.timer);
    if (ready)
      job.timer = setTimeout(() => replace('stuck', `no reply for ${chunkTimeoutMs / 1000} s`), chunkTimeoutMs);
  }

  function post(job) {
    arm(job);
    worker.postMessage({ type: 'run', id: job.id, simd: engine.simd, job: { kind: job.kind, args: job.args } });
  }

  function heard(m) {
    if (m && m.type === 'ready') {
      ready = true;
      clearTimeout(loadTimer);
      for (const job of jobs.values()) arm(job);
      return;
    }
    const job = m && jobs.get(m.id);
    if (!job) return;
    if (m.type === 'error' && m.code === 'engine-stopped') {
      // the worker's module is dead
      replace('crashed', 'its engine stopped after an internal error');
      return;
    }
    if (m.type === 'progress') {
      arm(job);
      job.onProgress(m.done, m.total, m.partial);
      return;
    }
    settle(job);
    if (m.type === 'done') job.resolve(m.result);
    else if (m.type === 'cancelled') job.resolve(null);
    else
      job.reject(
        m.name === 'LabError'
          ? new LabError(m.code, m.message)
          : Object.assign(new Error(m.message), { name: m.name || 'Error' }),
      );
  }

  // The worker failed (an uncaught error, or it never started).
  function crashed(detail) {
    if (!ready && restarts === 0) {
      // it never ran: blocked or missing script, use this thread
      clearTimeout(loadTimer);
      worker.terminate();
      worker = null;
      for (const job of [...jobs.values()]) {
        clearTimeout(job.timer);
        runHere(job);
      }
      return;
    }
    replace('crashed', detail || 'an uncaught error');
  }

  // A new worker in place of the old one; every job it had is sent again, once.
  function replace(code, detail) {
    if (worker) worker.terminate();
    restarts += 1;
    start();
    const resent = [];
    for (const job of [...jobs.values()]) {
      if (job.retried || !worker) {
        settle(job);
        job.reject(
          new LabError(
            code,
            code === 'stuck'
              ? `The lab's background computation stopped answering twice on this run (${detail}); the run was stopped. Start it again, or with fewer samples.`
              : `The lab's background computation failed twice on this run (${detail}); the run was stopped. Start it again, or with fewer samples.`,
          ),
        );
      } else {
        job.retried = true;
        post(job);
        resent.push(job.kind);
      }
    }
    if (resent.length) onRestart({ code, detail, kinds: resent });
  }

  // ---- this thread -----------------------------------------------------------------------------

  function runHere(job) {
    const live = () => jobs.get(job.id) === job;
    const hooks = {
      cancelled: () => !live(),
      progress: (done, total, partial) => {
        if (live()) job.onProgress(done, total, partial);
      },
      pause: yieldToEvents,
    };
    runJob(engine, { kind: job.kind, args: job.args }, hooks).then(
      (r) => {
        if (live()) settle(job);
        job.resolve(r);
      },
      (e) => {
        if (live()) settle(job);
        job.reject(e);
      },
    );
  }

  // ---- the API ---------------------------------------------------------------------------------

  // Starts a job of `kind`, replacing the previous one of that kind.
  function run(kind, args, onProgress = () => {}) {
    cancel(kind);
    const id = nextId++;
    current.set(kind, id);
    return new Promise((resolve, reject) => {
      const job = { id, kind, args, resolve, reject, onProgress, timer: null, retried: false };
      jobs.set(id, job);
      if (worker) post(job);
      else runHere(job);
    });
  }

  // Stops the running job of `kind`: its promise resolves to null at once.
  function cancel(kind) {
    const job = jobs.get(current.get(kind));
    current.delete(kind);
    if (!job) return;
    settle(job);
    job.resolve(null);
    if (worker) worker.postMessage({ type: 'cancel', id: job.id });
  }

  function terminate() {
    clearTimeout(loadTimer);
    if (worker) worker.terminate();
    worker = null;
    for (const job of [...jobs.values()]) {
      settle(job);
      job.resolve(null);
    }
  }

  start();
  return { run, cancel, terminate, usesWorker: () => worker !== null, restarts: () => restarts };
}
