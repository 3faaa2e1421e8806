// Input conversion for the engine: turns what a page or a test passes in into the plain
// values the wasm module reads ({ rows, cols, data: Float32Array }, Uint8Array flags, a
// snapshot of each options object), and rejects what cannot be converted with an
// AttentionError that names the argument. The checks of values, ranges and shapes are the
// core's (cpp/core/check.h): sizes are asked of it before anything is copied. No maths here.

export class AttentionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AttentionError';
  }
}

export function fail(message) {
  throw new AttentionError(message);
}

// How a bad value reads in a message: 'cosine', 2.5, undefined, an array, an object.
export function describe(x) {
  if (typeof x === 'string') return `'${x}'`;
  if (x === null || x === undefined || typeof x === 'number' || typeof x === 'boolean') return String(x);
  if (typeof x === 'bigint') return `${x}n`;
  if (typeof x === 'symbol') return 'a symbol';
  if (Array.isArray(x)) return 'an array';
  if (ArrayBuffer.isView(x)) return `a ${x.constructor.name}`;
  if (typeof x === 'function') return 'a function';
  try {
    const proto = Object.getPrototypeOf(x);
    const kind = proto && proto !== Object.prototype && proto.constructor && proto.constructor.name;
    if (typeof kind === 'string' && kind) return `a ${kind}`;
  } catch {
    // a Proxy whose traps throw
  }
  return 'an object';
}

// ---- arrays, read once ----------------------------------------------------------------------
// A typed array's kind and length come from the %TypedArray%.prototype getters, which read the
// object's internal slots: no subclass getter, own `length` property or Proxy can make them say
// something else, and they run none of the caller's code. Every array is read once into a copy
// the caller cannot reach (its length once, each entry once); everything after reads the copy.
const TYPED_PROTO = Object.getPrototypeOf(Uint8Array.prototype);
const typedTag = Object.getOwnPropertyDescriptor(TYPED_PROTO, Symbol.toStringTag).get;
const typedLength = Object.getOwnPropertyDescriptor(TYPED_PROTO, 'length').get;

// 'Float32Array', 'Int32Array', ... for a typed array, undefined for anything else.
const typedKind = (x) => typedTag.call(x);

const isArrayLike = (x) => typedKind(x) !== undefined || Array.isArray(x);

// The number of entries of an array-like, read once (a typed array's own length).
function lengthOf(x) {
  return typedKind(x) !== undefined ? typedLength.call(x) : x.length;
}

// A plain array of x's entries (x an array-like), its length and each entry read once; a typed
// array is copied by the engine's own constructor (no getter of x runs).
function entriesOf(x) {
  const kind = typedKind(x);
  if (kind !== undefined && typedLength.call(x) === 0) return []; // (a detached buffer's too)
  if (kind !== undefined) {
    const copy = kind.startsWith('Big') ? new globalThis[kind](x) : new Float64Array(x);
    return Array.prototype.slice.call(copy);
  }
  const n = x.length;
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = x[i];
  return out;
}

// A thrown value as a message quotes it.
const thrownText = (e) => {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : describe(e);
  } catch {
    return 'an exception';
  }
};

// Runs read() (which reads a caller's object); anything the caller's getters or Proxy traps
// throw becomes an AttentionError naming `name`, so the engine never passes it on.
export function reading(name, read) {
  try {
    return read();
  } catch (e) {
    if (e instanceof AttentionError) throw e;
    return fail(`${name}: reading it threw ${thrownText(e)}`);
  }
}

