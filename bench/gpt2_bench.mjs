// GPT-2 small in the engine, against onnxruntime-web on the same weights, in Node and in headless
// Chromium, both builds. The bench writes a random checkpoint with GPT-2 small's shapes (12 layers,
// 12 heads, n_embd 768, 1024 positions, a vocabulary of 50257: 124 M float32 weights, 0.5 GB) once,
// to the system's temporary folder (GPT2_BENCH_FILE overrides; it is not committed), and prints:
//   - load: engine.loadModel from a File (Node: fs.openAsBlob; Chromium: an <input type=file>
//     given the file's path), its time and the model module's memory after it and at the end (wasm
//     memory never shrinks: the end is the peak);
//   - forward: model.run on 16, 64 and 256 random tokens (top 10 of every position, every head's
//     weights copied out), medians of interleaved rounds (our SIMD build, our scalar build,
//     onnxruntime-web with one thread, in turn), GFLOP/s (2 flops per multiply-add of the products:
//     n (12 (24 d² + 4 n d) + 2 d vocab)), and each runner's time over our SIMD build's;
//   - that onnxruntime-web (a graph built from the same tensors: bench/onnx_gpt2.mjs) gives the same
//     top 10 as the engine at every position (neighbours closer than 1e-4 may swap); where it does
//     not, the positions, and a file for bench/gpt2_float64.py, which says which is right in float64.
//   node bench/gpt2_bench.mjs          (after scripts/build.sh wasm; GPT2_BENCH_CHROMIUM=0: Node only,
//                                      GPT2_BENCH_NODE=0: Chromium only)
// Environment: GPT2_BENCH_SIZES (16 64 256), GPT2_BENCH_ROUNDS (5).
// GPT2_BENCH_PROFILE=1 prints where the time goes instead of the side-by-side table: the load split
// into reading the File alone and the rest, and one forward of the SIMD build stage by stage
// (model.run's profile: the engine's own clock around each stage, medians of the rounds), beside the
// whole call as JavaScript times it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadEngine } from '../web/src/engine.js';
import { launchBrowser } from '../tests/e2e/harness.js';
import { serveDist, ROOT } from '../scripts/serve-dist.mjs';
import { writeSafetensors } from '../tests/support/safetensors.js';
import { mulberry32, median } from '../tests/support/random.js';
import { gpt2Inputs, gpt2Model } from './onnx_gpt2.mjs';

const PROFILE = process.env.GPT2_BENCH_PROFILE === '1';
const SIZES = (process.env.GPT2_BENCH_SIZES || '16 64 256').split(/[\s,]+/).map(Number);
const ROUNDS = Number(process.env.GPT2_BENCH_ROUNDS || 5);
const FILE = process.env.GPT2_BENCH_FILE || path.join(os.tmpdir(), 'attention-lab-gpt2-small-random.safetensors');
const CONFIG = {
  model_type: 'gpt2',
  activation_function: 'gelu_new',
  n_layer: 12,
  n_head: 12,
  n_embd: 768,
  n_positions: 1024,
  n_inner: null,
  vocab_size: 50257,
  layer_norm_epsilon: 1e-5,
};
const TOP = 10;

// ---- the checkpoint ---------------------------------------------------------------------------------

// GPT-2 small's tensors, uniform random with the spread a trained model's have roughly (so the
// attention is not uniform and the next-token distribution has a clear top 10).
function checkpoint() {
  const { n_layer: L, n_embd: d, n_positions: P, vocab_size: V } = CONFIG;
  const random = mulberry32(20261205);
  const tensor = (name, shape, std, mean = 0) => {
    const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
    const a = std * Math.sqrt(3);
    for (let i = 0; i < data.length; i++) data[i] = mean + (2 * random() - 1) * a;
    return { name, dtype: 'F32', shape, bytes: new Uint8Array(data.buffer) };
  };
  const t = [tensor('wte.weight', [V, d], 0.1), tensor('wpe.weight', [P, d], 0.1)];
  for (let l = 0; l < L; l++) {
    const p = `h.${l}.`;
    t.push(
      tensor(p + 'ln_1.weight', [d], 0.1, 1),
      tensor(p + 'ln_1.bias', [d], 0.02),
      tensor(p + 'attn.c_attn.weight', [d, 3 * d], 1.2 / Math.sqrt(d)),
      tensor(p + 'attn.c_attn.bias', [3 * d], 0.02),
      tensor(p + 'attn.c_proj.weight', [d, d], 1 / Math.sqrt(d)),
      tensor(p + 'attn.c_proj.bias', [d], 0.02),
      tensor(p + 'ln_2.weight', [d], 0.1, 1),
      tensor(p + 'ln_2.bias', [d], 0.02),
      tensor(p + 'mlp.c_fc.weight', [d, 4 * d], 1 / Math.sqrt(d)),
      tensor(p + 'mlp.c_fc.bias', [4 * d], 0.02),
      tensor(p + 'mlp.c_proj.weight', [4 * d, d], 1 / Math.sqrt(4 * d)),
      tensor(p + 'mlp.c_proj.bias', [d], 0.02),
    );
  }
  t.push(tensor('ln_f.weight', [d], 0.1, 1), tensor('ln_f.bias', [d], 0.02));
  return writeSafetensors(t);
}

