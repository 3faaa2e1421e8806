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
// does not know); 'linear' takes linearAttend's query, key and value (without causal: each
// slice sums over every key). Each worker also reports heldBytes, what its engine held for the
// scores: naive its (rows, n_k) matrix, flash its tiles (tileBytes), linear its state S and z
// (stateBytes); a 'linear' run has no entropy (an empty array). An engine error rejects with
// an AttentionError carrying the engine's message.
// Each worker is kept alive by the watchdog of ./port.js: one that stops answering (no progress
// for replyTimeoutMs) or crashes is replaced and its slice sent again, once; a slice that fails
// that way twice rejects the run.

import { AttentionError, booleanArg, checkOptions, flagsArg, integerArg, matrixArg, reading } from '../engine/args.js';
import { FLASH_BLOCK, POOL_LIMITS } from '../engine/choices.js';
import { FLASH_OPTIONS } from '../engine/inputs.js';
import { superviseWorker } from './port.js';

const NAIVE_OPTIONS = ['query', 'key', 'value', 'keyPadding'];
const LINEAR_POOL_OPTIONS = ['query', 'key', 'value'];
const KINDS = ['flash', 'naive', 'linear'];

// Rows per flashAttend call inside a worker, between progress reports. Every call passes the
// whole key and value through the engine's argument checks again, which costs about as much
// as 700 query rows of full attention, whatever n is; 4096-row chunks keep that near 15 %.
// A windowed run does so little work per row that it runs its slice in one call.
const CHUNK_ROWS = 4096;

function browserWorker() {
  return new Worker(new URL('./attend-worker.js', import.meta.url), { type: 'module' });
}

// ---- the pool's inputs, checked as the engine checks them ---------------------------------------
// Through the engine's own conversion (engine/args.js: options read once, every array copied
// once, every entry a number that fits float32) and the core's size rule, with flash attention's
// and attend's limits (cpp/core/flash.h, cpp/core/matrix.h), so a bad input rejects with the
// engine's AttentionError before any worker sees it; values (finite, shapes that agree) are the
// workers' engines' to check, and their errors reject too.
// (attend's own row limits, with its memory estimate in the message, are the workers' engines'
// to apply to each slice and to the whole key and value.)
const LIMITS = {
  flash: { rows: POOL_LIMITS.maxFlashTokens, rowsName: 'maxFlashTokens', block: POOL_LIMITS.maxFlashBlock },
  naive: { rows: POOL_LIMITS.maxFlashTokens, rowsName: 'maxFlashTokens' },
  linear: { rows: POOL_LIMITS.maxFlashTokens, rowsName: 'maxFlashTokens' },
};
const MAX_DIM = POOL_LIMITS.maxDim;
// The core's size rule (check.cpp check_size) and message, for rows up to the kind's limit.
const sizeRule = (limit, rowsName) => (name, rows, cols, count) => {
  const counted = (max, what, limitName) => `1 to ${max} ${what} (engine.limits.${limitName})`;
  if (!(Number.isInteger(rows) && rows >= 1 && rows <= limit))
    return `${name}: expected ${counted(limit, 'rows', rowsName)}, got ${rows}`;
  if (!(Number.isInteger(cols) && cols >= 1 && cols <= MAX_DIM))
    return `${name}: expected ${counted(MAX_DIM, 'columns', 'maxDim')}, got ${cols}`;
  if (count !== rows * cols)
    return `${name}: expected ${rows * cols} numbers for ${rows} rows x ${cols} columns, got ${count}`;
  return '';
};
const flagsRule = (limit) => (name, rows, cols, count) =>
  count > limit ? `${name}: expected 1 to ${limit} columns, got ${count}` : '';

