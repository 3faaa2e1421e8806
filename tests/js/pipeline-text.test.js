// The pipeline's setting-dependent sentences (web/src/chapters/pipeline/text.js), fed with what
// the real engine returns for every fill × stable combination. The expected outcome of each
// combination is written out here from the float32 arithmetic (exp(−∞) = 0, exp(−1e9) underflows,
// 0 is an ordinary score, 0/0 = NaN, and the engine's own zero rule for an empty row with −∞ and the
// stable softmax) and checked against the engine's numbers first, so a sentence can only pass
// if it names what the engine actually returned.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../web/src/engine.js';
import { maskedStep, weightsStep, blockedNote, textOf } from '../../web/src/chapters/pipeline/text.js';
import { rowKind } from '../../web/src/lesson/rows.js';
import { gumbelCompare } from '../../web/src/chapters/softmax/logic.js';
import strings from '../../web/src/chapters/pipeline/strings.js';
import softmaxStrings from '../../web/src/chapters/softmax/strings.js';
import { lookup } from '../../web/src/text/i18n.js';
import { fmt } from '../../web/src/text/format.js';

// How the page writes each fill's value (written here, not imported from the code under test).
const FILL_SHOWN = { 'neg-inf': '−∞', 'large-negative': '−1e9', zero: '0' };

let engine;
before(async () => {
  engine = await loadEngine();
});

// 猫 追 老鼠 attending to itself, causal, with the first key marked as padding: query 0 (猫) may
// see nothing (its only key is padding), queries 1 and 2 keep keys they may see.
const TOKENS = ['猫', '追', '老鼠'];
const X = [
  [1, 0, 0, 1],
  [0, 1, 0, 0],
  [0, 0, 1, 1],
];
const args = (maskFill, stable) => ({
  query: X,
  key: X,
  value: [
    [1, 2],
    [3, 4],
    [5, 9],
  ],
  causal: true,
  keyPadding: [true, false, false],
  maskFill,
  stable,
});
const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
const keysOf = (parts) => parts.map(([k]) => k);
const COMBOS = [
  // fill, stable, what the empty row 猫 gets, what the other blocked cells get
  { fill: 'neg-inf', stable: true, empty: 'zero', others: 'zero' },
  { fill: 'neg-inf', stable: false, empty: 'nan', others: 'zero' },
  { fill: 'large-negative', stable: true, empty: 'uniform', others: 'zero' },
  { fill: 'large-negative', stable: false, empty: 'nan', others: 'zero' },
  { fill: 'zero', stable: true, empty: 'uniform', others: 'leak' },
  { fill: 'zero', stable: false, empty: 'uniform', others: 'leak' },
];

