// GPT-2-family checkpoints: engine.loadModel(source, { config, onProgress, signal }) reads a
// safetensors file into the model module (attention-model-simd / -scalar, built from
// cpp/bindings/model_bindings.cpp: a wasm module of its own, with its own memory, loaded with the
// first model; this file too is loaded only then), and the model it gives computes GPT-2's forward
// pass with every head's work. Argument conversion only: the format's, the architecture's and the
// run's checks are the core's (cpp/core/safetensors.h, gpt2_loader.h, gpt2.h). No maths here.
//
//   const model = await engine.loadModel(file, { config, onProgress: ({ loaded, total }) => … });
//   const r = await model.run([464, 3797, 318], { topK: 5, head: [0, 3], ablate: [[1, 2]] });
//   r.topK        // { k, ids: Int32Array, probabilities: Float32Array }: (n, k), best first
//   r.attention   // [layer][head]: (n, n) weights
//   model.headScores({ seed: 1, length: 50 });   // { previousToken, induction, … }: (nLayer, nHead)
//   model.delete();
//
// The file is read in pieces (a File or Blob through its stream, a Response through its body, an
// ArrayBuffer or Uint8Array as views of it), each piece copied once into the module, where it is
// converted to float32 and stored; nothing else keeps it. A cancelled or failed load frees
// everything it had taken.

import { AttentionError, arrayArg, checkOptions, describe, fail, reading, scalarArg } from './args.js';
import { engineLoader, frozenTable, moduleCalls } from './loader.js';
import { ablationArg } from './train-api.js';

// One literal import per build, so a bundler ships both glue files.
const MODEL_GLUE = {
  simd: { load: () => import('../../../build/wasm/attention-model-simd.js'), wasm: 'attention-model-simd.wasm' },
  scalar: { load: () => import('../../../build/wasm/attention-model-scalar.js'), wasm: 'attention-model-scalar.wasm' },
};

// The model module of one build, loaded once: { mod, calls, limits, options } (options: the option
// table of its calls, engine.options' form: { modelRun: { ids, topK, … }, modelHeadScores: … }).
const loadModelModule = engineLoader('loadModel', MODEL_GLUE, (mod, simd, forget) => ({
  mod,
  calls: moduleCalls(mod, 'loadModel', forget),
  limits: Object.freeze(mod.modelLimits()),
  options: frozenTable(mod.options()),
}));

const PIECE = 4 << 20; // bytes read from the source at a time (at most)

// config.json's keys the engine reads (the rest of the file is about training and tokenizing).
const CONFIG_KEYS = [
  'model_type',
  'activation_function',
  'scale_attn_weights',
  'scale_attn_by_inverse_layer_idx',
  'add_cross_attention',
  'n_layer',
  'n_head',
  'n_embd',
  'n_positions',
  'vocab_size',
  'n_inner',
  'layer_norm_epsilon',
];

// The parsed config.json -> { 'config.n_layer': …, … } (absent and null keys left out).
function configArg(config) {
  return reading('config', () => {
    const proto = config !== null && typeof config === 'object' ? Object.getPrototypeOf(config) : undefined;
    if (proto !== Object.prototype && proto !== null) {
      fail(
        `config: expected the checkpoint's config.json as an object { n_layer, n_head, n_embd, n_positions, vocab_size, … }, got ${describe(config)}`,
      );
    }
    const out = {};
    for (const key of CONFIG_KEYS) {
      const v = config[key];
      if (v !== undefined && v !== null) out[`config.${key}`] = scalarArg(v);
    }
    return out;
  });
}

// ---- the file, in pieces --------------------------------------------------------------------------

const TYPED_PROTO = Object.getPrototypeOf(Uint8Array.prototype);
const typedGetter = (key) => Object.getOwnPropertyDescriptor(TYPED_PROTO, key).get;
const typedTag = typedGetter(Symbol.toStringTag);
const viewOf = (u8) =>
  new Uint8Array(
    typedGetter('buffer').call(u8),
    typedGetter('byteOffset').call(u8),
    typedGetter('byteLength').call(u8),
  );

