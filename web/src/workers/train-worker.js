// A Web Worker that trains the playground's models (trainEngine.trainer, engine-train.js) off the page's thread, so
// training never blocks the page. It keeps one or two trainers (a run and, side by side, its
// twin with one switch flipped) and trains them in small chunks, reporting after each.
//
// page -> worker   { type: 'load', simd }                               load the engine
//                  { type: 'reset', id, runs: { main: config, twin?: config } }
//                                                                        new trainers (step 0)
//                  { type: 'train', id, until, chunk }                   train every run to step `until`
//                                                                        (Infinity: until paused)
//                  { type: 'pause', id }                                 stop after the current chunk
//                  { type: 'inspect', id, run, tokens }                  every head on your own tokens
//                                                                        (an encoder–decoder: its translation)
//                  { type: 'ablate', id, run, heads: [[layer, head]] }   the held-out batch and the probe
//                                                                        with those heads' outputs zeroed
// worker -> page   { type: 'ready' }
//                  { type: 'report', id, runs: { name: report }, training }  after reset and each chunk
//                  { type: 'paused', id, steps: { name: step } }             after a pause
//                  { type: 'inspected', id, result } | { type: 'error', id, message, name }
//                  (ablate's result: { heads, heldOut: { loss, accuracy }, probe: { loss, accuracy,
//                  predictions } }, each also without the ablation as whole: { heldOut, probe })
//
// A report: { step, losses, accuracies (the steps since the last report), evalLoss, evalAccuracy
// (held-out batch), probe: { tokens, targets, predictions, patterns }, scores: every head's
// previous-token and induction score (trainer.headScores()), stepsPerSecond }.
// A run whose config has kind: 'seq2seq' is an RNN encoder–decoder (trainEngine.seq2seq, the
// other fields its options); its report's probe is seq2seq.probe() (source, target, predictions,
// alignment) and it adds byLength: evaluateByLength() and vocabulary: the task's source words.
// Also runs under Node's worker_threads (for the tests), where the port is parentPort.

import { loadTrainEngine } from '../engine/train-api.js';
import { TRAIN_LIMITS } from '../engine/choices.js';
import { openPort, failure } from './port.js';

const port = openPort();
let engine = null;
let runs = new Map(); // name -> trainer
const steps = new Map(); // name -> the steps its trainer has taken
let session = 0; // the id of the current reset; older messages are ignored
let training = null; // the id of the train request running now
const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
const pauseForMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

const kinds = new Map(); // name -> 'trainer' | 'seq2seq'

function report(name, t, r, ms) {
  const e = t.evaluate();
  const out = {
    step: r.step,
    losses: r.losses,
    accuracies: r.accuracies,
    evalLoss: e.loss,
    evalAccuracy: e.accuracy,
    probe: t.probe(),
    stepsPerSecond: ms > 0 ? (r.losses.length * 1000) / ms : 0,
  };
  if (kinds.get(name) === 'seq2seq') {
    out.byLength = t.evaluateByLength();
    out.vocabulary = t.task.sourceWords;
  } else {
    out.scores = t.headScores();
  }
  return out;
}

function create(name, config) {
  const { kind, ...options } = config;
  kinds.set(name, kind === 'seq2seq' ? 'seq2seq' : 'trainer');
  return kind === 'seq2seq' ? engine.seq2seq(options) : engine.trainer(options);
}

function deleteRuns() {
  for (const t of runs.values()) t.delete();
  runs = new Map();
  steps.clear();
  kinds.clear();
}

async function reset({ id, runs: configs }) {
  session = id;
  training = null;
  deleteRuns();
  try {
    for (const [name, config] of Object.entries(configs)) {
      runs.set(name, create(name, config));
      steps.set(name, 0);
    }
    const out = {};
    for (const [name, t] of runs)
      out[name] = report(name, t, { step: 0, losses: new Float32Array(0), accuracies: new Float32Array(0) }, 0);
    port.post({ type: 'report', id, runs: out, training: false });
  } catch (e) {
    deleteRuns();
    port.post(failure(id, e));
  }
}

async function train({ id, until, chunk }) {
  if (id !== session || !runs.size) return;
  const me = {};
  training = me;
  try {
    for (;;) {
      const out = {};
      for (const [name, t] of runs) {
        const n = Math.min(chunk, until - (steps.get(name) ?? 0));
        if (n <= 0) continue;
        const t0 = now();
        const r = t.step(n);
        const ms = now() - t0;
        steps.set(name, r.step);
        out[name] = report(name, t, r, ms);
      }
      const finished = [...steps.values()].every((n) => n >= until);
      port.post({ type: 'report', id, runs: out, training: !finished && training === me });
      if (finished) break;
      await pauseForMessages();
      if (training !== me || id !== session) return;
    }
  } catch (e) {
    port.post(failure(id, e));
  }
  if (training === me) training = null;
}

function inspect({ id, run, tokens }) {
  const t = runs.get(run);
  if (!t) {
    port.post(failure(id, new Error(`no run '${run}'`)));
    return;
  }
  try {
    const result = kinds.get(run) === 'seq2seq' ? t.translate(tokens) : t.run(tokens);
    port.post({ type: 'inspected', id, result });
  } catch (e) {
    port.post(failure(id, e));
  }
}

