// An accessible <table> of a matrix: caption, column headers, row headers. The same numbers
// a heatmap shows, for screen readers and for anyone who prefers to read them.

import { fmt } from '../format.js';

// matrix: { rows, cols, data } ; rowLabels: rows strings ; colLabels: cols strings.
export function renderTable(container, { caption, rowLabels, colLabels, matrix, digits = 2, corner = '' }) {
  const table = document.createElement('table');
  table.className = 'data-table';
  const cap = document.createElement('caption');
  cap.textContent = caption;
  table.append(cap);
  const thead = table.createTHead();
  const hr = thead.insertRow();
  const c0 = document.createElement('th');
  c0.scope = 'col';
  c0.textContent = corner;
  hr.append(c0);
  for (let j = 0; j < matrix.cols; j++) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = colLabels[j] ?? String(j + 1);
    hr.append(th);
  }
  const tbody = table.createTBody();
  for (let i = 0; i < matrix.rows; i++) {
    const tr = tbody.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = rowLabels[i] ?? String(i + 1);
    tr.append(th);
    for (let j = 0; j < matrix.cols; j++) {
      const td = tr.insertCell();
      const x = matrix.data[i * matrix.cols + j];
      td.textContent = fmt(x, digits);
      if (Number.isNaN(x)) td.className = 'nan';
    }
  }
  container.replaceChildren(table);
  return table;
}
