// How the segments of a stacked bar are told apart: a colour-blind-safe colour (Okabe–Ito,
// then two greys), the text colour that reads on it, and a fill pattern, so that no segment is
// known by its colour alone. Pure: no DOM (tests/js/segments.test.js checks the contrast).

import { SEGMENT_COLORS, BLACK } from './palette.js';

export { SEGMENT_COLORS }; // [background, ink] (./palette.js)

// One pattern per segment, drawn in the segment's ink colour over its background
// (stacked-bar.css: .seg-pattern-<name>). The first segment is plain.
export const SEGMENT_PATTERNS = [
  'solid',
  'stripes',
  'dots',
  'rows',
  'backslash',
  'columns',
  'grid',
  'cross',
  'rings',
  'checks',
];

// Segment k's { background, ink, pattern, patternOpacity } (colours and patterns repeat after
// ten; the pattern is drawn in the ink colour at patternOpacity).
export function segmentStyle(k) {
  const [background, ink] = SEGMENT_COLORS[k % SEGMENT_COLORS.length];
  return {
    background,
    ink,
    pattern: SEGMENT_PATTERNS[k % SEGMENT_PATTERNS.length],
    patternOpacity: ink === BLACK ? 0.45 : 0.55,
  };
}

// ---- the patterns as shapes, for saved figures (views/save.js scenes) -------------------------

// The stylesheet's patterns (stacked-bar.css): families of parallel lines (angle in degrees from
// the x axis, period and width in px), dots and rings on a square lattice, and checks.
const LINES = {
  stripes: [[45, 7, 2]],
  backslash: [[-45, 7, 2]],
  rows: [[0, 6, 2]],
  columns: [[90, 6, 2]],
  grid: [
    [0, 7, 1.5],
    [90, 7, 1.5],
  ],
  cross: [
    [45, 8, 1.5],
    [-45, 8, 1.5],
  ],
};
const r2 = (v) => Math.round(v * 100) / 100;

// The part of the line { p : p·n = c } inside the rectangle, as [x1, y1, x2, y2], or null
// (Liang–Barsky on p = c n + t d, d ⟂ n).
function clipLine(nx, ny, c, x, y, w, h) {
  const px = c * nx,
    py = c * ny,
    dx = -ny,
    dy = nx;
  let lo = -Infinity,
    hi = Infinity;
  for (const [p, d, min, max] of [
    [px, dx, x, x + w],
    [py, dy, y, y + h],
  ]) {
    if (Math.abs(d) < 1e-12) {
      if (p < min || p > max) return null;
    } else {
      const a = (min - p) / d,
        b = (max - p) / d;
      lo = Math.max(lo, Math.min(a, b));
      hi = Math.min(hi, Math.max(a, b));
    }
  }
  return hi > lo ? [px + lo * dx, py + lo * dy, px + hi * dx, py + hi * dy] : null;
}

// Pattern `name` over the rectangle (x, y, w, h) in colour `ink` at `opacity`, as scene items
// ({ t: 'path', d, stroke | fill, sw, opacity }) in absolute coordinates, every shape inside the
// rectangle; [] for 'solid'. Pure.
export function patternShapes(name, x, y, w, h, ink, opacity) {
  const items = [];
  for (const [deg, period, width] of LINES[name] || []) {
    const a = (deg * Math.PI) / 180,
      nx = -Math.sin(a),
      ny = Math.cos(a); // the lines' normal
    const ends = [
      [x, y],
      [x + w, y],
      [x, y + h],
      [x + w, y + h],
    ].map(([u, v]) => u * nx + v * ny);
    const d = [];
    for (let k = Math.ceil(Math.min(...ends) / period); k * period <= Math.max(...ends); k++) {
      const seg = clipLine(nx, ny, k * period, x, y, w, h);
      if (seg) d.push(`M${r2(seg[0])} ${r2(seg[1])}L${r2(seg[2])} ${r2(seg[3])}`);
    }
    if (d.length) items.push({ t: 'path', d: d.join(''), fill: 'none', stroke: ink, sw: width, opacity });
  }
  const lattice = (period, radius, shape) => {
    const d = [];
    for (let cy = y + radius + 0.5; cy + radius <= y + h; cy += period) {
      for (let cx = x + radius + 0.5; cx + radius <= x + w; cx += period) {
        if (cx - radius >= x && cy - radius >= y) d.push(shape(r2(cx), r2(cy)));
      }
    }
    return d.join('');
  };
  const circle = (r) => (cx, cy) => `M${r2(cx - r)} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
  const add = (d, paint) => {
    if (d) items.push({ t: 'path', d, ...paint, opacity });
  };
  if (name === 'dots') add(lattice(7, 2, circle(2)), { fill: ink });
  if (name === 'rings') add(lattice(9, 3, circle(2.4)), { fill: 'none', stroke: ink, sw: 1.2 });
  if (name === 'checks') {
    const d = [];
    for (let j = 0; y + j * 4 < y + h; j++) {
      for (let i = j % 2; x + i * 4 < x + w; i += 2) {
        const u = x + i * 4,
          v = y + j * 4;
        d.push(
          `M${r2(u)} ${r2(v)}h${r2(Math.min(4, x + w - u))}v${r2(Math.min(4, y + h - v))}h${r2(-Math.min(4, x + w - u))}z`,
        );
      }
    }
    add(d.join(''), { fill: ink });
  }
  return items;
}
