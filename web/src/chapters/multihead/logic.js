// The multi-head chapter without the DOM (its layer's inputs and weights are ../../lesson/layer.js):
// the head counts and the cost of a layer, two heads built by hand (one looks at the
// previous token, one at the same word), and the per-head statistics of the "too many heads"
// step. Every attention number comes from engine.linear / engine.multiHead.

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

// ---- two heads built by hand --------------------------------------------------------------------

import { ROLE_SLOTS } from './meta.js';

export { ROLE_SLOTS }; // positions and distinct words the hand-built layer can tell apart

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
