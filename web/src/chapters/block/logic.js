// The block chapter's numbers beyond the layers themselves (../../lesson/block.js: the sentences'
// embeddings, the weights, both layers): similarities, the stacked layers, the GRU and the timed
// comparison. Every number comes from the engine; nothing here touches the DOM.

import { D_MODEL, HEADS, embed, layerWeights, runBlock, unit, rowOf } from '../../lesson/block.js';

export { D_MODEL, HEADS, HIDDEN, PAIRS, embed, layerWeights, alignedCross, runBlock } from '../../lesson/block.js';

// Cosine similarity of every output row with every input row: (n, n).
export function similarity(out, input) {
  const n = out.rows;
  const data = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = unit(rowOf(out, i));
    for (let j = 0; j < n; j++) {
      const b = unit(rowOf(input, j));
      data[i * n + j] = a.reduce((sum, v, c) => sum + v * b[c], 0);
    }
  }
  return { rows: n, cols: n, data };
}

// How many output rows are closest (by cosine) to their own input row.
export function ownRowCount(sim) {
  let count = 0;
  for (let i = 0; i < sim.rows; i++) {
    const row = rowOf(sim, i);
    if (row.indexOf(Math.max(...row)) === i) count++;
  }
  return count;
}

// The length of each row of m.
function rowNorms(m) {
  return Array.from({ length: m.rows }, (_, i) => Math.hypot(...rowOf(m, i)));
}

// The mean and the (population) standard deviation of each row of m: [[mean, std], ...] (the
// numbers layerNorm reports for its input, here for any matrix, e.g. its output).
export function rowMoments(m) {
  return Array.from({ length: m.rows }, (_, i) => {
    const row = rowOf(m, i);
    const mean = row.reduce((a, b) => a + b, 0) / row.length;
    return [mean, Math.sqrt(row.reduce((a, b) => a + (b - mean) ** 2, 0) / row.length)];
  });
}

// The encoder layer stacked `layers` times with the same weights: the mean row norm after each.
export function stack(engine, state, layers, { layerNorm, normFirst }) {
  const w = layerWeights(engine, state.seed).encoder;
  let x = embed(engine, state.blSource, state.seed);
  const norms = [mean(rowNorms(x))];
  for (let l = 0; l < layers; l++) {
    x = engine.transformerLayer({
      kind: 'encoder',
      x,
      ...w,
      heads: HEADS,
      normFirst,
      layerNorm,
      activation: state.blAct,
      stages: false,
    }).output;
    norms.push(mean(rowNorms(x)));
  }
  return norms;
}

export const mean = (list) => list.reduce((s, v) => s + v, 0) / list.length;

// A GRU encoder of hidden size D_MODEL over x (n, D_MODEL), weights from the seed.
export function gruWeights(engine, seed) {
  const draw = (rows, cols, stream) => engine.randomMatrix({ rows, cols, seed, stream, scale: 1 / Math.sqrt(cols) });
  return { Wih: draw(3 * D_MODEL, D_MODEL, 7200), Whh: draw(3 * D_MODEL, D_MODEL, 7201) };
}

// Time of one call (ms): the fastest of `rounds` samples, after a warm-up.
// - The warm-up runs the call for at least `warmMs` (and 3 calls): the first calls at a new size
//   grow the module's memory and may run the engine's loops before the JS engine has optimised
//   them (in Node 20 the layer's first call at n = 512 took up to 12 ms of CPU, later ones 2-3).
// - A sample repeats the call until it lasts `sampleMs`, so a call shorter than the clock's
//   resolution is still measured; its time is the sample's over its calls.
// - The fastest sample, not the median: on a machine busy with other work a call longer than a
//   scheduler slice is often paused, which only ever adds time. On a loaded 2-core machine the
//   layer at n = 512 took 2-3 ms of CPU per call but 2-50 ms of wall time, and the median of 5
//   single calls read 20-60 ms: the "40 ms" layer was the machine's load, not the layer.
function timeCall(call, { rounds = 11, warmMs = 30, sampleMs = 3, now = () => performance.now() } = {}) {
  const start = now();
  for (let k = 0; k < 3 || now() - start < warmMs; k++) call();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    let calls = 0;
    const t0 = now();
    let t;
    do {
      call();
      calls++;
      t = now();
    } while (t - t0 < sampleMs);
    best = Math.min(best, (t - t0) / calls);
  }
  return best;
}

// For each n: the attention layer (one pass over all n tokens) and the GRU (n dependent steps)
// on the same n tokens, timed. -> [{ n, attentionMs, rnnMs, rnnSteps }]
export function parallelVsSequential(engine, seed, lengths) {
  const w = layerWeights(engine, seed).encoder;
  const gru = gruWeights(engine, seed);
  return lengths.map((n) => {
    const x = engine.randomMatrix({ rows: n, cols: D_MODEL, seed, stream: 7300 + n });
    const attentionMs = timeCall(() =>
      engine.transformerLayer({ kind: 'encoder', x, ...w, heads: HEADS, stages: false }),
    );
    let steps = 0;
    const rnnMs = timeCall(() => {
      steps = engine.gruEncoder({ x, ...gru }).steps;
    });
    return { n, attentionMs, rnnMs, rnnSteps: steps };
  });
}

// What the chapter's steps draw, for the step on screen (state.stage): both layers on the
// sentences (runBlock), with
// - norm: how many output rows stay closest to their own input with the residual on and off (the
//   predict question's answer: otherResidual { onOwn, offOwn, own });
// - stack: the mean row length after each stacked layer with LayerNorm and without;
// - parallel: the GRU over the same embedded tokens.
export function blockData(engine, state) {
  const p = runBlock(engine, state);
  p.encoder.normFirst = state.blNormFirst;
  const stage = state.stage;
  if (stage === 'norm') {
    const own = (residual) => {
      const r = runBlock(engine, state, { blResidual: residual }).encoder;
      const out = state.blNormFirst ? r.residuals[0] : r.normed[0].output;
      return ownRowCount(similarity(out, p.x));
    };
    const onOwn = own(true);
    const offOwn = own(false);
    p.otherResidual = { onOwn, offOwn, own: offOwn };
  }
  if (stage === 'stack') {
    const opts = { normFirst: state.blNormFirst };
    p.stackOn = stack(engine, state, state.blLayers, { ...opts, layerNorm: true });
    p.stackOff = stack(engine, state, state.blLayers, { ...opts, layerNorm: false });
  }
  if (stage === 'parallel') p.rnn = engine.gruEncoder({ x: p.x, ...gruWeights(engine, state.seed) });
  return p;
}
