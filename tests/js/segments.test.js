// The stacked bars' segment styles: every text colour reads on its segment (WCAG 2 contrast,
// computed here from the sRGB definition), and colours and patterns are all different.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SEGMENT_COLORS, SEGMENT_PATTERNS, segmentStyle, patternShapes } from '../../web/src/views/segments.js';

// WCAG 2 relative luminance of "#rgb" or "#rrggbb".
function luminance(hex) {
  const h =
    hex.length === 4
      ? hex
          .slice(1)
          .split('')
          .map((c) => c + c)
          .join('')
      : hex.slice(1);
  const [r, g, b] = [0, 2, 4]
    .map((i) => parseInt(h.slice(i, i + 2), 16) / 255)
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
  for (const [bg, ink] of SEGMENT_COLORS)
    assert.ok(contrast(bg, ink) >= 4.5, `${ink} on ${bg}: ${contrast(bg, ink).toFixed(2)}:1`);
});

test('ten different colours and ten different patterns, repeating after ten', () => {
  assert.equal(new Set(SEGMENT_COLORS.map(([bg]) => bg.toLowerCase())).size, 10);
  assert.equal(new Set(SEGMENT_PATTERNS).size, 10);
  assert.deepEqual(segmentStyle(12), segmentStyle(2));
  assert.notDeepEqual(segmentStyle(1), segmentStyle(2));
});

// Every number of a path's d, as [x, y] pairs of its absolute points (M, L) and, for the
// relative commands the shapes use (a, h, v), the points they reach.
function points(d) {
  const out = [];
  let x = 0,
    y = 0;
  for (const [, cmd, args] of d.matchAll(/([MLahvz])([^MLahvz]*)/g)) {
    const n = args.trim()
      ? args
          .trim()
          .split(/[\s,]+/)
          .map(Number)
      : [];
    if (cmd === 'M' || cmd === 'L') [x, y] = n;
    else if (cmd === 'a') {
      x += n[5];
      y += n[6];
    } else if (cmd === 'h') x += n[0];
    else if (cmd === 'v') y += n[0];
    if (cmd !== 'z') out.push([x, y]);
  }
  return out;
}

test('saved figures: every pattern but solid has shapes, all inside the segment', () => {
  const rects = [
    [8, 30, 120, 34],
    [8.5, 50, 12, 12],
    [300.25, 30, 3, 34],
  ];
  for (const name of SEGMENT_PATTERNS) {
    for (const [x, y, w, h] of rects) {
      const items = patternShapes(name, x, y, w, h, '#000', 0.45);
      if (name === 'solid') {
        assert.deepEqual(items, []);
        continue;
      }
      if (w >= 12) assert.ok(items.length > 0, `${name} on ${w} x ${h}`);
      for (const it of items) {
        assert.equal(it.t, 'path');
        assert.equal(it.opacity, 0.45);
        assert.ok(it.fill === '#000' || it.stroke === '#000');
        const pts = points(it.d);
        assert.ok(pts.length > 0);
        // circles reach their leftmost and rightmost points only; lines end on the edges
        for (const [px, py] of pts)
          assert.ok(
            px >= x - 1e-6 && px <= x + w + 1e-6 && py >= y - 1e-6 && py <= y + h + 1e-6,
            `${name}: (${px}, ${py}) outside ${[x, y, w, h]}`,
          );
      }
    }
  }
});

test('saved figures: line patterns have the stylesheet’s period', () => {
  // rows every 6 px over 60 px: lines at y = 0, 6, ..., 60 (11), each from edge to edge
  const [rows] = patternShapes('rows', 0, 0, 100, 60, '#fff', 0.55);
  const ends = points(rows.d);
  assert.equal(ends.length, 22);
  const lines = [];
  for (let i = 0; i < ends.length; i += 2) lines.push([ends[i], ends[i + 1]].sort((a, b) => a[0] - b[0]));
  lines.sort((a, b) => a[0][1] - b[0][1]);
  assert.deepEqual(
    lines.map(([a, b]) => [...a, ...b]),
    Array.from({ length: 11 }, (_, k) => [0, 6 * k, 100, 6 * k]),
  );
  // 45° stripes every 7 px (measured across the lines): consecutive lines' x on y = 0 differ by 7 √2
  const [stripes] = patternShapes('stripes', 0, 0, 200, 40, '#000', 0.45);
  const onTop = points(stripes.d)
    .filter(([, py]) => py === 0)
    .map(([px]) => px)
    .sort((a, b) => a - b);
  assert.ok(onTop.length > 5);
  for (let i = 1; i < onTop.length; i++) assert.ok(Math.abs(onTop[i] - onTop[i - 1] - 7 * Math.SQRT2) < 0.02);
});
