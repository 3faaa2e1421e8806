// The engine's JavaScript API: loads the wasm module (SIMD or scalar build) and wraps each
// of its functions with defaults, friendly option names and argument checks. No maths here
// and no DOM: the same file runs in the browser (through Vite) and in Node 20.
//
//   const engine = await loadEngine();          // the best build this runtime supports
//   const r = engine.attend({ query, key, value, causal: true });
//   r.weights  // { rows, cols, data: Float32Array }
//
// Every bad argument throws an AttentionError whose message names the argument.

import {
  AttentionError,
  booleanArg,
  checkOptions,
  enumArg,
  fail,
  finiteArg,
  flagsArg,
  integerArg,
  matrixArg,
  positiveArg,
  seedArg,
  vectorArg,
} from './engine-args.js';

export { AttentionError };

// ---- choosing and loading a build --------------------------------------------------------------

// A tiny module using a SIMD128 instruction: (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

// Whether this runtime can run the SIMD build.
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// One literal import per build, so a bundler ships both glue files.
const GLUE = {
  simd: { load: () => import('./wasm/attention-simd.js'), wasm: 'attention-simd.wasm' },
  scalar: { load: () => import('./wasm/attention-scalar.js'), wasm: 'attention-scalar.wasm' },
};

// Node's fs, reached at run time so a page bundler never sees an import of it; null in a browser.
async function nodeFs() {
  if (typeof process === 'undefined' || !process.versions || !process.versions.node) return null;
  if (typeof process.getBuiltinModule === 'function') return process.getBuiltinModule('fs');
  const name = 'node:fs'; // Node before 20.16
  return import(/* @vite-ignore */ name);
}

async function instantiate(simd) {
  const build = GLUE[simd ? 'simd' : 'scalar'];
  const moduleArgs = {};
  const fs = await nodeFs();
  // In Node the glue (built for the web) cannot fetch a file path: hand it the bytes.
  // In a browser the glue finds the .wasm next to itself (new URL(..., import.meta.url)).
  if (fs) moduleArgs.wasmBinary = fs.readFileSync(new URL('./wasm/' + build.wasm, import.meta.url));
  const glue = await build.load();
  return glue.default(moduleArgs);
}

const engines = new Map(); // simd (true/false) -> Promise<engine>, one per build

// loadEngine({ simd }) -> Promise<engine>. simd: true, false, or omitted for the best supported.
export async function loadEngine(options) {
  const o = checkOptions('loadEngine', options, ['simd']);
  const simd = o.simd === undefined ? simdSupported() : booleanArg('simd', o.simd);
  if (simd && !simdSupported()) fail('simd: this runtime does not support WebAssembly SIMD; use { simd: false }');
  if (!engines.has(simd)) {
    const loading = instantiate(simd).then(
      (mod) => makeEngine(mod, simd),
      (e) => {
        engines.delete(simd);
        throw new AttentionError(`loadEngine: could not load the ${simd ? 'SIMD' : 'scalar'} wasm module ` +
          `(built by 'bash scripts/build.sh wasm'): ${e && e.message ? e.message : e}`);
      },
    );
    engines.set(simd, loading);
  }
  return engines.get(simd);
}

// ---- the engine ----------------------------------------------------------------------------------

const SCORES = { dot: 0, 'scaled-dot': 1, additive: 2, general: 3 };
const MASK_FILLS = { 'neg-inf': 0, 'large-negative': 1, zero: 2 };

const TOKENS_X_DIM = ['maxTokens', 'maxDim'];  // (n, d): a sequence of vectors
const DIM_X_DIM = ['maxDim', 'maxDim'];        // a weight
const TOKENS_X_TOKENS = ['maxTokens', 'maxTokens']; // scores, weights, masks

// An attend() result as the module returns it, with fullyMaskedRows as a plain array.
function attendResult(r) {
  return {
    scores: r.scores,
    scaled: r.scaled,
    mask: r.mask,
    masked: r.masked,
    weights: r.weights,
    output: r.output,
    entropy: r.entropy,
    fullyMaskedRows: Array.from(r.fullyMaskedRows),
  };
}

// Tiled attention's default block: 64 queries x 64 keys per tile.
export const FLASH_BLOCK = 64;

// Rows of a matrix argument before it is read: nested arrays or { rows }; NaN otherwise.
const rowsOf = (x) => (Array.isArray(x) ? x.length : x != null && Number.isInteger(x.rows) ? x.rows : NaN);
const formatBytes = (bytes) => (bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GiB`
  : bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 2 ** 10).toFixed(1)} KiB`);

