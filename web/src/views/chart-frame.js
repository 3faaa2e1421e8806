// The frame the SVG charts share (histogram, line chart): a <figure> with the SVG, an optional
// legend, a caption, and a button that shows the same numbers as an accessible table; the
// SVG's size; the two axes; and the table itself.
//
//   const f = createChartFrame(parent, { className, strings, legend, table: (opts) => [caption, head, rows] })
//   const { width, height } = f.size(maxWidth, ratio)
//   ... draw into f.svg ...
//   f.done(opts, caption, ariaLabel)

import { select } from 'd3-selection';
import { dataTable, scrollRegion } from './table.js';
import { createSaveButtons, svgScene } from './save.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function el(tag, className) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  return e;
}

// table(opts) -> [caption, head, rows]: the numbers of the last update, as a table.
export function createChartFrame(parent, { className, strings = {}, legend = false, table }) {
  const s = { showTable: 'Show as table', hideTable: 'Hide table', ...strings };
  const figure = el('figure', className);
  // An image once done() has labelled it; until the first numbers arrive it is left out of
  // the accessibility tree.
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('aria-hidden', 'true');
  const legendEl = legend ? el('ul', 'chart-legend') : null;
  const cap = el('figcaption', 'chart-caption');
  const toggle = el('button', 'hm-toggle');
  toggle.type = 'button';
  toggle.setAttribute('aria-expanded', 'false');
  toggle.textContent = s.showTable;
  const tableBox = el('div', 'chart-table');
  tableBox.hidden = true;
  const save = createSaveButtons(
    () => svgScene(svg, { title: cap.textContent }),
    () => cap.textContent || svg.getAttribute('aria-label'),
    () => {
      if (!last) return { head: [], rows: [] };
      const [, head, rows] = table(last);
      return { head, rows };
    },
  );
  const foot = el('div', 'chart-foot');
  foot.append(save.el, toggle);
  figure.append(...[svg, legendEl, cap, foot, tableBox].filter(Boolean));
  parent.append(figure);

  let last = null;
  const drawTable = () => {
    const [caption, head, rows] = table(last);
    tableBox.replaceChildren(dataTable({ caption, head, rows }));
    scrollRegion(tableBox, caption);
  };
  toggle.addEventListener('click', () => {
    tableBox.hidden = !tableBox.hidden;
    toggle.setAttribute('aria-expanded', String(!tableBox.hidden));
    toggle.textContent = tableBox.hidden ? s.showTable : s.hideTable;
    if (!tableBox.hidden && last) drawTable();
  });

  return {
    figure,
    svg,
    legend: legendEl,
    // As wide as the space (at most maxWidth units, so the text stays at its real size), height
    // a fixed share of the width; sets the viewBox and clears the SVG. Returns { width, height }.
    size(maxWidth, ratio) {
      const width = Math.max(300, Math.min(maxWidth, figure.clientWidth || maxWidth));
      const height = Math.round(Math.max(200, width * ratio));
      svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
      select(svg).selectAll('*').remove();
      return { width, height };
    },
    // After a draw: the caption, the SVG's accessible label, and the table when it is shown.
    done(opts, caption, ariaLabel) {
      last = opts;
      svg.removeAttribute('aria-hidden');
      svg.setAttribute('role', 'img');
      svg.setAttribute('aria-label', ariaLabel);
      cap.textContent = caption;
      save.label();
      if (!tableBox.hidden) drawTable();
    },
    destroy: () => figure.remove(),
  };
}

// The x axis along the bottom and the y axis along the left of the plot area (margins m).
export function drawAxes(root, xAxis, yAxis, m, height) {
  root
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0,${height - m.bottom})`)
    .call(xAxis);
  root.append('g').attr('class', 'axis').attr('transform', `translate(${m.left},0)`).call(yAxis);
}
