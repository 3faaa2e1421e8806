// q·k as geometry: one query and four keys in two dimensions (d = 2), the example the geometry
// figure starts from (views/geometry.js draws it, chapters/kit/geometry.js wires it), where the
// learner's arrows live in the hash, and the engine call on them. Pure: no DOM. Every score,
// scaled score and weight comes from engine.attend; this file only prepares the inputs.

// The running example in two of its features: writing 猫, the query looks for an animal; the keys
// are the English words it reads. Axis 1 is "animal", axis 2 "food" (the cat-fish preset's
// features 1 and 3). Authored so the closest key in direction wins over the longest one.
export const GEO_TOKENS = ['猫', 'The', 'cat', 'eats', 'fish']; // the query first, then the keys
export const GEO_AXES = { en: ['animal', 'food'], zh: ['动物', '食物'] };
// (5, 2): q, then k_1 … k_4
export const GEO_START = [
  [2, 0.5],
  [-0.6, -0.4],
  [1.6, 0.2],
  [-0.2, 1],
  [0.8, 1.6],
];
const GEO_DIM = 2;
export const GEO_LIMIT = 2.5; // each coordinate within [−2.5, 2.5]
export const GEO_STEP = 0.1; // an arrow key moves a tip by this much (Shift: GEO_BIG_STEP); a drag snaps to it
export const GEO_BIG_STEP = 0.5;

// The hash field a chapter declares to keep its arrows (rows q, k_1 … k_4); [] = GEO_START.
export const GEO_FIELD = { type: 'matrix', default: [], maxRows: GEO_START.length, maxCols: GEO_DIM };

// A coordinate within the plot, on the 0.1 grid when `snap` (a drag or an arrow key; a link's
// own numbers are kept as typed, only held within the plot).
const clamp = (x) => Math.min(GEO_LIMIT, Math.max(-GEO_LIMIT, x));
export const snapCoord = (x) => clamp(Math.round(x / GEO_STEP) / Math.round(1 / GEO_STEP)) || 0; // (no −0)

// The arrows for a state's grid: rows and columns the link leaves out come from GEO_START, and
// every coordinate is held within the plot.
export function arrowsOf(grid) {
  return GEO_START.map((row, i) => row.map((x, j) => clamp(Number.isFinite(grid?.[i]?.[j]) ? grid[i][j] : x)));
}

// The grid for the hash after arrow i moved to (x, y): [] when it is the example again (a short link).
export function movedGrid(arrows, i, [x, y]) {
  const next = arrows.map((row, k) => (k === i ? [snapCoord(x), snapCoord(y)] : row.slice()));
  return next.every((row, k) => row[0] === GEO_START[k][0] && row[1] === GEO_START[k][1]) ? [] : next;
}

// The query against the keys through the engine (scaled dot product, d = 2): the scores q·k,
// the scaled scores q·k/√2 and the softmax weights, one number per key.
export function attendArrows(engine, arrows) {
  const [q, ...keys] = arrows;
  const r = engine.attend({ query: [q], key: keys, value: keys, score: 'scaled-dot' });
  return {
    arrows,
    scores: Array.from(r.scores.data),
    scaled: Array.from(r.scaled.data),
    weights: Array.from(r.weights.data),
  };
}
