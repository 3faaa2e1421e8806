// A GPT-2 forward pass in double precision, written from the architecture's definition, for the
// tests of the real-model lesson: it reads a safetensors file (F32, F16, BF16) by itself and
// nothing here calls the engine. Also writes a random tiny GPT-2 checkpoint, as a learner's file.
//
//   const w = readSafetensors(bytes)             // name -> { shape, data: Float64Array }
//   const out = gpt2Forward(w, config, ids, { head: [l, h], ablate: [[l, h]] })
//     -> { logits (n × vocab, Float64Array rows), weights[l][h] (n × n), stages, residualNorms }
//   const { bytes, config } = randomCheckpoint({ seed, nLayer, nHead, nEmbd, nPositions, vocabSize, dtype })

const DTYPES = { F32: 4, F16: 2, BF16: 2 };

function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

export function readSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const base = 8 + n;
  const out = {};
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const [a, b] = t.data_offsets;
    const size = DTYPES[t.dtype];
    const count = (b - a) / size;
    const data = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const at = base + a + i * size;
      if (t.dtype === 'F32') data[i] = view.getFloat32(at, true);
      else if (t.dtype === 'F16') data[i] = halfToFloat(view.getUint16(at, true));
      else data[i] = new Float32Array(new Uint32Array([view.getUint16(at, true) << 16]).buffer)[0];
    }
    out[name.replace(/^transformer\./, '')] = { shape: t.shape, data };
  }
  return out;
}

// ---- the forward pass ------------------------------------------------------------------------

// x (n × d) row-major, W (in × out) as Conv1D stores it, b (out): x W + b
function conv1d(x, n, W, b) {
  const [din, dout] = W.shape;
  const y = new Float64Array(n * dout);
  for (let i = 0; i < n; i++)
    for (let o = 0; o < dout; o++) {
      let s = b.data[o];
      for (let k = 0; k < din; k++) s += x[i * din + k] * W.data[k * dout + o];
      y[i * dout + o] = s;
    }
  return y;
}

function layerNorm(x, n, d, g, b, eps) {
  const y = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    let mean = 0;
    for (let k = 0; k < d; k++) mean += x[i * d + k];
    mean /= d;
    let v = 0;
    for (let k = 0; k < d; k++) v += (x[i * d + k] - mean) ** 2;
    const inv = 1 / Math.sqrt(v / d + eps);
    for (let k = 0; k < d; k++) y[i * d + k] = (x[i * d + k] - mean) * inv * g.data[k] + b.data[k];
  }
  return y;
}

const gelu = (x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));

export function gpt2Forward(w, config, ids, { head = null, ablate = [] } = {}) {
  const { n_layer: L, n_head: H, n_embd: d, layer_norm_epsilon: eps = 1e-5 } = config;
  const n = ids.length;
  const dh = d / H;
  let x = new Float64Array(n * d);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < d; k++) x[i * d + k] = w['wte.weight'].data[ids[i] * d + k] + w['wpe.weight'].data[i * d + k];
  const norms = (t) => Array.from({ length: n }, (_, i) => Math.hypot(...t.subarray(i * d, (i + 1) * d)));
  const residualNorms = [norms(x)];
  const weights = [];
  let stages = null;
  for (let l = 0; l < L; l++) {
    const p = (name) => w[`h.${l}.${name}`];
    const a = layerNorm(x, n, d, p('ln_1.weight'), p('ln_1.bias'), eps);
    const qkv = conv1d(a, n, p('attn.c_attn.weight'), p('attn.c_attn.bias')); // (n, 3d)
    const heads = new Float64Array(n * d);
    weights.push([]);
    for (let hh = 0; hh < H; hh++) {
      const q = (i, k) => qkv[i * 3 * d + hh * dh + k];
      const kk = (j, k) => qkv[j * 3 * d + d + hh * dh + k];
      const v = (j, k) => qkv[j * 3 * d + 2 * d + hh * dh + k];
      const scores = new Float64Array(n * n);
      const scaled = new Float64Array(n * n);
      const masked = new Float64Array(n * n);
      const wts = new Float64Array(n * n);
      const out = new Float64Array(n * dh);
      for (let i = 0; i < n; i++) {
        let max = -Infinity;
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let k = 0; k < dh; k++) s += q(i, k) * kk(j, k);
          scores[i * n + j] = s;
          scaled[i * n + j] = s / Math.sqrt(dh);
          masked[i * n + j] = j <= i ? scaled[i * n + j] : -Infinity;
          if (j <= i) max = Math.max(max, masked[i * n + j]);
        }
        let sum = 0;
        for (let j = 0; j <= i; j++) sum += Math.exp(masked[i * n + j] - max);
        for (let j = 0; j < n; j++) wts[i * n + j] = j <= i ? Math.exp(masked[i * n + j] - max) / sum : 0;
        for (let k = 0; k < dh; k++) {
          let s = 0;
          for (let j = 0; j <= i; j++) s += wts[i * n + j] * v(j, k);
          out[i * dh + k] = s;
        }
      }
      weights[l].push(wts);
      if (head && head[0] === l && head[1] === hh) stages = { scores, scaled, masked, weights: wts, output: out };
      const off = ablate.some(([al, ah]) => al === l && ah === hh);
      if (!off) for (let i = 0; i < n; i++) for (let k = 0; k < dh; k++) heads[i * d + hh * dh + k] = out[i * dh + k];
    }
    const attn = conv1d(heads, n, p('attn.c_proj.weight'), p('attn.c_proj.bias'));
    for (let t = 0; t < n * d; t++) x[t] += attn[t];
    const m = layerNorm(x, n, d, p('ln_2.weight'), p('ln_2.bias'), eps);
    const hidden = conv1d(m, n, p('mlp.c_fc.weight'), p('mlp.c_fc.bias')).map(gelu);
    const ff = conv1d(hidden, n, p('mlp.c_proj.weight'), p('mlp.c_proj.bias'));
    x = x.map((xv, t) => xv + ff[t]);
    residualNorms.push(norms(x));
  }
  const f = layerNorm(x, n, d, w['ln_f.weight'], w['ln_f.bias'], eps);
  const V = w['wte.weight'].shape[0];
  const logits = new Float64Array(n * V);
  for (let i = 0; i < n; i++)
    for (let t = 0; t < V; t++) {
      let s = 0;
      for (let k = 0; k < d; k++) s += f[i * d + k] * w['wte.weight'].data[t * d + k];
      logits[i * V + t] = s;
    }
  return { logits, vocab: V, weights, stages, residualNorms };
}

