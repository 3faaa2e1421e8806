// Types of the engine's public API (web/src/engine.js; README, "The engine's JavaScript API").
// tests/types/usage.ts exercises them and `tsc -p tests/types` checks them in npm test.

/** The error every bad argument throws; its message names the argument and what was expected. */
export class AttentionError extends Error {
  name: 'AttentionError';
  /**
   * 'engine-stopped' once a trap or abort has stopped the module: load a fresh engine.
   * 'not-in-module': a function of loadEngine()'s module that loadFirstEngine()'s does not have.
   */
  code?: 'engine-stopped' | 'not-in-module';
}

/** Whether this runtime can run the SIMD128 build. */
export function simdSupported(): boolean;

export interface LoadOptions {
  /** true: the SIMD128 build, false: the scalar build; omitted: the best this runtime supports. */
  simd?: boolean;
}

/** One engine per build, cached: every call with the same build resolves to the same object. */
export function loadEngine(options?: LoadOptions): Promise<Engine>;

/**
 * The same engine on the module's first part (60 % of the bytes): attend, softmax and its kin,
 * random matrices, multi-head, positional encodings, linear, the variance experiment and memory.
 * The other methods throw an AttentionError with code 'not-in-module'.
 */
export function loadFirstEngine(options?: LoadOptions): Promise<Engine>;

/** Tiled attention's default block (queries and keys per tile). */
export const FLASH_BLOCK: number;

// ---- values -------------------------------------------------------------------------------------

/** A matrix the engine returns: row-major, a copy owned by JavaScript. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** Numbers the engine reads: an Array or any typed array. */
export type Numbers = ArrayLike<number>;

/** A matrix given to the engine: { rows, cols, data } (row-major) or nested rows of equal length. */
export type MatrixInput = { rows: number; cols: number; data: Numbers } | ReadonlyArray<Numbers>;

/** A vector given to the engine (a bias, additive v, a Jacobian's p): numbers or a one-row matrix. */
export type VectorInput = Numbers | MatrixInput;

/** A 0/1 mask (1 = may attend); true/false are accepted too. */
export type MaskInput =
  { rows: number; cols: number; data: ArrayLike<number | boolean> } | ReadonlyArray<ArrayLike<number | boolean>>;

/** Softmax scores: a matrix, or one flat row; -Infinity marks a blocked cell. */
export type ScoresInput = MatrixInput | Numbers;

/** One flag per key, true = padding. */
export type Flags = ArrayLike<boolean | number>;

// ---- choices and limits -------------------------------------------------------------------------

export type ScoreKind = 'dot' | 'scaled-dot' | 'additive' | 'general';
export type MaskFill = 'neg-inf' | 'large-negative' | 'zero';
export type Bug =
  | 'none'
  | 'missing-scale'
  | 'zero-fill'
  | 'reversed-causal'
  | 'wrong-axis'
  | 'mask-after-softmax'
  | 'no-max-subtraction'
  | 'scale-by-d-model';
export type Activation = 'relu' | 'gelu';
export type LayerKind = 'encoder' | 'decoder';

/** A module's choices: for each option that takes one of a few names, those names in the core's order. */
export type ChoiceLists<Names> = { readonly [Option in keyof Names]: readonly Names[Option][] };

/** engine.choices */
export type Choices = ChoiceLists<{
  score: ScoreKind;
  maskFill: MaskFill;
  bug: Bug;
  activation: Activation;
  kind: LayerKind;
}>;

/** engine.limits: the core's size and range limits (README, "Size limits"). */
export interface Limits {
  readonly maxTokens: number;
  readonly maxDim: number;
  readonly maxHeads: number;
  readonly maxHeadCells: number;
  readonly maxSamples: number;
  readonly maxBins: number;
  readonly maxTrials: number;
  readonly maxPosition: number;
  readonly maxSweepDks: number;
  readonly maxSweepKeys: number;
  readonly minTemperature: number;
  readonly maxTemperature: number;
  readonly maxScale: number;
  readonly maxFlashTokens: number;
  readonly maxFlashBlock: number;
  readonly maxTraceTokens: number;
  readonly maxHidden: number;
  /** gumbelSamples of queryProbe: at most this many rows */
  readonly maxGumbelSamples: number;
  /** seeds (and RNG streams) are uint32: 0 to 2^32 - 1 */
  readonly maxSeed: number;
  /** the score a blocked cell gets with maskFill 'large-negative' (-1e9) */
  readonly largeNegativeFill: number;
}

