// The bad-input catalogue's cases for what a typed array's buffer can do and for getters that
// re-enter, generated for every engine and trainer entry point: an array argument on a detached,
// resizable (shrunk or grown), shared or growable shared buffer, as it is when the call starts or
// changed by a getter of the caller's while the call reads its arguments; and options whose
// getters delete or create models. Each case is
//   [class, entry point, argument, call, expected]
// where call(engine, trainEngine) runs it and expected is a RegExp (an AttentionError whose
// message starts with the argument's name) or SAME (the result of the same call with plain
// arrays of the values as they were when the argument was read). tests/js/catalogue.test.js runs
// them in both builds. Nothing here calls an engine by itself.

import { randomCheckpoint } from './gpt2-reference.js';

export const SAME = 'the same result as plain arrays';

// ---- valid calls --------------------------------------------------------------------------------

const Q = [
  [1, 0.5, 0],
  [0, 1, -0.5],
];
const K = [
  [1, 0, 0],
  [0, 1, 0],
  [0.5, 0, 1],
];
const V = [
  [1, 2],
  [3, 4],
  [5, 6],
];
const X = [
  [1, 0, 0, 1],
  [0, 1, 1, 0],
  [1, 1, 0, 0],
];
const eye = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => (i === j ? 1 : 0)));
const W4 = [
  [0.5, 0, 0.1, 0],
  [0, 0.5, 0, 0.2],
  [0.3, 0, 0.5, 0],
  [0, 0.1, 0, 0.5],
];
const layer = () => ({
  kind: 'encoder',
  x: X,
  heads: 2,
  selfAttention: { Wq: W4, Wk: eye(4), Wv: eye(4), Wo: eye(4) },
  ff: { W1: W4, W2: eye(4) },
  norms: [
    { gamma: [1, 1, 1, 1], beta: [0, 0, 0, 0] },
    { gamma: [1, 1, 1, 1], beta: [0, 0, 0, 0] },
  ],
});
const chunk = (counts) => ({
  raw: { mean: 0, variance: 1 },
  scaled: { mean: 0, variance: 1 },
  histogram: { edges: [-1, 0, 1], scaledEdges: [-1, 0, 1], rawCounts: counts, scaledCounts: counts },
});

// Engine entry points: [function, options (plain arrays), the array argument (a path into the
// options), an argument converted after it (a path; 'rows' for the argument's own later rows, where
// the engine copies a matrix row by row; null for none)]. softmaxJacobian takes its array itself.
const ENGINE = [
  ['attend', () => ({ query: Q, key: K, value: V, causal: true }), 'query', 'key'],
  ['attendWithBug', () => ({ query: Q, key: K, value: V, bug: 'zero-fill' }), 'query', 'key'],
  [
    'multiHead',
    () => ({ query: X, key: X, value: X, heads: 2, Wq: W4, Wk: eye(4), Wv: eye(4), Wo: eye(4) }),
    'query',
    'key',
  ],
  ['flashAttend', () => ({ query: Q, key: K, value: V, blockSize: 2 }), 'query', 'key'],
  ['flashTrace', () => ({ query: Q, key: K, value: V, blockSize: 2 }), 'query', 'key'],
  ['linearAttend', () => ({ query: Q, key: K, value: V }), 'query', 'key'],
  ['outputError', () => ({ output: V, reference: [...V.slice(0, 2), [5, 7]] }), 'output', 'reference'],
  [
    'monitor',
    () => ({
      logits: [
        [1, 2],
        [3, 1],
      ],
      weights: [
        [0.25, 0.75],
        [0.5, 0.5],
      ],
      mask: [
        [1, 1],
        [1, 0],
      ],
    }),
    'logits',
    'weights',
  ],
  ['layerNorm', () => ({ x: X, gamma: [1, 2, 1, 2], beta: [0, 0, 1, 1] }), 'x', 'gamma'],
  ['feedForward', () => ({ x: X, W1: W4, W2: eye(4), activation: 'gelu' }), 'x', 'W1'],
  ['transformerLayer', layer, 'x', 'selfAttention.Wq'],
  [
    'gruEncoder',
    () => ({
      x: Q,
      Wih: [...K, ...K],
      Whh: [
        [0.5, 0],
        [0, 0.5],
        [0.5, 0],
        [0, 0.5],
        [0.5, 0],
        [0, 0.5],
      ],
    }),
    'x',
    'Wih',
  ],
  [
    'mergeVariance',
    () => ({ a: chunk([1, 2]), aSamples: 3, b: chunk([2, 2]), bSamples: 4 }),
    'a.histogram.rawCounts',
    'b.histogram.rawCounts',
  ],
  ['saturationSweep', () => ({ dks: [4, 8], nKeys: 4, trials: 2 }), 'dks', null],
  [
    'softmax',
    () => ({
      scores: [
        [1, 2, 3],
        [3, 2, 1],
      ],
    }),
    'scores',
    'rows',
  ],
  ['softmaxJacobian', () => ({ p: [0.2, 0.3, 0.5] }), 'p', null],
  [
    'hardAttention',
    () => ({
      scores: [
        [1, 2, 3],
        [3, 2, 1],
      ],
    }),
    'scores',
    'rows',
  ],
  [
    'gumbelSoftmax',
    () => ({
      scores: [
        [1, 2, 3],
        [3, 2, 1],
      ],
      tau: 0.5,
    }),
    'scores',
    'rows',
  ],
  ['rope', () => ({ x: X, first: 3 }), 'x', 'rows'],
  ['linear', () => ({ x: X, W: W4, b: [1, 2, 3, 4] }), 'x', 'W'],
  ['randomMatrix', () => ({ rows: 3, cols: 2, seed: 4, streams: [5, 6, 7] }), 'streams', null],
];

