// A long job on the page (a million samples in the lab worker, a sweep over d_k): one run at a
// time, the latest request wins, partial results drawn at most every `drawEveryMs`, and each
// run ends exactly once, as done, stopped or failed. No DOM: the caller draws in the hooks.
//
//   const run = createRun({
//     job: (args, onProgress) => Promise<result | null>,  // null: it was cancelled
//     cancel: () => {},                                    // stop the job running now
//     onStart(args), onProgress(partial, done, total, args), // onProgress is throttled
//     onDone(result, args, ms), onStop(partial, done, args), onError(error, args),
//   });
//   run.request(args)  // starts a run unless these args are the current or last run's
//   run.restart()      // runs the last args again
//   run.stop()         // stops the current run (onStop follows)
//   run.running, run.args, run.partial, run.done
//   run.dispose()      // stops and forgets; no hook is called after this
//
// A job that was replaced still settles later: its outcome is ignored, so an old run can
// never draw over a newer one.

import { latestWins } from './port.js';

export function createRun({
  job,
  cancel = () => {},
  key = (args) => JSON.stringify(args),
  drawEveryMs = 120,
  onStart = () => {},
  onProgress = () => {},
  onDone = () => {},
  onStop = () => {},
  onError = () => {},
  now = () => performance.now(),
  setTimer = setTimeout,
  clearTimer = clearTimeout,
}) {
  const latest = latestWins(); // the current run; a settled promise of another is ignored
  let lastKey = null;
  let timer = null;
  let lastDraw = -Infinity;
  let pending = null; // the newest progress not drawn yet: [partial, done, total, args]
  let disposed = false;
  const self = { running: false, args: null, partial: null, done: 0, request, restart, stop, dispose };

  function flush() {
    timer = null;
    if (!pending || disposed) return;
    lastDraw = now();
    const p = pending;
    pending = null;
    onProgress(...p);
  }
  function clearPending() {
    if (timer !== null) clearTimer(timer);
    timer = null;
    pending = null;
  }

  function start(args) {
    if (self.running) cancel();
    clearPending();
    const { id } = latest.claim();
    const t0 = now();
    Object.assign(self, { running: true, args, partial: null, done: 0 });
    lastKey = key(args);
    onStart(args);
    let promise;
    try {
      promise = Promise.resolve(
        job(args, (done, total, partial) => {
          if (!latest.isLatest('', id) || disposed) return;
          self.partial = partial;
          self.done = done;
          pending = [partial, done, total, args];
          if (timer === null) timer = setTimer(flush, Math.max(0, lastDraw + drawEveryMs - now()));
        }),
      );
    } catch (e) {
      promise = Promise.reject(e);
    }
    promise.then(
      (result) => {
        if (!latest.isLatest('', id) || disposed) return;
        self.running = false;
        clearPending();
        if (result === null || result === undefined) onStop(self.partial, self.done, args);
        else {
          self.partial = result;
          onDone(result, args, now() - t0);
        }
      },
      (e) => {
        if (!latest.isLatest('', id) || disposed) return;
        self.running = false;
        clearPending();
        onError(e, args);
      },
    );
    return true;
  }

  function request(args) {
    if (disposed || key(args) === lastKey) return false;
    return start(args);
  }
  function restart() {
    return disposed || self.args === null ? false : start(self.args);
  }
  function stop() {
    if (self.running) cancel();
  }
  function dispose() {
    stop();
    disposed = true;
    clearPending();
  }
  return self;
}