// Only plain objects ({ ... } or Object.create(null)) are options objects: not a Date, a
// Promise, a WeakMap, a boxed Number or an array.
function isPlainObject(x) {
  if (x === null || typeof x !== 'object') return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

// ---- option objects ---------------------------------------------------------------------------

// A snapshot of the options object of `fn`: its own values of the names in `allowed`, read
// once (anything else is an error). Later code reads only the snapshot.
export function checkOptions(fn, options, allowed) {
  if (options === undefined) return {};
  return reading(fn, () => {
    if (!isPlainObject(options)) {
      fail(`${fn}: expected an options object { ${allowed.join(', ')} }, got ${describe(options)}`);
    }
    for (const name of Object.keys(options)) {
      if (!allowed.includes(name)) {
        fail(`${fn}: unknown option '${name}' (expected one of ${allowed.join(', ')})`);
      }
    }
    const snapshot = {};
    for (const name of allowed) {
      if (Object.hasOwn(options, name)) snapshot[name] = options[name];
    }
    return snapshot;
  });
}

// A scalar option as the module reads it: primitives as they are; any object becomes a
// stand-in of its kind, so the module never runs a caller's getter, valueOf or Proxy trap.
export function scalarArg(x) {
  if (x === null || (typeof x !== 'object' && typeof x !== 'function')) return x;
  if (typeof x === 'function') return () => {};
  let array = false;
  try {
    array = Array.isArray(x);
  } catch {
    // a revoked Proxy
  }
  return array ? [] : {};
}

// ---- scalars the core does not read (loading the engine, the attend pool's own split) ---------

export function booleanArg(name, x) {
  if (typeof x !== 'boolean') fail(`${name}: expected true or false, got ${describe(x)}`);
  return x;
}

export function integerArg(name, x, min, max) {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
    fail(`${name}: expected an integer from ${min} to ${max}, got ${describe(x)}`);
  }
  return x;
}

// An array-like of at most `max` entries (checked before anything reads an entry) -> a plain
// array of its entries, each read once (entriesOf): later reads cannot see another length or
// other values.
export function arrayArg(name, x, max, what = 'numbers') {
  return reading(name, () => {
    if (!isArrayLike(x)) fail(`${name}: expected an array of ${what}, got ${describe(x)}`);
    const n = lengthOf(x);
    if (!(n <= max)) fail(`${name}: expected at most ${max} ${what}, got ${describe(n)}`);
    return typedKind(x) !== undefined ? entriesOf(x) : indexedArray(x, n);
  });
}

// ---- matrices and vectors: type conversion only ---------------------------------------------------
// The core checks sizes (sizeError, asked before anything is copied), finiteness, shapes and
// 0/1 masks, with its own messages. Here: the structure (nested rows or { rows, cols, data }),
// that every entry is a number, and that it fits in a float32.

// Copies source[0..n) into f32 at offset; `where(i)` names entry i in a message.
function copyNumbers(name, source, n, f32, offset, where, binary) {
  for (let i = 0; i < n; i++) {
    let x = source[i];
    if (typeof x !== 'number') {
      if (binary && typeof x === 'boolean') x = x ? 1 : 0;
      else fail(`${name}: ${where(i)} is ${describe(x)} (expected a number)`);
    }
    f32[offset + i] = x;
    const stored = f32[offset + i];
    if ((stored === Infinity || stored === -Infinity) && Number.isFinite(x)) {
      fail(`${name}: ${where(i)} is ${x}, too large for float32 (expected |x| < 3.4e38)`);
    }
  }
}

// A matrix argument -> { rows, cols, data: Float32Array }.
// Accepts { rows, cols, data } (data: any array-like of numbers, row-major; a Float32Array is
// passed on as it is) or nested arrays. sizeError(name, rows, cols, count) is the core's
// size check: '' when the size is fine. opts: { binary (booleans allowed), rowVector (a flat
// array is read as one row) }.
export function matrixArg(name, x, sizeError, opts = {}) {
  return reading(name, () => toMatrix(name, x, sizeError, opts));
}

function checkSize(name, sizeError, rows, cols, count) {
  const e = sizeError(name, rows, cols, count);
  if (e) fail(e);
}