/** One option of an entry point, as the module reads it (engine.options). */
export type OptionSpec =
  | {
      readonly type: 'number';
      readonly min: number;
      readonly max: number;
      readonly integer: boolean;
      /** absent: the option is required */
      readonly default?: number;
    }
  | { readonly type: 'choice'; readonly values: readonly string[]; readonly default: string }
  | { readonly type: 'flag'; readonly default: boolean }
  | { readonly type: 'matrix'; readonly optional: boolean }
  | { readonly type: 'array' }
  | { readonly type: 'object'; readonly fields?: { readonly [field: string]: OptionSpec } };

/** engine.options: { <entry point of the module>: { <option>: OptionSpec } }, frozen. */
export interface Options {
  readonly [entryPoint: string]: { readonly [option: string]: OptionSpec };
}

// ---- attend and its relatives -------------------------------------------------------------------

export interface MaskOptions {
  /** (n_q, n_k) of 1 = may attend, 0 = blocked. */
  mask?: MaskInput | null;
  /** Also block key j > query i. */
  causal?: boolean;
  /** n_k flags, true = padding (blocked for every query). */
  keyPadding?: Flags | null;
}

export interface AttendOptions extends MaskOptions {
  query: MatrixInput;
  key: MatrixInput;
  value: MatrixInput;
  /** Default 'scaled-dot'. */
  score?: ScoreKind;
  /** Also block key j < query i. */
  reverseCausal?: boolean;
  /** Default 'neg-inf'. */
  maskFill?: MaskFill;
  /** Divides the (scaled) scores; 1e-30 to 1e30. Default 1. */
  temperature?: number;
  /** Subtract the row max before exp (default true); false is the naive softmax. */
  stable?: boolean;
  /** false: the output-only path (no (n_q, n_k) copies). Default true. */
  stages?: boolean;
  /** For score 'additive': { Wq: (h, d_q), Wk: (h, d_k), v: (h) }. */
  additive?: { Wq: MatrixInput; Wk: MatrixInput; v: VectorInput } | null;
  /** For score 'general': { W: (d_q, d_k) }. */
  general?: { W: MatrixInput } | null;
}

/** What every attention call returns. */
export interface AttendOutput {
  /** (n_q, d_v) weights × value. */
  output: Matrix;
  /** −Σ w ln w per row, in nats. */
  entropy: Float32Array;
  /** The rows where every key is blocked. */
  fullyMaskedRows: number[];
  /** true when the naive softmax (stable: false) gave Infinity or NaN. */
  overflow: boolean;
}

/** attend() with every stage kept (the default). */
export interface AttendStages extends AttendOutput {
  scores: Matrix;
  scaled: Matrix;
  mask: Matrix;
  masked: Matrix;
  weights: Matrix;
}

export interface AttendWithBugOptions extends MaskOptions {
  query: MatrixInput;
  key: MatrixInput;
  value: MatrixInput;
  /** Default 'none'. */
  bug?: Bug;
  /** For 'scale-by-d-model': the width whose square root the bugged code divides by. */
  dModel?: number;
}

export interface MonitorOptions {
  logits: MatrixInput;
  weights: MatrixInput;
  mask: MaskInput;
}

export interface MonitorResult {
  maxEntropy: Float32Array;
  rowSums: Float32Array;
  colSums: Float32Array;
  leaked: Float32Array;
  cells: number;
  logitMean: number;
  logitStd: number;
  logitMax: number;
  nonFinite: number;
}

export interface FlashOptions {
  query: MatrixInput;
  key: MatrixInput;
  value: MatrixInput;
  causal?: boolean;
  keyPadding?: Flags | null;
  /** A sliding window w ≥ 0. */
  window?: number | null;
  /** The strided pattern, s ≥ 1 (not with window). */
  stride?: number | null;
  /** Queries and keys per tile, 1 to maxFlashBlock. Default 64. */
  blockSize?: number;
  /** The position of query row 0 among the keys. Default 0. */
  queryOffset?: number;
}

