// The pure logic of the score-functions, multi-head and position chapters
// (web/src/chapters/*.logic.js) against the engine and references written here.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine } from '../../web/src/engine.js';
import {
  SCORE_KINDS,
  scoreParams,
  allScores,
  argmaxRow,
  opCount,
  againstDot,
  unsettled,
} from '../../web/src/chapters/score-functions/logic.js';
import { timeSideBySide, spreadOf, withinNoise } from '../../web/src/lesson/timing.js';
import { layerWeights, tokenMatrix } from '../../web/src/lesson/layer.js';
import {
  headCounts,
  multiHeadOps,
  roleLayer,
  lookOf,
  wordIds,
  scoreSpread,
  distinctWinners,
} from '../../web/src/chapters/multihead/logic.js';
import {
  addPositions,
  sentenceLayer,
  permutationBetween,
  permutedDifference,
  ropeDots,
  ropeDot,
} from '../../web/src/chapters/position/logic.js';

let engine;
before(async () => {
  engine = await loadEngine({ simd: false });
});

const rows = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));

// ---- score functions ----------------------------------------------------------------------------

test('the four score functions run on the same inputs; dot needs d_q = d_k, additive and general do not', () => {
  const q = engine.randomMatrix({ rows: 3, cols: 3, seed: 1, stream: 1 });
  const k = engine.randomMatrix({ rows: 4, cols: 5, seed: 1, stream: 2 });
  const v = engine.randomMatrix({ rows: 4, cols: 2, seed: 1, stream: 3 });
  const params = scoreParams(engine, { dq: 3, dk: 5, hidden: 6, seed: 9 });
  const r = allScores(engine, { query: q, key: k, value: v }, params);
  assert.match(r.dot.error, /key: expected 3 columns/);
  assert.match(r['scaled-dot'].error, /key: expected 3 columns/);
  // additive against a double reference: vᵀ tanh(Wq q + Wk k)
  const [Q, K, Wq, Wk] = [q, k, params.additive.Wq, params.additive.Wk].map(rows);
  const vv = params.additive.v;
  const proj = (W, x) => W.map((w) => w.reduce((s, a, c) => s + a * x[c], 0));
  const S = Q.map((qi) =>
    K.map((kj) => {
      const a = proj(Wq, qi),
        b = proj(Wk, kj);
      return a.reduce((s, x, t) => s + vv[t] * Math.tanh(x + b[t]), 0);
    }),
  );
  rows(r.additive.scores).forEach((row, i) =>
    row.forEach((x, j) => assert.ok(Math.abs(x - S[i][j]) < 1e-5, `${i},${j}`)),
  );
  // general: q W kᵀ
  const W = rows(params.general.W);
  const G = Q.map((qi) => K.map((kj) => qi.reduce((s, a, c) => s + a * W[c].reduce((t, w, e) => t + w * kj[e], 0), 0)));
  rows(r.general.scores).forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(x - G[i][j]) < 1e-5)));
});

test('dot and scaled dot rank the keys alike; argmaxRow takes the first on ties', () => {
  const q = engine.randomMatrix({ rows: 5, cols: 4, seed: 2, stream: 1 });
  const k = engine.randomMatrix({ rows: 6, cols: 4, seed: 2, stream: 2 });
  const r = allScores(
    engine,
    { query: q, key: k, value: k },
    scoreParams(engine, { dq: 4, dk: 4, hidden: 4, seed: 2 }),
  );
  for (let i = 0; i < 5; i++) assert.equal(argmaxRow(r.dot.weights, i), argmaxRow(r['scaled-dot'].weights, i));
  assert.equal(argmaxRow({ rows: 1, cols: 3, data: [1, 2, 2] }, 0), 1);
  assert.deepEqual(SCORE_KINDS, ['additive', 'dot', 'scaled-dot', 'general']);
});

test('operation counts follow the shapes', () => {
  const shape = { nq: 3, nk: 4, dq: 5, dk: 5, hidden: 7 };
  assert.deepEqual(opCount('dot', shape), { mul: 60, add: 48, tanh: 0, div: 0 });
  assert.equal(opCount('scaled-dot', shape).div, 12);
  assert.equal(opCount('general', shape).mul, 3 * 5 * 5 + 12 * 5);
  assert.deepEqual(opCount('additive', shape), {
    mul: 3 * 7 * 5 + 4 * 7 * 5 + 12 * 7,
    add: 3 * 7 * 4 + 4 * 7 * 4 + 12 * 7 + 12 * 6,
    tanh: 84,
    div: 0,
  });
  assert.throws(() => opCount('cosine', shape), /unknown score kind/);
});