function ablate({ id, run, heads }) {
  const t = runs.get(run);
  if (!t || kinds.get(run) !== 'trainer') {
    port.post(failure(id, new Error(`no attention-only run '${run}'`)));
    return;
  }
  try {
    const pass = (options) => {
      const e = t.evaluate(options);
      const p = t.probe(options);
      return {
        heldOut: { loss: e.loss, accuracy: e.accuracy },
        probe: { loss: p.loss, accuracy: p.accuracy, predictions: p.predictions },
      };
    };
    port.post({ type: 'inspected', id, result: { heads, ...pass({ ablate: heads }), whole: pass() } });
  } catch (e) {
    port.post(failure(id, e));
  }
}

async function load({ simd }) {
  try {
    engine = await loadTrainEngine(typeof simd === 'boolean' ? { simd } : undefined);
    port.post({ type: 'ready' });
  } catch (e) {
    port.post(failure(null, e));
  }
}

// Stops training after the current chunk (messages only arrive between chunks, so every report
// of the run has been sent) and says where each run stands.
function pause({ id }) {
  if (id !== session) return;
  training = null;
  port.post({ type: 'paused', id, steps: Object.fromEntries(steps) });
}

// ---- every message checked before it is acted on ----------------------------------------------
// A message that is not one of the kinds above, with fields of the right types and ranges, gets
// exactly one error reply (its id, or null) and changes nothing.
const MAX_RUNS = TRAIN_LIMITS.maxTrainers; // runs in one reset: the trainers live at once
const MAX_CHUNK = TRAIN_LIMITS.maxTrainSteps; // steps in one chunk: one call's
const MAX_HEADS = TRAIN_LIMITS.maxLayers * TRAIN_LIMITS.maxTrainHeads; // heads of the largest trainer
const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isId = (x) => Number.isSafeInteger(x) && x >= 0;
const describeValue = (x) =>
  typeof x === 'string' ? `'${x}'` : Array.isArray(x) ? 'an array' : isObject(x) ? 'an object' : String(x);
const FIELDS = {
  load: { simd: (x) => x === undefined || typeof x === 'boolean' || 'true, false or absent' },
  reset: {
    id: (x) => isId(x) || 'an integer id of 0 or more',
    runs: (x) => {
      if (!isObject(x)) return '{ name: trainer options } of the runs';
      const n = Object.keys(x).length;
      if (n < 1 || n > MAX_RUNS) return `1 to ${MAX_RUNS} runs (got ${n})`;
      return Object.values(x).every(isObject) || 'an options object for every run';
    },
  },
  train: {
    id: (x) => isId(x) || 'an integer id of 0 or more',
    until: (x) => x === Infinity || (Number.isSafeInteger(x) && x >= 0) || 'a step of 0 or more, or Infinity',
    chunk: (x) => (Number.isInteger(x) && x >= 1 && x <= MAX_CHUNK) || `an integer from 1 to ${MAX_CHUNK}`,
  },
  pause: { id: (x) => isId(x) || 'an integer id of 0 or more' },
  inspect: {
    id: (x) => isId(x) || 'an integer id of 0 or more',
    run: (x) => typeof x === 'string' || 'the name of a run',
    tokens: (x) => Array.isArray(x) || ArrayBuffer.isView(x) || 'an array of tokens',
  },
  ablate: {
    id: (x) => isId(x) || 'an integer id of 0 or more',
    run: (x) => typeof x === 'string' || 'the name of a run',
    heads: (x) =>
      (Array.isArray(x) && x.length <= MAX_HEADS && x.every(Array.isArray)) || `up to ${MAX_HEADS} [layer, head] pairs`,
  },
};

// '' when m is a well-formed message; otherwise what is wrong with it.
function checkMessage(m) {
  if (!isObject(m)) return `expected a message object, got ${describeValue(m)}`;
  const fields = Object.hasOwn(FIELDS, m.type) ? FIELDS[m.type] : null;
  if (!fields) return `type: expected one of ${Object.keys(FIELDS).join(', ')}, got ${describeValue(m.type)}`;
  for (const [name, ok] of Object.entries(fields)) {
    const verdict = ok(m[name]);
    if (verdict !== true) return `${m.type}.${name}: expected ${verdict}, got ${describeValue(m[name])}`;
  }
  return '';
}

const badMessage = (m, problem) => {
  const id = isObject(m) && isId(m.id) ? m.id : null;
  port.post({ type: 'error', id, message: `training worker: ${problem}`, name: 'AttentionError' });
};

let loaded = null; // the engine's loading; every other message waits for it, in order
port.listen((m) => {
  const problem = checkMessage(m);
  if (problem) {
    badMessage(m, problem);
    return;
  }
  if (m.type === 'load') {
    loaded = load(m);
    return;
  }
  if (!loaded) {
    port.post(failure(m.id ?? null, new Error('the engine is not loaded yet')));
    return;
  }
  loaded.then(() => {
    if (!engine) port.post(failure(m.id ?? null, new Error('the engine could not be loaded')));
    else if (m.type === 'reset') reset(m);
    else if (m.type === 'train') train(m);
    else if (m.type === 'pause') pause(m);
    else if (m.type === 'inspect') inspect(m);
    else if (m.type === 'ablate') ablate(m);
  });
});
