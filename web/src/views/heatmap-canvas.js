// A heatmap's two canvases: the cells (one pixel per cell, stretched with CSS) and, at screen
// resolution, stripes on blocked cells, a dashed frame on NaN cells and the values when they fit.
// No DOM per cell, so nothing to lay out. Besides the final picture (paintCells, paintOverlay),
// the in-between pictures of a motion from one matrix to another (lookOf, paintBetween): each
// cell's colour and value carried from the look it had to the look it gets.

import { hcl, rgb } from 'd3-color';
import { fmt } from '../text/format.js';
import { BLOCKED, NAN, tone, toneInk, toneRgb } from './heatmap-palette.js';
import { WHITE } from './palette.js';

const FONT = 'sans-serif';

// The cells of matrix in the palette pal over domain, into ctx2d's (cols, rows) canvas. blocked:
// a 0/1 matrix of the same shape (its 0 cells are striped) or null. -> { special: [[k, 'blocked' |
// 'nan']], inks: each cell's text colour }
export function paintCells(ctx2d, matrix, domain, pal, blocked) {
  const { rows, cols } = matrix;
  const img = ctx2d.createImageData(cols, rows);
  const lo = domain[0],
    span = domain[1] - domain[0] || 1;
  const special = []; // [k, 'blocked' | 'nan']
  const inks = new Array(rows * cols);
  for (let k = 0; k < rows * cols; k++) {
    const t = tone(matrix.data[k], lo, span);
    const rgb = toneRgb(pal, t);
    inks[k] = toneInk(pal, t);
    if (t === NAN) special.push([k, 'nan']);
    else if (t === BLOCKED) special.push([k, 'blocked']);
    else if (blocked && blocked.data[k] === 0) special.push([k, 'blocked']); // masked, yet a number
    img.data[4 * k] = rgb[0];
    img.data[4 * k + 1] = rgb[1];
    img.data[4 * k + 2] = rgb[2];
    img.data[4 * k + 3] = 255;
  }
  ctx2d.putImageData(img, 0, 0);
  return { special, inks };
}

// The text canvas sized to the plot (cellW x cellH CSS px per cell) at the screen's resolution,
// cleared, its transform set.
function clearOverlay(textCanvas, tctx, fontState, pw, ph) {
  const dpr = window.devicePixelRatio || 1;
  const tw = Math.round(pw * dpr),
    th = Math.round(ph * dpr);
  if (textCanvas.width !== tw || textCanvas.height !== th) {
    textCanvas.width = tw; // resets the context's state (font included)
    textCanvas.height = th;
    fontState.font = '';
  }
  tctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  tctx.clearRect(0, 0, pw, ph);
}

// Stripes over the cell at (x0, y0) (ink: the cell's text colour), at opacity alpha.
function stripes(tctx, x0, y0, cellW, cellH, ink, alpha = 1) {
  tctx.save();
  tctx.globalAlpha = alpha;
  tctx.beginPath();
  tctx.rect(x0, y0, cellW, cellH);
  tctx.clip();
  tctx.strokeStyle = ink === WHITE ? 'rgba(255, 255, 255, 0.45)' : 'rgba(0, 0, 0, 0.25)';
  tctx.lineWidth = 1.5;
  tctx.beginPath();
  for (let d = -cellH; d < cellW; d += 6) {
    tctx.moveTo(x0 + d, y0 + cellH);
    tctx.lineTo(x0 + d + cellH, y0);
  }
  tctx.stroke();
  tctx.restore();
}

// The dashed frame of a NaN cell.
function nanFrame(tctx, x0, y0, cellW, cellH) {
  tctx.save();
  tctx.setLineDash([3, 2]);
  tctx.strokeStyle = WHITE;
  tctx.lineWidth = 2;
  tctx.strokeRect(x0 + 2, y0 + 2, cellW - 4, cellH - 4);
  tctx.restore();
}

// The values' font for cells cellW wide: -> { normal, bold }, the context set to normal.
function valueFont(tctx, fontState, cellW) {
  const normal = `${cellW < 44 ? 11 : 12.5}px ${FONT}`;
  tctx.textAlign = 'center';
  tctx.textBaseline = 'middle';
  if (fontState.font !== normal) {
    tctx.font = normal;
    fontState.font = normal;
  }
  return { normal, bold: `bold ${normal}` };
}

// A value centred at (cx, cy), squeezed to maxW only when it is wider: fillText with a maximum
// width measures its text at every call, so the widths are measured once per font and shape
// (each digit read as 0; the digits of a font are as wide as each other) and remembered.
function drawValue(tctx, fontState, text, cx, cy, maxW) {
  const shape = text.replace(/[0-9]/g, '0');
  const key = `${fontState.font}|${shape}`;
  let w = fontState.widths.get(key);
  if (w === undefined) {
    w = tctx.measureText(shape).width;
    fontState.widths.set(key, w);
  }
  if (w <= maxW) tctx.fillText(text, cx, cy);
  else tctx.fillText(text, cx, cy, maxW);
}

