// loadFirstEngine: the lessons' engine on the module's first part (build/wasm/attention-first-*,
// the functions of cpp/bindings/bindings.cpp), the module the page starts on. Its functions give
// what the whole engine's give, bit for bit, in both builds; a function of the rest is an
// AttentionError that names it (code 'not-in-module') and stops nothing, leaks nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AttentionError, loadEngine, loadFirstEngine } from '../../web/src/engine.js';
import { randomRows } from '../support/random.js';

const same = (a, b, what) => assert.deepEqual(Array.from(a.data), Array.from(b.data), what);

for (const simd of [true, false]) {
  const build = simd ? 'SIMD' : 'scalar';

  test(`${build}: the first part computes what the whole engine computes`, async () => {
    const first = await loadFirstEngine({ simd });
    const whole = await loadEngine({ simd });
    assert.notEqual(first, whole);
    assert.equal(first.simd, simd);
    assert.deepEqual(first.limits, whole.limits);
    assert.deepEqual(first.choices, whole.choices);
    const [query, key, value] = [randomRows(5, 8, 1), randomRows(7, 8, 2), randomRows(7, 3, 3)];
    for (const options of [{}, { causal: true, temperature: 0.5 }, { keyPadding: [0, 0, 1, 0, 0, 0, 1] }]) {
      const a = first.attend({ query, key, value, ...options });
      const b = whole.attend({ query, key, value, ...options });
      for (const k of ['scores', 'weights', 'output']) same(a[k], b[k], `attend ${k}`);
    }
    const [Wq, Wk, Wv, Wo] = [11, 12, 13, 14].map((seed) => randomRows(8, 8, seed));
    const mh = (e) => e.multiHead({ query, key, value: key, heads: 2, Wq, Wk, Wv, Wo });
    same(mh(first).output, mh(whole).output, 'multiHead');
    same(first.softmax({ scores: query }).weights, whole.softmax({ scores: query }).weights, 'softmax');
    const draw = (e) => e.randomMatrix({ rows: 4, cols: 6, seed: 7, streams: [3, 1, 4, 1] });
    same(draw(first), draw(whole), 'randomMatrix');
    same(first.sinusoidal({ n: 6, d: 8 }), whole.sinusoidal({ n: 6, d: 8 }), 'sinusoidal');
    const v = (e) => e.varianceExperiment({ dk: 16, samples: 2000, seed: 3 }).raw.variance;
    assert.equal(v(first), v(whole));
  });

  test(`${build}: a function of the rest is an AttentionError naming it; the engine keeps working`, async () => {
    const first = await loadFirstEngine({ simd });
    const [query, key, value] = [randomRows(4, 8, 4), randomRows(4, 8, 5), randomRows(4, 8, 6)];
    const used = first.memory().usedBytes;
    const calls = {
      flashAttend: () => first.flashAttend({ query, key, value }),
      layerNorm: () => first.layerNorm({ x: [[1, 2, 3]], gamma: [1, 1, 1], beta: [0, 0, 0] }),
      attendWithBug: () => first.attendWithBug({ query, key, value, bug: 'no-scale' }),
      varianceSample: () => first.varianceSample({ dk: 8, seed: 1 }),
    };
    for (const [name, call] of Object.entries(calls)) {
      assert.throws(
        call,
        (e) => e instanceof AttentionError && e.code === 'not-in-module' && e.message.startsWith(`${name}:`),
        name,
      );
    }
    assert.equal(first.stopped, false);
    assert.equal(first.memory().usedBytes, used);
    assert.equal(first.attend({ query, key, value }).weights.rows, 4);
  });
}
