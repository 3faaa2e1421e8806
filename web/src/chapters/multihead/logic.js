// The multi-head chapter without the DOM (its layer's inputs and weights are ../../lesson/layer.js):
// each step's engine calls, the head counts and the cost of a layer, two heads built by hand (one
// looks at the previous token, one at the same word), and the per-head statistics of the "too
// many heads" step. Every attention number comes from engine.linear / engine.multiHead.

import { tokenMatrix, layerWeights } from '../../lesson/layer.js';
import { timeSideBySide } from '../../lesson/timing.js';
import { ROLE_SLOTS } from './meta.js';

export { ROLE_SLOTS }; // positions and distinct words the hand-built layer can tell apart

export const MANY_D = 64; // the too-many-heads step: d_model and tokens
export const MANY_N = 8;
export const COST_N = 128; // tokens of the timed layer
// Up to this d_model the heads step draws the d × d matrix W_o and times a layer for every h (a
// call then fits a frame); above it, up to MAX_D_MODEL, it draws the heads, the concat and the
// output and lists the multiplications only.
export const DRAWN_D = 64;

// The divisors of d that the engine accepts as head counts (1 … maxHeads).
export function headCounts(d, maxHeads = 64) {
  const out = [];
  for (let h = 1; h <= Math.min(d, maxHeads); h++) if (d % h === 0) out.push(h);
  return out;
}

// Multiplications of one multi-head layer: 3 input projections, QKᵀ and weights·V over all
// heads (h · n_q · n_k · d_k = n_q · n_k · d_model each), and W_o. The same for every h.
export function multiHeadOps({ nq, nk, d }) {
  return nq * d * d + 2 * nk * d * d + 2 * nq * nk * d + nq * d * d;
}

// ---- the steps' engine calls ------------------------------------------------------------------

// The projections step: X (and Y in cross-attention) through W_q, W_k, W_v, and the weights.
export function projections(engine, state) {
  const d = state.mhProjD;
  const cross = state.mhMode === 'cross';
  const X = tokenMatrix(engine, state.mhTokens, d, state.seed);
  const Y = cross ? tokenMatrix(engine, state.mhSource, d, state.seed) : X;
  const W = layerWeights(engine, d, state.seed);
  const Q = engine.linear({ x: X, W: W.Wq });
  const K = engine.linear({ x: Y, W: W.Wk });
  const V = engine.linear({ x: Y, W: W.Wv });
  const att = engine.attend({ query: Q, key: K, value: V });
  return { d, cross, X, Y, W, Q, K, V, weights: att.weights };
}

// The heads step: self-attention over the tokens with h heads, or the engine's refusal (error).
// The weights depend on d and the seed only: those of `last` (the step's last result) are kept
// when they match (at d_model = 768 drawing the four 768 × 768 matrices costs more than the layer).
export function headsLayer(engine, state, last) {
  const d = state.mhD;
  const tokens = state.mhTokens;
  const X = tokenMatrix(engine, tokens, d, state.seed);
  const W = last?.W && last.d === d && last.seed === state.seed ? last.W : layerWeights(engine, d, state.seed);
  let result = null;
  let error = null;
  try {
    result = engine.multiHead({ query: X, key: X, value: X, heads: state.mhH, ...W });
  } catch (e) {
    if (!e || e.name !== 'AttentionError') throw e;
    error = e.message;
  }
  return { d, seed: state.seed, tokens, W, result, error };
}

// One layer at n = COST_N for every head count that divides d: its multiplications, and with
// `timed` its time per call (timeSideBySide: { median, min, max } ms), measured side by side.
export function headCosts(engine, d, seed, timed) {
  const hs = headCounts(d);
  const mul = multiHeadOps({ nq: COST_N, nk: COST_N, d });
  if (!timed) return hs.map((hh) => ({ h: hh, dk: d / hh, mul }));
  const X = engine.randomMatrix({ rows: COST_N, cols: d, seed, stream: 300 });
  const W = layerWeights(engine, d, seed);
  const fns = Object.fromEntries(
    hs.map((hh) => [hh, () => engine.multiHead({ query: X, key: X, value: X, heads: hh, ...W })]),
  );
  const ms = timeSideBySide(fns, { rounds: 9, minMs: 10 });
  return hs.map((hh) => ({ h: hh, dk: d / hh, ms: ms[hh], mul }));
}

// The hand-built heads step: the two heads of roleLayer on the tokens.
export function roleHeads(engine, state) {
  const tokens = state.mhRoleTokens;
  const layer = roleLayer(engine, tokens, {
    strength: state.mhStrength,
    broken: { prev: state.mhBreakPrev, match: state.mhBreakMatch },
    seed: state.seed,
  });
  const result = engine.multiHead({
    query: layer.x,
    key: layer.x,
    value: layer.x,
    heads: 2,
    Wq: layer.Wq,
    Wk: layer.Wk,
    Wv: layer.Wv,
    Wo: layer.Wo,
  });
  return { tokens, result };
}

