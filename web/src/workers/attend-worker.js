// A Web Worker with its own engine instance that computes attention for a slice of the query
// rows (attend-pool.js splits the rows and puts the slices back together). No
// SharedArrayBuffer: the inputs arrive as copies, the output leaves as a transferred buffer.
//
// page -> worker  { type: 'load', simd }       load the engine (answered by 'ready': ./port.js)
//                 { type: 'load', id, simd }   load the engine now (answered by 'loaded')
//                 { type: 'run', id, simd, kind: 'flash' | 'naive' | 'linear', args, chunkRows }
//                   args: flashAttend options (the query slice, queryOffset = its first row),
//                   attend options (query slice, key, value, keyPadding) for 'naive', or
//                   linearAttend options (query slice, key, value) for 'linear'
//                 { type: 'cancel', id }      stop after the current chunk
// worker -> page  { type: 'loaded', id } | { type: 'progress', id, rows }  (rows of the slice done)
//                 { type: 'done', id, output, entropy, fullyMaskedRows, ms, heapBytes, heldBytes }
//                   (fullyMaskedRows: rows of the slice; heldBytes: what the engine held for the
//                   scores: the (rows, n_k) weights, the tiles, or linear attention's state)
//                 { type: 'cancelled', id } | { type: 'error', id, message, name }
//
// 'flash' runs the slice in chunks of chunkRows rows (multiples of the block size, so every
// tile is the one a single call would compute) to report progress and hear a cancel;
// 'naive' is one attend() call, its (n_q, n_k) matrices and all; 'linear' one linearAttend().
// ms is the engine time of the run; heapBytes the size of this worker's wasm memory after it
// (it never shrinks: the peak).
// Also runs under Node's worker_threads (for the tests), where the port is parentPort.

import { loadEngine } from '../engine/api.js';
import { yieldToEvents } from './variance-jobs.js';
import { openPort, failure } from './port.js';

const port = openPort();
const cancelled = new Set();

const rowsOf = (m) => ({ rows: m.rows, cols: m.cols });
const slice = (m, first, count) => ({
  rows: count,
  cols: m.cols,
  data: m.data.subarray(first * m.cols, (first + count) * m.cols),
});

async function flashSlice(engine, id, args, chunkRows) {
  const { query } = args;
  const first = args.queryOffset ?? 0;
  const out = { output: null, entropy: new Float32Array(query.rows), fullyMaskedRows: [], heldBytes: 0 };
  let ms = 0;
  for (let r = 0; r < query.rows; r += chunkRows) {
    if (cancelled.has(id)) return null;
    const count = Math.min(chunkRows, query.rows - r);
    const t0 = performance.now();
    const part = engine.flashAttend({ ...args, query: slice(query, r, count), queryOffset: first + r });
    ms += performance.now() - t0;
    if (!out.output)
      out.output = { ...rowsOf(part.output), rows: query.rows, data: new Float32Array(query.rows * part.output.cols) };
    out.output.data.set(part.output.data, r * part.output.cols);
    out.entropy.set(part.entropy, r);
    out.heldBytes = Math.max(out.heldBytes, part.tileBytes);
    for (const i of part.fullyMaskedRows) out.fullyMaskedRows.push(r + i);
    port.post({ type: 'progress', id, rows: r + count });
    await yieldToEvents();
  }
  return { ...out, ms };
}

function naiveSlice(engine, args) {
  const t0 = performance.now();
  const r = engine.attend(args);
  const ms = performance.now() - t0;
  const heldBytes = 4 * r.weights.rows * r.weights.cols; // the (rows, n_k) weights, float32
  return { output: r.output, entropy: r.entropy, fullyMaskedRows: r.fullyMaskedRows, ms, heldBytes };
}

function linearSlice(engine, args) {
  const t0 = performance.now();
  const r = engine.linearAttend(args);
  const ms = performance.now() - t0;
  return { output: r.output, entropy: new Float32Array(0), fullyMaskedRows: r.zeroRows, ms, heldBytes: r.stateBytes };
}

async function run({ id, simd, kind, args, chunkRows }) {
  try {
    const engine = await loadEngine(simd === undefined ? undefined : { simd });
    const result =
      kind === 'flash'
        ? await flashSlice(engine, id, args, chunkRows)
        : kind === 'linear'
          ? linearSlice(engine, args)
          : naiveSlice(engine, args);
    if (result === null) {
      port.post({ type: 'cancelled', id });
      return;
    }
    const { heapBytes } = engine.memory();
    port.post({ type: 'done', id, ...result, heapBytes }, [result.output.data.buffer, result.entropy.buffer]);
  } catch (e) {
    port.post(failure(id, e));
  } finally {
    cancelled.delete(id);
  }
}

async function load({ id, simd }) {
  try {
    await loadEngine(simd === undefined ? undefined : { simd });
    port.post(id === undefined ? { type: 'ready' } : { type: 'loaded', id });
  } catch (e) {
    port.post(failure(id, e)); // no 'ready': the page's watchdog replaces this worker
  }
}

port.listen((m) => {
  if (m.type === 'load') load(m);
  else if (m.type === 'run') run(m);
  else if (m.type === 'cancel') cancelled.add(m.id);
});
