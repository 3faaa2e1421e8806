// The page's copy of the engine's choice names (web/src/choices.js, needed before the module
// has loaded) and everything keyed by them, pinned to what the engine itself exports
// (engine.choices, owned by cpp/core/check.h) in both builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { CHOICES, FILL_SIGNS, FLASH_BLOCK, MAX_SEED, POOL_LIMITS } from '../../web/src/engine/choices.js';
import { coreSchema, parseHash } from '../../web/src/hosts/state.js';
import { EXAMPLE_SHAPE } from '../../web/src/lesson/example.js';
import { SCORE_KINDS } from '../../web/src/chapters/score-functions/logic.js';
import masksStrings from '../../web/src/chapters/masks/strings.js';
import scoreStrings from '../../web/src/chapters/score-functions/strings.js';
import debugMeta from '../../web/src/chapters/debug/meta.js';
import debugStrings from '../../web/src/chapters/debug/strings.js';

for (const simd of [true, false]) {
  test(`the page's choice names are the engines', in their order (${simd ? 'SIMD' : 'scalar'} build)`, async () => {
    // the lessons' engine and the playground's trainer (engine-train.js), each with its own options
    const engine = await loadEngine({ simd });
    const trainEngine = await loadTrainEngine({ simd });
    const both = { ...engine.choices, ...trainEngine.choices };
    assert.equal(
      Object.keys(both).length,
      Object.keys(engine.choices).length + Object.keys(trainEngine.choices).length,
      'no option in both',
    );
    assert.deepEqual(Object.keys(trainEngine.choices).sort(), ['attention', 'position', 'seq2seqTask', 'task']);
    assert.deepEqual(Object.keys(CHOICES).sort(), Object.keys(both).sort());
    for (const option of Object.keys(both)) assert.deepEqual([...CHOICES[option]], [...both[option]], option);
  });
}

for (const simd of [true, false]) {
  test(`the page's flash block, largest seed and pool limits are the core's (${simd ? 'SIMD' : 'scalar'})`, async () => {
    const engine = await loadEngine({ simd });
    const one = [[1, 0]];
    // no blockSize: the core's own fallback, which the trace reports
    assert.equal(engine.flashTrace({ query: one, key: one, value: one }).blockSize, FLASH_BLOCK);
    assert.equal(engine.limits.maxSeed, MAX_SEED);
    for (const [name, value] of Object.entries(POOL_LIMITS)) assert.equal(engine.limits[name], value, name);
    engine.randomMatrix({ rows: 1, cols: 1, seed: MAX_SEED });
    assert.throws(() => engine.randomMatrix({ rows: 1, cols: 1, seed: MAX_SEED + 1 }), /^AttentionError: seed: /);
  });
}

test("the state schema offers exactly the engine's mask fills, and reads each from a link", async () => {
  const core = coreSchema(EXAMPLE_SHAPE);
  const engine = await loadEngine();
  assert.deepEqual([...core.fill.values], [...engine.choices.maskFill]);
  assert.ok(engine.choices.maskFill.includes(core.fill.default));
  for (const fill of engine.choices.maskFill) {
    const { state, problems } = parseHash(`#fill=${fill}`, core);
    assert.deepEqual(problems, [], fill);
    assert.equal(state.fill, fill);
  }
  assert.equal(parseHash('#fill=minus-inf', core).problems.length, 1, 'a name the engine lacks is refused');
});

test("the debugging chapter offers exactly the engine's bugs, each named in both languages", async () => {
  const engine = await loadEngine();
  assert.deepEqual([...debugMeta.state.dbBug.values], [...engine.choices.bug]);
  for (const bug of engine.choices.bug) {
    for (const lang of ['en', 'zh']) assert.ok(debugStrings[lang][`bug.${bug}`], `${lang} bug.${bug}`);
  }
});

// The sign the page writes for a fill is the value the engine puts in a blocked score.
test('each fill is written as the value the engine puts in a blocked cell', async () => {
  const engine = await loadEngine();
  assert.deepEqual(Object.keys(FILL_SIGNS).sort(), [...engine.choices.maskFill].sort());
  for (const fill of engine.choices.maskFill) {
    const r = engine.attend({
      query: [[1, 2]],
      key: [
        [3, 4],
        [5, 6],
      ],
      value: [[1], [2]],
      mask: [[1, 0]],
      maskFill: fill,
    });
    const blocked = r.masked.data[1];
    const written = Number(FILL_SIGNS[fill].text.replace('−', '-').replace('∞', 'Infinity'));
    assert.equal(written, blocked, `${fill}: text ${FILL_SIGNS[fill].text}, engine ${blocked}`);
    const tex = FILL_SIGNS[fill].tex.replace('\\infty', 'Infinity').replace(/10\^\{(\d+)\}/, '1e$1');
    assert.equal(Number(tex), blocked, `${fill}: TeX ${FILL_SIGNS[fill].tex}`);
  }
});

test('every choice has its words in both languages, and the score chapter shows every score', async () => {
  const engine = await loadEngine();
  for (const lang of ['en', 'zh']) {
    for (const fill of engine.choices.maskFill) assert.ok(masksStrings[lang][`fill.${fill}`], `${lang} fill.${fill}`);
    for (const kind of engine.choices.score) assert.ok(scoreStrings[lang][`kind.${kind}`], `${lang} kind.${kind}`);
  }
  assert.deepEqual([...SCORE_KINDS].sort(), [...engine.choices.score].sort());
});