// Softmax of one row of logits.
export function probabilities(logits, V, i) {
  const row = logits.subarray(i * V, (i + 1) * V);
  const max = Math.max(...row);
  const e = row.map((z) => Math.exp(z - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((z) => z / sum);
}

// ---- a random checkpoint ------------------------------------------------------------------------

// xorshift32: a few thousand reproducible numbers, no engine involved.
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

// A random GPT-2 as a learner's checkpoint: safetensors bytes (F32, Hugging Face names with the
// `transformer.` prefix, GPT-2's causal-mask buffers included) and its config.json object.
export function randomCheckpoint({
  seed = 1,
  nLayer = 2,
  nHead = 2,
  nEmbd = 16,
  nPositions = 32,
  vocabSize = 64,
} = {}) {
  const r = rng(seed);
  const normal = (std) => () => std * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const one = () => 1 + 0.1 * (r() - 0.5);
  const d = nEmbd;
  const tensors = [
    ['wte.weight', [vocabSize, d], normal(0.5)],
    ['wpe.weight', [nPositions, d], normal(0.3)],
  ];
  for (let l = 0; l < nLayer; l++) {
    tensors.push(
      [`h.${l}.ln_1.weight`, [d], one],
      [`h.${l}.ln_1.bias`, [d], normal(0.1)],
      [`h.${l}.attn.c_attn.weight`, [d, 3 * d], normal(0.4)],
      [`h.${l}.attn.c_attn.bias`, [3 * d], normal(0.1)],
      [`h.${l}.attn.c_proj.weight`, [d, d], normal(0.2)],
      [`h.${l}.attn.c_proj.bias`, [d], normal(0.05)],
      [`h.${l}.ln_2.weight`, [d], one],
      [`h.${l}.ln_2.bias`, [d], normal(0.1)],
      [`h.${l}.mlp.c_fc.weight`, [d, 4 * d], normal(0.2)],
      [`h.${l}.mlp.c_fc.bias`, [4 * d], normal(0.05)],
      [`h.${l}.mlp.c_proj.weight`, [4 * d, d], normal(0.1)],
      [`h.${l}.mlp.c_proj.bias`, [d], normal(0.05)],
    );
  }
  tensors.push(['ln_f.weight', [d], one], ['ln_f.bias', [d], normal(0.1)]);
  const header = {};
  const blobs = [];
  let offset = 0;
  for (const [name, shape, draw] of tensors) {
    const data = Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, draw);
    header[`transformer.${name}`] = { dtype: 'F32', shape, data_offsets: [offset, offset + data.byteLength] };
    blobs.push(new Uint8Array(data.buffer));
    offset += data.byteLength;
  }
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const head = new TextEncoder().encode(text);
  const bytes = new Uint8Array(8 + head.length + offset);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(head.length), true);
  bytes.set(head, 8);
  let at = 8 + head.length;
  for (const b of blobs) {
    bytes.set(b, at);
    at += b.length;
  }
  const config = {
    model_type: 'gpt2',
    n_layer: nLayer,
    n_head: nHead,
    n_embd: d,
    n_positions: nPositions,
    vocab_size: vocabSize,
    layer_norm_epsilon: 1e-5,
  };
  return { bytes, config };
}