for (const c of COMBOS) {
  test(`fill ${c.fill}, ${c.stable ? 'stable' : 'naive'} softmax: the mask and softmax steps name what the engine returned`, () => {
    const r = engine.attend(args(c.fill, c.stable));
    const state = { fill: c.fill, stable: c.stable };
    // What the engine returned, against the arithmetic.
    assert.deepEqual(r.fullyMaskedRows, [0]);
    const empty = rowOf(r.weights, 0);
    if (c.empty === 'zero') assert.deepEqual(empty, [0, 0, 0]);
    if (c.empty === 'nan') assert.ok(empty.every(Number.isNaN));
    if (c.empty === 'uniform') empty.forEach((w) => assert.ok(Math.abs(w - 1 / 3) < 1e-6));
    // Blocked outside the empty row: (追, 猫 padding), (追, 老鼠 future), (老鼠, 猫 padding).
    const others = [
      [1, 0],
      [1, 2],
      [2, 0],
    ].map(([i, j]) => r.weights.data[i * 3 + j]);
    if (c.others === 'zero') assert.deepEqual(others, [0, 0, 0]);
    else others.forEach((w) => assert.ok(w > 0.05 && w < 1, `leak ${w}`));

    // Step 3: 9 cells blocked; the sentences say what their weights are.
    const masked = maskedStep(state, r, fmt);
    assert.deepEqual(masked.slice(0, 2), [
      ['explain.masked', { fill: FILL_SHOWN[c.fill] }],
      [`masked.fill.${c.fill}`, {}],
    ]);
    assert.deepEqual(masked[2], ['masked.count', { n: 6 }]);
    const want = {
      'zero/zero': [['masked.allZero', {}]],
      'nan/zero': [
        ['masked.someZero', { k: 3 }],
        ['masked.nan', { k: 3 }],
      ],
      'uniform/zero': [
        ['masked.someZero', { k: 3 }],
        ['masked.leak', { k: 3, max: fmt(empty[0], 3) }],
      ],
      'uniform/leak': [['masked.leak', { k: 6, max: fmt(Math.max(...others, ...empty), 3) }]],
    }[`${c.empty}/${c.others}`];
    assert.deepEqual(masked.slice(3), want);

    // Step 4: stable or naive as ticked, the empty row as returned, then entropy.
    const weights = weightsStep(state, r, TOKENS);
    const emptyKey = { zero: 'weights.emptyZero', nan: 'weights.emptyNan', uniform: 'weights.emptyUniform' }[c.empty];
    assert.deepEqual(keysOf(weights), [c.stable ? 'weights.stable' : 'weights.naive', emptyKey, 'weights.entropy']);
    assert.deepEqual(weights[1][1].list, ['猫']);

    // The note for the selected row 猫, on every step.
    for (const stage of ['masked', 'weights', 'output']) {
      const note = blockedNote(state, r, stage, 0, 1, TOKENS, TOKENS, fmt);
      assert.deepEqual(keysOf(note), [`fullyMasked.${c.empty}`]);
    }
    // A blocked cell of a row that keeps keys: 追 → 老鼠 (the future).
    const cell = blockedNote(state, r, 'masked', 1, 2, TOKENS, TOKENS, fmt);
    assert.deepEqual(cell, [
      [
        c.others === 'zero' ? 'blocked.zero' : 'blocked.leak',
        { q: '追', k: '老鼠', fill: FILL_SHOWN[c.fill], w: fmt(others[1], 3) },
      ],
    ]);
    // An allowed cell has no such note; nor does the weights step for a row with keys left.
    assert.equal(blockedNote(state, r, 'masked', 1, 1, TOKENS, TOKENS, fmt), null);
    assert.equal(blockedNote(state, r, 'weights', 1, 2, TOKENS, TOKENS, fmt), null);

    // Both languages: every key exists, every placeholder is filled, the numbers are the engine's.
    for (const lang of ['en', 'zh']) {
      const s = (key, params) => lookup(strings, lang, key, params);
      for (const parts of [masked, weights, cell, blockedNote(state, r, 'masked', 0, 0, TOKENS, TOKENS, fmt)]) {
        for (const [key] of parts) assert.ok(strings[lang][key] !== undefined, `${lang}: ${key}`);
        const text = textOf(s, lang, parts);
        assert.doesNotMatch(text, /\{\w+\}/, `${lang}: unfilled placeholder in ${text}`);
        assert.doesNotMatch(text, /undefined|NaN NaN/);
      }
      const text = textOf(s, lang, masked);
      assert.ok(text.includes(FILL_SHOWN[c.fill]), `${lang}: names the fill: ${text}`);
      if (c.others === 'leak' || c.empty === 'uniform')
        assert.ok(text.includes(want.at(-1)[1].max), `${lang}: names the largest leak`);
    }
    // English wording of the outcome, so a changed key cannot hide a wrong claim.
    const en = (parts) => textOf((k, p) => lookup(strings, 'en', k, p), 'en', parts);
    const note = en(blockedNote(state, r, 'masked', 0, 0, TOKENS, TOKENS, fmt));
    if (c.empty === 'zero') assert.match(note, /this engine’s own rule it gets zero weights and a zero output/);
    if (c.empty === 'nan') assert.match(note, /weights and its output are NaN/);
    if (c.empty === 'uniform') assert.match(note, /each key gets 0\.333, and the output is the mean of all the Values/);
    assert.match(
      en(weights),
      c.stable ? /engine subtracts the row’s largest score/ : /takes the exponentials of the scores as they are/,
    );
    assert.doesNotMatch(en(weights), c.stable ? /as they are/ : /subtracts/);
  });
}

