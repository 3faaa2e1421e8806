// The playground's trainer through the engine's JS API, in both wasm builds: PyTorch autograd
// golden vectors (tests/golden/train.json, made by tests/golden/make_train_golden.py), a seed
// reproducing a run, the probe's attention patterns, and every bad argument.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { goldenCases } from '../support/golden.js';

import { AttentionError } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';

const REL_TOL = 1e-4;
const GOLDEN = goldenCases('train.json');

// fn throws an AttentionError whose message matches re
const throwsMessage = (fn, re) => assert.throws(fn, (e) => e instanceof AttentionError && re.test(e.message));

const asMatrix = (w) => (Array.isArray(w[0]) ? w : [w]);

for (const simd of [true, false]) {
  describe(`trainer (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadTrainEngine({ simd });
    });

    test('the golden file has its three cases', () => {
      assert.deepEqual(
        GOLDEN.map((c) => c.name),
        ['two_layers_learned', 'one_layer_unscaled_sinusoidal', 'four_heads_no_position'],
      );
    });

    for (const c of GOLDEN) {
      test(`${c.name}: loss and every gradient match PyTorch autograd to 1e-4`, () => {
        const t = engine.trainer({ ...c.config, seed: 5 });
        try {
          const names = Object.keys(t.parameters());
          assert.deepEqual(names.sort(), Object.keys(c.weights).sort());
          t.setParameters(Object.fromEntries(names.map((n) => [n, asMatrix(c.weights[n])])));
          const r = t.gradients({ tokens: c.tokens, targets: c.targets });
          assert.ok(Math.abs(r.loss - c.loss) <= REL_TOL * c.loss, `loss ${r.loss} vs ${c.loss}`);
          for (const name of names) {
            const want = asMatrix(c.gradients[name]).flat();
            const got = r.gradients[name].data;
            assert.equal(got.length, want.length, name);
            const largest = Math.max(...want.map(Math.abs));
            if (name.endsWith('.bk')) {
              // zero in exact arithmetic: the softmax ignores q·bk, the same in every score of a row
              assert.ok(largest < 1e-6 && got.every((x) => Math.abs(x) < 1e-6), name);
              continue;
            }
            for (let i = 0; i < want.length; i++) {
              assert.ok(
                Math.abs(got[i] - want[i]) <= REL_TOL * largest,
                `${name}[${i}]: engine ${got[i]}, torch ${want[i]} (largest ${largest})`,
              );
            }
          }
        } finally {
          t.delete();
        }
      });

      test(`${c.name}: the first 20 Adam steps give torch.optim.Adam's losses`, () => {
        const t = engine.trainer({ ...c.config });
        try {
          t.setParameters(Object.fromEntries(Object.keys(c.weights).map((n) => [n, asMatrix(c.weights[n])])));
          c.adamLosses.forEach((want, i) => {
            const r = t.stepOn({ tokens: c.tokens, targets: c.targets });
            assert.equal(r.step, i + 1);
            assert.ok(Math.abs(r.loss - want) <= REL_TOL * want, `step ${i}: ${r.loss} vs ${want}`);
          });
        } finally {
          t.delete();
        }
      });
    }

    test('a seed reproduces the run; another seed gives another one', () => {
      const opts = { task: 'induction', layers: 2, heads: 2, dModel: 16, seed: 9, batch: 8 };
      const a = engine.trainer(opts),
        b = engine.trainer(opts),
        c = engine.trainer({ ...opts, seed: 10 });
      try {
        const ra = a.step(5),
          rb = b.step(5),
          rc = c.step(5);
        assert.deepEqual(ra, rb);
        assert.equal(ra.step, 5);
        assert.equal(ra.losses.length, 5);
        assert.notDeepEqual(Array.from(ra.losses), Array.from(rc.losses));
        assert.deepEqual(a.probe(), b.probe());
      } finally {
        a.delete();
        b.delete();
        c.delete();
      }
    });

    test("the probe: every head's causal pattern, predictions, the task's tokens", () => {
      const t = engine.trainer({ task: 'sort', layers: 2, heads: 4, dModel: 16 });
      try {
        assert.deepEqual(t.task, { vocab: 11, separator: 10, rule: t.task.rule, length: 16 });
        const p = t.probe();
        assert.equal(p.tokens.length, 16);
        assert.equal(p.tokens[8], 10);
        assert.equal(p.patterns.length, 2);
        for (const layer of p.patterns) {
          assert.equal(layer.length, 4);
          for (const m of layer) {
            assert.equal(m.rows, 16);
            for (let i = 0; i < 16; i++) {
              let sum = 0;
              for (let j = 0; j < 16; j++) {
                if (j > i) assert.equal(m.data[i * 16 + j], 0);
                sum += m.data[i * 16 + j];
              }
              assert.ok(Math.abs(sum - 1) < 1e-5);
            }
          }
        }
        const own = t.run([3, 1, 4, 1, 5]);
        assert.equal(own.patterns[0][0].rows, 5);
        assert.equal(own.predictions.length, 5);
      } finally {
        t.delete();
      }
    });

    test('random-induction: 32 tokens of 64, the probe and its own sequences of up to 32 tokens', () => {
      const t = engine.trainer({ task: 'random-induction', dModel: 16, batch: 4 });
      try {
        assert.equal(engine.limits.trainLength, 32);
        assert.deepEqual(t.task, { vocab: 64, separator: -1, rule: t.task.rule, length: 32 });
        const p = t.probe();
        assert.equal(p.tokens.length, 32);
        assert.equal(p.patterns[1][0].rows, 32);
        assert.ok(Number.isFinite(p.loss) && p.accuracy >= 0 && p.accuracy <= 1);
        // targets only in the second copy of the segment, each the token after it in the first
        const targets = Array.from(p.targets);
        const at = targets.findIndex((x) => x >= 0);
        const m = targets.filter((x) => x >= 0).length + 1;
        assert.ok(m >= 6 && m <= 12, `segment of ${m}`);
        assert.equal(t.run(new Array(32).fill(63)).predictions.length, 32);
        throwsMessage(() => t.run(new Array(33).fill(0)), /^tokens: expected at most 32 tokens, got 33$/);
        throwsMessage(() => t.run([64]), /^tokens: entry 0 is 64 \(expected a token from 0 to 63\)$/);
        assert.ok(at > 0);
      } finally {
        t.delete();
      }
    });

    // With Wq = Wk = 0 every score is 0 and every row is uniform over its causal prefix: row i puts
    // 1 / (i + 1) on each position, whatever the tokens. So on sequences of a half written twice
    // the previous-token score is the mean over i >= 1 of 1 / (i + 1), and the induction score
    // (rows of the second half, whose token occurred i - half before) the mean over those rows.
    test('head scores: uniform patterns give the scores worked out by hand', () => {
      for (const [task, T] of [
        ['random-induction', 32],
        ['previous-token', 16],
      ]) {
        const t = engine.trainer({ task, layers: 2, heads: 2, dModel: 16 });
        try {
          const zero = { rows: 16, cols: 16, data: new Float32Array(256) };
          t.setParameters({ 'layers.0.Wq': zero, 'layers.0.Wk': zero, 'layers.1.Wq': zero, 'layers.1.Wk': zero });
          const s = t.headScores();
          assert.equal(s.layers, 2);
          assert.equal(s.heads, 2);
          let prev = 0;
          for (let i = 1; i < T; i++) prev += 1 / (i + 1) / (T - 1);
          let induction = 0;
          for (let i = T / 2; i < T; i++) induction += 1 / (i + 1) / (T / 2);
          for (let k = 0; k < 4; k++) {
            assert.ok(
              Math.abs(s.previousToken[k] - prev) < 1e-6,
              `${task} head ${k}: ${s.previousToken[k]} vs ${prev}`,
            );
            assert.ok(
              Math.abs(s.induction[k] - induction) < 1e-6,
              `${task} head ${k}: ${s.induction[k]} vs ${induction}`,
            );
          }
        } finally {
          t.delete();
        }
      }
    });

    test('ablating a head zeroes its output for one pass: the same as zeroing its block of W_o', () => {
      const t = engine.trainer({ task: 'random-induction', layers: 2, heads: 2, dModel: 16, batch: 8, seed: 3 });
      try {
        t.step(20);
        const whole = t.evaluate();
        const wholeProbe = t.probe();
        const weights = t.parameters();
        for (const [l, h] of [
          [0, 0],
          [0, 1],
          [1, 0],
          [1, 1],
        ]) {
          const ablated = t.evaluate({ ablate: [[l, h]] });
          const probe = t.probe({ ablate: [[l, h]] });
          assert.notEqual(ablated.loss, whole.loss);
          assert.deepEqual(t.evaluate(), whole, 'the next pass is the whole model again');
          // the same model with columns h * 8 .. h * 8 + 7 of layers.l.Wo set to zero
          const name = `layers.${l}.Wo`;
          const wo = weights[name];
          const data = Float32Array.from(wo.data);
          for (let r = 0; r < wo.rows; r++) for (let k = h * 8; k < h * 8 + 8; k++) data[r * wo.cols + k] = 0;
          t.setParameters({ [name]: { rows: wo.rows, cols: wo.cols, data } });
          const zeroed = t.evaluate();
          const zeroedProbe = t.probe();
          t.setParameters({ [name]: wo });
          assert.ok(
            Math.abs(zeroed.loss - ablated.loss) < 1e-5 * zeroed.loss,
            `${name}: ${ablated.loss} vs ${zeroed.loss}`,
          );
          assert.equal(ablated.accuracy, zeroed.accuracy);
          assert.deepEqual(Array.from(probe.predictions), Array.from(zeroedProbe.predictions));
          assert.ok(Math.abs(probe.loss - zeroedProbe.loss) < 1e-5 * zeroedProbe.loss);
        }
        assert.deepEqual(t.probe(), wholeProbe);
        const both = t.evaluate({
          ablate: [
            [0, 0],
            [1, 1],
          ],
        });
        assert.ok(Number.isFinite(both.loss));
        assert.deepEqual(t.evaluate({ ablate: [] }), whole);
        const bad = [
          [
            { ablate: [[2, 0]] },
            /^ablate: entry 0 is \[2, 0\] \(expected \[layer, head\] with layer 0 to 1 and head 0 to 1\)$/,
          ],
          [{ ablate: [[0, 1.5]] }, /^ablate: entry 0 is \[0, 1\.5\] \(expected \[layer, head\]/],
          [{ ablate: [[0]] }, /^ablate: entry 0 is \[0\] \(expected \[layer, head\]/],
          [{ ablate: [[0, 'a']] }, /^ablate: entry 0 is \[0, 'a'\] \(expected \[layer, head\]/],
          [{ ablate: [[0, 0, 0]] }, /^ablate\[0\]: expected at most 2 numbers, got 3$/],
          [
            {
              ablate: [
                [0, 0],
                [0, 0],
              ],
            },
            /^ablate: entry 1 names layer 0, head 0 again/,
          ],
          [{ ablate: 'all' }, /^ablate: expected an array of \[layer, head\] pairs, got 'all'$/],
          [{ ablate: [5] }, /^ablate\[0\]: expected an array of numbers, got 5$/],
          [{ ablate: new Array(5).fill([0, 0]) }, /^ablate: expected at most 4 \[layer, head\] pairs, got 5$/],
          [{ heads: [0] }, /^evaluate: unknown option 'heads'/],
        ];
        for (const [options, re] of bad) throwsMessage(() => t.evaluate(options), re);
        throwsMessage(() => t.probe({ ablate: [[-1, 0]] }), /^ablate: entry 0/);
      } finally {
        t.delete();
      }
    });

    test('previous-token is learned in a few hundred steps', () => {
      const t = engine.trainer({ task: 'previous-token', layers: 1, heads: 2, dModel: 32, seed: 1 });
      try {
        let accuracy = 0;
        for (let i = 0; i < 16 && accuracy < 0.99; i++) {
          t.step(25);
          accuracy = t.evaluate().accuracy;
        }
        assert.ok(accuracy >= 0.99, `held-out accuracy ${accuracy}`);
      } finally {
        t.delete();
      }
    });

    test('bad arguments throw AttentionError naming the argument', () => {
      const bad = [
        [{ layers: 3 }, /^layers: expected 1 or 2, got 3$/],
        [{ heads: 0 }, /^heads: expected an integer from 1 to 4, got 0$/],
        [{ heads: 3 }, /^dModel: expected a multiple of heads \(3\), got 64$/],
        [{ dModel: 129 }, /^dModel: expected an integer from 4 to 128, got 129$/],
        [{ learningRate: NaN }, /^learningRate: expected a number from 1e-5 to 1, got NaN$/],
        [
          { task: 'copy' },
          /^task: expected one of 'previous-token', 'reverse', 'sort', 'induction', 'random-induction', got 'copy'$/,
        ],
        [{ position: 'rope' }, /^position: expected one of 'learned', 'sinusoidal', 'none', got 'rope'$/],
        [{ scale: 'yes' }, /^scale: expected true or false, got 'yes'$/],
        [{ seed: -1 }, /^seed: expected a non-negative integer below 2\^32/],
        [{ batch: 65 }, /^batch: expected an integer from 1 to 64, got 65$/],
        [{ depth: 2 }, /^trainer: unknown option 'depth'/],
      ];
      for (const [opts, message] of bad) {
        assert.throws(
          () => engine.trainer(opts),
          (e) => e instanceof AttentionError && message.test(e.message),
          JSON.stringify(opts),
        );
      }
      const t = engine.trainer({ task: 'reverse', dModel: 8 });
      try {
        throwsMessage(() => t.step(0), /^steps: expected an integer from 1 to 1000, got 0$/);
        throwsMessage(() => t.step(1.5), /^steps: expected an integer from 1 to 1000, got 1.5$/);
        throwsMessage(() => t.run([1, 11]), /^tokens: entry 1 is 11 \(expected a token from 0 to 10\)$/);
        throwsMessage(() => t.run([]), /^tokens: expected 1 to 16 tokens, got none$/);
        throwsMessage(() => t.run(new Array(17).fill(0)), /^tokens: expected at most 16 tokens, got 17$/);
        throwsMessage(() => t.run([1, 'a']), /^tokens: entry 1 is 'a' \(expected an integer token\)$/);
        throwsMessage(
          () => t.setParameters({ embedding: [[1, 2]] }),
          /^embedding: expected shape \(11, 8\), got \(1, 2\)$/,
        );
        throwsMessage(() => t.setParameters({ nope: [[1]] }), /^nope: not a tensor of this model/);
        throwsMessage(
          () => t.gradients({ tokens: [[1, 2]], targets: [[1]] }),
          /^targets: expected 1 × 2 like tokens, got 1 × 1$/,
        );
        throwsMessage(() => t.gradients({ tokens: [[1, 2]], targets: [[1, 12]] }), /^targets: entry 1 is 12/);
      } finally {
        t.delete();
      }
      throwsMessage(() => t.step(1), /^trainer.step: this trainer has been deleted$/);
    });

    test('creating, training and deleting trainers leaves nothing allocated', () => {
      const once = () => {
        const t = engine.trainer({ task: 'induction', dModel: 16, batch: 4 });
        t.step(2);
        t.probe();
        t.run([1, 2, 3]);
        try {
          t.run([99]);
        } catch {
          // expected: a refused token
        }
        t.delete();
      };
      once();
      const before = engine.memory();
      for (let i = 0; i < 50; i++) once();
      assert.equal(engine.memory().usedBytes, before.usedBytes);
    });
  });
}
