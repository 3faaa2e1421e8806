// The real-model lesson's logic: pure (no DOM), tested in Node (tests/js/model-logic.test.js).
// Every number it reads comes from the engine (model.run, model.headScores); what it adds is
// choosing, sorting and the monitors the debugging lesson uses (entropy against its maximum,
// the scores' spread).

// ---- the sentence and the model ------------------------------------------------------------------

// The example sentence in each language: names that come back, so the guess after "to" / "给了"
// is the name that was not said twice. The English one ends with its space: the small model's
// tokenizer writes the space before a name as a token of its own, so after "to" every name starts
// with the same " " and only the next token tells them apart.
export const EXAMPLES = {
  en: 'Alice has a red book. Bob has a blue pen. Alice gives the red book to ',
  zh: '小明有一本红色的书。小红有一支笔。小明把红色的书给了',
};
// The guesses the first question offers on the example sentence (the first token of each).
export const GUESSES = {
  en: ['Bob', 'Alice', 'the'],
  zh: ['小红', '小明', '书'],
};

export const sentenceOf = (state, lang) => state.mdText || EXAMPLES[lang];

// Where the model comes from: the shipped one, a course author's hosted file (modelSrc), or the
// learner's own file (mdModel 'file:<name>': a link made with it says which file it needs).
export function sourceOf(state) {
  if (state.mdModel.startsWith('file:')) return { kind: 'file', name: state.mdModel.slice(5) };
  if (state.modelSrc) return { kind: 'hosted', url: state.modelSrc };
  return { kind: 'shipped' };
}

// The URLs of a hosted checkpoint: model.safetensors and config.json in the same folder (the
// address may name the folder or the .safetensors file).
export function hostedFiles(url, base) {
  const model = new URL(
    /\.safetensors$/i.test(new URL(url, base).pathname) ? url : url.replace(/\/?$/, '/model.safetensors'),
    base,
  );
  return {
    model: model.href,
    config: new URL('config.json', model).href,
    tokenizer: new URL('tiktoken.json', model).href,
  };
}

// Parameters and the float32 bytes they take in the engine: wte, wpe, per layer two LayerNorms,
// c_attn, c_proj, c_fc and the MLP's c_proj, and ln_f (logits reuse wte).
export function parameterCount({ nLayer, nEmbd: d, nPositions, vocabSize }) {
  const layer = 2 * 2 * d + (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d);
  return vocabSize * d + nPositions * d + nLayer * layer + 2 * d;
}
export const memoryBytes = (config) => 4 * parameterCount(config);

// The engine's config from Hugging Face's config.json keys.
export const configOf = (json) => ({
  nLayer: json.n_layer,
  nHead: json.n_head,
  nEmbd: json.n_embd,
  nPositions: json.n_positions,
  vocabSize: json.vocab_size,
  layerNormEpsilon: json.layer_norm_epsilon ?? 1e-5,
});

// ---- heads ----------------------------------------------------------------------------------------

export const headKey = (l, h) => `${l}.${h}`;