// source -> { total (bytes, or -1 when a response does not say), next() -> Uint8Array or null at
// the end, cancel() }.
function byteSource(source) {
  if (source instanceof ArrayBuffer || typedTag.call(source) === 'Uint8Array') {
    let bytes;
    try {
      bytes = source instanceof ArrayBuffer ? new Uint8Array(source, 0, source.byteLength) : viewOf(source);
    } catch {
      fail('source: its ArrayBuffer is detached (transferred elsewhere; expected the bytes of a safetensors file)');
    }
    const total = bytes.length;
    let at = 0;
    return {
      total,
      async next() {
        if (at >= total) return null;
        // the caller's code runs between two pieces: its buffer may have been detached or shrunk
        if (typedGetter('length').call(bytes) !== total)
          fail(`source: its buffer was detached or shrunk while it was read (after ${at} of ${total} bytes)`);
        const piece = bytes.subarray(at, at + PIECE);
        at += piece.length;
        return piece;
      },
      cancel() {},
    };
  }
  let stream;
  let total = -1;
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    stream = source.stream();
    total = source.size;
  } else if (typeof Response !== 'undefined' && source instanceof Response) {
    if (!source.ok) fail(`source: the response is ${source.status} ${source.statusText} (expected 200 OK)`);
    if (source.bodyUsed || !source.body) fail('source: the response has no body left to read');
    const length = Number(source.headers.get('content-length'));
    // a compressed body's length is not the file's
    if (length >= 0 && source.headers.get('content-length') !== null && !source.headers.get('content-encoding'))
      total = length;
    stream = source.body;
  } else {
    fail(`source: expected a File, Blob, ArrayBuffer, Uint8Array or Response, got ${describe(source)}`);
  }
  // A byte stream (a Blob's, a fetched body's) is read into one buffer, reused from read to read:
  // no memory is allocated (and first touched, which is what reading a file costs most) per piece.
  let reader;
  let buffer = null;
  try {
    reader = stream.getReader({ mode: 'byob' });
    buffer = new ArrayBuffer(PIECE);
  } catch {
    reader = stream.getReader(); // not a byte stream: its own pieces
  }
  return {
    total,
    async next() {
      const { done, value } = await (buffer ? reader.read(new Uint8Array(buffer)) : reader.read());
      if (done) return null;
      if (buffer) buffer = value.buffer; // the read took the buffer and gives it back: used until the next read
      return value;
    },
    cancel() {
      reader.cancel().catch(() => {}); // nothing more to say: the load has stopped
    },
  };
}

// The first n bytes of the source (fewer at its end), and what came after them.
async function firstBytes(src, n, pending) {
  const out = new Uint8Array(n);
  let have = 0;
  while (have < n) {
    const chunk = pending.length ? pending : await src.next();
    pending = new Uint8Array(0);
    if (!chunk) break;
    const take = Math.min(n - have, chunk.length);
    out.set(chunk.subarray(0, take), have);
    have += take;
    if (take < chunk.length) pending = chunk.subarray(take);
  }
  return { bytes: out.subarray(0, have), pending };
}

// ---- loading --------------------------------------------------------------------------------------

