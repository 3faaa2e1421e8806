// Pure parts of the views: log-axis ticks at the powers of the base.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scaleLog } from 'd3-scale';
import { powerTicks } from '../../web/src/views/line-chart.js';

// The powers of `base` within [lo, hi], written out.
function powers(lo, hi, base) {
  const out = [];
  for (let e = -20; e <= 20; e++) {
    const v = base ** e;
    if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(v);
  }
  return out;
}

test('powerTicks: exactly the powers of the base in the domain', () => {
  const cases = [
    [1, 1024, 2],
    [1, 8, 2],
    [2, 512, 2],
    [0.5, 2048, 10],
    [0.01, 1e6, 10],
    [3, 70000, 10],
    [1, 1, 2],
  ];
  for (const [lo, hi, base] of cases) {
    const x = scaleLog().base(base).domain([lo, hi]);
    assert.deepEqual(powerTicks(x), powers(lo, hi, base), `${lo}..${hi} base ${base}`);
  }
});

test('powerTicks: every second power on a narrow chart', () => {
  const x = scaleLog().base(2).domain([1, 1024]);
  assert.deepEqual(powerTicks(x, 2), [1, 4, 16, 64, 256, 1024]);
});
