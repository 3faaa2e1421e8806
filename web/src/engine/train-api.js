// The playground's trainer: its own wasm module (attention-train-simd / -scalar, built from
// cpp/bindings/train_bindings.cpp), which only the playground loads (its chapter and
// train-worker.js), so the module every lesson loads (engine.js) does not carry it. Argument
// conversion only; the option names, limits and checks are the core's (core/train.h), exported as
// trainEngine.options, trainEngine.choices.task / .position and trainEngine.limits.maxDModel etc. No maths here.
//
//   const trainEngine = await loadTrainEngine();  // the best build this runtime supports
//   const t = trainEngine.trainer({ task: 'previous-token', layers: 1, heads: 2, dModel: 32, seed: 1 });
//   t.step(10)        // -> { step, losses: Float32Array(10), accuracies: Float32Array(10) }
//   t.probe()         // -> { tokens, targets, predictions, patterns: [layer][head] (n, n) matrices }
//   t.run([3, 1, 4])  // the same on your own sequence
//   t.delete()        // frees it; later calls throw
//
//   const m = trainEngine.seq2seq({ task: 'translate', attention: 'additive' });  // an RNN encoder–decoder
//   m.step(10); m.evaluateByLength(); m.probe().alignment; m.translate('the cat that eats fish'); m.delete();
//
// Loading, the builds and a stopped module work as in engine.js (loadEngine): the same options
// ({ simd }), the same errors.

import { arrayArg, checkOptions, describe, fail, matrixArg, reading, scalarArg } from './args.js';
import { engineLoader, frozenChoices, frozenTable, moduleCalls } from './loader.js';
import { optionNames, scalarArgs } from './choices.js';

// One literal import per build, so a bundler ships both glue files.
const TRAIN_GLUE = {
  simd: { load: () => import('../../../build/wasm/attention-train-simd.js'), wasm: 'attention-train-simd.wasm' },
  scalar: { load: () => import('../../../build/wasm/attention-train-scalar.js'), wasm: 'attention-train-scalar.wasm' },
};

function makeTrainEngine(mod, simd, forget) {
  const calls = moduleCalls(mod, 'loadTrainEngine', forget);
  const limits = Object.freeze(mod.trainLimits());
  return {
    simd,
    limits,
    choices: frozenChoices(mod.trainChoices()),
    // createTrainer's and createSeq2Seq's options as the module reads them (engine.options' form)
    options: frozenTable(mod.options()),
    // true once a call has stopped this instance: loadTrainEngine() gives a fresh one
    get stopped() {
      return calls.stopped;
    },
    // A tiny attention-only transformer that learns a toy task; the caller owns it and must
    // delete() it.
    trainer(options) {
      return makeTrainer(mod, calls.run, calls.guarded, limits, options);
    },
    // An RNN encoder–decoder (GRU, with or without attention) that learns copy, reverse or a toy
    // English -> Chinese translation; the caller owns it and must delete() it.
    seq2seq(options) {
      return makeSeq2Seq(mod, calls.run, calls.guarded, limits, options);
    },
    // { heapBytes: size of this module's wasm memory, usedBytes: bytes its allocator has handed out }
    memory() {
      return calls.run('memory');
    },
  };
}

// loadTrainEngine({ simd }) -> Promise<trainEngine>. simd: true, false, or omitted for the best supported.
export const loadTrainEngine = engineLoader('loadTrainEngine', TRAIN_GLUE, makeTrainEngine);

export const TRAINER_OPTIONS = optionNames('createTrainer');

