// engine.flashAttend and engine.flashTrace in both wasm builds: every pattern against a double
// reference written here and against attend() given the same mask, the 16,384-token run and
// its memory, the naive path refused at that size, and every bad argument.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine, simdSupported, AttentionError } from '../../web/src/engine.js';
import { randomMatrix } from '../support/random.js';

// ---- the reference: the mask from its definition, attention in double ---------------------------

function allowedRef({ causal, keyPadding, window, stride }, i, j) {
  const dist = Math.abs(i - j);
  if (causal && j > i) return false;
  if (keyPadding && keyPadding[j]) return false;
  if (window != null && dist > window) return false;
  if (stride != null && !(dist < stride || dist % stride === 0)) return false;
  return true;
}

// Row i of the output and its entropy, in double; null when every key is blocked.
function rowRef(o, i) {
  const { query: Q, key: K, value: V } = o;
  const d = Q.cols;
  const s = [];
  for (let j = 0; j < K.rows; j++) {
    if (!allowedRef(o, i, j)) continue;
    let dot = 0;
    for (let c = 0; c < d; c++) dot += Q.data[i * d + c] * K.data[j * d + c];
    s.push([j, dot / Math.sqrt(d)]);
  }
  if (s.length === 0) return null;
  const max = Math.max(...s.map(([, x]) => x));
  const e = s.map(([j, x]) => [j, Math.exp(x - max)]);
  const sum = e.reduce((a, [, x]) => a + x, 0);
  const out = new Array(V.cols).fill(0);
  let entropy = 0;
  for (const [j, x] of e) {
    const w = x / sum;
    if (w > 0) entropy -= w * Math.log(w);
    for (let c = 0; c < V.cols; c++) out[c] += w * V.data[j * V.cols + c];
  }
  return { out, entropy };
}

// Largest |got - want| of row i relative to the row's largest |want| (1 for a zero row).
function rowError(got, i, want) {
  let err = 0,
    size = 0;
  want.forEach((w, c) => {
    err = Math.max(err, Math.abs(got.data[i * got.cols + c] - w));
    size = Math.max(size, Math.abs(w));
  });
  return err / (size || 1);
}

function expectRowsMatch(what, r, o, rows, tol = 1e-5) {
  for (const i of rows) {
    const want = rowRef(o, i);
    if (want === null) {
      assert.ok(r.fullyMaskedRows.includes(i), `${what}: row ${i} listed as fully masked`);
      for (let c = 0; c < r.output.cols; c++) assert.equal(r.output.data[i * r.output.cols + c], 0);
      continue;
    }
    assert.ok(rowError(r.output, i, want.out) <= tol, `${what}: row ${i} error ${rowError(r.output, i, want.out)}`);
    assert.ok(
      Math.abs(r.entropy[i] - want.entropy) <= 1e-5 * Math.max(1, want.entropy),
      `${what}: entropy of row ${i}`,
    );
  }
}

// The pattern as an explicit (n_q, n_k) 0/1 mask for attend().
function maskOf(o) {
  const data = new Float32Array(o.query.rows * o.key.rows);
  for (let i = 0; i < o.query.rows; i++)
    for (let j = 0; j < o.key.rows; j++) data[i * o.key.rows + j] = allowedRef(o, i, j) ? 1 : 0;
  return { rows: o.query.rows, cols: o.key.rows, data };
}

const PATTERNS = [
  ['full', {}],
  ['causal', { causal: true }],
  ['key padding', { keyPadding: Array.from({ length: 90 }, (_, j) => j >= 70 || j === 5) }],
  ['window 6', { window: 6 }],
  ['causal window 10', { causal: true, window: 10 }],
  ['stride 7', { stride: 7 }],
  ['causal stride 16', { causal: true, stride: 16 }],
  [
    'padding, causal, window 0',
    { causal: true, window: 0, keyPadding: Array.from({ length: 90 }, (_, j) => j % 3 === 0) },
  ],
];

const builds = simdSupported() ? [true, false] : [false];

