// Independent references for the engine's tests: the tests' seeded generator (re-exported),
// double-precision plain-loop versions of every computation, and float32-vs-double comparison.
// Nothing here calls the engine.
import assert from 'node:assert/strict';

// float32 result against a double reference: |got - want| <= ABS + REL * |want|
export const ABS = 2e-5;
export const REL = 1e-4;

// ---- test inputs: the tests' seeded generator (tests/support/random.js) ------------------------

export { mulberry32, randomRows } from '../support/random.js';

export const toRows = (m) =>
  Array.from({ length: m.rows }, (_, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols)));

// ---- double-precision references ---------------------------------------------------------------

export const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
export const matmulT = (A, B) => A.map((a) => B.map((b) => dot(a, b))); // A Bᵀ
export const transpose = (A) => A[0].map((_, c) => A.map((row) => row[c]));
export const linearRef = (X, W, b) => X.map((x) => W.map((w, o) => dot(x, w) + (b ? b[o] : 0)));

// Row softmax; a row that is -Infinity everywhere gives zeros (the engine's documented rule).
export function softmaxRef(row) {
  const max = Math.max(...row);
  if (max === -Infinity) return row.map(() => 0);
  const e = row.map((x) => Math.exp(x - max));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}
export const entropyRef = (w) => -w.reduce((s, p) => s + (p > 0 ? p * Math.log(p) : 0), 0);

export const FILL = { 'neg-inf': -Infinity, 'large-negative': -1e9, zero: 0 };

export function attendRef({
  query,
  key,
  value,
  score = 'scaled-dot',
  mask,
  causal = false,
  reverseCausal = false,
  keyPadding,
  maskFill = 'neg-inf',
  temperature = 1,
  additive,
  general,
}) {
  const dk = key[0].length;
  let scores;
  if (score === 'dot' || score === 'scaled-dot') scores = matmulT(query, key);
  if (score === 'general')
    scores = query.map((q) =>
      key.map((k) =>
        dot(
          q,
          general.W.map((row) => dot(row, k)),
        ),
      ),
    );
  if (score === 'additive') {
    scores = query.map((q) =>
      key.map((k) =>
        additive.v.reduce((s, v, h) => s + v * Math.tanh(dot(additive.Wq[h], q) + dot(additive.Wk[h], k)), 0),
      ),
    );
  }
  const factor = (score === 'scaled-dot' ? 1 / Math.sqrt(dk) : 1) / temperature;
  const scaled = scores.map((row) => row.map((x) => x * factor));
  const allowed = scaled.map((row, i) =>
    row.map((_, j) =>
      (mask ? mask[i][j] === 1 || mask[i][j] === true : true) &&
      (!causal || j <= i) &&
      (!reverseCausal || j >= i) &&
      !(keyPadding && keyPadding[j])
        ? 1
        : 0,
    ),
  );
  const masked = scaled.map((row, i) => row.map((x, j) => (allowed[i][j] ? x : FILL[maskFill])));
  const weights = masked.map(softmaxRef);
  const output = weights.map((w) => transpose(value).map((col) => dot(w, col)));
  const fullyMaskedRows = allowed.flatMap((row, i) => (row.every((a) => a === 0) ? [i] : []));
  return { scores, scaled, mask: allowed, masked, weights, output, entropy: weights.map(entropyRef), fullyMaskedRows };
}

// torch.nn.MultiheadAttention (batch_first, no dropout): project, split, attend, concat, project.
export function multiHeadRef({ query, key, value, heads, Wq, Wk, Wv, Wo, bq, bk, bv, bo, mask, causal, keyPadding }) {
  const Q = linearRef(query, Wq, bq);
  const K = linearRef(key, Wk, bk);
  const V = linearRef(value, Wv, bv);
  const dHead = Q[0].length / heads;
  const cols = (M, h) => M.map((row) => row.slice(h * dHead, (h + 1) * dHead));
  const perHead = Array.from({ length: heads }, (_, h) =>
    attendRef({ query: cols(Q, h), key: cols(K, h), value: cols(V, h), mask, causal, keyPadding }),
  );
  const concat = query.map((_, i) => perHead.flatMap((r) => r.output[i]));
  return { heads: perHead, concat, output: linearRef(concat, Wo, bo) };
}

