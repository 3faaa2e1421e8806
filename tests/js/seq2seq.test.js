// The RNN encoder–decoder through the trainer module's JS API, in both wasm builds: PyTorch
// autograd golden vectors (tests/golden/seq2seq.json, made by tests/golden/make_seq2seq_golden.py),
// a seed reproducing a run, the probe's alignment, translating your own sentence, the accuracy by
// length, every bad argument, and no memory left behind.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { goldenCases } from '../support/golden.js';

import { AttentionError } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';

const REL_TOL = 1e-4;
const GOLDEN = goldenCases('seq2seq.json');

const throwsMessage = (fn, re) => assert.throws(fn, (e) => e instanceof AttentionError && re.test(e.message));
const asMatrix = (w) => (Array.isArray(w[0]) ? w : [w]);
const configOf = (c) => {
  const { task, attention, bidirectional, hidden, embed, learningRate, clip } = c.config;
  return { task, attention, bidirectional, hidden, embed, learningRate, clip, maxLength: 12 };
};

for (const simd of [true, false]) {
  describe(`seq2seq (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadTrainEngine({ simd });
    });

    test('the golden file has its five cases', () => {
      assert.equal(GOLDEN.length, 5);
    });

    for (const c of GOLDEN) {
      test(`${c.name}: loss and every gradient match PyTorch autograd to 1e-4`, () => {
        const m = engine.seq2seq(configOf(c));
        try {
          const names = Object.keys(m.parameters());
          assert.deepEqual([...names].sort(), Object.keys(c.weights).sort());
          m.setParameters(Object.fromEntries(names.map((n) => [n, asMatrix(c.weights[n])])));
          const r = m.gradients({ source: c.source, target: c.target });
          assert.ok(Math.abs(r.loss - c.loss) <= REL_TOL * c.loss, `loss ${r.loss} vs ${c.loss}`);
          for (const name of names) {
            const want = asMatrix(c.gradients[name]).flat();
            const got = r.gradients[name].data;
            assert.equal(got.length, want.length, name);
            const largest = Math.max(...want.map(Math.abs));
            for (let i = 0; i < want.length; i++) {
              assert.ok(
                Math.abs(got[i] - want[i]) <= REL_TOL * largest,
                `${name}[${i}]: engine ${got[i]}, torch ${want[i]} (largest ${largest})`,
              );
            }
          }
        } finally {
          m.delete();
        }
      });

      test(`${c.name}: the first 20 clipped Adam steps give torch's losses`, () => {
        const m = engine.seq2seq(configOf(c));
        try {
          m.setParameters(Object.fromEntries(Object.keys(c.weights).map((n) => [n, asMatrix(c.weights[n])])));
          c.adamLosses.forEach((want, i) => {
            const r = m.stepOn({ source: c.source, target: c.target });
            assert.equal(r.step, i + 1);
            assert.ok(Math.abs(r.loss - want) <= REL_TOL * want, `step ${i}: ${r.loss} vs ${want}`);
          });
        } finally {
          m.delete();
        }
      });
    }

    test('a seed reproduces the run; another seed gives another one', () => {
      const opts = { task: 'translate', hidden: 16, embed: 8, batch: 8, seed: 9 };
      const a = engine.seq2seq(opts),
        b = engine.seq2seq(opts),
        c = engine.seq2seq({ ...opts, seed: 10 });
      try {
        const ra = a.step(3),
          rb = b.step(3),
          rc = c.step(3);
        assert.deepEqual(ra, rb);
        assert.equal(ra.step, 3);
        assert.notDeepEqual(Array.from(ra.losses), Array.from(rc.losses));
        assert.deepEqual(a.probe(), b.probe());
        assert.deepEqual(a.evaluateByLength(), b.evaluateByLength());
      } finally {
        a.delete();
        b.delete();
        c.delete();
      }
    });

    test('the probe: the reordered sentence, one alignment row per output step, each summing to 1', () => {
      const m = engine.seq2seq({ task: 'translate', hidden: 16, embed: 8 });
      try {
        const p = m.probe();
        assert.equal(p.sourceWords.join(' '), 'the cat that eats fish chases the mouse');
        assert.equal(p.targetWords.join(' '), '吃 鱼 的 猫 追 老鼠');
        assert.equal(p.predictions.length, 7);
        assert.equal(p.alignment.rows, 7);
        assert.equal(p.alignment.cols, 8);
        for (let i = 0; i < 7; i++) {
          const row = p.alignment.data.subarray(i * 8, i * 8 + 8);
          assert.ok(Math.abs(row.reduce((s, x) => s + x, 0) - 1) < 1e-5);
        }
        const own = m.translate('the big dog sees fish');
        assert.deepEqual(own.targetWords, ['大', '狗', '看', '鱼']);
        assert.equal(own.alignment.cols, 5);
        assert.equal(own.alignment.rows, own.predictions.length);
        assert.ok(own.predictions.length <= 2 * 24 + 1);
        const notASentence = m.translate(['cat', 'the']);
        assert.equal(notASentence.target, undefined);
      } finally {
        m.delete();
      }
      const none = engine.seq2seq({ task: 'copy', attention: 'none', hidden: 16, embed: 8 });
      try {
        const p = none.probe();
        assert.equal(p.alignment, undefined);
        assert.equal(p.source.length, 12);
      } finally {
        none.delete();
      }
    });

    test('evaluateByLength covers every source length 2 .. maxLength', () => {
      const m = engine.seq2seq({ task: 'reverse', hidden: 8, embed: 4, maxLength: 10 });
      try {
        const r = m.evaluateByLength();
        assert.deepEqual(Array.from(r.lengths), [2, 3, 4, 5, 6, 7, 8, 9, 10]);
        assert.ok(Array.from(r.pairs).every((n) => n === 8));
        for (const a of [...r.tokenAccuracy, ...r.sequenceAccuracy]) assert.ok(a >= 0 && a <= 1);
      } finally {
        m.delete();
      }
    });

    test('with attention, copy is learned on short inputs in a few hundred steps', () => {
      const m = engine.seq2seq({ task: 'copy', hidden: 32, embed: 16, maxLength: 8, learningRate: 0.01 });
      try {
        let accuracy = 0;
        for (let i = 0; i < 12 && accuracy < 0.95; i++) {
          m.step(50);
          accuracy = m.evaluate().accuracy;
        }
        assert.ok(accuracy >= 0.95, `held-out accuracy ${accuracy}`);
      } finally {
        m.delete();
      }
    });

    test('bad arguments throw AttentionError naming the argument', () => {
      const bad = [
        [{ task: 'sort' }, /^task: expected one of 'copy', 'reverse', 'translate', got 'sort'$/],
        [
          { attention: 'scaled-dot' },
          /^attention: expected one of 'none', 'additive', 'dot', 'general', got 'scaled-dot'$/,
        ],
        [{ hidden: 3 }, /^hidden: expected an integer from 4 to 128, got 3$/],
        [{ hidden: 33 }, /^hidden: expected an even number when bidirectional/],
        [{ embed: 1.5 }, /^embed: expected an integer from 2 to 128, got 1.5$/],
        [{ maxLength: 64 }, /^maxLength: expected an integer from 8 to 32, got 64$/],
        [{ bidirectional: 1 }, /^bidirectional: expected true or false, got 1$/],
        [{ clip: -1 }, /^clip: expected a number from 0 to 1000000 \(0: no clipping\), got -1$/],
        [{ layers: 2 }, /^seq2seq: unknown option 'layers'/],
      ];
      for (const [opts, message] of bad) {
        assert.throws(
          () => engine.seq2seq(opts),
          (e) => e instanceof AttentionError && message.test(e.message),
          JSON.stringify(opts),
        );
      }
      const m = engine.seq2seq({ task: 'translate', hidden: 8, embed: 4, maxLength: 8 });
      try {
        throwsMessage(() => m.step(0), /^steps: expected an integer from 1 to 200, got 0$/);
        throwsMessage(() => m.translate('the cow'), /^tokens: 'cow' \(token 1\) is not a word of the task/);
        throwsMessage(() => m.translate([]), /^tokens: expected 1 to 8 tokens, got 0$/);
        throwsMessage(() => m.translate([0, 99]), /^tokens: token 1 is 99 \(expected an integer token from 0 to 14\)$/);
        throwsMessage(() => m.translate(new Array(9).fill(0)), /^tokens: expected at most 8 tokens, got 9$/);
        throwsMessage(() => m.translate([0, {}]), /^tokens: token 1 is an object/);
        throwsMessage(() => m.gradients({ source: [[0, 2]] }), /^target: expected an array/);
        throwsMessage(
          () => m.gradients({ source: [[0, 2]], target: [[0]] }),
          /^target\[0\]: token 0 is 0 \(expected an integer token from 1 to 14\)$/,
        );
        throwsMessage(() => m.gradients({ source: [[0, 2]], target: [[2], [2]] }), /^target: expected 1 sentences/);
        throwsMessage(() => m.setParameters({ nope: [[1]] }), /^nope: not a tensor of this model/);
        throwsMessage(
          () => m.setParameters({ 'output.bias': [[1, 2]] }),
          /^output.bias: expected shape \(1, 15\), got \(1, 2\)$/,
        );
      } finally {
        m.delete();
      }
      throwsMessage(() => m.step(1), /^seq2seq.step: this model has been deleted$/);
    });

    // Tokens are integers of the vocabulary, checked before they become ints: 2^32 + 3 is not
    // read as 3, nor 2^31 as -2^31; 2.5, NaN and negatives are refused (a seq2seq has no "no
    // target": a target's 0 is "</s>", which the decoder's input begins with, so a target starts
    // at 1). Every message names the argument and the token.
    test('tokens are checked integers: non-integers, negatives, out of vocabulary and past 2^31 are refused', () => {
      const m = engine.seq2seq({ task: 'copy', hidden: 8, embed: 4, maxLength: 8 });
      try {
        const top = m.task.sourceWords.length - 1;
        const targetTop = m.task.targetWords.length - 1;
        for (const bad of [2 ** 32 + 3, 2 ** 31, 2 ** 31 - 1, -1, -(2 ** 32) + 1, Math.max(top, targetTop) + 1]) {
          const re = new RegExp(`^tokens: token 1 is ${bad} \\(expected an integer token from 0 to ${top}\\)$`);
          throwsMessage(() => m.translate([1, bad]), re);
          throwsMessage(
            () => m.gradients({ source: [[1, bad]], target: [[1, 2]] }),
            new RegExp(`^source\\[0\\]: token 1 is ${bad} \\(expected an integer token from 0 to ${top}\\)$`),
          );
          throwsMessage(
            () => m.stepOn({ source: [[1, 2]], target: [[2, bad]] }),
            new RegExp(`^target\\[0\\]: token 1 is ${bad} \\(expected an integer token from 1 to ${targetTop}\\)$`),
          );
        }
        for (const [bad, text] of [
          [2.5, '2.5'],
          [NaN, 'NaN'],
          [Infinity, 'Infinity'],
          [[3], 'an object'],
          [null, 'null'],
        ]) {
          throwsMessage(
            () => m.translate([1, bad]),
            new RegExp(`^tokens: token 1 is ${text} \\(expected an integer token`),
          );
          throwsMessage(
            () => m.gradients({ source: [[1, 2]], target: [[bad]] }),
            new RegExp(`^target\\[0\\]: token 0 is ${text} \\(expected an integer token`),
          );
        }
        throwsMessage(() => m.stepOn({ source: [[1, 2]], target: [[0, 2]] }), /^target\[0\]: token 0 is 0 /);
        assert.equal(m.stepOn({ source: [[1, 2]], target: [[1, 2]] }).step, 1, 'a good pair still steps');
        assert.deepEqual(Array.from(m.translate([1, 2, 3]).source), [1, 2, 3]);
      } finally {
        m.delete();
      }
    });

    // Finite weights whose arithmetic overflows are refused as the attention trainer refuses them,
    // and nothing changes: evaluate, step, translate and probe keep answering with finite numbers.
    test('setParameters refuses finite weights that take training past float32, for every tensor it names', () => {
      const m = engine.seq2seq({ task: 'translate', hidden: 16, embed: 8, batch: 4, maxLength: 8 });
      try {
        const before = m.parameters();
        for (const name of [
          'encoder.weight_ih_l0',
          'encoder.weight_hh_l0',
          'attention.v',
          'decoder.weight_ih',
          'output.weight',
        ]) {
          const p = before[name];
          const huge = { rows: p.rows, cols: p.cols, data: new Float32Array(p.rows * p.cols).fill(3.4e38) };
          throwsMessage(
            () => m.setParameters({ [name]: huge }),
            new RegExp(
              `^${name.replace('.', '\\.')}: with these values training leaves float32 .*nothing was changed$`,
            ),
          );
          assert.deepEqual(m.parameters(), before, `${name}: nothing changed`);
        }
        const finite = (x) => assert.ok(Number.isFinite(x), String(x));
        finite(m.evaluate().loss);
        Array.from(m.step(2).losses).forEach(finite);
        Array.from(m.translate('the cat eats fish').alignment.data).forEach(finite);
        finite(m.probe().loss);
      } finally {
        m.delete();
      }
    });

    // A sentence given as one string is refused by its length before it is split (it took seconds
    // to split 50 MB first), then read no further than the words it may have; a long word is
    // quoted by its beginning.
    test('a string of megabytes is refused by its length, not split first', () => {
      const m = engine.seq2seq({ task: 'translate', hidden: 8, embed: 4, maxLength: 8 });
      try {
        const longest = Math.max(...m.task.sourceWords.map((w) => w.length));
        const most = 17 * longest;
        for (const text of ['the '.repeat(13e6), 'x'.repeat(50e6), ' '.repeat(50e6)]) {
          throwsMessage(
            () => m.translate(text),
            new RegExp(
              `^tokens: expected a sentence of at most 8 words \\(${most} characters\\), got ${text.length} characters$`,
            ),
          );
        }
        throwsMessage(() => m.translate('the '.repeat(9)), /^tokens: expected 1 to 8 tokens, got more than 8$/);
        throwsMessage(
          () => m.translate('x'.repeat(most)),
          /^tokens: 'x{32}…' \(token 0\) is not a word of the task \(expected one of /,
        );
        throwsMessage(() => m.translate(' '.repeat(most)), /^tokens: expected 1 to 8 tokens, got 0$/);
        assert.deepEqual(m.translate('  the   cat ').sourceWords, ['the', 'cat']);
      } finally {
        m.delete();
      }
    });

    test('at most 50 live encoder–decoders; the 51st is refused by name and the others keep working', () => {
      const small = { task: 'copy', hidden: 4, embed: 2, batch: 1, maxLength: 8 };
      const models = [];
      try {
        for (let i = 0; i < 50; i++) models.push(engine.seq2seq({ ...small, seed: i + 1 }));
        assert.equal(engine.limits.maxSeq2Seqs, 50);
        throwsMessage(
          () => engine.seq2seq(small),
          /^seq2seq: at most 50 live encoder–decoders at once \(delete\(\) one/,
        );
        assert.equal(models[49].step(1).step, 1);
        models.pop().delete();
        models.push(engine.seq2seq(small));
        assert.equal(models[49].step(1).step, 1);
      } finally {
        for (const m of models) m.delete();
      }
    });

    test('creating, training, decoding and deleting models leaves nothing allocated', () => {
      const once = () => {
        const m = engine.seq2seq({ task: 'translate', hidden: 8, embed: 4, batch: 4, maxLength: 8 });
        m.step(2);
        m.probe();
        m.evaluateByLength();
        m.translate('the cat');
        try {
          m.translate([99]);
        } catch {
          // expected: a refused token
        }
        m.delete();
      };
      once();
      const before = engine.memory();
      for (let i = 0; i < 20; i++) once();
      assert.equal(engine.memory().usedBytes, before.usedBytes);
    });
  });
}
