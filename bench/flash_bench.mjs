// Tiled ("flash") attention and linear attention against the naive pipeline under Node: time
// and peak wasm heap.
//   time: engine.attend (every stage kept, up to its 2048-token limit) and engine.flashAttend
//         (full, causal, and a sliding window of 256), d = 64, in ONE process with interleaved
//         rounds and medians, and engine.linearAttend (φ = elu + 1); each flash output is
//         checked against attend's (or, past 2048, against a double-precision reference on a
//         sample of rows); linear attention's is compared with the same exact reference (it is
//         another model: its error is the model's difference, not rounding).
//   heap: each call once more in a fresh worker thread with its own engine instance
//         (attend-worker.js), whose wasm memory starts at 32 MiB and never shrinks, so its size
//         afterwards is the run's peak; the growth is that minus the start.
//   node bench/flash_bench.mjs    (after scripts/build.sh wasm)
//   FLASH_SIZES="256 1024 2048 4096 16384" FLASH_ROUNDS=3 to change the sizes and rounds.
import { Worker } from 'node:worker_threads';

import { loadEngine } from '../web/src/engine.js';
import { median, randomMatrix } from '../tests/support/random.js';
import { createAttendPool } from '../web/src/workers/attend-pool.js';

const D = 64;
const SIZES = (process.env.FLASH_SIZES || '256 1024 2048 4096 16384').split(/[\s,]+/).map(Number);
const ROUNDS = (n) => Number(process.env.FLASH_ROUNDS || (n <= 1024 ? 7 : n <= 4096 ? 3 : 1));
const WORKER_URL = new URL('../web/src/workers/attend-worker.js', import.meta.url);
const MIB = 2 ** 20;

// Row i of softmax(q Kᵀ / √d) V in double over the allowed keys j (allowed(i, j)).
function referenceRow(q, k, v, i, allowed) {
  const n = k.rows,
    d = q.cols;
  const s = [];
  for (let j = 0; j < n; j++) {
    if (!allowed(i, j)) continue;
    let dot = 0;
    for (let c = 0; c < d; c++) dot += q.data[i * d + c] * k.data[j * d + c];
    s.push([j, dot / Math.sqrt(d)]);
  }
  const max = Math.max(...s.map(([, x]) => x));
  let sum = 0;
  const out = new Float64Array(v.cols);
  for (const [j, x] of s) {
    const e = Math.exp(x - max);
    sum += e;
    for (let c = 0; c < v.cols; c++) out[c] += e * v.data[j * v.cols + c];
  }
  return out.map((x) => x / sum);
}

// Largest |got - want| over the rows, relative to the row's largest |want|.
function rowsError(got, wantRow, rows) {
  let worst = 0;
  for (const i of rows) {
    const want = wantRow(i);
    let err = 0,
      size = 0;
    want.forEach((w, c) => {
      err = Math.max(err, Math.abs(got.data[i * got.cols + c] - w));
      size = Math.max(size, Math.abs(w));
    });
    worst = Math.max(worst, err / size);
  }
  return worst;
}

const RUNNERS = {
  naive: { label: 'attend (naive, all stages)', kind: 'naive', options: {} },
  flash: { label: 'flashAttend', kind: 'flash', options: {} },
  causal: { label: 'flashAttend causal', kind: 'flash', options: { causal: true } },
  window: { label: 'flashAttend window 256', kind: 'flash', options: { window: 256 } },
  linear: { label: 'linearAttend (elu + 1)', kind: 'linear', options: {} },
};
const allowedBy = {
  flash: () => true,
  causal: (i, j) => j <= i,
  window: (i, j) => Math.abs(i - j) <= 256,
  linear: () => true, // its error: against exact attention over every key
};

// The run's peak wasm heap, in a fresh worker with its own engine.
async function peakHeap(simd, kind, options) {
  const pool = createAttendPool({ workers: 1, simd, createWorker: () => new Worker(WORKER_URL) });
  try {
    const r = await pool.run(kind, options);
    return r.workers[0].heapBytes;
  } finally {
    pool.terminate();
  }
}

const engine = await loadEngine();
console.log(
  `flash vs naive attention, d = ${D}, fp32, one thread, ${engine.simd ? 'SIMD' : 'scalar'} build (Node ${process.version})`,
);
console.log('medians of interleaved rounds; heap = peak wasm memory of a fresh engine (it starts at 32 MiB)\n');

const table = [];
for (const n of SIZES) {
  const q = randomMatrix(n, D, 1),
    k = randomMatrix(n, D, 2),
    v = randomMatrix(n, D, 3);
  const names = Object.keys(RUNNERS).filter((name) => name !== 'naive' || n <= engine.limits.maxTokens);
  const call = (name) =>
    RUNNERS[name].kind === 'naive'
      ? engine.attend({ query: q, key: k, value: v })
      : RUNNERS[name].kind === 'linear'
        ? engine.linearAttend({ query: q, key: k, value: v })
        : engine.flashAttend({ query: q, key: k, value: v, ...RUNNERS[name].options });

  // check every output first
  const sample = [0, 1, n >> 1, n - 1];
  const naiveOut = names.includes('naive') ? call('naive').output : null;
  const errors = {};
  for (const name of names.filter((x) => x !== 'naive')) {
    const out = call(name).output;
    errors[name] =
      name === 'flash' && naiveOut
        ? rowsError(
            out,
            (i) => Array.from(naiveOut.data.subarray(i * D, (i + 1) * D)),
            Array.from({ length: n }, (_, i) => i),
          )
        : rowsError(out, (i) => referenceRow(q, k, v, i, allowedBy[name]), sample);
  }

  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS(n); round++) {
    for (let t = 0; t < names.length; t++) {
      const name = names[(t + round) % names.length];
      const t0 = performance.now();
      call(name);
      times[name].push(performance.now() - t0);
    }
  }
  let refused = '';
  if (!names.includes('naive')) {
    try {
      engine.attend({ query: q, key: k, value: v });
    } catch (e) {
      refused = e.message;
    }
  }
  for (const name of Object.keys(RUNNERS)) {
    const { kind, options, label } = RUNNERS[name];
    if (!names.includes(name)) {
      table.push({ n, runner: label, ms: 'refused', heap: '', growth: '', err: '' });
      continue;
    }
    const heap = await peakHeap(engine.simd, kind, { query: q, key: k, value: v, ...options });
    table.push({
      n,
      runner: label,
      ms: median(times[name]).toFixed(1),
      heap: (heap / MIB).toFixed(0),
      growth: ((heap - 32 * MIB) / MIB).toFixed(0),
      err: errors[name] === undefined ? '' : errors[name].toExponential(1),
    });
  }
  if (refused) console.log(`n = ${n}: attend refused: ${refused}`);
}

console.log('\n| n | runner | ms | heap MiB | growth MiB | rel. error |');
console.log('|---|---|---|---|---|---|');
for (const r of table) console.log(`| ${r.n} | ${r.runner} | ${r.ms} | ${r.heap} | ${r.growth} | ${r.err} |`);
const ratio = (n) => {
  const naive = table.find((r) => r.n === n && r.runner === RUNNERS.naive.label);
  const flash = table.find((r) => r.n === n && r.runner === RUNNERS.flash.label);
  return naive && flash && naive.ms !== 'refused' ? (Number(naive.ms) / Number(flash.ms)).toFixed(2) : null;
};
for (const n of SIZES) if (ratio(n)) console.log(`n = ${n}: naive / flash time = ${ratio(n)}`);
