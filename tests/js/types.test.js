// The .d.ts files against the engine that runs: tsc (tests/types) checks that the types are
// consistent with a course author's code; this checks that they say what the engine has. Every
// limit, every choice name (in the core's order), every method of the engine, the trainer
// engine and a trainer is read from the declarations and compared with the loaded modules.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadEngine } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';

const source = (file) => readFileSync(new URL(`../../web/src/${file}`, import.meta.url), 'utf8');
const ENGINE = source('engine.d.ts');
const TRAIN = source('engine-train.d.ts');

// The body of `interface name { ... }` (no nested braces at its top level are needed here).
function body(text, name) {
  const start = text.search(new RegExp(`interface ${name}(<[^>]*>)? (extends [^{]+)?\\{`));
  assert.ok(start >= 0, `interface ${name} is declared`);
  let depth = 0;
  for (let i = text.indexOf('{', start); i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(text.indexOf('{', start) + 1, i);
  }
  throw new Error(`interface ${name} is not closed`);
}
// Top-level members of an interface body: `readonly name:` and `name(` at two spaces of indent.
const fields = (b) => [...b.matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map((m) => m[1]);
const methods = (b) => [...new Set([...b.matchAll(/^ {2}(\w+)\(/gm)].map((m) => m[1]))];
// The string literals of `export type name = 'a' | 'b' ...;`, in order.
function union(text, name) {
  const m = text.match(new RegExp(`export type ${name} =([^;]+);`));
  assert.ok(m, `type ${name} is declared`);
  return [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]);
}
// The options of `export type name = ChoiceLists<{ option: Names; ... }>;`.
function choiceOptions(text, name) {
  const m = text.match(new RegExp(`export type ${name} = ChoiceLists<\\{([^}]+)\\}>;`));
  assert.ok(m, `type ${name} is declared as ChoiceLists`);
  return [...m[1].matchAll(/(\w+):/g)].map((x) => x[1]);
}
const sorted = (list) => [...list].sort();

let engine;
let trainEngine;
before(async () => {
  engine = await loadEngine();
  trainEngine = await loadTrainEngine();
});

test('engine.d.ts: Limits lists every limit the engine exports, and nothing else', () => {
  assert.deepEqual(sorted(fields(body(ENGINE, 'Limits'))), sorted(Object.keys(engine.limits)));
});

test('engine.d.ts: each choice type lists the engine.choices names in the core order', () => {
  assert.deepEqual(sorted(choiceOptions(ENGINE, 'Choices')), sorted(Object.keys(engine.choices)));
  assert.deepEqual(union(ENGINE, 'ScoreKind'), [...engine.choices.score]);
  assert.deepEqual(union(ENGINE, 'MaskFill'), [...engine.choices.maskFill]);
  assert.deepEqual(union(ENGINE, 'Bug'), [...engine.choices.bug]);
  assert.deepEqual(union(ENGINE, 'Activation'), [...engine.choices.activation]);
  assert.deepEqual(union(ENGINE, 'LayerKind'), [...engine.choices.kind]);
});

test('engine.d.ts: Engine declares every property and method of a loaded engine', () => {
  const b = body(ENGINE, 'Engine');
  const declared = sorted([...fields(b), ...methods(b)]);
  assert.deepEqual(declared, sorted(Object.keys(engine)));
  for (const name of methods(b)) assert.equal(typeof engine[name], 'function', name);
});

// The option names a call accepts, as its error for an unknown option lists them.
function accepted(call) {
  try {
    call({ notAnOption: 1 });
  } catch (e) {
    const m = e.message.match(/\(expected one of ([^)]+)\)/);
    assert.ok(m, e.message);
    return m[1].split(', ');
  }
  assert.fail('an unknown option was accepted');
}

test('engine.d.ts: each options interface names exactly the options its call accepts', () => {
  const withMask = (name) => [...fields(body(ENGINE, name)), ...fields(body(ENGINE, 'MaskOptions'))];
  const cases = {
    attend: withMask('AttendOptions'),
    attendWithBug: withMask('AttendWithBugOptions'),
    multiHead: [...withMask('MultiHeadOptions'), ...fields(body(ENGINE, 'AttentionWeights'))],
    monitor: fields(body(ENGINE, 'MonitorOptions')),
    flashAttend: fields(body(ENGINE, 'FlashOptions')),
    flashTrace: fields(body(ENGINE, 'FlashOptions')),
    linearAttend: fields(body(ENGINE, 'LinearOptions')),
    varianceExperiment: fields(body(ENGINE, 'VarianceOptions')),
    mergeVariance: fields(body(ENGINE, 'MergeVarianceOptions')),
    queryProbe: fields(body(ENGINE, 'QueryProbeOptions')),
    layerNorm: fields(body(ENGINE, 'LayerNormOptions')),
    feedForward: [...fields(body(ENGINE, 'FeedForwardOptions')), ...fields(body(ENGINE, 'FeedForwardWeights'))],
    transformerLayer: fields(body(ENGINE, 'TransformerLayerOptions')),
    gruEncoder: fields(body(ENGINE, 'GruOptions')),
  };
  for (const [name, declared] of Object.entries(cases)) {
    assert.deepEqual(sorted(declared), sorted(accepted((o) => engine[name](o))), name);
  }
  assert.deepEqual(
    sorted(fields(body(TRAIN, 'TrainerOptions'))),
    sorted(accepted((o) => trainEngine.trainer(o))),
    'trainer',
  );
});