// The overlay on textCanvas (its context tctx) for cells of cellW x cellH CSS px: stripes and
// frames of `special`, and the values (to `digits`) when showText. fontState.font is the
// context's current font, kept across calls: setting a font is slow (parsed and resolved each
// time), so it is set only when it changes; fontState.widths, the widths drawValue measured.
export function paintOverlay(textCanvas, tctx, fontState, { matrix, cellW, cellH, showText, digits, special, inks }) {
  const { rows, cols } = matrix;
  clearOverlay(textCanvas, tctx, fontState, cellW * cols, cellH * rows);
  for (const [k, what] of special) {
    const x0 = (k % cols) * cellW,
      y0 = ((k / cols) | 0) * cellH;
    if (what === 'blocked') stripes(tctx, x0, y0, cellW, cellH, inks[k]);
    else nanFrame(tctx, x0, y0, cellW, cellH);
  }
  if (!showText) return;
  const { normal, bold } = valueFont(tctx, fontState, cellW);
  let ink = null; // the fill style last set (not read back: a colour reads back in another spelling)
  // only NaN cells switch to bold
  for (let k = 0; k < rows * cols; k++) {
    const x = matrix.data[k];
    const nan = Number.isNaN(x);
    if (nan) {
      tctx.font = bold;
      fontState.font = bold;
    }
    if (ink !== inks[k]) tctx.fillStyle = ink = inks[k];
    drawValue(tctx, fontState, fmt(x, digits), ((k % cols) + 0.5) * cellW, (((k / cols) | 0) + 0.5) * cellH, cellW - 2);
    if (nan) {
      tctx.font = normal;
      fontState.font = normal;
    }
  }
}

// ---- in-between pictures ---------------------------------------------------------------------

// How matrix looks in the palette pal over domain (blocked as for paintCells): each cell's tone,
// fill (as RGB and as hue, chroma, lightness), text colour and stripes.
// -> { values, tones, rgb, hcl, inks, striped }
export function lookOf(matrix, domain, pal, blocked) {
  const n = matrix.rows * matrix.cols;
  const lo = domain[0],
    span = domain[1] - domain[0] || 1;
  const look = {
    values: matrix.data,
    tones: new Int16Array(n),
    rgb: new Uint8ClampedArray(3 * n),
    hcl: new Float32Array(3 * n),
    inks: new Array(n),
    striped: new Uint8Array(n),
  };
  for (let k = 0; k < n; k++) {
    const t = tone(matrix.data[k], lo, span);
    look.tones[k] = t;
    const fill = toneRgb(pal, t);
    look.rgb.set(fill, 3 * k);
    const c = hcl(rgb(fill[0], fill[1], fill[2]));
    look.hcl.set([c.h, c.c, c.l], 3 * k); // h is NaN for a grey

    look.inks[k] = toneInk(pal, t);
    look.striped[k] = t === BLOCKED || (blocked && blocked.data[k] === 0) ? 1 : 0;
  }
  return look;
}

// One picture between the looks (oldest first, the target last; all of rows x cols cells): row i
// is at progress at(i) in [0, 1], which runs through the looks in equal parts. Each cell's colour
// is mixed from the two looks it is between, in hue, chroma and lightness (mixing red and
// yellow-green channel by channel passes through grey and brown; this keeps the colours clear);
// its value too when both are numbers (else it shows the nearer one's), its stripes fade in or
// out. Cells of cellW x cellH CSS px.
export function paintBetween(ctx2d, textCanvas, tctx, fontState, looks, at, g) {
  const { rows, cols, cellW, cellH, showText, digits } = g;
  const parts = looks.length - 1;
  const img = ctx2d.createImageData(cols, rows);
  const cells = new Array(rows * cols); // [a, b, v]: the two looks and the way from one to the other
  for (let i = 0; i < rows; i++) {
    const u = Math.max(0, Math.min(1, at(i))) * parts;
    const s = Math.min(parts - 1, Math.floor(u));
    const a = looks[s],
      b = looks[s + 1],
      v = u - s;
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j;
      const c = mixHcl(a.hcl, b.hcl, 3 * k, v);
      img.data[4 * k] = c.r;
      img.data[4 * k + 1] = c.g;
      img.data[4 * k + 2] = c.b;
      img.data[4 * k + 3] = 255;
      cells[k] = [a, b, v];
    }
  }
  ctx2d.putImageData(img, 0, 0);
  clearOverlay(textCanvas, tctx, fontState, cellW * cols, cellH * rows);
  const near = ([a, b, v]) => (v < 0.5 ? a : b);
  for (let k = 0; k < rows * cols; k++) {
    const [a, b, v] = cells[k];
    const alpha = a.striped[k] + (b.striped[k] - a.striped[k]) * v;
    const x0 = (k % cols) * cellW,
      y0 = ((k / cols) | 0) * cellH;
    if (alpha > 0) stripes(tctx, x0, y0, cellW, cellH, near(cells[k]).inks[k], alpha);
    if (near(cells[k]).tones[k] === NAN) nanFrame(tctx, x0, y0, cellW, cellH);
  }
  if (!showText) return;
  valueFont(tctx, fontState, cellW);
  let set = null; // the fill style last set
  for (let k = 0; k < rows * cols; k++) {
    const [a, b, v] = cells[k];
    const both = a.tones[k] >= 0 && b.tones[k] >= 0;
    const x = both ? a.values[k] + (b.values[k] - a.values[k]) * v : near(cells[k]).values[k];
    const ink = near(cells[k]).inks[k];
    if (set !== ink) tctx.fillStyle = set = ink;
    drawValue(tctx, fontState, fmt(x, digits), ((k % cols) + 0.5) * cellW, (((k / cols) | 0) + 0.5) * cellH, cellW - 2);
  }
}

// The colour at v in [0, 1] from cell k's colour in a to its colour in b (hcl: [h, c, l] per
// cell), the hue the short way round the circle; a grey (no hue) takes the other's hue. -> RGB
function mixHcl(a, b, k, v) {
  let h0 = a[k],
    h1 = b[k];
  if (Number.isNaN(h0)) h0 = Number.isNaN(h1) ? 0 : h1;
  if (Number.isNaN(h1)) h1 = h0;
  let dh = h1 - h0;
  if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  return rgb(hcl(h0 + dh * v, a[k + 1] + (b[k + 1] - a[k + 1]) * v, a[k + 2] + (b[k + 2] - a[k + 2]) * v));
}