if (!fs.existsSync(FILE)) {
  console.log(`writing a random GPT-2-small-shaped checkpoint to ${FILE} …`);
  fs.writeFileSync(FILE, checkpoint());
}
const FILE_BYTES = fs.statSync(FILE).size;

// ---- what runs in both places (Node, and the page: this function is sent there as text) -----------

// -> { loads: [{ simd, ms, heapBytes }], rows: [{ n, runner, ms: [...], differing: [positions], check }],
// peak: { simd, scalar } }; with profile { read: { ms, chunks }, profiles: [{ n, wallMs, stages: [{ stage, ms }] }] }
// instead of rows and peak
async function measure({ file, config, sizes, rounds, top, profile, modules }) {
  const { loadEngine, readSafetensors, gpt2Model, gpt2Inputs, ort } = modules;
  const now = () => performance.now();
  const loads = [];
  const models = {};
  const engines = {};
  for (const simd of [true, false]) {
    engines[simd] = await loadEngine({ simd });
    await engines[simd].modelMemory(); // the module loaded before the clock starts
    const t0 = now();
    models[simd] = await engines[simd].loadModel(file, { config });
    loads.push({ simd, ms: now() - t0, heapBytes: (await engines[simd].modelMemory()).heapBytes });
  }

  if (profile) {
    // the File read to its end, nothing done with the bytes: what loading cannot go below
    const reader = file.stream().getReader();
    let chunks = 0;
    const t0 = now();
    while (!(await reader.read()).done) chunks++;
    const read = { ms: now() - t0, chunks };
    const middle = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const profiles = [];
    let seed = 7;
    for (const n of sizes) {
      const ids = Array.from(
        { length: n },
        () => (seed = (seed * 1103515245 + 12345) % 2147483648) % config.vocab_size,
      );
      await models[true].run(ids, { topK: top }); // untimed warm-up
      const runs = [];
      for (let r = 0; r < rounds; r++) {
        const t1 = now();
        const out = await models[true].run(ids, { topK: top, profile: true });
        runs.push({ wallMs: now() - t1, stages: out.profile });
      }
      profiles.push({
        n,
        wallMs: middle(runs.map((r) => r.wallMs)),
        stages: runs[0].stages.map(({ stage }, i) => ({ stage, ms: middle(runs.map((r) => r.stages[i].ms)) })),
      });
    }
    for (const simd of [true, false]) models[simd].delete();
    return { loads, read, profiles };
  }

  // onnxruntime-web on the same tensors, one thread
  const byName = {};
  for (const t of readSafetensors(new Uint8Array(await file.arrayBuffer())).tensors) {
    // views of the file's bytes (the data starts on 8 bytes: every F32 tensor is aligned)
    byName[t.name] = { shape: t.shape, data: new Float32Array(t.bytes.buffer, t.bytes.byteOffset, t.bytes.length / 4) };
  }
  const c = models[true].config;
  ort.env.wasm.numThreads = 1;
  const session = await ort.InferenceSession.create(gpt2Model(byName, c), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });

  // the k most likely ids of one row of logits (double softmax), best first
  const topOf = (logits, row, k) => {
    const V = c.vocabSize;
    const x = logits.subarray(row * V, (row + 1) * V);
    let max = -Infinity;
    for (const v of x) max = Math.max(max, v);
    let sum = 0;
    for (const v of x) sum += Math.exp(v - max);
    const ids = Array.from({ length: V }, (_, i) => i)
      .sort((a, b) => x[b] - x[a] || a - b)
      .slice(0, k);
    return { ids, p: ids.map((i) => Math.exp(x[i] - max) / sum), of: (i) => Math.exp(x[i] - max) / sum };
  };
  // The positions whose top k differ, but for ties: where the two put different ids a and b at a rank,
  // a tie is p(a) within 1e-4 of p(b) (relative; p(a) as they give it, or as we do when a is not in
  // their top k and they give no other). Both runtimes' top-10 probabilities stand within about 1e-5
  // of float64's after GPT-2 small's 12 layers (bench/gpt2_float64.py: 1.2e-5 and 5.9e-6 at 256
  // tokens), so ids closer than that have an order float32 arithmetic does not decide, at the
  // boundary of the top k (rank k against k + 1) as much as inside it.
  const differing = (ours, theirs, n) => {
    const out = [];
    for (let t = 0; t < n; t++) {
      const want = theirs(t);
      for (let j = 0; j < top; j++) {
        const id = ours.ids[t * top + j];
        if (id === want.ids[j]) continue;
        const k = want.ids.indexOf(id);
        const p = k >= 0 ? want.p[k] : want.of ? want.of(id) : ours.probabilities[t * top + j];
        if (Math.abs(p - want.p[j]) > 1e-4 * want.p[j]) {
          out.push(t);
          break;
        }
      }
    }
    return out;
  };
  const rowOf = (r, t) => ({
    ids: Array.from(r.ids.subarray(t * top, t * top + top)),
    p: Array.from(r.probabilities.subarray(t * top, t * top + top)),
  });

  let seed = 7;
  const rows = [];
  for (const n of sizes) {
    const ids = Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) % 2147483648) % c.vocabSize);
    const runners = {
      'engine SIMD': () => models[true].run(ids, { topK: top }),
      'engine scalar': () => models[false].run(ids, { topK: top }),
      'onnxruntime-web': () => session.run(gpt2Inputs(ort, ids)),
    };
    const times = Object.fromEntries(Object.keys(runners).map((k) => [k, []]));
    const results = {};
    // untimed warm-up: until a runner's time settles (within 10 % of its run before, at most 5 runs).
    // A browser compiles wasm lazily: a function runs as Liftoff's baseline code until the optimised
    // code compiled for it in the background arrives, and on 2 cores the other runtimes' compiles
    // queue before it, so the first runs of each (at the first size) are not the steady state.
    for (const name of Object.keys(runners)) {
      for (let i = 0, last = Infinity; i < 5; i++) {
        const t0 = now();
        results[name] = await runners[name]();
        const ms = now() - t0;
        if (Math.abs(ms - last) <= 0.1 * last) break;
        last = ms;
      }
    }
    for (let r = 0; r < rounds; r++) {
      const order = Object.keys(runners);
      for (let i = 0; i < order.length; i++) {
        const name = order[(i + r) % order.length];
        const t0 = now();
        await runners[name]();
        times[name].push(now() - t0);
      }
    }
    const logits = results['onnxruntime-web'].logits.data;
    const simdTop = results['engine SIMD'].topK;
    for (const runner of Object.keys(runners)) {
      const positions =
        runner === 'onnxruntime-web'
          ? differing(simdTop, (t) => topOf(logits, t, top), n)
          : differing(results[runner].topK, (t) => rowOf(simdTop, t), n);
      const row = { n, runner, ms: times[runner], differing: positions };
      // where the runtimes differ, both top 10s, for a float64 verdict (bench/gpt2_float64.py)
      if (runner === 'onnxruntime-web' && positions.length)
        row.check = {
          ids,
          positions,
          engine: positions.map((t) => rowOf(simdTop, t)),
          ort: positions.map((t) => topOf(logits, t, top)),
        };
      rows.push(row);
    }
  }
  const peak = {};
  for (const simd of [true, false]) {
    peak[simd ? 'simd' : 'scalar'] = (await engines[simd].modelMemory()).heapBytes;
    models[simd].delete();
  }
  await session.release();
  return { loads, rows, peak };
}