test('a cost ratio is settled only outside the noise and in the order the work counted allows', () => {
  // Timings made up here (no clock): the general score does the dot product's work and more, so
  // a run that times it faster says nothing (the page showed such a run as "× 0.9" before).
  const shape = { nq: 64, nk: 64, dq: 64, dk: 64, hidden: 64 };
  const ms = (median, spread) => ({ median, min: median - spread, max: median + spread });
  const costs = (general, dot, spread) => ({
    dot: { ms: ms(dot, spread), ops: opCount('dot', shape) },
    general: { ms: ms(general, spread), ops: opCount('general', shape) },
  });
  assert.deepEqual(againstDot('general', costs(2, 1, 0.1)), { ratio: 2, settled: true });
  assert.equal(againstDot('general', costs(1.5, 1, 0.3)).settled, false, 'ranges overlap');
  assert.deepEqual(againstDot('general', costs(0.5, 1, 0.1)), { ratio: 0.5, settled: false });
  assert.deepEqual(unsettled(costs(0.5, 1, 0.1)), ['general']);
  assert.deepEqual(unsettled(costs(2, 1, 0.1)), []);
});

test('timeSideBySide gives each function the median and spread of its rounds, taking turns', () => {
  let clock = 0;
  const calls = [];
  const cost = { a: 2, b: 5 };
  const fns = {
    a: () => {
      calls.push('a');
      clock += cost.a;
    },
    b: () => {
      calls.push('b');
      clock += cost.b;
    },
  };
  const ms = timeSideBySide(fns, { rounds: 3, minMs: 10, now: () => clock });
  assert.deepEqual(ms, { a: { median: 2, min: 2, max: 2 }, b: { median: 5, min: 5, max: 5 } });
  assert.deepEqual(calls.slice(0, 2), ['a', 'b'], 'warm-up calls each once');
  assert.ok(calls.indexOf('b', 2) < calls.lastIndexOf('a'), 'rounds alternate between the functions');
});

// A noisy clock: the rounds of a and b cost 2 or 3 ms and 2.5 or 4 ms in turn, so their spreads
// overlap (within the noise); c at 10 ms is apart from both.
test('timeSideBySide: the median and spread of noisy rounds; withinNoise when the spreads overlap', () => {
  let clock = 0;
  const costs = { a: [2, 3], b: [2.5, 4], c: [10, 10] };
  const turn = { a: 0, b: 0, c: 0 };
  const fns = Object.fromEntries(Object.keys(costs).map((k) => [k, () => (clock += costs[k][turn[k]++ % 2])]));
  const ms = timeSideBySide(fns, { rounds: 4, minMs: 1, now: () => clock });
  assert.deepEqual(ms.a, { median: 2.5, min: 2, max: 3 });
  assert.deepEqual(ms.b, { median: 3.25, min: 2.5, max: 4 });
  assert.equal(withinNoise(ms.a, ms.b), true);
  assert.equal(withinNoise(ms.a, ms.c), false);
  assert.deepEqual(spreadOf([5, 1, 3]), { median: 3, min: 1, max: 5 });
});

// ---- multi-head ---------------------------------------------------------------------------------

test('head counts divide d_model; the multiplications do not depend on h', () => {
  assert.deepEqual(headCounts(12), [1, 2, 3, 4, 6, 12]);
  assert.deepEqual(headCounts(768), [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64], '768 = 12 × 64, and at most 64 heads');
  assert.equal(multiHeadOps({ nq: 4, nk: 4, d: 8 }), 4 * 64 * 4 + 2 * 16 * 8);
  assert.throws(
    () =>
      engine.multiHead({
        query: tokenMatrix(engine, ['a', 'b'], 10, 1),
        key: tokenMatrix(engine, ['a', 'b'], 10, 1),
        value: tokenMatrix(engine, ['a', 'b'], 10, 1),
        heads: 3,
        ...layerWeights(engine, 10, 1),
      }),
    /not divisible by 3 heads/,
  );
});

test('the hand-built heads: head 1 looks at the previous token, head 2 at the same word', () => {
  const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
  assert.deepEqual(wordIds(tokens), [0, 1, 2, 3, 0, 4]);
  const L = roleLayer(engine, tokens, { strength: 8 });
  const r = engine.multiHead({ query: L.x, key: L.x, value: L.x, heads: 2, Wq: L.Wq, Wk: L.Wk, Wv: L.Wv, Wo: L.Wo });
  assert.equal(lookOf(r.heads[0].weights, 0, tokens), 'even', 'the first token has no previous one');
  for (let i = 1; i < tokens.length; i++) assert.equal(lookOf(r.heads[0].weights, i, tokens), 'prev', `token ${i}`);
  // head 2: 'cat' looks at itself; the second 'the' splits between both 'the' (first index wins)
  assert.equal(lookOf(r.heads[1].weights, 1, tokens), 'self');
  assert.equal(lookOf(r.heads[1].weights, 4, tokens), 'same');
  const w = rows(r.heads[1].weights)[4];
  assert.ok(Math.abs(w[0] - w[4]) < 1e-6 && w[0] > 0.4);
  // strength 0: every head spreads evenly; scrambling head 1 ends its previous-token pattern
  const flat = roleLayer(engine, tokens, { strength: 0 });
  const rf = engine.multiHead({
    query: flat.x,
    key: flat.x,
    value: flat.x,
    heads: 2,
    Wq: flat.Wq,
    Wk: flat.Wk,
    Wv: flat.Wv,
    Wo: flat.Wo,
  });
  assert.ok(
    rows(rf.heads[0].weights)
      .flat()
      .every((x) => Math.abs(x - 1 / 6) < 1e-6),
  );
  const br = roleLayer(engine, tokens, { strength: 8, broken: { prev: true }, seed: 3 });
  const rb = engine.multiHead({
    query: br.x,
    key: br.x,
    value: br.x,
    heads: 2,
    Wq: br.Wq,
    Wk: br.Wk,
    Wv: br.Wv,
    Wo: br.Wo,
  });
  const prevCount = tokens.slice(1).filter((_, k) => lookOf(rb.heads[0].weights, k + 1, tokens) === 'prev').length;
  assert.ok(prevCount < tokens.length - 1, `scrambled head 1 still looks back at ${prevCount} tokens`);
  assert.deepEqual(rows(rb.heads[1].weights), rows(r.heads[1].weights), 'head 2 is untouched');
  assert.throws(
    () =>
      roleLayer(
        engine,
        Array.from({ length: 9 }, (_, k) => `w${k}`),
        { strength: 1 },
      ),
    /at most 8/,
  );
});