// Engine entry points that take numbers only: their options' getters can still re-enter.
const SCALAR_ONLY = [
  ['varianceExperiment', () => ({ dk: 4, samples: 20, seed: 2, bins: 4 })],
  ['varianceSample', () => ({ dk: 4, seed: 2, sample: 3 })],
  ['queryProbe', () => ({ dk: 4, nKeys: 5, seed: 2, gumbelSamples: 2 })],
  ['sinusoidal', () => ({ n: 3, d: 4 })],
  [
    'varianceRun',
    () => ({ dk: 4, seed: 2, bins: 4 }),
    (run) => {
      run.step(10);
      const s = run.snapshot();
      run.delete();
      return s;
    },
  ],
];

// Trainer entry points on a model of the trainer module: [entry point, makes the model, call(model,
// args), options (plain arrays; setParameters' come from the module), the array argument, an
// argument converted after it (or null), the argument as messages name it]. A model's calls
// change it, so each run of a call gets a fresh model of the same seed.
const TRAINER = (te) => te.trainer({ task: 'reverse', layers: 2, heads: 2, dModel: 8, batch: 2, seed: 3 });
const SEQ2SEQ = (te) => te.seq2seq({ task: 'copy', hidden: 6, embed: 4, batch: 2, maxLength: 8, seed: 3 });
const firstTwo = (make) => (te) => {
  const m = make(te);
  const p = m.parameters();
  m.delete();
  const [a, b] = Object.keys(p);
  const rows = (t) =>
    Array.from({ length: t.rows }, (_, r) => Array.from(t.data.slice(r * t.cols, (r + 1) * t.cols), (x) => x / 2));
  return { [a]: rows(p[a]), [b]: rows(p[b]) };
};
const TRAINERS = [
  ['trainer.run', TRAINER, (m, a) => m.run(a.tokens), () => ({ tokens: [1, 2, 3, 10] }), 'tokens', null],
  [
    'trainer.gradients',
    TRAINER,
    (m, a) => m.gradients(a),
    () => ({
      tokens: [
        [1, 2, 10, 2],
        [3, 4, 10, 4],
      ],
      targets: [
        [-1, -1, 2, 1],
        [-1, -1, 4, 3],
      ],
    }),
    'tokens',
    'targets',
  ],
  [
    'trainer.stepOn',
    TRAINER,
    (m, a) => ({ ...m.stepOn(a), after: m.parameters() }),
    () => ({
      tokens: [
        [1, 2, 10, 2],
        [3, 4, 10, 4],
      ],
      targets: [
        [-1, -1, 2, 1],
        [-1, -1, 4, 3],
      ],
    }),
    'tokens',
    'targets',
  ],
  ['trainer.evaluate', TRAINER, (m, a) => m.evaluate(a), () => ({ ablate: [[0, 1]] }), 'ablate', null],
  ['trainer.probe', TRAINER, (m, a) => m.probe(a), () => ({ ablate: [[1, 0]] }), 'ablate', null],
  [
    'trainer.setParameters',
    TRAINER,
    (m, a) => {
      m.setParameters(a);
      return m.parameters();
    },
    firstTwo(TRAINER),
    'embedding',
    'position',
  ],
  ['seq2seq.translate', SEQ2SEQ, (m, a) => m.translate(a.tokens), () => ({ tokens: [3, 1, 4] }), 'tokens', null],
  [
    'seq2seq.gradients',
    SEQ2SEQ,
    (m, a) => m.gradients(a),
    () => ({
      source: [
        [1, 2],
        [3, 4],
      ],
      target: [
        [2, 3],
        [4, 5],
      ],
    }),
    'source',
    'target',
    'source[0]',
  ],
  [
    'seq2seq.stepOn',
    SEQ2SEQ,
    (m, a) => ({ ...m.stepOn(a), after: m.parameters() }),
    () => ({
      source: [
        [1, 2],
        [3, 4],
      ],
      target: [
        [2, 3],
        [4, 5],
      ],
    }),
    'source',
    'target',
    'source[0]',
  ],
  [
    'seq2seq.setParameters',
    SEQ2SEQ,
    (m, a) => {
      m.setParameters(a);
      return m.parameters();
    },
    firstTwo(SEQ2SEQ),
    'source.embedding',
    'encoder.weight_ih_l0',
  ],
];

