// The names of the engine's choice options, for code that runs before the engine has loaded:
// the state schema reads the link (#fill=zero) before the module is compiled. The core owns
// these names, their order and their checks (cpp/core/check.h, exported as engine.choices);
// this is the page's only copy, and tests/js/choices.test.js pins it to engine.choices in both
// builds. Code that has the engine uses engine.choices itself. The same holds for the numbers
// below: the core's, copied once for code without an engine, and pinned by that test.
export const CHOICES = Object.freeze({
  score: Object.freeze(['dot', 'scaled-dot', 'additive', 'general']),
  maskFill: Object.freeze(['neg-inf', 'large-negative', 'zero']),
  // the playground's trainer (cpp/core/train_tasks.h, transformer.h)
  task: Object.freeze(['previous-token', 'reverse', 'sort', 'induction', 'random-induction']),
  position: Object.freeze(['learned', 'sinusoidal', 'none']),
  // the encoder–decoder (cpp/core/seq2seq_tasks.h, seq2seq_model.h)
  seq2seqTask: Object.freeze(['copy', 'reverse', 'translate']),
  attention: Object.freeze(['none', 'additive', 'dot', 'general']),
  // the debugging lab's bugs (cpp/core/bugs.h)
  bug: Object.freeze([
    'none',
    'missing-scale',
    'zero-fill',
    'reversed-causal',
    'wrong-axis',
    'mask-after-softmax',
    'no-max-subtraction',
    'scale-by-d-model',
  ]),
  // the Transformer block (cpp/core/feed_forward.h, transformer_layer.h)
  activation: Object.freeze(['relu', 'gelu']),
  kind: Object.freeze(['encoder', 'decoder']),
});

// How the page writes the value each mask fill puts in a blocked score: in text, in TeX, and in
// the exported scripts' NumPy (a float32 constant) and PyTorch (masked_fill's value). One entry
// per engine.choices.maskFill name (pinned by the same test).
export const FILL_SIGNS = Object.freeze({
  'neg-inf': Object.freeze({ text: '−∞', tex: '-\\infty', numpy: '-np.inf', torch: "float('-inf')" }),
  'large-negative': Object.freeze({ text: '−1e9', tex: '-10^{9}', numpy: '-1e9', torch: '-1e9' }),
  zero: Object.freeze({ text: '0', tex: '0', numpy: '0', torch: '0.0' }),
});

// Tiled attention's default block (the core's blockSize fallback, which flashTrace reports):
// 64 queries x 64 keys per tile. The attend pool slices its queries on multiples of it.
export const FLASH_BLOCK = 64;

// The largest seed (seeds are uint32; engine.limits.maxSeed), for the page's seed fields.
export const MAX_SEED = 2 ** 32 - 1;

// The limits the attend pool checks on the page's side before any worker has its engine
// (engine.limits.maxFlashTokens, .maxFlashBlock, .maxDim).
export const POOL_LIMITS = Object.freeze({ maxFlashTokens: 16384, maxFlashBlock: 256, maxDim: 1024 });