// tokens (and targets) as nested rows [[...], ...] or one flat row -> { size, length, tokens, targets }.
// Every list is read once into a copy (arrayArg); the tokens go to the module as doubles, so it
// sees 2^32 + 3 as it is and refuses it (an Int32Array would have wrapped it to 3), as it
// refuses any integer outside the vocabulary.
function batchArg(o, limits, withTargets) {
  const rowsOf = (name, x) =>
    reading(name, () => {
      const list = arrayArg(name, x, limits.maxBatch * limits.trainLength, 'tokens');
      const nested = list.length > 0 && typeof list[0] === 'object' && list[0] !== null;
      if (nested && list.length > limits.maxBatch)
        fail(`${name}: expected at most ${limits.maxBatch} sequences, got ${list.length}`);
      const rowName = (r) => (nested ? `${name}[${r}]` : name);
      const where = (r, i) => (nested ? `sequence ${r}, entry ${i}` : `entry ${i}`);
      const rows = nested ? list.map((row, r) => arrayArg(rowName(r), row, limits.trainLength, 'tokens')) : [list];
      if (!nested && list.length > limits.trainLength)
        fail(`${name}: expected at most ${limits.trainLength} tokens, got ${list.length}`);
      const length = rows.length ? rows[0].length : 0;
      if (length === 0) fail(`${name}: expected 1 to ${limits.trainLength} tokens, got none`);
      const flat = new Float64Array(rows.length * length);
      rows.forEach((row, r) => {
        if (row.length !== length)
          fail(`${name}: sequence ${r} has ${row.length} tokens, expected ${length} (as sequence 0)`);
        for (let i = 0; i < length; i++) {
          const v = row[i];
          if (typeof v !== 'number' || !Number.isInteger(v))
            fail(
              `${name}: ${where(r, i)} is ${typeof v === 'string' ? `'${v}'` : String(v)} (expected an integer token)`,
            );
          flat[r * length + i] = v;
        }
      });
      return { size: rows.length, length, data: flat };
    });
  const tokens = rowsOf('tokens', o.tokens);
  const out = { size: tokens.size, length: tokens.length, tokens: tokens.data };
  if (withTargets) {
    const targets = rowsOf('targets', o.targets);
    if (targets.size !== tokens.size || targets.length !== tokens.length) {
      fail(`targets: expected ${tokens.size} × ${tokens.length} like tokens, got ${targets.size} × ${targets.length}`);
    }
    out.targets = targets.data;
  }
  return out;
}

// ablate: [[layer, head], ...] (0-based, each head at most once) -> { ablate: one 0 or 1 per head,
// layer * heads + head }; absent or an empty list -> {} (no head ablated). Also GPT-2's
// (model-api.js).
export function ablationArg(ablate, config) {
  if (ablate === undefined) return {};
  return reading('ablate', () => {
    const list = arrayArg('ablate', ablate, config.layers * config.heads, '[layer, head] pairs');
    const flags = new Float64Array(config.layers * config.heads);
    list.forEach((pair, k) => {
      const p = arrayArg(`ablate[${k}]`, pair, 2, 'numbers');
      const [l, h] = p;
      const ok = (x, n) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < n;
      if (p.length !== 2 || !ok(l, config.layers) || !ok(h, config.heads))
        fail(
          `ablate: entry ${k} is [${p.map(describe).join(', ')}] (expected [layer, head] with layer 0 to ${config.layers - 1} and head 0 to ${config.heads - 1})`,
        );
      if (flags[l * config.heads + h])
        fail(`ablate: entry ${k} names layer ${l}, head ${h} again (expected each head at most once)`);
      flags[l * config.heads + h] = 1;
    });
    return list.length ? { ablate: flags } : {};
  });
}

// { name: { rows, cols, data } } of a module's list of named tensors.
const named = (list) => Object.fromEntries(list.map((t) => [t.name, { rows: t.rows, cols: t.cols, data: t.data }]));

// The two trainers' access to their tensors, through call (a trainer's guarded module call).
function tensors(call) {
  return {
    // { name: { rows, cols, data } } of every tensor, in the model's order
    parameters() {
      return named(call('parameters'));
    },
    // replaces the named tensors (exact shapes, finite numbers); nothing changes on an error
    setParameters(values) {
      const known = new Set(call('parameters').map((t) => t.name));
      const v = reading('setParameters', () => {
        if (values === null || typeof values !== 'object')
          fail(`setParameters: expected { name: matrix }, got ${String(values)}`);
        return { ...values };
      });
      const args = {};
      for (const name of Object.keys(v)) {
        if (!known.has(name)) fail(`${name}: not a tensor of this model (expected one of ${[...known].join(', ')})`);
        args[name] = matrixArg(name, v[name], () => '');
      }
      call('setParameters', args);
    },
  };
}