// ---- the report ---------------------------------------------------------------------------------------

const { n_layer: L, n_embd: D, vocab_size: VOCAB } = CONFIG;
const flops = (n) => n * (L * (24 * D * D + 4 * n * D) + 2 * D * VOCAB);
const mb = (b) => (b / 2 ** 20).toFixed(0);

function report(where, r) {
  console.log(`\n${where}: GPT-2 small shapes, ${(FILE_BYTES / 1e9).toFixed(2)} GB float32 checkpoint`);
  for (const l of r.loads)
    console.log(
      `  load (${l.simd ? 'SIMD' : 'scalar'} build) from a File: ${(l.ms / 1000).toFixed(2)} s ` +
        `(${(FILE_BYTES / 2 ** 20 / (l.ms / 1000)).toFixed(0)} MB/s); model module memory ${mb(l.heapBytes)} MB after it, ` +
        (r.peak ? `${mb(r.peak[l.simd ? 'simd' : 'scalar'])} MB at the end` : ''),
    );
  if (r.profiles) {
    console.log(
      `  the File read alone (its stream to the end, ${r.read.chunks} chunks): ${(r.read.ms / 1000).toFixed(2)} s`,
    );
    console.log(`\none forward, SIMD build: median ms of ${ROUNDS} runs per stage (the engine's clock)`);
    console.log(`\n| stage | ${r.profiles.map((p) => `${p.n} tokens`).join(' | ')} |`);
    console.log(`|---|${r.profiles.map(() => '---|').join('')}`);
    const share = (p, ms) => `${ms.toFixed(1)} (${((100 * ms) / p.wallMs).toFixed(0)} %)`;
    for (const [i, { stage }] of r.profiles[0].stages.entries())
      console.log(`| ${stage} | ${r.profiles.map((p) => share(p, p.stages[i].ms)).join(' | ')} |`);
    const sum = (p) => p.stages.reduce((a, s) => a + s.ms, 0);
    console.log(`| sum of the stages | ${r.profiles.map((p) => share(p, sum(p))).join(' | ')} |`);
    console.log(`| model.run as JS times it | ${r.profiles.map((p) => p.wallMs.toFixed(1)).join(' | ')} |`);
    return;
  }
  console.log('\n| tokens | runner | median ms | GFLOP/s | ÷ engine SIMD | same top 10 |');
  console.log('|---|---|---|---|---|---|');
  for (const row of r.rows) {
    const ms = median(row.ms);
    const simd = median(r.rows.find((x) => x.n === row.n && x.runner === 'engine SIMD').ms);
    console.log(
      `| ${row.n} | ${row.runner} | ${ms.toFixed(0)} | ${(flops(row.n) / (ms * 1e6)).toFixed(1)} | ` +
        `${(ms / simd).toFixed(2)} | ${row.differing.length ? `NO at ${row.differing.length} of ${row.n} positions` : 'yes'} |`,
    );
  }
  for (const row of r.rows.filter((x) => x.check)) {
    const file = path.join(os.tmpdir(), `attention-lab-gpt2-top10-${row.n}.json`);
    fs.writeFileSync(file, JSON.stringify({ checkpoint: FILE, config: CONFIG, ...row.check }));
    console.log(
      `  ${row.n} tokens: the top 10s differ at positions ${row.differing.join(', ')}: ` +
        `/usr/bin/python3 bench/gpt2_float64.py ${file} says which is right`,
    );
  }
}

