// Number formatting of the page: −∞, +∞, NaN, fixed digits, exponents, parsing typed numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { format } from 'd3-format';
import katex from 'katex';
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
import { MACROS } from '../../web/src/views/formula.js';

test('fmt: fixed digits with a typographic minus', () => {
  assert.equal(fmt(2.1), '2.10');
  assert.equal(fmt(-0.6), '\u22120.60');
  assert.equal(fmt(0.94864, 3), '0.949');
  assert.equal(fmt(4.2, 0), '4');
  assert.equal(fmt(0), '0.00');
});

test('fmt: fixed decimals read exactly as d3-format writes them, over float32 values of every size', () => {
  const xs = [0, -0, 0.005, -0.005, 0.015, -0.0149999, 0.5, -0.5, 2.675, -1.005, 99999.994, -99999.996, 1e20, -3e21];
  let seed = 7;
  for (let k = 0; k < 20000; k++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const exponent = (seed % 29) - 14; // 1e-14 .. 1e14
    xs.push(Math.fround(((seed / 2 ** 32) * 2 - 1) * 10 ** exponent));
  }
  let fixed = 0; // the values fmt shows in fixed form (the others it shows with an exponent)
  for (const digits of [0, 1, 2, 3, 4]) {
    const d3 = format(`.${digits}f`);
    for (const x of xs) {
      const shown = fmt(x, digits);
      if (shown.includes('e')) continue;
      assert.equal(shown, d3(x), `${x} to ${digits}`);
      fixed += 1;
    }
  }
  assert.ok(fixed > 0.2 * 5 * xs.length, `${fixed} values in fixed form`);
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
  assert.equal(tex(-2.5), '-2.50');
  assert.equal(tex(-1e9), '-1.0\\times 10^{9}');
  assert.equal(texVector([1, -Infinity]), '[1.00,\\ -\\infty]');
  assert.equal(texVector([1, 2, 3], 0, 2), '[1,\\ 2,\\ \\ldots]');
  assert.equal(fmtVector([0.5, NaN], 1), '[0.5, NaN]');
});

// Text knows no view: NaN is the macro \NaN, which the formula view defines (NaN in the palette's
// colour). A formula's TeX holds no hex colour, whose digits the view would take for numbers to
// set in place (\textcolor{#b3003b} read as the number 3003).
test('tex: NaN is \\NaN, which the formula view draws as NaN in red', () => {
  assert.equal(tex(NaN), '\\NaN');
  assert.equal(texVector([NaN, 0.5]), '[\\NaN,\\ 0.50]');
  const mathml = katex.renderToString(texVector([NaN, 0.5]), { macros: MACROS, throwOnError: true, output: 'mathml' });
  assert.match(mathml, /<mstyle mathcolor="#b3003b"><mtext>NaN<\/mtext><\/mstyle>/);
  assert.match(mathml, /<mn>0.50<\/mn>/);
  assert.throws(() => katex.renderToString(tex(NaN), { throwOnError: true }), /NaN/, 'drawn only with the macros');
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

// fmt's contract, checked without its thresholds: cases written out by hand, then properties
// of every output over a sweep (JavaScript's own toFixed as the independent fixed form).
test('fmt: hand-written cases at the edges of fixed and exponent form', async () => {
  const { fmt } = await import('../../web/src/text/format.js');
  const cases = [
    [0.123456, 2, '0.12'],
    [-0.125, 2, '\u22120.13'],
    [1234.5678, 2, '1234.57'],
    [2.5, 0, '3'],
    [-3, 0, '\u22123'],
    [0, 2, '0.00'],
    [0.005, 2, '0.01'],
    [0.004, 2, '4.0e-3'],
    [-0.0004, 2, '\u22124.0e-4'],
    [0.05, 1, '0.1'],
    [0.049, 1, '5e-2'],
    [-0.0001, 0, '\u22121e-4'],
    [-0.004, 3, '\u22120.004'],
    [1e-9, 4, '1.0e-9'],
    [5e-7, 6, '5.0e-7'], // 5e-7 is a little below 0.5e-6 in binary: fixed, it would read 0.000000
    [4e-7, 6, '4.0e-7'],
    [99999.4, 0, '99999'],
    [99999.996, 2, '1.0e5'], // fixed, it would read 100000.00
    [100000, 2, '1.0e5'],
    [123456, 1, '1e5'],
    [-1e9, 2, '\u22121.0e9'],
    [NaN, 2, 'NaN'],
    [Infinity, 2, '+\u221e'],
    [-Infinity, 2, '\u2212\u221e'],
    [null, 2, ''],
  ];
  for (const [x, digits, want] of cases) assert.equal(fmt(x, digits), want, `fmt(${x}, ${digits})`);
});

test('fmt over a sweep of magnitudes: exact decimals, within half a unit shown, never a false zero', async () => {
  const { fmt } = await import('../../web/src/text/format.js');
  const value = (s) => Number(s.replace('\u2212', '-'));
  let n = 0;
  for (let e = -12; e <= 12; e += 0.37) {
    for (const sign of [1, -1]) {
      for (const digits of [0, 1, 2, 3, 4]) {
        const x = sign * 10 ** e * 1.2345;
        const s = fmt(x, digits);
        const what = `fmt(${x}, ${digits}) = ${s}`;
        assert.ok(!s.startsWith('-'), `${what}: the typographic minus`);
        assert.equal(s.startsWith('\u2212'), x < 0, `${what}: the sign`);
        const fixed = Math.abs(x).toFixed(digits); // JavaScript's own fixed form
        const fixedReadsZero = !/[1-9]/.test(fixed);
        const fixedTooLong = Number(fixed) >= 1e5;
        if (s.includes('e')) {
          // only where the fixed form would mislead or overflow a cell; 1 or 2 significant digits
          assert.ok(fixedReadsZero || fixedTooLong, `${what}: exponent form without need`);
          const m = /^\u2212?(\d)(?:\.(\d))?e(-?\d+)$/.exec(s);
          assert.ok(m, `${what}: short exponent form`);
          const unit = 10 ** Number(m[3]) * (m[2] === undefined ? 1 : 0.1);
          assert.ok(Math.abs(value(s) - x) <= 0.5 * unit * (1 + 1e-9), `${what}: within half a unit`);
        } else {
          assert.ok(!fixedReadsZero && !fixedTooLong, `${what}: fixed form that reads 0 or reaches 1e5`);
          assert.match(s, digits ? new RegExp(`^\u2212?\\d+\\.\\d{${digits}}$`) : /^\u2212?\d+$/, what);
          assert.equal(s.replace('\u2212', ''), fixed, `${what}: the same digits as toFixed`);
        }
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
