// One option table: each entry point's options (names, ranges, defaults, choices) are written in
// the core (cpp/core/check.h and its kin) and reach the page through what the modules export
// (engine.options, trainEngine.options, the limits) or through web/src/engine/core-options.js,
// which scripts/core-options.mjs generates from that export. This test fails when the generated
// file says something else than the modules, when a .d.ts union lists other names than the core,
// or when web/src writes an option's range or default again as literals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadEngine } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { LIMITS, OPTIONS, TRAIN_LIMITS, TRAIN_OPTIONS } from '../../web/src/engine/core-options.js';
import { coreOptionsSource } from '../../scripts/core-options.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'web/src');
const GENERATED = path.join(SRC, 'engine/core-options.js');

// Every option of every entry point, nested ones ('attend', 'additive.Wq') included.
function* optionsOf(tables) {
  for (const [entry, table] of Object.entries(tables)) {
    for (const [name, o] of Object.entries(table)) {
      yield { entry, name, o };
      for (const [field, f] of Object.entries(o.fields ?? {})) yield { entry, name: `${name}.${field}`, o: f };
    }
  }
}
// The model module's table (modelRun, modelHeadScores: it is loaded with the first model, so no
// page code reads it before then and it has no generated copy), straight from each build's glue.
async function modelOptions(simd) {
  const name = `attention-model-${simd ? 'simd' : 'scalar'}`;
  const glue = await import(new URL(`../../build/wasm/${name}.js`, import.meta.url));
  const wasmBinary = fs.readFileSync(new URL(`../../build/wasm/${name}.wasm`, import.meta.url));
  return (await glue.default({ wasmBinary })).options();
}
const MODEL_OPTIONS = await modelOptions(false);
const ALL = [...optionsOf(OPTIONS), ...optionsOf(TRAIN_OPTIONS), ...optionsOf(MODEL_OPTIONS)];

for (const simd of [true, false]) {
  test(`core-options.js is what the modules export (${simd ? 'SIMD' : 'scalar'} build)`, async () => {
    const engine = await loadEngine({ simd });
    const trainEngine = await loadTrainEngine({ simd });
    const hint = 'stale: run node scripts/core-options.mjs after the wasm build';
    assert.deepEqual(engine.options, OPTIONS, hint);
    assert.deepEqual(engine.limits, LIMITS, hint);
    assert.deepEqual(trainEngine.options, TRAIN_OPTIONS, hint);
    assert.deepEqual(trainEngine.limits, TRAIN_LIMITS, hint);
    assert.deepEqual(await modelOptions(simd), MODEL_OPTIONS, 'both builds of the model module say the same');
    assert.ok(Object.isFrozen(engine.options.attend.score.values), 'engine.options is frozen all the way down');
    if (!simd) {
      // the file is the generator's text for this export, not an edited copy
      const source = await coreOptionsSource({
        options: engine.options,
        limits: engine.limits,
        trainOptions: trainEngine.options,
        trainLimits: trainEngine.limits,
      });
      assert.equal(fs.readFileSync(GENERATED, 'utf8'), source, hint);
    }
    // every name engine.choices lists is the choice list of an option of that name
    for (const [name, values] of Object.entries({ ...engine.choices, ...trainEngine.choices })) {
      const option = name === 'seq2seqTask' ? 'task' : name;
      const lists = ALL.filter((x) => x.name === option && x.o.type === 'choice').map((x) => x.o.values.join());
      assert.ok(lists.includes(values.join()), `engine.choices.${name}`);
    }
  });
}

