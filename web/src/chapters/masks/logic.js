// The Masks chapter's logic: which cells of the engine's result leak, the custom mask grid the
// learner draws, and the causal step's choice, example and verdict. Pure: no DOM, no engine calls.
// Matrices are the engine's { rows, cols, data } (row-major).

import { PRESETS, presetPatch } from '../../lesson/example.js';

// Entry (i, j) of a matrix.
export const at = (m, i, j) => m.data[i * m.cols + j];

// Cells the mask blocks but that still get weight (> 0 or NaN): the 0-fill leak.
export function leakedCells(result) {
  const { mask, weights } = result;
  const cells = [];
  for (let i = 0; i < mask.rows; i++) {
    for (let j = 0; j < mask.cols; j++) {
      const w = at(weights, i, j);
      if (at(mask, i, j) === 0 && (w > 0 || Number.isNaN(w))) cells.push([i, j]);
    }
  }
  return cells;
}

// Cells above the diagonal (key after query) that get weight: the future leak.
export function futureCells(result) {
  const { weights } = result;
  const cells = [];
  for (let i = 0; i < weights.rows; i++) {
    for (let j = i + 1; j < weights.cols; j++) {
      const w = at(weights, i, j);
      if (w > 0 || Number.isNaN(w)) cells.push([i, j]);
    }
  }
  return cells;
}

// The largest weight among `cells` (0 when there are none).
export function maxWeightOf(result, cells) {
  let m = 0;
  for (const [i, j] of cells) m = Math.max(m, at(result.weights, i, j));
  return m;
}

// The custom mask grid for (nq, nk): the state's (a copy), else all ones.
export function customGrid(state, nq, nk) {
  const c = state.customMask;
  if (c.length === nq && c.every((r) => r.length === nk)) return c.map((r) => r.slice());
  return Array.from({ length: nq }, () => Array(nk).fill(1));
}

// All ones -> [] so the link stays short and "no custom mask" stays the default.
export function customPatch(grid) {
  return { customMask: grid.every((r) => r.every((x) => x !== 0)) ? [] : grid };
}

// ---- the causal step ------------------------------------------------------------------------------

// The causal mask as one choice: 'none', 'causal' or 'reverse' ('both' only from a link that sets
// both fields: the page offers one at a time).
export function causalMode(state) {
  if (state.causal && state.reverseCausal) return 'both';
  return state.causal ? 'causal' : state.reverseCausal ? 'reverse' : 'none';
}

// The patch for a causal choice: at most one of the two masks on.
export const causalModePatch = (mode) => ({ causal: mode === 'causal', reverseCausal: mode === 'reverse' });

// The example a causal mask is shown on: one sequence attending to itself.
export const SELF_EXAMPLE = 'cat-chase';

// The state the causal step draws: the chapter's, when its example is self-attention; else that of
// the self-attention example, with the same causal choice, fill and softmax (over cross-attention
// queries and keys do not share one order, so "the future" means nothing).
export function causalStepState(state) {
  if (PRESETS[state.preset].kind !== 'cross') return state;
  return { ...state, ...presetPatch(SELF_EXAMPLE), causal: state.causal, reverseCausal: state.reverseCausal };
}

// What the causal step says: { cls: 'info' | 'good' | 'bad', keys: [string keys] } for the causal
// choice, the number of cells above the diagonal that get weight and the fill.
export function causalVerdict(mode, future, fill) {
  if (mode === 'none') return { cls: 'info', keys: ['noCausal'] };
  if (mode === 'both') return { cls: 'bad', keys: ['bothCausal'] };
  if (!future) return { cls: 'good', keys: ['upperZero'] };
  return { cls: 'bad', keys: mode === 'causal' && fill === 'zero' ? ['futureLeak', 'fillLeak'] : ['futureLeak'] };
}