// The too-many-heads step: MANY_N random tokens of d_model = MANY_D through one layer for every
// head count, with each count's score spread, winning keys and mean entropy / ln n.
export function manyHeads(engine, seed) {
  const X = engine.randomMatrix({ rows: MANY_N, cols: MANY_D, seed, stream: 400 });
  const W = layerWeights(engine, MANY_D, seed);
  const rows = headCounts(MANY_D).map((hh) => {
    const r = engine.multiHead({ query: X, key: X, value: X, heads: hh, ...W });
    const entropy =
      r.heads.reduce((a, hd) => a + hd.entropy.reduce((x, y) => x + y, 0) / hd.entropy.length, 0) / r.heads.length;
    return {
      h: hh,
      dk: MANY_D / hh,
      spread: scoreSpread(r),
      winners: distinctWinners(r),
      entropy: entropy / Math.log(MANY_N),
      result: r,
    };
  });
  return { rows };
}

// ---- two heads built by hand --------------------------------------------------------------------

// Word ids by first appearance: ['the', 'cat', 'the'] -> [0, 1, 0].
export function wordIds(tokens) {
  const seen = new Map();
  return tokens.map((t) => {
    if (!seen.has(t)) seen.set(t, seen.size);
    return seen.get(t);
  });
}

// d_model = 16, two heads of d_k = 8. x_i = [one-hot of position i (8) | one-hot of word id (8)].
// Head 1 (columns 0–7): q_i = s · e_{i−1}, k_j = e_j, so the score is s where j = i − 1.
// Head 2 (columns 8–15): q_i = s · word(i), k_j = word(j), so the score is s where the words match.
// W_v = W_o = I: the output is the concatenation of the two heads' mixes of x.
// broken.prev / broken.match replace that head's W_q rows by draws from the engine (seed).
export function roleLayer(engine, tokens, { strength, broken = {}, seed = 1 }) {
  const n = tokens.length;
  const d = 2 * ROLE_SLOTS;
  const ids = wordIds(tokens);
  if (n > ROLE_SLOTS || Math.max(...ids) >= ROLE_SLOTS) throw new RangeError(`at most ${ROLE_SLOTS} tokens`);
  const x = Array.from({ length: n }, (_, i) => {
    const row = new Array(d).fill(0);
    row[i] = 1;
    row[ROLE_SLOTS + ids[i]] = 1;
    return row;
  });
  const zeros = () => Array.from({ length: d }, () => new Array(d).fill(0));
  const Wq = zeros(),
    Wk = zeros(),
    I = zeros();
  for (let r = 0; r < d; r++) I[r][r] = 1;
  for (let r = 0; r + 1 < ROLE_SLOTS; r++) Wq[r][r + 1] = strength; // position i -> query for i − 1
  for (let r = 0; r < ROLE_SLOTS; r++) Wk[r][r] = 1; // key: own position
  for (let r = 0; r < ROLE_SLOTS; r++) {
    Wq[ROLE_SLOTS + r][ROLE_SLOTS + r] = strength; // query: own word
    Wk[ROLE_SLOTS + r][ROLE_SLOTS + r] = 1; // key: own word
  }
  const scramble = (first, stream) => {
    const m = engine.randomMatrix({ rows: ROLE_SLOTS, cols: d, seed, stream, scale: strength || 1 });
    for (let r = 0; r < ROLE_SLOTS; r++) for (let c = 0; c < d; c++) Wq[first + r][c] = m.data[r * d + c];
  };
  if (broken.prev) scramble(0, 201);
  if (broken.match) scramble(ROLE_SLOTS, 202);
  return { x, Wq, Wk, Wv: I, Wo: I, heads: 2, d };
}

// Where a row of weights looks hardest, in words: 'prev' (the token before), 'self', 'same'
// (another place with the same word), 'first', 'even' (no weight above 1.5 / n), or 'other'.
export function lookOf(weights, i, tokens) {
  const n = weights.cols;
  const row = Array.from(weights.data.subarray(i * n, (i + 1) * n));
  const top = row.reduce((b, x, j) => (x > row[b] ? j : b), 0);
  if (row[top] <= 1.5 / n) return 'even';
  if (top === i - 1) return 'prev';
  if (top === i) return 'self';
  if (tokens[top] === tokens[i]) return 'same';
  if (top === 0) return 'first';
  return 'other';
}

// ---- too many heads -------------------------------------------------------------------------------

// Standard deviation of every head's scaled scores, averaged over the heads.
export function scoreSpread(result) {
  let total = 0;
  for (const head of result.heads) {
    const a = head.scaled.data;
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    total += Math.sqrt(a.reduce((s, x) => s + (x - mean) ** 2, 0) / a.length);
  }
  return total / result.heads.length;
}

// How many different keys win (largest weight) across the queries, averaged over the heads.
export function distinctWinners(result) {
  let total = 0;
  for (const head of result.heads) {
    const w = head.weights;
    const wins = new Set();
    for (let i = 0; i < w.rows; i++) {
      let best = 0;
      for (let j = 1; j < w.cols; j++) if (w.data[i * w.cols + j] > w.data[i * w.cols + best]) best = j;
      wins.add(best);
    }
    total += wins.size;
  }
  return total / result.heads.length;
}
