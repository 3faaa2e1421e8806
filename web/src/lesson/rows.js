// Rows of attention weights read in words (the pipeline and masks chapters).

// What a row of weights looks like: 'nan' (all NaN), 'nanOther' (some NaN), 'zero' (all 0),
// 'uniform' (all equal, to 1e-6) or 'other'.
export function rowKind(w) {
  if (w.some(Number.isNaN)) return w.every(Number.isNaN) ? 'nan' : 'nanOther';
  if (w.every((x) => x === 0)) return 'zero';
  if (w.every((x) => Math.abs(x - w[0]) <= 1e-6)) return 'uniform';
  return 'other';
}
