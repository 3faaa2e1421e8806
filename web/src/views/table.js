// The page's one table builder: an accessible <table> with a caption, a row of column headers
// and rows that each start with a row header. Every table on the page (the numbers behind a
// heatmap or chart, the comparison and check tables of the chapters) is made here.
//
//   dataTable({ caption, head: ['', 'a', 'b'], rows: [['row 1', '0.50', cell], ...], className })
//
// A cell is a string, a Node, or { text | node, class, attrs } (attrs: extra attributes, e.g.
// data-label for the stacked phone layout). A row is an array of cells or { cells, attrs }.
// The first cell of a row is its header (<th scope="row">).

import { fmt } from '../text/format.js';

function fillCell(el, cell) {
  if (cell == null) return el;
  if (typeof cell === 'string' || typeof cell === 'number') {
    el.textContent = String(cell);
    return el;
  }
  if (typeof Node !== 'undefined' && cell instanceof Node) {
    el.append(cell);
    return el;
  }
  if (cell.text !== undefined) el.textContent = String(cell.text);
  for (const n of [].concat(cell.node ?? [])) if (n != null) el.append(n);
  if (cell.class) el.className = cell.class;
  for (const [k, v] of Object.entries(cell.attrs || {})) el.setAttribute(k, v);
  return el;
}

export function dataTable({ caption, head = [], rows = [], className = 'data-table' }) {
  const table = document.createElement('table');
  table.className = className;
  if (caption !== undefined && caption !== null) {
    const cap = document.createElement('caption');
    cap.textContent = caption;
    table.append(cap);
  }
  if (head.length) {
    const hr = table.createTHead().insertRow();
    for (const cell of head) {
      // An empty corner heads nothing: a plain cell, not an empty header.
      if (cell === '' || cell == null) {
        hr.append(document.createElement('td'));
        continue;
      }
      const th = fillCell(document.createElement('th'), cell);
      th.scope = 'col';
      hr.append(th);
    }
  }
  const body = table.createTBody();
  for (const row of rows) {
    const cells = Array.isArray(row) ? row : row.cells;
    const tr = body.insertRow();
    if (!Array.isArray(row)) for (const [k, v] of Object.entries(row.attrs || {})) tr.setAttribute(k, v);
    cells.forEach((cell, k) => {
      const el = fillCell(document.createElement(k === 0 ? 'th' : 'td'), cell);
      if (k === 0) el.scope = 'row';
      tr.append(el);
    });
  }
  return table;
}

// A box that scrolls a table sideways (a narrow screen, a wide table) is a named region that
// takes the focus, so the keyboard can scroll it too.
// A box wider inside than outside says so: data-overflow="more" while part of it is out of sight
// on the right (the stylesheet fades that edge), "end" once scrolled to its end.
export function scrollRegion(box, label) {
  box.setAttribute('role', 'region');
  box.tabIndex = 0;
  if (label) box.setAttribute('aria-label', label);
  else box.removeAttribute('aria-label');
  if (!box.dataset.overflowWatched && typeof ResizeObserver !== 'undefined') {
    box.dataset.overflowWatched = 'true';
    const mark = () => {
      const more = box.scrollWidth - box.clientWidth > 1;
      const v = !more ? '' : box.scrollLeft + box.clientWidth >= box.scrollWidth - 1 ? 'end' : 'more';
      if ((box.dataset.overflow || '') !== v) {
        if (v) box.dataset.overflow = v;
        else delete box.dataset.overflow;
      }
    };
    new ResizeObserver(mark).observe(box);
    box.addEventListener('scroll', mark, { passive: true });
    if (typeof MutationObserver !== 'undefined') new MutationObserver(mark).observe(box, { childList: true });
  }
  return box;
}

// dataTable in a box that scrolls sideways on its own (a scroll region, as above) when it is
// wider than the screen: a chapter's comparison table. Cells are strings; `textCols` lists the
// columns of words (left-aligned).
export function scrollTable(caption, head, rows, textCols = []) {
  const cells = rows.map((r) => r.map((x, k) => (textCols.includes(k) ? { text: x, class: 'text' } : x)));
  const box = document.createElement('div');
  box.className = 'table-scroll';
  box.append(dataTable({ caption, head, rows: cells, className: 'data-table lab-table' }));
  scrollRegion(box, caption);
  return box;
}

// A matrix { rows, cols, data } as a table (the numbers a heatmap shows), into `container`.
export function renderTable(container, { caption, rowLabels, colLabels, matrix, digits = 2, corner = '' }) {
  const head = [corner, ...Array.from({ length: matrix.cols }, (_, j) => colLabels[j] ?? String(j + 1))];
  const rows = Array.from({ length: matrix.rows }, (_, i) => [
    rowLabels[i] ?? String(i + 1),
    ...Array.from({ length: matrix.cols }, (_, j) => {
      const x = matrix.data[i * matrix.cols + j];
      return Number.isNaN(x) ? { text: fmt(x, digits), class: 'nan' } : fmt(x, digits);
    }),
  ]);
  const table = dataTable({ caption, head, rows });
  container.replaceChildren(table);
  scrollRegion(container, caption);
  return table;
}
