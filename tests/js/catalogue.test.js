// The bad-input catalogue (the tables of tests/js/bad-inputs.js and tests/js/bad-buffers.js):
// malformed calls across every engine and trainer entry point, by class. Each must throw an
// AttentionError whose message starts with the argument's name and says what was expected, or,
// where the input is odd but fine (a shared buffer, a buffer changed after it was read, a getter
// that re-enters), give the same result as the plain call; then the engine must still answer a
// valid call correctly (checked against the double-precision references) and hold no more wasm
// memory than before.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine, AttentionError } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { attendRef, expectAttend, expectMatrix, softmaxRef } from './reference.js';
import { CASES, MODEL_CASES, att, chunk } from './bad-inputs.js';
import { BUFFER_CASES, MODEL_BUFFER_CASES, REENTRANT_CASES, SAME, plainCall, plainModelCall } from './bad-buffers.js';
import { goldenCases } from '../support/golden.js';
import { readFileSync } from 'node:fs';

// Every public function of both engines appears in the catalogue.
const TRAINER_ENTRY_POINTS = [
  'trainer',
  'trainer.run',
  'trainer.gradients',
  'trainer.stepOn',
  'trainer.evaluate',
  'trainer.probe',
  'trainer.setParameters',
  'seq2seq',
  'seq2seq.translate',
  'seq2seq.gradients',
  'seq2seq.stepOn',
  'seq2seq.setParameters',
];
const ALL = [...CASES, ...MODEL_CASES, ...BUFFER_CASES, ...REENTRANT_CASES, ...MODEL_BUFFER_CASES];

test('the catalogue covers every engine function and every trainer entry point that takes an argument', async () => {
  const engine = await loadEngine({ simd: true });
  const covered = new Set(ALL.map((c) => c[1]));
  const functions = Object.keys(engine).filter(
    (k) => typeof engine[k] === 'function' && !/^(model)?[mM]emory$/.test(k),
  );
  assert.ok(functions.length >= 26, functions.join(' '));
  for (const fn of [...functions, ...TRAINER_ENTRY_POINTS]) assert.ok(covered.has(fn), `no case for ${fn}`);
  for (const klass of ['detached buffer', 'shared buffer', 'getter that deletes a model']) {
    for (const fn of TRAINER_ENTRY_POINTS.filter((f) => f.includes('.'))) {
      assert.ok(
        ALL.some((c) => c[0] === klass && c[1] === fn),
        `no ${klass} case for ${fn}`,
      );
    }
  }
  const classes = {};
  for (const [klass] of ALL) classes[klass] = (classes[klass] || 0) + 1;
  console.log(`${ALL.length} cases:`, classes);
});

