// The core's option tables for code that runs before a module has loaded (the state schema reads
// the link, #fill=zero, before the module is compiled) and for the engine's own argument checks:
// read from ./core-options.js, which scripts/core-options.mjs generates from what the modules
// export (engine.options, engine.limits and the trainer's), and tests/js/options.test.js pins to
// them in both builds. Nothing here restates a name, a range or a default of the core.
import { LIMITS, OPTIONS, TRAIN_OPTIONS, TRAIN_LIMITS } from './core-options.js';
import { scalarArg } from './args.js';

export { LIMITS, OPTIONS, TRAIN_OPTIONS, TRAIN_LIMITS };

// The option names of one entry point of either module (engine.options.<entry>), or of the fields
// of one of its object options ('attend', 'additive' -> ['Wq', 'Wk', 'v']), as its bindings read them.
export function optionNames(entry, field) {
  const table = OPTIONS[entry] ?? TRAIN_OPTIONS[entry];
  return Object.freeze(Object.keys(field === undefined ? table : table[field].fields));
}

// The scalar options (numbers, names, flags) of entry point `entry` in a checked options object, as
// the module reads them (scalarArg: nothing of the caller's runs inside the module).
const SCALARS = new Set(['number', 'choice', 'flag']);
export function scalarArgs(entry, o) {
  const out = {};
  for (const [name, spec] of Object.entries(OPTIONS[entry] ?? TRAIN_OPTIONS[entry])) {
    if (SCALARS.has(spec.type)) out[name] = scalarArg(o[name]);
  }
  return out;
}

// { default, min, max } of a number option, for a state schema field (hosts/state.js types
// 'int' and 'float'); `changes` replaces any of them (e.g. a page's own default).
export const numberField = (option, changes = {}) => ({
  type: option.integer ? 'int' : 'float',
  default: option.default,
  min: option.min,
  max: option.max,
  ...changes,
});

// The names of the engine's choice options (engine.choices and trainEngine.choices), in the core's order.
const values = (option) => Object.freeze([...option.values]);
export const CHOICES = Object.freeze({
  score: values(OPTIONS.attend.score),
  maskFill: values(OPTIONS.attend.maskFill),
  // the playground's trainer (cpp/core/train_tasks.h, transformer.h)
  task: values(TRAIN_OPTIONS.createTrainer.task),
  position: values(TRAIN_OPTIONS.createTrainer.position),
  // the encoder–decoder (cpp/core/seq2seq_tasks.h, seq2seq_model.h)
  seq2seqTask: values(TRAIN_OPTIONS.createSeq2Seq.task),
  attention: values(TRAIN_OPTIONS.createSeq2Seq.attention),
  // the debugging lab's bugs (cpp/core/bugs.h)
  bug: values(OPTIONS.attendWithBug.bug),
  // the Transformer block (cpp/core/feed_forward.h, transformer_layer.h)
  activation: values(OPTIONS.feedForward.activation),
  kind: values(OPTIONS.transformerLayer.kind),
});

// How the page writes the value each mask fill puts in a blocked score: in text, in TeX, and in
// the exported scripts' NumPy (a float32 constant) and PyTorch (masked_fill's value). One entry
// per engine.choices.maskFill name (pinned by tests/js/choices.test.js); the large negative one
// is the core's (engine.limits.largeNegativeFill), written as a power of ten.
const tenTo = Math.log10(-LIMITS.largeNegativeFill);
export const FILL_SIGNS = Object.freeze({
  'neg-inf': Object.freeze({ text: '−∞', tex: '-\\infty', numpy: '-np.inf', torch: "float('-inf')" }),
  'large-negative': Object.freeze({
    text: `−1e${tenTo}`,
    tex: `-10^{${tenTo}}`,
    numpy: `-1e${tenTo}`,
    torch: `-1e${tenTo}`,
  }),
  zero: Object.freeze({ text: '0', tex: '0', numpy: '0', torch: '0.0' }),
});

// Tiled attention's default block (the core's blockSize fallback, which flashTrace reports):
// queries x keys per tile. The attend pool slices its queries on multiples of it.
export const FLASH_BLOCK = OPTIONS.flashAttend.blockSize.default;

// The largest seed (seeds are uint32; engine.limits.maxSeed), for the page's seed fields.
export const MAX_SEED = LIMITS.maxSeed;

// The limits the attend pool checks on the page's side before any worker has its engine.
export const POOL_LIMITS = Object.freeze({
  maxFlashTokens: LIMITS.maxFlashTokens,
  maxFlashBlock: LIMITS.maxFlashBlock,
  maxDim: LIMITS.maxDim,
});
