// The engine's JavaScript API: loads the wasm module (SIMD or scalar build) and wraps each
// of its functions: it converts the arguments to the types the module reads and turns the
// module's errors into AttentionError. The option names, defaults, limits and checks are the
// core's (cpp/core/check.h), exported as engine.choices and engine.limits. No maths here and
// no DOM: the same file runs in the browser (through Vite) and in Node 20.
//
//   const engine = await loadEngine();          // the best build this runtime supports
//   const r = engine.attend({ query, key, value, causal: true });
//   r.weights  // { rows, cols, data: Float32Array }
//
// Every bad argument throws an AttentionError whose message names the argument.

import {
  AttentionError,
  arrayArg,
  checkOptions,
  fail,
  flagsArg,
  integerArg,
  reading,
  scalarArg,
  vectorArg,
} from './args.js';
import { engineLoader, frozenChoices, moduleCalls, simdSupported } from './loader.js';
import { FLASH_BLOCK } from './choices.js';
import { FLASH_OPTIONS, LINEAR_OPTIONS, callInputs, varianceChunk } from './inputs.js';

// The loader's parts stay importable from here (engine.js re-exports this module).
export { AttentionError, FLASH_BLOCK, engineLoader, frozenChoices, moduleCalls, simdSupported };

// One literal import per build, so a bundler ships both glue files. This module holds everything
// the lessons compute; the playground's trainer is a module of its own (engine-train.js,
// loadTrainEngine), which only the playground loads.
const GLUE = {
  simd: { load: () => import('../../../build/wasm/attention-simd.js'), wasm: 'attention-simd.wasm' },
  scalar: { load: () => import('../../../build/wasm/attention-scalar.js'), wasm: 'attention-scalar.wasm' },
};

// loadEngine({ simd }) -> Promise<engine>. simd: true, false, or omitted for the best supported.
export const loadEngine = engineLoader('loadEngine', GLUE, makeEngine);

// ---- the engine ----------------------------------------------------------------------------------

// An attend() result as the module returns it, with fullyMaskedRows as a plain array.
// With stages: false only { output, entropy, fullyMaskedRows, overflow } are there.
function attendResult(r) {
  const out =
    r.scores === undefined
      ? {}
      : {
          scores: r.scores,
          scaled: r.scaled,
          mask: r.mask,
          masked: r.masked,
          weights: r.weights,
        };
  out.output = r.output;
  out.entropy = r.entropy;
  out.fullyMaskedRows = Array.from(r.fullyMaskedRows);
  out.overflow = r.overflow;
  return out;
}