// Trainer entry points that take options of numbers only.
const TRAINER_SCALAR_ONLY = [
  ['trainer', (te, a) => te.trainer(a), () => ({ task: 'sort', dModel: 8, heads: 2, seed: 5 })],
  ['seq2seq', (te, a) => te.seq2seq(a), () => ({ task: 'reverse', hidden: 6, embed: 4, seed: 5 })],
];

// ---- odd buffers --------------------------------------------------------------------------------

// Buffers of `bytes` bytes (room to grow to 4 times that where they can grow).
const BUFFERS = {
  plain: (bytes) => new ArrayBuffer(bytes),
  resizable: (bytes) => new ArrayBuffer(bytes, { maxByteLength: 4 * bytes + 64 }),
  shared: (bytes) => new SharedArrayBuffer(bytes),
  'growable shared': (bytes) => new SharedArrayBuffer(bytes, { maxByteLength: 4 * bytes + 64 }),
};
const resize = (buffer, bytes) => (buffer instanceof SharedArrayBuffer ? buffer.grow(bytes) : buffer.resize(bytes));
const detach = (buffer) => structuredClone(buffer, { transfer: [buffer] });

// values (numbers) as a typed array on a buffer of that kind: a Float32Array, or a Float64Array
// for integers (tokens, streams, counts), whose view follows the buffer's length.
function typed(kind, values) {
  const Kind = values.every(Number.isInteger) ? Float64Array : Float32Array;
  const buffer = BUFFERS[kind](values.length * Kind.BYTES_PER_ELEMENT);
  const view = new Kind(buffer);
  view.set(values);
  return { view, buffer };
}

// ---- paths into an options object ---------------------------------------------------------------

// 'a.histogram.rawCounts' reaches into nested options; a key of the object itself (a tensor's
// name, 'encoder.weight_ih_l0') is taken whole.
const steps = (o, path) => (path in o ? [path] : path.split('.'));
function at(o, path) {
  return steps(o, path).reduce((x, k) => x[k], o);
}
function put(o, path, value) {
  const parts = steps(o, path);
  const last = parts.pop();
  parts.reduce((x, k) => x[k], o)[last] = value;
}

// An array whose entry 0 runs `effect` when it is read (then gives the value it held).
function firstEntryRuns(list, effect) {
  const out = [...list];
  Object.defineProperty(out, 0, {
    enumerable: true,
    get() {
      effect();
      return list[0];
    },
  });
  return out;
}

// The argument `path` of `args` on a buffer of `kind`: a list becomes one typed array, a matrix
// (nested rows) one typed row per buffer. Returns the buffers of the list / of each row.
function onBuffers(args, path, kind) {
  const value = at(args, path);
  if (Array.isArray(value[0])) {
    const rows = value.map((row) => typed(kind, row));
    put(
      args,
      path,
      rows.map((r) => r.view),
    );
    return rows.map((r) => r.buffer);
  }
  const t = typed(kind, value);
  put(args, path, t.view);
  return [t.buffer];
}

