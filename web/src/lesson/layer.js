// The inputs and weights of one multi-head layer, drawn by the engine (the multi-head, position
// and practice chapters build their layers from these): each token carries its own drawn vector,
// and the four projections are seeded draws of the engine's RNG.

import { embedTokens } from './embeddings.js';
import { toMatrix } from './example.js';

// (rows, cols) weights drawn by the engine, scaled by 1/√cols (so x Wᵀ keeps unit variance).
function drawWeight(engine, rows, cols, seed, stream) {
  return engine.randomMatrix({ rows, cols, seed, stream, scale: 1 / Math.sqrt(cols) });
}

// Each token's drawn vector of size d (role 'x'): the same word gives the same row.
export function tokenMatrix(engine, tokens, d, seed) {
  return toMatrix(embedTokens(engine, { table: null, tokens, role: 'x', d, seed }).grid, tokens.length, d);
}

// The four projections of a multi-head layer (d_model × d_model, key and value sizes = d_model).
export function layerWeights(engine, d, seed) {
  return {
    Wq: drawWeight(engine, d, d, seed, 101),
    Wk: drawWeight(engine, d, d, seed, 102),
    Wv: drawWeight(engine, d, d, seed, 103),
    Wo: drawWeight(engine, d, d, seed, 104),
  };
}