// trainEngine.trainer(options): run(name, args) calls the module and throws AttentionError on
// { error }. run(name, args) and guarded(name, call) are engine.js's moduleCalls: every call into
// the module goes through them, so a trap inside the trainer stops its engine like any other call.
function makeTrainer(mod, run, guarded, limits, options) {
  const o = checkOptions('trainer', options, TRAINER_OPTIONS);
  const args = scalarArgs('createTrainer', o);
  // the options as the core made it: every absent one at its table's fallback (core/train.h)
  const { trainer: handle, config } = run('createTrainer', args);
  const tasks = guarded('trainer', () => mod.trainTasks());
  const { call, remove } = handleCalls(mod, guarded, 'trainer', handle, 'this trainer');
  return {
    config: Object.freeze(config),
    task: Object.freeze({ ...tasks[config.task] }),
    // n Adam steps on fresh batches of the task -> { step, losses, accuracies } (one per step)
    step(n) {
      return call('step', scalarArg(n));
    },
    // loss and accuracy on a held-out batch of the task (the same for the whole run); with
    // { ablate: [[layer, head], ...] } those heads' outputs are zeroed for this pass only
    evaluate(options) {
      const o = checkOptions('evaluate', options, optionNames('trainerEvaluate'));
      return call('evaluate', ablationArg(o.ablate, config));
    },
    // the fixed probe sequence of the task: tokens, targets, predictions, patterns[layer][head],
    // loss, accuracy (the same ablation as evaluate)
    probe(options) {
      const o = checkOptions('probe', options, optionNames('trainerProbe'));
      return call('probe', ablationArg(o.ablate, config));
    },
    // every head's previous-token and induction score now, on repeated random sequences:
    // { layers, heads, previousToken, induction } (Float32Array, index layer * heads + head)
    headScores() {
      return call('headScores');
    },
    // your own sequence (up to task.length tokens of 0 .. vocab - 1)
    run(tokens) {
      const b = batchArg({ tokens }, { ...limits, trainLength: tasks[config.task].length }, false);
      if (b.size !== 1) fail(`tokens: expected one sequence, got ${b.size}`);
      return call('run', { tokens: b.tokens, length: b.length });
    },
    ...tensors(call),
    // loss, accuracy and every gradient on a given batch { tokens, targets } (-1 = no target)
    gradients(batch) {
      const b = checkOptions('gradients', batch, ['tokens', 'targets']);
      const r = call('gradients', batchArg(b, limits, true));
      return { loss: r.loss, accuracy: r.accuracy, gradients: named(r.gradients) };
    },
    // one Adam step on a given batch -> { loss, accuracy, step }
    stepOn(batch) {
      const b = checkOptions('stepOn', batch, ['tokens', 'targets']);
      return call('stepOn', batchArg(b, limits, true));
    },
    delete: remove,
  };
}

// The calls on one handle of the module's `kind` ('trainer', 'seq2seq'): call(what, ...args) is
// the module's <kind><What>(handle, ...args) (trainer.step(...) is trainerStep(handle, ...)) and
// throws AttentionError on { error } or once `thing` has been deleted; remove() frees it, once.
function handleCalls(mod, guarded, kind, handle, thing) {
  let live = true;
  const call = (what, ...a) => {
    if (!live) fail(`${kind}.${what}: ${thing} has been deleted`);
    const fn = kind + what[0].toUpperCase() + what.slice(1);
    const r = guarded(`${kind}.${what}`, () => mod[fn](handle, ...a));
    if (r.error !== undefined) fail(r.error);
    return r;
  };
  const remove = () => {
    if (!live) return;
    live = false;
    try {
      guarded(`${kind}.delete`, () => mod[`${kind}Delete`](handle));
    } catch (e) {
      if (e.code !== 'engine-stopped') throw e; // a stopped module's memory goes with it
    }
  };
  return { call, remove };
}

export const SEQ2SEQ_OPTIONS = optionNames('createSeq2Seq');

// One sentence: an array of tokens (integers, or the task's words), or the words as one string
// separated by spaces -> Float64Array (so the module sees 2^32 + 3 as it is: an Int32Array would
// have wrapped it to 3). words: the vocabulary the strings are looked up in; every token an
// integer from lowest to words.length - 1 (a target's lowest is 1: 0 is "</s>").
function sentenceArg(name, x, words, max, lowest = 0) {
  return reading(name, () => {
    const list = typeof x === 'string' ? wordsOf(name, x, words, max) : arrayArg(name, x, max, 'tokens');
    if (list.length === 0 || list.length > max) fail(`${name}: expected 1 to ${max} tokens, got ${list.length}`);
    const out = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      if (typeof v === 'string') {
        const k = words.indexOf(v);
        if (k < lowest)
          fail(
            `${name}: ${describeToken(v)} (token ${i}) is not a word of the task (expected one of ${words.slice(lowest).join(' ')})`,
          );
        out[i] = k;
      } else if (typeof v === 'number' && Number.isInteger(v) && v >= lowest && v < words.length) {
        out[i] = v;
      } else if (typeof v === 'number' && Number.isInteger(v)) {
        fail(`${name}: token ${i} is ${v} (expected an integer token from ${lowest} to ${words.length - 1})`);
      } else {
        fail(`${name}: token ${i} is ${describeToken(v)} (expected an integer token or a word)`);
      }
    }
    return out;
  });
}