// ---- the cases ----------------------------------------------------------------------------------

const DETACHED = /(got 0$|got 0 |got none|an empty array|has 0 numbers|is \[\])/;

// The buffer cases of one entry point. plain(te) gives fresh plain options, run(args, e, te) runs
// the call (in a fresh model where it has one); `named` is the argument as messages name it.
function bufferCases(name, plain, run, path, later, named) {
  const out = [];
  const add = (klass, expected, change) =>
    out.push([
      klass,
      name,
      named,
      (e, te) => {
        const args = plain(te);
        change(args);
        return run(args, e, te);
      },
      expected,
    ]);

  // on such a buffer when the call starts
  const atStart = (klass, kind, prepare, expected) =>
    add(klass, expected, (args) => prepare(onBuffers(args, path, kind)[0]));
  atStart('detached buffer', 'plain', detach, DETACHED);
  atStart('shared buffer', 'shared', () => {}, SAME);
  atStart(
    'resizable buffer, grown and shrunk back before the call',
    'resizable',
    (b) => {
      resize(b, b.byteLength * 3);
      resize(b, b.byteLength / 3);
    },
    SAME,
  );
  atStart('growable shared buffer', 'growable shared', () => {}, SAME);

  // changed by a getter of the caller's after the argument was read: in an argument read after
  // it, or (where the engine copies a matrix row by row) in its own row 1, after row 0
  const afterRead = (klass, kind, change) =>
    add(klass, SAME, (args) => {
      const buffers = onBuffers(args, path, kind);
      if (later !== 'rows') {
        put(
          args,
          later,
          firstEntryRuns(at(args, later), () => buffers.forEach(change)),
        );
        return;
      }
      const rows = at(args, path);
      const list = [rows[0]];
      Object.defineProperty(list, 1, {
        enumerable: true,
        get() {
          change(buffers[0]);
          return rows[1];
        },
      });
      for (let r = 2; r < rows.length; r++) list[r] = rows[r];
      put(args, path, list);
    });
  if (later !== null) {
    afterRead('resizable buffer, shrunk after it was read', 'resizable', (b) => resize(b, 0));
    afterRead('resizable buffer, grown after it was read', 'resizable', (b) => resize(b, 2 * b.byteLength));
    afterRead('growable shared buffer, grown after it was read', 'growable shared', (b) => resize(b, 2 * b.byteLength));
  }

  // changed before it was read: row 0's read changes row 1's buffer, so row 1 has another length
  if (later === 'rows') {
    const cols = at(plain(null), path)[0].length;
    const beforeRead = (klass, kind, change, expected) =>
      add(klass, expected, (args) => {
        const buffers = onBuffers(args, path, kind);
        const rows = at(args, path);
        put(
          args,
          path,
          firstEntryRuns(rows, () => change(buffers[1])),
        );
      });
    beforeRead(
      'resizable buffer, shrunk before it was read',
      'resizable',
      (b) => resize(b, 0),
      new RegExp(`^row 1 has 0 numbers, expected ${cols}$`),
    );
    beforeRead(
      'growable shared buffer, grown before it was read',
      'growable shared',
      (b) => resize(b, 2 * b.byteLength),
      new RegExp(`^row 1 has ${2 * cols} numbers, expected ${cols}$`),
    );
  }
  return out;
}

// The options object of a call, with a getter on its first option that runs `effect` first.
function withGetter(args, effect) {
  const out = {};
  const [first, ...rest] = Object.keys(args);
  Object.defineProperty(out, first, {
    enumerable: true,
    get() {
      effect();
      return args[first];
    },
  });
  for (const k of rest) out[k] = args[k];
  return out;
}

// Each call of the trainer module in a fresh model, deleted afterwards.
const inModel = (make, call) => (args, e, te) => {
  const m = make(te);
  try {
    return call(m, args);
  } finally {
    m.delete();
  }
};

// An engine call: its options, or (softmaxJacobian) its array itself; a run's steps and snapshot.
function engineRun(fn) {
  const finish = SCALAR_ONLY.find(([f]) => f === fn)?.[2];
  return (args, e) => {
    const r = fn === 'softmaxJacobian' ? e.softmaxJacobian(args.p) : e[fn](args);
    return finish ? finish(r) : r;
  };
}

