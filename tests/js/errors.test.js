// Bad input, in both wasm builds: every class throws an AttentionError whose message names the
// argument, the engine keeps working afterwards, and no call (failing or not) leaks wasm memory.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine, AttentionError } from '../../web/src/engine.js';

const ones = (rows, cols) => Array.from({ length: rows }, () => new Array(cols).fill(1));
const eye = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));

// A valid attend() call: 2 queries, 3 keys, d = 3, d_v = 2.
const Q = [[1, 0, 0], [0, 1, 0]];
const K = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
const V = [[1, 2], [3, 4], [5, 6]];
const ok = (extra = {}) => ({ query: Q, key: K, value: V, ...extra });

// A valid multiHead() call: d_model = 4, 2 heads.
const X = [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]];
const mh = (extra = {}) => ({ query: X, key: X, value: X, heads: 2, Wq: eye(4), Wk: eye(4), Wv: eye(4), Wo: eye(4), ...extra });

// [what, call, message pattern, checked by: 'js' (before wasm) or 'wasm' (the core's check_*)]
const CASES = [
  // shape mismatches
  ['key columns != query columns', (e) => e.attend(ok({ key: ones(3, 2) })), /^key: expected 3 columns/, 'wasm'],
  ['value rows != key rows', (e) => e.attend(ok({ value: ones(2, 2) })), /^value: expected 3 rows/, 'wasm'],
  ['mask shape', (e) => e.attend(ok({ mask: ones(3, 3) })), /^mask: expected shape \(n_q, n_k\) = \(2, 3\), got \(3, 3\)/, 'wasm'],
  ['general.W shape', (e) => e.attend(ok({ score: 'general', general: { W: ones(2, 3) } })), /^general\.W: expected shape/, 'wasm'],
  ['additive.Wk shape', (e) => e.attend(ok({ score: 'additive', additive: { Wq: ones(4, 3), Wk: ones(4, 2), v: [1, 1, 1, 1] } })), /^additive\.Wk: expected shape/, 'wasm'],
  ['multiHead Wk shape', (e) => e.multiHead(mh({ Wk: ones(4, 3) })), /^Wk: expected shape/, 'wasm'],
  ['multiHead bias length', (e) => e.multiHead(mh({ bq: [1, 2, 3] })), /^bq: expected shape/, 'wasm'],
  ['multiHead value rows', (e) => e.multiHead(mh({ value: ones(2, 4) })), /^value: expected 3 rows/, 'wasm'],
  ['linear W columns != x columns', (e) => e.linear({ x: ones(2, 3), W: ones(4, 2) }), /^W: expected shape \(out, in\) = \(4, 3\), got \(4, 2\)$/, 'wasm'],
  ['linear b length', (e) => e.linear({ x: ones(2, 3), W: ones(4, 3), b: [1, 2] }), /^b: expected shape \(1, out\) = \(1, 4\), got \(1, 2\)$/, 'wasm'],
  ['variance chunk past the sample limit', (e) => e.varianceExperiment({ samples: 1000, firstSample: 999500 }), /^firstSample: expected an integer from 0 to 999000, got 999500$/, 'wasm'],
  ['rope odd columns', (e) => e.rope({ x: ones(2, 3) }), /^x: expected an even number of columns \(RoPE rotates pairs\), got 3$/, 'wasm'],
  ['vector given as a matrix', (e) => e.multiHead(mh({ bq: ones(2, 4) })), /^bq: expected a vector/, 'js'],
  // ragged and malformed arrays
  ['ragged query', (e) => e.attend(ok({ query: [[1, 2, 3], [4, 5]] })), /^query: row 1 has 2 numbers, expected 3$/, 'js'],
  ['ragged value', (e) => e.attend(ok({ value: [[1, 2], [3, 4], [5]] })), /^value: row 2 has 1 numbers, expected 2$/, 'js'],
  ['flat array as a matrix', (e) => e.attend(ok({ key: [1, 2, 3] })), /^key: expected a matrix/, 'js'],
  ['data length != rows * cols', (e) => e.attend(ok({ query: { rows: 2, cols: 3, data: [1, 2, 3, 4, 5] } })), /^query: expected 6 numbers for 2 rows x 3 columns, got 5$/, 'js'],
  ['rows not an integer', (e) => e.attend(ok({ query: { rows: 1.5, cols: 2, data: [1, 2, 3] } })), /^query: expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 1\.5$/, 'js'],
  ['a row that is not an array', (e) => e.attend(ok({ query: [[1, 0, 0], 7] })), /^query: row 1 is 7/, 'js'],
  ['missing value', (e) => e.attend({ query: Q, key: K }), /^value: expected a matrix/, 'js'],
  // non-numbers, NaN and infinities
  ['a string entry', (e) => e.attend(ok({ query: [[1, 'a', 0], [0, 1, 0]] })), /^query: row 0, column 1 is 'a' \(expected a number\)/, 'js'],
  ['a boolean entry', (e) => e.attend(ok({ key: [[1, 0, 0], [0, true, 0], [0, 0, 1]] })), /^key: row 1, column 1 is true \(expected a number\)/, 'js'],
  ['a symbol entry', (e) => e.attend(ok({ query: [[Symbol('q'), 0, 0], [0, 1, 0]] })), /^query: row 0, column 0 is a symbol \(expected a number\)/, 'js'],
  ['a BigInt64Array as data', (e) => e.attend(ok({ value: { rows: 3, cols: 2, data: new BigInt64Array(6) } })), /^value: row 0, column 0 is 0n \(expected a number\)/, 'js'],
  ['a null entry in data', (e) => e.attend(ok({ value: { rows: 3, cols: 2, data: [1, 2, 3, null, 5, 6] } })), /^value: row 1, column 1 is null/, 'js'],
  ['NaN in the query', (e) => e.attend(ok({ query: [[1, 0, 0], [0, NaN, 0]] })), /^query: row 1, column 1 is NaN/, 'js'],
  ['Infinity in the key', (e) => e.attend(ok({ key: [[1, 0, 0], [0, Infinity, 0], [0, 0, 1]] })), /^key: row 1, column 1 is Infinity/, 'js'],
  ['-Infinity in the value', (e) => e.attend(ok({ value: [[1, 2], [3, -Infinity], [5, 6]] })), /^value: row 1, column 1 is -Infinity/, 'js'],
  ['NaN in a Float32Array', (e) => e.attend(ok({ query: { rows: 2, cols: 3, data: new Float32Array([1, 0, 0, 0, 1, NaN]) } })), /^query: row 1, column 2 is NaN/, 'js'],
  ['past float32 range', (e) => e.attend(ok({ query: [[1e39, 0, 0], [0, 1, 0]] })), /^query: row 0, column 0 is 1e\+39, too large for float32/, 'js'],
  ['NaN in softmax scores', (e) => e.softmax({ scores: [[1, NaN]] }), /^scores: row 0, column 1 is NaN/, 'js'],
  ['+Infinity in softmax scores', (e) => e.softmax({ scores: [[1, Infinity]] }), /^scores: row 0, column 1 is Infinity \(expected finite numbers or -Infinity\)/, 'js'],
  ['NaN in a Jacobian p', (e) => e.softmaxJacobian([0.5, NaN]), /^p: entry 1 is NaN \(expected finite numbers\)$/, 'wasm'],
  ['a non-binary mask', (e) => e.attend(ok({ mask: [[1, 0.5, 1], [1, 1, 1]] })), /^mask: row 0, column 1 is 0.5 \(expected 0 = blocked or 1 = may attend\)/, 'js'],
  ['temperature a string', (e) => e.attend(ok({ temperature: 'hot' })), /^temperature: expected a number from 1e-30 to 1e\+30, got 'hot'$/, 'wasm'],
  ['temperature 0', (e) => e.attend(ok({ temperature: 0 })), /^temperature: expected a number from 1e-30 to 1e\+30, got 0$/, 'wasm'],
  ['temperature Infinity', (e) => e.softmax({ scores: [[1, 2]], temperature: Infinity }), /^temperature: /, 'js'],
  ['tau negative', (e) => e.gumbelSoftmax({ scores: [[1, 2]], tau: -1, seed: 1 }), /^tau: expected a number from 1e-30 to 1e\+30, got -1$/, 'wasm'],
  ['scale NaN', (e) => e.randomMatrix({ rows: 2, cols: 2, seed: 1, scale: NaN }), /^scale: expected a number from -1e\+30 to 1e\+30, got NaN$/, 'wasm'],
  ['base 0', (e) => e.sinusoidal({ n: 4, d: 4, base: 0 }), /^base: /, 'js'],
  ['causal not a boolean', (e) => e.attend(ok({ causal: 'yes' })), /^causal: expected true or false, got 'yes'$/, 'js'],
  ['stable not a boolean', (e) => e.softmax({ scores: [[1]], stable: 1 }), /^stable: expected true or false, got 1$/, 'js'],
  // unknown options and bad enum values
  ['unknown attend option', (e) => e.attend(ok({ foo: 1 })), /^attend: unknown option 'foo' \(expected one of query, key, value, score, mask, causal, reverseCausal, keyPadding, maskFill, temperature, stable, stages, additive, general\)$/, 'js'],
  ['unknown multiHead option', (e) => e.multiHead(mh({ dropout: 0.1 })), /^multiHead: unknown option 'dropout'/, 'js'],
  ['unknown additive option', (e) => e.attend(ok({ score: 'additive', additive: { Wq: ones(2, 3), Wk: ones(2, 3), v: [1, 1], w: 1 } })), /^additive: unknown option 'w' \(expected one of Wq, Wk, v\)$/, 'js'],
  ['unknown softmax option', (e) => e.softmax({ scores: [[1]], temp: 2 }), /^softmax: unknown option 'temp'/, 'js'],
  ['options not an object', (e) => e.attend([Q, K, V]), /^attend: expected an options object/, 'js'],
  ['options null', (e) => e.varianceExperiment(null), /^varianceExperiment: expected an options object/, 'js'],
  ['score cosine', (e) => e.attend(ok({ score: 'cosine' })), /^score: expected one of 'dot', 'scaled-dot', 'additive', 'general', got 'cosine'$/, 'js'],
  ['maskFill minus-one', (e) => e.attend(ok({ maskFill: -1 })), /^maskFill: expected one of 'neg-inf', 'large-negative', 'zero', got -1$/, 'js'],
  ['additive without its weights', (e) => e.attend(ok({ score: 'additive' })), /^additive: required when score is 'additive'/, 'js'],
  // heads
  ['non-integer heads', (e) => e.multiHead(mh({ heads: 2.5 })), /^heads: expected an integer from 1 to 64, got 2.5$/, 'js'],
  ['heads as a string', (e) => e.multiHead(mh({ heads: '2' })), /^heads: expected an integer from 1 to 64, got '2'$/, 'js'],
  ['heads 0', (e) => e.multiHead(mh({ heads: 0 })), /^heads: expected an integer from 1 to 64/, 'js'],
  ['d_model not divisible by heads', (e) => e.multiHead(mh({ heads: 3 })), /^heads: d_model = 4 \(columns of query\) is not divisible by 3 heads$/, 'js'],
  // empty sequences
  ['empty query', (e) => e.attend(ok({ query: [] })), /^query: expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 0$/, 'js'],
  ['empty rows', (e) => e.attend(ok({ key: [[], [], []] })), /^key: expected 1 to 1024 columns \(engine\.limits\.maxDim\), got 0$/, 'js'],
  ['zero rows', (e) => e.attend(ok({ value: { rows: 0, cols: 2, data: [] } })), /^value: expected 1 to 2048 rows/, 'js'],
  ['empty scores', (e) => e.softmax({ scores: [] }), /^scores: /, 'js'],
  ['empty p', (e) => e.softmaxJacobian([]), /^p: expected at least one number/, 'js'],
  // key padding
  ['keyPadding length', (e) => e.attend(ok({ keyPadding: [false, true] })), /^keyPadding: expected 3 flags \(one per key, n_k\), got 2$/, 'js'],
  ['keyPadding entry', (e) => e.attend(ok({ keyPadding: [false, 'x', true] })), /^keyPadding: entry 1 is 'x'/, 'js'],
  ['keyPadding not an array', (e) => e.attend(ok({ keyPadding: true })), /^keyPadding: expected an array of booleans \(true = padding\), got true$/, 'js'],
  // seeds
  ['negative seed', (e) => e.varianceExperiment({ seed: -1 }), /^seed: expected a non-negative integer below 2\^32 \(seeds are uint32\), got -1$/, 'js'],
  ['fractional seed', (e) => e.randomMatrix({ rows: 2, cols: 2, seed: 1.5 }), /^seed: expected a non-negative integer below 2\^32/, 'js'],
  ['seed 2^32', (e) => e.gumbelSoftmax({ scores: [[1, 2]], seed: 2 ** 32 }), /^seed: expected a non-negative integer below 2\^32/, 'js'],
  ['seed a string', (e) => e.randomMatrix({ rows: 2, cols: 2, seed: '7' }), /^seed: .*got '7'$/, 'js'],
  ['stream negative', (e) => e.randomMatrix({ rows: 2, cols: 2, seed: 1, stream: -3 }), /^stream: expected a non-negative integer/, 'js'],
  // sizes past engine.limits
  ['5000 query tokens', (e) => e.attend(ok({ query: { rows: 5000, cols: 3, data: new Float32Array(15000) } })), /^query: expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 5000: attend keeps five \(n_q, n_k\) float32 matrices, which would need 5 × 5000 × 3 × 4 bytes = 293\.0 KiB here; flashAttend computes the same output for up to 16384 tokens in O\(n·d\) memory$/, 'js'],
  ['5000 key tokens, nested', (e) => e.attend(ok({ key: ones(5000, 3) })), /^key: expected 1 to 2048 rows/, 'js'],
  ['d_k past the limit', (e) => e.attend(ok({ query: ones(2, 2000) })), /^query: expected 1 to 1024 columns \(engine\.limits\.maxDim\), got 2000$/, 'js'],
  ['samples 2e6', (e) => e.varianceExperiment({ dk: 64, samples: 2e6, seed: 1 }), /^samples: expected an integer from 2 to 1000000, got 2000000$/, 'js'],
  ['bins 1000', (e) => e.varianceExperiment({ bins: 1000 }), /^bins: expected an integer from 1 to 512/, 'js'],
  ['dk 0', (e) => e.varianceExperiment({ dk: 0 }), /^dk: expected an integer from 1 to 1024/, 'js'],
  ['heads 65', (e) => e.multiHead(mh({ heads: 65 })), /^heads: expected an integer from 1 to 64/, 'js'],
  ['random matrix 1e6 rows', (e) => e.randomMatrix({ rows: 1e6, cols: 4, seed: 1 }), /^rows: expected an integer from 1 to 2048/, 'js'],
  ['sinusoidal past the limit', (e) => e.sinusoidal({ n: 10000, d: 4 }), /^n: expected an integer from 1 to 2048/, 'js'],
  ['rope position past the limit', (e) => e.rope({ x: ones(1, 2), first: 2e6 }), /^first: expected an integer from 0 to 1000000/, 'js'],
  ['Jacobian past the limit', (e) => e.softmaxJacobian(new Float32Array(3000)), /^p: expected 1 to 2048 columns/, 'js'],
  ['multi-head cells past the limit', (e) => e.multiHead({ ...mh(), heads: 64,
    query: { rows: 2048, cols: 64, data: new Float32Array(2048 * 64) },
    key: { rows: 2048, cols: 64, data: new Float32Array(2048 * 64) } }),
  /^heads: heads \* n_q \* n_k = 268435456 is more than 8388608 \(engine\.limits\.maxHeadCells\)$/, 'js'],
];

