// Tokens carry their vectors: the embedding table (web/src/embeddings.js) and the worked
// example's inputs (web/src/example.js) under renaming, reordering and adding tokens.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine } from '../../web/src/engine.js';
import { tokenHash, tokenStream, handMadeTable, tokenVector, embedTokens } from '../../web/src/lesson/embeddings.js';
import { EXAMPLE_SHAPE, PRESETS, buildInputs, presetPatch, runExample, toGrid } from '../../web/src/lesson/example.js';
import { buildSchema, defaults } from '../../web/src/hosts/state.js';

let engine;
before(async () => {
  engine = await loadEngine({ simd: false });
});

const baseState = (patch) => ({ ...defaults(buildSchema([], EXAMPLE_SHAPE)), ...patch });
const chase = (patch) => baseState({ ...presetPatch('cat-chase'), ...patch });

// FNV-1a 32-bit known values (the published test vectors of the algorithm).
test('tokenHash is FNV-1a over the UTF-8 bytes', () => {
  assert.equal(tokenHash(''), 0x811c9dc5);
  assert.equal(tokenHash('a'), 0xe40c292c);
  assert.equal(tokenHash('foobar'), 0xbf9cf968);
  // 猫 is three UTF-8 bytes: e7 8c ab
  let h = 0x811c9dc5;
  for (const b of [0xe7, 0x8c, 0xab]) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  assert.equal(tokenHash('猫'), h);
  assert.notEqual(tokenStream('q', '猫'), tokenStream('k', '猫'));
});

test('the hand-made table holds the preset vectors under their tokens', () => {
  const t = handMadeTable(PRESETS['cat-chase']);
  assert.deepEqual(t.q.get('追'), PRESETS['cat-chase'].Q[1]);
  assert.deepEqual(t.k.get('老鼠'), PRESETS['cat-chase'].K[2]);
  assert.deepEqual(t.v.get('猫'), PRESETS['cat-chase'].V[0]);
  const cross = handMadeTable(PRESETS['cat-fish']);
  assert.deepEqual(cross.q.get('鱼'), PRESETS['cat-fish'].Q[2]);
  assert.equal(cross.q.has('fish'), false, 'keys have no Query vector in a cross preset');
  assert.deepEqual(cross.v.get('fish'), PRESETS['cat-fish'].V[3]);
  assert.equal(handMadeTable(PRESETS.random).q.size, 0);
});

test('an unknown token gets the engine draw of its own stream, the same every time', () => {
  const table = handMadeTable(PRESETS['cat-chase']);
  const a = tokenVector(engine, { table, token: '狗', role: 'k', d: 4, seed: 42 });
  const b = tokenVector(engine, { table, token: '狗', role: 'k', d: 4, seed: 42 });
  assert.equal(a.source, 'drawn');
  assert.deepEqual(a.vector, b.vector);
  const direct = engine.randomMatrix({ rows: 1, cols: 4, seed: 42, stream: tokenStream('k', '狗') });
  assert.deepEqual(a.vector, Array.from(direct.data));
  assert.ok(
    a.vector.some((x) => x !== 0),
    'a drawn vector is not zeros',
  );
  const other = tokenVector(engine, { table, token: '鸟', role: 'k', d: 4, seed: 42 });
  assert.notDeepEqual(other.vector, a.vector);
  const hand = tokenVector(engine, { table, token: '猫', role: 'k', d: 6, seed: 42 });
  assert.equal(hand.source, 'hand');
  assert.deepEqual(hand.vector, [1, 0, 0, 1, 0, 0], 'hand-made vectors are zero-padded to d');
  const rounded = tokenVector(engine, { table, token: '狗', role: 'k', d: 4, seed: 42, round: 2 });
  assert.deepEqual(
    rounded.vector,
    a.vector.map((x) => Number(x.toFixed(2))),
  );
});

test('embedTokens: a repeated word gets the same vector at both places', () => {
  const { grid, sources } = embedTokens(engine, {
    table: null,
    tokens: ['the', 'cat', 'the'],
    role: 'q',
    d: 5,
    seed: 1,
  });
  assert.deepEqual(grid[0], grid[2]);
  assert.notDeepEqual(grid[0], grid[1]);
  assert.deepEqual(sources, ['drawn', 'drawn', 'drawn']);
});

