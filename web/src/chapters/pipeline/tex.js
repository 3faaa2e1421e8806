// The pipeline chapter's formulas as TeX for KaTeX: the general formula of each step, and the
// live one for the selected cell or row, filled with the engine's numbers. Pure: strings in,
// strings out (tests/js/pipeline-tex.test.js). s(key, params) gives the chapter's words.

import { max } from 'd3-array';
import { MAX_TOKEN_CHARS, rowOf } from '../../lesson/example.js';
import { tex } from '../../text/format.js';
import { FILL_SIGNS } from '../../engine/choices.js';

const VEC_MAX = 6; // entries of a vector written out in a formula (the table has them all)

// TeX specials in text mode: most take a backslash; \ ^ ~ are text symbols of their own (\^ and
// \~ are accents, which need a letter after them: a token ending in one broke the formula).
const TEXT_SPECIALS = { '\\': '\\textbackslash ', '^': '\\textasciicircum{}', '~': '\\textasciitilde{}' };

// TeX of a token (KaTeX \text, with TeX specials escaped; control characters dropped and at
// most MAX_TOKEN_CHARS characters, whatever the caller passes).
export function tok(t) {
  const chars = [...String(t).replace(/[\u0000-\u001f\u007f-\u009f]/g, '')];
  const short = chars.length > MAX_TOKEN_CHARS ? chars.slice(0, MAX_TOKEN_CHARS).join('') + '…' : chars.join('');
  return '\\text{' + short.replace(/[\\{}$&#^_%~]/g, (c) => TEXT_SPECIALS[c] ?? '\\' + c) + '}';
}

// The general formula of a step.
export function generalTex(s, stage, inputs, state) {
  const T = state.temperature !== 1 ? 'T' : '';
  switch (stage) {
    case 'scores':
      return 'S = QK^{\\top},\\qquad s_{ij} = q_i \\cdot k_j = \\sum_{d=1}^{d_k} q_{i,d}\\,k_{j,d}';
    case 'scaled':
      return inputs.scoresTyped
        ? '\\tilde S = S' + (T ? ' / T' : '')
        : `\\tilde S = \\frac{QK^{\\top}}{\\sqrt{d_k}${T ? '\\,T' : ''}},\\qquad d_k = ${inputs.dk}` +
            (T ? `,\\ T = ${state.temperature}` : '');
    case 'masked':
      return (
        `m_{ij} = \\begin{cases} \\tilde s_{ij} & \\text{${s('tex.if')}} \\\\ ` +
        fillTex(state.fill) +
        ` & \\text{${s('tex.otherwise')}} \\end{cases}`
      );
    case 'weights':
      return state.stable
        ? 'w_{ij} = \\frac{e^{\\,m_{ij} - \\max_k m_{ik}}}{\\sum_{k} e^{\\,m_{ik} - \\max_k m_{ik}}}'
        : 'w_{ij} = \\frac{e^{\\,m_{ij}}}{\\sum_{k} e^{\\,m_{ik}}}';
    case 'output':
      return 'o_i = \\sum_{j} w_{ij}\\, v_j,\\qquad O = WV';
    default:
      return '';
  }
}

export function fillTex(fill) {
  return FILL_SIGNS[fill].tex;
}

// A number of a live formula as a text of its own with its sign in it (\text{−0.30}; in a product
// or sum a negative one in parentheses, \text{(−0.30)}; a power of ten as 4.6×10⁻³), as tall and
// deep as a parenthesis (an invisible rule) whatever its sign: formulas that differ only in their
// numbers, signs included, then have one shape and one layout, and the next edit sets the numbers
// in place instead of drawing the formula anew (views/formula.js); nothing moves up or down when
// a sign changes. ±∞ and NaN stay TeX.
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
export function num(x, digits = 2, inSum = false) {
  const t = tex(x, digits);
  const m = /^(-?\d+(?:\.\d+)?)(?:\\times 10\^\{(-?\d+)\})?$/.exec(t);
  if (!m) return inSum ? paren(t) : t;
  const text = m[1].replace('-', '−') + (m[2] ? `×10${[...m[2]].map((c) => SUPERSCRIPT[c]).join('')}` : '');
  return `{\\rule[-0.25em]{0em}{1em}\\text{${inSum && t.startsWith('-') ? `(${text})` : text}}}`;
}

// A vector [a, b, …] of at most VEC_MAX entries, that may break after a comma on a narrow screen.
function vec(values, digits) {
  const all = Array.from(values);
  const shown = all.slice(0, VEC_MAX).map((v) => num(v, digits));
  if (all.length > VEC_MAX) shown.push('\\ldots');
  return `[${shown.join(',\\allowbreak\\ ')}]`;
}

// The formula for the selected cell or row (j < 0: the whole row), filled with the engine's
// numbers; a string, or an array of lines.
export function liveTex(s, stage, inputs, result, i, j, state) {
  const qt = inputs.queryTokens,
    kt = inputs.keyTokens;
  const at = (m, r, c) => m.data[r * m.cols + c];
  const jj = j < 0 ? 0 : j;
  const sub = (a, b) => `_{${tok(a)},\\,${tok(b)}}`;
  switch (stage) {
    case 'scores': {
      if (inputs.scoresTyped)
        return `s${sub(qt[i], kt[jj])} = ${num(at(result.scores, i, jj))}\\quad(\\text{${s('tex.typed')}})`;
      const q = rowOf(inputs.query, i),
        k = rowOf(inputs.key, jj);
      const terms = q.slice(0, 6).map((x, d) => `{${num(x, 2, d > 0)}\\times${num(k[d], 2, true)}}`);
      if (q.length > 6) terms.push('\\cdots');
      return `s${sub(qt[i], kt[jj])} = q_{${tok(qt[i])}}\\cdot k_{${tok(kt[jj])}} = ${terms.join(' + ')} = ${num(at(result.scores, i, jj))}`;
    }
    case 'scaled': {
      const sc = at(result.scores, i, jj),
        scl = at(result.scaled, i, jj);
      const T = state.temperature !== 1 ? `\\,\\times ${state.temperature}` : '';
      if (inputs.scoresTyped) return `\\tilde s${sub(qt[i], kt[jj])} = ${num(scl)}`;
      return `\\tilde s${sub(qt[i], kt[jj])} = \\dfrac{q_i\\cdot k_j}{\\sqrt{d_k}${T}} = \\dfrac{${num(sc)}}{\\sqrt{${inputs.dk}}${T}} = ${num(scl)}`;
    }
    case 'masked': {
      const allowed = at(result.mask, i, jj) !== 0;
      const v = at(result.masked, i, jj);
      return allowed
        ? `m${sub(qt[i], kt[jj])} = \\tilde s${sub(qt[i], kt[jj])} = ${num(v)}`
        : `m${sub(qt[i], kt[jj])} = ${num(v)}`;
    }
    case 'weights': {
      const m = rowOf(result.masked, i);
      const finite = m.filter((x) => !Number.isNaN(x));
      const top = max(finite);
      const w = at(result.weights, i, jj);
      const row = `w_{${tok(qt[i])}} = \\operatorname{softmax}(${vec(m, 2)}) = ${vec(rowOf(result.weights, i), 3)}`;
      // The numerator's and the sum's values, so the learner can redo the division by hand.
      const terms = softmaxTerms(m, jj, state.stable);
      const values = terms ? ` = \\dfrac{${num(terms.num, 4)}}{${num(terms.sum, 3)}}` : '';
      const less = state.stable ? ` - ${num(top, 2, true)}` : '';
      const fraction = `\\dfrac{e^{\\,${num(m[jj], 2, true)}${less}}}{\\sum_k e^{\\,m_{ik}${less}}}`;
      const cell = `w${sub(qt[i], kt[jj])} = ${fraction}${values} = ${num(w, 3)}`;
      return j < 0 ? [row] : [cell, row];
    }
    case 'output': {
      const w = rowOf(result.weights, i);
      // The five largest weights' terms first (the sum in any order is the same).
      const terms = w
        .map((x, k) => ({ x, k }))
        .filter(({ x }) => x !== 0)
        .sort((a, b) => b.x - a.x || a.k - b.k)
        .slice(0, 5)
        .map(({ x, k }) => `${num(x, 2)}\\,v_{${tok(kt[k])}}`);
      if (w.filter((x) => x !== 0).length > 5) terms.push('\\cdots');
      return `o_{${tok(qt[i])}} = ${terms.join(' + ') || '0'} = ${vec(rowOf(result.output, i), 2)}`;
    }
    default:
      return '';
  }
}

// One softmax cell's terms from the engine's masked row m (a Float32Array or numbers): the
// exponential of m_j (less the row max when stable) and the row's sum of those exponentials, so
// that num / sum is the engine's weight w_j. Each step is rounded to float32 as the engine's are,
// so the naive softmax overflows to +∞ where the engine's did. A row with no allowed key (every
// entry −∞) has no terms (the engine gives it zero weights): null.
export function softmaxTerms(m, j, stable = true) {
  const row = Array.from(m).filter((x) => !Number.isNaN(x));
  const top = row.reduce((a, b) => Math.max(a, b), -Infinity);
  if (top === -Infinity) return null;
  const shift = stable ? top : 0;
  const e = (x) => Math.fround(Math.exp(Math.fround(x - shift)));
  const sum = row.reduce((acc, x) => Math.fround(acc + e(x)), 0);
  return { max: top, num: e(m[j]), sum };
}

// Negative numbers in parentheses inside products and sums.
export function paren(t) {
  return t.startsWith('-') ? `(${t})` : t;
}
