// A heatmap's colours: colour-blind safe palettes as 256-entry lookup tables (viridis for
// sequential values such as weights in [0, 1], RdBu for signed scores: red = positive, blue =
// negative), the colour domain of a matrix, and the tone of one cell: a palette index, or NAN
// (magenta, flagged) or BLOCKED (grey, striped: −∞ or the −1e9 mask fill). The heatmap on screen
// (heatmap.js, heatmap-canvas.js) and its saved scene (heatmap-scene.js) colour cells the same way.

import { scaleLinear } from 'd3-scale';
import { interpolateViridis, interpolateRdBu } from 'd3-scale-chromatic';
import { rgb as toRgb } from 'd3-color';
import { BLACK, WHITE } from './palette.js';
import { LIMITS } from '../engine/choices.js';

const BLOCKED_RGB = [200, 200, 200];
const NAN_RGB = [220, 40, 160];
// |x| at or beyond a tenth of the core's large negative mask fill (−1e9) is drawn like a blocked cell
const HUGE = -LIMITS.largeNegativeFill / 10;

// A CSS colour ("#rrggbb", "rgb(r, g, b)", a name) -> [r, g, b].
function parseColor(c) {
  const { r, g, b } = toRgb(c);
  return [r, g, b];
}

// Black or white text, whichever contrasts more with the background (WCAG 2 relative
// luminance of the sRGB colour).
function textColor([r, g, b]) {
  const lin = (v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const L = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return (L + 0.05) / 0.05 > 1.05 / (L + 0.05) ? BLACK : WHITE;
}

// 256-entry lookup tables (colour and its text colour) of an interpolator on [0, 1].
function palette(interp) {
  const rgb = Array.from({ length: 256 }, (_, k) => parseColor(interp(k / 255)));
  return { interp, rgb, text: rgb.map(textColor) };
}
export const PALETTES = {
  sequential: palette(interpolateViridis),
  diverging: palette((t) => interpolateRdBu(1 - t)),
};

// The colour domain of a matrix: min..max for sequential, symmetric around 0 for diverging.
export function autoDomain(data, kind) {
  let lo = Infinity,
    hi = -Infinity;
  for (const x of data) {
    if (!Number.isFinite(x) || Math.abs(x) >= HUGE) continue;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (lo === Infinity) {
    lo = 0;
    hi = 1;
  }
  if (kind === 'diverging') {
    // Symmetric, rounded out to a nice number so small changes keep the same colours and legend.
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1; // all zeros: a unit scale
    return scaleLinear().domain([-m, m]).nice(10).domain();
  }
  if (hi - lo < 1e-9) hi = lo + 1;
  return [lo, hi];
}

// The tone of a value x on the domain starting at lo and spanning span: a palette index 0..255,
// or NAN, or BLOCKED.
export const NAN = -1;
export const BLOCKED = -2;
export function tone(x, lo, span) {
  if (Number.isNaN(x)) return NAN;
  if (!Number.isFinite(x) || Math.abs(x) >= HUGE) return BLOCKED;
  return Math.round(Math.min(1, Math.max(0, (x - lo) / span)) * 255);
}
// A tone's fill [r, g, b] and its text colour in the palette pal.
export const toneRgb = (pal, t) => (t === NAN ? NAN_RGB : t === BLOCKED ? BLOCKED_RGB : pal.rgb[t]);
export const toneInk = (pal, t) => (t === NAN ? WHITE : t === BLOCKED ? BLACK : pal.text[t]);