test('the table describes what the entry points read', () => {
  // a few entries spelled out (cpp/core/check.h, cpp/core/train.h)
  assert.deepEqual(OPTIONS.attend.score, {
    type: 'choice',
    values: ['dot', 'scaled-dot', 'additive', 'general'],
    default: 'scaled-dot',
  });
  assert.deepEqual(OPTIONS.attend.temperature, { type: 'number', min: 1e-30, max: 1e30, integer: false, default: 1 });
  assert.deepEqual(OPTIONS.attend.additive.fields.v, { type: 'matrix', optional: true });
  assert.deepEqual(OPTIONS.multiHead.heads, { type: 'number', min: 1, max: 64, integer: true }, 'no default: required');
  assert.deepEqual(TRAIN_OPTIONS.createTrainer.learningRate, TRAIN_OPTIONS.createSeq2Seq.learningRate, 'one option');
  assert.deepEqual(TRAIN_OPTIONS.createTrainer.learningRate, {
    type: 'number',
    min: 1e-5,
    max: 1,
    integer: false,
    default: 0.003,
  });
  assert.deepEqual(Object.keys(OPTIONS.randomMatrix), ['rows', 'cols', 'seed', 'stream', 'scale', 'streams']);
  // the trainers' calls on a live trainer (cpp/core/train.h, seq2seq_trainer.h)
  assert.deepEqual(TRAIN_OPTIONS.trainerStep, {
    steps: { type: 'number', min: 1, max: 1000, integer: true, default: 1 },
  });
  assert.deepEqual(TRAIN_OPTIONS.seq2seqStep.steps, { type: 'number', min: 1, max: 200, integer: true, default: 1 });
  assert.deepEqual(TRAIN_OPTIONS.trainerEvaluate, { ablate: { type: 'array' } });
  assert.deepEqual(TRAIN_OPTIONS.trainerProbe, TRAIN_OPTIONS.trainerEvaluate);
  // a model's calls (cpp/core/gpt2.h)
  assert.deepEqual(Object.keys(MODEL_OPTIONS.modelRun), ['ids', 'topK', 'head', 'ablate', 'ablation', 'profile']);
  assert.deepEqual(MODEL_OPTIONS.modelRun.topK, { type: 'number', min: 1, max: 1000, integer: true, default: 10 });
  assert.deepEqual(MODEL_OPTIONS.modelRun.ablation, { type: 'choice', values: ['zero', 'mean'], default: 'zero' });
  assert.deepEqual(MODEL_OPTIONS.modelRun.profile, { type: 'flag', default: false });
  assert.deepEqual(MODEL_OPTIONS.modelHeadScores, {
    seed: { type: 'number', min: 0, max: 4294967295, integer: true, default: 1 },
    length: { type: 'number', min: 2, max: 8192, integer: true, default: 50 },
    tokens: { type: 'array' },
  });
});

test('the generated file writes a table or an option that stands in more than one place once', async () => {
  assert.equal(OPTIONS.flashTrace, OPTIONS.flashAttend, "flashTrace's options are flashAttend's");
  assert.equal(OPTIONS.multiHead.Wq, OPTIONS.attend.query, 'a required matrix is one object');
  const x = { type: 'matrix', optional: false };
  const pair = { W: x, b: { type: 'matrix', optional: true } };
  const seed = { type: 'number', min: 0, max: 9, integer: true, default: 1 };
  const size = { type: 'number', min: 1, max: 8, integer: true };
  const source = await coreOptionsSource({
    options: {
      a: { x },
      b: { x },
      c: { w: { type: 'object', fields: pair } },
      e: { q: x, W: x, b: pair.b, seed, rows: size },
    },
    limits: {},
    trainOptions: { d: { w: { type: 'object', fields: pair }, n: { type: 'flag', default: true }, seed, cols: size } },
    trainLimits: {},
  });
  const lines = source.split('\n');
  for (const line of [
    // an option in more than one table: named by its kind, or by the one name all its places give it
    "const optionalMatrix = { type: 'matrix', optional: true };",
    "const matrix = { type: 'matrix', optional: false };",
    "const seed = { type: 'number', min: 0, max: 9, integer: true, default: 1 };",
    // a table in more than one place, after its first place
    'const aOptions = { x: matrix };',
    'const cWFields = { W: matrix, b: optionalMatrix };',
    '  a: aOptions,',
    '  b: aOptions,',
    "  c: { w: { type: 'object', fields: cWFields } },",
    // fields that stand together in another table are spread there; an option with two names is
    // written where it stands
    "  e: { q: matrix, ...cWFields, seed, rows: { type: 'number', min: 1, max: 8, integer: true } },",
    "    w: { type: 'object', fields: cWFields },",
    "    n: { type: 'flag', default: true },",
    '    seed,',
    "    cols: { type: 'number', min: 1, max: 8, integer: true },",
  ])
    assert.ok(lines.includes(line), line);
  assert.equal(source.match(/optional: true/g).length, 1, 'the optional matrix written once');
});

