// The score-functions chapter without the DOM: the four score functions run by the engine on
// the same Q and K, their learned parameters drawn from the engine's RNG, the operation counts
// of each (counted from the shapes), and timing of engine calls.

import { withinNoise } from '../../lesson/timing.js';

export const SCORE_KINDS = ['additive', 'dot', 'scaled-dot', 'general'];

// Learned parameters of the additive and general scores, drawn by the engine:
// additive Wq (h, d_q), Wk (h, d_k), v (h); general W (d_q, d_k). Scaled by 1/√(fan-in).
export function scoreParams(engine, { dq, dk, hidden, seed }) {
  const draw = (rows, cols, stream) => engine.randomMatrix({ rows, cols, seed, stream, scale: 1 / Math.sqrt(cols) });
  const v = draw(1, hidden, 12);
  return {
    additive: { Wq: draw(hidden, dq, 10), Wk: draw(hidden, dk, 11), v: Array.from(v.data) },
    general: { W: draw(dq, dk, 13) },
  };
}

// engine.attend with one score function on the same inputs; params from scoreParams.
export function attendWith(engine, kind, { query, key, value }, params) {
  const args = { query, key, value, score: kind };
  if (kind === 'additive') args.additive = params.additive;
  if (kind === 'general') args.general = params.general;
  return engine.attend(args);
}

// All four at once: { additive, dot, 'scaled-dot', general } -> attend() result, or
// { error } with the engine's message when it refuses (dot needs d_q = d_k).
export function allScores(engine, inputs, params) {
  const out = {};
  for (const kind of SCORE_KINDS) {
    try {
      out[kind] = attendWith(engine, kind, inputs, params);
    } catch (e) {
      if (!e || e.name !== 'AttentionError') throw e;
      out[kind] = { error: e.message };
    }
  }
  return out;
}

// The column index of the largest value of row i of an engine matrix (the first on ties).
export function argmaxRow(m, i) {
  let best = 0;
  for (let j = 1; j < m.cols; j++) if (m.data[i * m.cols + j] > m.data[i * m.cols + best]) best = j;
  return best;
}

// Arithmetic each score function does for n_q queries, n_k keys, sizes d_q and d_k and hidden
// size h (additive): { mul: multiplications, add: additions, tanh: tanh evaluations, div }.
export function opCount(kind, { nq, nk, dq, dk, hidden }) {
  const pairs = nq * nk;
  switch (kind) {
    case 'dot':
      return { mul: pairs * dk, add: pairs * (dk - 1), tanh: 0, div: 0 };
    case 'scaled-dot':
      return { mul: pairs * dk, add: pairs * (dk - 1), tanh: 0, div: pairs };
    case 'general': // (Q W): n_q·d_q·d_k, then (QW)·k: n_q·n_k·d_k
      return { mul: nq * dq * dk + pairs * dk, add: nq * (dq - 1) * dk + pairs * (dk - 1), tanh: 0, div: 0 };
    case 'additive': // W_q q once per query, W_k k once per key; per pair: h additions, h tanh, vᵀ(·)
      return {
        mul: nq * hidden * dq + nk * hidden * dk + pairs * hidden,
        add: nq * hidden * (dq - 1) + nk * hidden * (dk - 1) + pairs * hidden + pairs * (hidden - 1),
        tanh: pairs * hidden,
        div: 0,
      };
    default:
      throw new Error(`unknown score kind ${kind}`);
  }
}

// Does a (an opCount) do at least b's work in every kind of operation, and more in one?
function moreWork(a, b) {
  const kinds = ['mul', 'add', 'tanh', 'div'];
  return kinds.every((k) => a[k] >= b[k]) && kinds.some((k) => a[k] > b[k]);
}

// A score function's measured time against the dot product's, from costs ({ kind: { ms: { median,
// min, max }, ops } }): { ratio, settled }. Settled only when the two ranges of rounds do not
// overlap and the order agrees with the work counted: the general score does all of the dot
// product's work and more (Q·W first), so a run that times it faster is noise of the device.
export function againstDot(kind, costs) {
  const a = costs[kind],
    dot = costs.dot;
  const ratio = a.ms.median / dot.ms.median;
  if (kind === 'dot') return { ratio, settled: true };
  const contradicts = ratio < 1 && moreWork(a.ops, dot.ops);
  return { ratio, settled: !withinNoise(a.ms, dot.ms) && !contradicts };
}

// The score functions whose time this run does not rank against the dot product's (againstDot).
export const unsettled = (costs) => Object.keys(costs).filter((kind) => !againstDot(kind, costs).settled);
