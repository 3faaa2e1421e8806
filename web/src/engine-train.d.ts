// Types of the playground's trainer (web/src/engine-train.js; README, "Training: the playground").
// tests/types/usage.ts exercises them and `tsc -p tests/types` checks them in npm test.

import type { ChoiceLists, LoadOptions, Matrix, MatrixInput, Memory, Options } from './engine.js';

export type Task = 'previous-token' | 'reverse' | 'sort' | 'induction' | 'random-induction';
export type Position = 'learned' | 'sinusoidal' | 'none';
export type Seq2SeqTask = 'copy' | 'reverse' | 'translate';
export type Attention = 'none' | 'additive' | 'dot' | 'general';

/** Loading, builds and a stopped module as loadEngine: one trainer engine per build. */
export function loadTrainEngine(options?: LoadOptions): Promise<TrainEngine>;

/** The trainer's option names. */
export const TRAINER_OPTIONS: readonly (keyof TrainerOptions)[];
/** The encoder–decoder's option names. */
export const SEQ2SEQ_OPTIONS: readonly (keyof Seq2SeqOptions)[];

/** trainEngine.choices */
export type TrainChoices = ChoiceLists<{
  task: Task;
  position: Position;
  seq2seqTask: Seq2SeqTask;
  attention: Attention;
}>;

export interface TrainLimits {
  readonly maxLayers: number;
  readonly maxTrainHeads: number;
  readonly maxDModel: number;
  readonly maxBatch: number;
  readonly maxTrainSteps: number;
  readonly trainLength: number;
  readonly maxSeq2SeqHidden: number;
  readonly maxSeq2SeqEmbed: number;
  readonly minSeq2SeqLength: number;
  readonly maxSeq2SeqLength: number;
  readonly maxSeq2SeqSteps: number;
  /** Live encoder–decoders at once. */
  readonly maxSeq2Seqs: number;
  /** Live trainers at once. */
  readonly maxTrainers: number;
  /**
   * Bytes the module's live trainers and encoder–decoders may hold together (800 MiB), each
   * counted from the moment it is made at the most it can hold; a model past it is refused.
   */
  readonly maxModelBytes: number;
}

export interface TrainerOptions {
  /** Default 'previous-token'. */
  task?: Task;
  /** 1 to maxLayers. Default 2. */
  layers?: number;
  /** 1 to maxTrainHeads. Default 2. */
  heads?: number;
  /** A multiple of heads up to maxDModel. Default 64. */
  dModel?: number;
  /** Adam's learning rate. Default 0.003. */
  learningRate?: number;
  /** A uint32: the initial weights and every batch. Default 1. */
  seed?: number;
  /** Divide the scores by √d_k. Default true. */
  scale?: boolean;
  /** Default 'learned'. */
  position?: Position;
  /** Sequences per batch, up to maxBatch. Default 32. */
  batch?: number;
}

/** Tokens of one sequence, or of several (nested rows of equal length). */
export type TokensInput = ArrayLike<number> | ReadonlyArray<ArrayLike<number>>;

export interface Batch {
  tokens: TokensInput;
  /** The same shape as tokens; -1 = no target. */
  targets: TokensInput;
}

/** The model's tensors by name: embedding, position, layers.<l>.Wq … layers.<l>.bo, unembedding, unembeddingBias. */
export type Tensors = Record<string, Matrix>;

export interface Pass {
  tokens: Int32Array;
  predictions: Int32Array;
  /** patterns[layer][head]: (n, n) attention weights. */
  patterns: Matrix[][];
}

export interface AblationOptions {
  /** [layer, head] pairs, 0-based, each head at most once. */
  ablate?: ReadonlyArray<readonly [number, number]>;
}

/** Index layer * heads + head: mean weight on position i − 1, and on the token after the previous occurrence of the current token. */
export interface HeadScores {
  layers: number;
  heads: number;
  previousToken: Float32Array;
  induction: Float32Array;
}