for (const simd of [true, false]) {
  describe(`bad-input catalogue (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine, trainEngine;
    before(async () => {
      engine = await loadEngine({ simd });
      trainEngine = await loadTrainEngine({ simd });
      chunk(engine); // warm-up: the first calls of a module allocate for good
      engine.attend(att());
      for (const [, name] of REENTRANT_CASES) plainCall(name)(engine, trainEngine);
    });

    // A valid call afterwards gives the right answer (against the double reference).
    const stillCorrect = () => {
      const args = att({ causal: true, temperature: 0.7 });
      expectAttend('attend after the error', engine.attend(args), attendRef(args));
      expectMatrix('softmax after the error', engine.softmax({ scores: [[2.6, 1.2, 6.1, 2.0]] }).weights, [
        softmaxRef([2.6, 1.2, 6.1, 2.0]),
      ]);
    };

    for (const [kind, fn, arg, call, expectation] of CASES) {
      test(`${kind}: ${fn} ${arg} -> AttentionError "${arg}: ${expectation.source.slice(1, 60)}…"`, () => {
        const before = engine.memory();
        assert.throws(
          () => call(engine),
          (e) => {
            assert.ok(e instanceof AttentionError, `${e && e.name}: ${e && e.message}`);
            assert.ok(e.message.startsWith(`${arg}: `), `"${e.message}" names ${arg}`);
            assert.match(e.message.slice(arg.length + 2), expectation);
            return true;
          },
        );
        assert.equal(engine.memory().usedBytes, before.usedBytes, 'nothing left allocated');
        stillCorrect();
      });
    }

    for (const [kind, fn, arg, call, expected] of [...BUFFER_CASES, ...REENTRANT_CASES]) {
      const says = expected === SAME ? 'the same result' : `AttentionError "${arg}: ${expected.source.slice(1, 50)}…"`;
      test(`${kind}: ${fn} ${arg} -> ${says}`, () => {
        const before = [engine.memory().usedBytes, trainEngine.memory().usedBytes];
        if (expected === SAME) {
          assert.deepEqual(call(engine, trainEngine), plainCall(fn)(engine, trainEngine));
        } else {
          assert.throws(
            () => call(engine, trainEngine),
            (e) => {
              assert.ok(e instanceof AttentionError, `${e && e.name}: ${e && e.message}`);
              assert.ok(e.message.startsWith(`${arg}: `), `"${e.message}" names ${arg}`);
              assert.match(e.message.slice(arg.length + 2), expected);
              return true;
            },
          );
        }
        assert.deepEqual([engine.memory().usedBytes, trainEngine.memory().usedBytes], before, 'nothing left allocated');
        assert.equal(engine.stopped || trainEngine.stopped, false);
        stillCorrect();
      });
    }

    test('an array-like that grows while it is read cannot grow what the engine reads', () => {
      let reads = 0;
      // a length that claims 3 numbers when checked, then 10^8
      const growing = new Proxy([1, 2, 3], {
        get(target, key) {
          if (key === 'length') return reads++ === 0 ? 3 : 1e8;
          return Reflect.get(target, key);
        },
      });
      const before = engine.memory();
      let result;
      try {
        result = engine.softmax({ scores: { rows: 1, cols: 3, data: growing } });
      } catch (e) {
        assert.ok(e instanceof AttentionError, e.message);
      }
      if (result) expectMatrix('softmax of the snapshot', result.weights, [softmaxRef([1, 2, 3])]);
      assert.equal(engine.memory().heapBytes, before.heapBytes, 'the heap did not grow');
      assert.equal(engine.memory().usedBytes, before.usedBytes);
      stillCorrect();
    });
  });
}

// The models' cases: each load or call rejects (or throws) its AttentionError, or, for a buffer
// that is odd but fine, gives the top token the plain bytes give; it leaves the model module's
// memory as it was, and a live model still answers as PyTorch does.
const GPT2 = goldenCases('gpt2.json')[0];

for (const simd of [true, false]) {
  describe(`bad-input catalogue: GPT-2 models (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    const fixture = {
      bytes: new Uint8Array(readFileSync(new URL(`../golden/${GPT2.file}`, import.meta.url))),
      config: GPT2.config,
      ids: GPT2.ids,
    };
    before(async () => {
      engine = await loadEngine({ simd });
      fixture.model = await engine.loadModel(fixture.bytes, { config: GPT2.config });
      fixture.deleted = await engine.loadModel(fixture.bytes, { config: GPT2.config });
      fixture.deleted.delete();
    });
    after(() => fixture.model.delete());

    // the live model's most likely next token after the last id, against PyTorch's logits
    const stillCorrect = async () => {
      const r = await fixture.model.run(GPT2.ids, { topK: 1 });
      const last = GPT2.logits.at(-1);
      const best = last.indexOf(Math.max(...last));
      assert.equal(r.topK.ids.at(-1), best);
    };

    for (const [kind, fn, arg, call, expected] of [...MODEL_CASES, ...MODEL_BUFFER_CASES]) {
      const says = expected === SAME ? 'the same result' : `AttentionError "${arg}: ${expected.source.slice(1, 50)}…"`;
      test(`${kind}: ${fn} ${arg} -> ${says}`, async () => {
        const before = await engine.modelMemory();
        if (expected === SAME) {
          assert.equal(await call(engine, fixture), await plainModelCall(engine, fixture));
        } else {
          await assert.rejects(
            async () => call(engine, fixture),
            (e) => {
              assert.ok(e instanceof AttentionError, `${e && e.name}: ${e && e.message}`);
              assert.ok(e.message.startsWith(`${arg}: `), `"${e.message}" names ${arg}`);
              assert.match(e.message.slice(arg.length + 2), expected);
              return true;
            },
          );
        }
        assert.equal((await engine.modelMemory()).usedBytes, before.usedBytes, 'nothing left allocated');
        await stillCorrect();
      });
    }
  });
}