test('too many heads: the spread stays near 1, at d_k = 1 at most two keys win', () => {
  const X = engine.randomMatrix({ rows: 8, cols: 64, seed: 4, stream: 400 });
  const W = layerWeights(engine, 64, 4);
  for (const h of [1, 8, 64]) {
    const r = engine.multiHead({ query: X, key: X, value: X, heads: h, ...W });
    const spread = scoreSpread(r);
    assert.ok(spread > 0.6 && spread < 1.5, `h = ${h}: spread ${spread}`);
    if (h === 64) assert.ok(distinctWinners(r) <= 2, 'rank 1: the largest or the smallest key wins');
  }
  // the spread is the standard deviation: check one head by hand
  const r = engine.multiHead({ query: X, key: X, value: X, heads: 1, ...W });
  const a = Array.from(r.heads[0].scaled.data);
  const mean = a.reduce((s, x) => s + x, 0) / a.length;
  assert.ok(Math.abs(scoreSpread(r) - Math.sqrt(a.reduce((s, x) => s + (x - mean) ** 2, 0) / a.length)) < 1e-12);
});

// ---- position --------------------------------------------------------------------------------------

test('addPositions: the engine adds the sinusoidal table', () => {
  const X = engine.randomMatrix({ rows: 5, cols: 6, seed: 5 });
  const { x, pe } = addPositions(engine, X);
  const want = rows(X).map((r, i) => r.map((v, c) => v + rows(pe)[i][c]));
  rows(x).forEach((r, i) => r.forEach((v, c) => assert.ok(Math.abs(v - want[i][c]) < 1e-6)));
  assert.equal(rows(pe)[0][1], 1, 'PE[0, 1] = cos 0');
});

test('我 爱 你 vs 你 爱 我: a permutation without positions, not with them', () => {
  assert.deepEqual(permutationBetween(['我', '爱', '你'], ['你', '爱', '我']), [2, 1, 0]);
  assert.deepEqual(permutationBetween(['a', 'b', 'a'], ['a', 'a', 'b']), [0, 2, 1]);
  assert.equal(permutationBetween(['a', 'b'], ['a', 'c']), null);
  assert.equal(permutationBetween(['a'], ['a', 'a']), null);
  const opts = { d: 8, seed: 42 };
  const A = sentenceLayer(engine, ['我', '爱', '你'], { ...opts, positions: false });
  const B = sentenceLayer(engine, ['你', '爱', '我'], { ...opts, positions: false });
  assert.equal(permutedDifference(A.scaled, B.scaled, [2, 1, 0]), 0);
  assert.ok(permutedDifference(A.output, B.output, [2, 1, 0], false) < 1e-6);
  const Ap = sentenceLayer(engine, ['我', '爱', '你'], { ...opts, positions: true });
  const Bp = sentenceLayer(engine, ['你', '爱', '我'], { ...opts, positions: true });
  assert.ok(permutedDifference(Ap.scaled, Bp.scaled, [2, 1, 0]) > 0.05);
});

test('RoPE: q_m · k_n from the engine depends only on m − n', () => {
  const q = Array.from(engine.randomMatrix({ rows: 1, cols: 8, seed: 6, stream: 0 }).data);
  const k = Array.from(engine.randomMatrix({ rows: 1, cols: 8, seed: 6, stream: 1 }).data);
  const S = ropeDots(engine, q, k, 12);
  const at = (m, n) => S.data[m * 12 + n];
  for (let m = 1; m < 12; m++) for (let n = 1; n < 12; n++) assert.ok(Math.abs(at(m, n) - at(m - 1, n - 1)) < 1e-4);
  assert.ok(Math.abs(ropeDot(engine, q, k, 5, 2) - ropeDot(engine, q, k, 905, 902)) < 1e-3);
  assert.ok(Math.abs(ropeDot(engine, q, k, 5, 2) - at(5, 2)) < 1e-5);
  assert.ok(Math.abs(at(5, 2) - at(5, 3)) > 1e-3);
});
