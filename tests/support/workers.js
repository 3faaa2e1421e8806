// Node worker threads for the tests. Each is ended after the last test of the file that made it,
// whether the tests passed or failed: a failing test cannot leave a thread alive (one alive kept
// `node --test` from ever exiting). tests/js/exits.test.js proves it, and that no test file makes
// a thread any other way.
import { after } from 'node:test';
import { Worker } from 'node:worker_threads';

const live = new Set();
after(() => Promise.all([...live].map((w) => w.terminate())));

// A worker_threads Worker (source: a file URL, or code with { eval: true }).
export function nodeWorker(source, options) {
  const w = new Worker(source, options);
  live.add(w);
  w.once('exit', () => live.delete(w));
  return w;
}

// The same with the Web Worker interface the page's clients and pools use.
export function pageWorker(source, options) {
  const w = nodeWorker(source, options);
  return {
    thread: w,
    postMessage: (m) => w.postMessage(m),
    addEventListener: (type, f) =>
      w.on(type, type === 'message' ? (data) => f({ data }) : (err) => f({ message: err && err.message })),
    terminate: () => w.terminate(),
  };
}
