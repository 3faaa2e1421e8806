// Number formatting of the page: −∞, +∞, NaN, fixed digits, exponents, parsing typed numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fmt,
  tex,
  texVector,
  fmtVector,
  parseNumber,
  parseList,
  nearestStop,
  isFlagged,
  valuesLabel,
  colonAfter,
  commaAfter,
  periodAfter,
} from '../../web/src/text/format.js';

test('fmt: fixed digits with a typographic minus', () => {
  assert.equal(fmt(2.1), '2.10');
  assert.equal(fmt(-0.6), '\u22120.60');
  assert.equal(fmt(0.94864, 3), '0.949');
  assert.equal(fmt(4.2, 0), '4');
  assert.equal(fmt(0), '0.00');
});

test('fmt: infinities and NaN are spelled out', () => {
  assert.equal(fmt(-Infinity), '\u2212\u221e');
  assert.equal(fmt(Infinity), '+\u221e');
  assert.equal(fmt(NaN), 'NaN');
  assert.equal(isFlagged(NaN), true);
  assert.equal(isFlagged(-Infinity), false);
  assert.equal(isFlagged(0), false);
});

test('fmt: a value that rounds to zero carries no sign; tiny and huge values use exponents', () => {
  assert.equal(fmt(-0.001, 2), '\u22121.0e-3');
  assert.equal(fmt(-0.0049, 2), '\u22124.9e-3');
  assert.equal(fmt(-1e9, 2), '\u22121.0e9');
  assert.equal(fmt(123456, 2), '1.2e5');
  assert.equal(fmt(-0), '0.00');
  assert.equal(fmt(-0.004, 1), '\u22124e-3');
});

test('tex: KaTeX spellings', () => {
  assert.equal(tex(-Infinity), '-\\infty');
  assert.equal(tex(Infinity), '+\\infty');
  assert.match(tex(NaN), /\\text\{NaN\}/);
  assert.equal(tex(-2.5), '-2.50');
  assert.equal(tex(-1e9), '-1.0\\times 10^{9}');
  assert.equal(texVector([1, -Infinity]), '[1.00,\\ -\\infty]');
  assert.equal(texVector([1, 2, 3], 0, 2), '[1,\\ 2,\\ \\ldots]');
  assert.equal(fmtVector([0.5, NaN], 1), '[0.5, NaN]');
});

test('parseNumber: what a learner may type', () => {
  assert.equal(parseNumber('2.6'), 2.6);
  assert.equal(parseNumber(' -3 '), -3);
  assert.equal(parseNumber('\u22121.5'), -1.5);
  assert.equal(parseNumber('0,25'), 0.25);
  assert.equal(parseNumber('.5'), 0.5);
  assert.equal(parseNumber('1e-3'), 0.001);
  for (const bad of ['', 'abc', '1.2.3', '--1', '1e999', 'Infinity', 'NaN', '0x10', '1,2,3']) {
    assert.ok(Number.isNaN(parseNumber(bad)), `"${bad}" should not parse`);
  }
  assert.ok(Number.isNaN(parseNumber(undefined)));
});

test('parseList: a row of numbers, its count checked, the first bad item named', () => {
  assert.deepEqual(parseList('2.6, 1.2, 6.1, 2'), { values: [2.6, 1.2, 6.1, 2] });
  assert.deepEqual(parseList('1 \u22122；3'.replace('；', ';')), { values: [1, -2, 3] });
  assert.deepEqual(parseList('1，2'), { values: [1, 2] });
  assert.deepEqual(parseList('1, two, 3'), { error: 'number', at: 1 });
  assert.deepEqual(parseList(' '), { error: 'count' });
  assert.deepEqual(parseList('1,2,3', { max: 2 }), { error: 'count' });
});

test('nearestStop: the nearest stop on a log scale', () => {
  const stops = [0.1, 0.2, 0.5, 1, 2, 5, 10];
  assert.equal(nearestStop(stops, 1), 3);
  assert.equal(nearestStop(stops, 0.3), 1); // log distance: 0.3 is nearer 0.2 than 0.5
  assert.equal(nearestStop(stops, 0.01), 0);
  assert.equal(nearestStop(stops, 100), 6);
});

test('valuesLabel: punctuation follows the caption’s language, not the tokens’', () => {
  assert.equal(
    valuesLabel('Weights of the query “猫”', ['猫', '追'], [0.25, 0.75]),
    'Weights of the query “猫”: 猫 0.25, 追 0.75',
  );
  assert.equal(valuesLabel('“猫”的注意力权重', ['猫', '追'], [0.25, 0.75], 3), '“猫”的注意力权重：猫 0.250，追 0.750');
  assert.equal(
    valuesLabel('softmax 权重在总额 1 中的份额（T = 1）', ['s1'], [1]),
    'softmax 权重在总额 1 中的份额（T = 1）：s1 1.00',
  );
  assert.deepEqual([colonAfter('区间'), commaAfter('区间'), periodAfter('方差')], ['：', '，', '。']);
  assert.deepEqual([colonAfter('bins'), commaAfter('“猫”'), periodAfter('d_k')], [': ', ', ', '. ']);
});

test('fmt agrees with toFixed/toExponential, written out here, over a sweep of magnitudes', async () => {
  const { fmt } = await import('../../web/src/text/format.js');
  const ref = (x, digits) => {
    const a = Math.abs(x);
    const s =
      a !== 0 && (a >= 1e5 || a < 0.5 * 10 ** -digits)
        ? a.toExponential(Math.max(0, Math.min(digits, 2) - 1)).replace('e+', 'e')
        : a.toFixed(digits);
    return x < 0 && /[1-9]/.test(s) ? '\u2212' + s : s;
  };
  let n = 0;
  for (let e = -12; e <= 12; e += 0.37) {
    for (const sign of [1, -1]) {
      for (const digits of [0, 1, 2, 3, 4]) {
        const x = sign * 10 ** e * 1.2345;
        assert.equal(fmt(x, digits), ref(x, digits), `${x} with ${digits} digits`);
        n++;
      }
    }
  }
  assert.ok(n > 600);
});

test('fmtInt: thousands separators', async () => {
  const { fmtInt } = await import('../../web/src/text/format.js');
  assert.equal(fmtInt(100000), '100,000');
  assert.equal(fmtInt(1000000), '1,000,000');
  assert.equal(fmtInt(999), '999');
  assert.equal(fmtInt(0), '0');
});
