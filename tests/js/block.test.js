// The Transformer block's JS API (engine.layerNorm, feedForward, transformerLayer, gruEncoder)
// against PyTorch (tests/golden/block.json, made by tests/golden/make_block_golden.py) in both
// wasm builds, its bad inputs, and its memory: no call, failing or not, leaks wasm memory.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { goldenCases } from '../support/golden.js';

import { loadEngine, AttentionError } from '../../web/src/engine.js';

const CASES = goldenCases('block.json');
const REL_TOL = 2e-4; // |got - torch| <= REL_TOL * max(1, |torch|)

// got: { rows, cols, data }; want: nested rows. Returns the worst relative error.
function expectMatrix(what, got, want) {
  const rows = want.length;
  const cols = want[0].length;
  assert.equal(got.rows, rows, `${what}: rows`);
  assert.equal(got.cols, cols, `${what}: cols`);
  let worst = 0;
  const bad = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const g = got.data[r * cols + c];
      const err = Math.abs(g - want[r][c]) / Math.max(1, Math.abs(want[r][c]));
      worst = Math.max(worst, err);
      if (!(err <= REL_TOL)) bad.push(`[${r}][${c}] got ${g}, torch ${want[r][c]}`);
    }
  }
  assert.equal(bad.length, 0, `${what}: ${bad.length} entries differ from torch: ${bad.slice(0, 5).join('; ')}`);
  return worst;
}

// A golden case's inputs as transformerLayer's options (torch's layout: Linear weights (out, in)).
function layerArgs(c) {
  const { inputs: i, options: o } = c;
  const args = {
    kind: o.kind,
    x: i.x,
    heads: o.heads,
    selfAttention: i.selfAttention,
    ff: i.ff,
    norms: i.norms,
    normFirst: o.normFirst,
    activation: o.activation,
    eps: o.eps,
    causal: o.causal,
  };
  if (o.kind === 'decoder') {
    args.memory = i.memory;
    args.crossAttention = i.crossAttention;
  }
  if (o.keyPadding) args.keyPadding = o.keyPadding;
  if (o.memoryKeyPadding) args.memoryKeyPadding = o.memoryKeyPadding;
  return args;
}

// Small valid arguments, built from the first encoder and decoder cases.
const ENCODER = CASES.find((c) => c.options.kind === 'encoder');
const DECODER = CASES.find((c) => c.options.kind === 'decoder');
const GRU = CASES.find((c) => c.options.kind === 'gru');
const enc = (extra = {}) => ({ ...layerArgs(ENCODER), ...extra });
const dec = (extra = {}) => ({ ...layerArgs(DECODER), ...extra });

