// GPT-2 as an ONNX graph, built here from a checkpoint's tensors so the benchmark can run the same
// weights in onnxruntime-web (bench/gpt2_bench.mjs), in Node and in the browser: no Python, no
// converter. Opset 17, the ops onnxruntime's exporters give GPT-2:
//   x = Gather(wte, ids) + Gather(wpe, positions)
//   each block: LayerNormalization, MatMul + Add (c_attn), Split, Reshape and Transpose into heads,
//     MatMul (q kᵀ), Div by sqrt(d_head), Add the causal mask (0 / -inf, an input), Softmax,
//     MatMul (v), back to (n, d), MatMul + Add (c_proj), Add (residual); LayerNormalization, MatMul +
//     Add (c_fc), GELU's tanh form in elementwise ops, MatMul + Add (c_proj), Add (residual)
//   logits = Gemm(LayerNormalization(x), wte, transB = 1)
// Inputs: ids and positions (int64, n), mask (float32, (n, n)). Output: logits (n, vocab).
// The weights (0.5 GB for GPT-2 small) are copied once, into the model's bytes (onnx_proto.mjs).
import {
  FLOAT,
  INT64,
  bytes,
  f32,
  floatAttr,
  i64,
  intAttr,
  intsAttr,
  message,
  modelBytes,
  node,
  string,
  tensor,
  valueInfo,
} from './onnx_proto.mjs';

// tensors: name (without the "transformer." prefix) -> { shape, data: Float32Array }. -> the
// model's bytes (a Uint8Array).
export function gpt2Model(tensors, { nLayer, nHead, nEmbd, layerNormEpsilon }) {
  const d = nEmbd;
  const dh = d / nHead;
  const nodes = [];
  const inits = [];
  const weight = (name) => {
    const t = tensors[name];
    inits.push(tensor(name, FLOAT, t.shape, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)));
    return name;
  };
  const constant = (name, type, dims, raw) => (inits.push(tensor(name, type, dims, raw)), name);
  const op = (type, inputs, output, attributes) => (nodes.push(node(type, inputs, [output], attributes)), output);
  const layerNorm = (x, p, out) =>
    op('LayerNormalization', [x, weight(`${p}.weight`), weight(`${p}.bias`)], out, [
      floatAttr('epsilon', layerNormEpsilon),
      intAttr('axis', -1),
    ]);
  const linear = (x, p, out) =>
    op('Add', [op('MatMul', [x, weight(`${p}.weight`)], `${out}.mm`), weight(`${p}.bias`)], out);

  constant('heads_shape', INT64, [3], i64([-1, nHead, dh]));
  constant('model_shape', INT64, [2], i64([-1, d]));
  constant('split', INT64, [3], i64([d, d, d]));
  constant('root_dh', FLOAT, [], f32([Math.sqrt(dh)]));
  constant('half', FLOAT, [], f32([0.5]));
  constant('one', FLOAT, [], f32([1]));
  constant('gelu_c', FLOAT, [], f32([0.044715]));
  constant('gelu_k', FLOAT, [], f32([Math.sqrt(2 / Math.PI)]));

  let x = op(
    'Add',
    [op('Gather', [weight('wte.weight'), 'ids'], 'tok'), op('Gather', [weight('wpe.weight'), 'positions'], 'pos')],
    'x0',
  );
  for (let l = 0; l < nLayer; l++) {
    const p = `h.${l}`;
    const qkv = linear(layerNorm(x, `${p}.ln_1`, `${p}.a`), `${p}.attn.c_attn`, `${p}.qkv`);
    nodes.push(node('Split', [qkv, 'split'], [`${p}.q`, `${p}.k`, `${p}.v`], [intAttr('axis', 1)]));
    const heads = (t, perm) =>
      op('Transpose', [op('Reshape', [`${p}.${t}`, 'heads_shape'], `${p}.${t}r`)], `${p}.${t}h`, [
        intsAttr('perm', perm),
      ]);
    const scores = op('MatMul', [heads('q', [1, 0, 2]), heads('k', [1, 2, 0])], `${p}.scores`);
    const masked = op('Add', [op('Div', [scores, 'root_dh'], `${p}.scaled`), 'mask'], `${p}.masked`);
    const w = op('Softmax', [masked], `${p}.weights`, [intAttr('axis', -1)]);
    const out = op('MatMul', [w, heads('v', [1, 0, 2])], `${p}.out`);
    const merged = op(
      'Reshape',
      [op('Transpose', [out], `${p}.outt`, [intsAttr('perm', [1, 0, 2])]), 'model_shape'],
      `${p}.merged`,
    );
    x = op('Add', [x, linear(merged, `${p}.attn.c_proj`, `${p}.attn`)], `${p}.x1`);
    const h = linear(layerNorm(x, `${p}.ln_2`, `${p}.m`), `${p}.mlp.c_fc`, `${p}.fc`);
    // 0.5 h (1 + tanh(sqrt(2/pi) (h + 0.044715 h³)))
    const cube = op('Mul', [op('Mul', [h, h], `${p}.h2`), h], `${p}.h3`);
    const inner = op(
      'Mul',
      [op('Add', [h, op('Mul', [cube, 'gelu_c'], `${p}.ch3`)], `${p}.sum`), 'gelu_k'],
      `${p}.inner`,
    );
    const gelu = op(
      'Mul',
      [op('Mul', [h, 'half'], `${p}.hh`), op('Add', [op('Tanh', [inner], `${p}.tanh`), 'one'], `${p}.t1`)],
      `${p}.gelu`,
    );
    x = op('Add', [x, linear(gelu, `${p}.mlp.c_proj`, `${p}.mlp`)], `${p}.x2`);
  }
  op('Gemm', [layerNorm(x, 'ln_f', 'xf'), 'wte.weight'], 'logits', [intAttr('transB', 1)]);

  const graph = message(
    ...nodes.map((n) => bytes(1, n)),
    string(2, 'gpt2'),
    ...inits.map((t) => bytes(5, t)),
    bytes(11, valueInfo('ids', INT64, ['n'])),
    bytes(11, valueInfo('positions', INT64, ['n'])),
    bytes(11, valueInfo('mask', FLOAT, ['n', 'n'])),
    bytes(12, valueInfo('logits', FLOAT, ['n', tensors['wte.weight'].shape[0]])),
  );
  return modelBytes(graph);
}

// ORT's inputs for ids: ids, positions 0 .. n - 1, the causal mask (0 on and below the diagonal).
export function gpt2Inputs(ort, ids) {
  const n = ids.length;
  const mask = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) mask[i * n + j] = -Infinity;
  return {
    ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [n]),
    positions: new ort.Tensor(
      'int64',
      BigInt64Array.from({ length: n }, (_, i) => BigInt(i)),
      [n],
    ),
    mask: new ort.Tensor('float32', mask, [n, n]),
  };
}
