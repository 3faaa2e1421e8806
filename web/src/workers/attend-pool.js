// Attention on several Web Workers at once, without SharedArrayBuffer (course pages are rarely
// cross-origin isolated): the query rows are split into one slice per worker, each worker runs
// its own engine instance (attend-worker.js) on its slice with the whole key and value, and the
// slices of the output are put back in order. Every row is computed exactly as one engine call
// computes it: the slices start on multiples of the block size, so the tiles are the same.
//
//   const pool = createAttendPool({ workers: 2 });
//   await pool.ready();                                   // optional: load the engines now
//   const r = await pool.run('flash', { query, key, value, causal: true, window: 256 },
//                            (done, total) => bar(done / total));
//   r.output  // { rows, cols, data: Float32Array }, as engine.flashAttend would return it
//   pool.terminate();
//
// run(kind, options, onProgress) -> Promise of { output, entropy, fullyMaskedRows, ms,
// workers: [{ rows, ms, heapBytes }] } (ms: wall time of the run; per worker: its rows, its
// engine time and the size of its wasm memory afterwards), or null when a newer run (or
// cancel()) replaced it. kind 'flash' takes flashAttend's options; 'naive' takes attend's
// query, key, value and keyPadding (its masks depend on the query's position, which a slice
// does not know). An engine error rejects with an AttentionError carrying the engine's message.

import { AttentionError } from '../engine/args.js';
import { FLASH_BLOCK } from '../engine/api.js';

const NAIVE_OPTIONS = ['query', 'key', 'value', 'keyPadding'];

// Rows per flashAttend call inside a worker, between progress reports. Every call passes the
// whole key and value through the engine's argument checks again, which costs about as much
// as 700 query rows of full attention, whatever n is; 4096-row chunks keep that near 15 %.
// A windowed run does so little work per row that it runs its slice in one call.
const CHUNK_ROWS = 4096;

function browserWorker() {
  return new Worker(new URL('./attend-worker.js', import.meta.url), { type: 'module' });
}

// addEventListener (a browser Worker) or on (Node's worker_threads): the message's data.
function listen(worker, type, f) {
  if (typeof worker.addEventListener === 'function')
    worker.addEventListener(type, (e) => f(type === 'message' ? e.data : e));
  else worker.on(type, f);
}

// A matrix option as { rows, cols, data: Float32Array } so it can be cut into row slices.
function rowMajor(name, x) {
  if (Array.isArray(x) && Array.isArray(x[0])) {
    const rows = x.length,
      cols = x[0].length;
    const data = new Float32Array(rows * cols);
    x.forEach((row, r) => data.set(row, r * cols));
    return { rows, cols, data };
  }
  if (x && Number.isInteger(x.rows) && Number.isInteger(x.cols) && x.data && x.data.length === x.rows * x.cols) {
    return { rows: x.rows, cols: x.cols, data: x.data instanceof Float32Array ? x.data : Float32Array.from(x.data) };
  }
  throw new AttentionError(`${name}: expected a matrix (nested arrays of numbers, or { rows, cols, data })`);
}

// First rows of the slices: `parts` slices of whole blocks, balanced by work. A causal query
// block b meets b + 1 key blocks, so causal slices are cut where the running sum of (b + 1)
// crosses each share; otherwise every block weighs the same.
export function planSlices(rows, blockSize, parts, causal = false) {
  const blocks = Math.ceil(rows / blockSize);
  const weight = (b) => (causal ? b + 1 : 1);
  let total = 0;
  for (let b = 0; b < blocks; b++) total += weight(b);
  const starts = [0];
  let sum = 0; // work of blocks 0 .. b - 1
  for (let b = 1; b < blocks && starts.length < parts; b++) {
    sum += weight(b - 1);
    const share = (total * starts.length) / parts;
    // cut before block b when that lands at least as near the share as cutting after it
    if (sum + weight(b) >= share && share - sum <= sum + weight(b) - share) starts.push(b * blockSize);
  }
  return starts.map((first, i) => ({ first, rows: (i + 1 < starts.length ? starts[i + 1] : rows) - first }));
}

