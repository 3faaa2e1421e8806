// A heatmap as a scene for saving (./save.js): the caption, the labels, one rectangle per cell in
// its colour, blocked cells grey and striped, NaN cells framed, the values when they fit, and the
// colour legend.

import { fmt } from '../text/format.js';
import { textWidth } from './save.js';
import { BLOCKED, NAN, PALETTES, autoDomain, tone, toneInk, toneRgb } from './heatmap-palette.js';
import { labelLength } from './heatmap-labels.js';
import { INK, WHITE } from './palette.js';

const MIN_TEXT_W = 34; // px a cell needs to print its value
const num2 = (x) => +x.toFixed(2);

// data: the heatmap's last update ({ matrix, rowLabels, colLabels, domain?, caption?, blocked? });
// kind, label and digits: the heatmap's options. -> { width, height, items }
export function heatmapScene(data, { kind, label, digits }) {
  const { matrix, rowLabels, colLabels } = data;
  const { rows, cols } = matrix;
  const blocked = data.blocked && data.blocked.rows === rows && data.blocked.cols === cols ? data.blocked : null;
  const domain = data.domain ?? autoDomain(matrix.data, kind);
  const pal = PALETTES[kind];
  const cw = Math.max(18, Math.min(56, 640 / cols)),
    ch = Math.max(14, Math.min(34, cw * 0.7));
  const showText = cw >= MIN_TEXT_W;
  const left = 12 + Math.min(120, labelLength(rowLabels) * 7.5),
    top = 44;
  const title = data.caption ?? label;
  const width = Math.max(left + cols * cw + 16, 16 + textWidth(title, 14, 'bold')),
    height = top + rows * ch + 56;
  const ink = INK;
  const items = [
    {
      t: 'text',
      x: 8,
      y: 20,
      text: title,
      size: 14,
      weight: 'bold',
      fill: ink,
      anchor: 'start',
      baseline: 'alphabetic',
    },
  ];
  colLabels.forEach((l, j) =>
    items.push({
      t: 'text',
      x: left + (j + 0.5) * cw,
      y: top - 6,
      text: l,
      size: 11,
      fill: ink,
      anchor: 'middle',
      baseline: 'alphabetic',
    }),
  );
  rowLabels.forEach((l, i) =>
    items.push({
      t: 'text',
      x: left - 6,
      y: top + (i + 0.5) * ch,
      text: l,
      size: 11,
      fill: ink,
      anchor: 'end',
      baseline: 'middle',
    }),
  );
  const hex = ([r, g, b]) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  const lo = domain[0],
    span = domain[1] - domain[0] || 1;
  for (let k = 0; k < rows * cols; k++) {
    const x = matrix.data[k];
    const x0 = left + (k % cols) * cw,
      y0 = top + ((k / cols) | 0) * ch;
    const tk = tone(x, lo, span);
    const rgb = toneRgb(pal, tk),
      text = toneInk(pal, tk);
    const what = tk === NAN ? 'nan' : tk === BLOCKED ? 'blocked' : blocked && blocked.data[k] === 0 ? 'blocked' : '';
    items.push({ t: 'rect', x: x0, y: y0, w: cw, h: ch, fill: hex(rgb) });
    if (what === 'blocked') {
      // Stripes, each cut to the cell: the line x + y = const between the cell's edges.
      let d = '';
      for (let s = 6; s < cw + ch; s += 6) {
        const ax = Math.max(0, s - ch),
          bx = Math.min(cw, s);
        d += `M${num2(x0 + ax)} ${num2(y0 + s - ax)}L${num2(x0 + bx)} ${num2(y0 + s - bx)}`;
      }
      items.push({
        t: 'path',
        d,
        stroke: text === WHITE ? 'rgba(255,255,255,0.45)' : 'rgba(0,0,0,0.25)',
        sw: 1.5,
        fill: 'none',
      });
    } else if (what === 'nan') {
      items.push({
        t: 'rect',
        x: x0 + 2,
        y: y0 + 2,
        w: cw - 4,
        h: ch - 4,
        fill: 'none',
        stroke: WHITE,
        sw: 2,
        dash: [3, 2],
      });
    }
    if (showText)
      items.push({
        t: 'text',
        x: x0 + cw / 2,
        y: y0 + ch / 2,
        text: fmt(x, digits),
        size: cw < 44 ? 10 : 11.5,
        weight: what === 'nan' ? 'bold' : 'normal',
        fill: text,
        anchor: 'middle',
        baseline: 'middle',
      });
  }
  // The legend: the palette in 64 steps under the map, with its two ends and middle.
  const ly = top + rows * ch + 14,
    lw = Math.min(240, cols * cw),
    lx = left;
  for (let s = 0; s < 64; s++)
    items.push({
      t: 'rect',
      x: lx + (s * lw) / 64,
      y: ly,
      w: lw / 64 + 0.3,
      h: 10,
      fill: hex(pal.rgb[Math.round((s / 63) * 255)]),
    });
  [0, 0.5, 1].forEach((f, k) =>
    items.push({
      t: 'text',
      x: lx + f * lw,
      y: ly + 24,
      text: fmt(domain[0] + f * (domain[1] - domain[0]), 2),
      size: 10,
      fill: ink,
      anchor: ['start', 'middle', 'end'][k],
      baseline: 'alphabetic',
    }),
  );
  return { width, height, items };
}