test('engine-train.d.ts: limits, choices and the trainer engine', () => {
  assert.deepEqual(sorted(fields(body(TRAIN, 'TrainLimits'))), sorted(Object.keys(trainEngine.limits)));
  assert.deepEqual(sorted(choiceOptions(TRAIN, 'TrainChoices')), sorted(Object.keys(trainEngine.choices)));
  assert.deepEqual(union(TRAIN, 'Task'), [...trainEngine.choices.task]);
  assert.deepEqual(union(TRAIN, 'Position'), [...trainEngine.choices.position]);
  assert.deepEqual(union(TRAIN, 'Seq2SeqTask'), [...trainEngine.choices.seq2seqTask]);
  assert.deepEqual(union(TRAIN, 'Attention'), [...trainEngine.choices.attention]);
  const b = body(TRAIN, 'TrainEngine');
  assert.deepEqual(sorted([...fields(b), ...methods(b)]), sorted(Object.keys(trainEngine)));
});

test('engine-train.d.ts: Trainer declares every member of a trainer, and its options', () => {
  const t = trainEngine.trainer({ layers: 1, heads: 1, dModel: 8 });
  try {
    const b = body(TRAIN, 'Trainer');
    assert.deepEqual(sorted([...fields(b), ...methods(b)]), sorted(Object.keys(t)));
    assert.deepEqual(sorted(fields(body(TRAIN, 'TrainerOptions'))), sorted(Object.keys(t.config)));
  } finally {
    t.delete();
  }
});

test('engine-train.d.ts: Seq2Seq declares every member of an encoder–decoder, and its options', () => {
  const m = trainEngine.seq2seq({ hidden: 8, embed: 4 });
  try {
    const b = body(TRAIN, 'Seq2Seq');
    assert.deepEqual(sorted([...fields(b), ...methods(b)]), sorted(Object.keys(m)));
    assert.deepEqual(sorted(fields(body(TRAIN, 'Seq2SeqOptions'))), sorted(Object.keys(m.config)));
  } finally {
    m.delete();
  }
});

test('engine.d.ts: Model declares every member of a model, and each call the options it accepts', async () => {
  const c = JSON.parse(readFileSync(new URL('../golden/gpt2.json', import.meta.url), 'utf8')).cases[0];
  const bytes = readFileSync(new URL(`../golden/${c.file}`, import.meta.url));
  const acceptedAsync = async (call) => {
    try {
      await call({ notAnOption: 1 });
    } catch (e) {
      return e.message.match(/\(expected one of ([^)]+)\)/)[1].split(', ');
    }
    assert.fail('an unknown option was accepted');
  };
  assert.deepEqual(
    sorted(fields(body(ENGINE, 'LoadModelOptions'))),
    sorted(await acceptedAsync((o) => engine.loadModel(bytes, o))),
  );
  const model = await engine.loadModel(bytes, { config: c.config });
  try {
    const b = body(ENGINE, 'Model');
    assert.deepEqual(sorted([...fields(b), ...methods(b)]), sorted(Object.keys(model)));
    assert.deepEqual(sorted(fields(body(ENGINE, 'ModelConfig'))), sorted(Object.keys(model.config)));
    assert.deepEqual(sorted(fields(body(ENGINE, 'RunOptions'))), sorted(await acceptedAsync((o) => model.run([1], o))));
    assert.deepEqual(sorted(fields(body(ENGINE, 'HeadScoresOptions'))), sorted(accepted((o) => model.headScores(o))));
    const r = await model.run([1], { head: [0, 0], ablate: [[0, 0]], profile: true });
    assert.deepEqual(sorted(fields(body(ENGINE, 'ModelRun'))), sorted(Object.keys(r)));
    assert.deepEqual(sorted(fields(body(ENGINE, 'HeadScores'))), sorted(Object.keys(model.headScores())));
    const names = await model.run([1], { ablation: 'x' }).catch((e) => e.message.match(/one of (.*), got/)[1]);
    assert.deepEqual(
      union(ENGINE, 'Ablation'),
      [...names.matchAll(/'([^']+)'/g)].map((m) => m[1]),
    );
  } finally {
    model.delete();
  }
});
