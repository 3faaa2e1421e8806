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
//   hm.update({ ..., from, stagger })
//          // from: the picture this update moves from (views/motion.js), one matrix of the same
//          // shape or a list of them (oldest first): { matrix, kind, domain, blocked }; stagger:
//          // the rows move one after another. Only the canvases move: the table, the cursor's
//          // words and every attribute have the new numbers at once, and the last frame is the
//          // picture an update without `from` draws. The figure's data-motion is "running" during
//          // the motion, "done" otherwise. An update with other numbers ends a motion at once;
//          // one with the same matrix (a resize, a second draw) lets it run on.
//
// Palettes are colour-blind safe: viridis (sequential, for weights in [0, 1]) and RdBu
// (diverging, for signed scores; red = positive, blue = negative). −∞ cells are grey and
// striped; NaN cells are magenta and flagged.
//
// Speed: one update draws two canvases and moves a few mark boxes; there is no DOM per cell.
// It never reads layout: the available width is measured once and then followed with a
// ResizeObserver.
//
// Here: the figure, its size, the cursor, the marks and the table toggle. The colours are in
// heatmap-palette.js, the two canvases in heatmap-canvas.js, the legend in heatmap-legend.js, the
// labels in heatmap-labels.js and the scene for saving in heatmap-scene.js.

import { fmt, colonAfter } from '../text/format.js';
import { renderTable } from './table.js';
import { createSaveButtons } from './save.js';
import { PALETTES, autoDomain } from './heatmap-palette.js';
import { lookOf, paintBetween, paintCells, paintOverlay } from './heatmap-canvas.js';
import { MOTION_MS, markMotion, tween } from './motion.js';
import { createLegend } from './heatmap-legend.js';
import { heatmapScene } from './heatmap-scene.js';
import { labelLength, rowLabelWidth, setLabels } from './heatmap-labels.js';

const MIN_TEXT_W = 34; // px a cell needs to print its value
const MIN_TEXT_H = 16;
const FIRST_MARK = 'attn-first-heatmap';
let firstMarked = false;

let nextId = 0;

// The widest cell of a step's main heatmap (px).
const MAIN_CELL = 140;

// Do two pictures' inputs (cell size, domain, resolution, values, blocked cells) agree? NaN
// agrees with NaN.
function samePicture(a, b) {
  for (const k of ['cellW', 'cellH', 'showText', 'dpr']) if (a[k] !== b[k]) return false;
  return (
    a.domain[0] === b.domain[0] &&
    a.domain[1] === b.domain[1] &&
    sameNumbers(a.values, b.values) &&
    sameNumbers(a.blocked, b.blocked)
  );
}
function sameNumbers(a, b) {
  if (!a || !b) return !a && !b;
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k] && !(Number.isNaN(a[k]) && Number.isNaN(b[k]))) return false;
  return true;
}

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
    () => heatmapScene(data, { kind, label, digits }),
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
  let marksKey = '';
  let geom = null; // the last update's cell size: { cellW, cellH, showText }
  let motion = null; // the running motion: { run, matrix (where it goes), looks, stagger }
  let painted = null; // what the canvases show, when it is an update's picture (paint): its inputs
  const fontState = { font: '', widths: new Map() }; // the text canvas's font, the values' widths
  const drawLegend = createLegend(legend, id, levels);

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
    painted = null; // a canvas whose size is set is cleared
    canvas.width = cols;
    canvas.height = rows;
    colsEl.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
    rowsEl.style.gridTemplateRows = `repeat(${rows}, 1fr)`;
    moveCursor(cursor[0], cursor[1]);
  }

  // update({ matrix, rowLabels, colLabels, domain?, selected?, caption?, blocked?, from?, stagger? })
  function update(next) {
    const { from, stagger, ...rest } = next;
    next = rest; // kept without the motion: a later update(data) draws the same end
    data = next;
    const { matrix, rowLabels, colLabels } = next;
    const goesOn = !from && motion?.run.running && motion.matrix === matrix;
    if (motion && !goesOn) {
      motion.run.cancel();
      motion = null;
    }
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

    geom = { cellW, cellH, showText };
    const domain = next.domain ?? autoDomain(matrix.data, kind);
    const pal = PALETTES[kind];
    const froms = [].concat(from ?? []).filter((f) => f.matrix.rows === rows && f.matrix.cols === cols);
    if (froms.length) {
      // The looks it moves through, then the end drawn as without a motion.
      const looks = froms.map((f) => {
        const k = f.kind ?? kind;
        const b = f.blocked && f.blocked.rows === rows && f.blocked.cols === cols ? f.blocked : null;
        return lookOf(f.matrix, f.domain ?? autoDomain(f.matrix.data, k), PALETTES[k], b);
      });
      looks.push(lookOf(matrix, domain, pal, blocked));
      motion = { matrix, looks, stagger: !!stagger && rows > 1 };
      motion.run = tween(MOTION_MS, (t) => (t < 1 ? paintMotion(t) : paint()), { el: figure });
    } else if (!goesOn) {
      paint();
      markMotion(figure, 'done');
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

  // The picture of the last update: colours (one pixel per cell), then stripes on blocked cells, a
  // dashed frame on NaN cells and (when they fit) the values, on a second canvas at screen
  // resolution.
  // A picture the canvases already show is not drawn again (a new selection, the same numbers
  // computed again): the values alone are most of a large heatmap's update.
  function paint() {
    const { matrix } = data;
    const blocked =
      data.blocked && data.blocked.rows === matrix.rows && data.blocked.cols === matrix.cols ? data.blocked : null;
    const domain = data.domain ?? autoDomain(matrix.data, kind);
    const picture = { ...geom, domain, dpr: window.devicePixelRatio || 1, values: matrix.data, blocked: blocked?.data };
    if (painted && samePicture(painted, picture)) return;
    const { special, inks } = paintCells(ctx2d, matrix, domain, PALETTES[kind], blocked);
    paintOverlay(textCanvas, tctx, fontState, { matrix, ...geom, digits, special, inks });
    painted = {
      ...picture,
      values: Float32Array.from(picture.values),
      blocked: blocked && Float32Array.from(blocked.data),
    };
  }

  // A picture of the motion at t in [0, 1): every row at t, or (staggered) each row starting a
  // little after the one above it, the last one ending at t = 1.
  function paintMotion(t) {
    painted = null;
    const [rows, cols] = shape;
    const span = motion.stagger ? 0.5 : 1; // each row's share of the time
    const at = motion.stagger ? (i) => (t - (i * (1 - span)) / (rows - 1)) / span : () => t;
    paintBetween(ctx2d, textCanvas, tctx, fontState, motion.looks, at, { rows, cols, ...geom, digits });
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
    motion?.run.cancel();
    ro.disconnect();
    figure.remove();
  }

  return { el: figure, update, highlight, destroy };
}