test('猫 追 老鼠 -> 老鼠 追 猫 permutes the rows of Q, K and V', () => {
  const a = buildInputs(engine, chase({}));
  const b = buildInputs(engine, chase({ queryTokens: ['老鼠', '追', '猫'], keyTokens: ['老鼠', '追', '猫'] }));
  const perm = [2, 1, 0];
  for (const m of ['query', 'key', 'value']) {
    const ga = toGrid(a[m]);
    const gb = toGrid(b[m]);
    perm.forEach((src, i) => assert.deepEqual(gb[i], ga[src], `${m} row ${i}`));
  }
  assert.deepEqual(a.sources, { query: ['hand', 'hand', 'hand'], key: ['hand', 'hand', 'hand'] });
});

test('reordering permutes the scores exactly and the outputs to rounding (no position in the example)', () => {
  const a = runExample(engine, chase({})).result;
  const b = runExample(engine, chase({ queryTokens: ['追', '老鼠', '猫'], keyTokens: ['追', '老鼠', '猫'] })).result;
  const perm = [1, 2, 0]; // new position i holds old token perm[i]
  const sa = toGrid(a.scores),
    sb = toGrid(b.scores);
  const oa = toGrid(a.output),
    ob = toGrid(b.output);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) assert.equal(sb[i][j], sa[perm[i]][perm[j]], `score ${i},${j}`);
    // the weighted sum adds the keys in another order: equal to float32 rounding
    ob[i].forEach((x, c) =>
      assert.ok(Math.abs(x - oa[perm[i]][c]) <= 1e-6, `output ${i},${c}: ${x} vs ${oa[perm[i]][c]}`),
    );
  }
});

test('renaming a token gives it its own vector; adding one draws a vector, not zeros', () => {
  const a = buildInputs(engine, chase({}));
  const renamed = buildInputs(engine, chase({ queryTokens: ['狗', '追', '老鼠'], keyTokens: ['狗', '追', '老鼠'] }));
  assert.notDeepEqual(toGrid(renamed.key)[0], toGrid(a.key)[0]);
  assert.deepEqual(toGrid(renamed.key).slice(1), toGrid(a.key).slice(1));
  assert.deepEqual(renamed.sources.key, ['drawn', 'hand', 'hand']);

  const added = buildInputs(
    engine,
    chase({ queryTokens: ['猫', '追', '老鼠', '狗'], keyTokens: ['猫', '追', '老鼠', '狗'] }),
  );
  const row = toGrid(added.value)[3];
  assert.ok(
    row.some((x) => x !== 0),
    'the added token has a non-zero Value',
  );
  assert.deepEqual(toGrid(added.value).slice(0, 3), toGrid(a.value));
  // the drawn starting point is the engine draw rounded to 2 decimals
  const draw = engine.randomMatrix({ rows: 1, cols: 4, seed: 42, stream: tokenStream('v', '狗') });
  assert.deepEqual(
    row,
    Array.from(draw.data).map((x) => Math.fround(Number(x.toFixed(2)))),
  );
  assert.deepEqual(added.sources.query, ['hand', 'hand', 'hand', 'drawn']);
});

test('random mode draws per token: same word, same vector; the seed changes them', () => {
  const st = baseState({ ...presetPatch('random'), queryTokens: ['a', 'b', 'a'], keyTokens: ['b', 'a'] });
  const r = buildInputs(engine, st);
  const q = toGrid(r.query);
  assert.deepEqual(q[0], q[2]);
  assert.deepEqual(r.sources.key, ['drawn', 'drawn']);
  const k = toGrid(r.key);
  const swapped = toGrid(buildInputs(engine, { ...st, keyTokens: ['a', 'b'] }).key);
  assert.deepEqual(swapped, [k[1], k[0]]);
  const reseeded = toGrid(buildInputs(engine, { ...st, seed: st.seed + 1 }).query);
  assert.notDeepEqual(reseeded[0], q[0]);
});

test("the learner's typed grid is used as written and marked typed", () => {
  const st = chase({
    Q: [
      [1, 2, 3, 4],
      [0, 0, 0, 0],
      [1, 1, 1, 1],
    ],
  });
  const r = buildInputs(engine, st);
  assert.deepEqual(toGrid(r.query)[0], [1, 2, 3, 4]);
  assert.deepEqual(r.sources.query, ['typed', 'typed', 'typed']);
  assert.deepEqual(r.sources.key, ['hand', 'hand', 'hand']);
});