// The choice lists of the .d.ts files: each `type X = 'a' | 'b';` as ['a', 'b'].
function unions(file) {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  return [...text.matchAll(/^export type (\w+) =([^;]*);/gm)]
    .map(([, , body]) => body.trim().replace(/^\|/, ''))
    .filter((body) => body.split('|').every((part) => /^\s*'[^']*'\s*$/.test(part)))
    .map((body) => body.split('|').map((part) => part.trim().slice(1, -1)));
}

test("the .d.ts unions are the core's choice lists", () => {
  const declared = [...unions('engine.d.ts'), ...unions('engine-train.d.ts')].map((list) => list.join());
  const choices = new Set(ALL.filter((x) => x.o.type === 'choice').map((x) => x.o.values.join()));
  for (const list of choices)
    assert.ok(declared.includes(list), `a union of ${list} in engine.d.ts or engine-train.d.ts`);
});

// ---- no option's range or default written again ---------------------------------------------------

// Values too common to say anything (a first index, one row, a pair): never a finding alone.
const TRIVIAL = new Set([-1, 0, 1, 2]);
const LITERAL = String.raw`-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?`;
const code = (line) => line.replace(/\/\/.*$/, '').replace(/'[^']*'|`[^`]*`/g, "''");
// a state schema field: { type: 'int' | 'float', default, min, max }
const SCHEMA = /type: '(?:int|float)'/;
const keyed = (line, key) => {
  const m = code(line).match(new RegExp(`(?<![\\w$])${key}\\s*[:=]\\s*(${LITERAL})(?![\\w.])`));
  return m ? Number(m[1]) : undefined;
};

// Page fields whose numbers happen to equal an option's, and mean something else.
const COINCIDENCES = [
  'longWorkers:', // workers of the attend pool, not trainer heads (1 to 4)
  'prD:', // the practice layer's d_model, not attention heads (1 to 64)
  'sfHidden:', // the additive score's hidden size shown, not attention heads (1 to 64)
  'sfN:', // the score-functions race's n, not the trainer's d_model (up to 128)
  'posN:', // positions shown, not the encoder–decoder's embedding size (up to 128)
];

// `text`'s lines that restate a number option of the table: its name given one of its bounds or
// its default (learningRate: 0.003), or a state schema field with two of an option's bounds and
// default (pgLr: { type: 'float', default: 0.003, min: 0.00001, max: 1 }).
function restated(text, numberOptions) {
  const found = [];
  text.split('\n').forEach((line, k) => {
    if (!/\d/.test(code(line))) return;
    for (const { entry, name, o } of numberOptions) {
      const values = [o.min, o.max, o.default].filter((v) => v !== undefined);
      const given = keyed(line, name.split('.').pop());
      const named = values.includes(given) && !TRIVIAL.has(given);
      // a schema field with the option's largest value and its smallest or default one, not all trivial
      const same = ['min', 'max', 'default'].filter((key) => o[key] !== undefined && keyed(line, key) === o[key]);
      const schema =
        SCHEMA.test(line) && same.includes('max') && same.length >= 2 && same.some((key) => !TRIVIAL.has(o[key]));
      if ((named || schema) && !COINCIDENCES.some((c) => line.includes(c))) {
        found.push(`${k + 1}: ${entry}.${name} (${values.join(', ')}): ${line.trim()}`);
        return;
      }
    }
  });
  return found;
}

const walk = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));

test('no module of web/src writes an option range or default of the core again', () => {
  const numberOptions = ALL.filter((x) => x.o.type === 'number');
  const found = [];
  for (const file of walk(SRC).filter((f) => f.endsWith('.js') && f !== GENERATED)) {
    for (const hit of restated(fs.readFileSync(file, 'utf8'), numberOptions)) {
      found.push(`${path.relative(ROOT, file)}:${hit}`);
    }
  }
  assert.deepEqual(found, []);
});

test('the scan finds a restated option (the playground schema as it was)', () => {
  const numberOptions = ALL.filter((x) => x.o.type === 'number');
  const old = [
    "    pgLr: { type: 'float', default: 0.003, min: 0.00001, max: 1 },",
    "    pgHeads: { type: 'int', default: 2, min: 1, max: 4 },",
    '  learningRate: 0.003,',
    "    pgTask: { type: 'enum', default: 'previous-token', values: [...TASKS] },",
    '      const args = { topK: 10, length: 50 };', // a model's defaults (modelRun, modelHeadScores)
  ].join('\n');
  assert.deepEqual(
    restated(old, numberOptions).map((hit) => hit.split(':')[0]),
    ['1', '2', '3', '5'],
  );
});