// options -> the arguments a worker's engine is given: plain values and fresh typed arrays only.
function poolArgs(kind, options) {
  const flash = kind === 'flash';
  const allowed = flash ? FLASH_OPTIONS : kind === 'linear' ? LINEAR_POOL_OPTIONS : NAIVE_OPTIONS;
  if (kind === 'naive' && options !== null && typeof options === 'object') {
    const names = reading('naive', () => Object.keys(options));
    for (const name of names) {
      if (!NAIVE_OPTIONS.includes(name)) {
        throw new AttentionError(
          `naive: unknown option '${name}' (expected one of ${NAIVE_OPTIONS.join(', ')}; ` +
            `causal, window and stride depend on the query's position: use 'flash')`,
        );
      }
    }
  }
  const o = checkOptions(kind, options, allowed);
  const { rows, rowsName, block } = LIMITS[kind];
  const size = sizeRule(rows, rowsName);
  const args = {
    query: matrixArg('query', o.query, size),
    key: matrixArg('key', o.key, size),
    value: matrixArg('value', o.value, size),
  };
  if (o.keyPadding != null) args.keyPadding = flagsArg('keyPadding', o.keyPadding, flagsRule(rows));
  if (!flash) return args;
  args.causal = booleanArg('causal', o.causal ?? false);
  if (o.window != null) args.window = integerArg('window', o.window, 0, rows);
  if (o.stride != null) args.stride = integerArg('stride', o.stride, 1, rows);
  args.blockSize = integerArg('blockSize', o.blockSize ?? FLASH_BLOCK, 1, block);
  args.queryOffset = integerArg('queryOffset', o.queryOffset ?? 0, 0, rows);
  return args;
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

export function createAttendPool({
  workers = 2,
  simd,
  createWorker = browserWorker,
  loadTimeoutMs = 60000,
  replyTimeoutMs = 30000,
} = {}) {
  const pool = [];
  let nextId = 1;
  const pending = new Map(); // id -> { id, i, make, resolve, reject, onProgress, retried, cancelled }
  let current = null; // { ids, cancel() } of the running run

  function settle(job) {
    pending.delete(job.id);
    pool[job.i].done(job.id);
  }

  function heard(m) {
    const job = m && pending.get(m.id);
    if (!job) return;
    if (m.type === 'progress') {
      pool[job.i].heard(job.id);
      return job.onProgress(m.rows);
    }
    if (m.type === 'error' && m.code === 'engine-stopped') {
      pool[job.i].replace('crashed', 'its engine stopped after an internal error');
      return;
    }
    settle(job);
    if (m.type === 'error') {
      const e = m.name === 'AttentionError' ? new AttentionError(m.message) : new Error(m.message);
      job.reject(e);
    } else job.resolve(m.type === 'cancelled' ? null : m);
  }

  // Worker i was replaced: its slices again, once (a cancelled one is over).
  function resend(i, code, detail) {
    for (const job of [...pending.values()]) {
      if (job.i !== i) continue;
      if (job.cancelled) {
        settle(job);
        job.resolve(null);
      } else if (job.retried || !pool[i].usesWorker()) {
        settle(job);
        job.reject(new Error(`attend worker: ${code === 'stuck' ? 'stopped answering' : 'failed'} twice (${detail})`));
      } else {
        job.retried = true;
        send(job);
      }
    }
  }

  function workerAt(i) {
    while (pool.length <= i) {
      const k = pool.length;
      pool.push(
        superviseWorker({
          create: createWorker,
          load: { type: 'load', simd },
          loadTimeoutMs,
          replyTimeoutMs,
          onMessage: heard,
          onReplaced: ({ code, detail }) => resend(k, code, detail),
        }),
      );
    }
    return pool[i];
  }

  function send(job) {
    const [message, transfer] = job.make();
    workerAt(job.i).expect(job.id);
    workerAt(job.i).post({ ...message, id: job.id, simd }, transfer);
  }

  // make() -> [message, transfer]: called again for a resend (a transferred buffer is gone).
  function ask(i, make, onProgress = () => {}) {
    const id = nextId++;
    return {
      id,
      done: new Promise((resolve, reject) => {
        const job = { id, i, make, resolve, reject, onProgress, retried: false, cancelled: false };
        pending.set(id, job);
        send(job);
      }),
    };
  }

  // Loads an engine in every worker (a run does it too; this takes it out of the first timing).
  async function ready() {
    await Promise.all(Array.from({ length: workers }, (_, i) => ask(i, () => [{ type: 'load' }]).done));
  }

  function cancel() {
    if (!current) return;
    current.cancel();
    current = null;
  }

  async function run(kind, given = {}, onProgress = () => {}) {
    if (!KINDS.includes(kind))
      throw new AttentionError(`kind: expected 'flash', 'naive' or 'linear', got ${String(kind)}`);
    const options = poolArgs(kind, given);
    cancel();
    const query = options.query;
    // naive slices start on multiples of FLASH_BLOCK too: the kernels' row groups stay the same
    const block = kind === 'flash' ? options.blockSize : FLASH_BLOCK;
    const slices = planSlices(query.rows, block, workers, kind === 'flash' && options.causal === true);
    const baseOffset = kind === 'flash' ? (options.queryOffset ?? 0) : 0;
    const done = slices.map(() => 0);
    const t0 = performance.now();
    const asks = slices.map((s, i) => {
      const chunkRows = options.window == null ? block * Math.ceil(CHUNK_ROWS / block) : s.rows;
      const make = () => {
        const part = {
          rows: s.rows,
          cols: query.cols,
          data: query.data.slice(s.first * query.cols, (s.first + s.rows) * query.cols),
        };
        const args =
          kind === 'flash'
            ? { ...options, query: part, queryOffset: baseOffset + s.first }
            : { ...options, query: part };
        return [{ type: 'run', kind, args, chunkRows }, [part.data.buffer]];
      };
      return ask(i, make, (rows) => {
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
        asks.forEach((a, i) => {
          const job = pending.get(a.id);
          if (job) job.cancelled = true;
          pool[i]?.post({ type: 'cancel', id: a.id });
        });
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
    const entropy = new Float32Array(kind === 'linear' ? 0 : query.rows);
    const fullyMaskedRows = [];
    parts.forEach((p, i) => {
      output.data.set(p.output.data, slices[i].first * cols);
      if (kind !== 'linear') entropy.set(p.entropy, slices[i].first);
      for (const r of p.fullyMaskedRows) fullyMaskedRows.push(slices[i].first + r);
    });
    onProgress(query.rows, query.rows);
    return {
      output,
      entropy,
      fullyMaskedRows,
      ms,
      workers: parts.map((p, i) => ({
        rows: slices[i].rows,
        ms: p.ms,
        heapBytes: p.heapBytes,
        heldBytes: p.heldBytes,
      })),
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
