// The long-sequences chapter without the DOM: the inputs of the measured runs, the sweep's sizes,
// where two measured series cross, the online softmax of one query read from the engine's trace,
// the mask patterns counted from the engine's scores, and the memory growth the sweep measured.
// Every number comes from the engine (randomMatrix, flashTrace) or from a measurement; this file
// only reads, counts and compares them.

export const D = 64; // head size of the measured runs
export const TRACE_D = 8; // the tiling animation's d (TRACE_N queries and keys)
export const PATTERN_BLOCK = 8; // the mask patterns' tiles
export const METHODS = ['naive', 'flash', 'window']; // the single runs
export const SWEEP_METHODS = ['naive', 'flash', 'window', 'linear'];
export const SWEEP_FROM = 64;
// The sweep a step of SWEEP_STEPS starts by itself when it opens with nothing measured: n = 64
// … AUTO_TO (a second or so); the learner extends it with "Sweep n".
export const AUTO_TO = 512;
export const SWEEP_STEPS = ['cost', 'when'];
export const REPEATS = 3; // runs per point up to REPEAT_UP_TO, their median plotted
export const REPEAT_UP_TO = 1024;

export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// (rows, cols) from the engine's RNG, 2048 rows at a time (randomMatrix's row limit).
export function randomRows(engine, rows, cols, seed, stream) {
  const data = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r += 2048) {
    const part = engine.randomMatrix({ rows: Math.min(2048, rows - r), cols, seed, stream: stream * 64 + r / 2048 });
    data.set(part.data, r * cols);
  }
  return { rows, cols, data };
}

// The query, key and value of a measured run at length n.
export const runInputs = (engine, n, seed) => ({
  query: randomRows(engine, n, D, seed, 1),
  key: randomRows(engine, n, D, seed, 2),
  value: randomRows(engine, n, D, seed, 3),
});

// The engine's options for a mask pattern of width w.
export const patternOptions = (p, w) =>
  ({
    full: {},
    causal: { causal: true },
    window: { window: w },
    stride: { stride: Math.max(1, w) },
    'causal-window': { causal: true, window: w },
  })[p];

// n = 64, 128, … up to `to`.
export function sweepSizes(to) {
  const sizes = [];
  for (let n = SWEEP_FROM; n <= to; n *= 2) sizes.push(n);
  return sizes;
}

// Where series a crosses series b (points { x, y } on the same xs), interpolated in log–log
// between the two measured sizes around it; null when one stays above the other.
export function crossover(a, b) {
  const at = (pts, x) => pts.find((p) => p.x === x)?.y;
  const xs = a.map((p) => p.x).filter((x) => at(b, x) > 0 && at(a, x) > 0);
  for (let k = 1; k < xs.length; k++) {
    const d0 = Math.log(at(a, xs[k - 1]) / at(b, xs[k - 1]));
    const d1 = Math.log(at(a, xs[k]) / at(b, xs[k]));
    if (d0 === 0) return xs[k - 1];
    if (d0 < 0 !== d1 < 0 || d1 === 0) {
      const t = d0 / (d0 - d1);
      return Math.exp(Math.log(xs[k - 1]) + t * (Math.log(xs[k]) - Math.log(xs[k - 1])));
    }
  }
  return null;
}

// ---- the sweep's record (c.kept.sweep) ---------------------------------------------------------

// A sweep about to run: its settings, the points and errors measured so far, and where it is
// (status 'running' | 'done' | 'stopped' | 'failed'; progress: the run under way: runs.js recordedRun).
export const newSweep = ({ sizes, w, workers, seed, auto }) => ({
  sizes,
  w,
  workers,
  seed,
  auto,
  d: D,
  points: [],
  errors: [],
  status: 'running',
  progress: null,
  at: null,
});

// The sizes a sweep has still to measure: those without linear attention's error yet (the last
// thing measured at each n). The partial points of the first of them are dropped, so a sweep
// stopped half way through an n (the chapter mounted again) measures that n again whole.
export function resumeSweep(sw) {
  const left = sw.sizes.filter((n) => !sw.errors.some((e) => e.n === n));
  sw.points = sw.points.filter((p) => !left.includes(p.n));
  return left;
}

// Whether the sweep so far has a measured point to draw.
export const sweepHasPoints = (sw) => !!sw && sw.points.some((p) => !p.refused);

// ---- the online softmax of one query ------------------------------------------------------------

// Query i's row of the engine's flash trace, block by block: the keys of the block, its largest
// score, the running max m, the factor exp(m_old − m_new) its sum was rescaled by (0 before the
// first block: nothing to carry) and the running sum l; carried = the old sum after rescaling.
export function traceRow(trace, i) {
  const at = (name, blk) => trace[name].data[blk * trace[name].cols + i];
  const n = trace.scores.cols;
  const rows = [];
  for (let blk = 0; blk < trace.blocks; blk++) {
    const l = at('runningSum', blk);
    const rescale = blk === 0 ? 0 : at('rescale', blk);
    const carried = blk === 0 ? 0 : rescale * rows[blk - 1].l;
    rows.push({
      block: blk,
      j0: blk * trace.blockSize,
      j1: Math.min(n, (blk + 1) * trace.blockSize) - 1,
      blockMax: at('blockMax', blk),
      m: at('runningMax', blk),
      rescale,
      l,
      carried,
    });
  }
  return rows;
}

// ---- the mask patterns -------------------------------------------------------------------------

// The cells a pattern lets attend (1) or blocks (0), read from the engine's trace: its scores
// are −∞ exactly where its mask blocks. With the cells attended and the tiles skipped whole
// (the trace's skipped entries: one per key block and query; a tile's first query speaks for it).
export function patternCounts(trace) {
  const n = trace.scores.rows;
  const allowed = { rows: n, cols: n, data: trace.scores.data.map((x) => (x === -Infinity ? 0 : 1)) };
  let count = 0;
  for (const x of allowed.data) count += x;
  const b = trace.blockSize;
  let skipped = 0;
  for (let kb = 0; kb < trace.blocks; kb++) for (let q = 0; q < n; q += b) skipped += trace.skipped.data[kb * n + q];
  return { allowed, count, cells: n * n, skipped, tiles: trace.blocks * Math.ceil(n / b) };
}

// ---- the memory question ----------------------------------------------------------------------

// How the naive run's memory grew when n doubled, as the sweep measured it (the bytes it held for
// its scores at the two largest sizes measured): { n1, b1, n2, b2, ratio, answer } where answer
// is the question's option nearest the ratio ('2' or '4'); null before two sizes are measured.
export function memoryGrowth(sw) {
  const naive = (sw?.points || []).filter((p) => p.method === 'naive' && !p.refused);
  for (let k = naive.length - 1; k > 0; k--) {
    const [a, b] = [naive[k - 1], naive[k]];
    if (b.n !== 2 * a.n) continue;
    const ratio = b.bytes / a.bytes;
    return {
      n1: a.n,
      b1: a.bytes,
      n2: b.n,
      b2: b.bytes,
      ratio,
      answer: Math.abs(ratio - 4) < Math.abs(ratio - 2) ? '4' : '2',
    };
  }
  return null;
}
