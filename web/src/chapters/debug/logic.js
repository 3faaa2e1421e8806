// The debugging lab without the DOM: the running example (tokens carry their vectors, drawn by
// the engine), the healthy run and the bugged run of it with their monitors, what each bug's
// symptom says (keys and the engine's numbers), and the two demos of "attention weights are
// not an explanation". Every number comes from engine.attend, engine.attendWithBug,
// engine.monitor and engine.randomMatrix; this file only picks rows and words.

import { drawnRows, tokenStream } from '../../lesson/embeddings.js';
import { PAD } from './meta.js';

const DV = 3; // value size: an output row is short enough to read
export const DK_CHOICES = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
export const SCALE_CHOICES = [0.5, 1, 2, 5, 10, 20, 50, 100];
export const SMALL_CHOICES = [0.01, 0.03, 0.1, 0.3, 1];
export const EXP_OVERFLOW = 88.72; // exp(x) passes float32's largest number past ln(3.4e38)
const SATURATED = 0.99; // a row giving one key more than this is one-hot in effect
const NEAR_UNIFORM = 0.95; // entropy above this share of ln n: attention has degraded
const NEAR_ONE_HOT = 0.25; // entropy below this share of ln n: nearly all on one key
const DRAWS = 5; // small queries drawn for the "top key" demo

// One PyTorch line per bug: how the bug reads in code (the healthy line first).
export const BUG_CODE = {
  none: 'w = torch.softmax((q @ k.mT / math.sqrt(d_k)).masked_fill(~allowed, float("-inf")), dim=-1)',
  'missing-scale': 'scores = q @ k.mT            # / math.sqrt(d_k) forgotten',
  'zero-fill': 'scores = scores.masked_fill(~allowed, 0.0)   # not float("-inf")',
  'reversed-causal': 'allowed = torch.triu(torch.ones(n, n)).bool()   # tril was meant',
  'wrong-axis': 'w = torch.softmax(scores, dim=0)   # dim=-1 was meant',
  'mask-after-softmax': 'w = torch.softmax(scores, dim=-1) * allowed   # mask applied too late',
  'no-max-subtraction': 'e = torch.exp(scores); w = e / e.sum(-1, keepdim=True)   # no max subtracted',
  'scale-by-d-model': 'scores = q @ k.mT / math.sqrt(d_model)   # d_k = d_model / heads was meant',
};

// A matrix row as a plain array.
export const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
const argmax = (row) => row.reduce((best, x, j) => (x > row[best] ? j : best), 0);

// Which keys are padding, and the last query that is a real token (-1 when none is).
export const paddingOf = (tokens) => tokens.map((t) => t === PAD);
const lastRealRow = (tokens) => tokens.map((t) => t !== PAD).lastIndexOf(true);

// (tokens.length, cols) of each token's drawn vector for `role` (stream = the token's text), times
// `scale`: the same word always gets the same numbers.
export function tokenRows(engine, tokens, role, cols, seed, scale = 1) {
  return drawnRows(engine, { tokens, role, d: cols, seed, scale });
}

// The running example: a causal self-attention over the tokens, <pad> keys blocked, queries
// drawn with standard deviation `scale` (so healthy logits spread about `scale`).
export function exampleInputs(engine, { tokens, dk, seed, scale }) {
  return {
    query: tokenRows(engine, tokens, 'q', dk, seed, scale),
    key: tokenRows(engine, tokens, 'k', dk, seed),
    value: tokenRows(engine, tokens, 'v', DV, seed),
    causal: true,
    keyPadding: paddingOf(tokens),
  };
}

// The healthy run and the bugged run of the example, each with its monitors (measured against
// the mask the healthy code applies). bug: a name of engine.choices.bug.
export function runLab(engine, { tokens, dk, heads, scale, seed, bug }) {
  const inputs = exampleInputs(engine, { tokens, dk, seed, scale });
  const dModel = heads * dk;
  const healthy = engine.attend(inputs);
  const bugged = engine.attendWithBug({ ...inputs, bug, dModel });
  const watch = (r) => engine.monitor({ logits: r.scaled, weights: r.weights, mask: healthy.mask });
  return { inputs, dModel, bug, healthy, bugged, mh: watch(healthy), mb: watch(bugged) };
}

// Rows (with two allowed keys or more) whose largest weight is above SATURATED, and how many
// such rows there are.
function saturatedRows(result, monitors) {
  let saturated = 0;
  let rows = 0;
  for (let i = 0; i < result.weights.rows; i++) {
    if (!(monitors.maxEntropy[i] > 0)) continue;
    rows++;
    if (Math.max(...rowOf(result.weights, i)) > SATURATED) saturated++;
  }
  return { saturated, rows };
}

