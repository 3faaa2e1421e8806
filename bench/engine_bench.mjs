// The engine under Node against its peers, side by side in one process.
//   (a) the peers table: single-head attention softmax(Q Kᵀ / √d) V, d = 64, fp32, one thread,
//       n in BENCH_SIZES (default 64 256 1024 2048 4096). Runners: our SIMD build, our scalar
//       build, plain JavaScript loops, onnxruntime-web (wasm, numThreads = 1) and
//       @tensorflow/tfjs-backend-wasm (K transposed first, then matMul: its fastest form).
//       Rounds are interleaved (every runner once per round, in rotating order) and the table
//       shows medians of process CPU time (steady on a busy machine, where wall time also counts
//       the waits; the wall-time median is shown beside it), GFLOP/s (4 n² d flops, from CPU
//       time) and each runner's time over our SIMD build's.
//       Every runner's output is checked against a double-precision reference first.
//   (b) the variance experiment: 100,000 pairs q, k at d_k = 256, SIMD vs scalar vs plain JS.
//   node bench/engine_bench.mjs            (after scripts/build.sh wasm; npm run bench does both)
import { createRequire } from 'node:module';

import { loadEngine } from '../web/src/engine.js';
import { median, randomMatrix } from '../tests/support/random.js';
import { attentionModel } from './onnx_attention.mjs';

const require = createRequire(import.meta.url);
const D = 64;
const SIZES = (process.env.BENCH_SIZES || '64 256 1024 2048 4096').split(/[\s,]+/).map(Number);
const ROUNDS = (n) => Number(process.env.BENCH_ROUNDS || (n <= 256 ? 21 : n <= 1024 ? 9 : n <= 2048 ? 5 : 3));

// ---- plain JavaScript: softmax(Q Kᵀ / sqrt(d)) V, one row of weights at a time --------------
function attendJs(q, k, v, n, d) {
  const output = new Float32Array(n * d); // (n, d)
  const row = new Float32Array(n); // one row of weights: (n)
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < d; p++) s += q[i * d + p] * k[j * d + p];
      row[j] = s * scale;
      if (row[j] > max) max = row[j];
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += row[j] = Math.exp(row[j] - max);
    for (let j = 0; j < n; j++) {
      const w = row[j] / sum;
      for (let p = 0; p < d; p++) output[i * d + p] += w * v[j * d + p];
    }
  }
  return output;
}

// ---- the reference: the same in double precision, on a sample of rows ------------------------
function referenceRows(q, k, v, n, d, rowIds) {
  const scale = 1 / Math.sqrt(d);
  return rowIds.map((i) => {
    const s = new Float64Array(n);
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let p = 0; p < d; p++) dot += q[i * d + p] * k[j * d + p];
      s[j] = dot * scale;
      max = Math.max(max, s[j]);
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += s[j] = Math.exp(s[j] - max);
    const out = new Float64Array(d);
    for (let j = 0; j < n; j++) for (let p = 0; p < d; p++) out[p] += (s[j] / sum) * v[j * d + p];
    return out;
  });
}

// Largest error on the sampled rows, relative to the largest |output| there. fp32 attention
// (float sums of n terms, a polynomial exp) stays well inside 1e-4 of it.
function checkRows(name, got, ref, rowIds, d) {
  let err = 0,
    scale = 0;
  rowIds.forEach((i, r) => {
    for (let p = 0; p < d; p++) {
      err = Math.max(err, Math.abs(got[i * d + p] - ref[r][p]));
      scale = Math.max(scale, Math.abs(ref[r][p]));
    }
  });
  if (!(err <= 1e-4 * scale)) throw new Error(`${name}: output differs from the reference by ${err} (scale ${scale})`);
  return err / scale;
}

// ---- the runners ---------------------------------------------------------------------------------
// Each: { name, prepare(n, q, k, v) -> (async) () => Float32Array output (n, d), or a reason it
// cannot run at this n }.
async function ourRunner(simd) {
  const engine = await loadEngine({ simd });
  const name = simd ? 'ours SIMD' : 'ours scalar';
  // the output-only path where the engine has it, else the all-stages attend
  let outputOnly = true;
  try {
    const m = randomMatrix(2, 2, 1);
    engine.attend({ query: m, key: m, value: m, stages: false });
  } catch {
    outputOnly = false;
  }
  const runners = [
    {
      name,
      path: outputOnly ? 'attend, stages: false' : 'attend (all stages)',
      prepare: (n, q, k, v) => {
        if (n > engine.limits.maxTokens) return `n > engine.limits.maxTokens = ${engine.limits.maxTokens}`;
        const args = { query: q, key: k, value: v, score: 'scaled-dot' };
        if (outputOnly) args.stages = false;
        return () => engine.attend(args).output.data;
      },
    },
  ];
  if (simd && typeof engine.flashAttend === 'function') {
    runners.push({
      name: 'ours flash',
      path: 'flashAttend',
      prepare: (n, q, k, v) => () => engine.flashAttend({ query: q, key: k, value: v }).output.data,
    });
  }
  return runners;
}