const args = { config: CONFIG, sizes: SIZES, rounds: ROUNDS, top: TOP, profile: PROFILE };

// Node
if (process.env.GPT2_BENCH_NODE !== '0') {
  const ort = await import('onnxruntime-web');
  const { readSafetensors } = await import('../tests/support/safetensors.js');
  const file = new File([await fs.openAsBlob(FILE)], 'model.safetensors');
  const r = await measure({ ...args, file, modules: { loadEngine, readSafetensors, gpt2Model, gpt2Inputs, ort } });
  report(`Node ${process.version}`, r);
}

// Chromium: the same function in a page of the repository's root (the sources as they are)
if (process.env.GPT2_BENCH_CHROMIUM !== '0') {
  const server = await serveDist({
    dir: ROOT,
    prefix: '/',
    extra: { 'index.html': '<!doctype html><input type="file">' },
  });
  const browser = await launchBrowser({ full: true });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(server.url);
    await page.setInputFiles('input', FILE);
    const r = await page.evaluate(
      async ({ source, args }) => {
        const measure = new Function(`return ${source}`)();
        const ort = await import('/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs');
        ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
        const modules = {
          loadEngine: (await import('/web/src/engine.js')).loadEngine,
          readSafetensors: (await import('/tests/support/safetensors.js')).readSafetensors,
          ...(await import('/bench/onnx_gpt2.mjs')),
          ort,
        };
        return measure({ ...args, file: document.querySelector('input').files[0], modules });
      },
      { source: measure.toString(), args },
    );
    report(`headless Chromium ${browser.version()}`, r);
  } finally {
    await browser.close();
    await server.close();
  }
}