for (const simd of [true, false]) {
  describe(`bad input (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    let reference;  // a valid call's result, to check the engine still works
    before(async () => {
      engine = await loadEngine({ simd });
      reference = engine.attend(ok({ causal: true }));
    });

    const stillWorks = () => assert.deepEqual(engine.attend(ok({ causal: true })), reference);

    for (const [what, call, pattern] of CASES) {
      test(`${what} -> AttentionError ${pattern}`, () => {
        assert.throws(() => call(engine), (e) => {
          assert.ok(e instanceof AttentionError, `${e && e.name}: ${e && e.message}`);
          assert.equal(e.name, 'AttentionError');
          assert.match(e.message, pattern);
          return true;
        });
        stillWorks();
      });
    }

    test('sizes past the limits fail before anything reaches the wasm heap', () => {
      const before = engine.memory();
      const tooLarge = CASES.filter(([what, , , side]) => side === 'js' && /past|5000|2e6|1e6|1000/.test(what));
      assert.ok(tooLarge.length >= 10);
      for (const [what, call] of tooLarge) {
        assert.throws(() => call(engine), AttentionError, what);
      }
      assert.deepEqual(engine.memory(), before);
    });

    test('1,000 failing calls leave the allocator where it was (JS-side and core-side checks)', () => {
      const wasmSide = CASES.filter((c) => c[3] === 'wasm');
      const all = CASES.filter(([what]) => !/cells past/.test(what));
      engine.attend(ok());  // warm up
      const before = engine.memory();
      for (let i = 0; i < 1000; i++) {
        const [what, call] = i % 2 ? wasmSide[i % wasmSide.length] : all[i % all.length];
        assert.throws(() => call(engine), AttentionError, what);
      }
      const after = engine.memory();
      assert.equal(after.usedBytes, before.usedBytes);
      assert.equal(after.heapBytes, before.heapBytes);
      stillWorks();
    });

    test('1,000 successful calls leave the allocator where it was', () => {
      const calls = [
        () => engine.attend(ok({ causal: true, keyPadding: [false, false, true], maskFill: 'zero' })),
        () => engine.attend(ok({ score: 'additive', additive: { Wq: ones(2, 3), Wk: ones(2, 3), v: [1, -1] } })),
        () => engine.multiHead(mh({ bq: [1, 2, 3, 4], causal: true })),
        () => engine.softmax({ scores: [[2.6, 1.2, 6.1, 2.0]], stable: false }),
        () => engine.varianceExperiment({ dk: 8, samples: 50, seed: 3, bins: 10 }),
        () => engine.randomMatrix({ rows: 3, cols: 4, seed: 2 }),
        () => engine.gumbelSoftmax({ scores: [[1, 2, 3]], tau: 0.5, seed: 4 }),
        () => engine.softmaxJacobian([0.2, 0.3, 0.5]),
        () => engine.hardAttention({ scores: [[1, 3, 2]] }),
        () => engine.sinusoidal({ n: 4, d: 6 }),
        () => engine.rope({ x: ones(3, 4), first: 2 }),
        () => engine.linear({ x: ones(2, 3), W: ones(4, 3), b: [1, 2, 3, 4] }),
      ];
      calls.forEach((c) => c());  // warm up
      const before = engine.memory();
      for (let i = 0; i < 1000; i++) calls[i % calls.length]();
      const after = engine.memory();
      assert.equal(after.usedBytes, before.usedBytes);
      assert.equal(after.heapBytes, before.heapBytes);
    });
  });
}

test('loadEngine rejects unknown options and a non-boolean simd', async () => {
  await assert.rejects(loadEngine({ simd: true, threads: 4 }), { name: 'AttentionError', message: "loadEngine: unknown option 'threads' (expected one of simd)" });
  await assert.rejects(loadEngine({ simd: 'yes' }), { name: 'AttentionError', message: "simd: expected true or false, got 'yes'" });
  await assert.rejects(loadEngine(42), { name: 'AttentionError', message: /^loadEngine: expected an options object/ });
});