const jsRunner = {
  name: 'plain JS',
  path: 'Float32Array loops',
  prepare: (n, q, k, v) => () => attendJs(q.data, k.data, v.data, n, D),
};

async function ortRunner() {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  const session = await ort.InferenceSession.create(attentionModel(D), { executionProviders: ['wasm'] });
  return {
    name: 'onnxruntime-web',
    path: `${ort.env.versions.web}, wasm, numThreads = 1`,
    prepare: (n, q, k, v) => {
      const feeds = {
        Q: new ort.Tensor('float32', q.data, [n, D]),
        K: new ort.Tensor('float32', k.data, [n, D]),
        V: new ort.Tensor('float32', v.data, [n, D]),
      };
      return async () => {
        const result = await session.run(feeds);
        const out = result.O.data.slice();
        result.O.dispose();
        return out;
      };
    },
  };
}

async function tfjsRunner() {
  const tf = require('@tensorflow/tfjs-core');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  wasm.setThreadsCount(1);
  wasm.setWasmPaths(require.resolve('@tensorflow/tfjs-backend-wasm').replace(/[^/]*$/, ''));
  await tf.setBackend('wasm');
  await tf.ready();
  const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT');
  return {
    name: 'tfjs-wasm',
    path: `${tf.version_core}, ${simd ? 'SIMD' : 'no SIMD'}, ${wasm.getThreadsCount()} thread`,
    prepare: (n, q, k, v) => {
      const scale = 1 / Math.sqrt(D);
      return () => {
        const out = tf.tidy(() => {
          const [Q, K, V] = [q, k, v].map((m) => tf.tensor2d(m.data, [n, D]));
          const Kt = tf.transpose(K); // (d, n): matMul without transposeB
          return tf.matMul(tf.softmax(tf.mul(tf.matMul(Q, Kt), scale)), V);
        });
        const data = out.dataSync();
        out.dispose();
        return data;
      };
    },
  };
}

// A peer that cannot load becomes a column of reasons instead of stopping the benchmark.
async function optional(name, make) {
  try {
    return await make();
  } catch (e) {
    return { name, path: 'unavailable', prepare: () => `could not load: ${e.message.split('\n')[0]}` };
  }
}

// ---- the peers table ---------------------------------------------------------------------------
const runners = [
  ...(await ourRunner(true)),
  ...(await ourRunner(false)),
  jsRunner,
  await optional('onnxruntime-web', ortRunner),
  await optional('tfjs-wasm', tfjsRunner),
];

const fmtMs = (ms) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
const pad = (s, w) => String(s).padStart(w);

console.log(`Peers: single-head attention, d = ${D}, fp32, one thread, medians of interleaved rounds (CPU time)`);
for (const r of runners) console.log(`  ${r.name.padEnd(16)} ${r.path}`);
console.log('');
console.log(
  `${pad('n', 5)}  ${'runner'.padEnd(16)} ${pad('cpu ms', 8)} ${pad('GFLOP/s', 8)} ${pad('÷ SIMD', 7)}  ${pad('max err', 8)} ${pad('wall ms', 8)}`,
);

const summary = {}; // n -> name -> median ms
for (const n of SIZES) {
  const q = randomMatrix(n, D, 1),
    k = randomMatrix(n, D, 2),
    v = randomMatrix(n, D, 3);
  const rowIds = [
    ...new Set([0, 1, n >> 1, n - 2, n - 1, ...Array.from({ length: 11 }, (_, i) => Math.floor((i * n) / 11))]),
  ].filter((i) => i >= 0 && i < n);
  const ref = referenceRows(q.data, k.data, v.data, n, D, rowIds);
  const live = [];
  for (const r of runners) {
    const fn = r.prepare(n, q, k, v);
    if (typeof fn === 'string') {
      live.push({ r, skip: fn });
      continue;
    }
    const err = checkRows(`${r.name} at n = ${n}`, await fn(), ref, rowIds, D); // also the warm-up
    live.push({ r, fn, err, times: [], walls: [] });
  }
  const timed = live.filter((x) => x.fn);
  const rounds = ROUNDS(n);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < timed.length; i++) {
      const x = timed[(i + round) % timed.length];
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await x.fn();
      x.walls.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      x.times.push((c.user + c.system) / 1000);
    }
  }
  summary[n] = {};
  for (const x of timed) summary[n][x.r.name] = median(x.times);
  const simdMs = summary[n]['ours SIMD'];
  for (const x of live) {
    if (x.skip) {
      console.log(`${pad(n, 5)}  ${x.r.name.padEnd(16)} ${pad('-', 8)} ${pad('-', 8)} ${pad('-', 7)}  ${x.skip}`);
      continue;
    }
    const ms = summary[n][x.r.name];
    const gflops = (4 * n * n * D) / (ms * 1e6);
    const ratio = simdMs ? (ms / simdMs).toFixed(2) + 'x' : '-';
    console.log(
      `${pad(n, 5)}  ${x.r.name.padEnd(16)} ${pad(fmtMs(ms), 8)} ${pad(gflops.toFixed(2), 8)} ${pad(ratio, 7)}  ${pad(x.err.toExponential(1), 8)} ${pad(fmtMs(median(x.walls)), 8)}`,
    );
  }
}