export async function loadModel(simd, source, options) {
  const o = checkOptions('loadModel', options, ['config', 'onProgress', 'signal']);
  const config = configArg(o.config);
  const onProgress = o.onProgress;
  if (onProgress != null && typeof onProgress !== 'function')
    fail(`onProgress: expected a function ({ loaded, total }) => …, got ${describe(onProgress)}`);
  const signal = o.signal;
  if (signal != null && !(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal))
    fail(`signal: expected an AbortSignal, got ${describe(signal)}`);
  if (signal && signal.aborted) fail('signal: the load was cancelled before it began');
  const src = reading('source', () => byteSource(source));
  const onAbort = () => src.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });

  let handle = null;
  let loaded = 0;
  let module;
  const total = src.total;
  const progress = () => {
    if (onProgress) reading('onProgress', () => onProgress({ loaded, total: total < 0 ? null : total }));
  };
  const checkSignal = () => {
    if (signal && signal.aborted)
      fail(`signal: the load was cancelled after ${loaded} of ${total < 0 ? 'the' : total} bytes`);
  };
  try {
    module = await loadModelModule({ simd });
    checkSignal();
    const { mod, calls } = module;
    // the header: its length, then the JSON, both checked before any weight is read
    let first = await firstBytes(src, 8, new Uint8Array(0));
    checkSignal();
    const length = calls.run('modelHeaderLength', { first: first.bytes, fileBytes: total }).headerBytes;
    const header = await firstBytes(src, length, first.pending);
    checkSignal();
    if (header.bytes.length < length)
      fail(`source: truncated: the file ends within its header (${8 + header.bytes.length} of ${8 + length} bytes)`);
    const begun = calls.run('modelBegin', { header: header.bytes, fileBytes: total, ...config });
    handle = begun.model;
    loaded = 8 + length;
    progress();
    // the data: every chunk copied once, into the module's buffer, which the module reads into
    // the model's storage each time it is full (a view of the module's memory is taken afresh
    // after every await: anything that allocates there meanwhile detaches it)
    const moduleCall = (fn, ...args) => {
      const r = calls.guarded('loadModel', () => mod[fn](handle, ...args));
      if (r.error !== undefined) fail(r.error);
      return r;
    };
    let filled = 0; // bytes of the buffer written
    const feed = () => {
      moduleCall('modelFeed', filled);
      filled = 0;
    };
    let pending = header.pending;
    for (;;) {
      const chunk = pending.length ? pending : await src.next();
      pending = new Uint8Array(0);
      checkSignal();
      if (!chunk) break;
      let buffer = moduleCall('modelBuffer');
      for (let at = 0; at < chunk.length;) {
        const take = Math.min(chunk.length - at, buffer.length - filled);
        buffer.set(chunk.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === buffer.length) {
          feed();
          buffer = moduleCall('modelBuffer');
        }
      }
      loaded += chunk.length;
      progress();
    }
    if (filled > 0) feed();
    const done = calls.guarded('loadModel', () => mod.modelFinish(handle));
    if (done.error !== undefined) fail(done.error);
    const model = makeModel(module, handle, done.config, done.weightBytes);
    handle = null; // the model owns it now
    return model;
  } catch (e) {
    src.cancel();
    if (handle !== null && !module.calls.stopped) module.mod.modelDelete(handle);
    if (e instanceof AttentionError) throw e;
    throw new AttentionError(
      `source: reading it threw ${e instanceof Error ? `${e.name}: ${e.message}` : describe(e)}`,
    );
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

// ---- a model --------------------------------------------------------------------------------------

// ids: an array-like of token ids -> doubles (the module checks each is an integer of the vocabulary).
function idsArg(name, ids, most) {
  const list = arrayArg(name, ids, most, 'token ids');
  const out = new Float64Array(list.length);
  list.forEach((v, i) => {
    if (typeof v !== 'number') fail(`${name}: entry ${i} is ${describe(v)} (expected an integer token id)`);
    out[i] = v;
  });
  return out;
}

// head: [layer, head] -> a copy of it, checked against the model
function headArg(head, config) {
  const pair = arrayArg('head', head, 2, 'numbers');
  const ok = (x, n) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < n;
  if (pair.length !== 2 || !ok(pair[0], config.nLayer) || !ok(pair[1], config.nHead))
    fail(
      `head: expected [layer, head] with layer 0 to ${config.nLayer - 1} and head 0 to ${config.nHead - 1}, got ${
        pair.length === 2 ? `[${pair.map(describe).join(', ')}]` : describe(head)
      }`,
    );
  return [pair[0], pair[1]];
}

function makeModel({ mod, calls, options }, handle, config, weightBytes) {
  // the option names of run (after its ids) and headScores, as the module reads them
  const runNames = Object.keys(options.modelRun).filter((name) => name !== 'ids');
  const scoreNames = Object.keys(options.modelHeadScores);
  let live = true;
  const frozen = Object.freeze(config);
  const call = (name, args) => {
    if (!live) fail(`model.${name}: this model has been deleted`);
    const fn = `model${name[0].toUpperCase()}${name.slice(1)}`;
    const r = calls.guarded(`model.${name}`, () => mod[fn](handle, args));
    if (r.error !== undefined) fail(r.error);
    return r;
  };
  return {
    // { nLayer, nHead, nEmbd, nPositions, vocabSize, layerNormEpsilon }
    config: frozen,
    // bytes its weights take in the engine (float32)
    weightBytes,

    // The forward pass on ids (1 to nPositions token ids): { topK, attention, residualNorms,
    // stages (with head), baseline (with ablate) }.
    async run(ids, runOptions) {
      if (!live) fail('model.run: this model has been deleted');
      const o = checkOptions('run', runOptions, runNames);
      return call('run', {
        ids: idsArg('ids', ids, frozen.nPositions),
        topK: scalarArg(o.topK),
        ablation: scalarArg(o.ablation),
        profile: scalarArg(o.profile),
        ...(o.head == null ? {} : { head: headArg(o.head, frozen) }),
        ...ablationArg(o.ablate, { layers: frozen.nLayer, heads: frozen.nHead }),
      });
    },

    // The five head scores on `length` distinct tokens drawn from `seed` (or on `tokens`),
    // written twice: { previousToken, induction, duplicateToken, firstToken, entropy } (nLayer,
    // nHead) matrices and the tokens.
    headScores(scoreOptions) {
      const o = checkOptions('headScores', scoreOptions, scoreNames);
      if (o.tokens != null && (o.seed !== undefined || o.length !== undefined))
        fail('headScores: expected tokens, or seed and length, not both');
      const most = Math.max(2, Math.min(frozen.vocabSize, Math.floor(frozen.nPositions / 2)));
      return call(
        'headScores',
        o.tokens != null
          ? { tokens: idsArg('tokens', o.tokens, most) }
          : { seed: scalarArg(o.seed), length: scalarArg(o.length) },
      );
    },

    // Frees the model's memory; later calls throw.
    delete() {
      if (live && !calls.stopped) mod.modelDelete(handle); // a stopped module's memory goes with it
      live = false;
    },
  };
}

// The model module's memory: { heapBytes, usedBytes, maxBytes (what it may grow to) }.
export async function modelMemory(simd) {
  const { calls, limits } = await loadModelModule({ simd });
  return { ...calls.run('memory'), maxBytes: limits.maxBytes };
}
