// A heatmap of a matrix: a canvas with one pixel per cell, stretched with CSS; token labels
// and cell values in an HTML overlay; cells selectable by click and keyboard (arrow keys move,
// Enter or Space selects); a highlight API for linked highlighting; and a toggle that shows
// the same numbers as an accessible table.
//
//   const hm = createHeatmap(parent, { label, kind: 'sequential' | 'diverging', onSelect, strings })
//   hm.update({ matrix, rowLabels, colLabels, domain, selected: { row, col }, caption })
//   hm.highlight({ rows: [i], cols: [j], cells: [[i, j]] })
//
// Palettes are colour-blind safe: viridis (sequential, for weights in [0, 1]) and RdBu
// (diverging, for signed scores; red = positive, blue = negative). −∞ cells are grey and
// striped; NaN cells are magenta and flagged.

import { scaleSequential, scaleDiverging, scaleLinear } from 'd3-scale';
import { interpolateViridis, interpolateRdBu } from 'd3-scale-chromatic';
import { axisBottom } from 'd3-axis';
import { select } from 'd3-selection';
import { fmt } from '../format.js';
import { renderTable } from './table.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const BLOCKED_RGB = [200, 200, 200];
const NAN_RGB = [220, 40, 160];
const HUGE = 1e8; // |x| at or beyond this (the −1e9 mask fill) is drawn like a blocked cell

// "#rrggbb" or "rgb(r, g, b)" -> [r, g, b]
function parseColor(c) {
  if (c[0] === '#') return [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16));
  return c.match(/\d+/g).slice(0, 3).map(Number);
}

// 256-entry lookup table of an interpolator on [0, 1].
function lut(interp) {
  return Array.from({ length: 256 }, (_, k) => parseColor(interp(k / 255)));
}
const PALETTES = {
  sequential: { interp: interpolateViridis, lut: lut(interpolateViridis) },
  diverging: { interp: (t) => interpolateRdBu(1 - t), lut: lut((t) => interpolateRdBu(1 - t)) },
};

// Black or white text, whichever contrasts more with the background (WCAG luminance).
function textColor([r, g, b]) {
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const L = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return (L + 0.05) / 0.05 > 1.05 / (L + 0.05) ? '#000' : '#fff';
}

