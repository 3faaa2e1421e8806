// The bad-input catalogue: malformed calls across every engine function, by class, as one
// table. tests/js/catalogue.test.js runs each case; tests/js/errors.test.js runs them again
// for memory. Nothing here calls the engine by itself.
import { randomRows } from './reference.js';
import { headerBytes, readSafetensors, writeSafetensors } from '../support/safetensors.js';

export const ones = (rows, cols) => Array.from({ length: rows }, () => new Array(cols).fill(1));
const eye = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));

// Valid calls the cases vary.
const Q = randomRows(2, 3, 1);
const K = randomRows(3, 3, 2);
const V = randomRows(3, 2, 3);
export const att = (extra = {}) => ({ query: Q, key: K, value: V, ...extra });
const X = [
  [1, 0, 0, 1],
  [0, 1, 1, 0],
  [1, 1, 0, 0],
];
export const mh = (extra = {}) => ({
  query: X,
  key: X,
  value: X,
  heads: 2,
  Wq: eye(4),
  Wk: eye(4),
  Wv: eye(4),
  Wo: eye(4),
  ...extra,
});
export const chunk = (e) => e.varianceExperiment({ dk: 4, samples: 10, seed: 1, bins: 4 });

// Odd objects.
const sparse = () => new Array(2 ** 32 - 1); // length 2^32 - 1, no entries: must fail at once
const withGetter = (object, name) =>
  Object.defineProperty(object, name, {
    enumerable: true,
    get() {
      throw new Error(`caller's getter ${name}`);
    },
  });
const throwing = (name) => withGetter({}, name);
const proxy = (target) =>
  new Proxy(target, {
    get() {
      throw new RangeError('caller trap');
    },
  });

