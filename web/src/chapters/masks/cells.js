// What the Masks chapter reads off the engine's result: which cells leak, and the custom mask
// grid the learner draws. Pure: no DOM, no engine calls. Matrices are the engine's
// { rows, cols, data } (row-major).

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