// The debugging lab's bugs (engine.attendWithBug), each as the bugged code computes it.
// The naive softmax exponentiates in float32 (Math.fround), so it overflows where float32 code does.
export function naiveSoftmaxRef(row) {
  const e = row.map((x) => Math.fround(Math.exp(x)));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

export function attendWithBugRef({ bug = 'none', dModel, ...example }) {
  let r;
  switch (bug) {
    case 'none':
      r = attendRef(example);
      break;
    case 'missing-scale':
      r = attendRef({ ...example, score: 'dot' });
      break;
    case 'zero-fill':
      r = attendRef({ ...example, maskFill: 'zero' });
      break;
    case 'reversed-causal':
      r = attendRef({ ...example, causal: false, reverseCausal: true });
      break;
    case 'scale-by-d-model':
      r = attendRef({ ...example, score: 'dot', temperature: Math.sqrt(dModel) });
      break;
    case 'no-max-subtraction':
      r = attendRef(example);
      r.weights = r.masked.map(naiveSoftmaxRef);
      break;
    case 'wrong-axis':
      r = attendRef(example);
      r.weights = transpose(transpose(r.masked).map(softmaxRef));
      break;
    case 'mask-after-softmax': {
      r = attendRef(example);
      const unmasked = attendRef({ query: example.query, key: example.key, value: example.value });
      r.masked = r.scaled;
      r.weights = unmasked.weights.map((row, i) => row.map((x, j) => (r.mask[i][j] ? x : 0)));
      break;
    }
    default:
      throw new Error(`no reference for the bug ${bug}`);
  }
  r.output = r.weights.map((w) => transpose(example.value).map((col) => dot(w, col)));
  r.entropy = r.weights.map(entropyRef);
  return r;
}

// engine.monitor: per row ln(allowed keys), row and column sums, weight on blocked keys; the
// logits' mean, standard deviation (÷ cells) and largest over the allowed cells.
export function monitorRef(logits, weights, mask) {
  const cells = logits.flatMap((row, i) => row.filter((_, j) => mask[i][j]));
  const mean = cells.reduce((s, x) => s + x, 0) / cells.length;
  const sum = (xs) => xs.reduce((s, x) => s + x, 0);
  return {
    maxEntropy: mask.map((row) => {
      const n = sum(row);
      return n > 1 ? Math.log(n) : 0;
    }),
    rowSums: weights.map(sum),
    colSums: transpose(weights).map(sum),
    leaked: weights.map((row, i) => sum(row.map((x, j) => (mask[i][j] ? 0 : x)))),
    cells: cells.length,
    logitMean: mean,
    logitStd: Math.sqrt(sum(cells.map((x) => (x - mean) ** 2)) / cells.length),
    logitMax: Math.max(...cells),
  };
}

// ---- comparing ---------------------------------------------------------------------------------

export function close(got, want) {
  if (want === -Infinity || want === Infinity) return got === want;
  return Math.abs(got - want) <= ABS + REL * Math.abs(want);
}

// got: { rows, cols, data: Float32Array }; want: nested rows (double).
export function expectMatrix(what, got, want) {
  assert.ok(got.data instanceof Float32Array, `${what}: data is a Float32Array`);
  assert.equal(got.rows, want.length, `${what}: rows`);
  assert.equal(got.cols, want[0].length, `${what}: cols`);
  assert.equal(got.data.length, got.rows * got.cols, `${what}: length`);
  const bad = [];
  want.forEach((row, r) =>
    row.forEach((w, c) => {
      const g = got.data[r * got.cols + c];
      if (!close(g, w)) bad.push(`(${r}, ${c}) got ${g}, want ${w}`);
    }),
  );
  assert.equal(bad.length, 0, `${what}: ${bad.length} entries differ: ${bad.slice(0, 4).join('; ')}`);
}

export function expectVector(what, got, want) {
  assert.equal(got.length, want.length, `${what}: length`);
  want.forEach((w, i) => assert.ok(close(got[i], w), `${what}[${i}]: got ${got[i]}, want ${w}`));
}

export function expectAttend(what, got, want) {
  for (const stage of ['scores', 'scaled', 'mask', 'masked', 'weights', 'output']) {
    expectMatrix(`${what}.${stage}`, got[stage], want[stage]);
  }
  assert.ok(got.entropy instanceof Float32Array, `${what}.entropy is a Float32Array`);
  expectVector(`${what}.entropy`, got.entropy, want.entropy);
  assert.deepEqual(got.fullyMaskedRows, want.fullyMaskedRows, `${what}.fullyMaskedRows`);
}