export interface FlashResult {
  output: Matrix;
  entropy: Float32Array;
  fullyMaskedRows: number[];
  /** Bytes of the tiles at the block size used: the (B, B) scores, the (B, d_v) product and B row states. */
  tileBytes: number;
  /** Bytes of Kᵀ and V packed for the kernels (a copy the size of the key and value). */
  packedBytes: number;
}

export interface LinearOptions {
  query: MatrixInput;
  key: MatrixInput;
  value: MatrixInput;
  /** Query i sums over keys j <= i only (prefix sums). Default false. */
  causal?: boolean;
}

export interface LinearResult {
  /** (n_q, d_v): φ(q_i)ᵀ S / φ(q_i)ᵀ z with φ(x) = elu(x) + 1. */
  output: Matrix;
  /** Rows whose denominator underflowed to 0: zero output. */
  zeroRows: number[];
  /** Bytes of the state carried along the sequence: S (d_k, d_v) and z (d_k). */
  stateBytes: number;
  /** Bytes of one chunk's scratch (features and products of 64 positions). */
  chunkBytes: number;
}

export interface OutputErrorResult {
  /** The largest |output − reference| of an entry. */
  maxAbs: number;
  /** ‖output − reference‖ / ‖reference‖ (Frobenius norms). */
  relative: number;
}

/**
 * The online softmax step by step. Masked entries are `-Infinity`, not numbers: `scores` has
 * `-Infinity` in every blocked cell (and in every cell of a tile skipped whole), `blockMax` where
 * the query has no allowed key in that block, and `runningMax` until the query's first allowed key
 * (a fully masked row stays `-Infinity` to the end). The tables are (blocks, n_q): entry (c, i) as
 * it stood after key block c was folded into query i; a tile skipped whole records nothing
 * (0 there, and `skipped` 1).
 */
export interface FlashTrace extends FlashResult {
  blockSize: number;
  /** ⌈n_k / blockSize⌉ */
  blocks: number;
  /** (n_q, n_k) scaled scores; `-Infinity` where blocked. */
  scores: Matrix;
  /** (blocks, n_q) the block's largest allowed score; `-Infinity` if it has none. */
  blockMax: Matrix;
  /** (blocks, n_q) the running max m; `-Infinity` before the first allowed key. */
  runningMax: Matrix;
  /** (blocks, n_q) exp(m_before − m_after): 1 when the max did not grow, 0 at the first allowed block. */
  rescale: Matrix;
  /** (blocks, n_q) the running sum l. */
  runningSum: Matrix;
  /** (blocks, n_q) 1 where the whole tile was skipped. */
  skipped: Matrix;
}

export interface MultiHeadOptions extends MaskOptions, AttentionWeights {
  query: MatrixInput;
  key: MatrixInput;
  value: MatrixInput;
  heads: number;
  stages?: boolean;
}

export interface MultiHeadResult<Head extends AttendOutput = AttendStages> {
  heads: Head[];
  concat: Matrix;
  output: Matrix;
}

// ---- the Transformer block ------------------------------------------------------------------------

export interface LayerNormOptions {
  x: MatrixInput;
  gamma: VectorInput;
  beta: VectorInput;
  /** From 1e-30 to 1; default 1e-5. */
  eps?: number;
}

export interface LayerNormResult {
  output: Matrix;
  /** The mean of each input row. */
  mean: Float32Array;
  /** The (biased) standard deviation of each input row, without eps. */
  std: Float32Array;
}

export interface FeedForwardWeights {
  /** (hidden, d_model) */
  W1: MatrixInput;
  b1?: VectorInput | null;
  /** (d_model, hidden) */
  W2: MatrixInput;
  b2?: VectorInput | null;
}

export interface FeedForwardOptions extends FeedForwardWeights {
  x: MatrixInput;
  activation?: Activation;
}

export interface FeedForwardResult {
  /** (n, hidden) after the activation. */
  hidden: Matrix;
  output: Matrix;
}

export interface AttentionWeights {
  Wq: MatrixInput;
  Wk: MatrixInput;
  Wv: MatrixInput;
  Wo: MatrixInput;
  bq?: VectorInput | null;
  bk?: VectorInput | null;
  bv?: VectorInput | null;
  bo?: VectorInput | null;
}

