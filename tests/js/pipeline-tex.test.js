// The pipeline chapter's formulas (web/src/chapters/pipeline/tex.js): tokens escaped for TeX,
// the fill as TeX, and the live formulas filled with given numbers, checked against TeX
// written out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import katex from 'katex';
import { tok, paren, fillTex, generalTex, liveTex, num, softmaxTerms } from '../../web/src/chapters/pipeline/tex.js';
import { softmaxRef } from './reference.js';

const mat = (rows, cols, data) => ({ rows, cols, data: Float32Array.from(data) });
const s = (key, params) => `<${key}${params ? JSON.stringify(params) : ''}>`;
const state = { temperature: 1, stable: true, fill: 'neg-inf' };

test('tok: TeX specials escaped, control characters dropped, at most 32 characters', () => {
  assert.equal(tok('猫'), '\\text{猫}');
  assert.equal(tok('a_b{c}$%#&^~'), '\\text{a\\_b\\{c\\}\\$\\%\\#\\&\\textasciicircum{}\\textasciitilde{}}');
  assert.equal(tok('a\\b'), '\\text{a\\textbackslash b}');
  assert.equal(tok('a\u0000b\nc'), '\\text{abc}');
  assert.equal(tok('x'.repeat(100000)), '\\text{' + 'x'.repeat(32) + '…}');
  assert.equal(tok('猫'.repeat(40)), '\\text{' + '猫'.repeat(32) + '…}');
});

