// Input normalisation for the engine: turns what a page or a test passes in into the
// plain values the wasm module reads ({ rows, cols, data: Float32Array }, Uint8Array flags,
// integers), and rejects anything else with an AttentionError that names the argument.
// Sizes are checked against the engine's limits before anything is copied. No maths here.

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
  return typeof x === 'function' ? 'a function' : 'an object';
}

const isArrayLike = (x) => Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));

// The number to store for an entry; anything but a number (or a mask's boolean) becomes NaN
// here and is reported by checkEntry, so nothing is coerced silently.
const toNumber = (x) => (typeof x === 'number' ? x : typeof x === 'boolean' ? Number(x) : NaN);

// ---- option objects ---------------------------------------------------------------------------

// The options object of `fn`, with every name in `allowed` (anything else is an error).
export function checkOptions(fn, options, allowed) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    fail(`${fn}: expected an options object { ${allowed.join(', ')} }, got ${describe(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (!allowed.includes(name)) {
      fail(`${fn}: unknown option '${name}' (expected one of ${allowed.join(', ')})`);
    }
  }
  return options;
}

// ---- scalars ----------------------------------------------------------------------------------

export function booleanArg(name, x) {
  if (typeof x !== 'boolean') fail(`${name}: expected true or false, got ${describe(x)}`);
  return x;
}

// One of the names of `choices` ({ name: code }) -> its code.
export function enumArg(name, x, choices) {
  if (typeof x !== 'string' || !Object.hasOwn(choices, x)) {
    const names = Object.keys(choices).map((c) => `'${c}'`).join(', ');
    fail(`${name}: expected one of ${names}, got ${describe(x)}`);
  }
  return choices[x];
}

export function integerArg(name, x, min, max) {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
    fail(`${name}: expected an integer from ${min} to ${max}, got ${describe(x)}`);
  }
  return x;
}

// Seeds (and RNG stream numbers) are uint32: integers from 0 to 2^32 - 1.
export function seedArg(name, x) {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 0xffffffff) {
    fail(`${name}: expected a non-negative integer below 2^32 (seeds are uint32), got ${describe(x)}`);
  }
  return x;
}

export function finiteArg(name, x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) {
    fail(`${name}: expected a finite number, got ${describe(x)}`);
  }
  return x;
}

export function positiveArg(name, x) {
  if (typeof x !== 'number' || !Number.isFinite(x) || !(x > 0)) {
    fail(`${name}: expected a finite number > 0, got ${describe(x)}`);
  }
  return x;
}

// ---- numbers inside matrices and vectors --------------------------------------------------------

// Checks entry i of `source` (already stored as f32[i]); `where` says which entry it is.
// opts.negInf lets -Infinity through (a blocked score); opts.binary asks for 0/1 (or booleans).
function checkEntry(name, source, f32, i, where, opts) {
  const x = source[i];
  if (opts.binary) {
    if (x === true || x === false) return;
    if (x !== 0 && x !== 1) fail(`${name}: ${where()} is ${describe(x)} (expected 0 = blocked or 1 = may attend)`);
    return;
  }
  if (typeof x !== 'number') fail(`${name}: ${where()} is ${describe(x)} (expected a number)`);
  if (Number.isFinite(f32[i])) return;
  if (x === -Infinity && opts.negInf) return;
  if (Number.isFinite(x)) fail(`${name}: ${where()} is ${x}, too large for float32 (expected |x| < 3.4e38)`);
  fail(`${name}: ${where()} is ${describe(x)} (expected finite numbers${opts.negInf ? ' or -Infinity' : ''})`);
}

function checkCount(name, what, n, max, limitName) {
  if (n < 1 || n > max) fail(`${name}: expected 1 to ${max} ${what} (engine.limits.${limitName}), got ${n}`);
}

// A matrix argument -> { rows, cols, data: Float32Array }.
// Accepts { rows, cols, data } (data: any array-like of numbers, row-major) or nested arrays.
// dims = [rowLimitName, colLimitName] of limits, e.g. ['maxTokens', 'maxDim'].
// opts: { negInf, binary, rowVector } (rowVector: a flat array is read as one row).
export function matrixArg(name, x, limits, dims, opts = {}) {
  const [rowLimit, colLimit] = dims;
  const maxRows = limits[rowLimit];
  const maxCols = limits[colLimit];

  if (opts.rowVector && isArrayLike(x) && !isArrayLike(x[0])) {
    return matrixArg(name, { rows: 1, cols: x.length, data: x }, limits, dims, opts);
  }

  if (Array.isArray(x)) {
    // nested arrays: x[r][c]
    if (x.length === 0) fail(`${name}: expected at least one row, got an empty array`);
    checkCount(name, 'rows', x.length, maxRows, rowLimit);
    if (!isArrayLike(x[0])) {
      fail(`${name}: expected a matrix (nested arrays of numbers, or { rows, cols, data }), row 0 is ${describe(x[0])}`);
    }
    const rows = x.length;
    const cols = x[0].length;
    if (cols === 0) fail(`${name}: expected at least one column, row 0 is empty`);
    checkCount(name, 'columns', cols, maxCols, colLimit);
    const data = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      const row = x[r];
      if (!isArrayLike(row)) fail(`${name}: row ${r} is ${describe(row)}, expected an array of ${cols} numbers`);
      if (row.length !== cols) fail(`${name}: row ${r} has ${row.length} numbers, expected ${cols}`);
      const f32 = data.subarray(r * cols, (r + 1) * cols);
      for (let c = 0; c < cols; c++) f32[c] = toNumber(row[c]);
      for (let c = 0; c < cols; c++) checkEntry(name, row, f32, c, () => `row ${r}, column ${c}`, opts);
    }
    return { rows, cols, data };
  }

  if (x !== null && typeof x === 'object' && !isArrayLike(x) && 'data' in x) {
    // { rows, cols, data }
    const { rows, cols, data } = x;
    if (!Number.isInteger(rows)) fail(`${name}: rows is ${describe(rows)}, expected an integer`);
    if (!Number.isInteger(cols)) fail(`${name}: cols is ${describe(cols)}, expected an integer`);
    checkCount(name, 'rows', rows, maxRows, rowLimit);
    checkCount(name, 'columns', cols, maxCols, colLimit);
    if (!isArrayLike(data)) fail(`${name}: data is ${describe(data)}, expected an array of numbers`);
    if (data.length !== rows * cols) {
      fail(`${name}: data has ${data.length} numbers, expected rows * cols = ${rows} * ${cols} = ${rows * cols}`);
    }
    const f32 = Float32Array.from(data, toNumber);
    for (let i = 0; i < f32.length; i++) {
      checkEntry(name, data, f32, i, () => `row ${Math.floor(i / cols)}, column ${i % cols}`, opts);
    }
    return { rows, cols, data: f32 };
  }

  fail(`${name}: expected a matrix (nested arrays of numbers, or { rows, cols, data }), got ${describe(x)}`);
}

// A vector argument (an array-like of numbers, or a one-row matrix) -> a (1, n) matrix.
export function vectorArg(name, x, limits, limitName) {
  if (x !== null && typeof x === 'object' && !isArrayLike(x) && 'data' in x && x.rows !== 1) {
    fail(`${name}: expected a vector (an array of numbers or a one-row matrix), got ${x.rows} rows`);
  }
  if (Array.isArray(x) && isArrayLike(x[0]) && x.length !== 1) {
    fail(`${name}: expected a vector (an array of numbers or a one-row matrix), got ${x.length} rows`);
  }
  if (isArrayLike(x) && x.length === 0) fail(`${name}: expected at least one number, got an empty array`);
  return matrixArg(name, x, { one: 1, [limitName]: limits[limitName] }, ['one', limitName], { rowVector: true });
}

// keyPadding: n_k flags, true (or 1) = padding -> Uint8Array.
export function flagsArg(name, x, count) {
  if (!isArrayLike(x)) fail(`${name}: expected an array of ${count} booleans (true = padding), got ${describe(x)}`);
  if (x.length !== count) fail(`${name}: expected ${count} flags (one per key, n_k), got ${x.length}`);
  const flags = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const f = x[i];
    if (f !== true && f !== false && f !== 0 && f !== 1) {
      fail(`${name}: entry ${i} is ${describe(f)} (expected true or false)`);
    }
    flags[i] = f ? 1 : 0;
  }
  return flags;
}