export interface TransformerLayerOptions {
  kind?: LayerKind;
  /** (n, d_model) */
  x: MatrixInput;
  /** (m, d_model): the encoder's output; a decoder's only. */
  memory?: MatrixInput | null;
  heads: number;
  selfAttention: AttentionWeights;
  /** A decoder's only. */
  crossAttention?: AttentionWeights | null;
  ff: FeedForwardWeights;
  /** 2 for an encoder, 3 for a decoder. */
  norms: { gamma: VectorInput; beta: VectorInput }[];
  /** Pre-norm x + f(LN(x)); default post-norm LN(x + f(x)). */
  normFirst?: boolean;
  activation?: Activation;
  eps?: number;
  /** The self-attention's causal mask; default true for a decoder. */
  causal?: boolean;
  keyPadding?: Flags | null;
  memoryKeyPadding?: Flags | null;
  /** false: no residual connection (the sub-layer's output alone). */
  residual?: boolean;
  /** false: every LayerNorm passes its input on. */
  layerNorm?: boolean;
  stages?: boolean;
}

export interface TransformerLayerResult {
  output: Matrix;
  selfAttention: MultiHeadResult;
  /** A decoder's only. */
  crossAttention?: MultiHeadResult;
  ff: FeedForwardResult;
  /** x + sub-layer k, in order. */
  residuals: Matrix[];
  /** LayerNorm k, in order. */
  normed: LayerNormResult[];
}

export interface GruOptions {
  /** (n, d_in) */
  x: MatrixInput;
  /** (3 h, d_in) */
  Wih: MatrixInput;
  /** (3 h, h) */
  Whh: MatrixInput;
  bih?: VectorInput | null;
  bhh?: VectorInput | null;
  h0?: VectorInput | null;
}

// ---- the variance experiment --------------------------------------------------------------------

export interface Moments {
  mean: number;
  variance: number;
}

export interface MomentsWithStd extends Moments {
  std: number;
}

export interface Histogram {
  /** bins + 1 edges over ±4√d_k, for rawCounts. */
  edges: Float32Array;
  /** bins + 1 edges over ±4, for scaledCounts. */
  scaledEdges: Float32Array;
  rawCounts: Int32Array;
  scaledCounts: Int32Array;
}

export interface VarianceOptions {
  /** Default 64. */
  dk?: number;
  /** Default 10000. */
  samples?: number;
  /** A uint32. Default 1. */
  seed?: number;
  /** Default 60. */
  bins?: number;
  /** Default 0. */
  firstSample?: number;
}

export interface VarianceResult {
  raw: Moments;
  scaled: Moments;
  histogram: Histogram;
}

export interface VarianceTotal {
  raw: MomentsWithStd;
  scaled: MomentsWithStd;
  histogram: Histogram;
  samples: number;
}

export interface MergeVarianceOptions {
  a?: VarianceResult | null;
  /** Default 0 (no a yet). */
  aSamples?: number;
  b: VarianceResult;
  bSamples: number;
}

/** A run that grows inside the engine; the caller owns it and must delete() it. */
export interface VarianceRun {
  step(samples: number): void;
  snapshot(): VarianceTotal;
  delete(): void;
}

export interface VarianceSample {
  q: Float32Array;
  k: Float32Array;
  dot: number;
}

// ---- saturation ---------------------------------------------------------------------------------

export interface QueryProbeOptions {
  dk?: number;
  nKeys?: number;
  seed?: number;
  trial?: number;
  tau?: number;
  scaled?: boolean;
  gumbelSamples?: number;
}

export interface QueryProbe {
  rawScores: Float32Array;
  scaledScores: Float32Array;
  rawWeights: Float32Array;
  scaledWeights: Float32Array;
  rawEntropy: number;
  scaledEntropy: number;
  rawMax: number;
  scaledMax: number;
  hard: Float32Array;
  /** (gumbelSamples, nKeys). */
  gumbel: Matrix;
}

export interface SaturationSide {
  maxWeight: number;
  entropy: number;
  jacobianNorm: number;
  gradNorm: number;
}

export interface SaturationSweep {
  logN: number;
  points: { dk: number; raw: SaturationSide; scaled: SaturationSide }[];
}

// ---- GPT-2-family models (engine.loadModel) ------------------------------------------------------