// Rows whose entropy is above NEAR_UNIFORM of its maximum ln n (rows with one key left out).
function nearUniformRows(result, monitors) {
  const out = [];
  for (let i = 0; i < result.weights.rows; i++) {
    const max = monitors.maxEntropy[i];
    if (max > 0 && result.entropy[i] >= NEAR_UNIFORM * max) out.push(i);
  }
  return out;
}

// Rows whose entropy is below NEAR_ONE_HOT of its maximum ln n: nearly all their weight on one
// key (rows with one key left out).
function nearOneHotRows(result, monitors) {
  const out = [];
  for (let i = 0; i < result.weights.rows; i++) {
    const max = monitors.maxEntropy[i];
    if (max > 0 && result.entropy[i] < NEAR_ONE_HOT * max) out.push(i);
  }
  return out;
}

// The mean entropy and the mean largest weight of the rows with two keys or more.
export function sharpness(result, monitors) {
  let entropy = 0;
  let top = 0;
  let rows = 0;
  for (let i = 0; i < result.weights.rows; i++) {
    if (!(monitors.maxEntropy[i] > 0)) continue;
    rows++;
    entropy += result.entropy[i];
    top += Math.max(...rowOf(result.weights, i));
  }
  return { entropy: entropy / rows, top: top / rows };
}

// What the monitors make of the bugged run: the rows it leaves near uniform (degraded) and those
// it makes nearly one-hot (too sharp), each counted only where the healthy run is not so already
// (a row of two keys may be near uniform in the healthy example too: that is the example, not a
// bug), and the healthy run's own near-uniform rows.
export function monitorVerdict(lab) {
  const healthyUniform = nearUniformRows(lab.healthy, lab.mh);
  const healthySharp = nearOneHotRows(lab.healthy, lab.mh);
  return {
    rows: lab.bugged.weights.rows,
    uniform: nearUniformRows(lab.bugged, lab.mb).filter((i) => !healthyUniform.includes(i)),
    sharp: nearOneHotRows(lab.bugged, lab.mb).filter((i) => !healthySharp.includes(i)),
    healthyUniform,
  };
}

// One query's reading in the monitors' table, for the bugged run: 'nan', 'one' (one key
// allowed), 'uniform' (near uniform), 'peaked' (more than SATURATED on one key), 'sharp' (nearly
// one-hot) or 'ok'.
export function rowReading(lab, i) {
  const e = lab.bugged.entropy[i];
  const max = lab.mb.maxEntropy[i];
  if (Number.isNaN(e)) return 'nan';
  if (!(max > 0)) return 'one';
  if (e >= NEAR_UNIFORM * max) return 'uniform';
  if (Math.max(...rowOf(lab.bugged.weights, i)) > SATURATED) return 'peaked';
  if (e < NEAR_ONE_HOT * max) return 'sharp';
  return 'ok';
}

// The symptom of the bug on screen: a list of { key, params } (strings sym.*), numbers as the
// engine returned them (the page formats them).
export function symptoms(lab, tokens) {
  const { bug, healthy, bugged, mh, mb } = lab;
  const last = lastRealRow(tokens);
  const first = 0;
  const tok = (i) => tokens[i];
  const out = [];
  const say = (key, params = {}) => out.push({ key, params });
  switch (bug) {
    case 'none':
      say('sym.none', { std: mh.logitStd });
      break;
    case 'missing-scale': {
      const sb = saturatedRows(bugged, mb);
      const sh = saturatedRows(healthy, mh);
      say('sym.missing.std', { sb: mb.logitStd, sh: mh.logitStd });
      // saturated rows when there are some; else how much sharper the rows are than healthy (at
      // d_k = 1 the scale is 1: nothing changes)
      if (lab.inputs.key.cols === 1) say('sym.missing.one');
      else if (sb.saturated > 0) say('sym.missing.sat', { k: sb.saturated, n: sb.rows, kh: sh.saturated });
      else {
        const [b, h] = [sharpness(bugged, mb), sharpness(healthy, mh)];
        say('sym.missing.sharper', { n: sb.rows, eb: b.entropy, eh: h.entropy, wb: b.top, wh: h.top });
      }
      say(mb.logitMax > EXP_OVERFLOW ? 'sym.missing.nan' : 'sym.missing.finite', { max: mb.logitMax });
      break;
    }
    case 'zero-fill':
      if (last >= 0 && last < tokens.length - 1) say('sym.zero.pad', { tok: tok(last), w: mb.leaked[last] });
      else say('sym.zero.nopad');
      if (tokens.length > 1) say('sym.zero.future', { tok: tok(first), w: mb.leaked[first] });
      break;
    case 'reversed-causal':
      if (tokens.length > 1) say('sym.rev.future', { tok: tok(first), w: mb.leaked[first] });
      if (last >= 0) say('sym.rev.self', { tok: tok(last), w: bugged.weights.data[last * bugged.weights.cols + last] });
      break;
    case 'wrong-axis':
      say('sym.axis', { cols: Array.from(mb.colSums), rows: Array.from(mb.rowSums) });
      break;
    case 'mask-after-softmax':
      say('sym.after', { rows: Array.from(mb.rowSums) });
      if (tokens.length > 1) say('sym.after.first', { tok: tok(first), w: mb.rowSums[first] });
      break;
    case 'no-max-subtraction':
      // NaN: an exponential overflowed; overflow without NaN: only their sum did (rows of zeros)
      say(mb.nonFinite > 0 ? 'sym.nomax.nan' : bugged.overflow ? 'sym.nomax.zero' : 'sym.nomax.same', {
        k: mb.nonFinite,
        n: bugged.weights.data.length,
        max: mb.logitMax,
      });
      break;
    case 'scale-by-d-model':
      say('sym.dmodel.std', { dModel: lab.dModel, dk: lab.inputs.key.cols, sb: mb.logitStd, sh: mh.logitStd });
      if (last > 0)
        say('sym.dmodel.flat', {
          tok: tok(last),
          e: bugged.entropy[last],
          eh: healthy.entropy[last],
          max: mb.maxEntropy[last],
        });
      break;
    default:
      break;
  }
  return out;
}