function toMatrix(name, x, sizeError, opts) {
  // Every length is read once and asked of the core before anything is copied; every row is
  // copied into the engine's own Float32Array as soon as its length is read (so nothing the
  // caller's getters do afterwards, such as shrinking a resizable buffer under an earlier row,
  // changes what was read), each entry once.
  if (Array.isArray(x) || (opts.rowVector && isArrayLike(x))) {
    const n = lengthOf(x);
    const first = n > 0 ? x[0] : undefined;
    if (opts.rowVector && !isArrayLike(first)) {
      // one row: its entries (a plain array's entry 0 is the value read above)
      checkSize(name, sizeError, 1, n, n);
      const data = new Float32Array(n);
      let row = x;
      if (typedKind(x) === undefined) {
        row = indexedArray(x, n, 1);
        row[0] = first;
      }
      copyRow(name, row, 0, n, data, opts);
      return { rows: 1, cols: n, data };
    }
    if (Array.isArray(x)) {
      // nested arrays: x[r][c]
      if (n === 0) checkSize(name, sizeError, 0, 0, 0);
      if (!isArrayLike(first)) {
        fail(
          `${name}: expected a matrix (nested arrays of numbers, or { rows, cols, data }), row 0 is ${describe(first)}`,
        );
      }
      const cols = lengthOf(first);
      checkSize(name, sizeError, n, cols, n * cols);
      if (cols === 0) fail(`${name}: row 0 has 0 numbers (expected at least one)`);
      const data = new Float32Array(n * cols);
      copyRow(name, first, 0, cols, data, opts);
      for (let r = 1; r < n; r++) {
        const row = x[r];
        if (!isArrayLike(row)) fail(`${name}: row ${r} is ${describe(row)}, expected an array of ${cols} numbers`);
        const length = lengthOf(row);
        if (length !== cols) fail(`${name}: row ${r} has ${length} numbers, expected ${cols}`);
        copyRow(name, row, r, cols, data, opts);
      }
      return { rows: n, cols, data };
    }
  }

  if (isPlainObject(x) && 'data' in x) {
    // { rows, cols, data }: each field read once
    const { rows, cols, data } = x;
    if (typeof rows !== 'number') fail(`${name}: rows is ${describe(rows)}, expected an integer`);
    if (typeof cols !== 'number') fail(`${name}: cols is ${describe(cols)}, expected an integer`);
    if (!isArrayLike(data)) fail(`${name}: data is ${describe(data)}, expected an array of numbers`);
    const count = lengthOf(data);
    checkSize(name, sizeError, rows, cols, count);
    // a copy only the engine holds: the caller's array cannot change size or values under us
    if (typedKind(data) === 'Float32Array') return { rows, cols, data: new Float32Array(count ? data : 0) };
    const f32 = new Float32Array(count);
    copyNumbers(name, data, count, f32, 0, (i) => `row ${Math.floor(i / cols)}, column ${i % cols}`, opts.binary);
    return { rows, cols, data: f32 };
  }

  fail(`${name}: expected a matrix (nested arrays of numbers, or { rows, cols, data }), got ${describe(x)}`);
}

// Row r (an array-like whose length, cols, was just read: no code of the caller has run since)
// into data. A Float32Array row is copied by the engine's own set(); any other entry by entry.
function copyRow(name, row, r, cols, data, opts) {
  if (cols === 0) return; // nothing to copy (a typed row on a detached buffer has length 0)
  if (typedKind(row) === 'Float32Array') data.set(row, r * cols);
  else copyNumbers(name, row, cols, data, r * cols, (c) => `row ${r}, column ${c}`, opts.binary);
}

// source[from..n) as a plain array of n entries (those before `from` left empty), each read once.
function indexedArray(source, n, from = 0) {
  const out = new Array(n);
  for (let i = from; i < n; i++) out[i] = source[i];
  return out;
}

// A vector argument (an array-like of numbers, or a one-row matrix) -> a (1, n) matrix.
export function vectorArg(name, x, sizeError) {
  return reading(name, () => {
    if (isPlainObject(x) && 'data' in x && x.rows !== 1) {
      fail(`${name}: expected a vector (an array of numbers or a one-row matrix), got ${describe(x.rows)} rows`);
    }
    if (Array.isArray(x) && isArrayLike(x[0]) && lengthOf(x) !== 1) {
      fail(`${name}: expected a vector (an array of numbers or a one-row matrix), got ${lengthOf(x)} rows`);
    }
    if (isArrayLike(x) && lengthOf(x) === 0) fail(`${name}: expected at least one number, got an empty array`);
    return toMatrix(name, x, sizeError, { rowVector: true });
  });
}

// keyPadding: flags, true (or 1) = padding -> Uint8Array. The core checks there is one per key.
export function flagsArg(name, x, sizeError) {
  return reading(name, () => {
    if (!isArrayLike(x)) fail(`${name}: expected an array of booleans (true = padding), got ${describe(x)}`);
    const count = lengthOf(x);
    checkSize(name, sizeError, 1, count, count);
    const entries = typedKind(x) !== undefined ? entriesOf(x) : indexedArray(x, count);
    const flags = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const f = entries[i];
      if (f !== true && f !== false && f !== 0 && f !== 1) {
        fail(`${name}: entry ${i} is ${describe(f)} (expected true or false)`);
      }
      flags[i] = f ? 1 : 0;
    }
    return flags;
  });
}
