// Number formatting for everything the page prints. Pure, no DOM.
// The page shows float32 results from the engine; these helpers only decide how they read.

import { format } from 'd3-format';

const MINUS = '\u2212'; // typographic minus, so "−3" and "−∞" line up with "+∞"

// True when a value needs a warning flag on screen (the arithmetic broke down).
export function isFlagged(x) {
  return Number.isNaN(x);
}

// d3-format formatters by specifier, made once each. d3-format writes the typographic minus
// and drops the sign of a value that rounds to zero ("0.00", not "−0.00").
const formatters = new Map();
function formatter(spec) {
  let f = formatters.get(spec);
  if (!f) formatters.set(spec, (f = format(spec)));
  return f;
}

// A number with `digits` fixed decimals; −∞, +∞ and NaN spelled out; huge or tiny magnitudes
// (like the −1e9 mask fill) in short exponent form so they fit a heatmap cell.
export function fmt(x, digits = 2) {
  if (x === null || x === undefined) return '';
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+\u221e';
  if (x === -Infinity) return MINUS + '\u221e';
  const fixed = fixedText(x, digits);
  // Exponent form where the fixed decimals would read as zero for a value that is not, or
  // reach 100000 (decided on the text itself: 5e-7 is just below 0.5e-6 in binary).
  if (x !== 0 && (!/[1-9]/.test(fixed) || Math.abs(Number(fixed.replace(MINUS, '-'))) >= 1e5)) {
    return formatter(`.${Math.max(0, Math.min(digits, 2) - 1)}e`)(x).replace('e+', 'e');
  }
  return fixed;
}

// x to `digits` fixed decimals as d3-format's `.${digits}f` writes it (toFixed of |x|, the
// typographic minus) wherever fmt shows it, without its parsing and padding: a heatmap prints
// a thousand of these per change. (A value that rounds to zero, which d3-format writes without
// its sign, is shown by fmt in exponent form.)
function fixedText(x, digits) {
  if (!(Math.abs(x) < 1e21)) return formatter(`.${digits}f`)(x); // toFixed writes these in e-form
  const s = Math.abs(x).toFixed(digits);
  return x < 0 ? MINUS + s : s;
}

// A whole number with thousands separators: 100000 -> "100,000".
export function fmtInt(n) {
  return formatter(',d')(n);
}

// The same number as TeX for KaTeX: \infty, a×10^k for exponents, and NaN as the macro \NaN,
// which the view that sets formulas defines (views/formula.js: NaN in its colour).
export function tex(x, digits = 2) {
  if (Number.isNaN(x)) return '\\NaN';
  if (x === Infinity) return '+\\infty';
  if (x === -Infinity) return '-\\infty';
  const s = fmt(x, digits).replace(MINUS, '-');
  const m = /^(-?)([\d.]+)e(-?\d+)$/.exec(s);
  if (m) return `${m[1]}${m[2]}\\times 10^{${m[3]}}`;
  return s;
}

// A vector as TeX: [a, b, c]; past `maxItems` entries the rest is shown as \ldots.
export function texVector(values, digits = 2, maxItems = Infinity) {
  const all = Array.from(values);
  const shown = all.slice(0, maxItems).map((v) => tex(v, digits));
  if (all.length > maxItems) shown.push('\\ldots');
  return '[' + shown.join(',\\ ') + ']';
}

// A vector as plain text: [a, b, c].
export function fmtVector(values, digits = 2) {
  return '[' + Array.from(values, (v) => fmt(v, digits)).join(', ') + ']';
}

// Parses what a learner typed into a number field. Accepts "−" as minus and "," as decimal
// comma; returns NaN for anything that is not a finite number.
// Punctuation after a piece of text, the way the text's language writes it: full-width after
// Chinese ("权重：", "区间，"), half-width after anything else ("Weights: ", "bins, ").
const endsChinese = (text) => /[\u3400-\u9fff\uff00-\uffef]$/.test(String(text));
export const colonAfter = (text) => (endsChinese(text) ? '：' : ': ');
export const commaAfter = (text) => (endsChinese(text) ? '，' : ', ');
export const periodAfter = (text) => (endsChinese(text) ? '。' : '. ');

// A caption and its labelled values as one line for a screen reader, punctuated the way the
// caption's language writes it: "Weights: a 0.50, b 0.50" / "权重：甲 0.50，乙 0.50".
export function valuesLabel(caption, labels, values, digits = 2) {
  const items = Array.from(values, (v, i) => `${labels[i]} ${fmt(v, digits)}`);
  return caption + colonAfter(caption) + items.join(commaAfter(caption));
}

export function parseNumber(text) {
  if (typeof text !== 'string') return NaN;
  const s = text
    .trim()
    .replace(MINUS, '-')
    .replace(/^(-?\d+),(\d+)$/, '$1.$2');
  if (s === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return NaN;
  const x = Number(s);
  return Number.isFinite(x) ? x : NaN;
}

// A comma- or space-separated list of numbers -> { values } or { error: 'count' } (fewer than
// min or more than max items) or { error: 'number', at } (item `at` is not a number).
export function parseList(text, { min = 1, max = 32 } = {}) {
  const parts = text.split(/[,，;\s]+/).filter((p) => p !== '');
  if (parts.length < min || parts.length > max) return { error: 'count' };
  const values = parts.map(parseNumber);
  const bad = values.findIndex(Number.isNaN);
  if (bad >= 0) return { error: 'number', at: bad };
  return { values };
}

// The index of the stop nearest to x on a log scale (a slider that moves over a few round
// values, e.g. temperatures 0.1 … 10). Stops and x are positive.
export function nearestStop(stops, x) {
  let best = 0;
  for (let i = 1; i < stops.length; i++) {
    if (Math.abs(Math.log(stops[i] / x)) < Math.abs(Math.log(stops[best] / x))) best = i;
  }
  return best;
}
