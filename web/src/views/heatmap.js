// A heatmap of a matrix: a canvas with one pixel per cell, stretched with CSS; a second canvas
// at screen resolution with the cell values (when they fit), stripes on masked cells and a
// frame on NaN cells; token labels in an HTML overlay; a cell cursor moved by
// click or keyboard (arrow keys, Home/End; Enter or Space selects); a highlight API for
// linked highlighting; and a toggle that shows the same numbers as an accessible table.
//
//   const hm = createHeatmap(parent, { label, kind: 'sequential' | 'diverging', onSelect, strings, widthFrom })
//   hm.update({ matrix, rowLabels, colLabels, domain, selected: { row, col }, caption, blocked })
//          // selected.col === null selects the whole row; blocked: a 0/1 matrix of the same
//          // shape whose 0 cells are striped (masked cells that still hold a number)
//   hm.highlight({ rows: [i], cols: [j], cells: [[i, j]] })
//
// Palettes are colour-blind safe: viridis (sequential, for weights in [0, 1]) and RdBu
// (diverging, for signed scores; red = positive, blue = negative). −∞ cells are grey and
// striped; NaN cells are magenta and flagged.
//
// Speed: one update draws two canvases and moves a few mark boxes; there is no DOM per cell.
// It never reads layout: the available width is measured once and then followed with a
// ResizeObserver.

import { scaleLinear } from 'd3-scale';
import { interpolateViridis, interpolateRdBu } from 'd3-scale-chromatic';
import { axisBottom } from 'd3-axis';
import { select } from 'd3-selection';
import { rgb as toRgb } from 'd3-color';
import { fmt, colonAfter } from '../text/format.js';
import { renderTable } from './table.js';
import { createSaveButtons, textWidth } from './save.js';
import { BLACK, INK, MUTED, WHITE } from './palette.js';

const BLOCKED_RGB = [200, 200, 200];
const NAN_RGB = [220, 40, 160];
const HUGE = 1e8; // |x| at or beyond this (the −1e9 mask fill) is drawn like a blocked cell
const MIN_TEXT_W = 34; // px a cell needs to print its value
const MIN_TEXT_H = 16;
const FONT = 'sans-serif';
const FIRST_MARK = 'attn-first-heatmap';
const num2 = (x) => +x.toFixed(2);
let firstMarked = false;

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
const PALETTES = {
  sequential: palette(interpolateViridis),
  diverging: palette((t) => interpolateRdBu(1 - t)),
};

