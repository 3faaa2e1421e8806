// The page's side of train-worker.js: reset the runs, train, pause, inspect a head on your own
// tokens, and keep the worker alive. Every report of the current session reaches onReport; a
// reply to an older session is dropped, so a reset never draws an old run over a new one.
//
//   const client = createTrainClient({ simd: engine.simd, onReport, onError, onRestart });
//   client.reset({ main: config, twin: config })   // step 0 (reset(runs, step): trained to step
//                                                  // without reports, the page has them)
//   client.train(Infinity, 10)                     // play (chunks of 10 steps)
//   client.pause()                                 // onPaused(step of the main run) follows
//   await client.inspect('main', [3, 1, 4])        // -> { tokens, predictions, patterns }
//   await client.ablate('main', [[1, 0]])          // -> { heads, heldOut, probe, whole }
//   client.terminate()
//
// A worker that does not load within loadTimeoutMs, stops answering while it owes a reply (a
// report while it trains, the answer to a reset, a pause or an inspect: none for replyTimeoutMs)
// or crashes (its engine stopped too) is replaced by a new one (./port.js). The new worker gets
// the same session: the same runs, trained again to the step the page has seen without a report
// (a seed fixes the weights and every batch, so they are the same runs), then what was asked of
// the old one (training on, a pause, an inspect). onRestart({ code, detail }) says so. A session
// whose worker fails that way twice before the new one has reported a step the page had not seen
// is given up: onError with a plain message; the next reset starts afresh.

import { superviseWorker } from './port.js';

function browserWorker() {
  return new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
}

const SESSION = 'session'; // the watchdog's key for the replies the session owes

export function createTrainClient({
  simd,
  onReport = () => {},
  onPaused = () => {},
  onError = () => {},
  onRestart = () => {},
  createWorker = browserWorker,
  loadTimeoutMs = 60000,
  replyTimeoutMs = 15000,
}) {
  let session = 0;
  let nextId = 1;
  let runs = null; // the configs of the session
  let seen = {}; // name -> the last step reported to the page
  let want = { training: false, until: 0, chunk: 10 }; // what the page asked for
  let owed = { reset: false, pause: false }; // replies the worker owes the session
  let catchUp = null; // after a replacement: the step the new worker trains to without reports
  let retried = false; // the session has been sent to a new worker once
  const waiting = new Map(); // id -> { message, resolve, reject } of inspect() and ablate()

  const worker = superviseWorker({
    create: createWorker,
    load: { type: 'load', simd },
    loadTimeoutMs,
    replyTimeoutMs,
    onMessage: heard,
    onReplaced: resend,
  });

  const busy = () => owed.reset || owed.pause || want.training || catchUp !== null;
  function watch() {
    if (busy()) worker.expect(SESSION);
    else worker.done(SESSION);
  }
  const error = (m) => Object.assign(new Error(m.message), { name: m.name });

  function heard(m) {
    if (!m || typeof m !== 'object') return;
    if (waiting.has(m.id)) {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      worker.done(m.id);
      if (m.type === 'inspected') w.resolve(m.result);
      else w.reject(error(m));
      return;
    }
    if (m.id !== session && m.id !== null) return;
    if (m.type === 'error' && m.code === 'engine-stopped') {
      worker.replace('crashed', 'its engine stopped after an internal error');
      return;
    }
    if (m.type === 'report') report(m);
    else if (m.type === 'paused') {
      owed.pause = false;
      want.training = false;
      onPaused(m.steps.main ?? 0);
    } else if (m.type === 'error') {
      owed = { reset: false, pause: false };
      want.training = false;
      catchUp = null;
      onError(error(m));
    }
    watch();
  }

  function report(m) {
    const answersReset = owed.reset; // the first report after a reset is its step 0, not a run's end
    owed.reset = false;
    // the steps the page has seen already (the new worker training again to them) are not reported
    const fresh = Object.entries(m.runs).filter(([name, r]) => !(r.step <= (seen[name] ?? -1)));
    if (catchUp !== null) {
      if (m.training || Object.values(m.runs).some((r) => r.step < catchUp)) return;
      catchUp = null;
      ask(); // caught up: what the page asked of the old worker
      if (!fresh.length) return;
    }
    for (const [name, r] of fresh) seen[name] = r.step;
    if (fresh.length) retried = false; // the new worker has gone past the old one: a fresh budget
    if (!m.training && !answersReset) want.training = false;
    if (fresh.length || !m.training) onReport(Object.fromEntries(fresh), m.training);
  }

  // Training on and a pause, as the page asked for them.
  function ask() {
    if (want.training) worker.post({ type: 'train', id: session, until: want.until, chunk: want.chunk });
    if (owed.pause) worker.post({ type: 'pause', id: session });
    for (const [id, w] of waiting) {
      worker.expect(id);
      worker.post({ ...w.message, id });
    }
  }

  // A new worker took the old one's place: the session again, once.
  function resend({ code, detail }) {
    if (!runs) return; // nothing was asked of the old one
    if (retried || !worker.usesWorker()) {
      for (const [id, w] of waiting) {
        worker.done(id);
        w.resolve(null);
      }
      waiting.clear();
      worker.done(SESSION);
      owed = { reset: false, pause: false };
      want.training = false;
      catchUp = null;
      runs = null;
      const what = code === 'stuck' ? 'stopped answering' : 'failed';
      onError(
        new Error(
          `The training's background computation ${what} twice (${detail}); the training was stopped. ` +
            'Reset to start again, or try a smaller model.',
        ),
      );
      return;
    }
    retried = true;
    worker.post({ type: 'reset', id: session, runs });
    // the steps the page has seen are trained again without reports, then the rest is asked for
    const reached = Math.max(-1, ...Object.values(seen));
    if (reached >= 0) {
      catchUp = reached;
      if (reached > 0) worker.post({ type: 'train', id: session, until: reached, chunk: want.chunk });
    } else ask();
    watch();
    onRestart({ code, detail });
  }

  // A question about the current runs, answered once (null when the worker was given up).
  function request(message) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { message, resolve, reject });
      if (catchUp !== null) return;
      worker.expect(id);
      worker.post({ ...message, id });
    });
  }

  return {
    // from: a step the page has shown already (a chapter mounted again keeps its runs' history):
    // the runs are trained to it without reports, then what is asked follows, as after a
    // replacement
    reset(configs, from = 0) {
      session = nextId++;
      runs = configs;
      seen = from > 0 ? Object.fromEntries(Object.keys(configs).map((name) => [name, from])) : {};
      want = { ...want, training: false };
      owed = { reset: true, pause: false };
      catchUp = from > 0 ? from : null;
      retried = false;
      worker.post({ type: 'reset', id: session, runs });
      if (from > 0) worker.post({ type: 'train', id: session, until: from, chunk: want.chunk });
      watch();
    },
    train(until, chunk) {
      want = { training: true, until, chunk };
      owed.pause = false;
      if (catchUp === null) worker.post({ type: 'train', id: session, until, chunk });
      watch();
    },
    pause() {
      want.training = false;
      owed.pause = true;
      if (catchUp === null) worker.post({ type: 'pause', id: session });
      watch();
    },
    inspect(run, tokens) {
      return request({ type: 'inspect', run, tokens });
    },
    ablate(run, heads) {
      return request({ type: 'ablate', run, heads });
    },
    terminate() {
      worker.terminate();
      for (const w of waiting.values()) w.resolve(null);
      waiting.clear();
    },
    restarts: worker.restarts,
  };
}
