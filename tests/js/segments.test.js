// The stacked bars' segment styles: every text colour reads on its segment (WCAG 2 contrast,
// computed here from the sRGB definition), and colours and patterns are all different.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SEGMENT_COLORS, SEGMENT_PATTERNS, segmentStyle } from '../../web/src/views/segments.js';

// WCAG 2 relative luminance of "#rgb" or "#rrggbb".
function luminance(hex) {
  const h = hex.length === 4 ? hex.slice(1).split('').map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

test('contrast: the known values of the formula', () => {
  assert.equal(Math.round(contrast('#000', '#fff') * 100) / 100, 21);
  // white on #009E73 is the 3.42:1 that axe reported
  assert.equal(Math.round(contrast('#fff', '#009E73') * 100) / 100, 3.42);
});

test('every segment’s text has at least 4.5:1 contrast on it', () => {
  for (const [bg, ink] of SEGMENT_COLORS) assert.ok(contrast(bg, ink) >= 4.5, `${ink} on ${bg}: ${contrast(bg, ink).toFixed(2)}:1`);
});

test('ten different colours and ten different patterns, repeating after ten', () => {
  assert.equal(new Set(SEGMENT_COLORS.map(([bg]) => bg.toLowerCase())).size, 10);
  assert.equal(new Set(SEGMENT_PATTERNS).size, 10);
  assert.deepEqual(segmentStyle(12), segmentStyle(2));
  assert.notDeepEqual(segmentStyle(1), segmentStyle(2));
});