// The colour domain of a matrix: min..max for sequential, symmetric around 0 for diverging.
function autoDomain(data, kind) {
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

// Length of the longest label in Latin-character widths (a CJK character counts double).
function labelLength(labels) {
  return labels.reduce(
    (m, l) =>
      Math.max(
        m,
        [...l].reduce((w, ch) => w + (ch.charCodeAt(0) > 255 ? 1.9 : 1), 0),
      ),
    1,
  );
}

// Width the row labels take (an estimate from the longest label: CJK characters count double).
function rowLabelWidth(labels) {
  return Math.min(96, 14 + labelLength(labels) * 7.5);
}

let nextId = 0;

// The widest cell of a step's main heatmap (px).
const MAIN_CELL = 140;

export function createHeatmap(
  parent,
  {
    label = '',
    kind = 'sequential',
    onSelect = null,
    digits = 2,
    strings = {},
    maxCell = 72,
    widthFrom = null,
    levels = null, // a matrix of a few values only (a 0/1 mask): [[value, name], ...], shown as swatches
  } = {},
) {
  const str = {
    showTable: 'Show as table',
    showHeatmap: 'Show as heatmap',
    keys: 'Arrow keys move, Enter selects.',
    heatmap: 'heatmap',
    ...strings,
  };
  const id = `hm${nextId++}`;
  const figure = document.createElement('figure');
  figure.className = 'heatmap';
  figure.innerHTML = `
    <div class="hm-grid">
      <div class="hm-corner"></div>
      <div class="hm-cols" aria-hidden="true"></div>
      <div class="hm-rows" aria-hidden="true"></div>
      <div class="hm-plot" tabindex="0" role="group" aria-roledescription="${str.heatmap}" aria-describedby="${id}-cursor">
        <canvas class="hm-canvas" aria-hidden="true"></canvas>
        <canvas class="hm-text" aria-hidden="true"></canvas>
        <div class="hm-marks" aria-hidden="true"><div class="hm-mark cursor"></div></div>
      </div>
    </div>
    <p class="visually-hidden" id="${id}-cursor" aria-live="polite"></p>
    <div class="hm-foot">
      <svg class="hm-legend" aria-hidden="true"></svg>
      <button type="button" class="hm-toggle" aria-expanded="false" aria-controls="${id}-table"></button>
    </div>
    <div class="hm-table" id="${id}-table" hidden></div>`;
  parent.append(figure);
  const q = (s) => figure.querySelector(s);
  const grid = q('.hm-grid'),
    colsEl = q('.hm-cols'),
    rowsEl = q('.hm-rows'),
    plot = q('.hm-plot');
  const canvas = q('.hm-canvas'),
    textCanvas = q('.hm-text'),
    marksEl = q('.hm-marks'),
    cursorMark = q('.hm-mark.cursor');
  const cursorText = q(`#${id}-cursor`),
    legend = q('.hm-legend'),
    toggle = q('.hm-toggle'),
    tableEl = q('.hm-table');
  const ctx2d = canvas.getContext('2d');
  const tctx = textCanvas.getContext('2d');
  const save = createSaveButtons(
    () => scene(),
    () => (data ? (data.caption ?? label) : label),
    () => ({
      head: data ? ['', ...data.colLabels] : [],
      rows: data
        ? data.rowLabels.map((r, i) => [
            r,
            ...Array.from({ length: shape[1] }, (_, j) => data.matrix.data[i * shape[1] + j]),
          ])
        : [],
    }),
  );
  toggle.before(save.el);

  let data = null; // the last update's arguments
  let shape = [0, 0]; // rows, cols
  let cursor = [0, 0]; // keyboard cursor
  let tableShown = false;
  let hl = { rows: [], cols: [], cells: [] };
  let avail = 0; // px available for the plot and its row labels
  let legendKey = '';
  let marksKey = '';
  let font = ''; // the text canvas's current font

  // ---- table toggle ----
  toggle.textContent = str.showTable;
  toggle.addEventListener('click', () => {
    tableShown = !tableShown;
    toggle.setAttribute('aria-expanded', String(tableShown));
    toggle.textContent = tableShown ? str.showHeatmap : str.showTable;
    grid.hidden = tableShown;
    tableEl.hidden = !tableShown;
    if (tableShown && data) drawTable();
  });
  function drawTable() {
    renderTable(tableEl, {
      caption: data.caption ?? label,
      rowLabels: data.rowLabels,
      colLabels: data.colLabels,
      matrix: data.matrix,
      digits,
    });
  }

  // ---- width: measured once, then followed ----
  const widthEl = widthFrom || parent;
  const ro = new ResizeObserver((entries) => {
    const w = Math.round(entries[0].contentRect.width);
    if (w !== avail && w > 0) {
      avail = w;
      if (data) update(data);
    }
  });
  ro.observe(widthEl);

  // ---- pointer and keyboard ----
  function cellAt(e) {
    const r = plot.getBoundingClientRect();
    const i = Math.floor(((e.clientY - r.top) / r.height) * shape[0]);
    const j = Math.floor(((e.clientX - r.left) / r.width) * shape[1]);
    return [Math.max(0, Math.min(shape[0] - 1, i)), Math.max(0, Math.min(shape[1] - 1, j))];
  }
  plot.addEventListener('click', (e) => {
    if (!data) return;
    const [i, j] = cellAt(e);
    moveCursor(i, j);
    if (onSelect) onSelect({ row: i, col: j });
  });
  plot.addEventListener('keydown', (e) => {
    const [i, j] = cursor;
    const moves = {
      ArrowUp: [i - 1, j],
      ArrowDown: [i + 1, j],
      ArrowLeft: [i, j - 1],
      ArrowRight: [i, j + 1],
      Home: [i, 0],
      End: [i, shape[1] - 1],
    };
    if (moves[e.key]) {
      e.preventDefault();
      e.stopPropagation();
      moveCursor(...moves[e.key]);
    } else if ((e.key === 'Enter' || e.key === ' ') && onSelect) {
      e.preventDefault();
      e.stopPropagation();
      onSelect({ row: i, col: j });
    }
  });
  plot.addEventListener('focus', () => describeCursor());
  rowsEl.addEventListener('click', (e) => {
    const r = e.target.closest('[data-row]');
    if (r && onSelect) onSelect({ row: +r.dataset.row, col: null });
  });

  function moveCursor(i, j) {
    cursor = [Math.max(0, Math.min(shape[0] - 1, i)), Math.max(0, Math.min(shape[1] - 1, j))];
    placeBox(cursorMark, cursor[0], cursor[1], 1, 1);
    describeCursor();
  }
  function describeCursor() {
    if (!data) return;
    const [i, j] = cursor;
    cursorText.textContent = `${data.rowLabels[i]} → ${data.colLabels[j]}${colonAfter(data.colLabels[j])}${fmt(data.matrix.data[i * shape[1] + j], digits)}`;
  }
  function placeBox(el, r0, c0, nr, nc) {
    const [rows, cols] = shape;
    el.style.top = `${(100 * r0) / rows}%`;
    el.style.left = `${(100 * c0) / cols}%`;
    el.style.height = `${(100 * nr) / rows}%`;
    el.style.width = `${(100 * nc) / cols}%`;
  }

  // ---- drawing ----
  function setShape(rows, cols) {
    shape = [rows, cols];
    canvas.width = cols;
    canvas.height = rows;
    colsEl.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
    rowsEl.style.gridTemplateRows = `repeat(${rows}, 1fr)`;
    moveCursor(cursor[0], cursor[1]);
  }

  function setLabels(el, labels, name, show) {
    el.classList.toggle('hm-hidden-labels', !show);
    if (el.childElementCount !== labels.length) {
      el.replaceChildren(
        ...labels.map((_, k) => {
          const s = document.createElement('span');
          s.dataset[name] = k;
          return s;
        }),
      );
    }
    for (let k = 0; k < labels.length; k++) {
      const s = el.children[k];
      if (s.textContent !== labels[k]) {
        s.textContent = labels[k];
        s.title = labels[k];
      }
    }
  }

  // The colour legend: the gradient is drawn once; the axis follows the domain.
  let legendAxis = null;
  function drawLegend(domain, pal) {
    const key = `${domain[0]}:${domain[1]}`;
    if (key === legendKey) return;
    legendKey = key;
    const w = 200,
      h = 34;
    // A few values: one swatch and name each, not a continuous bar.
    if (levels) {
      const svg = select(legend).attr('viewBox', `0 0 ${w} ${h}`).attr('class', 'hm-legend hm-levels');
      svg.selectAll('*').remove();
      const step = (w - 8) / levels.length;
      levels.forEach(([value, name], k) => {
        const t = (value - domain[0]) / (domain[1] - domain[0] || 1);
        const g = svg
          .append('g')
          .attr('class', 'hm-level')
          .attr('transform', `translate(${8 + k * step},6)`);
        g.append('rect').attr('width', 16).attr('height', 16).attr('stroke', MUTED).attr('fill', pal.interp(t));
        g.append('text').attr('x', 22).attr('y', 13).text(name);
      });
      return;
    }
    if (!legendAxis) {
      const svg = select(legend).attr('viewBox', `0 0 ${w} ${h}`);
      const gid = `${id}-grad`;
      const grad = svg.append('defs').append('linearGradient').attr('id', gid);
      for (let k = 0; k <= 10; k++)
        grad
          .append('stop')
          .attr('offset', `${k * 10}%`)
          .attr('stop-color', pal.interp(k / 10));
      svg
        .append('rect')
        .attr('x', 8)
        .attr('y', 2)
        .attr('width', w - 16)
        .attr('height', 10)
        .attr('fill', `url(#${gid})`);
      legendAxis = svg.append('g').attr('class', 'axis').attr('transform', 'translate(0,12)');
    }
    const x = scaleLinear()
      .domain(domain)
      .range([8, w - 8]);
    legendAxis.call(axisBottom(x).ticks(4).tickSizeOuter(0));
  }

  // update({ matrix, rowLabels, colLabels, domain?, selected?, caption? })
  function update(next) {
    data = next;
    const { matrix, rowLabels, colLabels } = next;
    const { rows, cols } = matrix;
    const blocked = next.blocked && next.blocked.rows === rows && next.blocked.cols === cols ? next.blocked : null;
    if (rows !== shape[0] || cols !== shape[1]) setShape(rows, cols);
    if (!avail) avail = widthEl.clientWidth; // the one layout read, on first draw
    const caption = next.caption ?? label;
    const aria = `${caption}. ${str.keys}`;
    if (plot.getAttribute('aria-label') !== aria) plot.setAttribute('aria-label', aria);

    // Size: cells at most maxCell wide, the plot as wide as the space allows.
    const room = Math.max(60, avail - rowLabelWidth(rowLabels));
    // A step's main figure (data-figure="main", chapters/kit/shell.js) takes the width it has.
    const main = !!figure.closest('[data-figure="main"]');
    const cellW = Math.min(main ? Math.max(maxCell, MAIN_CELL) : maxCell, room / cols);
    const cellH = Math.max(10, Math.min(main ? 44 : 34, cellW * 0.75));
    const W = `${cellW * cols}px`,
      H = `${cellH * rows}px`;
    if (plot.style.width !== W) {
      plot.style.width = W;
      colsEl.style.width = W;
    }
    if (plot.style.height !== H) {
      plot.style.height = H;
      rowsEl.style.height = H;
    }
    const showText = cellW >= MIN_TEXT_W && cellH >= MIN_TEXT_H;
    figure.classList.toggle('hm-small', !showText);

    // Colours: one pixel per cell.
    const domain = next.domain ?? autoDomain(matrix.data, kind);
    const pal = PALETTES[kind];
    const img = ctx2d.createImageData(cols, rows);
    const lo = domain[0],
      span = domain[1] - domain[0] || 1;
    const special = []; // [k, 'blocked' | 'nan']
    const inks = new Array(rows * cols);
    for (let k = 0; k < rows * cols; k++) {
      const x = matrix.data[k];
      let rgb;
      if (Number.isNaN(x)) {
        rgb = NAN_RGB;
        inks[k] = WHITE;
        special.push([k, 'nan']);
      } else if (!Number.isFinite(x) || Math.abs(x) >= HUGE) {
        rgb = BLOCKED_RGB;
        inks[k] = BLACK;
        special.push([k, 'blocked']);
      } else {
        const t = Math.round(Math.min(1, Math.max(0, (x - lo) / span)) * 255);
        rgb = pal.rgb[t];
        inks[k] = pal.text[t];
        if (blocked && blocked.data[k] === 0) special.push([k, 'blocked']); // masked, yet a number
      }
      img.data[4 * k] = rgb[0];
      img.data[4 * k + 1] = rgb[1];
      img.data[4 * k + 2] = rgb[2];
      img.data[4 * k + 3] = 255;
    }
    ctx2d.putImageData(img, 0, 0);

    // Stripes on blocked cells, a dashed frame on NaN cells and (when they fit) the values, drawn
    // on a second canvas at screen resolution: no DOM per cell, so nothing to lay out.
    const dpr = window.devicePixelRatio || 1;
    const pw = cellW * cols,
      ph = cellH * rows;
    const tw = Math.round(pw * dpr),
      th = Math.round(ph * dpr);
    if (textCanvas.width !== tw || textCanvas.height !== th) {
      textCanvas.width = tw; // resets the context's state (font included)
      textCanvas.height = th;
      font = '';
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
    if (showText) {
      const normal = `${cellW < 44 ? 11 : 12.5}px ${FONT}`,
        bold = `bold ${normal}`;
      tctx.textAlign = 'center';
      tctx.textBaseline = 'middle';
      // Setting a font is slow (parsed and resolved each time): set it when it changes, and
      // only NaN cells switch to bold.
      if (font !== normal) {
        tctx.font = normal;
        font = normal;
      }
      for (let k = 0; k < rows * cols; k++) {
        const x = matrix.data[k];
        const nan = Number.isNaN(x);
        if (nan) {
          tctx.font = bold;
          font = bold;
        }
        if (tctx.fillStyle !== inks[k]) tctx.fillStyle = inks[k];
        tctx.fillText(fmt(x, digits), ((k % cols) + 0.5) * cellW, (((k / cols) | 0) + 0.5) * cellH, cellW - 2);
        if (nan) {
          tctx.font = normal;
          font = normal;
        }
      }
    }

    // Column labels only when the longest one fits its column (else the table has them).
    setLabels(colsEl, colLabels, 'col', cellW >= 4 + 7 * labelLength(colLabels));
    setLabels(rowsEl, rowLabels, 'row', cellH >= 12);
    drawLegend(domain, pal);
    applyMarks(next.selected);
    if (plot.getRootNode().activeElement === plot) describeCursor();
    if (tableShown) drawTable();
    save.label();
    // For scripts/measure-load.mjs: when the page's first heatmap was drawn (at the end of the
    // task that drew it, when the browser may paint it).
    if (!firstMarked) {
      firstMarked = true;
      setTimeout(() => {
        if (!performance.getEntriesByName(FIRST_MARK).length) performance.mark(FIRST_MARK);
      }, 0);
    }
  }

  // The figure as a scene for saving (./save.js): the caption, the labels, one rectangle per cell
  // in its colour, blocked cells grey and striped, NaN cells framed, the values when they fit,
  // and the colour legend.
  function scene() {
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
      let rgb,
        text,
        what = '';
      if (Number.isNaN(x)) {
        rgb = NAN_RGB;
        text = WHITE;
        what = 'nan';
      } else if (!Number.isFinite(x) || Math.abs(x) >= HUGE) {
        rgb = BLOCKED_RGB;
        text = BLACK;
        what = 'blocked';
      } else {
        const tk = Math.round(Math.min(1, Math.max(0, (x - lo) / span)) * 255);
        rgb = pal.rgb[tk];
        text = pal.text[tk];
        if (blocked && blocked.data[k] === 0) what = 'blocked';
      }
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

  // Selection and highlight: outlined boxes over rows, columns or cells, in a layer above the
  // cells; labels of marked rows and columns in bold.
  function applyMarks(selected) {
    const [rows, cols] = shape;
    const boxes = [];
    for (const i of hl.rows) if (i < rows) boxes.push([i, 0, 1, cols, 'hl']);
    for (const j of hl.cols) if (j < cols) boxes.push([0, j, rows, 1, 'hl']);
    for (const [i, j] of hl.cells) if (i < rows && j < cols) boxes.push([i, j, 1, 1, 'hl']);
    if (selected && selected.row < rows) {
      if (selected.col === null || selected.col === undefined) boxes.push([selected.row, 0, 1, cols, 'sel']);
      else if (selected.col < cols) boxes.push([selected.row, selected.col, 1, 1, 'sel']);
    }
    const key = JSON.stringify([shape, boxes]);
    if (key !== marksKey) {
      marksKey = key;
      const els = boxes.map(([r0, c0, nr, nc, cls]) => {
        const d = document.createElement('div');
        d.className = `hm-mark ${cls}`;
        placeBox(d, r0, c0, nr, nc);
        return d;
      });
      marksEl.replaceChildren(cursorMark, ...els);
    }
    const hlRows = new Set(hl.rows),
      hlCols = new Set(hl.cols);
    const selRow = selected ? selected.row : -1,
      selCol = selected ? selected.col : -1;
    for (let i = 0; i < rowsEl.children.length; i++)
      rowsEl.children[i].classList.toggle('hl', hlRows.has(i) || selRow === i);
    for (let j = 0; j < colsEl.children.length; j++)
      colsEl.children[j].classList.toggle('hl', hlCols.has(j) || selCol === j);
  }

  function highlight(h = {}) {
    hl = { rows: h.rows || [], cols: h.cols || [], cells: h.cells || [] };
    if (data) applyMarks(data.selected);
  }

  function destroy() {
    ro.disconnect();
    figure.remove();
  }

  return { el: figure, update, highlight, destroy };
}
