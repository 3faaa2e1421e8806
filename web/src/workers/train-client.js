// The page's side of train-worker.js: reset the runs, train, pause, inspect a head on your own
// tokens. Every report of the current session reaches onReport; a reply to an older session
// is dropped, so a reset never draws an old run over a new one.
//
//   const client = createTrainClient({ simd: engine.simd, onReport, onError });
//   client.reset({ main: config, twin: config })   // step 0
//   client.train(Infinity, 10)                     // play (chunks of 10 steps)
//   client.pause()                                 // onPaused(step of the main run) follows
//   await client.inspect('main', [3, 1, 4])        // -> { tokens, predictions, patterns }
//   client.terminate()

function browserWorker() {
  return new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
}

export function createTrainClient({
  simd,
  onReport = () => {},
  onPaused = () => {},
  onError = () => {},
  createWorker = browserWorker,
}) {
  const worker = createWorker();
  let session = 0;
  let nextId = 1;
  const waiting = new Map(); // id -> { resolve, reject } of inspect()

  worker.addEventListener('message', (e) => {
    const m = e.data;
    if (!m || typeof m !== 'object') return;
    if (waiting.has(m.id)) {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.type === 'inspected') w.resolve(m.result);
      else w.reject(Object.assign(new Error(m.message), { name: m.name }));
      return;
    }
    if (m.type === 'report' && m.id === session) onReport(m.runs, m.training);
    else if (m.type === 'paused' && m.id === session) onPaused(m.steps.main ?? 0);
    else if (m.type === 'error' && (m.id === session || m.id === null))
      onError(Object.assign(new Error(m.message), { name: m.name }));
  });
  worker.addEventListener('error', (e) => onError(new Error((e && e.message) || 'the training worker failed')));
  worker.postMessage({ type: 'load', simd });

  return {
    reset(runs) {
      session = nextId++;
      worker.postMessage({ type: 'reset', id: session, runs });
    },
    train(until, chunk) {
      worker.postMessage({ type: 'train', id: session, until, chunk });
    },
    pause() {
      worker.postMessage({ type: 'pause', id: session });
    },
    inspect(run, tokens) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ type: 'inspect', id, run, tokens });
      });
    },
    terminate() {
      worker.terminate();
      for (const w of waiting.values()) w.resolve(null);
      waiting.clear();
    },
  };
}