// The ablated heads of the state as [[layer, head], …], those that exist in this model only.
export function ablatedHeads(list, { nLayer, nHead }) {
  const out = [];
  for (const item of list) {
    const m = /^(\d+)\.(\d+)$/.exec(item);
    if (!m) continue;
    const l = Number(m[1]);
    const h = Number(m[2]);
    if (l < nLayer && h < nHead && !out.some(([a, b]) => a === l && b === h)) out.push([l, h]);
  }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

export function toggleHead(list, l, h) {
  const key = headKey(l, h);
  return list.includes(key) ? list.filter((k) => k !== key) : [...list, key];
}

// The head the state opens, within the model.
export const chosenHead = (state, { nLayer, nHead }) => [
  Math.min(state.mdLayer, nLayer - 1),
  Math.min(state.mdHead, nHead - 1),
];

// The position read (-1: the last token), within the sentence.
export const positionOf = (pos, n) => (pos < 0 || pos >= n ? n - 1 : pos);

// ---- the next token -------------------------------------------------------------------------------

// Row i of the engine's topK: [{ id, p }], most likely first.
export function topRow(topK, i) {
  const out = [];
  for (let r = 0; r < topK.k; r++) out.push({ id: topK.ids[i * topK.k + r], p: topK.probabilities[i * topK.k + r] });
  return out;
}

// The top tokens before an ablation, with their probability after it: `after` is null when the
// token fell out of the ablated run's top k (its probability is then below `floor`, the k-th).
export function compareRows(before, after, i, count = before.k) {
  const b = topRow(before, i).slice(0, count);
  const a = topRow(after, i);
  const floor = a[a.length - 1].p;
  return b.map(({ id, p }) => {
    const hit = a.find((x) => x.id === id);
    return { id, before: p, after: hit ? hit.p : null, floor };
  });
}

// The guess among `options` (token ids) that the model gives the most probability at row i;
// null when none of them is in its top k.
export function likeliest(topK, i, options) {
  const row = topRow(topK, i);
  let best = null;
  for (const id of options) {
    const hit = row.find((x) => x.id === id);
    if (hit && (best === null || hit.p > best.p)) best = { id, p: hit.p };
  }
  return best && best.id;
}

// ---- monitors (as the debugging lesson reads them) -------------------------------------------------

// Each causal row's entropy −Σ w ln w and its maximum ln(i + 1) (row i sees i + 1 tokens).
export function rowEntropy({ rows, cols, data }) {
  const entropy = new Float64Array(rows);
  const max = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let e = 0;
    for (let j = 0; j < cols; j++) {
      const w = data[i * cols + j];
      if (w > 0) e -= w * Math.log(w);
    }
    entropy[i] = e;
    max[i] = Math.log(Math.min(i + 1, cols));
  }
  return { entropy, max };
}

// The mean and standard deviation of the scaled scores a causal row can see (j ≤ i).
export function scoreSpread({ rows, cols, data }) {
  let n = 0;
  let sum = 0;
  let sq = 0;
  for (let i = 0; i < rows; i++)
    for (let j = 0; j <= Math.min(i, cols - 1); j++) {
      const x = data[i * cols + j];
      n++;
      sum += x;
      sq += x * x;
    }
  const mean = sum / n;
  return { mean, std: Math.sqrt(Math.max(0, sq / n - mean * mean)) };
}

// How striking a head's weights look: the mean over rows 1 … n−1 of the largest weight in the row
// (row 0 has one token and always weighs it 1).
export function peak({ rows, cols, data }) {
  if (rows < 2) return 1;
  let s = 0;
  for (let i = 1; i < rows; i++) {
    let m = 0;
    for (let j = 0; j < cols; j++) m = Math.max(m, data[i * cols + j]);
    s += m;
  }
  return s / (rows - 1);
}

// ---- every head, one at a time ----------------------------------------------------------------------

// What the pass over every head (one run each, that head's stages asked for and the head switched
// off) gives: layers × heads matrices of the change in the guess's probability, the weights' peak
// and the scaled scores' spread. runs[l][h] = { stages, topK }; base = the run without ablation.
export function headEffects(base, runs, i) {
  const nLayer = runs.length;
  const nHead = runs[0].length;
  const guess = topRow(base.topK, i)[0];
  const m = () => ({ rows: nLayer, cols: nHead, data: new Float32Array(nLayer * nHead) });
  const effect = m();
  const peaks = m();
  const spread = m();
  for (let l = 0; l < nLayer; l++)
    for (let h = 0; h < nHead; h++) {
      const r = runs[l][h];
      const after = topRow(r.topK, i).find((x) => x.id === guess.id);
      const k = l * nHead + h;
      // the drop in the probability of the guess (after the last of the top k when it fell out)
      effect.data[k] =
        guess.p - (after ? after.p : Math.min(guess.p, r.topK.probabilities[i * r.topK.k + r.topK.k - 1]));
      peaks.data[k] = peak(base.attention[l][h]);
      spread.data[k] = scoreSpread(r.stages.scaled).std;
    }
  return { guess, effect, peaks, spread };
}

// Position of the largest value of a layers × heads matrix: [layer, head].
export function argmaxHead({ cols, data }) {
  let k = 0;
  for (let t = 1; t < data.length; t++) if (data[t] > data[k]) k = t;
  return [Math.floor(k / cols), k % cols];
}

// The layer whose best head scores highest.
export const bestLayer = (m) => argmaxHead(m)[0];

// A head whose score reaches this is called a head of that kind (previous-token, induction) on the
// page; under it the page says the model has none.
export const FORMED = 0.4;
