// The one protocol of the page's Web Workers (attend-worker, variance-worker, train-worker) and
// their clients (attend-pool, variance-client, train-client), and the one "latest run wins".
//
// In a worker:
//   const port = openPort();            // self in a browser, parentPort under Node's worker_threads
//   port.listen((m) => ...); port.post(m, transfer);
//   port.post(failure(id, error));      // { type: 'error', id, message, name, code }
//
// Anywhere (run.js, the variance client, the variance worker):
//   const latest = latestWins();
//   const { id, previous } = latest.claim(kind);   // a new run of kind (previous: the one it replaces)
//   latest.isLatest(kind, id); latest.release(kind, id); latest.current(kind)
//
// On the page, a worker kept alive by a watchdog:
//   const w = superviseWorker({ create, load, loadTimeoutMs, replyTimeoutMs, onMessage, onReplaced,
//                               onUnavailable });
//   w.post(message, transfer); w.expect(key); w.heard(key); w.done(key); w.replace(code, detail);
//   w.terminate(); w.usesWorker(); w.restarts()
// `load` is posted first to every new worker, which answers { type: 'ready' } once its engine is
// loaded (within loadTimeoutMs). Each expected reply (expect(key), e.g. a job's id) must be heard
// of (heard(key): any message about it) within replyTimeoutMs once the worker is ready, until
// done(key). A worker that does not load in time or stops answering ('stuck'), or fails with an
// uncaught error ('crashed'), is terminated and replaced by a new one; onReplaced({ code, detail })
// then sends again what the old one had (once: the client keeps count and gives up the second
// time). A worker that fails before it ever loaded calls onUnavailable() when there is one (the
// client then runs on the page's thread) instead of being replaced; usesWorker() is false then,
// when no worker could be made at all, and after two workers in a row that never loaded.

export function openPort() {
  if (typeof self !== 'undefined' && typeof self.postMessage === 'function') {
    return {
      post: (m, transfer) => self.postMessage(m, transfer),
      listen: (f) => self.addEventListener('message', (e) => f(e.data)),
    };
  }
  const { parentPort } = process.getBuiltinModule('worker_threads');
  return { post: (m, transfer) => parentPort.postMessage(m, transfer), listen: (f) => parentPort.on('message', f) };
}

// An error as a message (its name and code survive the copy; the stack does not).
export const failure = (id, e) => ({
  type: 'error',
  id,
  message: e && e.message ? e.message : String(e),
  name: (e && e.name) || 'Error',
  code: e && e.code,
});

// The newest run of each kind: a run that was replaced still settles later, and is ignored.
export function latestWins() {
  const current = new Map(); // kind -> id of its newest run
  let next = 0;
  return {
    claim(kind = '', id = ++next) {
      const previous = current.get(kind);
      current.set(kind, id);
      return { id, previous };
    },
    isLatest: (kind, id) => current.get(kind) === id,
    current: (kind = '') => current.get(kind),
    release(kind, id) {
      if (current.get(kind) === id) current.delete(kind);
    },
  };
}

// addEventListener (a browser Worker) or on (Node's worker_threads): the message's data.
export function listen(worker, type, f) {
  if (typeof worker.addEventListener === 'function')
    worker.addEventListener(type, (e) => f(type === 'message' ? e.data : e));
  else worker.on(type, f);
}

export function superviseWorker({
  create,
  load,
  loadTimeoutMs = 60000,
  replyTimeoutMs = 15000,
  onMessage = () => {},
  onReplaced = () => {},
  onUnavailable = null,
}) {
  let worker = null;
  let ready = false; // whether the current worker has loaded its engine
  let loadTimer = null;
  let restarts = 0;
  let unready = 0; // workers in a row that failed before they loaded
  const expected = new Map(); // key -> its watchdog (null until the worker is ready)

  function arm(key) {
    clearTimeout(expected.get(key));
    expected.set(
      key,
      ready ? setTimeout(() => replace('stuck', `no reply for ${replyTimeoutMs / 1000} s`), replyTimeoutMs) : null,
    );
  }

  function start() {
    try {
      worker = create();
    } catch {
      worker = null;
    }
    ready = false;
    clearTimeout(loadTimer);
    if (!worker) return;
    const me = worker;
    listen(worker, 'message', (m) => {
      if (worker !== me) return;
      if (m && m.type === 'ready') {
        ready = true;
        unready = 0;
        clearTimeout(loadTimer);
        for (const key of expected.keys()) arm(key);
        return;
      }
      onMessage(m);
    });
    listen(worker, 'error', (e) => {
      if (e && typeof e.preventDefault === 'function') e.preventDefault(); // handled here, not the page's error
      if (worker === me) crashed(e && e.message);
    });
    loadTimer = setTimeout(() => replace('stuck', `not started after ${loadTimeoutMs / 1000} s`), loadTimeoutMs);
    worker.postMessage(load);
  }

  // The worker failed (an uncaught error, or it never started).
  function crashed(detail) {
    if (!ready && restarts === 0 && onUnavailable) {
      // it never ran: a blocked or missing script
      stop();
      onUnavailable();
      return;
    }
    replace('crashed', detail || 'an uncaught error');
  }

  function stop() {
    clearTimeout(loadTimer);
    if (worker) worker.terminate();
    worker = null;
  }

  // A new worker in place of the old one; the client sends it what the old one had. After two
  // workers in a row that never loaded, none is started (usesWorker() is false).
  function replace(code, detail) {
    if (!ready) unready += 1;
    stop();
    restarts += 1;
    if (unready < 2) start();
    for (const key of expected.keys()) arm(key);
    onReplaced({ code, detail });
  }

  start();
  return {
    post: (m, transfer) => worker && worker.postMessage(m, transfer),
    expect: arm,
    heard: (key) => expected.has(key) && arm(key),
    done(key) {
      clearTimeout(expected.get(key));
      expected.delete(key);
    },
    replace,
    terminate() {
      stop();
      for (const timer of expected.values()) clearTimeout(timer);
      expected.clear();
    },
    usesWorker: () => worker !== null,
    restarts: () => restarts,
  };
}
