// The engine under Node: the SIMD build, the scalar build and plain JavaScript, in one run.
//   (a) the variance experiment: 100,000 pairs q, k at d_k = 256
//   (b) attend(): scaled dot-product attention at n = 1024 tokens, d = 64
// Times are the median of several runs after a warm-up; wall clock and process CPU time are
// both shown (on a busy machine CPU time is the steadier of the two).
//   node bench/engine_bench.mjs            (after scripts/build.sh wasm)
import { loadEngine } from '../web/src/engine.js';

const RUNS = Number(process.env.BENCH_RUNS || 5);

function measure(fn) {
  fn();  // warm-up (compiles the hot code)
  const wall = [], cpu = [];
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const median = (v) => v.sort((x, y) => x - y)[v.length >> 1];
  return { wall: median(wall), cpu: median(cpu) };
}

// ---- plain JavaScript baselines ---------------------------------------------------------------
function gaussian() {  // Box–Muller with Math.random (fine for a benchmark baseline)
  let u = 0;
  while (u === 0) u = Math.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
}

function varianceJs(dk, samples) {
  const q = new Float64Array(dk), k = new Float64Array(dk);
  let sum = 0, sumSq = 0;
  for (let s = 0; s < samples; s++) {
    for (let i = 0; i < dk; i++) { q[i] = gaussian(); k[i] = gaussian(); }
    let dot = 0;
    for (let i = 0; i < dk; i++) dot += q[i] * k[i];
    sum += dot;
    sumSq += dot * dot;
  }
  const mean = sum / samples;
  return { mean, variance: (sumSq - samples * mean * mean) / (samples - 1) };
}

// softmax(Q Kᵀ / sqrt(d)) V with Float32Array loops.   q, k, v: (n, d)
function attendJs(q, k, v, n, d) {
  const weights = new Float32Array(n * n);  // (n, n)
  const output = new Float32Array(n * d);   // (n, d)
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
  return { weights, output };
}

function randomMatrix(rows, cols, seed) {  // deterministic inputs in [-1, 1)
  const data = new Float32Array(rows * cols);
  let s = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = (s >>> 8) / 8388608 - 1;
  }
  return { rows, cols, data };
}

// ---- runs ----------------------------------------------------------------------------------------
const simd = await loadEngine({ simd: true });
const scalar = await loadEngine({ simd: false });
const rows = [];
const fmt = (x) => x.toFixed(1).padStart(9);

function compare(task, runners) {
  const results = runners.map(([name, fn]) => [name, measure(fn)]);
  const base = results[0][1];
  for (const [name, t] of results) {
    rows.push(`${task.padEnd(34)} ${name.padEnd(8)} ${fmt(t.wall)} ${fmt(t.cpu)}   ${(t.cpu / base.cpu).toFixed(2).padStart(6)}x`);
  }
}

const dk = 256, samples = 100000;
compare(`variance d_k=${dk}, ${samples} pairs`, [
  ['simd', () => simd.varianceExperiment({ dk, samples, seed: 1 })],
  ['scalar', () => scalar.varianceExperiment({ dk, samples, seed: 1 })],
  ['plain JS', () => varianceJs(dk, samples)],
]);

const n = 1024, d = 64;
const query = randomMatrix(n, d, 1), key = randomMatrix(n, d, 2), value = randomMatrix(n, d, 3);
compare(`attend n=${n}, d=${d} (scaled-dot)`, [
  ['simd', () => simd.attend({ query, key, value, score: 'scaled-dot' })],
  ['scalar', () => scalar.attend({ query, key, value, score: 'scaled-dot' })],
  ['plain JS', () => attendJs(query.data, key.data, value.data, n, d)],
]);

console.log(`${'task'.padEnd(34)} ${'engine'.padEnd(8)} ${'wall ms'.padStart(9)} ${'cpu ms'.padStart(9)}   vs SIMD (cpu)`);
for (const r of rows) console.log(r);
