// Bad input and memory, in both wasm builds: the cases of the bad-input catalogue
// (tests/js/bad-inputs.js) fail before anything reaches the wasm heap when they are about
// sizes, and no call, failing or not, leaks wasm memory.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine, AttentionError } from '../../web/src/engine.js';

import { CASES, att as ok, mh, ones } from './bad-inputs.js';

for (const simd of [true, false]) {
  describe(`bad input (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    let reference; // a valid call's result, to check the engine still works
    before(async () => {
      engine = await loadEngine({ simd });
      reference = engine.attend(ok({ causal: true }));
    });

    const stillWorks = () => assert.deepEqual(engine.attend(ok({ causal: true })), reference);

    test('sizes past the limits fail before anything reaches the wasm heap', () => {
      const before = engine.memory();
      const tooLarge = CASES.filter(([kind]) => kind === 'limits' || kind === 'length');
      assert.ok(tooLarge.length >= 10);
      for (const [kind, fn, arg, call] of tooLarge) {
        assert.throws(() => call(engine), AttentionError, `${kind}: ${fn} ${arg}`);
      }
      assert.deepEqual(engine.memory(), before);
    });

    test('1,000 failing calls leave the allocator where it was (JS-side and core-side checks)', () => {
      CASES.forEach(([, , , call]) => assert.throws(() => call(engine), AttentionError)); // warm up
      const before = engine.memory();
      for (let i = 0; i < 1000; i++) {
        const [kind, fn, arg, call] = CASES[i % CASES.length];
        assert.throws(() => call(engine), AttentionError, `${kind}: ${fn} ${arg}`);
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
      calls.forEach((c) => c()); // warm up
      const before = engine.memory();
      for (let i = 0; i < 1000; i++) calls[i % calls.length]();
      const after = engine.memory();
      assert.equal(after.usedBytes, before.usedBytes);
      assert.equal(after.heapBytes, before.heapBytes);
    });
  });
}

test('loadEngine rejects unknown options and a non-boolean simd', async () => {
  await assert.rejects(loadEngine({ simd: true, threads: 4 }), {
    name: 'AttentionError',
    message: "loadEngine: unknown option 'threads' (expected one of simd)",
  });
  await assert.rejects(loadEngine({ simd: 'yes' }), {
    name: 'AttentionError',
    message: "simd: expected true or false, got 'yes'",
  });
  await assert.rejects(loadEngine(42), { name: 'AttentionError', message: /^loadEngine: expected an options object/ });
});
