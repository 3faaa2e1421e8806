// The public attend() path under Node, in one process with interleaved rounds and medians:
// the SIMD build and the scalar build (all stages, and output only with stages: false),
// against plain JavaScript loops. d = 64, fp32, single thread, the same inputs for everyone.
//   node bench/attend_path_bench.mjs            (after scripts/build.sh wasm)
//   BENCH_ROUNDS=9 BENCH_SIZES=256,1024 node bench/attend_path_bench.mjs
import { loadEngine } from '../web/src/engine.js';
import { median, randomMatrix } from '../tests/support/random.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 7);
const SIZES = (process.env.BENCH_SIZES || '256,1024').split(',').map(Number);
const D = 64;

// Deterministic inputs in [-1, 1): (rows, cols) as a Float32Array (tests/support/random.js).
const inputs = (rows, cols, seed) => randomMatrix(rows, cols, seed);

// softmax(Q Kᵀ / sqrt(d)) V with Float32Array loops.   q, k, v: (n, d)
function attendJs(q, k, v, n, d) {
  const weights = new Float32Array(n * n);
  const output = new Float32Array(n * d);
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < d; p++) s += q[i * d + p] * k[j * d + p];
      s *= scale;
      weights[i * n + j] = s;
      if (s > max) max = s;
    }
    let sum = 0;
    for (let j = 0; j < n; j++) {
      const e = Math.exp(weights[i * n + j] - max);
      weights[i * n + j] = e;
      sum += e;
    }
    for (let j = 0; j < n; j++) weights[i * n + j] /= sum;
    for (let j = 0; j < n; j++) {
      const w = weights[i * n + j];
      for (let p = 0; p < d; p++) output[i * d + p] += w * v[j * d + p];
    }
  }
  return output;
}

const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

const simd = await loadEngine({ simd: true });
const scalar = await loadEngine({ simd: false });
// stages: false is the output-only path; an engine without it would refuse the option.
let outputOnly = true;
try {
  simd.attend({ query: [[1]], key: [[1]], value: [[1]], stages: false });
} catch {
  outputOnly = false;
}

console.log(`attend() at d = ${D}: median ms of ${ROUNDS} interleaved rounds (one Node process)`);
const rows = [];
for (const n of SIZES) {
  const query = inputs(n, D, 1),
    key = inputs(n, D, 2),
    value = inputs(n, D, 3);
  const args = { query, key, value };
  const lean = { ...args, stages: false };
  const want = attendJs(query.data, key.data, value.data, n, D);
  const columns = {
    'SIMD, all stages': () => simd.attend(args).output.data,
    'SIMD, output only': outputOnly ? () => simd.attend(lean).output.data : null,
    'scalar, all stages': () => scalar.attend(args).output.data,
    'scalar, output only': outputOnly ? () => scalar.attend(lean).output.data : null,
    'plain JS': () => attendJs(query.data, key.data, value.data, n, D),
  };
  const names = Object.keys(columns).filter((c) => columns[c]);
  const times = Object.fromEntries(names.map((c) => [c, []]));
  for (const c of names) {
    // warm-up and a check against the plain-JS result
    const diff = maxDiff(columns[c](), want);
    if (!(diff < 1e-4)) throw new Error(`${c} at n = ${n}: differs from plain JS by ${diff}`);
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of names) {
      const t0 = performance.now();
      columns[c]();
      times[c].push(performance.now() - t0);
    }
  }
  const row = { n };
  for (const c of names) row[c] = Number(median(times[c]).toFixed(2));
  rows.push(row);
}
console.table(rows);
for (const row of rows) {
  const r = (a, b) => (row[a] / row[b]).toFixed(2);
  const parts = [
    `n = ${row.n}: plain JS / SIMD all stages = ${r('plain JS', 'SIMD, all stages')}`,
    `scalar / SIMD (all stages) = ${r('scalar, all stages', 'SIMD, all stages')}`,
  ];
  if (outputOnly) {
    parts.push(`SIMD all stages / output only = ${r('SIMD, all stages', 'SIMD, output only')}`);
    parts.push(`plain JS / SIMD output only = ${r('plain JS', 'SIMD, output only')}`);
  }
  console.log(parts.join('; '));
}