/** config.json of a Hugging Face GPT-2 checkpoint, parsed (the keys the engine reads; others are ignored). */
export interface Gpt2ConfigJson {
  n_layer: number;
  n_head: number;
  n_embd: number;
  n_positions: number;
  vocab_size: number;
  /** the MLP's width; null or absent: 4 n_embd */
  n_inner?: number | null;
  /** default 1e-5 */
  layer_norm_epsilon?: number;
  /** 'gpt2' when present */
  model_type?: string;
  /** GPT-2's tanh GELU: 'gelu_new' (default), 'gelu_pytorch_tanh' or 'gelu_fast' */
  activation_function?: string;
  scale_attn_weights?: boolean;
  scale_attn_by_inverse_layer_idx?: boolean;
  add_cross_attention?: boolean;
  [key: string]: unknown;
}

export interface LoadModelOptions {
  /** The checkpoint's config.json, parsed. */
  config: Gpt2ConfigJson;
  /** Called as the file is read: bytes read so far, and the file's size (null when a response does not say). */
  onProgress?: (progress: { loaded: number; total: number | null }) => void;
  /** Cancels the load: it rejects with an AttentionError naming signal, having freed what it took. */
  signal?: AbortSignal;
}

/** A safetensors file: a File, Blob, ArrayBuffer, Uint8Array or a fetch Response. */
export type ModelSource = Blob | ArrayBuffer | Uint8Array | Response;

/** model.config */
export interface ModelConfig {
  readonly nLayer: number;
  readonly nHead: number;
  readonly nEmbd: number;
  readonly nPositions: number;
  readonly vocabSize: number;
  readonly layerNormEpsilon: number;
}

/** Each token's k most likely next tokens: (n, k) row-major, most likely first (ties: the lower id). */
export interface TopK {
  k: number;
  ids: Int32Array;
  probabilities: Float32Array;
}

export type Ablation = 'zero' | 'mean';

export interface RunOptions {
  /** 1 to min(vocabSize, 1000); default min(10, vocabSize). */
  topK?: number;
  /** [layer, head]: that head's five stages in the result. */
  head?: readonly [number, number] | ArrayLike<number>;
  /** [[layer, head], …]: those heads' outputs are zeroed (or replaced by their mean) before c_proj. */
  ablate?: ArrayLike<ArrayLike<number>>;
  /** What an ablated head outputs: 'zero' (default) or 'mean' (its mean output over the tokens). */
  ablation?: Ablation;
  /** true: the result says where the run's time went, stage by stage (profile). */
  profile?: boolean;
}

export interface ModelRun {
  topK: TopK;
  /** [layer][head]: (n, n) attention weights. */
  attention: Matrix[][];
  /** (nLayer + 1, n): |x| of each token's residual stream after the embedding, then after each block. */
  residualNorms: Matrix;
  /** With head: that head's stages as attend() gives them (scores before the 1/√d_head scale; masked has
   * −∞ above the diagonal; output is the head's (n, d_head) output before c_proj). */
  stages?: { scores: Matrix; scaled: Matrix; masked: Matrix; weights: Matrix; output: Matrix };
  /** With ablate: the intact model's top k, and its probability of each of this run's topK.ids (same places). */
  baseline?: { topK: TopK; probabilities: Float32Array };
  /** With profile: milliseconds per stage of the forward pass, in the order they run (each summed over the blocks). */
  profile?: { stage: string; ms: number }[];
}

/** Each an (nLayer, nHead) matrix of numbers in [0, 1], measured on the tokens written twice. */
export interface HeadScores {
  /** mean weight of token i on token i − 1 */
  previousToken: Matrix;
  /** second half: mean weight on the token after the current token's first occurrence */
  induction: Matrix;
  /** second half: mean weight on the current token's first occurrence */
  duplicateToken: Matrix;
  /** mean weight on token 0 (the attention sink) */
  firstToken: Matrix;
  /** mean entropy of a row over its maximum, log(i + 1): 1 = uniform */
  entropy: Matrix;
  /** the distinct tokens of the first half */
  tokens: Int32Array;
}

export interface HeadScoresOptions {
  /** default 1 */
  seed?: number;
  /** distinct tokens drawn from seed, written twice; default min(50, vocabSize, nPositions / 2) */
  length?: number;
  /** your own distinct tokens instead of seed and length */
  tokens?: ArrayLike<number>;
}

