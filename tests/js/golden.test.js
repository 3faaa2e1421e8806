// The engine's JS API against PyTorch golden vectors (tests/golden/*.json, made by
// tests/golden/make_golden.py), in both wasm builds: SIMD and scalar.
//
// JSON: a matrix is a list of rows, a vector a plain list, null = -inf.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { goldenCases } from '../support/golden.js';

import { loadEngine } from '../../web/src/engine.js';

// float32 against a float32 reference: |got - want| <= ABS_TOL + REL_TOL * |want|
const ABS_TOL = 2e-5;
const REL_TOL = 1e-4;

const SOFTMAX = goldenCases('softmax.json');
const JACOBIAN = goldenCases('softmax_jacobian.json');
const ATTENTION = goldenCases('attention.json');
const SCORES = goldenCases('scores.json');
const MULTIHEAD = goldenCases('multihead.json');
// self and cross, causal, key-padding and explicit masks, d_model not a power of two
const MULTIHEAD_MASKS = goldenCases('multihead_masks.json');
const POSITIONAL = goldenCases('positional.json');

// ---- comparing -----------------------------------------------------------------------------

function close(got, want) {
  if (want === null) return got === -Infinity;
  return Math.abs(got - want) <= ABS_TOL + REL_TOL * Math.abs(want);
}

// got: { rows, cols, data } (or a flat array-like for a vector); want: nested rows or a list.
function expectMatrix(what, got, want) {
  const wantRows = Array.isArray(want[0]) ? want : [want];
  const rows = wantRows.length;
  const cols = wantRows[0].length;
  let data = got;
  if (got && got.data !== undefined) {
    assert.equal(got.rows, rows, `${what}: rows`);
    assert.equal(got.cols, cols, `${what}: cols`);
    data = got.data;
  }
  assert.equal(data.length, rows * cols, `${what}: length`);
  const bad = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const g = data[r * cols + c];
      if (!close(g, wantRows[r][c])) bad.push(`[${r}][${c}] got ${g}, torch ${wantRows[r][c]}`);
    }
  }
  assert.equal(bad.length, 0, `${what}: ${bad.length} entries differ from torch: ${bad.slice(0, 5).join('; ')}`);
}

// ---- arguments -----------------------------------------------------------------------------

function attendArgs(c) {
  const { inputs: i, options: o } = c;
  const args = {
    query: i.query,
    key: i.key,
    value: i.value,
    score: o.score,
    causal: o.causal,
    maskFill: o.maskFill,
    temperature: o.temperature,
  };
  if (i.mask) args.mask = i.mask;
  if (o.keyPadding) args.keyPadding = o.keyPadding;
  if (i.additive) args.additive = { Wq: i.additive.Wq, Wk: i.additive.Wk, v: i.additive.v };
  if (i.general) args.general = { W: i.general.W };
  return args;
}

function checkAttend(engine, c) {
  const r = engine.attend(attendArgs(c));
  const want = c.expected;
  for (const stage of ['scores', 'scaled', 'mask', 'masked', 'weights', 'output']) {
    expectMatrix(stage, r[stage], want[stage]);
  }
  expectMatrix('entropy', r.entropy, want.entropy);
  assert.deepEqual(Array.from(r.fullyMaskedRows), want.fullyMaskedRows, 'fullyMaskedRows');
}

// ---- both builds -----------------------------------------------------------------------------

for (const simd of [true, false]) {
  describe(`golden vectors, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    for (const c of SOFTMAX) {
      test(`softmax ${c.name}: weights and entropy match F.softmax`, () => {
        const r = engine.softmax({
          scores: c.inputs.scores,
          stable: c.options.stable,
          temperature: c.options.temperature,
        });
        expectMatrix('weights', r.weights, c.expected.weights);
        expectMatrix('entropy', r.entropy, c.expected.entropy);
      });
    }

    for (const c of JACOBIAN) {
      test(`softmaxJacobian ${c.name}: matches torch autograd`, () => {
        expectMatrix('jacobian', engine.softmaxJacobian(c.inputs.p), c.expected.jacobian);
      });
    }

    for (const c of [...ATTENTION, ...SCORES]) {
      test(`attend ${c.name}: every stage matches torch`, () => checkAttend(engine, c));
    }

    test('the multi-head mask cases cover self, cross, causal, padding, an explicit mask, d_model not a power of two', () => {
      const names = MULTIHEAD_MASKS.map((c) => c.name);
      assert.ok(names.some((n) => n.startsWith('self_')) && names.some((n) => n.startsWith('cross_')));
      assert.ok(MULTIHEAD_MASKS.some((c) => c.options.causal && c.name.startsWith('cross_')));
      assert.ok(MULTIHEAD_MASKS.some((c) => c.options.keyPadding) && MULTIHEAD_MASKS.some((c) => c.inputs.mask));
      assert.ok(MULTIHEAD_MASKS.every((c) => (c.inputs.query[0].length & (c.inputs.query[0].length - 1)) !== 0));
    });

    for (const c of [...MULTIHEAD, ...MULTIHEAD_MASKS]) {
      test(`multiHead ${c.name}: matches nn.MultiheadAttention`, () => {
        const i = c.inputs;
        const args = {
          query: i.query,
          key: i.key,
          value: i.value,
          heads: c.options.heads,
          Wq: i.Wq,
          Wk: i.Wk,
          Wv: i.Wv,
          Wo: i.Wo,
          bq: i.bq,
          bk: i.bk,
          bv: i.bv,
          bo: i.bo,
          causal: c.options.causal,
        };
        if (c.options.keyPadding) args.keyPadding = c.options.keyPadding;
        if (i.mask) args.mask = i.mask;
        const r = engine.multiHead(args);
        assert.equal(r.heads.length, c.options.heads, 'number of heads');
        r.heads.forEach((h, k) => expectMatrix(`head ${k} weights`, h.weights, c.expected.headWeights[k]));
        expectMatrix('concat', r.concat, c.expected.concat);
        expectMatrix('output', r.output, c.expected.output);
      });
    }

    for (const c of POSITIONAL) {
      if (c.expected.pe) {
        test(`sinusoidal ${c.name}: matches sin/cos(p / 10000^(2i/d))`, () => {
          expectMatrix('pe', engine.sinusoidal({ n: c.options.n, d: c.options.d }), c.expected.pe);
        });
      } else {
        test(`rope ${c.name}: matches the pair rotations`, () => {
          expectMatrix('rope', engine.rope({ x: c.inputs.x, first: c.options.first }), c.expected.out);
        });
      }
    }
  });
}
