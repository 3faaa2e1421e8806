// The inputs of each engine call, converted as the module reads them: matrices, vectors and flags
// through engine/args.js with the core's size rule (asked of the module before anything is
// copied), the Transformer block's nested weights, tiled attention's options and the variance
// chunks mergeVariance combines. The checks of values, ranges and shapes stay the core's
// (cpp/core/check.h); what is limited here reads engine.limits. No maths here.

import { arrayArg, checkOptions, fail, flagsArg, matrixArg, reading, scalarArg, vectorArg } from './args.js';
import { optionNames } from './choices.js';

// Rows of a matrix argument before it is read: nested arrays or { rows }; NaN otherwise.
const rowsOf = (x) => (Array.isArray(x) ? x.length : x != null && Number.isInteger(x.rows) ? x.rows : NaN);
const formatBytes = (bytes) =>
  bytes >= 2 ** 30
    ? `${(bytes / 2 ** 30).toFixed(1)} GiB`
    : bytes >= 2 ** 20
      ? `${(bytes / 2 ** 20).toFixed(1)} MiB`
      : `${(bytes / 2 ** 10).toFixed(1)} KiB`;

// A snapshot of a varianceExperiment result { raw, scaled, histogram } for mergeVariance:
// plain objects of numbers and fixed-length typed arrays, read once (lengths checked first),
// so nothing the caller's objects do later can change what the module reads. Missing parts
// become empty objects, which the module reports by name.
export function varianceChunk(name, x, maxBins) {
  if (x == null) return x;
  return reading(name, () => {
    const moments = (m) => ({ mean: scalarArg(m?.mean), variance: scalarArg(m?.variance) });
    const numbers = (field, v, max) => {
      if (v == null) return v;
      const list = arrayArg(`${name}.histogram.${field}`, v, max);
      const out = new Float64Array(list.length);
      for (let i = 0; i < out.length; i++) out[i] = typeof list[i] === 'number' ? list[i] : NaN;
      return out;
    };
    const h = x.histogram;
    return {
      raw: moments(x.raw),
      scaled: moments(x.scaled),
      histogram: {
        edges: numbers('edges', h?.edges, maxBins + 1),
        scaledEdges: numbers('scaledEdges', h?.scaledEdges, maxBins + 1),
        rawCounts: numbers('rawCounts', h?.rawCounts, maxBins),
        scaledCounts: numbers('scaledCounts', h?.scaledCounts, maxBins),
      },
    };
  });
}

// The options flashAttend and flashTrace take (and the attend pool's 'flash' runs).
export const FLASH_OPTIONS = optionNames('flashAttend');

// The options linearAttend takes (and the attend pool's 'linear' runs).
export const LINEAR_OPTIONS = optionNames('linearAttend');

// The converters of one module instance: guarded is its moduleCalls guard (loader.js), limits its
// engine.limits.
export function callInputs(mod, guarded, limits) {
  const sizeError = (name, rows, cols, count) => guarded(name, () => mod.checkSize(name, rows, cols, count));
  const matrix = (name, x, opts) => matrixArg(name, x, sizeError, opts);
  const optionalMatrix = (name, x, opts) => (x == null ? undefined : matrix(name, x, opts));
  const optionalVector = (name, x) => (x == null ? undefined : vectorArg(name, x, sizeError));
  const mask = (x) => optionalMatrix('mask', x, { binary: true });
  const keyPadding = (x) => (x == null ? undefined : flagsArg('keyPadding', x, sizeError));
  const scoreMatrix = (x) => matrix('scores', x, { rowVector: true });

  // The Transformer block's nested weights, flattened to the names the core reads and reports:
  // "selfAttention.Wq", "ff.W1" (the core checks each one's shape).
  function attentionArgs(name, w) {
    const a = checkOptions(name, w ?? {}, optionNames('transformerLayer', name));
    const out = {};
    for (const part of ['Wq', 'Wk', 'Wv', 'Wo']) {
      if (a[part] != null) out[`${name}.${part}`] = matrix(`${name}.${part}`, a[part]);
    }
    for (const part of ['bq', 'bk', 'bv', 'bo']) out[`${name}.${part}`] = optionalVector(`${name}.${part}`, a[part]);
    return out;
  }
  function ffArgs(prefix, f) {
    const out = {};
    for (const part of ['W1', 'W2']) {
      if (f[part] != null) out[prefix + part] = matrix(prefix + part, f[part]);
    }
    for (const part of ['b1', 'b2']) out[prefix + part] = optionalVector(prefix + part, f[part]);
    return out;
  }

  // ---- tiled attention (flash_bindings.cpp) ----
  // attend keeps five (n_q, n_k) matrices; past maxTokens the error says what they would take.
  function checkNaiveSize(query, key) {
    const nQ = rowsOf(query),
      nK = rowsOf(key);
    for (const [name, rows] of [
      ['query', nQ],
      ['key', nK],
    ]) {
      if (!(rows > limits.maxTokens)) continue;
      const need =
        Number.isInteger(nQ) && Number.isInteger(nK)
          ? `, which would need 5 × ${nQ} × ${nK} × 4 bytes = ${formatBytes(5 * nQ * nK * 4)} here`
          : '';
      fail(
        `${name}: expected 1 to ${limits.maxTokens} rows (engine.limits.maxTokens), got ${rows}: attend keeps ` +
          `five (n_q, n_k) float32 matrices${need}; flashAttend computes the same output for up to ` +
          `${limits.maxFlashTokens} tokens in O(n·d) memory`,
      );
    }
  }
  function flashArgs(o, tokens) {
    // flash attention's own limits: up to limits[tokens] rows
    const size = (name, rows, cols, count) =>
      guarded(name, () => mod.checkSizeIn(name, rows, cols, count, tokens, 'maxDim'));
    const flagsSize = (name, rows, cols, count) =>
      guarded(name, () => mod.checkSizeIn(name, rows, cols, count, 'one row', tokens));
    return {
      query: matrixArg('query', o.query, size),
      key: matrixArg('key', o.key, size),
      value: matrixArg('value', o.value, size),
      causal: scalarArg(o.causal),
      keyPadding: o.keyPadding == null ? undefined : flagsArg('keyPadding', o.keyPadding, flagsSize),
      window: scalarArg(o.window),
      stride: scalarArg(o.stride),
      blockSize: scalarArg(o.blockSize),
      queryOffset: scalarArg(o.queryOffset),
    };
  }
  // Linear attention and the error of an output: matrices up to maxFlashTokens rows.
  function longMatrix(name, x) {
    const size = (n, rows, cols, count) =>
      guarded(n, () => mod.checkSizeIn(n, rows, cols, count, 'maxFlashTokens', 'maxDim'));
    return matrixArg(name, x, size);
  }
  function linearArgs(o) {
    return {
      query: longMatrix('query', o.query),
      key: longMatrix('key', o.key),
      value: longMatrix('value', o.value),
      causal: scalarArg(o.causal),
    };
  }
  function outputErrorArgs(o) {
    return { output: longMatrix('output', o.output), reference: longMatrix('reference', o.reference) };
  }
  return {
    sizeError,
    matrix,
    optionalMatrix,
    optionalVector,
    mask,
    keyPadding,
    scoreMatrix,
    attentionArgs,
    ffArgs,
    checkNaiveSize,
    flashArgs,
    linearArgs,
    outputErrorArgs,
  };
}
