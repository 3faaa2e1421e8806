// The objects the modules keep between calls (a variance run, a trainer) are handed to JS as
// numbers (cpp/bindings/convert.h, Live). A number that is not a live one, stale or made up,
// gives an error value, never a crash; deleting frees exactly what making took. The modules
// are called directly here, as engine.js and engine-train.js do, in both builds.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

const wasm = (name) => new URL(`../../build/wasm/${name}`, import.meta.url);
async function load(name) {
  const glue = await import(wasm(`${name}.js`).href);
  return glue.default({ wasmBinary: fs.readFileSync(wasm(`${name}.wasm`)) });
}

for (const build of ['simd', 'scalar']) {
  describe(`${build} build`, () => {
    let lessons, train;
    before(async () => {
      [lessons, train] = await Promise.all([load(`attention-${build}`), load(`attention-train-${build}`)]);
    });

    // One made and deleted first: the allocator's first block of that size leaves its bookkeeping
    // a few bytes larger for good; from then on the count is exact.
    test('a variance run: made, stepped, read, deleted; a stale or made-up handle is an error', () => {
      lessons.varianceRunDelete(lessons.createVarianceRun({ dk: 16, seed: 3, bins: 8, firstSample: 0 }).run);
      const used = lessons.memory().usedBytes;
      const { run } = lessons.createVarianceRun({ dk: 16, seed: 3, bins: 8, firstSample: 0 });
      assert.equal(typeof run, 'number');
      assert.deepEqual(lessons.varianceRunStep(run, 100), {});
      assert.equal(lessons.varianceRunSnapshot(run).samples, 100);
      assert.match(lessons.varianceRunStep(run, 0).error, /^samples/);
      lessons.varianceRunDelete(run);
      assert.equal(lessons.memory().usedBytes, used, 'deleting frees what making took');
      for (const h of [run, 0, 12345, -1, 2 ** 40, NaN]) {
        assert.match(lessons.varianceRunStep(h, 10).error, /^varianceRun: not a live run/, String(h));
        assert.match(lessons.varianceRunSnapshot(h).error, /^varianceRun: not a live run/, String(h));
        lessons.varianceRunDelete(h); // a no-op
      }
      assert.equal(lessons.memory().usedBytes, used);
    });

    test('two runs at once are told apart; deleting one leaves the other', () => {
      const a = lessons.createVarianceRun({ dk: 8, seed: 1, bins: 4, firstSample: 0 }).run;
      const b = lessons.createVarianceRun({ dk: 8, seed: 2, bins: 4, firstSample: 0 }).run;
      assert.notEqual(a, b);
      lessons.varianceRunStep(a, 10);
      lessons.varianceRunStep(b, 20);
      lessons.varianceRunDelete(a);
      assert.match(lessons.varianceRunSnapshot(a).error, /not a live run/);
      assert.equal(lessons.varianceRunSnapshot(b).samples, 20);
      lessons.varianceRunDelete(b);
    });

    test('a trainer: every method by handle; a stale or made-up handle is an error', () => {
      const args = {
        task: 'previous-token',
        layers: 1,
        heads: 1,
        dModel: 16,
        learningRate: 0.01,
        seed: 1,
        scale: true,
        position: 'learned',
        batch: 4,
      };
      const warm = train.createTrainer(args).trainer;
      train.trainerStep(warm, 1);
      train.trainerProbe(warm, {});
      train.trainerDelete(warm);
      const used = train.memory().usedBytes;
      const { trainer } = train.createTrainer(args);
      assert.equal(typeof trainer, 'number');
      assert.equal(train.trainerStep(trainer, 2).step, 2);
      assert.ok(Number.isFinite(train.trainerEvaluate(trainer, {}).loss));
      assert.ok(train.trainerProbe(trainer, {}).patterns.length === 1);
      assert.ok(train.trainerParameters(trainer).length > 0);
      train.trainerDelete(trainer);
      assert.equal(train.memory().usedBytes, used, 'deleting frees what making took');
      const calls = [
        (h) => train.trainerStep(h, 1),
        (h) => train.trainerEvaluate(h, {}),
        (h) => train.trainerHeadScores(h),
        (h) => train.trainerProbe(h, {}),
        (h) => train.trainerParameters(h),
        (h) => train.trainerRun(h, {}),
        (h) => train.trainerSetParameters(h, {}),
        (h) => train.trainerGradients(h, {}),
        (h) => train.trainerStepOn(h, {}),
      ];
      for (const h of [trainer, 0, 7, -3, 1e300]) {
        for (const call of calls) assert.match(call(h).error, /^trainer: not a live trainer/, String(h));
        train.trainerDelete(h); // a no-op
      }
      assert.equal(train.memory().usedBytes, used);
    });

    // The module reads an encoder–decoder's tokens as numbers and checks each is an integer of the
    // vocabulary before it becomes an int, so a caller that skips engine-train.js cannot have
    // 2^32 + 3 read as 3 either; and at most 50 are live at once.
    test('an encoder–decoder: tokens checked as integers in the module, at most 50 live', () => {
      const { seq2seq } = train.createSeq2Seq({ task: 'copy', hidden: 8, embed: 4, maxLength: 8, batch: 2 });
      try {
        assert.match(
          train.seq2seqTranslate(seq2seq, { source: [1, 2 ** 32 + 3] }).error,
          /^tokens, token 1 is 4294967299 \(expected an integer token from 0 to 9\)$/,
        );
        assert.match(train.seq2seqTranslate(seq2seq, { source: [2.5] }).error, /^tokens, token 0 is 2.5 /);
        assert.match(
          train.seq2seqGradients(seq2seq, { source: [[1, -1]], target: [[1]] }).error,
          /^source, sentence 0, token 1 is -1 \(expected an integer token from 0 to 9\)$/,
        );
        assert.match(
          train.seq2seqStepOn(seq2seq, { source: [[1]], target: [[1, 2 ** 31]] }).error,
          /^target, sentence 0, token 1 is 2147483648 \(expected an integer token from 1 to 10\)$/,
        );
        assert.equal(train.seq2seqStepOn(seq2seq, { source: [[1]], target: [[2]] }).step, 1);
      } finally {
        train.seq2seqDelete(seq2seq);
      }
      const made = [];
      try {
        for (let i = 0; i < 50; i++)
          made.push(train.createSeq2Seq({ hidden: 4, embed: 2, batch: 1, maxLength: 8 }).seq2seq);
        assert.match(
          train.createSeq2Seq({ hidden: 4, embed: 2, maxLength: 8 }).error,
          /^seq2seq: at most 50 live encoder–decoders at once/,
        );
      } finally {
        for (const h of made) train.seq2seqDelete(h);
      }
      assert.equal(typeof train.createSeq2Seq({ hidden: 4, embed: 2, maxLength: 8 }).seq2seq, 'number');
    });
  });
}