// [class, function, argument, call, expectation (after "<argument>: ")]
export const CASES = [
  // ---- shapes that do not fit together
  [
    'shape',
    'attend',
    'key',
    (e) => e.attend(att({ key: ones(3, 2) })),
    /^expected 3 columns \(d_k must equal the query's d_q for scaled-dot\), got 2$/,
  ],
  ['shape', 'attend', 'value', (e) => e.attend(att({ value: ones(2, 2) })), /^expected 3 rows \(one per key\), got 2$/],
  [
    'shape',
    'attend',
    'mask',
    (e) => e.attend(att({ mask: ones(3, 3) })),
    /^expected shape \(n_q, n_k\) = \(2, 3\), got \(3, 3\)$/,
  ],
  [
    'shape',
    'attend',
    'general.W',
    (e) => e.attend(att({ score: 'general', general: { W: ones(2, 3) } })),
    /^expected shape \(d_q, d_k\) = \(3, 3\), got \(2, 3\)$/,
  ],
  [
    'shape',
    'attend',
    'additive.v',
    (e) => e.attend(att({ score: 'additive', additive: { Wq: ones(4, 3), Wk: ones(4, 3), v: [1, 1] } })),
    /^expected shape \(1, h\) = \(1, 4\), got \(1, 2\)$/,
  ],
  [
    'shape',
    'attend',
    'keyPadding',
    (e) => e.attend(att({ keyPadding: [true] })),
    /^expected 3 flags \(one per key, n_k\), got 1$/,
  ],
  [
    'shape',
    'multiHead',
    'Wv',
    (e) => e.multiHead(mh({ Wv: ones(4, 3) })),
    /^expected shape \(d_model, vdim\) = \(4, 4\), got \(4, 3\)$/,
  ],
  [
    'shape',
    'multiHead',
    'heads',
    (e) => e.multiHead(mh({ heads: 3 })),
    /^d_model = 4 \(columns of query\) is not divisible by 3 heads$/,
  ],
  [
    'shape',
    'linear',
    'W',
    (e) => e.linear({ x: ones(2, 3), W: ones(4, 2) }),
    /^expected shape \(out, in\) = \(4, 3\), got \(4, 2\)$/,
  ],
  [
    'shape',
    'rope',
    'x',
    (e) => e.rope({ x: ones(2, 3) }),
    /^expected an even number of columns \(RoPE rotates pairs\), got 3$/,
  ],
  [
    'shape',
    'multiHead',
    'bq',
    (e) => e.multiHead(mh({ bq: ones(2, 4) })),
    /^expected a vector \(an array of numbers or a one-row matrix\), got 2 rows$/,
  ],
  // ---- ragged and malformed arrays
  [
    'ragged',
    'attend',
    'query',
    (e) =>
      e.attend(
        att({
          query: [
            [1, 2, 3],
            [4, 5],
          ],
        }),
      ),
    /^row 1 has 2 numbers, expected 3$/,
  ],
  [
    'ragged',
    'linear',
    'x',
    (e) => e.linear({ x: [[1, 2], 5], W: ones(1, 2) }),
    /^row 1 is 5, expected an array of 2 numbers$/,
  ],
  [
    'ragged',
    'softmax',
    'scores',
    (e) => e.softmax({ scores: { rows: 2, cols: 3, data: [1, 2, 3, 4, 5] } }),
    /^expected 6 numbers for 2 rows x 3 columns, got 5$/,
  ],
  [
    'ragged',
    'attend',
    'value',
    (e) => e.attend(att({ value: 'abc' })),
    /^expected a matrix \(nested arrays of numbers, or \{ rows, cols, data \}\), got 'abc'$/,
  ],
  [
    'ragged',
    'hardAttention',
    'scores',
    (e) => e.hardAttention({ scores: { rows: '2', cols: 1, data: [1, 2] } }),
    /^rows is '2', expected an integer$/,
  ],
  // ---- entries that are not numbers
  [
    'not a number',
    'attend',
    'query',
    (e) =>
      e.attend(
        att({
          query: [
            [1, 'a', 0],
            [0, 1, 0],
          ],
        }),
      ),
    /^row 0, column 1 is 'a' \(expected a number\)$/,
  ],
  [
    'not a number',
    'linear',
    'b',
    (e) => e.linear({ x: ones(1, 2), W: ones(2, 2), b: [1, null] }),
    /^row 0, column 1 is null \(expected a number\)$/,
  ],
  [
    'not a number',
    'softmaxJacobian',
    'p',
    (e) => e.softmaxJacobian([0.5, {}]),
    /^row 0, column 1 is an object \(expected a number\)$/,
  ],
  [
    'not a number',
    'gumbelSoftmax',
    'scores',
    (e) => e.gumbelSoftmax({ scores: { rows: 1, cols: 2, data: new BigInt64Array(2) } }),
    /^row 0, column 0 is 0n \(expected a number\)$/,
  ],
  [
    'not a number',
    'attend',
    'mask',
    (e) =>
      e.attend(
        att({
          mask: [
            [1, 'yes', 1],
            [1, 1, 1],
          ],
        }),
      ),
    /^row 0, column 1 is 'yes' \(expected a number\)$/,
  ],
  // ---- NaN and infinities
  [
    'non-finite',
    'attend',
    'value',
    (e) =>
      e.attend(
        att({
          value: [
            [1, 2],
            [3, NaN],
            [5, 6],
          ],
        }),
      ),
    /^row 1, column 1 is NaN \(expected finite numbers\)$/,
  ],
  [
    'non-finite',
    'attend',
    'key',
    (e) => e.attend(att({ key: { rows: 3, cols: 3, data: new Float32Array([1, 0, 0, 0, Infinity, 0, 0, 0, 1]) } })),
    /^row 1, column 1 is Infinity \(expected finite numbers\)$/,
  ],
  [
    'non-finite',
    'multiHead',
    'Wk',
    (e) =>
      e.multiHead(
        mh({
          Wk: [
            [1, 0, 0, 0],
            [0, -Infinity, 0, 0],
            [0, 0, 1, 0],
            [0, 0, 0, 1],
          ],
        }),
      ),
    /^row 1, column 1 is -Infinity \(expected finite numbers\)$/,
  ],
  [
    'non-finite',
    'softmax',
    'scores',
    (e) => e.softmax({ scores: [[1, Infinity]] }),
    /^row 0, column 1 is Infinity \(expected finite numbers or -Infinity\)$/,
  ],
  [
    'non-finite',
    'hardAttention',
    'scores',
    (e) => e.hardAttention({ scores: [[NaN, 1]] }),
    /^row 0, column 0 is NaN \(expected finite numbers or -Infinity\)$/,
  ],
  [
    'non-finite',
    'softmaxJacobian',
    'p',
    (e) => e.softmaxJacobian(new Float64Array([0.5, NaN])),
    /^entry 1 is NaN \(expected finite numbers\)$/,
  ],
  ['non-finite', 'rope', 'x', (e) => e.rope({ x: [[1, NaN]] }), /^row 0, column 1 is NaN \(expected finite numbers\)$/],
  [
    'non-finite',
    'attend',
    'mask',
    (e) =>
      e.attend(
        att({
          mask: [
            [1, 0.5, 1],
            [1, 1, 1],
          ],
        }),
      ),
    /^row 0, column 1 is 0\.5 \(expected 0 = blocked or 1 = may attend\)$/,
  ],
  // ---- past float32 on the way in
  [
    'float32 range',
    'attend',
    'query',
    (e) =>
      e.attend(
        att({
          query: [
            [1e39, 0, 0],
            [0, 1, 0],
          ],
        }),
      ),
    /^row 0, column 0 is 1e\+39, too large for float32 \(expected \|x\| < 3\.4e38\)$/,
  ],
  [
    'float32 range',
    'linear',
    'W',
    (e) => e.linear({ x: ones(1, 2), W: { rows: 1, cols: 2, data: new Float64Array([1, -1e300]) } }),
    /^row 0, column 1 is -1e\+300, too large for float32/,
  ],
  // ---- arithmetic that would overflow float32 (issue: no silent NaN)
  [
    'overflow',
    'attend',
    'query',
    (e) =>
      e.attend(
        att({
          query: [
            [1e20, 0, 0],
            [0, 1, 0],
          ],
          key: [
            [1e20, 0, 0],
            [0, 1, 0],
            [0, 0, 1],
          ],
        }),
      ),
    /^q·k overflows float32 at query 0, key 0 \(expected \|q\| \|k\| below 3\.4e\+38 for every query and key row\)$/,
  ],
  [
    'overflow',
    'attend',
    'general.W',
    (e) =>
      e.attend(
        att({
          score: 'general',
          query: ones(2, 3).map((r) => r.map(() => 1e19)),
          key: ones(3, 3).map((r) => r.map(() => 1e19)),
          general: { W: ones(3, 3) },
        }),
      ),
    /^q W k overflows float32 at query 0, key 0/,
  ],
  [
    'overflow',
    'attend',
    'additive.Wq',
    (e) =>
      e.attend(
        att({
          score: 'additive',
          query: [
            [3e38, 3e38, 3e38],
            [0, 0, 0],
          ],
          key: [
            [-3e38, -3e38, -3e38],
            [0, 0, 0],
            [0, 0, 1],
          ],
          additive: { Wq: ones(2, 3), Wk: ones(2, 3), v: [1, 1] },
        }),
      ),
    /^Wq q \+ Wk k overflows float32 at query 0, key 0/,
  ],
  [
    'overflow',
    'attend',
    'temperature',
    (e) =>
      e.attend(
        att({
          query: ones(2, 3).map((r) => r.map(() => 1e10)),
          key: ones(3, 3).map((r) => r.map(() => 1e10)),
          temperature: 1e-20,
        }),
      ),
    /^expected at least 5\.1\de-19 for these scores \(the largest, 1\.7\d*e\+20, divided by temperature must stay below 3\.4e\+38\), got 1e-20$/,
  ],
  [
    'overflow',
    'softmax',
    'temperature',
    (e) => e.softmax({ scores: [[1e30, 0]], temperature: 1e-10 }),
    /^expected at least 2\.9\de-9 for these scores/,
  ],
  [
    'overflow',
    'gumbelSoftmax',
    'tau',
    (e) => e.gumbelSoftmax({ scores: [[3e38, 0]], tau: 0.5 }),
    /^expected at least 0\.88\d? for these scores/,
  ],
  [
    'overflow',
    'multiHead',
    'query',
    (e) =>
      e.multiHead(mh({ Wq: eye(4).map((r) => r.map((x) => x * 1e30)), query: X.map((r) => r.map((x) => x * 1e10)) })),
    /^x Wᵀ \+ b overflows float32 at row 0, column 0/,
  ],
  [
    'overflow',
    'linear',
    'x',
    (e) => e.linear({ x: [[1e20, 1e20]], W: [[1e20, 1e20]] }),
    /^x Wᵀ \+ b overflows float32 at row 0, column 0 \(expected \|x\| \|W row\| \+ \|b\| below 3\.4e\+38 for every row\)$/,
  ],
  [
    'overflow',
    'rope',
    'x',
    (e) => e.rope({ x: [[3e38, 3e38]] }),
    /^the pair at row 0, columns 0 and 1 is too long to rotate in float32/,
  ],
  [
    'overflow',
    'softmaxJacobian',
    'p',
    (e) => e.softmaxJacobian([1e20, 0]),
    /^entry 0 is 1e\+20 \(expected \|p\| below 1\.8e\+19/,
  ],
  [
    'overflow',
    'randomMatrix',
    'scale',
    (e) => e.randomMatrix({ rows: 2, cols: 2, scale: 1e300 }),
    /^expected a number from -1e\+30 to 1e\+30, got 1e\+300$/,
  ],
  [
    'overflow',
    'attend',
    'temperature',
    (e) => e.attend(att({ temperature: 1e-37 })),
    /^expected a number from 1e-30 to 1e\+30, got 1e-37$/,
  ],
  [
    'overflow',
    'softmax',
    'temperature',
    (e) => e.softmax({ scores: [[1, 2]], temperature: 1e-300 }),
    /^expected a number from 1e-30 to 1e\+30, got 1e-300$/,
  ],
  [
    'overflow',
    'gumbelSoftmax',
    'tau',
    (e) => e.gumbelSoftmax({ scores: [[1, 2]], tau: 1e300 }),
    /^expected a number from 1e-30 to 1e\+30, got 1e\+300$/,
  ],
  [
    'overflow',
    'sinusoidal',
    'base',
    (e) => e.sinusoidal({ n: 4, d: 4, base: 1e-300 }),
    /^expected a number from 1e-30 to 1e\+30, got 1e-300$/,
  ],
  // the value as the caller passed it, not as a float32 made it (0, Infinity, 2.9999978e-40)
  [
    'overflow',
    'queryProbe',
    'tau',
    (e) => e.queryProbe({ dk: 4, tau: 1e-300 }),
    /^expected a number from 1e-30 to 1e\+30, got 1e-300$/,
  ],
  [
    'overflow',
    'queryProbe',
    'tau',
    (e) => e.queryProbe({ dk: 4, tau: 1e300 }),
    /^expected a number from 1e-30 to 1e\+30, got 1e\+300$/,
  ],
  [
    'overflow',
    'queryProbe',
    'tau',
    (e) => e.queryProbe({ dk: 4, tau: 3e-40 }),
    /^expected a number from 1e-30 to 1e\+30, got 3e-40$/,
  ],
  // ---- options objects
  [
    'options object',
    'attend',
    'attend',
    (e) => e.attend([Q, K, V]),
    /^expected an options object \{ query, key, value, .* \}, got an array$/,
  ],
  [
    'options object',
    'softmax',
    'softmax',
    (e) => e.softmax(new Date(0)),
    /^expected an options object \{ scores, stable, temperature \}, got a Date$/,
  ],
  [
    'options object',
    'linear',
    'linear',
    (e) => e.linear(Promise.resolve(1)),
    /^expected an options object .*, got a Promise$/,
  ],
  ['options object', 'rope', 'rope', (e) => e.rope(new WeakMap()), /^expected an options object .*, got a WeakMap$/],
  [
    'options object',
    'randomMatrix',
    'randomMatrix',
    (e) => e.randomMatrix(Object(2)),
    /^expected an options object .*, got a Number$/,
  ],
  [
    'options object',
    'varianceExperiment',
    'varianceExperiment',
    (e) => e.varianceExperiment(null),
    /^expected an options object/,
  ],
  [
    'options object',
    'attend',
    'additive',
    (e) => e.attend(att({ score: 'additive', additive: new Map() })),
    /^expected an options object \{ Wq, Wk, v \}, got a Map$/,
  ],
  [
    'unknown option',
    'attend',
    'attend',
    (e) => e.attend(att({ fill: 'zero' })),
    /^unknown option 'fill' \(expected one of query, key, value, score, mask, causal, reverseCausal, keyPadding, maskFill, temperature, stable, stages, additive, general\)$/,
  ],
  ['unknown option', 'multiHead', 'multiHead', (e) => e.multiHead(mh({ dropout: 0.1 })), /^unknown option 'dropout'/],
  ['unknown option', 'queryProbe', 'queryProbe', (e) => e.queryProbe({ dk: 4, keys: 3 }), /^unknown option 'keys'/],
  // ---- the caller's getters and Proxies throw: an AttentionError, never the caller's error
  [
    'throwing getter',
    'attend',
    'attend',
    (e) => e.attend(withGetter(att(), 'temperature')),
    /^reading it threw Error: caller's getter temperature$/,
  ],
  [
    'throwing getter',
    'attend',
    'query',
    (e) =>
      e.attend(
        att({
          query: proxy([
            [1, 0, 0],
            [0, 1, 0],
          ]),
        }),
      ),
    /^reading it threw RangeError: caller trap$/,
  ],
  [
    'throwing getter',
    'linear',
    'x',
    (e) =>
      e.linear({
        x: {
          rows: 1,
          cols: 2,
          get data() {
            throw new TypeError('no data');
          },
        },
        W: ones(1, 2),
      }),
    /^reading it threw TypeError: no data$/,
  ],
  [
    'throwing getter',
    'softmax',
    'softmax',
    (e) => e.softmax(proxy({ scores: [[1, 2]] })),
    /^reading it threw RangeError: caller trap$/,
  ],
  [
    'throwing getter',
    'softmaxJacobian',
    'p',
    (e) => e.softmaxJacobian(proxy([0.5, 0.5])),
    /^reading it threw RangeError: caller trap$/,
  ],
  [
    'throwing getter',
    'saturationSweep',
    'dks',
    (e) => e.saturationSweep({ dks: proxy([4, 8]) }),
    /^reading it threw RangeError: caller trap$/,
  ],
  [
    'throwing getter',
    'mergeVariance',
    'b',
    (e) => e.mergeVariance({ aSamples: 0, b: throwing('histogram'), bSamples: 10 }),
    /^reading it threw Error: caller's getter histogram$/,
  ],
  // ---- choice names
  [
    'choice',
    'attend',
    'score',
    (e) => e.attend(att({ score: 'cosine' })),
    /^expected one of 'dot', 'scaled-dot', 'additive', 'general', got 'cosine'$/,
  ],
  [
    'choice',
    'attend',
    'maskFill',
    (e) => e.attend(att({ maskFill: 1 })),
    /^expected one of 'neg-inf', 'large-negative', 'zero', got 1$/,
  ],
  [
    'choice',
    'attend',
    'additive',
    (e) => e.attend(att({ score: 'additive' })),
    /^required when score is 'additive' \(\{ Wq, Wk, v \}\)$/,
  ],
  [
    'choice',
    'attend',
    'general',
    (e) => e.attend(att({ score: 'general' })),
    /^required when score is 'general' \(\{ W \}\)$/,
  ],
  // ---- booleans, integers, seeds
  ['type', 'attend', 'causal', (e) => e.attend(att({ causal: 'yes' })), /^expected true or false, got 'yes'$/],
  ['type', 'attend', 'stages', (e) => e.attend(att({ stages: 0 })), /^expected true or false, got 0$/],
  [
    'type',
    'attend',
    'reverseCausal',
    (e) => e.attend(att({ reverseCausal: new Boolean(true) })),
    /^expected true or false, got an object$/,
  ],
  ['type', 'multiHead', 'stages', (e) => e.multiHead(mh({ stages: 'no' })), /^expected true or false, got 'no'$/],
  [
    'type',
    'randomMatrix',
    'seed',
    (e) => e.randomMatrix({ rows: 2, cols: 2, seed: -1 }),
    /^expected a non-negative integer below 2\^32 \(seeds are uint32\), got -1$/,
  ],
  [
    'type',
    'gumbelSoftmax',
    'seed',
    (e) => e.gumbelSoftmax({ scores: [[1, 2]], seed: 2 ** 32 }),
    /^expected a non-negative integer below 2\^32 \(seeds are uint32\), got 4294967296$/,
  ],
  [
    'type',
    'randomMatrix',
    'stream',
    (e) => e.randomMatrix({ rows: 2, cols: 2, stream: 0.5 }),
    /^expected a non-negative integer below 2\^32/,
  ],
  [
    'type',
    'randomMatrix',
    'streams',
    (e) => e.randomMatrix({ rows: 3, cols: 2, streams: [1, 2] }),
    /^expected one stream per row \(3\), got 2$/,
  ],
  [
    'type',
    'randomMatrix',
    'streams[1]',
    (e) => e.randomMatrix({ rows: 2, cols: 2, streams: [1, -4] }),
    /^expected a non-negative integer below 2\^32 \(seeds are uint32\), got -4$/,
  ],
  [
    'type',
    'randomMatrix',
    'streams',
    (e) => e.randomMatrix({ rows: 2, cols: 2, stream: 1, streams: [1, 2] }),
    /^give stream or streams, not both$/,
  ],
  [
    'type',
    'randomMatrix',
    'streams',
    (e) => e.randomMatrix({ rows: 1, cols: 2, streams: 7 }),
    /^expected an array of streams, got 7$/,
  ],
  [
    'type',
    'randomMatrix',
    'streams',
    (e) => e.randomMatrix({ rows: 3, cols: 4, streams: [5, true, 7] }),
    /^entry 1 is true \(expected numbers\)$/,
  ],
  ['type', 'queryProbe', 'tau', (e) => e.queryProbe({ tau: -1 }), /^expected a finite number > 0, got -1$/],
  // ---- pathological lengths: refused before any entry is read
  [
    'length',
    'saturationSweep',
    'dks',
    (e) => e.saturationSweep({ dks: sparse() }),
    /^expected at most 64 d_k values, got 4294967295$/,
  ],
  [
    'length',
    'attend',
    'query',
    (e) => e.attend(att({ query: sparse() })),
    /^expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 4294967295: attend keeps five/,
  ],
  [
    'length',
    'softmax',
    'scores',
    (e) => e.softmax({ scores: sparse() }),
    /^expected 1 to 2048 columns \(engine\.limits\.maxTokens\), got 4294967295$/,
  ],
  [
    'length',
    'softmaxJacobian',
    'p',
    (e) => e.softmaxJacobian(sparse()),
    /^expected 1 to 2048 columns \(engine\.limits\.maxTokens\), got 4294967295$/,
  ],
  [
    'length',
    'attend',
    'keyPadding',
    (e) => e.attend(att({ keyPadding: sparse() })),
    /^expected 1 to 2048 columns \(engine\.limits\.maxTokens\), got 4294967295$/,
  ],
  [
    'length',
    'linear',
    'x',
    (e) => e.linear({ x: { rows: 2 ** 31, cols: 2, data: sparse() }, W: ones(1, 2) }),
    /^expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 2147483648$/,
  ],
  [
    'length',
    'attend',
    'key',
    (e) => e.attend(att({ key: [sparse()] })),
    /^expected 1 to 1024 columns \(engine\.limits\.maxDim\), got 4294967295$/,
  ],
  [
    'length',
    'mergeVariance',
    'b.histogram.edges',
    (e) => e.mergeVariance({ b: { raw: {}, scaled: {}, histogram: { edges: sparse() } }, bSamples: 10 }),
    /^expected at most 513 numbers, got 4294967295$/,
  ],
  // ---- sizes past engine.limits
  [
    'limits',
    'attend',
    'query',
    (e) => e.attend(att({ query: { rows: 5000, cols: 3, data: new Float32Array(15000) } })),
    /^expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 5000: attend keeps five \(n_q, n_k\) float32 matrices, which would need 5 × 5000 × 3 × 4 bytes = 293\.0 KiB here; flashAttend computes the same output for up to 16384 tokens/,
  ],
  // one row past the limit (2048 rows pass: tests/js/engine.test.js)
  [
    'limits',
    'attend',
    'query',
    (e) => e.attend(att({ query: { rows: 2049, cols: 3, data: new Float32Array(3 * 2049) } })),
    /^expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 2049: attend keeps five /,
  ],
  [
    'limits',
    'attend',
    'key',
    (e) =>
      e.attend(
        att({
          key: { rows: 2049, cols: 3, data: new Float32Array(3 * 2049) },
          value: { rows: 2049, cols: 2, data: new Float32Array(2 * 2049) },
        }),
      ),
    /^expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 2049: attend keeps five /,
  ],
  [
    'limits',
    'multiHead',
    'heads',
    (e) =>
      e.multiHead(
        mh({
          heads: 64,
          query: { rows: 2048, cols: 64, data: new Float32Array(2048 * 64) },
          key: { rows: 2048, cols: 64, data: new Float32Array(2048 * 64) },
        }),
      ),
    /^heads \* n_q \* n_k = 268435456 is more than 8388608 \(engine\.limits\.maxHeadCells\)$/,
  ],
  // ---- empty sequences
  [
    'empty',
    'attend',
    'query',
    (e) => e.attend(att({ query: [] })),
    /^expected 1 to 2048 rows \(engine\.limits\.maxTokens\), got 0$/,
  ],
  [
    'empty',
    'linear',
    'W',
    (e) => e.linear({ x: ones(1, 2), W: [[]] }),
    /^expected 1 to 1024 columns \(engine\.limits\.maxDim\), got 0$/,
  ],
  ['empty', 'softmaxJacobian', 'p', (e) => e.softmaxJacobian([]), /^expected at least one number, got an empty array$/],
];

// Integer options out of range or of the wrong type, as one table: [class, function, argument,
// call, lowest, highest, the value as the message shows it]; each reads "<argument>: expected an
// integer from <lowest> to <highest>, got <value>".
const INTEGERS = [
  ['type', 'multiHead', 'heads', (e) => e.multiHead(mh({ heads: 2.5 })), 1, 64, '2.5'],
  ['type', 'multiHead', 'heads', (e) => e.multiHead(mh({ heads: '2' })), 1, 64, "'2'"],
  ['type', 'sinusoidal', 'n', (e) => e.sinusoidal({ n: 4n, d: 4 }), 1, 2048, 'a BigInt'],
  ['type', 'varianceExperiment', 'dk', (e) => e.varianceExperiment({ dk: Symbol('dk') }), 1, 1024, 'a symbol'],
  ['type', 'rope', 'first', (e) => e.rope({ x: ones(1, 2), first: -1 }), 0, 1000000, '-1'],
  ['limits', 'multiHead', 'heads', (e) => e.multiHead(mh({ heads: 65 })), 1, 64, '65'],
  ['limits', 'varianceExperiment', 'samples', (e) => e.varianceExperiment({ samples: 2e6 }), 2, 1000000, '2000000'],
  [
    'limits',
    'varianceExperiment',
    'firstSample',
    (e) => e.varianceExperiment({ samples: 1000, firstSample: 999500 }),
    0,
    999000,
    '999500',
  ],
  ['limits', 'varianceExperiment', 'bins', (e) => e.varianceExperiment({ bins: 0 }), 1, 512, '0'],
  ['limits', 'randomMatrix', 'rows', (e) => e.randomMatrix({ rows: 1e6, cols: 4 }), 1, 2048, '1000000'],
  ['limits', 'sinusoidal', 'd', (e) => e.sinusoidal({ n: 4, d: 4096 }), 1, 1024, '4096'],
  ['limits', 'saturationSweep', 'nKeys', (e) => e.saturationSweep({ dks: [4], nKeys: 1000 }), 2, 256, '1000'],
  ['limits', 'queryProbe', 'gumbelSamples', (e) => e.queryProbe({ gumbelSamples: 65 }), 0, 64, '65'],
  ['limits', 'mergeVariance', 'bSamples', (e) => e.mergeVariance({ b: {}, bSamples: 0 }), 1, 1000000, '0'],
];
const quoted = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
for (const [kind, fn, arg, call, lo, hi, got] of INTEGERS)
  CASES.push([kind, fn, arg, call, new RegExp(`^expected an integer from ${lo} to ${hi}, got ${quoted(got)}$`)]);

// ---- GPT-2-family models (engine.loadModel, model.run, model.headScores): asynchronous ----------
// [class, function, argument, call(engine, fixture) -> a promise or a value, expectation]. The
// fixture (catalogue.test.js) is a tiny checkpoint's bytes (tests/golden/gpt2/f32_1x1_d8:
// 1 layer, 1 head, n_embd 8, vocabulary 50, 8 positions) with its config, a live model of it and
// a deleted one. The files below are that checkpoint changed in one place.
const withConfig = (f) => ({ config: f.config });
const tensorsOf = (f) => readSafetensors(f.bytes).tensors;
const rewritten = (f, change) => writeSafetensors(change(tensorsOf(f)));
const nanFirst = (t) => {
  const bytes = t.bytes.slice();
  new DataView(bytes.buffer).setFloat32(0, NaN, true);
  return { ...t, bytes };
};
// A GPT-2 of n_embd 1024 and a vocabulary of 2^20 (wte alone: 4 GiB in float32), as a response
// that ends after its header: the engine must refuse it before it reads or allocates anything.
const tooLarge = () => {
  const d = 1024;
  const shapes = { 'wte.weight': [2 ** 20, d], 'wpe.weight': [8, d], 'ln_f.weight': [d], 'ln_f.bias': [d] };
  for (const [name, shape] of Object.entries({
    'ln_1.weight': [d],
    'ln_1.bias': [d],
    'attn.c_attn.weight': [d, 3 * d],
    'attn.c_attn.bias': [3 * d],
    'attn.c_proj.weight': [d, d],
    'attn.c_proj.bias': [d],
    'ln_2.weight': [d],
    'ln_2.bias': [d],
    'mlp.c_fc.weight': [d, 4 * d],
    'mlp.c_fc.bias': [4 * d],
    'mlp.c_proj.weight': [4 * d, d],
    'mlp.c_proj.bias': [d],
  }))
    shapes[`h.0.${name}`] = shape;
  const tensors = Object.entries(shapes).map(([name, shape]) => ({
    name,
    dtype: 'F32',
    shape,
    length: 4 * shape.reduce((a, b) => a * b, 1),
  }));
  const head = headerBytes(tensors);
  return new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(head);
        controller.close();
      },
    }),
  );
};
const cancelHalfway = (e, f) => {
  const controller = new AbortController();
  return e.loadModel(new Blob([f.bytes]), {
    config: f.config,
    signal: controller.signal,
    onProgress: () => controller.abort(),
  });
};

