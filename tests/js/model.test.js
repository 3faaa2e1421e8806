// GPT-2-family models through the engine's JS API (engine.loadModel), in both wasm builds: every
// PyTorch golden case (tests/golden/gpt2.json and the tiny checkpoints beside it, made by
// tests/golden/make_gpt2_golden.py) read from each kind of source, the head scores, ablation and
// what it changed, progress and cancellation, memory after load and delete cycles.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadEngine, AttentionError } from '../../web/src/engine.js';
import { goldenCases } from '../support/golden.js';

const REL_TOL = 1e-4;
const GOLDEN = goldenCases('gpt2.json');
const fileOf = (c) => new Uint8Array(readFileSync(new URL(`../golden/${c.file}`, import.meta.url)));

// The same bytes as each kind of source loadModel takes.
const SOURCES = {
  Uint8Array: (bytes) => bytes,
  ArrayBuffer: (bytes) => bytes.slice().buffer,
  Blob: (bytes) => new Blob([bytes]),
  File: (bytes) => new File([bytes], 'model.safetensors'),
  Response: (bytes) => new Response(new Blob([bytes])),
  // a body whose length is not known beforehand, in pieces of 1000 bytes
  'streamed Response': (bytes) =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 1000) controller.enqueue(bytes.slice(at, at + 1000));
          controller.close();
        },
      }),
    ),
};

let worst = 0;
// |got - want| <= REL_TOL max(|want|, floor) for every entry (want: nested lists, null = -inf)
function expectClose(what, got, want, floor) {
  const flat = [want].flat(Infinity);
  assert.equal(got.length, flat.length, `${what}: length`);
  for (let i = 0; i < flat.length; i++) {
    if (flat[i] === null) {
      assert.equal(got[i], -Infinity, `${what}[${i}]`);
      continue;
    }
    const err = Math.abs(got[i] - flat[i]) / Math.max(Math.abs(flat[i]), floor);
    worst = Math.max(worst, err);
    assert.ok(err <= REL_TOL, `${what}[${i}]: engine ${got[i]}, torch ${flat[i]}`);
  }
}