// Every printable ASCII character, alone, first, last and twice, as a token in a formula: KaTeX
// parses it (a ^ or ~ at the end of a token was an accent with nothing to put it on) and shows
// the character itself.
test('tok: every printable ASCII character parses in KaTeX and reads as itself', () => {
  for (let code = 0x20; code <= 0x7e; code++) {
    const c = String.fromCharCode(code);
    for (const t of [c, c + 'x', 'x' + c, c + c]) {
      const formula = `s_{${tok(t)},${tok('k')}} = 1`;
      let html;
      assert.doesNotThrow(
        () => {
          html = katex.renderToString(formula, { throwOnError: true, strict: 'ignore', output: 'mathml' });
        },
        `token ${JSON.stringify(t)}: ${formula}`,
      );
      // the MathML annotation keeps the TeX; the text node holds the character
      // (TeX joins a run of spaces into one, and sets quotes and dashes: ' ` -- as ’ ‘ –)
      const typeset = { '’': '&#x27;', '‘': '`', '”': '&#x27;&#x27;', '“': '``', '–': '--', '—': '---' };
      const shown = [...html.matchAll(/<mtext>([^<]*)<\/mtext>/g)]
        .map((m) => m[1])
        .join('')
        .replace(/[ \u00a0]/g, '')
        .replace(/[’‘”“–—]/g, (x) => typeset[x]);
      const entity = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
      const want = t.replace(/ /g, '').replace(/[&<>"']/g, (x) => entity[x]);
      assert.ok(shown.includes(want), `token ${JSON.stringify(t)} shows as ${JSON.stringify(shown)}`);
    }
  }
});

test('paren and fillTex', () => {
  assert.equal(paren('-2.00'), '(-2.00)');
  assert.equal(paren('2.00'), '2.00');
  assert.equal(fillTex('neg-inf'), '-\\infty');
  assert.equal(fillTex('large-negative'), '-10^{9}');
  assert.equal(fillTex('zero'), '0');
});

test('generalTex: the scale names d_k and T; the mask names the fill', () => {
  const inputs = { scoresTyped: false, dk: 16 };
  assert.equal(generalTex(s, 'scaled', inputs, state), '\\tilde S = \\frac{QK^{\\top}}{\\sqrt{d_k}},\\qquad d_k = 16');
  assert.equal(
    generalTex(s, 'scaled', inputs, { ...state, temperature: 2 }),
    '\\tilde S = \\frac{QK^{\\top}}{\\sqrt{d_k}\\,T},\\qquad d_k = 16,\\ T = 2',
  );
  const masked = generalTex(s, 'masked', inputs, { ...state, fill: 'zero' });
  assert.ok(masked.endsWith('\\\\ 0 & \\text{<tex.otherwise>} \\end{cases}'), masked);
  assert.ok(!generalTex(s, 'weights', inputs, { ...state, stable: false }).includes('max'));
});

// One query (猫) against two keys (The, cat), d_k = 2.
const inputs = {
  queryTokens: ['猫'],
  keyTokens: ['The', 'cat'],
  scoresTyped: false,
  dk: 2,
  query: mat(1, 2, [1, -2]),
  key: mat(2, 2, [3, 4, 0.5, 0]),
};
const result = {
  scores: mat(1, 2, [-5, 0.5]),
  scaled: mat(1, 2, [-3.5355, 0.35355]),
  mask: mat(1, 2, [0, 1]),
  masked: mat(1, 2, [-Infinity, 0.35355]),
  weights: mat(1, 2, [0, 1]),
  output: mat(1, 2, [0.25, 0.75]),
};

// liveTex with its numbers written plainly: {\rule[-0.25em]{0em}{1em}\text{−0.30}} as -0.30 (num, tested below).
const plain = (t) =>
  t.replace(/\{\\rule\[-0\.25em\]\{0em\}\{1em\}\\text\{([^{}]*)\}\}/g, (_, x) => x.replace('−', '-'));
const plainTex = (...args) => {
  const t = liveTex(...args);
  return Array.isArray(t) ? t.map(plain) : plain(t);
};

test('num: a number as one text with its sign (powers of ten too), as tall as a parenthesis; ±∞ and NaN as TeX', () => {
  assert.equal(num(0.3), '{\\rule[-0.25em]{0em}{1em}\\text{0.30}}');
  assert.equal(num(-0.3), '{\\rule[-0.25em]{0em}{1em}\\text{−0.30}}');
  assert.equal(num(-0.3, 3, true), '{\\rule[-0.25em]{0em}{1em}\\text{(−0.300)}}');
  assert.equal(num(0.3, 2, true), '{\\rule[-0.25em]{0em}{1em}\\text{0.30}}');
  assert.equal(num(-Infinity, 2, true), '(-\\infty)');
  assert.equal(num(Infinity), '+\\infty');
  assert.ok(num(NaN).includes('NaN'));
  assert.equal(num(-1.5e-9), '{\\rule[-0.25em]{0em}{1em}\\text{−1.5×10⁻⁹}}');
  assert.equal(num(123456, 2, true), '{\\rule[-0.25em]{0em}{1em}\\text{1.2×10⁵}}');
});

test("liveTex: the dot product written out term by term, with the engine's sum", () => {
  assert.equal(
    plainTex(s, 'scores', inputs, result, 0, 0, state),
    's_{\\text{猫},\\,\\text{The}} = q_{\\text{猫}}\\cdot k_{\\text{The}} = {1.00\\times3.00} + {(-2.00)\\times4.00} = -5.00',
  );
  assert.equal(
    plainTex(s, 'scaled', inputs, result, 0, 1, state),
    '\\tilde s_{\\text{猫},\\,\\text{cat}} = \\dfrac{q_i\\cdot k_j}{\\sqrt{d_k}} = \\dfrac{0.50}{\\sqrt{2}} = 0.35',
  );
});

test('liveTex: a blocked cell shows the fill; the softmax row and cell', () => {
  assert.equal(plainTex(s, 'masked', inputs, result, 0, 0, state), 'm_{\\text{猫},\\,\\text{The}} = -\\infty');
  assert.equal(
    plainTex(s, 'masked', inputs, result, 0, 1, state),
    'm_{\\text{猫},\\,\\text{cat}} = \\tilde s_{\\text{猫},\\,\\text{cat}} = 0.35',
  );
  const row = plainTex(s, 'weights', inputs, result, 0, -1, state);
  assert.deepEqual(row, [
    'w_{\\text{猫}} = \\operatorname{softmax}([-\\infty,\\allowbreak\\ 0.35]) = [0.000,\\allowbreak\\ 1.000]',
  ]);
  const [cell] = plainTex(s, 'weights', inputs, result, 0, 1, state);
  assert.equal(
    cell,
    'w_{\\text{猫},\\,\\text{cat}} = \\dfrac{e^{\\,0.35 - 0.35}}{\\sum_k e^{\\,m_{ik} - 0.35}}' +
      ' = \\dfrac{1.0000}{1.000} = 1.000',
  );
  assert.equal(
    plainTex(s, 'output', inputs, result, 0, -1, state),
    'o_{\\text{猫}} = 1.00\\,v_{\\text{cat}} = [0.25,\\allowbreak\\ 0.75]',
  );
});

// The softmax cell's formula shows the value of its numerator and of the row's sum, so the
// learner can redo the division: each shown number equals a double-precision reference
// (e^(m_j − max) and Σ_k e^(m_k − max) of the same row) to the digits shown, and the weight
// shown is the reference softmax's.
test('liveTex: the softmax cell’s numerator and sum have the values of a double-precision reference', () => {
  const row = Float32Array.from([-0.3, 2.02, 0.91, -Infinity, -1.47]);
  const ref = softmaxRef(Array.from(row));
  const top = Math.max(...row);
  const refSum = Array.from(row).reduce((a, x) => a + Math.exp(x - top), 0);
  const keys = ['a', 'b', 'c', 'd', 'e'];
  const res = {
    ...result,
    masked: mat(1, 5, row),
    weights: mat(1, 5, ref),
  };
  const inp = { ...inputs, keyTokens: keys };
  const num = (t) => Number(t.replace('\\infty', 'Infinity'));
  for (let j = 0; j < row.length; j++) {
    const [cell] = plainTex(s, 'weights', inp, res, 0, j, state);
    const m = /\\dfrac\{([^{}]+)\}\{([^{}]+)\} = ([^ ]+)$/.exec(cell);
    assert.ok(m, `cell ${j}: ${cell} ends with numerator / sum = weight`);
    const [shownNum, shownSum, shownW] = m.slice(1).map(num);
    const refNum = Math.exp(row[j] - top);
    assert.ok(Math.abs(shownNum - refNum) <= 0.5e-4 + 1e-9, `cell ${j}: numerator ${shownNum} vs ${refNum}`);
    assert.ok(Math.abs(shownSum - refSum) <= 0.5e-3 + 1e-9, `cell ${j}: sum ${shownSum} vs ${refSum}`);
    assert.ok(Math.abs(shownW - ref[j]) <= 0.5e-3 + 1e-9, `cell ${j}: weight ${shownW} vs ${ref[j]}`);
    // the division of the shown numbers gives the shown weight (to the rounding of the shown digits)
    assert.ok(Math.abs(shownNum / shownSum - shownW) <= 1e-3, `cell ${j}: ${shownNum} / ${shownSum} vs ${shownW}`);
  }
  assert.ok(refSum > 1.4, 'the row has a sum worth reading');
});

test('softmaxTerms: the row max, a numerator and the sum; float32 overflow in the naive softmax; a blocked row', () => {
  const row = [1, 3, -Infinity, 2];
  const t = softmaxTerms(row, 0, true);
  assert.equal(t.max, 3);
  const refSum = Math.exp(-2) + 1 + Math.exp(-1);
  assert.ok(Math.abs(t.sum - refSum) <= 1e-6 * refSum, `${t.sum} vs ${refSum}`);
  assert.ok(Math.abs(t.num - Math.exp(-2)) <= 1e-7, `${t.num}`);
  const naive = softmaxTerms([90, 1], 0, false); // e^90 is past float32's largest number
  assert.equal(naive.num, Infinity);
  assert.equal(naive.sum, Infinity);
  assert.ok(Math.abs(softmaxTerms([90, 1], 0, true).sum - (1 + Math.exp(-89))) <= 1e-6);
  assert.equal(softmaxTerms([-Infinity, -Infinity], 0, true), null);
  // a fully blocked row keeps the formula without values
  const blocked = { ...result, masked: mat(1, 2, [-Infinity, -Infinity]), weights: mat(1, 2, [0, 0]) };
  const [cell] = plainTex(s, 'weights', inputs, blocked, 0, 0, state);
  assert.equal(cell.match(/\\dfrac/g).length, 1, cell);
});

test('liveTex: the weighted sum writes its largest five terms first, then the rest as ⋯', () => {
  const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const w = [0.05, 0.3, 0.0046, 0.2, 0.15, 0.1, 0.1954];
  const res = { ...result, weights: mat(1, 7, w), output: mat(1, 2, [0.5, -0.0048]) };
  assert.equal(
    plainTex(s, 'output', { ...inputs, keyTokens: keys }, res, 0, -1, state),
    'o_{\\text{猫}} = 0.30\\,v_{\\text{b}} + 0.20\\,v_{\\text{d}} + 0.20\\,v_{\\text{g}} + 0.15\\,v_{\\text{e}} + ' +
      '0.10\\,v_{\\text{f}} + \\cdots = [0.50,\\allowbreak\\ -4.8×10⁻³]',
  );
});