export const MODEL_CASES = [
  [
    'not a safetensors file',
    'loadModel',
    'source',
    (e, f) =>
      e.loadModel(new TextEncoder().encode('<!DOCTYPE html><html><body>Not found</body></html>'), withConfig(f)),
    /^not a safetensors file \(its first 8 bytes give a header of \d+ bytes; the format allows at most 100000000\)$/,
  ],
  [
    'not a safetensors file',
    'loadModel',
    'source',
    (e, f) => e.loadModel(new Uint8Array([123, 125]), withConfig(f)),
    /^not a safetensors file \(it has 2 bytes; the format starts with an 8-byte header length\)$/,
  ],
  [
    'not a safetensors file',
    'loadModel',
    'source',
    (e, f) => e.loadModel(new Blob([new Uint8Array([16, 0, 0, 0, 0, 0, 0, 0]), '{"wte.weight":1}']), withConfig(f)),
    /^tensor 'wte.weight' is a number in the header \(expected \{ dtype, shape, data_offsets \}\)$/,
  ],
  [
    'not a safetensors file',
    'loadModel',
    'source',
    (e, f) => e.loadModel('model.safetensors', withConfig(f)),
    /^expected a File, Blob, ArrayBuffer, Uint8Array or Response, got 'model.safetensors'$/,
  ],
  [
    'unknown architecture',
    'loadModel',
    'config.model_type',
    (e, f) => e.loadModel(f.bytes, { config: { ...f.config, model_type: 'llama' } }),
    /^expected 'gpt2' \(a GPT-2-family checkpoint\), got 'llama'$/,
  ],
  [
    'unknown architecture',
    'loadModel',
    'source',
    (e, f) =>
      e.loadModel(
        rewritten(f, (ts) => ts.map((t) => ({ ...t, name: `model.${t.name}` }))),
        withConfig(f),
      ),
    /^unexpected tensor 'model\.[a-z_0-9.]+' \(GPT-2 has wte, wpe, /,
  ],
  [
    'unknown architecture',
    'loadModel',
    'config.activation_function',
    (e, f) => e.loadModel(f.bytes, { config: { ...f.config, activation_function: 'relu' } }),
    /^expected 'gelu_new' .*, got 'relu'$/,
  ],
  [
    'missing tensor',
    'loadModel',
    'source',
    (e, f) =>
      e.loadModel(
        rewritten(f, (ts) => ts.filter((t) => t.name !== 'h.0.mlp.c_fc.bias')),
        withConfig(f),
      ),
    /^tensor 'h.0.mlp.c_fc.bias' is missing \(GPT-2 has it; the config has n_layer = 1\)$/,
  ],
  [
    'missing tensor',
    'loadModel',
    'config',
    (e, f) => e.loadModel(f.bytes),
    /^expected the checkpoint's config.json as an object \{ n_layer, n_head, n_embd, n_positions, vocab_size, … \}, got undefined$/,
  ],
  [
    'wrong dtype',
    'loadModel',
    'source',
    (e, f) =>
      e.loadModel(
        rewritten(f, (ts) => ts.map((t) => (t.name === 'wpe.weight' ? { ...t, dtype: 'I32' } : t))),
        withConfig(f),
      ),
    /^tensor 'wpe.weight' has dtype I32 \(expected F32, F16 or BF16\)$/,
  ],
  [
    'wrong shape',
    'loadModel',
    'source',
    (e, f) => e.loadModel(f.bytes, { config: { ...f.config, vocab_size: 60 } }),
    /^tensor 'wte.weight' has shape \[50, 8\], expected \[60, 8\] \(vocab_size, n_embd\) for the config$/,
  ],
  [
    'lying header',
    'loadModel',
    'source',
    (e, f) => e.loadModel(f.bytes.subarray(0, f.bytes.length - 3), withConfig(f)),
    /^tensor '[a-z_0-9.]+' ends at byte \d+ of the data, past the end of the file \(the data has \d+ bytes\)$/,
  ],
  [
    'lying header',
    'loadModel',
    'source',
    (e, f) =>
      e.loadModel(
        writeSafetensors(tensorsOf(f), {
          header: { 'wpe.weight': { dtype: 'F32', shape: [8, 8], data_offsets: [0, 256] } },
        }),
        withConfig(f),
      ),
    /^tensors '[a-z_0-9.]+' at \[\d+, \d+\) and '[a-z_0-9.]+' at \[\d+, \d+\) overlap$/,
  ],
  [
    'lying header',
    'loadModel',
    'source',
    (e, f) =>
      e.loadModel(
        writeSafetensors(tensorsOf(f), {
          header: { 'wte.weight': { dtype: 'F32', shape: [50, 8], data_offsets: [2 ** 53, 2 ** 53 + 1600] } },
        }),
        withConfig(f),
      ),
    /^bytes \[\d+, 9007199254740992\) of the data belong to no tensor \(the format allows no gaps; 'wte.weight' begins at 9007199254740992\)$/,
  ],
  [
    'non-finite',
    'loadModel',
    'source',
    (e, f) =>
      e.loadModel(
        rewritten(f, (ts) => ts.map((t) => (t.name === 'wte.weight' ? nanFirst(t) : t))),
        withConfig(f),
      ),
    /^tensor 'wte.weight' has NaN at row 0, column 0 \(expected finite weights\)$/,
  ],
  [
    'memory',
    'loadModel',
    'source',
    (e) =>
      e.loadModel(tooLarge(), {
        config: { n_layer: 1, n_head: 16, n_embd: 1024, n_positions: 8, vocab_size: 2 ** 20 },
      }),
    /^this checkpoint needs 4\d{3}(\.\d)? MiB of engine memory \(its weights in float32, and a run of 64 tokens\), more than the 4\d{3}(\.\d)? MiB the model module can still have \(it grows to 4096 MiB at most\)$/,
  ],
  ['cancelled', 'loadModel', 'signal', cancelHalfway, /^the load was cancelled after \d+ of \d+ bytes$/],
  [
    'options object',
    'loadModel',
    'onProgress',
    (e, f) => e.loadModel(f.bytes, { config: f.config, onProgress: 1 }),
    /^expected a function/,
  ],
  [
    'too many tokens',
    'model.run',
    'ids',
    (e, f) => f.model.run(new Array(9).fill(1)),
    /^expected at most 8 token ids, got 9$/,
  ],
  [
    'token ids',
    'model.run',
    'ids',
    (e, f) => f.model.run([0, 50]),
    /^entry 1 is 50 \(expected an integer token id from 0 to 49\)$/,
  ],
  [
    'token ids',
    'model.run',
    'ids',
    (e, f) => f.model.run([1.5]),
    /^entry 0 is 1.5 \(expected an integer token id from 0 to 49\)$/,
  ],
  ['token ids', 'model.run', 'ids', (e, f) => f.model.run(['7']), /^entry 0 is '7' \(expected an integer token id\)$/],
  [
    'token ids',
    'model.run',
    'ids',
    (e, f) => f.model.run([]),
    /^expected 1 to 8 tokens \(config.n_positions\), got 0$/,
  ],
  [
    'choice, type',
    'model.run',
    'topK',
    (e, f) => f.model.run([1], { topK: 51 }),
    /^expected an integer from 1 to 50, got 51$/,
  ],
  [
    'choice, type',
    'model.run',
    'head',
    (e, f) => f.model.run([1], { head: [1, 0] }),
    /^expected \[layer, head\] with layer 0 to 0 and head 0 to 0, got \[1, 0\]$/,
  ],
  [
    'choice, type',
    'model.run',
    'ablate',
    (e, f) => f.model.run([1], { ablate: [[0, 2]] }),
    /^entry 0 is \[0, 2\] \(expected \[layer, head\] with layer 0 to 0 and head 0 to 0\)$/,
  ],
  [
    'choice, type',
    'model.run',
    'ablation',
    (e, f) => f.model.run([1], { ablation: 'noise' }),
    /^expected one of 'zero', 'mean', got 'noise'$/,
  ],
  [
    'limits',
    'model.headScores',
    'length',
    (e, f) => f.model.headScores({ length: 5 }),
    /^expected an integer from 2 to 4, got 5$/,
  ],
  [
    'limits',
    'model.headScores',
    'tokens',
    (e, f) => f.model.headScores({ tokens: [3, 3] }),
    /^entry 1 is 3 again \(expected distinct tokens/,
  ],
  ['deleted', 'model.run', 'model.run', (e, f) => f.deleted.run([1]), /^this model has been deleted$/],
  [
    'deleted',
    'model.headScores',
    'model.headScores',
    (e, f) => f.deleted.headScores(),
    /^this model has been deleted$/,
  ],
];