// softmax of one row of logits, in double
function softmax(row) {
  const max = Math.max(...row);
  const e = row.map((x) => Math.exp(x - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

// topK (k = vocab) against the reference logits: ids most likely first, probabilities equal
function expectTopK(what, topK, logits) {
  logits.forEach((row, t) => {
    const p = softmax(row);
    for (let j = 0; j < topK.k; j++) {
      const id = topK.ids[t * topK.k + j];
      const got = topK.probabilities[t * topK.k + j];
      if (j > 0) assert.ok(got <= topK.probabilities[t * topK.k + j - 1], `${what}: token ${t} in order`);
      const err = Math.abs(got - p[id]) / p[id];
      worst = Math.max(worst, err);
      assert.ok(err <= REL_TOL, `${what}: token ${t}, id ${id}: engine ${got}, torch ${p[id]}`);
    }
  });
}

after(() => console.log(`GPT-2 goldens through the JS API: worst relative error ${worst.toExponential(2)}`));

for (const simd of [true, false]) {
  describe(`GPT-2 models (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    test('the golden file has its five cases', () => {
      assert.equal(GOLDEN.length, 5);
    });

    GOLDEN.forEach((c, i) => {
      const kind = Object.keys(SOURCES)[i % Object.keys(SOURCES).length];
      test(`${c.name} (from ${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}): logits, every head, the stages, ablations and head scores equal PyTorch's`, async () => {
        const model = await engine.loadModel(SOURCES[kind](fileOf(c)), { config: c.config });
        try {
          assert.deepEqual(model.config, {
            nLayer: c.config.n_layer,
            nHead: c.config.n_head,
            nEmbd: c.config.n_embd,
            nPositions: c.config.n_positions,
            vocabSize: c.config.vocab_size,
            layerNormEpsilon: c.config.layer_norm_epsilon,
          });
          const vocab = c.config.vocab_size;
          const head = [c.stage.layer, c.stage.head];
          const r = await model.run(c.ids, { topK: vocab, head });
          expectTopK('topK', r.topK, c.logits);
          c.attention.forEach((layer, l) =>
            layer.forEach((w, h) => {
              assert.deepEqual([r.attention[l][h].rows, r.attention[l][h].cols], [c.ids.length, c.ids.length]);
              expectClose(`attention[${l}][${h}]`, r.attention[l][h].data, w, 1e-6);
            }),
          );
          expectClose('residualNorms', r.residualNorms.data, c.residualNorms, 1);
          for (const stage of ['scores', 'scaled', 'masked', 'output'])
            expectClose(`stages.${stage}`, r.stages[stage].data, c.stage[stage], 1);
          expectClose('stages.weights', r.stages.weights.data, c.stage.weights, 1e-6);
          // the stages are that head's own numbers in the run
          assert.deepEqual(r.stages.weights.data, r.attention[c.stage.layer][c.stage.head].data);

          for (const a of c.ablations) {
            const ablated = await model.run(c.ids, { topK: vocab, ablate: a.heads, ablation: a.mode });
            expectTopK(`ablated (${a.mode}) topK`, ablated.topK, a.logits);
            // what it changed: the intact model's top k, and its probabilities of the ablated top k
            assert.deepEqual(ablated.baseline.topK, r.topK);
            const intact = c.logits.map(softmax);
            expectClose(
              'baseline.probabilities',
              ablated.baseline.probabilities,
              Array.from(ablated.topK.ids, (id, j) => intact[Math.floor(j / vocab)][id]),
              1e-6,
            );
          }
          assert.equal((await model.run(c.ids)).baseline, undefined);

          const s = model.headScores({ tokens: c.headScores.tokens });
          assert.deepEqual(Array.from(s.tokens), c.headScores.tokens);
          for (const name of ['previousToken', 'induction', 'duplicateToken', 'firstToken', 'entropy']) {
            assert.deepEqual([s[name].rows, s[name].cols], [c.config.n_layer, c.config.n_head]);
            expectClose(`headScores.${name}`, s[name].data, c.headScores[name], 1e-6);
          }
        } finally {
          model.delete();
        }
      });
    });

    test('run: topK defaults to 10, every position gets its row, most likely first', async () => {
      const c = GOLDEN[1];
      const model = await engine.loadModel(fileOf(c), { config: c.config });
      try {
        const r = await model.run(c.ids.slice(0, 3));
        assert.equal(r.topK.k, 10);
        assert.ok(r.topK.ids instanceof Int32Array && r.topK.probabilities instanceof Float32Array);
        assert.equal(r.topK.ids.length, 30);
        assert.equal(r.stages, undefined);
        assert.equal(r.profile, undefined);
        // profiled: the same run, and where its time went, stage by stage
        const profiled = await model.run(c.ids.slice(0, 3), { profile: true });
        assert.deepEqual(profiled.topK, r.topK);
        assert.equal(profiled.profile.length, 16);
        assert.deepEqual(
          profiled.profile.slice(0, 3).map((s) => s.stage),
          ['buffers + embedding', 'ln_1', 'c_attn (QKV)'],
        );
        for (const s of profiled.profile) assert.ok(Number.isFinite(s.ms) && s.ms >= 0, `${s.stage}: ${s.ms} ms`);
        await assert.rejects(
          model.run(c.ids.slice(0, 3), { profile: 1 }),
          (e) => e instanceof AttentionError && e.message === 'profile: expected true or false, got 1',
        );
        const full = await model.run(c.ids.slice(0, 3), { topK: c.config.vocab_size });
        for (let t = 0; t < 3; t++) {
          assert.deepEqual(r.topK.ids.slice(t * 10, t * 10 + 10), full.topK.ids.slice(t * 64, t * 64 + 10));
        }
      } finally {
        model.delete();
      }
    });

    test('headScores: seeded tokens are distinct, the same for the same seed, and scores lie in [0, 1]', async () => {
      const c = GOLDEN[2];
      const model = await engine.loadModel(fileOf(c), { config: c.config });
      try {
        const a = model.headScores({ seed: 7, length: 10 });
        const b = model.headScores({ seed: 7, length: 10 });
        assert.deepEqual(a, b);
        assert.equal(new Set(a.tokens).size, 10);
        assert.notDeepEqual(model.headScores({ seed: 8, length: 10 }).tokens, a.tokens);
        // the default: 50 tokens, or as many as fit (here half of the 24 positions)
        assert.equal(model.headScores().tokens.length, 12);
        for (const name of ['previousToken', 'induction', 'duplicateToken', 'firstToken', 'entropy'])
          assert.ok(
            a[name].data.every((x) => x >= 0 && x <= 1),
            name,
          );
      } finally {
        model.delete();
      }
    });

    test('loading reports its progress up to the whole file, and a cancelled load frees everything', async () => {
      const c = GOLDEN[2];
      const bytes = fileOf(c);
      const seen = [];
      const model = await engine.loadModel(
        new Response(
          new ReadableStream({
            start(controller) {
              for (let at = 0; at < bytes.length; at += 4096) controller.enqueue(bytes.slice(at, at + 4096));
              controller.close();
            },
          }),
        ),
        { config: c.config, onProgress: (p) => seen.push(p) },
      );
      model.delete();
      assert.ok(seen.length > 5, `${seen.length} progress reports`);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].loaded > seen[i - 1].loaded);
      assert.deepEqual(seen.at(-1), { loaded: bytes.length, total: null });

      const before = await engine.modelMemory();
      const controller = new AbortController();
      let reports = 0;
      await assert.rejects(
        engine.loadModel(new Blob([bytes]), {
          config: c.config,
          signal: controller.signal,
          onProgress: ({ loaded, total }) => {
            assert.equal(total, bytes.length);
            if (++reports === 1) {
              assert.ok(loaded < total);
              controller.abort();
            }
          },
        }),
        (e) => e instanceof AttentionError && /^signal: the load was cancelled after \d+ of \d+ bytes$/.test(e.message),
      );
      assert.equal((await engine.modelMemory()).usedBytes, before.usedBytes, 'nothing left allocated');
    });

    test("20 loads and deletes leave the model module's memory where it was", async () => {
      const c = GOLDEN[4];
      const bytes = fileOf(c);
      const cycle = async () => {
        const model = await engine.loadModel(bytes, { config: c.config });
        await model.run(c.ids);
        model.headScores();
        model.delete();
      };
      await cycle(); // the first load grows the memory for good
      const before = await engine.modelMemory();
      for (let i = 0; i < 20; i++) await cycle();
      const after = await engine.modelMemory();
      assert.equal(after.usedBytes, before.usedBytes);
      assert.equal(after.heapBytes, before.heapBytes);
      assert.equal(after.maxBytes, 4 * 1024 ** 3 - 65536); // wasm32's 4 GB less one 64 KB page
    });

    test('a deleted model says so, and the lessons engine is untouched by anything a model does', async () => {
      const c = GOLDEN[0];
      const model = await engine.loadModel(fileOf(c), { config: c.config });
      const lessons = engine.memory();
      model.delete();
      model.delete(); // twice is fine
      await assert.rejects(model.run(c.ids), /^AttentionError: model.run: this model has been deleted$/);
      assert.throws(() => model.headScores(), /^AttentionError: model.headScores: this model has been deleted$/);
      assert.deepEqual(engine.memory(), lessons);
    });
  });
}