// The colour domain of a matrix: [0, 1]-like for sequential, symmetric for diverging.
function autoDomain(data, kind) {
  let lo = Infinity, hi = -Infinity;
  for (const x of data) {
    if (!Number.isFinite(x) || Math.abs(x) >= HUGE) continue;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (lo === Infinity) { lo = 0; hi = 1; }
  if (kind === 'diverging') {
    const m = Math.max(Math.abs(lo), Math.abs(hi), 1e-6);
    return [-m, m];
  }
  if (hi - lo < 1e-9) hi = lo + 1;
  return [lo, hi];
}

let nextId = 0;

export function createHeatmap(parent, { label = '', kind = 'sequential', onSelect = null, digits = 2,
  strings = { showTable: 'Show as table', showHeatmap: 'Show as heatmap' }, maxCell = 72 } = {}) {
  const id = `hm${nextId++}`;
  const figure = document.createElement('figure');
  figure.className = 'heatmap';
  figure.innerHTML = `
    <div class="hm-grid">
      <div class="hm-corner"></div>
      <div class="hm-cols" aria-hidden="true"></div>
      <div class="hm-rows" aria-hidden="true"></div>
      <div class="hm-plot">
        <canvas class="hm-canvas" aria-hidden="true"></canvas>
        <div class="hm-cells" role="grid"></div>
        <div class="hm-marks" aria-hidden="true"></div>
      </div>
    </div>
    <div class="hm-foot">
      <svg class="hm-legend" aria-hidden="true"></svg>
      <button type="button" class="hm-toggle" aria-expanded="false" aria-controls="${id}-table"></button>
    </div>
    <div class="hm-table" id="${id}-table" hidden></div>`;
  parent.append(figure);
  const grid = figure.querySelector('.hm-grid');
  const colsEl = figure.querySelector('.hm-cols');
  const rowsEl = figure.querySelector('.hm-rows');
  const plot = figure.querySelector('.hm-plot');
  const canvas = figure.querySelector('canvas');
  const cellsEl = figure.querySelector('.hm-cells');
  const marksEl = figure.querySelector('.hm-marks');
  const legend = figure.querySelector('.hm-legend');
  const toggle = figure.querySelector('.hm-toggle');
  const tableEl = figure.querySelector('.hm-table');
  const ctx2d = canvas.getContext('2d');

  let data = null;       // last update's arguments
  let cells = [];        // overlay cell elements, row-major
  let shape = [0, 0];    // rows, cols of the overlay
  let focus = [0, 0];    // roving tabindex position
  let tableShown = false;
  let hl = { rows: [], cols: [], cells: [] };

  toggle.textContent = strings.showTable;
  toggle.addEventListener('click', () => {
    tableShown = !tableShown;
    toggle.setAttribute('aria-expanded', String(tableShown));
    toggle.textContent = tableShown ? strings.showHeatmap : strings.showTable;
    grid.hidden = tableShown;
    tableEl.hidden = !tableShown;
    if (tableShown && data) drawTable();
  });

  // Overlay cells are rebuilt only when the shape changes.
  function buildCells(rows, cols) {
    shape = [rows, cols];
    cellsEl.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
    cellsEl.style.gridTemplateRows = `repeat(${rows}, 1fr)`;
    const frag = document.createDocumentFragment();
    cells = [];
    for (let i = 0; i < rows; i++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'hm-row';
      for (let j = 0; j < cols; j++) {
        const c = document.createElement('div');
        c.className = 'hm-cell';
        c.setAttribute('role', 'gridcell');
        c.tabIndex = -1;
        c.dataset.row = i;
        c.dataset.col = j;
        row.append(c);
        cells.push(c);
      }
      frag.append(row);
    }
    cellsEl.replaceChildren(frag);
    focus = [Math.min(focus[0], rows - 1), Math.min(focus[1], cols - 1)];
    if (cells.length) cells[focus[0] * cols + focus[1]].tabIndex = 0;
    canvas.width = cols;
    canvas.height = rows;
  }

  function moveFocus(i, j) {
    const [rows, cols] = shape;
    i = Math.max(0, Math.min(rows - 1, i));
    j = Math.max(0, Math.min(cols - 1, j));
    cells[focus[0] * cols + focus[1]].tabIndex = -1;
    focus = [i, j];
    const c = cells[i * cols + j];
    c.tabIndex = 0;
    c.focus();
  }

  cellsEl.addEventListener('click', (e) => {
    const c = e.target.closest('.hm-cell');
    if (!c || !onSelect) return;
    const i = +c.dataset.row, j = +c.dataset.col;
    moveFocus(i, j);
    onSelect({ row: i, col: j });
  });
  cellsEl.addEventListener('keydown', (e) => {
    const [i, j] = focus;
    const [, cols] = shape;
    const moves = { ArrowUp: [i - 1, j], ArrowDown: [i + 1, j], ArrowLeft: [i, j - 1], ArrowRight: [i, j + 1],
      Home: [i, 0], End: [i, cols - 1] };
    if (moves[e.key]) {
      e.preventDefault();
      e.stopPropagation();
      moveFocus(...moves[e.key]);
    } else if ((e.key === 'Enter' || e.key === ' ') && onSelect) {
      e.preventDefault();
      e.stopPropagation();
      onSelect({ row: i, col: j });
    }
  });
  rowsEl.addEventListener('click', (e) => {
    const r = e.target.closest('[data-row]');
    if (r && onSelect) onSelect({ row: +r.dataset.row, col: null });
  });

  function drawTable() {
    renderTable(tableEl, {
      caption: data.caption ?? label, rowLabels: data.rowLabels, colLabels: data.colLabels,
      matrix: data.matrix, digits,
    });
  }

  function drawLegend(scale) {
    const w = 200, h = 34;
    const svg = select(legend).attr('viewBox', `0 0 ${w} ${h}`);
    svg.selectAll('*').remove();
    const gid = `${id}-grad`;
    const grad = svg.append('defs').append('linearGradient').attr('id', gid);
    const [lo, hi] = [scale.domain()[0], scale.domain()[scale.domain().length - 1]];
    for (let k = 0; k <= 10; k++) {
      grad.append('stop').attr('offset', `${k * 10}%`).attr('stop-color', scale(lo + (hi - lo) * k / 10));
    }
    svg.append('rect').attr('x', 8).attr('y', 2).attr('width', w - 16).attr('height', 10).attr('fill', `url(#${gid})`);
    const x = scaleLinear().domain([lo, hi]).range([8, w - 8]);
    svg.append('g').attr('transform', 'translate(0,12)').call(axisBottom(x).ticks(4).tickSizeOuter(0));
  }

  // update({ matrix, rowLabels, colLabels, domain?, selected?, caption? })
  function update(next) {
    data = next;
    const { matrix, rowLabels, colLabels } = next;
    const { rows, cols } = matrix;
    if (rows !== shape[0] || cols !== shape[1]) buildCells(rows, cols);
    cellsEl.setAttribute('aria-label', next.caption ?? label);

    // Size: cells at most maxCell wide, the plot as wide as the space allows.
    const avail = Math.max(60, figure.clientWidth - rowLabelWidth(rowLabels));
    const cellW = Math.min(maxCell, avail / cols);
    const cellH = Math.max(10, Math.min(34, cellW * 0.75));
    plot.style.width = `${cellW * cols}px`;
    plot.style.height = `${cellH * rows}px`;
    colsEl.style.width = `${cellW * cols}px`;
    const showText = cellW >= 34 && cellH >= 16;
    const showLabels = cellW >= 16;
    figure.classList.toggle('hm-small', !showText);

    // Colours.
    const domain = next.domain ?? autoDomain(matrix.data, kind);
    const pal = PALETTES[kind];
    const scale = kind === 'diverging'
      ? scaleDiverging(pal.interp).domain([domain[0], 0, domain[1]]).clamp(true)
      : scaleSequential(pal.interp).domain(domain).clamp(true);
    const img = ctx2d.createImageData(cols, rows);
    const lo = domain[0], span = domain[1] - domain[0] || 1;
    for (let k = 0; k < rows * cols; k++) {
      const x = matrix.data[k];
      let rgb;
      let cls = 'hm-cell';
      if (Number.isNaN(x)) { rgb = NAN_RGB; cls += ' nan'; }
      else if (!Number.isFinite(x) || Math.abs(x) >= HUGE) { rgb = BLOCKED_RGB; cls += ' blocked'; }
      else {
        let t = (x - lo) / span;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        rgb = pal.lut[Math.round(t * 255)];
      }
      img.data[4 * k] = rgb[0];
      img.data[4 * k + 1] = rgb[1];
      img.data[4 * k + 2] = rgb[2];
      img.data[4 * k + 3] = 255;
      const c = cells[k];
      const text = fmt(x, digits);
      const i = (k / cols) | 0, j = k % cols;
      if (showText) {
        if (c.textContent !== text) c.textContent = text;
        c.style.color = textColor(rgb);
      } else if (c.textContent !== '') c.textContent = '';
      if (c.className !== cls) c.className = cls;
      c.setAttribute('aria-label', `${rowLabels[i]} → ${colLabels[j]}: ${text}`);
    }
    ctx2d.putImageData(img, 0, 0);

    // Labels.
    colsEl.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
    rowsEl.style.gridTemplateRows = `repeat(${rows}, 1fr)`;
    rowsEl.style.height = `${cellH * rows}px`;
    setLabels(colsEl, colLabels, 'col', showLabels);
    setLabels(rowsEl, rowLabels, 'row', cellH >= 12);

    drawLegend(scale);
    applyMarks(next.selected);
    if (tableShown) drawTable();
  }

  function setLabels(el, labels, kindName, show) {
    el.classList.toggle('hm-hidden-labels', !show);
    if (el.childElementCount !== labels.length) {
      el.replaceChildren(...labels.map((_, k) => {
        const s = document.createElement('span');
        s.dataset[kindName] = k;
        return s;
      }));
    }
    labels.forEach((l, k) => {
      const s = el.children[k];
      if (s.textContent !== l) { s.textContent = l; s.title = l; }
    });
  }

  // Selection and highlight marks: outlined boxes over whole rows, columns or single cells,
  // drawn in a layer above the cells; labels of marked rows and columns in bold.
  function applyMarks(selected) {
    const [rows, cols] = shape;
    const boxes = [];
    const box = (r0, c0, nr, nc, cls) => boxes.push({ r0, c0, nr, nc, cls });
    for (const i of hl.rows) if (i < rows) box(i, 0, 1, cols, 'hl');
    for (const j of hl.cols) if (j < cols) box(0, j, rows, 1, 'hl');
    for (const [i, j] of hl.cells) if (i < rows && j < cols) box(i, j, 1, 1, 'hl');
    if (selected && selected.row < rows) {
      if (selected.col === null || selected.col === undefined) box(selected.row, 0, 1, cols, 'sel');
      else if (selected.col < cols) box(selected.row, selected.col, 1, 1, 'sel');
    }
    marksEl.replaceChildren(...boxes.map(({ r0, c0, nr, nc, cls }) => {
      const d = document.createElement('div');
      d.className = `hm-mark ${cls}`;
      d.style.top = `${(100 * r0) / rows}%`;
      d.style.left = `${(100 * c0) / cols}%`;
      d.style.height = `${(100 * nr) / rows}%`;
      d.style.width = `${(100 * nc) / cols}%`;
      return d;
    }));
    for (let k = 0; k < rows * cols; k++) {
      const i = (k / cols) | 0, j = k % cols;
      const sel = !!selected && selected.row === i && (selected.col === j || selected.col === null);
      if ((cells[k].getAttribute('aria-selected') === 'true') !== sel) cells[k].setAttribute('aria-selected', String(sel));
    }
    const hlRows = new Set(hl.rows), hlCols = new Set(hl.cols);
    [...rowsEl.children].forEach((s, i) => s.classList.toggle('hl', hlRows.has(i) || (!!selected && selected.row === i)));
    [...colsEl.children].forEach((s, j) => s.classList.toggle('hl', hlCols.has(j) || (!!selected && selected.col === j)));
  }

  function highlight(h = {}) {
    hl = { rows: h.rows || [], cols: h.cols || [], cells: h.cells || [] };
    if (data) applyMarks(data.selected);
  }

  return { el: figure, update, highlight, destroy: () => figure.remove() };
}

// Width the row labels take (a rough estimate from the longest label).
function rowLabelWidth(labels) {
  const longest = labels.reduce((m, l) => Math.max(m, [...l].reduce((w, ch) => w + (ch.charCodeAt(0) > 255 ? 1.9 : 1), 0)), 1);
  return Math.min(96, 14 + longest * 7.5);
}