test('a row that overflows in the naive softmax is named as NaN, not as an empty row', () => {
  const r = engine.attend({
    query: [
      [100, 0],
      [0.1, 0],
    ],
    key: [
      [100, 0],
      [0, 1],
    ],
    value: [[1], [2]],
    score: 'dot',
    stable: false,
  });
  assert.deepEqual(rowOf(r.weights, 0), [NaN, 0], 'exp(10000) overflows: ∞ / ∞ and 1 / ∞');
  assert.ok(rowOf(r.weights, 1).every(Number.isFinite));
  const parts = weightsStep({ fill: 'neg-inf', stable: false }, r, ['a', 'b']);
  assert.deepEqual(parts, [
    ['weights.naive', {}],
    ['weights.overflowNan', { list: ['a'], fill: '−∞' }],
    ['weights.entropy', {}],
  ]);
  assert.equal(
    textOf((k, p) => lookup(strings, 'zh', k, p), 'zh', parts.slice(1, 2)),
    '“a”的权重算出了 NaN：有指数项溢出成了 ∞，或者所有指数项都下溢成了 0。',
  );
  // Scores of 88 and 88.2: each exponential is finite, their sum is not, so the row is all zeros.
  const zero = engine.attend({
    query: [
      [8, 0],
      [0.1, 0],
    ],
    key: [
      [11, 0],
      [11.025, 0],
    ],
    value: [[1], [2]],
    score: 'dot',
    stable: false,
  });
  assert.deepEqual(rowOf(zero.weights, 0), [0, 0], 'e / ∞ = 0');
  assert.equal(zero.overflow, true);
  assert.deepEqual(weightsStep({ fill: 'neg-inf', stable: false }, zero, ['a', 'b']), [
    ['weights.naive', {}],
    ['weights.overflowZero', { list: ['a'], fill: '−∞' }],
    ['weights.entropy', {}],
  ]);
  // Stable, the same row is finite and nothing is said about NaN.
  const ok = engine.attend({
    query: [
      [100, 0],
      [0.1, 0],
    ],
    key: [
      [100, 0],
      [0, 1],
    ],
    value: [[1], [2]],
    score: 'dot',
  });
  assert.deepEqual(keysOf(weightsStep({ fill: 'neg-inf', stable: true }, ok, ['a', 'b'])), [
    'weights.stable',
    'weights.entropy',
  ]);
  // No mask at all: the mask step says it changes nothing.
  assert.deepEqual(maskedStep({ fill: 'neg-inf', stable: true }, ok, fmt).at(-1), ['masked.none', {}]);
});

test('rowKind tells an all-NaN, a partly NaN, a zero, a uniform and any other row apart', () => {
  assert.equal(rowKind([NaN, NaN]), 'nan');
  assert.equal(rowKind([NaN, 0.5]), 'nanOther');
  assert.equal(rowKind([0, 0, 0]), 'zero');
  assert.equal(rowKind([0.25, 0.25, 0.25, 0.25]), 'uniform');
  assert.equal(rowKind([0.7, 0.3]), 'other');
});

test('lists and sentences are joined the way each language writes them', () => {
  const parts = [
    ['weights.emptyNan', { list: ['猫', '追'] }],
    ['weights.entropy', {}],
  ];
  const en = textOf((k, p) => lookup(strings, 'en', k, p), 'en', parts);
  const zh = textOf((k, p) => lookup(strings, 'zh', k, p), 'zh', parts);
  assert.ok(
    en.startsWith('Every key is blocked for “猫”, “追”: every exponential is 0, and 0 / 0 = NaN. The entropy'),
    en,
  );
  assert.ok(zh.startsWith('“猫”、“追”的所有 Key 都被屏蔽了：每个指数项都是 0，而 0 / 0 = NaN。一行权重的熵'), zh);
});

test('the Gumbel sentence compares with the soft row only when it uses T = 1', () => {
  assert.deepEqual(gumbelCompare(1), ['gumbel.sameT', {}]);
  assert.deepEqual(gumbelCompare(0.5), ['gumbel.otherT', { T: 0.5 }]);
  for (const lang of ['en', 'zh']) {
    assert.match(lookup(softmaxStrings, lang, ...gumbelCompare(2)), /T = 2\b/);
    assert.doesNotMatch(lookup(softmaxStrings, lang, ...gumbelCompare(1)), /\{/);
  }
  // The claim itself: the winner of softmax((s + g) / τ) does not depend on τ, so the engine's
  // draws at two temperatures with one seed pick the same positions.
  const scores = Array.from({ length: 64 }, () => [2.6, 1.2, 6.1, 2]);
  const pick = (tau) => {
    const m = engine.gumbelSoftmax({ scores, tau, seed: 7 });
    return Array.from({ length: m.rows }, (_, i) => {
      const w = rowOf(m, i);
      return w.indexOf(Math.max(...w));
    });
  };
  assert.deepEqual(pick(0.05), pick(5));
});