function makeEngine(mod, simd) {
  let stopped = null; // the error that stopped the module (an abort); it is unusable afterwards

  // Calls the module; an { error } result becomes an AttentionError.
  function run(name, args) {
    if (stopped) fail(`${name}: the engine stopped after an internal error (${stopped}); call loadEngine() again`);
    let result;
    try {
      result = args === undefined ? mod[name]() : mod[name](args);
    } catch (e) {
      stopped = e && e.message ? e.message : String(e);
      engines.delete(simd); // the next loadEngine() builds a fresh instance
      throw e;
    }
    if (result.error !== undefined) fail(result.error);
    return result;
  }

  const limits = Object.freeze({ ...mod.limits(), ...mod.flashLimits() });
  const matrix = (name, x, dims, opts) => matrixArg(name, x, limits, dims, opts);
  const optionalMatrix = (name, x, dims, opts) => (x == null ? undefined : matrix(name, x, dims, opts));
  const optionalVector = (name, x) => (x == null ? undefined : vectorArg(name, x, limits, 'maxDim'));
  const mask = (x) => optionalMatrix('mask', x, TOKENS_X_TOKENS, { binary: true });
  const keyPadding = (x, nK) => (x == null ? undefined : flagsArg('keyPadding', x, nK));

  // ---- tiled attention (flash_bindings.cpp) ----
  // attend keeps five (n_q, n_k) matrices; past maxTokens the error says what they would take.
  function checkNaiveSize(query, key) {
    const nQ = rowsOf(query), nK = rowsOf(key);
    for (const [name, rows] of [['query', nQ], ['key', nK]]) {
      if (!(rows > limits.maxTokens)) continue;
      const need = Number.isInteger(nQ) && Number.isInteger(nK)
        ? `, which would need 5 × ${nQ} × ${nK} × 4 bytes = ${formatBytes(5 * nQ * nK * 4)} here` : '';
      fail(`${name}: expected 1 to ${limits.maxTokens} rows (engine.limits.maxTokens), got ${rows}: attend keeps ` +
        `five (n_q, n_k) float32 matrices${need}; flashAttend computes the same output for up to ` +
        `${limits.maxFlashTokens} tokens in O(n·d) memory`);
    }
  }
  const FLASH_OPTIONS = ['query', 'key', 'value', 'causal', 'keyPadding', 'window', 'stride', 'blockSize', 'queryOffset'];
  function flashArgs(o, tokens) {
    const dims = [tokens, 'maxDim'];
    const query = matrix('query', o.query, dims);
    const key = matrix('key', o.key, dims);
    return {
      query,
      key,
      value: matrix('value', o.value, dims),
      causal: booleanArg('causal', o.causal ?? false),
      keyPadding: keyPadding(o.keyPadding, key.rows),
      window: o.window == null ? undefined : integerArg('window', o.window, 0, limits.maxFlashTokens),
      stride: o.stride == null ? undefined : integerArg('stride', o.stride, 1, limits.maxFlashTokens),
      blockSize: integerArg('blockSize', o.blockSize ?? FLASH_BLOCK, 1, limits.maxFlashBlock),
      queryOffset: integerArg('queryOffset', o.queryOffset ?? 0, 0, limits.maxFlashTokens),
    };
  }
  const flashResult = (r) => ({ output: r.output, entropy: r.entropy, fullyMaskedRows: Array.from(r.fullyMaskedRows) });

  return {
    simd,
    limits,

    // Scaled-dot attention by tiles with an online softmax: the output of attend in O(n·d)
    // memory, up to limits.maxFlashTokens tokens. -> { output, entropy, fullyMaskedRows }
    flashAttend(options) {
      const o = checkOptions('flashAttend', options, FLASH_OPTIONS);
      return flashResult(run('flashAttend', flashArgs(o, 'maxFlashTokens')));
    },

    // flashAttend on up to limits.maxTraceTokens tokens, with the online softmax's running
    // max, rescale factor and sum after every key block ((blocks, n_q) tables).
    flashTrace(options) {
      const o = checkOptions('flashTrace', options, FLASH_OPTIONS);
      const r = run('flashTrace', flashArgs(o, 'maxTraceTokens'));
      return {
        blockSize: r.blockSize, blocks: r.blocks, scores: r.scores, blockMax: r.blockMax,
        runningMax: r.runningMax, rescale: r.rescale, runningSum: r.runningSum, skipped: r.skipped,
        ...flashResult(r),
      };
    },

    // The whole pipeline: score -> scale -> mask -> softmax -> weighted sum, every stage kept.
    attend(options) {
      const o = checkOptions('attend', options, [
        'query', 'key', 'value', 'score', 'mask', 'causal', 'keyPadding', 'maskFill',
        'temperature', 'stable', 'additive', 'general',
      ]);
      checkNaiveSize(o.query, o.key);
      const key = matrix('key', o.key, TOKENS_X_DIM);
      const args = {
        query: matrix('query', o.query, TOKENS_X_DIM),
        key,
        value: matrix('value', o.value, TOKENS_X_DIM),
        score: enumArg('score', o.score ?? 'scaled-dot', SCORES),
        mask: mask(o.mask),
        causal: booleanArg('causal', o.causal ?? false),
        keyPadding: keyPadding(o.keyPadding, key.rows),
        maskFill: enumArg('maskFill', o.maskFill ?? 'neg-inf', MASK_FILLS),
        temperature: positiveArg('temperature', o.temperature ?? 1),
        stable: booleanArg('stable', o.stable ?? true),
      };
      if (args.score === SCORES.additive) {
        if (o.additive == null) fail(`additive: required when score is 'additive' ({ Wq, Wk, v })`);
        const a = checkOptions('additive', o.additive, ['Wq', 'Wk', 'v']);
        args.additiveWq = matrix('additive.Wq', a.Wq, DIM_X_DIM);
        args.additiveWk = matrix('additive.Wk', a.Wk, DIM_X_DIM);
        args.additiveV = vectorArg('additive.v', a.v, limits, 'maxDim');
      }
      if (args.score === SCORES.general) {
        if (o.general == null) fail(`general: required when score is 'general' ({ W })`);
        const g = checkOptions('general', o.general, ['W']);
        args.generalW = matrix('general.W', g.W, DIM_X_DIM);
      }
      return attendResult(run('attend', args));
    },

    // Multi-head attention with torch.nn.MultiheadAttention's conventions (batch_first, no dropout).
    multiHead(options) {
      const o = checkOptions('multiHead', options, [
        'query', 'key', 'value', 'heads', 'Wq', 'Wk', 'Wv', 'Wo', 'bq', 'bk', 'bv', 'bo',
        'mask', 'causal', 'keyPadding',
      ]);
      const query = matrix('query', o.query, TOKENS_X_DIM);
      const key = matrix('key', o.key, TOKENS_X_DIM);
      const heads = integerArg('heads', o.heads, 1, limits.maxHeads);
      if (query.cols % heads !== 0) {
        fail(`heads: d_model = ${query.cols} (columns of query) is not divisible by ${heads} heads`);
      }
      if (heads * query.rows * key.rows > limits.maxHeadCells) {
        fail(`heads: heads * n_q * n_k = ${heads * query.rows * key.rows} is more than ` +
          `${limits.maxHeadCells} (engine.limits.maxHeadCells)`);
      }
      const args = {
        query,
        key,
        value: matrix('value', o.value, TOKENS_X_DIM),
        heads,
        Wq: matrix('Wq', o.Wq, DIM_X_DIM),
        Wk: matrix('Wk', o.Wk, DIM_X_DIM),
        Wv: matrix('Wv', o.Wv, DIM_X_DIM),
        Wo: matrix('Wo', o.Wo, DIM_X_DIM),
        bq: optionalVector('bq', o.bq),
        bk: optionalVector('bk', o.bk),
        bv: optionalVector('bv', o.bv),
        bo: optionalVector('bo', o.bo),
        mask: mask(o.mask),
        causal: booleanArg('causal', o.causal ?? false),
        keyPadding: keyPadding(o.keyPadding, key.rows),
      };
      const r = run('multiHead', args);
      return { heads: r.heads.map(attendResult), concat: r.concat, output: r.output };
    },

    // Histogram and moments of q·k and q·k/sqrt(d_k) for random N(0, 1) vectors.
    varianceExperiment(options) {
      const o = checkOptions('varianceExperiment', options, ['dk', 'samples', 'seed', 'bins', 'firstSample']);
      const r = run('varianceExperiment', {
        dk: integerArg('dk', o.dk ?? 64, 1, limits.maxDim),
        samples: integerArg('samples', o.samples ?? 10000, 2, limits.maxSamples),
        seed: seedArg('seed', o.seed ?? 1),
        bins: integerArg('bins', o.bins ?? 60, 1, limits.maxBins),
        firstSample: integerArg('firstSample', o.firstSample ?? 0, 0, limits.maxSamples),
      });
      return { raw: r.raw, scaled: r.scaled, histogram: r.histogram };
    },

    // Two consecutive chunks of varianceExperiment combined: a (aSamples, 0 = none yet) then b.
    // -> { raw: { mean, variance, std }, scaled: {...}, histogram, samples }
    mergeVariance(options) {
      const o = checkOptions('mergeVariance', options, ['a', 'aSamples', 'b', 'bSamples']);
      return run('mergeVariance', {
        a: o.a,
        aSamples: integerArg('aSamples', o.aSamples ?? 0, 0, limits.maxSamples),
        b: o.b,
        bSamples: integerArg('bSamples', o.bSamples, 1, limits.maxSamples),
      });
    },

    // ---- the variance experiment as a run that grows (C++ VarianceRun) ----------------------
    // varianceRun({ dk, seed, bins, firstSample }) -> { step(samples), snapshot(), delete() }.
    // step draws the next samples into the run; snapshot() -> { raw, scaled, histogram, samples }
    // (histogram: edges over ±4√d_k for rawCounts, scaledEdges over ±4 for scaledCounts);
    // delete() frees the run (later calls throw). The caller owns it and must delete it.
    varianceRun(options) {
      const o = checkOptions('varianceRun', options, ['dk', 'seed', 'bins', 'firstSample']);
      const handle = run('createVarianceRun', {
        dk: integerArg('dk', o.dk ?? 64, 1, limits.maxDim),
        seed: seedArg('seed', o.seed ?? 1),
        bins: integerArg('bins', o.bins ?? 60, 1, limits.maxBins),
        firstSample: integerArg('firstSample', o.firstSample ?? 0, 0, limits.maxSamples - 1),
      }).run;
      let live = true;
      const alive = (what) => { if (!live) fail(`varianceRun.${what}: this run has been deleted`); };
      return {
        step(samples) {
          alive('step');
          const r = handle.step(integerArg('samples', samples, 1, limits.maxSamples));
          if (r.error !== undefined) fail(r.error);
        },
        snapshot() {
          alive('snapshot');
          return handle.snapshot();
        },
        delete() {
          if (live) handle.delete();
          live = false;
        },
      };
    },

    // Sample `sample` of the variance experiment, drawn explicitly: the same q and k (and q·k)
    // the experiment uses for it. -> { q: Float32Array(dk), k: Float32Array(dk), dot }
    varianceSample(options) {
      const o = checkOptions('varianceSample', options, ['dk', 'seed', 'sample']);
      return run('varianceSample', {
        dk: integerArg('dk', o.dk ?? 64, 1, limits.maxDim),
        seed: seedArg('seed', o.seed ?? 1),
        sample: integerArg('sample', o.sample ?? 0, 0, limits.maxSamples - 1),
      });
    },

    // One query against nKeys random keys at d_k: raw and scaled scores and weights (at tau),
    // the hard one-hot and gumbelSamples Gumbel-softmax rows of the raw or scaled scores.
    queryProbe(options) {
      const o = checkOptions('queryProbe', options, ['dk', 'nKeys', 'seed', 'trial', 'tau', 'scaled', 'gumbelSamples']);
      return run('queryProbe', {
        dk: integerArg('dk', o.dk ?? 64, 1, limits.maxDim),
        nKeys: integerArg('nKeys', o.nKeys ?? 16, 2, limits.maxTokens),
        seed: seedArg('seed', o.seed ?? 1),
        trial: integerArg('trial', o.trial ?? 0, 0, limits.maxTrials - 1),
        tau: positiveArg('tau', o.tau ?? 1),
        scaled: booleanArg('scaled', o.scaled ?? true),
        gumbelSamples: integerArg('gumbelSamples', o.gumbelSamples ?? 0, 0, 64),
      });
    },

    // Means over trials of the max weight, entropy and softmax Jacobian norm, raw vs scaled,
    // for each d_k in dks. -> { logN, points: [{ dk, raw: {...}, scaled: {...} }] }
    saturationSweep(options) {
      const o = checkOptions('saturationSweep', options, ['dks', 'nKeys', 'trials', 'seed']);
      if (!Array.isArray(o.dks)) fail('dks: expected an array of d_k values');
      return run('saturationSweep', {
        dks: o.dks.map((dk, i) => integerArg(`dks[${i}]`, dk, 1, limits.maxDim)),
        nKeys: integerArg('nKeys', o.nKeys ?? 16, 2, 256),
        trials: integerArg('trials', o.trials ?? 200, 1, limits.maxTrials),
        seed: seedArg('seed', o.seed ?? 1),
      });
    },

    // Row softmax of scores / temperature, and each row's entropy. -Infinity = a blocked cell.
    softmax(options) {
      const o = checkOptions('softmax', options, ['scores', 'stable', 'temperature']);
      const r = run('softmax', {
        scores: matrix('scores', o.scores, TOKENS_X_TOKENS, { negInf: true, rowVector: true }),
        stable: booleanArg('stable', o.stable ?? true),
        temperature: positiveArg('temperature', o.temperature ?? 1),
      });
      return { weights: r.weights, entropy: r.entropy };
    },

    // J = diag(p) - p pᵀ for one row of weights p (an array of n numbers) -> (n, n).
    softmaxJacobian(p) {
      return run('softmaxJacobian', { p: vectorArg('p', p, limits, 'maxTokens').data }).matrix;
    },

    // One-hot at each row's argmax.
    hardAttention(options) {
      const o = checkOptions('hardAttention', options, ['scores']);
      const scores = matrix('scores', o.scores, TOKENS_X_TOKENS, { negInf: true, rowVector: true });
      return run('hardAttention', { scores }).matrix;
    },

    // softmax((scores + Gumbel noise) / tau), the noise drawn from seed.
    gumbelSoftmax(options) {
      const o = checkOptions('gumbelSoftmax', options, ['scores', 'tau', 'seed']);
      return run('gumbelSoftmax', {
        scores: matrix('scores', o.scores, TOKENS_X_TOKENS, { negInf: true, rowVector: true }),
        tau: positiveArg('tau', o.tau ?? 1),
        seed: seedArg('seed', o.seed ?? 1),
      }).matrix;
    },

    // Sinusoidal position encodings (n, d).
    sinusoidal(options) {
      const o = checkOptions('sinusoidal', options, ['n', 'd', 'base']);
      return run('sinusoidal', {
        n: integerArg('n', o.n, 1, limits.maxTokens),
        d: integerArg('d', o.d, 1, limits.maxDim),
        base: positiveArg('base', o.base ?? 10000),
      }).matrix;
    },

    // RoPE: rotates pairs of columns of x; row r sits at position first + r.
    rope(options) {
      const o = checkOptions('rope', options, ['x', 'first', 'base']);
      const x = matrix('x', o.x, TOKENS_X_DIM);
      if (x.cols % 2 !== 0) fail(`x: expected an even number of columns (RoPE rotates pairs), got ${x.cols}`);
      return run('rope', {
        x,
        first: integerArg('first', o.first ?? 0, 0, limits.maxPosition),
        base: positiveArg('base', o.base ?? 10000),
      }).matrix;
    },

    // y = x Wᵀ + b (torch.nn.Linear): x (n, in), W (out, in), b (out) or omitted.
    linear(options) {
      const o = checkOptions('linear', options, ['x', 'W', 'b']);
      return run('linear', {
        x: matrix('x', o.x, TOKENS_X_DIM),
        W: matrix('W', o.W, DIM_X_DIM),
        b: optionalVector('b', o.b),
      }).matrix;
    },

    // (rows, cols) of N(0, 1) * scale from the engine's RNG: the same in every build.
    randomMatrix(options) {
      const o = checkOptions('randomMatrix', options, ['rows', 'cols', 'seed', 'stream', 'scale']);
      return run('randomMatrix', {
        rows: integerArg('rows', o.rows, 1, limits.maxTokens),
        cols: integerArg('cols', o.cols, 1, limits.maxTokens),
        seed: seedArg('seed', o.seed ?? 1),
        stream: seedArg('stream', o.stream ?? 0),
        scale: finiteArg('scale', o.scale ?? 1),
      }).matrix;
    },

    // { heapBytes: size of wasm memory, usedBytes: bytes the allocator has handed out }.
    memory() {
      return run('memory');
    },
  };
}