export interface Trainer {
  /** The options as given, with their defaults. */
  readonly config: Readonly<Required<TrainerOptions>>;
  readonly task: Readonly<{ vocab: number; separator: number; rule: string; length: number }>;
  /** n Adam steps on fresh batches: each batch's loss and accuracy before its update. */
  step(n?: number): { step: number; losses: Float32Array; accuracies: Float32Array };
  /** Loss and accuracy on the held-out batch; `ablate` zeroes those heads' outputs for this pass. */
  evaluate(options?: AblationOptions): { loss: number; accuracy: number };
  /** The task's fixed probe sequence, with its loss and accuracy. */
  probe(options?: AblationOptions): Pass & { targets: Int32Array; loss: number; accuracy: number };
  /** Every head's previous-token and induction score on repeated random sequences. */
  headScores(): HeadScores;
  /** The same on your own sequence of 1 to trainLength tokens. */
  run(tokens: ArrayLike<number>): Pass;
  parameters(): Tensors;
  setParameters(values: Record<string, MatrixInput>): void;
  gradients(batch: Batch): { loss: number; accuracy: number; gradients: Tensors };
  stepOn(batch: Batch): { loss: number; accuracy: number; step: number };
  /** Frees it; later calls throw. */
  delete(): void;
}

export interface TrainEngine {
  readonly simd: boolean;
  readonly limits: TrainLimits;
  readonly choices: TrainChoices;
  /** createTrainer's and createSeq2Seq's options, as engine.options describes the lessons' entry points. */
  readonly options: Options;
  readonly stopped: boolean;
  /** The caller owns the trainer and must delete() it. */
  trainer(options?: TrainerOptions): Trainer;
  /** An RNN encoder–decoder; the caller owns it and must delete() it. */
  seq2seq(options?: Seq2SeqOptions): Seq2Seq;
  /** This module's own wasm memory. */
  memory(): Memory;
}

export interface Seq2SeqOptions {
  /** Default 'copy'. */
  task?: Seq2SeqTask;
  /** Default 'additive'. */
  attention?: Attention;
  /** A forward and a backward encoder GRU of hidden / 2 units each. Default true. */
  bidirectional?: boolean;
  /** 4 to maxSeq2SeqHidden (even when bidirectional). Default 64. */
  hidden?: number;
  /** 2 to maxSeq2SeqEmbed. Default 32. */
  embed?: number;
  /** Adam's learning rate. Default 0.003. */
  learningRate?: number;
  /** The gradient's largest L2 norm (0: no clipping). Default 1. */
  clip?: number;
  /** A uint32: the initial weights and every batch. Default 1. */
  seed?: number;
  /** Pairs per batch, up to maxBatch. Default 32. */
  batch?: number;
  /** The longest source sentence, minSeq2SeqLength to maxSeq2SeqLength. Default 24. */
  maxLength?: number;
}

/** A sentence: token ids, the task's words, or the words in one string separated by spaces. */
export type SentenceInput = string | ArrayLike<number | string>;

export interface Pairs {
  source: ReadonlyArray<SentenceInput>;
  /** Target tokens without the closing "</s>". */
  target: ReadonlyArray<SentenceInput>;
}

export interface Decoded {
  source: Int32Array;
  predictions: Int32Array;
  /** (predictions, source length) attention weights; absent for attention 'none'. */
  alignment?: Matrix;
  sourceWords: string[];
  predictionWords: string[];
  /** The task's own target, when there is one. */
  target?: Int32Array;
  targetWords?: string[];
}

export interface ByLength {
  lengths: Int32Array;
  pairs: Int32Array;
  tokenAccuracy: Float32Array;
  sequenceAccuracy: Float32Array;
}

export interface Seq2Seq {
  /** The options as given, with their defaults. */
  readonly config: Readonly<Required<Seq2SeqOptions>>;
  readonly task: Readonly<{ name: Seq2SeqTask; sourceWords: string[]; targetWords: string[]; rule: string }>;
  /** n clipped Adam steps on fresh batches. */
  step(n?: number): { step: number; losses: Float32Array; accuracies: Float32Array };
  /** Teacher-forced loss and token accuracy on the held-out batch. */
  evaluate(): { loss: number; accuracy: number };
  /** Greedy decoding of 8 held-out pairs of every source length. */
  evaluateByLength(): ByLength;
  /** The task's fixed pair, greedily decoded for its target's length + 1 steps. */
  probe(): Decoded & { target: Int32Array; targetWords: string[]; loss: number; accuracy: number };
  /** Greedy decoding of your own sentence until "</s>". */
  translate(tokens: SentenceInput): Decoded;
  parameters(): Tensors;
  setParameters(values: Record<string, MatrixInput>): void;
  gradients(batch: Pairs): { loss: number; accuracy: number; gradients: Tensors };
  stepOn(batch: Pairs): { loss: number; accuracy: number; step: number };
  /** Frees it; later calls throw. */
  delete(): void;
}
