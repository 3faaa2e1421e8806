// The engine's JavaScript API: loads the wasm module (SIMD or scalar build) and wraps each
// of its functions, one file per area as the bindings are split (calls/attend.js, flash.js,
// block.js, bugs.js, experiments.js, assembled here): each converts the arguments to the types
// the module reads and turns the module's errors into AttentionError. The option names,
// defaults, limits and checks are the core's (cpp/core/check.h), exported as engine.options,
// engine.choices and engine.limits. No maths here and no DOM: the same file runs in the browser (through Vite) and
// in Node 20.
//
//   const engine = await loadEngine();          // the best build this runtime supports
//   const r = engine.attend({ query, key, value, causal: true });
//   r.weights  // { rows, cols, data: Float32Array }
//
// Every bad argument throws an AttentionError whose message names the argument.

import { AttentionError } from './args.js';
import { engineLoader, frozenChoices, frozenTable, moduleCalls, simdSupported } from './loader.js';
import { FLASH_BLOCK } from './choices.js';
import { callInputs } from './inputs.js';
import { attendCalls } from './calls/attend.js';
import { blockCalls } from './calls/block.js';
import { bugCalls } from './calls/bugs.js';
import { experimentCalls } from './calls/experiments.js';
import { flashCalls } from './calls/flash.js';

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

// The same engine on the module's first part (attention-first-*: bindings.cpp, 60 % of the bytes),
// which the page starts on: its methods are all there, and those whose code is in the rest (the
// transformer block, the debugging lab, tiled attention, the sqrt(d_k) lab's runs) throw an
// AttentionError with code 'not-in-module'.
const FIRST_GLUE = {
  simd: { load: () => import('../../../build/wasm/attention-first-simd.js'), wasm: 'attention-first-simd.wasm' },
  scalar: { load: () => import('../../../build/wasm/attention-first-scalar.js'), wasm: 'attention-first-scalar.wasm' },
};
export const loadFirstEngine = engineLoader('loadFirstEngine', FIRST_GLUE, makeEngine);

// ---- the engine ----------------------------------------------------------------------------------

function makeEngine(mod, simd, forget) {
  const calls = moduleCalls(mod, 'loadEngine', forget);
  const { guarded, run } = calls;

  const limits = Object.freeze(mod.limits());
  const choices = frozenChoices(mod.choices());
  // the converters of this module's arguments (inputs.js): input.matrix(name, x) and the like
  const input = callInputs(mod, guarded, limits);
  // what each area's methods need (calls/*.js, one file per bindings file)
  const parts = { mod, calls, run, guarded, input, limits, choices };

  return {
    simd,
    limits,
    choices,
    // each entry point's options as the module reads them: { attend: { score: { type: 'choice',
    // values, default }, temperature: { type: 'number', min, max, integer, default }, ... } }
    options: frozenTable(mod.options()),
    // true once a call has stopped this instance (see guarded): loadEngine() gives a fresh one
    get stopped() {
      return calls.stopped;
    },

    ...flashCalls(parts),
    ...attendCalls(parts),
    ...bugCalls(parts),
    ...blockCalls(parts),
    ...experimentCalls(parts),

    // { heapBytes: size of wasm memory, usedBytes: bytes the allocator has handed out }.
    memory() {
      return run('memory');
    },

    // GPT-2-family checkpoints (engine/model-api.js and its own wasm module, loaded on first use)
    loadModel: (source, options) => import('./model-api.js').then((m) => m.loadModel(simd, source, options)),
    modelMemory: () => import('./model-api.js').then((m) => m.modelMemory(simd)),
  };
}