export function createAttendPool({ workers = 2, simd, createWorker = browserWorker } = {}) {
  const pool = [];
  let nextId = 1;
  const pending = new Map(); // id -> { resolve, reject, onProgress }
  let current = null; // { ids, cancel() } of the running run

  function spawn() {
    const w = createWorker();
    listen(w, 'message', (m) => {
      const job = pending.get(m.id);
      if (!job) return;
      if (m.type === 'progress') return job.onProgress(m.rows);
      pending.delete(m.id);
      if (m.type === 'error') {
        const e = m.name === 'AttentionError' ? new AttentionError(m.message) : new Error(m.message);
        job.reject(e);
      } else job.resolve(m.type === 'cancelled' ? null : m);
    });
    listen(w, 'error', (e) => {
      for (const [id, job] of pending) {
        pending.delete(id);
        job.reject(new Error(`attend worker: ${e && e.message ? e.message : 'failed to start'}`));
      }
    });
    return w;
  }

  function workerAt(i) {
    while (pool.length <= i) pool.push(spawn());
    return pool[i];
  }

  function ask(i, message, transfer, onProgress = () => {}) {
    const id = nextId++;
    return {
      id,
      done: new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress });
        workerAt(i).postMessage({ ...message, id, simd }, transfer);
      }),
    };
  }

  // Loads an engine in every worker (a run does it too; this takes it out of the first timing).
  async function ready() {
    await Promise.all(Array.from({ length: workers }, (_, i) => ask(i, { type: 'load' }).done));
  }

  function cancel() {
    if (!current) return;
    current.cancel();
    current = null;
  }

  async function run(kind, options = {}, onProgress = () => {}) {
    if (kind !== 'flash' && kind !== 'naive')
      throw new AttentionError(`kind: expected 'flash' or 'naive', got ${String(kind)}`);
    if (kind === 'naive') {
      for (const name of Object.keys(options)) {
        if (!NAIVE_OPTIONS.includes(name)) {
          throw new AttentionError(
            `naive: unknown option '${name}' (expected one of ${NAIVE_OPTIONS.join(', ')}; ` +
              `causal, window and stride depend on the query's position: use 'flash')`,
          );
        }
      }
    }
    cancel();
    const query = rowMajor('query', options.query);
    // naive slices start on multiples of FLASH_BLOCK too: the kernels' row groups stay the same
    const block =
      kind === 'flash' && Number.isInteger(options.blockSize) && options.blockSize > 0
        ? options.blockSize
        : FLASH_BLOCK;
    const slices = planSlices(query.rows, block, workers, kind === 'flash' && options.causal === true);
    const baseOffset = kind === 'flash' ? (options.queryOffset ?? 0) : 0;
    const done = slices.map(() => 0);
    const t0 = performance.now();
    const asks = slices.map((s, i) => {
      const part = {
        rows: s.rows,
        cols: query.cols,
        data: query.data.slice(s.first * query.cols, (s.first + s.rows) * query.cols),
      };
      const args =
        kind === 'flash' ? { ...options, query: part, queryOffset: baseOffset + s.first } : { ...options, query: part };
      const chunkRows = options.window == null ? block * Math.ceil(CHUNK_ROWS / block) : s.rows;
      return ask(i, { type: 'run', kind, args, chunkRows }, [part.data.buffer], (rows) => {
        done[i] = rows;
        if (current === me)
          onProgress(
            done.reduce((a, b) => a + b, 0),
            query.rows,
          );
      });
    });
    const me = {
      cancelled: false,
      cancel: () => {
        me.cancelled = true;
        asks.forEach((a, i) => pool[i]?.postMessage({ type: 'cancel', id: a.id }));
      },
    };
    current = me;
    let parts;
    try {
      parts = await Promise.all(asks.map((a) => a.done));
    } catch (e) {
      if (current === me) {
        me.cancel();
        current = null;
      }
      throw e;
    }
    if (current === me) current = null;
    if (me.cancelled || parts.some((p) => p === null)) return null; // replaced, even if it finished
    const ms = performance.now() - t0;
    const cols = parts[0].output.cols;
    const output = { rows: query.rows, cols, data: new Float32Array(query.rows * cols) };
    const entropy = new Float32Array(query.rows);
    const fullyMaskedRows = [];
    parts.forEach((p, i) => {
      output.data.set(p.output.data, slices[i].first * cols);
      entropy.set(p.entropy, slices[i].first);
      for (const r of p.fullyMaskedRows) fullyMaskedRows.push(slices[i].first + r);
    });
    onProgress(query.rows, query.rows);
    return {
      output,
      entropy,
      fullyMaskedRows,
      ms,
      workers: parts.map((p, i) => ({ rows: slices[i].rows, ms: p.ms, heapBytes: p.heapBytes })),
    };
  }

  function terminate() {
    cancel();
    for (const w of pool) w.terminate();
    pool.length = 0;
    for (const [, job] of pending) job.resolve(null);
    pending.clear();
  }

  return { size: workers, ready, run, cancel, terminate };
}