function makeEngine(mod, simd, forget) {
  const calls = moduleCalls(mod, 'loadEngine', forget);
  const { guarded, run } = calls;

  const limits = Object.freeze(mod.limits());
  const choices = frozenChoices(mod.choices());
  // the converters of this module's arguments (inputs.js): input.matrix(name, x) and the like
  const input = callInputs(mod, guarded, limits);
  const flashResult = (r) => ({
    output: r.output,
    entropy: r.entropy,
    fullyMaskedRows: Array.from(r.fullyMaskedRows),
    tileBytes: r.tileBytes,
    packedBytes: r.packedBytes,
  });

  return {
    simd,
    limits,
    choices,
    // true once a call has stopped this instance (see guarded): loadEngine() gives a fresh one
    get stopped() {
      return calls.stopped;
    },

    // Scaled-dot attention by tiles with an online softmax: the output of attend in O(n·d)
    // memory, up to limits.maxFlashTokens tokens. -> { output, entropy, fullyMaskedRows,
    // tileBytes, packedBytes } (the bytes of its tiles at the block size used, and of its packed
    // Kᵀ and V)
    flashAttend(options) {
      const o = checkOptions('flashAttend', options, FLASH_OPTIONS);
      return flashResult(run('flashAttend', input.flashArgs(o, 'maxFlashTokens')));
    },

    // flashAttend on up to limits.maxTraceTokens tokens, with the online softmax's running
    // max, rescale factor and sum after every key block ((blocks, n_q) tables).
    flashTrace(options) {
      const o = checkOptions('flashTrace', options, FLASH_OPTIONS);
      const r = run('flashTrace', input.flashArgs(o, 'maxTraceTokens'));
      return {
        blockSize: r.blockSize,
        blocks: r.blocks,
        scores: r.scores,
        blockMax: r.blockMax,
        runningMax: r.runningMax,
        rescale: r.rescale,
        runningSum: r.runningSum,
        skipped: r.skipped,
        ...flashResult(r),
      };
    },

    // Linear attention, φ(x) = elu(x) + 1: out_i = φ(q_i)ᵀ S / φ(q_i)ᵀ z with S = Σ φ(k_j) v_jᵀ and
    // z = Σ φ(k_j) (over j <= i with causal), up to limits.maxFlashTokens tokens. -> { output,
    // zeroRows, stateBytes, chunkBytes } (stateBytes: S and z; chunkBytes: one chunk's scratch)
    linearAttend(options) {
      const o = checkOptions('linearAttend', options, LINEAR_OPTIONS);
      const r = run('linearAttend', input.linearArgs(o));
      return {
        output: r.output,
        zeroRows: Array.from(r.zeroRows),
        stateBytes: r.stateBytes,
        chunkBytes: r.chunkBytes,
      };
    },

    // How far output is from reference (same shape), in double: { maxAbs, relative } with
    // relative = ‖output − reference‖ / ‖reference‖ (Frobenius norms).
    outputError(options) {
      const o = checkOptions('outputError', options, ['output', 'reference']);
      return run('outputError', input.outputErrorArgs(o));
    },

    // The whole pipeline: score -> scale -> mask -> softmax -> weighted sum, every stage kept
    // (or, with stages: false, only { output, entropy, fullyMaskedRows }).
    attend(options) {
      const o = checkOptions('attend', options, [
        'query',
        'key',
        'value',
        'score',
        'mask',
        'causal',
        'reverseCausal',
        'keyPadding',
        'maskFill',
        'temperature',
        'stable',
        'stages',
        'additive',
        'general',
      ]);
      reading('query', () => input.checkNaiveSize(o.query, o.key));
      const args = {
        query: input.matrix('query', o.query),
        key: input.matrix('key', o.key),
        value: input.matrix('value', o.value),
        score: scalarArg(o.score),
        mask: input.mask(o.mask),
        causal: scalarArg(o.causal),
        reverseCausal: scalarArg(o.reverseCausal),
        keyPadding: input.keyPadding(o.keyPadding),
        maskFill: scalarArg(o.maskFill),
        temperature: scalarArg(o.temperature),
        stable: scalarArg(o.stable),
        stages: scalarArg(o.stages),
      };
      if (o.additive != null) {
        const a = checkOptions('additive', o.additive, ['Wq', 'Wk', 'v']);
        args['additive.Wq'] = input.matrix('additive.Wq', a.Wq);
        args['additive.Wk'] = input.matrix('additive.Wk', a.Wk);
        args['additive.v'] = vectorArg('additive.v', a.v, input.sizeError);
      }
      if (o.general != null) {
        const g = checkOptions('general', o.general, ['W']);
        args['general.W'] = input.matrix('general.W', g.W);
      }
      return attendResult(run('attend', args));
    },

    // The running example (scaled dot, −∞ fill, stable softmax) with one bug of the debugging
    // lab in it, computed as the bugged code computes it: bug is one of engine.choices.bug;
    // dModel (for 'scale-by-d-model') is the width whose square root the bugged code divides
    // by. -> attend()'s result, every stage
    attendWithBug(options) {
      const o = checkOptions('attendWithBug', options, [
        'query',
        'key',
        'value',
        'mask',
        'causal',
        'keyPadding',
        'bug',
        'dModel',
      ]);
      reading('query', () => input.checkNaiveSize(o.query, o.key));
      return attendResult(
        run('attendWithBug', {
          query: input.matrix('query', o.query),
          key: input.matrix('key', o.key),
          value: input.matrix('value', o.value),
          mask: input.mask(o.mask),
          causal: scalarArg(o.causal),
          keyPadding: input.keyPadding(o.keyPadding),
          bug: scalarArg(o.bug),
          dModel: scalarArg(o.dModel),
        }),
      );
    },

    // What the debugging lab watches on an attention result, against the mask the code meant
    // to apply: logits = the scores softmax saw (attend's `scaled`), weights, mask (0/1), all
    // (n_q, n_k). -> { maxEntropy (ln of each row's allowed keys), rowSums, colSums, leaked
    // (weight on blocked keys), cells, logitMean, logitStd, logitMax (over the allowed cells),
    // nonFinite (weights that are NaN or infinite) }
    monitor(options) {
      const o = checkOptions('monitor', options, ['logits', 'weights', 'mask']);
      return run('monitor', {
        logits: input.matrix('logits', o.logits),
        weights: input.matrix('weights', o.weights),
        mask: input.matrix('mask', o.mask, { binary: true }),
      });
    },

    // Multi-head attention with torch.nn.MultiheadAttention's conventions (batch_first, no dropout).
    // With stages: false each head is attend()'s stages: false result { output, entropy,
    // fullyMaskedRows, overflow }: no (n_q, n_k) copies.
    multiHead(options) {
      const o = checkOptions('multiHead', options, [
        'query',
        'key',
        'value',
        'heads',
        'Wq',
        'Wk',
        'Wv',
        'Wo',
        'bq',
        'bk',
        'bv',
        'bo',
        'mask',
        'causal',
        'keyPadding',
        'stages',
      ]);
      const r = run('multiHead', {
        query: input.matrix('query', o.query),
        key: input.matrix('key', o.key),
        value: input.matrix('value', o.value),
        heads: scalarArg(o.heads),
        Wq: input.matrix('Wq', o.Wq),
        Wk: input.matrix('Wk', o.Wk),
        Wv: input.matrix('Wv', o.Wv),
        Wo: input.matrix('Wo', o.Wo),
        bq: input.optionalVector('bq', o.bq),
        bk: input.optionalVector('bk', o.bk),
        bv: input.optionalVector('bv', o.bv),
        bo: input.optionalVector('bo', o.bo),
        mask: input.mask(o.mask),
        causal: scalarArg(o.causal),
        keyPadding: input.keyPadding(o.keyPadding),
        stages: scalarArg(o.stages),
      });
      return { heads: r.heads.map(attendResult), concat: r.concat, output: r.output };
    },

    // ---- the Transformer block (block_bindings.cpp) ----

    // LayerNorm over each row of x (n, d): (x - mean) / sqrt(var + eps) * gamma + beta, as
    // torch.nn.LayerNorm. -> { output, mean, std } (mean and biased std of each input row)
    layerNorm(options) {
      const o = checkOptions('layerNorm', options, ['x', 'gamma', 'beta', 'eps']);
      return run('layerNorm', {
        x: input.matrix('x', o.x),
        gamma: vectorArg('gamma', o.gamma, input.sizeError),
        beta: vectorArg('beta', o.beta, input.sizeError),
        eps: scalarArg(o.eps),
      });
    },

    // hidden = activation(x W1ᵀ + b1), output = hidden W2ᵀ + b2; activation 'relu' (default) or
    // 'gelu' (the exact erf form). -> { hidden, output }
    feedForward(options) {
      const o = checkOptions('feedForward', options, ['x', 'W1', 'b1', 'W2', 'b2', 'activation']);
      return run('feedForward', {
        x: input.matrix('x', o.x),
        ...input.ffArgs('', o),
        activation: scalarArg(o.activation),
      });
    },

    // One encoder or decoder layer, as torch.nn.TransformerEncoderLayer / DecoderLayer
    // (batch_first, dropout 0, eval). -> { output, selfAttention, crossAttention (decoder), ff,
    // residuals, normed } (with stages: false only { output }); each attention as multiHead
    // returns it, ff as feedForward, normed[k] as layerNorm, residuals[k] = x + sub-layer k.
    transformerLayer(options) {
      const o = checkOptions('transformerLayer', options, [
        'kind',
        'x',
        'memory',
        'heads',
        'selfAttention',
        'crossAttention',
        'ff',
        'norms',
        'normFirst',
        'activation',
        'eps',
        'causal',
        'keyPadding',
        'memoryKeyPadding',
        'residual',
        'layerNorm',
        'stages',
      ]);
      const args = {
        kind: scalarArg(o.kind),
        x: input.matrix('x', o.x),
        memory: input.optionalMatrix('memory', o.memory),
        heads: scalarArg(o.heads),
        ...input.attentionArgs('selfAttention', o.selfAttention),
        ...(o.crossAttention == null ? {} : input.attentionArgs('crossAttention', o.crossAttention)),
        ...input.ffArgs('ff.', checkOptions('ff', o.ff ?? {}, ['W1', 'b1', 'W2', 'b2'])),
        normFirst: scalarArg(o.normFirst),
        activation: scalarArg(o.activation),
        eps: scalarArg(o.eps),
        causal: scalarArg(o.causal),
        keyPadding: input.keyPadding(o.keyPadding),
        memoryKeyPadding:
          o.memoryKeyPadding == null ? undefined : flagsArg('memoryKeyPadding', o.memoryKeyPadding, input.sizeError),
        residual: scalarArg(o.residual),
        layerNorm: scalarArg(o.layerNorm),
        stages: scalarArg(o.stages),
      };
      const norms = o.norms == null ? [] : arrayArg('norms', o.norms, 3, '{ gamma, beta }');
      args.norms = norms.length;
      reading('norms', () => {
        for (let k = 0; k < norms.length; k++) {
          const n = checkOptions(`norms[${k}]`, norms[k] ?? {}, ['gamma', 'beta']);
          args[`norms[${k}].gamma`] = vectorArg(`norms[${k}].gamma`, n.gamma, input.sizeError);
          args[`norms[${k}].beta`] = vectorArg(`norms[${k}].beta`, n.beta, input.sizeError);
        }
      });
      const r = run('transformerLayer', args);
      if (r.selfAttention === undefined) return { output: r.output };
      const attention = (a) => ({ heads: a.heads.map(attendResult), concat: a.concat, output: a.output });
      const out = { output: r.output, selfAttention: attention(r.selfAttention) };
      if (r.crossAttention !== undefined) out.crossAttention = attention(r.crossAttention);
      out.ff = r.ff;
      out.residuals = r.residuals;
      out.normed = r.normed;
      return out;
    },

    // A forward GRU over the rows of x (n, d_in), as torch.nn.GRU (one layer): Wih (3h, d_in),
    // Whh (3h, h), bih and bhh (3h) optional, h0 (h) or zeros. Each hidden state needs the one
    // before it: n dependent steps. -> { hidden (n, h), steps }
    gruEncoder(options) {
      const o = checkOptions('gruEncoder', options, ['x', 'Wih', 'Whh', 'bih', 'bhh', 'h0']);
      return run('gruEncoder', {
        x: input.matrix('x', o.x),
        Wih: input.matrix('Wih', o.Wih),
        Whh: input.matrix('Whh', o.Whh),
        bih: input.optionalVector('bih', o.bih),
        bhh: input.optionalVector('bhh', o.bhh),
        h0: input.optionalVector('h0', o.h0),
      });
    },

    // Histogram and moments of q·k and q·k/sqrt(d_k) for random N(0, 1) vectors.
    varianceExperiment(options) {
      const o = checkOptions('varianceExperiment', options, ['dk', 'samples', 'seed', 'bins', 'firstSample']);
      const r = run('varianceExperiment', {
        dk: scalarArg(o.dk),
        samples: scalarArg(o.samples),
        seed: scalarArg(o.seed),
        bins: scalarArg(o.bins),
        firstSample: scalarArg(o.firstSample),
      });
      return { raw: r.raw, scaled: r.scaled, histogram: r.histogram };
    },

    // Two consecutive chunks of varianceExperiment combined: a (aSamples, 0 = none yet) then b.
    // -> { raw: { mean, variance, std }, scaled: {...}, histogram, samples }
    mergeVariance(options) {
      const o = checkOptions('mergeVariance', options, ['a', 'aSamples', 'b', 'bSamples']);
      return run('mergeVariance', {
        a: varianceChunk('a', o.a, limits.maxBins),
        aSamples: scalarArg(o.aSamples),
        b: varianceChunk('b', o.b, limits.maxBins),
        bSamples: scalarArg(o.bSamples),
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
        dk: scalarArg(o.dk),
        seed: scalarArg(o.seed),
        bins: scalarArg(o.bins),
        firstSample: scalarArg(o.firstSample),
      }).run;
      let live = true;
      const alive = (what) => {
        if (!live) fail(`varianceRun.${what}: this run has been deleted`);
      };
      return {
        step(samples) {
          alive('step');
          const n = scalarArg(samples);
          const r = guarded('varianceRun.step', () => mod.varianceRunStep(handle, n));
          if (r.error !== undefined) fail(r.error);
        },
        snapshot() {
          alive('snapshot');
          const r = guarded('varianceRun.snapshot', () => mod.varianceRunSnapshot(handle));
          if (r.error !== undefined) fail(r.error);
          return r;
        },
        delete() {
          if (live && !calls.stopped) mod.varianceRunDelete(handle); // a stopped module's memory goes with it
          live = false;
        },
      };
    },

    // Sample `sample` of the variance experiment, drawn explicitly: the same q and k (and q·k)
    // the experiment uses for it. -> { q: Float32Array(dk), k: Float32Array(dk), dot }
    varianceSample(options) {
      const o = checkOptions('varianceSample', options, ['dk', 'seed', 'sample']);
      return run('varianceSample', {
        dk: scalarArg(o.dk),
        seed: scalarArg(o.seed),
        sample: scalarArg(o.sample),
      });
    },

    // One query against nKeys random keys at d_k: raw and scaled scores and weights (at tau),
    // the hard one-hot and gumbelSamples Gumbel-softmax rows of the raw or scaled scores.
    queryProbe(options) {
      const o = checkOptions('queryProbe', options, ['dk', 'nKeys', 'seed', 'trial', 'tau', 'scaled', 'gumbelSamples']);
      return run('queryProbe', {
        dk: scalarArg(o.dk),
        nKeys: scalarArg(o.nKeys),
        seed: scalarArg(o.seed),
        trial: scalarArg(o.trial),
        tau: scalarArg(o.tau),
        scaled: scalarArg(o.scaled),
        gumbelSamples: scalarArg(o.gumbelSamples),
      });
    },

    // Means over trials of the max weight, entropy and softmax Jacobian norm, raw vs scaled,
    // for each d_k in dks. -> { logN, points: [{ dk, raw: {...}, scaled: {...} }] }
    saturationSweep(options) {
      const o = checkOptions('saturationSweep', options, ['dks', 'nKeys', 'trials', 'seed']);
      const dks = arrayArg('dks', o.dks, limits.maxSweepDks, 'd_k values');
      return run('saturationSweep', {
        dks: reading('dks', () =>
          Array.from({ length: dks.length }, (_, i) => integerArg(`dks[${i}]`, dks[i], 1, limits.maxDim)),
        ),
        nKeys: scalarArg(o.nKeys),
        trials: scalarArg(o.trials),
        seed: scalarArg(o.seed),
      });
    },

    // Row softmax of scores / temperature, and each row's entropy. -Infinity = a blocked cell.
    // overflow: true when the naive softmax (stable: false) overflowed, as the lesson shows.
    softmax(options) {
      const o = checkOptions('softmax', options, ['scores', 'stable', 'temperature']);
      const r = run('softmax', {
        scores: input.scoreMatrix(o.scores),
        stable: scalarArg(o.stable),
        temperature: scalarArg(o.temperature),
      });
      return { weights: r.weights, entropy: r.entropy, overflow: r.overflow };
    },

    // J = diag(p) - p pᵀ for one row of weights p (an array of n numbers) -> (n, n).
    softmaxJacobian(p) {
      return run('softmaxJacobian', { p: vectorArg('p', p, input.sizeError).data }).matrix;
    },

    // One-hot at each row's argmax.
    hardAttention(options) {
      const o = checkOptions('hardAttention', options, ['scores']);
      return run('hardAttention', { scores: input.scoreMatrix(o.scores) }).matrix;
    },

    // softmax((scores + Gumbel noise) / tau), the noise drawn from seed.
    gumbelSoftmax(options) {
      const o = checkOptions('gumbelSoftmax', options, ['scores', 'tau', 'seed']);
      return run('gumbelSoftmax', {
        scores: input.scoreMatrix(o.scores),
        tau: scalarArg(o.tau),
        seed: scalarArg(o.seed),
      }).matrix;
    },

    // Sinusoidal position encodings (n, d).
    sinusoidal(options) {
      const o = checkOptions('sinusoidal', options, ['n', 'd', 'base']);
      return run('sinusoidal', { n: scalarArg(o.n), d: scalarArg(o.d), base: scalarArg(o.base) }).matrix;
    },

    // RoPE: rotates pairs of columns of x; row r sits at position first + r.
    rope(options) {
      const o = checkOptions('rope', options, ['x', 'first', 'base']);
      return run('rope', { x: input.matrix('x', o.x), first: scalarArg(o.first), base: scalarArg(o.base) }).matrix;
    },

    // y = x Wᵀ + b (torch.nn.Linear): x (n, in), W (out, in), b (out) or omitted.
    linear(options) {
      const o = checkOptions('linear', options, ['x', 'W', 'b']);
      return run('linear', { x: input.matrix('x', o.x), W: input.matrix('W', o.W), b: input.optionalVector('b', o.b) })
        .matrix;
    },

    // (rows, cols) of N(0, 1) * scale from the engine's RNG: the same in every build. With
    // streams (one per row), row i is the first cols draws of stream streams[i].
    randomMatrix(options) {
      const o = checkOptions('randomMatrix', options, ['rows', 'cols', 'seed', 'stream', 'streams', 'scale']);
      return run('randomMatrix', {
        rows: scalarArg(o.rows),
        cols: scalarArg(o.cols),
        seed: scalarArg(o.seed),
        stream: scalarArg(o.stream),
        streams: o.streams == null ? undefined : arrayArg('streams', o.streams, limits.maxTokens, 'streams'),
        scale: scalarArg(o.scale),
      }).matrix;
    },

    // { heapBytes: size of wasm memory, usedBytes: bytes the allocator has handed out }.
    memory() {
      return run('memory');
    },

    // GPT-2-family checkpoints (engine/model-api.js and its own wasm module, loaded on first use)
    loadModel: (source, options) => import('./model-api.js').then((m) => m.loadModel(simd, source, options)),
    modelMemory: () => import('./model-api.js').then((m) => m.modelMemory(simd)),
  };
}