// The words of a sentence written as one string: at most max words of the vocabulary, with as
// much white space around each as the longest word is long. Its length is checked first, so a
// string of megabytes is refused at once, not split; then it is read no further than max + 1 words.
function wordsOf(name, text, words, max) {
  const longest = Math.max(...words.map((w) => w.length));
  const most = (2 * max + 1) * longest;
  if (text.length > most)
    fail(`${name}: expected a sentence of at most ${max} words (${most} characters), got ${text.length} characters`);
  const list = [];
  for (const [word] of text.matchAll(/\S+/g)) {
    if (list.length === max) fail(`${name}: expected 1 to ${max} tokens, got more than ${max}`);
    list.push(word);
  }
  return list;
}

// A token as a message quotes it (a long string cut to its first 32 characters).
function describeToken(v) {
  if (typeof v === 'string') return v.length > 32 ? `'${v.slice(0, 32)}…'` : `'${v}'`;
  return typeof v === 'object' && v !== null ? 'an object' : String(v);
}

// [[...], ...] of sentences -> [Float64Array, ...]
function sentencesArg(name, x, words, limits, lowest = 0) {
  return reading(name, () => {
    const rows = arrayArg(name, x, limits.maxBatch, 'sentences');
    if (rows.length === 0) fail(`${name}: expected 1 to ${limits.maxBatch} sentences, got none`);
    return Array.from(rows, (row, r) => sentenceArg(`${name}[${r}]`, row, words, limits.maxSeq2SeqLength, lowest));
  });
}

// trainEngine.seq2seq(options): the same conventions as makeTrainer (errors, handles, a trap stops
// the engine).
function makeSeq2Seq(mod, run, guarded, limits, options) {
  const o = checkOptions('seq2seq', options, SEQ2SEQ_OPTIONS);
  const args = scalarArgs('createSeq2Seq', o);
  // the options as the core made it: every absent one at its table's fallback (core/seq2seq_trainer.h)
  const { seq2seq: handle, config } = run('createSeq2Seq', args);
  const tasks = guarded('seq2seq', () => mod.seq2seqTasks());
  const task = tasks[config.task];
  const { call, remove } = handleCalls(mod, guarded, 'seq2seq', handle, 'this model');
  const pairs = (what, batch) => {
    const b = checkOptions(what, batch, ['source', 'target']);
    return {
      source: sentencesArg('source', b.source, task.sourceWords, limits),
      target: sentencesArg('target', b.target, task.targetWords, limits, 1),
    };
  };
  const words = (list, tokens) => Array.from(tokens, (t) => list[t]);
  // decoded output with the words of both sides
  const decoded = (r) => ({
    ...r,
    sourceWords: words(task.sourceWords, r.source),
    predictionWords: words(task.targetWords, r.predictions),
    ...(r.target ? { targetWords: words(task.targetWords, r.target) } : {}),
  });
  return {
    config: Object.freeze(config),
    task: Object.freeze({ ...task, name: config.task }),
    // n clipped Adam steps on fresh batches of the task -> { step, losses, accuracies }
    step(n) {
      return call('step', scalarArg(n));
    },
    // teacher-forced loss and token accuracy on a held-out batch (the same for the whole run)
    evaluate() {
      return call('evaluate');
    },
    // greedy decoding of a held-out set, 8 pairs of every source length 2 .. maxLength:
    // { lengths, pairs, tokenAccuracy, sequenceAccuracy } (Int32Array / Float32Array, one per length)
    evaluateByLength() {
      return call('evaluateByLength');
    },
    // the task's fixed sentence, greedily decoded for its target's length + 1 steps:
    // { source, target, predictions, alignment: (n_target + 1, n_source) (absent for 'none'), loss, accuracy }
    probe() {
      return decoded(call('probe'));
    },
    // greedy decoding of your own sentence (tokens or words) until "</s>": { source, predictions,
    // alignment, target (the grammar's translation, when it is a sentence of the task) }
    translate(tokens) {
      return decoded(call('translate', { source: sentenceArg('tokens', tokens, task.sourceWords, config.maxLength) }));
    },
    ...tensors(call),
    // loss, accuracy and every gradient on given pairs { source: [[...]], target: [[...]] }
    gradients(batch) {
      const r = call('gradients', pairs('gradients', batch));
      return { loss: r.loss, accuracy: r.accuracy, gradients: named(r.gradients) };
    },
    // one clipped Adam step on given pairs -> { loss, accuracy, step }
    stepOn(batch) {
      return call('stepOn', pairs('stepOn', batch));
    },
    delete: remove,
  };
}