// [what, call, message pattern]: every one must throw an AttentionError naming the argument.
const BAD = [
  [
    'heads not dividing d_model',
    (e) => e.transformerLayer(enc({ heads: 3 })),
    /^heads: d_model = 8 .*not divisible by 3 heads$/,
  ],
  ['eps 0', (e) => e.transformerLayer(enc({ eps: 0 })), /^eps: expected a number from 1e-30 to 1 \(eps > 0\), got 0$/],
  ['eps < 0', (e) => e.layerNorm({ x: [[1, 2]], gamma: [1, 1], beta: [0, 0], eps: -1 }), /^eps: .*got -1$/],
  [
    'memory on an encoder',
    (e) => e.transformerLayer(enc({ memory: ENCODER.inputs.x })),
    /^memory: expected no memory for kind 'encoder'/,
  ],
  [
    'no memory for a decoder',
    (e) => e.transformerLayer(dec({ memory: undefined })),
    /^memory: expected the encoder's output/,
  ],
  [
    'one norm missing',
    (e) => e.transformerLayer(enc({ norms: ENCODER.inputs.norms.slice(0, 1) })),
    /^norms: expected 2 \{ gamma, beta \}.*got 1$/,
  ],
  ['no norms', (e) => e.transformerLayer(enc({ norms: undefined })), /^norms: expected 2 \{ gamma, beta \}.*got 0$/],
  [
    'decoder with 2 norms',
    (e) => e.transformerLayer(dec({ norms: DECODER.inputs.norms.slice(0, 2) })),
    /^norms: expected 3/,
  ],
  [
    'a norm of the wrong width',
    (e) => e.transformerLayer(enc({ norms: [ENCODER.inputs.norms[0], { gamma: [1, 2], beta: [0, 0] }] })),
    /^norms\[1\]\.gamma: expected shape \(1, d_model\) = \(1, 8\), got \(1, 2\)$/,
  ],
  [
    'Wq of the wrong shape',
    (e) => e.transformerLayer(enc({ selfAttention: { ...ENCODER.inputs.selfAttention, Wq: [[1, 2]] } })),
    /^selfAttention\.Wq: expected shape \(d_model, d_model\) = \(8, 8\), got \(1, 2\)$/,
  ],
  [
    'no Wk',
    (e) => e.transformerLayer(enc({ selfAttention: { ...ENCODER.inputs.selfAttention, Wk: undefined } })),
    /^selfAttention\.Wk: expected a matrix/,
  ],
  [
    'cross-attention on an encoder',
    (e) => e.transformerLayer(enc({ crossAttention: DECODER.inputs.crossAttention })),
    /^crossAttention: expected no cross-attention weights/,
  ],
  [
    'W2 of the wrong shape',
    (e) => e.transformerLayer(enc({ ff: { ...ENCODER.inputs.ff, W2: [[1, 2, 3]] } })),
    /^ff\.W2: expected shape \(d_model, hidden\) = \(8, 32\), got \(1, 3\)$/,
  ],
  [
    'x of the wrong width',
    (e) => e.transformerLayer(enc({ x: [[1, 2, 3]] })),
    /^heads: d_model = 3|^selfAttention\.Wq: expected shape \(d_model, d_model\) = \(3, 3\)/,
  ],
  [
    'memory of the wrong width',
    (e) => e.transformerLayer(dec({ memory: [[1, 2, 3]] })),
    /^memory: expected shape \(m, d_model\) = \(1, 8\), got \(1, 3\)$/,
  ],
  [
    'keyPadding of the wrong length',
    (e) => e.transformerLayer(enc({ keyPadding: [true] })),
    /^keyPadding: expected 5 flags/,
  ],
  [
    'memoryKeyPadding of the wrong length',
    (e) => e.transformerLayer(dec({ memoryKeyPadding: [true] })),
    /^memoryKeyPadding: expected 4 flags/,
  ],
  [
    'an unknown kind',
    (e) => e.transformerLayer(enc({ kind: 'both' })),
    /^kind: expected one of 'encoder', 'decoder', got 'both'$/,
  ],
  [
    'an unknown activation',
    (e) => e.transformerLayer(enc({ activation: 'tanh' })),
    /^activation: expected one of 'relu', 'gelu', got 'tanh'$/,
  ],
  [
    'an unknown option',
    (e) => e.transformerLayer(enc({ dropout: 0.1 })),
    /^transformerLayer: unknown option 'dropout'/,
  ],
  [
    'an unknown weight',
    (e) => e.transformerLayer(enc({ ff: { ...ENCODER.inputs.ff, W3: [[1]] } })),
    /^ff: unknown option 'W3'/,
  ],
  [
    'a NaN in x',
    (e) => e.transformerLayer(enc({ x: ENCODER.inputs.x.map((r, i) => (i === 1 ? [NaN, ...r.slice(1)] : r)) })),
    /^x: row 1, column 0 is NaN/,
  ],
  [
    'a too-large hidden layer',
    (e) => e.feedForward({ x: [[1]], W1: { rows: 5000, cols: 1, data: new Float32Array(5000) }, W2: [[1]] }),
    /^W1: expected 1 to 4096 rows \(engine\.limits\.maxHidden\), got 5000$/,
  ],
  [
    'layerNorm gamma of the wrong width',
    (e) => e.layerNorm({ x: [[1, 2, 3]], gamma: [1, 1], beta: [0, 0, 0] }),
    /^gamma: expected shape \(1, d_model\) = \(1, 3\), got \(1, 2\)$/,
  ],
  [
    'feedForward W1 of the wrong shape',
    (e) => e.feedForward({ x: [[1, 2]], W1: [[1, 2, 3]], W2: [[1], [2]] }),
    /^W1: expected shape \(hidden, d_model\) = \(1, 2\), got \(1, 3\)$/,
  ],
  [
    'gru Whh of the wrong shape',
    (e) => e.gruEncoder({ x: [[1]], Wih: [[1], [1], [1]], Whh: [[1, 2]] }),
    /^Whh: expected shape \(3 h, h\) = \(6, 2\), got \(1, 2\)$/,
  ],
  ['gru h0 of the wrong size', (e) => e.gruEncoder({ ...GRU.inputs, h0: [1] }), /^h0: expected shape \(1, h\)/],
];

