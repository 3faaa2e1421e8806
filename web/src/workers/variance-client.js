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
import { latestWins, superviseWorker } from './port.js';

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
  let nextId = 1;
  const jobs = new Map(); // id -> { id, kind, args, resolve, reject, onProgress, retried }
  const latest = latestWins(); // kind -> id of its running job

  // The worker, kept alive by its watchdog (./port.js): every job must be heard of within
  // chunkTimeoutMs once the worker has loaded.
  const worker = superviseWorker({
    create: createWorker,
    load: { type: 'load', simd: engine.simd },
    loadTimeoutMs,
    replyTimeoutMs: chunkTimeoutMs,
    onMessage: heard,
    onReplaced: resend,
    onUnavailable: () => {
      for (const job of [...jobs.values()]) {
        worker.done(job.id);
        runHere(job);
      }
    },
  });

  function settle(job) {
    worker.done(job.id);
    jobs.delete(job.id);
    latest.release(job.kind, job.id);
  }

  function post(job) {
    worker.expect(job.id);
    worker.post({ type: 'run', id: job.id, simd: engine.simd, job: { kind: job.kind, args: job.args } });
  }

  function heard(m) {
    const job = m && jobs.get(m.id);
    if (!job) return;
    if (m.type === 'error' && m.code === 'engine-stopped') {
      // the worker's module is dead
      worker.replace('crashed', 'its engine stopped after an internal error');
      return;
    }
    if (m.type === 'progress') {
      worker.heard(job.id);
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

  // A new worker took the old one's place: every job it had is sent again, once.
  function resend({ code, detail }) {
    const resent = [];
    for (const job of [...jobs.values()]) {
      if (job.retried || !worker.usesWorker()) {
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
    const { id } = latest.claim(kind, nextId++);
    return new Promise((resolve, reject) => {
      const job = { id, kind, args, resolve, reject, onProgress, retried: false };
      jobs.set(id, job);
      if (worker.usesWorker()) post(job);
      else runHere(job);
    });
  }

  // Stops the running job of `kind`: its promise resolves to null at once.
  function cancel(kind) {
    const job = jobs.get(latest.current(kind));
    if (!job) return;
    settle(job);
    job.resolve(null);
    worker.post({ type: 'cancel', id: job.id });
  }

  function terminate() {
    worker.terminate();
    for (const job of [...jobs.values()]) {
      settle(job);
      job.resolve(null);
    }
  }

  return { run, cancel, terminate, usesWorker: worker.usesWorker, restarts: worker.restarts };
}