// A model made, and its first step: what a call that makes one is compared by.
const made = (create) => (args, e, te) => {
  const m = create(te, args);
  try {
    return { config: m.config, losses: m.step(1).losses };
  } finally {
    m.delete();
  }
};

// The plain call of each entry point, which a SAME case is compared with.
const PLAIN = new Map();

export const BUFFER_CASES = [];
export const REENTRANT_CASES = [];

for (const [fn, plain, path, later] of ENGINE) {
  PLAIN.set(fn, (e, te) => engineRun(fn)(plain(te), e, te));
  BUFFER_CASES.push(...bufferCases(fn, plain, engineRun(fn), path, later, path));
}
for (const [name, make, call, plain, path, later, named = path] of TRAINERS) {
  const run = inModel(make, call);
  PLAIN.set(name, (e, te) => run(plain(te), e, te));
  BUFFER_CASES.push(...bufferCases(name, plain, run, path, later, named));
}
for (const [fn, plain] of SCALAR_ONLY) PLAIN.set(fn, (e, te) => engineRun(fn)(plain(), e, te));
for (const [name, create, plain] of TRAINER_SCALAR_ONLY) PLAIN.set(name, (e, te) => made(create)(plain(), e, te));

export const plainCall = (name) => PLAIN.get(name);

// Getters that delete or create models while a call reads its options (the engine's variance runs;
// the trainer module's trainers and encoder–decoders). A call answers as it would have, or, when
// the getter deleted the very model it is a call of, says so by name.
const getterCases = (name, call, deletesItself) => {
  REENTRANT_CASES.push(
    [
      'getter that deletes a model',
      name,
      name,
      (e, te) => call(e, te, 'delete'),
      deletesItself ? /^this (trainer|model) has been deleted$/ : SAME,
    ],
    ['getter that creates a model', name, name, (e, te) => call(e, te, 'create'), SAME],
  );
};

for (const [fn, plain] of [...ENGINE, ...SCALAR_ONLY]) {
  getterCases(fn, (e, te, what) => {
    const args = plain(te);
    const run = e.varianceRun({ dk: 2, seed: 1 });
    const made = [];
    const effect = what === 'delete' ? () => run.delete() : () => made.push(e.varianceRun({ dk: 2, seed: 1 }));
    try {
      if (fn === 'softmaxJacobian') return e.softmaxJacobian(firstEntryRuns(args.p, effect));
      return engineRun(fn)(withGetter(args, effect), e, te);
    } finally {
      run.delete();
      for (const r of made) r.delete();
    }
  });
}

for (const [name, make, call, plain, path, later] of TRAINERS) {
  // the getter sits in the options object, or (run, translate: a list of tokens) in the list
  const getterIn = (args, effect) =>
    later === null && path === 'tokens'
      ? { ...args, tokens: firstEntryRuns(args.tokens, effect) }
      : withGetter(args, effect);
  getterCases(
    name,
    (e, te, what) => {
      const m = make(te);
      const others = [];
      const effect = what === 'delete' ? () => m.delete() : () => others.push(TRAINER(te), SEQ2SEQ(te));
      try {
        return call(m, getterIn(plain(te), effect));
      } finally {
        m.delete();
        for (const x of others) x.delete();
      }
    },
    true,
  );
}

for (const [name, create, plain] of TRAINER_SCALAR_ONLY) {
  getterCases(name, (e, te, what) => {
    const other = SEQ2SEQ(te);
    const others = [];
    const effect = what === 'delete' ? () => other.delete() : () => others.push(TRAINER(te), SEQ2SEQ(te));
    try {
      return made(create)(withGetter(plain(), effect), e, te);
    } finally {
      other.delete();
      for (const x of others) x.delete();
    }
  });
}