for (const simd of [true, false]) {
  describe(`the Transformer block (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    for (const c of CASES.filter((k) => k.options.kind !== 'gru')) {
      test(`${c.name}: every stage equals torch`, () => {
        const r = engine.transformerLayer(layerArgs(c));
        const want = c.expected;
        let worst = 0;
        r.selfAttention.heads.forEach((h, k) => {
          worst = Math.max(worst, expectMatrix(`self head ${k}`, h.weights, want.selfAttentionWeights[k]));
        });
        assert.equal(r.selfAttention.heads.length, c.options.heads);
        if (c.options.kind === 'decoder') {
          r.crossAttention.heads.forEach((h, k) => {
            worst = Math.max(worst, expectMatrix(`cross head ${k}`, h.weights, want.crossAttentionWeights[k]));
          });
        } else {
          assert.equal(r.crossAttention, undefined);
        }
        worst = Math.max(worst, expectMatrix('ff.hidden', r.ff.hidden, want.ffHidden));
        assert.equal(r.residuals.length, want.residuals.length);
        r.residuals.forEach((m, k) => (worst = Math.max(worst, expectMatrix(`residual ${k}`, m, want.residuals[k]))));
        r.normed.forEach((m, k) => (worst = Math.max(worst, expectMatrix(`normed ${k}`, m.output, want.normed[k]))));
        worst = Math.max(worst, expectMatrix('output', r.output, want.output));
        assert.ok(worst <= REL_TOL);
      });
    }

    test("layerNorm and feedForward alone equal the layer's own stages (torch)", () => {
      const c = CASES.find((k) => k.options.kind === 'encoder' && !k.options.normFirst);
      const { inputs: i, expected: want } = c;
      // post-norm: normed[0] = LayerNorm(residuals[0]); ff's hidden = act(normed[0] W1ᵀ + b1)
      const ln = engine.layerNorm({ x: want.residuals[0], ...i.norms[0], eps: c.options.eps });
      expectMatrix('layerNorm', ln.output, want.normed[0]);
      assert.equal(ln.mean.length, want.residuals[0].length);
      want.residuals[0].forEach((row, r) => {
        const mean = row.reduce((s, v) => s + v, 0) / row.length;
        const std = Math.sqrt(row.reduce((s, v) => s + (v - mean) ** 2, 0) / row.length);
        assert.ok(Math.abs(ln.mean[r] - mean) <= 1e-5 * (1 + Math.abs(mean)), `mean ${r}`);
        assert.ok(Math.abs(ln.std[r] - std) <= 1e-5 * (1 + std), `std ${r}`);
      });
      const ff = engine.feedForward({ x: want.normed[0], ...i.ff, activation: c.options.activation });
      expectMatrix('feedForward.hidden', ff.hidden, want.ffHidden);
    });

    test('gruEncoder equals torch.nn.GRU', () => {
      for (const c of CASES.filter((k) => k.options.kind === 'gru')) {
        const r = engine.gruEncoder(c.inputs);
        expectMatrix(c.name, r.hidden, c.expected.hidden);
        assert.equal(r.steps, c.inputs.x.length);
      }
    });

    test('a decoder is causal by default; stages: false gives only the same output (to rounding)', () => {
      const { causal, ...noCausal } = dec();
      assert.equal(causal, true);
      const r = engine.transformerLayer(noCausal);
      expectMatrix('default causal', r.output, DECODER.expected.output);
      const lean = engine.transformerLayer({ ...enc(), stages: false });
      assert.deepEqual(Object.keys(lean), ['output']);
      const all = engine.transformerLayer(enc()).output;
      const row = (r) => Array.from(all.data.subarray(r * all.cols, (r + 1) * all.cols));
      const rows = Array.from({ length: all.rows }, (_, r) => row(r));
      assert.ok(expectMatrix('lean output vs stages', lean.output, rows) < 1e-5);
    });

    test('residual and layerNorm switches: no LayerNorm passes each sum through', () => {
      const r = engine.transformerLayer(enc({ layerNorm: false }));
      assert.deepEqual(r.normed[0].output, r.residuals[0]);
      assert.deepEqual(r.output, r.residuals[1]);
      const noRes = engine.transformerLayer(enc({ residual: false }));
      assert.deepEqual(noRes.residuals[0], noRes.selfAttention.output);
    });

    test('every bad input is an AttentionError naming the argument', () => {
      for (const [what, call, pattern] of BAD) {
        assert.throws(
          () => call(engine),
          (e) => e instanceof AttentionError && pattern.test(e.message),
          what,
        );
      }
    });

    test('1,000 failing and 1,000 successful calls leave the allocator where it was', () => {
      BAD.forEach(([, call]) => assert.throws(() => call(engine), AttentionError)); // warm up
      const good = [
        () => engine.transformerLayer(enc()),
        () => engine.transformerLayer(dec({ normFirst: true })),
        () => engine.layerNorm({ x: [[1, 2, 4]], gamma: [1, 1, 1], beta: [0, 0, 0] }),
        () => engine.feedForward({ x: [[1, 2]], W1: [[1, 2]], W2: [[1], [2]], activation: 'gelu' }),
        () => engine.gruEncoder(GRU.inputs),
      ];
      good.forEach((g) => g());
      const before = engine.memory();
      for (let i = 0; i < 1000; i++) assert.throws(() => BAD[i % BAD.length][1](engine), AttentionError);
      for (let i = 0; i < 1000; i++) good[i % good.length]();
      const after = engine.memory();
      assert.equal(after.usedBytes, before.usedBytes);
      assert.equal(after.heapBytes, before.heapBytes);
    });
  });
}
