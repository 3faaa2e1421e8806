// The trainer module's memory, in both wasm builds: its trainers and encoder–decoders share one
// budget (trainEngine.limits.maxModelBytes), each counted from the moment it is made at the most
// it can hold. Filled to that bound with every kind of model at its largest and every model
// stepped, the module refuses the next model of either kind by name (saying what is in use and
// what the bound is) and keeps answering every entry point of the models it holds. (Without the
// budget, the 13th step of a largest encoder–decoder stopped the module.) A file of its own: the
// module keeps its grown memory until the process ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { AttentionError } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';

const LARGEST_TRAINER = { task: 'random-induction', layers: 2, heads: 4, dModel: 128, batch: 64 };
const LARGEST_SEQ2SEQ = { task: 'translate', hidden: 128, embed: 128, batch: 64, maxLength: 32 };
const FULL =
  /^(trainer|seq2seq): the live trainers and encoder–decoders hold up to (\d+) MiB and this one needs (\d+) MiB, past the 800 MiB they may use together \(delete\(\) one you no longer need, or make a smaller one\)$/;

// The refusal of make(), or null when it made a model (kept in `live`).
function tryMake(make, live) {
  try {
    live.push(make());
    return null;
  } catch (e) {
    assert.ok(e instanceof AttentionError, `${e && e.name}: ${e && e.message}`);
    return e.message;
  }
}

for (const simd of [true, false]) {
  test(`filled to its bound with every kind of model, the trainer module refuses the next by name and keeps answering (${simd ? 'SIMD' : 'scalar'} build)`, async () => {
    const te = await loadTrainEngine({ simd });
    assert.equal(te.limits.maxModelBytes, 800 * 2 ** 20);
    const before = te.memory().usedBytes;
    const live = [];
    const kinds = ['none', 'additive', 'dot', 'general'];
    const makers = [
      (i) => () => te.seq2seq({ ...LARGEST_SEQ2SEQ, attention: kinds[i % 4], bidirectional: i % 2 === 0, seed: i }),
      (i) => () => te.trainer({ ...LARGEST_TRAINER, position: ['learned', 'sinusoidal'][i % 2], seed: i }),
    ];
    // one of each kind in turn, then whichever still fits, until neither does
    const refused = [null, null];
    for (let i = 0; refused[0] === null || refused[1] === null; i++) {
      const k = refused[i % 2] === null ? i % 2 : 1 - (i % 2);
      refused[k] = tryMake(makers[k](i), live);
    }
    const seq2seqs = live.filter((m) => m.config.hidden !== undefined);
    const trainers = live.filter((m) => m.config.dModel !== undefined);
    assert.ok(seq2seqs.length >= 4 && trainers.length >= 4, `${seq2seqs.length} and ${trainers.length}`);
    for (const [k, message] of refused.entries()) {
      const m = FULL.exec(message);
      assert.ok(m, message);
      assert.equal(m[1], ['seq2seq', 'trainer'][k]);
      const [inUse, needs] = [Number(m[2]), Number(m[3])];
      assert.ok(inUse <= 800 && inUse + needs > 800, message);
    }
    // every model steps, and every entry point of one of each kind answers
    for (const m of live) assert.equal(m.step(1).step, 1);
    const [m, t] = [seq2seqs[0], trainers[0]];
    for (const call of [
      () => m.evaluate(),
      () => m.evaluateByLength(),
      () => m.probe(),
      () => m.translate('the cat eats fish'),
      () => m.gradients({ source: [[1, 2]], target: [[2, 3]] }),
      () => m.stepOn({ source: [[1, 2]], target: [[2, 3]] }),
      () => m.setParameters({ 'output.bias': m.parameters()['output.bias'] }),
      () => t.evaluate({ ablate: [[0, 1]] }),
      () => t.probe(),
      () => t.headScores(),
      () => t.run([1, 2, 3]),
      () => t.gradients({ tokens: [[1, 2, 3]], targets: [[2, 3, 4]] }),
      () => t.stepOn({ tokens: [[1, 2, 3]], targets: [[2, 3, 4]] }),
      () => t.setParameters({ unembeddingBias: t.parameters().unembeddingBias }),
    ])
      call();
    assert.equal(te.stopped, false);
    // what the module holds at its bound, every model stepped, is within the budget
    const held = te.memory().usedBytes - before;
    console.log(
      `${simd ? 'SIMD' : 'scalar'}: ${seq2seqs.length} encoder–decoders and ${trainers.length} trainers at their ` +
        `largest, each stepped, hold ${(held / 2 ** 20).toFixed(1)} MiB of the module's ` +
        `${(te.memory().heapBytes / 2 ** 20).toFixed(0)} MiB; refused: "${refused[0]}"; "${refused[1]}"`,
    );
    assert.ok(held <= te.limits.maxModelBytes && te.memory().heapBytes <= 2 ** 30, `${held} bytes`);

    // a model deleted makes room for one of its size
    const gone = seq2seqs[0];
    gone.delete();
    live.splice(live.indexOf(gone), 1);
    live.push(te.seq2seq({ ...LARGEST_SEQ2SEQ, attention: gone.config.attention }));
    assert.equal(live.at(-1).step(1).step, 1);

    for (const x of live) x.delete();
    assert.equal(te.memory().usedBytes, before, 'every byte back');
  });
}