// ---- GPT-2 models (engine.loadModel, model.run) -----------------------------------------------
// Each case is [class, entry point, argument, call, expected]; call(engine, fixture) is async, with
// fixture { bytes, config, ids } of a small checkpoint, and resolves with the model's most likely
// next token after the ids (SAME: the same as with the plain bytes and ids).
const topOf = async (model, ids) => (await model.run(ids, { topK: 1 })).topK.ids.at(-1);
const loaded = async (e, f, source, options = {}) => {
  const m = await e.loadModel(source, { config: f.config, ...options });
  try {
    return await topOf(m, f.ids);
  } finally {
    m.delete();
  }
};
const sharedCopy = (bytes, growable) => {
  const s = new SharedArrayBuffer(bytes.length, growable ? { maxByteLength: 2 * bytes.length } : undefined);
  new Uint8Array(s).set(bytes);
  return s;
};
const resizableCopy = (bytes) => {
  const r = new ArrayBuffer(bytes.length, { maxByteLength: 2 * bytes.length });
  new Uint8Array(r).set(bytes);
  return r;
};
const detachedCopy = (bytes) => {
  const c = bytes.slice();
  detach(c.buffer);
  return c;
};
// A checkpoint of 5.3 MB, read in two pieces (4 MiB each) with the caller's onProgress between
// them, in a resizable buffer.
let big;
const bigCheckpoint = () => {
  big ??= randomCheckpoint({ nLayer: 1, nEmbd: 64, vocabSize: 20000 });
  return { bytes: new Uint8Array(resizableCopy(big.bytes)), config: big.config };
};
const MIDWAY = /^its buffer was detached or shrunk while it was read \(after 4194304 of \d+ bytes\)$/;

export const plainModelCall = (e, f) => loaded(e, f, f.bytes);

export const MODEL_BUFFER_CASES = [
  [
    'detached buffer',
    'loadModel',
    'source',
    (e, f) => loaded(e, f, detachedCopy(f.bytes)),
    /^its ArrayBuffer is detached/,
  ],
  [
    'detached buffer',
    'loadModel',
    'source',
    (e, f) => loaded(e, f, detachedCopy(f.bytes).buffer),
    /^its ArrayBuffer is detached/,
  ],
  [
    'detached buffer',
    'loadModel',
    'source',
    (e) => {
      const { bytes, config } = bigCheckpoint();
      const onProgress = () => bytes.buffer.byteLength && detach(bytes.buffer);
      return e.loadModel(bytes, { config, onProgress });
    },
    MIDWAY,
  ],
  [
    'detached buffer',
    'model.run',
    'ids',
    async (e, f) => {
      const ids = Int32Array.from(f.ids);
      detach(ids.buffer);
      return topOf(f.model, ids);
    },
    /^expected 1 to \d+ tokens \(config\.n_positions\), got 0$/,
  ],
  ['shared buffer', 'loadModel', 'source', (e, f) => loaded(e, f, new Uint8Array(sharedCopy(f.bytes))), SAME],
  [
    'shared buffer',
    'model.run',
    'ids',
    (e, f) => {
      const ids = new Int32Array(new SharedArrayBuffer(4 * f.ids.length));
      ids.set(f.ids);
      return topOf(f.model, ids);
    },
    SAME,
  ],
  [
    'growable shared buffer',
    'loadModel',
    'source',
    (e, f) => loaded(e, f, new Uint8Array(sharedCopy(f.bytes, true))),
    SAME,
  ],
  [
    'resizable buffer, grown and shrunk back before the call',
    'loadModel',
    'source',
    (e, f) => {
      const r = resizableCopy(f.bytes);
      r.resize(2 * f.bytes.length);
      r.resize(f.bytes.length);
      return loaded(e, f, r);
    },
    SAME,
  ],
  [
    'resizable buffer, grown after it was read',
    'loadModel',
    'source',
    (e, f) => {
      const r = resizableCopy(f.bytes);
      return loaded(e, f, r, { onProgress: () => r.resize(2 * f.bytes.length) });
    },
    SAME,
  ],
  [
    'resizable buffer, shrunk after it was read',
    'loadModel',
    'source',
    (e) => {
      const { bytes, config } = bigCheckpoint();
      return e.loadModel(bytes.buffer, { config, onProgress: () => bytes.buffer.resize(100) });
    },
    MIDWAY,
  ],
  [
    'getter that deletes a model',
    'model.run',
    'model.run',
    async (e, f) => {
      const m = await e.loadModel(f.bytes, { config: f.config });
      try {
        return await m.run(f.ids, {
          get topK() {
            m.delete();
            return 1;
          },
        });
      } finally {
        m.delete();
      }
    },
    /^this model has been deleted$/,
  ],
  [
    'getter that creates a model',
    'model.run',
    'model.run',
    async (e, f) => {
      let other;
      const r = await f.model.run(f.ids, {
        get topK() {
          other = e.loadModel(f.bytes, { config: f.config });
          return 1;
        },
      });
      (await other).delete();
      return r.topK.ids.at(-1);
    },
    SAME,
  ],
];