// ---- the predict question: what the 0 fill does to the padding keys -----------------------------

// 'zero' (they keep exactly 0), 'leak' (some weight), 'nan', or 'all' (nearly all of it), read
// from the 0-fill run of the example at the last real token (the row whose later keys are all
// padding). null when the example has no padding after a real token.
export function zeroFillAnswer(engine, state) {
  const { tokens } = state;
  const last = lastRealRow(tokens);
  if (last < 0 || last === tokens.length - 1) return null;
  const lab = runLab(engine, { ...state, bug: 'zero-fill' });
  const w = lab.mb.leaked[last];
  const answer = Number.isNaN(w) ? 'nan' : w === 0 ? 'zero' : w > SATURATED ? 'all' : 'leak';
  return { answer, lab, row: last, leaked: w };
}

// ---- attention weights are not an explanation ----------------------------------------------------

// A row of small logits: the last real token's query drawn `small` times its usual size, and
// DRAWS more queries of that size (other streams), each against the example's keys. The top key
// of a near-uniform row is set by the draw, not by the input: the draws name different tops.
// Also a query of zeros, whose output is the plain mean of the values.
export function flatRow(engine, { tokens, dk, seed }, small) {
  const row = Math.max(0, lastRealRow(tokens));
  const keys = tokens.slice(0, row + 1);
  const key = tokenRows(engine, keys, 'k', dk, seed);
  const value = tokenRows(engine, keys, 'v', DV, seed);
  const run = (query) => engine.attend({ query, key, value });
  const own = tokenRows(engine, [tokens[row]], 'q', dk, seed, small);
  const main = run(own);
  const watch = engine.monitor({ logits: main.scaled, weights: main.weights, mask: main.mask });
  const draws = Array.from({ length: DRAWS }, (_, k) => {
    const q = engine.randomMatrix({
      rows: 1,
      cols: dk,
      seed,
      stream: tokenStream(`q-draw-${k}`, tokens[row]),
      scale: small,
    });
    const r = run(q);
    const w = rowOf(r.weights, 0);
    return { top: argmax(w), weight: Math.max(...w) };
  });
  const mean = run({ rows: 1, cols: dk, data: new Float32Array(dk) });
  const weights = rowOf(main.weights, 0);
  return {
    row,
    keys,
    result: main,
    weights,
    top: argmax(weights),
    entropy: main.entropy[0],
    maxEntropy: watch.maxEntropy[0],
    draws,
    mean: rowOf(mean.output, 0),
    output: rowOf(main.output, 0),
  };
}

// Two inputs with the same queries and keys but different values: identical weights,
// different outputs. The second values are drawn anew for every key except the top key of the
// last real token, which keeps its value.
export function sameWeights(engine, state) {
  const { tokens, dk, seed, scale } = state;
  const inputs = exampleInputs(engine, { tokens, dk, seed, scale });
  const a = engine.attend(inputs);
  const row = Math.max(0, lastRealRow(tokens));
  const top = argmax(rowOf(a.weights, row));
  const other = tokenRows(engine, tokens, 'v-other', DV, seed);
  const value = { rows: inputs.value.rows, cols: DV, data: other.data.slice() };
  value.data.set(inputs.value.data.subarray(top * DV, (top + 1) * DV), top * DV);
  const b = engine.attend({ ...inputs, value });
  const same = a.weights.data.every((x, k) => Object.is(x, b.weights.data[k]));
  return { row, top, a, b, valueA: inputs.value, valueB: value, same };
}