for (const simd of builds) {
  describe(`flashAttend (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    test('limits: 16,384 tokens, blocks up to 256, traces up to 64 tokens', () => {
      assert.equal(engine.limits.maxFlashTokens, 16384);
      assert.equal(engine.limits.maxFlashBlock, 256);
      assert.equal(engine.limits.maxTraceTokens, 64);
    });

    for (const [name, pattern] of PATTERNS) {
      test(`${name}: the double reference and attend() with the same mask, within 1e-5`, () => {
        const base = { query: randomMatrix(90, 32, 1), key: randomMatrix(90, 32, 2), value: randomMatrix(90, 12, 3) };
        const o = { ...base, ...pattern };
        const naive = engine.attend({ ...base, mask: maskOf(o) });
        for (const blockSize of [1, 7, 32, 64, 256]) {
          const r = engine.flashAttend({ ...o, blockSize });
          assert.equal(r.output.rows, 90);
          assert.equal(r.output.cols, 12);
          assert.ok(r.output.data instanceof Float32Array && r.entropy instanceof Float32Array);
          expectRowsMatch(
            `${name}, blockSize ${blockSize}`,
            r,
            o,
            Array.from({ length: 90 }, (_, i) => i),
          );
          for (let i = 0; i < 90; i++) {
            const want = Array.from(naive.output.data.subarray(i * 12, i * 12 + 12));
            assert.ok(
              rowError(r.output, i, want) <= 1e-5,
              `${name}, blockSize ${blockSize}: row ${i} against attend()`,
            );
          }
          assert.deepEqual(r.fullyMaskedRows, naive.fullyMaskedRows);
        }
      });
    }

    test('nested arrays and cross-attention (n_q ≠ n_k) with the default block', () => {
      const q = randomMatrix(5, 4, 4),
        k = randomMatrix(9, 4, 5),
        v = randomMatrix(9, 3, 6);
      const nested = (m) =>
        Array.from({ length: m.rows }, (_, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols)));
      const r = engine.flashAttend({ query: nested(q), key: nested(k), value: nested(v), causal: true });
      expectRowsMatch('nested', r, { query: q, key: k, value: v, causal: true }, [0, 1, 2, 3, 4]);
    });

    test('a slice of the queries with queryOffset: the same rows as the whole run, bit for bit', () => {
      const whole = {
        query: randomMatrix(100, 8, 30),
        key: randomMatrix(100, 8, 31),
        value: randomMatrix(100, 4, 32),
        causal: true,
        window: 9,
        blockSize: 16,
      };
      const all = engine.flashAttend(whole);
      const part = engine.flashAttend({
        ...whole,
        query: { rows: 68, cols: 8, data: whole.query.data.subarray(32 * 8) },
        queryOffset: 32,
      });
      assert.deepEqual(part.output.data, all.output.data.subarray(32 * 4));
      assert.deepEqual(part.entropy, all.entropy.subarray(32));
    });

    test('a fully blocked row: zero output, entropy 0, listed', () => {
      const o = {
        query: randomMatrix(4, 3, 7),
        key: randomMatrix(4, 3, 8),
        value: randomMatrix(4, 2, 9),
        causal: true,
        keyPadding: [true, false, false, true],
      };
      const r = engine.flashAttend({ ...o, blockSize: 2 });
      assert.deepEqual(r.fullyMaskedRows, [0]);
      assert.deepEqual(Array.from(r.output.data.subarray(0, 2)), [0, 0]);
      assert.equal(r.entropy[0], 0);
      expectRowsMatch('blocked', r, o, [0, 1, 2, 3]);
    });

    test('16,384 tokens at d = 64: the heap grows by at most 32 MB and nothing leaks', () => {
      // Memory is O(n·d) whatever the pattern (one tile of workspace); a window keeps the test
      // short by skipping the tiles it blocks. The full-attention run is in bench/flash_bench.mjs.
      const n = 16384;
      const o = {
        query: randomMatrix(n, 64, 10),
        key: randomMatrix(n, 64, 11),
        value: randomMatrix(n, 64, 12),
        window: 32,
      };
      const before = engine.memory();
      const r = engine.flashAttend(o);
      const after = engine.memory();
      assert.ok(
        after.heapBytes - before.heapBytes <= 32 * 2 ** 20,
        `heap grew by ${after.heapBytes - before.heapBytes} bytes`,
      );
      assert.equal(after.usedBytes, before.usedBytes, 'every byte handed out was freed');
      assert.equal(r.output.rows, n);
      expectRowsMatch('n = 16384', r, o, [0, 1, 31, 32, 5000, 16351, 16352, 16383]);
    });

    test('attend() at 16,384 tokens is refused before it allocates, naming the memory it would need', () => {
      const x = randomMatrix(16384, 64, 13);
      const before = engine.memory();
      assert.throws(
        () => engine.attend({ query: x, key: x, value: x }),
        (e) => {
          assert.ok(e instanceof AttentionError);
          assert.equal(
            e.message,
            'query: expected 1 to 2048 rows (engine.limits.maxTokens), got 16384: attend keeps ' +
              'five (n_q, n_k) float32 matrices, which would need 5 × 16384 × 16384 × 4 bytes = 5.0 GiB here; ' +
              'flashAttend computes the same output for up to 16384 tokens in O(n·d) memory',
          );
          return true;
        },
      );
      assert.deepEqual(engine.memory(), before);
      // one side past the limit is enough: 8 queries over 4096 keys
      assert.throws(
        () =>
          engine.attend({
            query: randomMatrix(8, 4, 1),
            key: randomMatrix(4096, 4, 2),
            value: randomMatrix(4096, 4, 3),
          }),
        /^AttentionError: key: expected 1 to 2048 rows \(engine.limits.maxTokens\), got 4096: .* = 640\.0 KiB here;/,
      );
    });

    test('bad arguments: an AttentionError naming the argument', () => {
      const q = randomMatrix(4, 3, 1),
        k = randomMatrix(5, 3, 2),
        v = randomMatrix(5, 2, 3);
      const bad = [
        [
          { query: q, key: k, value: v, foo: 1 },
          /^flashAttend: unknown option 'foo' \(expected one of query, key, value, causal, keyPadding, window, stride, blockSize, queryOffset\)$/,
        ],
        [
          { query: q, key: randomMatrix(5, 4, 2), value: v },
          /^key: expected 3 columns \(d_k must equal the query's d_q\), got 4$/,
        ],
        [{ query: q, key: k, value: randomMatrix(4, 2, 3) }, /^value: expected 5 rows \(one per key\), got 4$/],
        [
          { query: q, key: k, value: v, window: 2, stride: 3 },
          /^stride: cannot be combined with window \(pick one sparse pattern\)$/,
        ],
        [{ query: q, key: k, value: v, window: -1 }, /^window: expected an integer from 0 to 16384, got -1$/],
        [{ query: q, key: k, value: v, stride: 0 }, /^stride: expected an integer from 1 to 16384, got 0$/],
        [{ query: q, key: k, value: v, blockSize: 257 }, /^blockSize: expected an integer from 1 to 256, got 257$/],
        [{ query: q, key: k, value: v, blockSize: 1.5 }, /^blockSize: expected an integer from 1 to 256, got 1.5$/],
        [{ query: q, key: k, value: v, queryOffset: -3 }, /^queryOffset: expected an integer from 0 to 16384, got -3$/],
        [{ query: q, key: k, value: v, causal: 'yes' }, /^causal: expected true or false, got 'yes'$/],
        [{ query: q, key: k, value: v, keyPadding: [true] }, /^keyPadding: expected 5 flags/],
        [
          { query: { rows: 16385, cols: 2, data: new Float32Array(32770) }, key: k, value: v },
          /^query: expected 1 to 16384 rows \(engine.limits.maxFlashTokens\), got 16385$/,
        ],
        [{ query: [[1, NaN, 0]], key: k, value: v }, /^query: row 0, column 1 is NaN/],
      ];
      const before = engine.memory();
      for (const [args, message] of bad) {
        assert.throws(
          () => engine.flashAttend(args),
          (e) => e instanceof AttentionError && message.test(e.message),
          String(message),
        );
      }
      assert.deepEqual(engine.memory(), before);
    });
  });

  describe(`flashTrace (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    test('every block: block max, running max, rescale factor and running sum, from the double reference', () => {
      const o = {
        query: randomMatrix(8, 4, 20, 2),
        key: randomMatrix(8, 4, 21, 2),
        value: randomMatrix(8, 2, 22),
        causal: true,
      };
      const t = engine.flashTrace({ ...o, blockSize: 3 });
      assert.equal(t.blockSize, 3);
      assert.equal(t.blocks, 3);
      for (const table of ['blockMax', 'runningMax', 'rescale', 'runningSum', 'skipped']) {
        assert.equal(t[table].rows, 3, table);
        assert.equal(t[table].cols, 8, table);
      }
      const flash = engine.flashAttend({ ...o, blockSize: 3 });
      assert.deepEqual(t.output, flash.output);
      for (let i = 0; i < 8; i++) {
        let m = -Infinity,
          l = 0;
        for (let c = 0; c < 3; c++) {
          const s = [];
          for (let j = 3 * c; j < Math.min(3 * c + 3, 8); j++) {
            let dot = 0;
            for (let a = 0; a < 4; a++) dot += o.query.data[i * 4 + a] * o.key.data[j * 4 + a];
            if (j <= i) s.push(dot / 2);
            const shown = t.scores.data[i * 8 + j];
            if (j <= i) assert.ok(Math.abs(shown - dot / 2) < 1e-5, `score (${i}, ${j})`);
            else assert.equal(shown, -Infinity, `score (${i}, ${j}) blocked`);
          }
          const bm = s.length ? Math.max(...s) : -Infinity;
          const mNew = Math.max(m, bm);
          const rescale = s.length === 0 ? 1 : l > 0 ? Math.exp(m - mNew) : 0;
          if (s.length) {
            l = rescale * l + s.reduce((a, x) => a + Math.exp(x - mNew), 0);
            m = mNew;
          }
          const at = (name) => t[name].data[c * 8 + i];
          const near = (got, want, what) =>
            assert.ok(
              got === want || Math.abs(got - want) <= 1e-5 * Math.max(1, Math.abs(want)),
              `row ${i}, block ${c}, ${what}: got ${got}, want ${want}`,
            );
          near(at('blockMax'), bm, 'block max');
          near(at('runningMax'), m, 'running max');
          near(at('rescale'), rescale, 'rescale');
          near(at('runningSum'), l, 'running sum');
          assert.equal(at('skipped'), 3 * c > Math.floor(i / 3) * 3 + 2 ? 1 : 0, `row ${i}, block ${c} skipped`);
        }
      }
    });

    test('at most 64 tokens', () => {
      const x = randomMatrix(65, 2, 1);
      assert.throws(
        () => engine.flashTrace({ query: x, key: x, value: x }),
        /^AttentionError: query: expected 1 to 64 rows \(engine.limits.maxTraceTokens\), got 65$/,
      );
    });
  });
}