/** A GPT-2-family model in the engine; the caller owns it and must delete() it. */
export interface Model {
  readonly config: ModelConfig;
  /** Bytes its weights take in the engine (float32). */
  readonly weightBytes: number;
  /** The forward pass on 1 to nPositions token ids. */
  run(ids: ArrayLike<number>, options?: RunOptions): Promise<ModelRun>;
  headScores(options?: HeadScoresOptions): HeadScores;
  /** Frees it; later calls throw an AttentionError. */
  delete(): void;
}

export interface ModelMemory extends Memory {
  /** What the model module's memory may grow to (4 GB less 64 KB). */
  maxBytes: number;
}

// ---- the engine ---------------------------------------------------------------------------------

export interface Memory {
  /** Size of the wasm memory. */
  heapBytes: number;
  /** Bytes the allocator has handed out and not yet freed. */
  usedBytes: number;
}

export interface Engine {
  /** Which build is loaded. */
  readonly simd: boolean;
  readonly limits: Limits;
  readonly choices: Choices;
  /** Each entry point's option names, ranges, defaults and choices, as the core's table has them. */
  readonly options: Options;
  /** true once a call has stopped this instance: loadEngine() gives a fresh one. */
  readonly stopped: boolean;

  attend(options: AttendOptions & { stages: false }): AttendOutput;
  attend(options: AttendOptions): AttendStages;
  attendWithBug(options: AttendWithBugOptions): AttendStages;
  monitor(options: MonitorOptions): MonitorResult;
  flashAttend(options: FlashOptions): FlashResult;
  flashTrace(options: FlashOptions): FlashTrace;
  linearAttend(options: LinearOptions): LinearResult;
  outputError(options: { output: MatrixInput; reference: MatrixInput }): OutputErrorResult;
  multiHead(options: MultiHeadOptions & { stages: false }): MultiHeadResult<AttendOutput>;
  multiHead(options: MultiHeadOptions): MultiHeadResult;
  layerNorm(options: LayerNormOptions): LayerNormResult;
  feedForward(options: FeedForwardOptions): FeedForwardResult;
  transformerLayer(options: TransformerLayerOptions & { stages: false }): { output: Matrix };
  transformerLayer(options: TransformerLayerOptions): TransformerLayerResult;
  gruEncoder(options: GruOptions): { hidden: Matrix; steps: number };

  varianceExperiment(options?: VarianceOptions): VarianceResult;
  mergeVariance(options: MergeVarianceOptions): VarianceTotal;
  varianceRun(options?: Omit<VarianceOptions, 'samples'>): VarianceRun;
  varianceSample(options?: { dk?: number; seed?: number; sample?: number }): VarianceSample;
  queryProbe(options?: QueryProbeOptions): QueryProbe;
  saturationSweep(options: { dks: Numbers; nKeys?: number; trials?: number; seed?: number }): SaturationSweep;

  softmax(options: { scores: ScoresInput; stable?: boolean; temperature?: number }): {
    weights: Matrix;
    entropy: Float32Array;
    overflow: boolean;
  };
  softmaxJacobian(p: VectorInput): Matrix;
  hardAttention(options: { scores: ScoresInput }): Matrix;
  gumbelSoftmax(options: { scores: ScoresInput; tau?: number; seed?: number }): Matrix;

  sinusoidal(options: { n: number; d: number; base?: number }): Matrix;
  rope(options: { x: MatrixInput; first?: number; base?: number }): Matrix;
  linear(options: { x: MatrixInput; W: MatrixInput; b?: VectorInput | null }): Matrix;
  randomMatrix(options: {
    rows: number;
    cols: number;
    seed?: number;
    stream?: number;
    /** One stream per row: row i is the first cols draws of stream streams[i] (not with stream). */
    streams?: ArrayLike<number>;
    scale?: number;
  }): Matrix;

  memory(): Memory;

  /** Reads a GPT-2-family safetensors checkpoint (F32, F16 or BF16) into the model module, a wasm
   * module of its own loaded with the first model. */
  loadModel(source: ModelSource, options: LoadModelOptions): Promise<Model>;
  /** The model module's memory. */
  modelMemory(): Promise<ModelMemory>;
}
