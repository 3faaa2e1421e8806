// Types of the playground's trainer (web/src/engine-train.js; README, "Training: the playground").
// tests/types/usage.ts exercises them and `tsc -p tests/types` checks them in npm test.

import type { LoadOptions, Matrix, MatrixInput, Memory } from './engine.js';

export type Task = 'previous-token' | 'reverse' | 'sort' | 'induction';
export type Position = 'learned' | 'sinusoidal' | 'none';

/** Loading, builds and a stopped module as loadEngine: one trainer engine per build. */
export function loadTrainEngine(options?: LoadOptions): Promise<TrainEngine>;

/** The trainer's option names. */
export const TRAINER_OPTIONS: readonly (keyof TrainerOptions)[];

export interface TrainChoices {
  readonly task: readonly Task[];
  readonly position: readonly Position[];
}

export interface TrainLimits {
  readonly maxLayers: number;
  readonly maxTrainHeads: number;
  readonly maxDModel: number;
  readonly maxBatch: number;
  readonly maxTrainSteps: number;
  readonly trainLength: number;
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

export interface Trainer {
  /** The options as given, with their defaults. */
  readonly config: Readonly<Required<TrainerOptions>>;
  readonly task: Readonly<{ vocab: number; separator: number; rule: string; length: number }>;
  /** n Adam steps on fresh batches: each batch's loss and accuracy before its update. */
  step(n?: number): { step: number; losses: Float32Array; accuracies: Float32Array };
  /** Loss and accuracy on the held-out batch. */
  evaluate(): { loss: number; accuracy: number };
  /** The task's fixed probe sequence. */
  probe(): Pass & { targets: Int32Array };
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
  readonly stopped: boolean;
  /** The caller owns the trainer and must delete() it. */
  trainer(options?: TrainerOptions): Trainer;
  /** This module's own wasm memory. */
  memory(): Memory;
}
