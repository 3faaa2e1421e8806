// The pipeline chapter's formulas (web/src/chapters/pipeline/tex.js): tokens escaped for TeX,
// the fill as TeX, and the live formulas filled with given numbers, checked against TeX
// written out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import katex from 'katex';
import { tok, paren, fillTex, generalTex, liveTex } from '../../web/src/chapters/pipeline/tex.js';

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

test("liveTex: the dot product written out term by term, with the engine's sum", () => {
  assert.equal(
    liveTex(s, 'scores', inputs, result, 0, 0, state),
    's_{\\text{猫},\\,\\text{The}} = q_{\\text{猫}}\\cdot k_{\\text{The}} = {1.00\\times3.00} + {(-2.00)\\times4.00} = -5.00',
  );
  assert.equal(
    liveTex(s, 'scaled', inputs, result, 0, 1, state),
    '\\tilde s_{\\text{猫},\\,\\text{cat}} = \\dfrac{q_i\\cdot k_j}{\\sqrt{d_k}} = \\dfrac{0.50}{\\sqrt{2}} = 0.35',
  );
});

test('liveTex: a blocked cell shows the fill; the softmax row and cell', () => {
  assert.equal(liveTex(s, 'masked', inputs, result, 0, 0, state), 'm_{\\text{猫},\\,\\text{The}} = -\\infty');
  assert.equal(
    liveTex(s, 'masked', inputs, result, 0, 1, state),
    'm_{\\text{猫},\\,\\text{cat}} = \\tilde s_{\\text{猫},\\,\\text{cat}} = 0.35',
  );
  const row = liveTex(s, 'weights', inputs, result, 0, -1, state);
  assert.deepEqual(row, [
    'w_{\\text{猫}} = \\operatorname{softmax}([-\\infty,\\allowbreak\\ 0.35]) = [0.000,\\allowbreak\\ 1.000]',
  ]);
  const [cell] = liveTex(s, 'weights', inputs, result, 0, 1, state);
  assert.equal(
    cell,
    'w_{\\text{猫},\\,\\text{cat}} = \\dfrac{e^{\\,0.35 - 0.35}}{\\sum_k e^{\\,m_{ik} - 0.35}} = 1.000',
  );
  assert.equal(
    liveTex(s, 'output', inputs, result, 0, -1, state),
    'o_{\\text{猫}} = 1.00\\,v_{\\text{cat}} = [0.25,\\allowbreak\\ 0.75]',
  );
});
