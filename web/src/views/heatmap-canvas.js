// A heatmap's two canvases: the cells (one pixel per cell, stretched with CSS) and, at screen
// resolution, stripes on blocked cells, a dashed frame on NaN cells and the values when they fit.
// No DOM per cell, so nothing to lay out.

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

// The overlay on textCanvas (its context tctx) for cells of cellW x cellH CSS px: stripes and
// frames of `special`, and the values (to `digits`) when showText. fontState.font is the
// context's current font, kept across calls: setting a font is slow (parsed and resolved each
// time), so it is set only when it changes.
export function paintOverlay(textCanvas, tctx, fontState, { matrix, cellW, cellH, showText, digits, special, inks }) {
  const { rows, cols } = matrix;
  const dpr = window.devicePixelRatio || 1;
  const pw = cellW * cols,
    ph = cellH * rows;
  const tw = Math.round(pw * dpr),
    th = Math.round(ph * dpr);
  if (textCanvas.width !== tw || textCanvas.height !== th) {
    textCanvas.width = tw; // resets the context's state (font included)
    textCanvas.height = th;
    fontState.font = '';
  }
  tctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  tctx.clearRect(0, 0, pw, ph);
  for (const [k, what] of special) {
    const x0 = (k % cols) * cellW,
      y0 = ((k / cols) | 0) * cellH;
    if (what === 'blocked') {
      tctx.save();
      tctx.beginPath();
      tctx.rect(x0, y0, cellW, cellH);
      tctx.clip();
      tctx.strokeStyle = inks[k] === WHITE ? 'rgba(255, 255, 255, 0.45)' : 'rgba(0, 0, 0, 0.25)';
      tctx.lineWidth = 1.5;
      tctx.beginPath();
      for (let d = -cellH; d < cellW; d += 6) {
        tctx.moveTo(x0 + d, y0 + cellH);
        tctx.lineTo(x0 + d + cellH, y0);
      }
      tctx.stroke();
      tctx.restore();
    } else {
      tctx.save();
      tctx.setLineDash([3, 2]);
      tctx.strokeStyle = WHITE;
      tctx.lineWidth = 2;
      tctx.strokeRect(x0 + 2, y0 + 2, cellW - 4, cellH - 4);
      tctx.restore();
    }
  }
  if (!showText) return;
  const normal = `${cellW < 44 ? 11 : 12.5}px ${FONT}`,
    bold = `bold ${normal}`;
  tctx.textAlign = 'center';
  tctx.textBaseline = 'middle';
  // only NaN cells switch to bold
  if (fontState.font !== normal) {
    tctx.font = normal;
    fontState.font = normal;
  }
  for (let k = 0; k < rows * cols; k++) {
    const x = matrix.data[k];
    const nan = Number.isNaN(x);
    if (nan) {
      tctx.font = bold;
      fontState.font = bold;
    }
    if (tctx.fillStyle !== inks[k]) tctx.fillStyle = inks[k];
    tctx.fillText(fmt(x, digits), ((k % cols) + 0.5) * cellW, (((k / cols) | 0) + 0.5) * cellH, cellW - 2);
    if (nan) {
      tctx.font = normal;
      fontState.font = normal;
    }
  }
}
