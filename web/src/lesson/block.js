// The Transformer block's layers on the lesson's sentences: one encoder layer over the English
// tokens and one decoder layer over the Chinese tokens that attends to the encoder's output,
// d_model = 8, 2 heads, a hidden layer of 4 x 8 = 32, weights from the seed. Shared by the block
// chapter (its steps) and the practice chapter (the layer as code). Every number comes from the
// engine (transformerLayer, randomMatrix, sinusoidal); nothing here touches the DOM.

import { drawnRows } from './embeddings.js';

export const D_MODEL = 8;
export const HEADS = 2;
export const HIDDEN = 4 * D_MODEL;
const WEIGHT_STREAM = 7100; // the layers' weights: streams 7100, 7101, ...
const ALIGN_SCALE = 4; // the hand-set cross-attention: q_i · k_j ≈ 16 / √d_head for a pair
// the hand-set alignment: each Chinese word and the English word it translates
export const PAIRS = { 猫: 'cat', 吃: 'eats', 鱼: 'fish', 狗: 'dog', 喝: 'drinks', 水: 'water' };

// A token's vector of the embedding table (its own seeded draw) plus its sinusoidal position.
export function embed(engine, tokens, seed) {
  const n = tokens.length;
  const pe = engine.sinusoidal({ n, d: D_MODEL });
  const data = drawnRows(engine, { tokens, role: 'x', d: D_MODEL, seed }).data;
  for (let k = 0; k < n * D_MODEL; k++) data[k] += pe.data[k];
  return { rows: n, cols: D_MODEL, data };
}

// The weights of both layers, drawn from the seed (N(0, 1) / √fan_in, biases 0, gamma 1, beta 0).
export function layerWeights(engine, seed) {
  let stream = WEIGHT_STREAM;
  const draw = (rows, cols) => engine.randomMatrix({ rows, cols, seed, stream: stream++, scale: 1 / Math.sqrt(cols) });
  const attention = () => ({
    Wq: draw(D_MODEL, D_MODEL),
    Wk: draw(D_MODEL, D_MODEL),
    Wv: draw(D_MODEL, D_MODEL),
    Wo: draw(D_MODEL, D_MODEL),
  });
  const ff = () => ({ W1: draw(HIDDEN, D_MODEL), W2: draw(D_MODEL, HIDDEN) });
  const norm = () => ({ gamma: new Array(D_MODEL).fill(1), beta: new Array(D_MODEL).fill(0) });
  return {
    encoder: { selfAttention: attention(), ff: ff(), norms: [norm(), norm()] },
    decoder: { selfAttention: attention(), crossAttention: attention(), ff: ff(), norms: [norm(), norm(), norm()] },
  };
}

export const unit = (row) => {
  const len = Math.hypot(...row) || 1;
  return row.map((v) => v / len);
};
export const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));

// The hand-set cross-attention: row r of Wq is the r-th Chinese word's stream (as it reaches
// the cross-attention), row r of Wk its English word's row of the memory, both of length
// ALIGN_SCALE: q_i · k_j is large exactly when i and j are a pair. Only head 1's rows are set
// (head 2's stay 0, so it spreads its weight evenly); Wv and Wo stay as drawn.
export function alignedCross(cross, queries, memory, target, source) {
  const wq = new Float32Array(D_MODEL * D_MODEL);
  const wk = new Float32Array(D_MODEL * D_MODEL);
  let r = 0;
  target.forEach((zh, i) => {
    const j = source.indexOf(PAIRS[zh]);
    if (j < 0 || r >= D_MODEL / HEADS) return;
    unit(rowOf(queries, i)).forEach((v, c) => (wq[r * D_MODEL + c] = v * ALIGN_SCALE));
    unit(rowOf(memory, j)).forEach((v, c) => (wk[r * D_MODEL + c] = v * ALIGN_SCALE));
    r++;
  });
  return {
    ...cross,
    Wq: { rows: D_MODEL, cols: D_MODEL, data: wq },
    Wk: { rows: D_MODEL, cols: D_MODEL, data: wk },
  };
}

// Both layers on the state's sentences: { x, y, encoder, decoder, args } (y: the decoder's
// input; args: the transformerLayer arguments of each, { encoder, decoder }).
export function runBlock(engine, state, overrides = {}) {
  const s = { ...state, ...overrides };
  const w = layerWeights(engine, s.seed);
  const options = {
    heads: HEADS,
    normFirst: s.blNormFirst,
    activation: s.blAct,
    residual: s.blResidual,
    layerNorm: s.blNorm,
  };
  const x = embed(engine, s.blSource, s.seed);
  const y = embed(engine, s.blTarget, s.seed);
  const encoderArgs = { kind: 'encoder', x, ...w.encoder, ...options };
  const encoder = engine.transformerLayer(encoderArgs);
  let decoderArgs = { kind: 'decoder', x: y, memory: encoder.output, ...w.decoder, ...options };
  let decoder = engine.transformerLayer(decoderArgs);
  if (s.blAligned) {
    // the stream that reaches the cross-attention: after the first norm (post-norm), or the
    // second norm's output (pre-norm)
    const queries = s.blNormFirst ? decoder.normed[1].output : decoder.normed[0].output;
    const cross = alignedCross(w.decoder.crossAttention, queries, encoder.output, s.blTarget, s.blSource);
    decoderArgs = { ...decoderArgs, crossAttention: cross };
    decoder = engine.transformerLayer(decoderArgs);
  }
  return { x, y, encoder, decoder, args: { encoder: encoderArgs, decoder: decoderArgs } };
}