// The targets, as measured in this run.
console.log('\nTargets (≥: met, <: missed), from the medians above');
for (const n of SIZES) {
  const s = summary[n],
    simd = s['ours SIMD'];
  if (!simd) continue;
  const best = s['ours flash'] ? Math.min(simd, s['ours flash']) : simd;
  const line = [];
  const check = (label, peerMs, target) => {
    if (peerMs === undefined) return;
    const x = peerMs / best;
    line.push(`${label} ${x.toFixed(2)}x ${x >= target ? '≥' : '<'} ${target}`);
  };
  check('vs onnxruntime-web', s['onnxruntime-web'], 1.5);
  check('vs tfjs-wasm', s['tfjs-wasm'], 1.5);
  line.push(`best path ${((4 * n * n * D) / (best * 1e6)).toFixed(1)} GFLOP/s`);
  if (s['ours scalar'])
    line.push(`SIMD/scalar ${(s['ours scalar'] / simd).toFixed(2)}x ${s['ours scalar'] / simd >= 4 ? '≥' : '<'} 4`);
  check('vs plain JS', s['plain JS'], 20);
  console.log(`${pad(n, 5)}  ${line.join('   ')}`);
}

// ---- the variance experiment ---------------------------------------------------------------------
function gaussian() {
  // Box–Muller with Math.random (fine for a benchmark baseline)
  let u = 0;
  while (u === 0) u = Math.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
}

function varianceJs(dk, samples) {
  const q = new Float64Array(dk),
    k = new Float64Array(dk);
  let sum = 0,
    sumSq = 0;
  for (let s = 0; s < samples; s++) {
    for (let i = 0; i < dk; i++) {
      q[i] = gaussian();
      k[i] = gaussian();
    }
    let dot = 0;
    for (let i = 0; i < dk; i++) dot += q[i] * k[i];
    sum += dot;
    sumSq += dot * dot;
  }
  const mean = sum / samples;
  return { mean, variance: (sumSq - samples * mean * mean) / (samples - 1) };
}

if (!process.env.BENCH_SIZES) {
  const simd = await loadEngine({ simd: true }),
    scalar = await loadEngine({ simd: false });
  const dk = 256,
    samples = 100000;
  const tasks = [
    ['ours SIMD', () => simd.varianceExperiment({ dk, samples, seed: 1 })],
    ['ours scalar', () => scalar.varianceExperiment({ dk, samples, seed: 1 })],
    ['plain JS', () => varianceJs(dk, samples)],
  ];
  const times = tasks.map(() => []);
  for (const [, fn] of tasks) fn();
  for (let round = 0; round < 5; round++) {
    tasks.forEach(([, fn], i) => {
      const c0 = process.cpuUsage();
      fn();
      const c = process.cpuUsage(c0);
      times[i].push((c.user + c.system) / 1000);
    });
  }
  console.log(`\nVariance experiment, d_k = ${dk}, ${samples} pairs (CPU time, medians of 5 interleaved rounds)`);
  const base = median(times[0]);
  const normals = 2 * dk * samples; // q and k of every pair
  tasks.forEach(([name], i) => {
    const ms = median(times[i]);
    console.log(
      `  ${name.padEnd(12)} ${pad(fmtMs(ms), 8)} ms ${pad((ms / base).toFixed(2) + 'x', 8)} ${pad((normals / (ms * 1e3)).toFixed(0), 6)} M normals/s`,
    );
  });
  const js = median(times[2]) / base;
  console.log(
    `  target: plain JS / SIMD ${js.toFixed(2)}x ${js >= 20 ? '≥' : '<'} 20; SIMD ${(normals / (base * 1e3)).toFixed(0)} M normals/s ${normals / (base * 1e3) >= 500 ? '≥' : '<'} 500`,
  );
}
