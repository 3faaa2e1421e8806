// The position chapter without the DOM: a sentence through one attention layer with or without
// sinusoidal encodings (the engine adds them), the permutation between two sentences, and RoPE's
// q_m · k_n for many (m, n). Every number comes from the engine.

import { tokenMatrix, layerWeights } from '../../lesson/layer.js';

// X + PE computed by the engine: linear([X | PE], [I | I]) = X + PE.   X: (n, d) -> (n, d)
export function addPositions(engine, X) {
  const n = X.rows,
    d = X.cols;
  const pe = engine.sinusoidal({ n, d });
  const both = new Float32Array(n * 2 * d);
  for (let i = 0; i < n; i++) {
    both.set(X.data.subarray(i * d, (i + 1) * d), i * 2 * d);
    both.set(pe.data.subarray(i * d, (i + 1) * d), i * 2 * d + d);
  }
  const W = new Float32Array(d * 2 * d);
  for (let r = 0; r < d; r++) {
    W[r * 2 * d + r] = 1;
    W[r * 2 * d + d + r] = 1;
  }
  return { x: engine.linear({ x: { rows: n, cols: 2 * d, data: both }, W: { rows: d, cols: 2 * d, data: W } }), pe };
}

// One self-attention layer (scaled dot, weights from the seed) over the tokens' vectors,
// with sinusoidal encodings added when `positions` is true.
export function sentenceLayer(engine, tokens, { d, seed, positions }) {
  const X = tokenMatrix(engine, tokens, d, seed);
  const input = positions ? addPositions(engine, X).x : X;
  const W = layerWeights(engine, d, seed);
  const Q = engine.linear({ x: input, W: W.Wq });
  const K = engine.linear({ x: input, W: W.Wk });
  const V = engine.linear({ x: input, W: W.Wv });
  return { input, ...engine.attend({ query: Q, key: K, value: V }) };
}

// perm with b[i] = a[perm[i]] (repeated words matched in order), or null when b is not a
// reordering of a.
export function permutationBetween(a, b) {
  if (a.length !== b.length) return null;
  const used = new Array(a.length).fill(false);
  const perm = [];
  for (const t of b) {
    const j = a.findIndex((x, k) => x === t && !used[k]);
    if (j < 0) return null;
    used[j] = true;
    perm.push(j);
  }
  return perm;
}

// The largest |B[i][j] − A[perm[i]][perm[j]]| of two square engine matrices (cols permuted
// too when `both`), or of rows only (B[i][c] − A[perm[i]][c]).
export function permutedDifference(A, B, perm, both = true) {
  let largest = 0;
  for (let i = 0; i < B.rows; i++) {
    for (let j = 0; j < B.cols; j++) {
      const a = A.data[perm[i] * A.cols + (both ? perm[j] : j)];
      largest = Math.max(largest, Math.abs(B.data[i * B.cols + j] - a));
    }
  }
  return largest;
}

// RoPE: q_m · k_n for positions m, n in 0 … count − 1, from the engine: rows of q rotated to
// positions 0 … count − 1, the same for k, then their dot products (attend with score 'dot').
// -> (count, count) engine matrix, entry (m, n) = q_m · k_n
export function ropeDots(engine, q, k, count) {
  const rep = (v) => ({
    rows: count,
    cols: v.length,
    data: Float32Array.from({ length: count * v.length }, (_, t) => v[t % v.length]),
  });
  const Qr = engine.rope({ x: rep(q) });
  const Kr = engine.rope({ x: rep(k) });
  return engine.attend({ query: Qr, key: Kr, value: Kr, score: 'dot' }).scores;
}

// q_m · k_n for one pair, from the engine.
export function ropeDot(engine, q, k, m, n) {
  const Qr = engine.rope({ x: [q], first: m });
  const Kr = engine.rope({ x: [k], first: n });
  return engine.attend({ query: Qr, key: Kr, value: Kr, score: 'dot' }).scores.data[0];
}
