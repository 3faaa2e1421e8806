// The debugging lab through the JS API, in both wasm builds: engine.attendWithBug for every
// bug against a double reference of that bug's own arithmetic (written here and in
// reference.js, never with the engine), engine.monitor against its definitions, and the
// arguments each refuses, by name.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine, simdSupported } from '../../web/src/engine.js';
import {
  attendRef,
  attendWithBugRef,
  monitorRef,
  transpose,
  dot,
  expectMatrix,
  expectVector,
  entropyRef,
} from './reference.js';

const builds = simdSupported() ? [true, false] : [false];
const engines = {};
before(async () => {
  for (const simd of builds) engines[simd] = await loadEngine({ simd });
});

const Q = [
  [1, 0.5, -1, 2],
  [0, 1, 1, -0.5],
  [2, -1, 0.5, 0],
  [0.5, 0.5, -0.5, 1],
];
const K = [
  [0.5, 1, 0, 1],
  [1, 0, -1, 0.5],
  [-0.5, 0.5, 1, 1],
  [1, 1, 1, -1],
];
const V = [
  [1, 0],
  [0, 1],
  [0.5, 0.5],
  [-1, 2],
];
const PAD = [false, false, true, false];
const base = { query: Q, key: K, value: V, causal: true, keyPadding: PAD };

// The weights each bug computes, in double (reference.js).
const allowed = attendRef(base).mask;
const want = (bug) => attendWithBugRef({ ...base, bug, dModel: 16 }).weights;
const outputOf = (w) => w.map((row) => transpose(V).map((col) => dot(row, col)));

for (const simd of builds) {
  const name = simd ? 'SIMD' : 'scalar';

  test(`${name}: the bug names are the core's, and every bug computes its own arithmetic`, () => {
    const engine = engines[simd];
    assert.deepEqual(engine.choices.bug, [
      'none',
      'missing-scale',
      'zero-fill',
      'reversed-causal',
      'wrong-axis',
      'mask-after-softmax',
      'no-max-subtraction',
      'scale-by-d-model',
    ]);
    for (const bug of engine.choices.bug) {
      const r = engine.attendWithBug({ ...base, bug, dModel: 16 });
      const w = want(bug);
      expectMatrix(`${bug}.weights`, r.weights, w);
      expectMatrix(`${bug}.output`, r.output, outputOf(w));
      expectVector(`${bug}.entropy`, r.entropy, w.map(entropyRef));
    }
    // no bug named: the healthy pipeline, the same as attend
    expectMatrix('default', engine.attendWithBug(base).weights, attendRef(base).weights);
  });

  test(`${name}: no max subtraction overflows at large logits, as the naive softmax does`, () => {
    const engine = engines[simd];
    const big = Q.map((r) => r.map((x) => x * 100));
    const r = engine.attendWithBug({ ...base, query: big, bug: 'no-max-subtraction' });
    assert.equal(r.overflow, true);
    assert.ok(Array.from(r.weights.data).some(Number.isNaN));
    const ok = engine.attendWithBug({ ...base, query: big });
    assert.equal(ok.overflow, false);
    assert.ok(Array.from(ok.weights.data).every(Number.isFinite));
  });

  test(`${name}: monitor against its definitions`, () => {
    const engine = engines[simd];
    const r = engine.attendWithBug({ ...base, bug: 'zero-fill' });
    const h = engine.attend(base);
    const m = engine.monitor({ logits: r.scaled, weights: r.weights, mask: h.mask });
    const w = want('zero-fill');
    const ref = monitorRef(attendRef(base).scaled, w, allowed);
    for (const k of ['maxEntropy', 'rowSums', 'colSums', 'leaked']) expectVector(k, m[k], ref[k]);
    assert.equal(m.cells, ref.cells);
    expectVector('logits', [m.logitMean, m.logitStd, m.logitMax], [ref.logitMean, ref.logitStd, ref.logitMax]);
    assert.equal(m.nonFinite, 0);
    assert.ok(m.leaked[0] > 0.1, 'the 0 fill leaks');
  });

  test(`${name}: bad arguments are named`, () => {
    const engine = engines[simd];
    const cases = [
      [{ ...base, bug: 'typo' }, /^bug: expected one of 'none', 'missing-scale', .*'scale-by-d-model', got 'typo'$/],
      [{ ...base, bug: 3 }, /^bug: expected one of .*, got 3$/],
      [{ ...base, bug: 'scale-by-d-model' }, /^dModel: expected an integer from 1 to 65536, got 0$/],
      [{ ...base, bug: 'scale-by-d-model', dModel: 1.5 }, /^dModel: expected an integer from 1 to 65536, got 1\.5$/],
      [{ ...base, dModel: 70000 }, /^dModel: expected an integer from 1 to 65536, got 70000$/],
      [{ ...base, dModel: '8' }, /^dModel: expected an integer from 1 to 65536, got '8'$/],
      [
        {
          ...base,
          key: [
            [1, 2],
            [3, 4],
            [5, 6],
            [7, 8],
          ],
        },
        /^key: expected 4 columns/,
      ],
      [{ ...base, value: [[1, 2]] }, /^value: expected 4 rows \(one per key\), got 1$/],
      [{ ...base, keyPadding: [true] }, /^keyPadding: expected 4 flags/],
      [{ ...base, causal: 'yes' }, /^causal: expected true or false, got 'yes'$/],
      [
        {
          ...base,
          mask: [
            [2, 1, 1, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
          ],
        },
        /^mask: row 0, column 0 is 2/,
      ],
      [{ ...base, query: [[NaN, 0, 0, 0]] }, /^query: row 0, column 0 is NaN/],
      [{ ...base, stable: false }, /^attendWithBug: unknown option 'stable'/],
      [{ ...base, query: undefined }, /^query: expected a matrix/],
      [[1, 2], /^attendWithBug: expected an options object/],
    ];
    for (const [args, message] of cases) {
      assert.throws(
        () => engine.attendWithBug(args),
        (e) => e.name === 'AttentionError' && message.test(e.message),
        `attendWithBug(${JSON.stringify(args)?.slice(0, 80)})`,
      );
    }
    const m = engine.attend(base);
    const monitorCases = [
      [{ logits: m.scaled, weights: m.weights }, /^mask: expected a matrix/],
      [
        { logits: m.scaled, weights: [[1, 2]], mask: m.mask },
        /^weights: expected shape \(n_q, n_k\) of logits = \(4, 4\), got \(1, 2\)$/,
      ],
      [
        { logits: m.scaled, weights: m.weights, mask: [[1]] },
        /^mask: expected shape \(n_q, n_k\) = \(4, 4\), got \(1, 1\)$/,
      ],
      [{ logits: [[NaN]], weights: [[1]], mask: [[1]] }, /^logits: row 0, column 0 is NaN \(expected numbers\)$/],
      [{ logits: m.scaled, weights: m.weights, mask: m.mask, extra: 1 }, /^monitor: unknown option 'extra'/],
    ];
    for (const [args, message] of monitorCases) {
      assert.throws(
        () => engine.monitor(args),
        (e) => e.name === 'AttentionError' && message.test(e.message),
      );
    }
    // a failing call leaves nothing allocated, and the next call still works
    const used = engine.memory().usedBytes;
    for (let k = 0; k < 20; k++) assert.throws(() => engine.attendWithBug({ ...base, bug: 'typo' }));
    assert.equal(engine.memory().usedBytes, used);
    expectMatrix('after the errors', engine.attendWithBug({ ...base, bug: 'zero-fill' }).weights, want('zero-fill'));
  });
}
