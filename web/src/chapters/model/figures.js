// The real-model lesson's own figures and controls: the model box (which model, your own file,
// progress, memory, cancel), the sentence's tokens with their ids, and the model view (every
// head's weights at once, BertViz's "model view"). The heatmaps, bars and formulas are the page's
// views (../../views/).

import { button, h, setText } from '../../views/dom.js';
import { createSaveButtons } from '../../views/save.js';
import { PALETTES, tone, toneRgb } from '../../views/heatmap-palette.js';
import { renderTable } from '../../views/table.js';
import { INK, FRAME } from '../../views/palette.js';
import { fmt } from '../../text/format.js';
import { tokenLabel } from './tokens.js';

// ---- the model box ---------------------------------------------------------------------------------

// { el, draw(info) }: info = { source, loaded, loading, loadError, need, message }
export function createModelBox(c, { onFiles, onCancel, onShipped }) {
  const { s } = c;
  const status = h('p', { class: 'md-model-status', 'aria-live': 'polite' });
  const progress = h('progress', { class: 'md-progress', max: 1, hidden: true });
  const cancel = button('btn md-cancel', s('cancel'), onCancel, { hidden: true });
  const error = h('p', { class: 'field-error md-load-error', role: 'alert', hidden: true });
  const input = h('input', {
    type: 'file',
    class: 'md-file',
    multiple: true,
    accept: '.safetensors,.json',
    'aria-label': s('pick'),
    onchange: () => {
      if (input.files.length) onFiles(Array.from(input.files));
      input.value = '';
    },
  });
  const pick = h('label', { class: 'btn md-pick' }, s('pick'), input);
  const shipped = button('btn md-shipped', s('useShipped'), onShipped);
  const drop = h(
    'div',
    { class: 'md-drop', 'data-group': 'inputs' },
    h('p', { class: 'hint', text: s('dropHint') }),
    h('div', { class: 'controls' }, pick, shipped),
  );
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('md-drop-over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('md-drop-over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('md-drop-over');
    if (e.dataTransfer.files.length) onFiles(Array.from(e.dataTransfer.files));
  });
  const el = h('div', { class: 'md-model' }, status, h('div', { class: 'controls' }, progress, cancel), error, drop);
  return {
    el,
    draw({ source, loaded, loading, loadError, need, message }) {
      shipped.hidden = source.kind === 'shipped';
      progress.hidden = cancel.hidden = !loading;
      if (loading) {
        const p = loading.progress;
        const frac = p && p.total ? p.loaded / p.total : null;
        if (frac === null) progress.removeAttribute('value');
        else progress.value = frac;
      }
      setText(status, message);
      error.hidden = !loadError;
      setText(error, loadError ? need : '');
    },
  };
}

// ---- the sentence's tokens ---------------------------------------------------------------------------

// The tokens the model sees, with their ids: a token whose bytes are whole characters shows its
// text; tokens that share a character show their bytes, grouped under the character. Clicking a
// token reads the model's guess after it. { el, draw(groups, pos) }
export function createTokenStrip(c, { onPick }) {
  const el = h('ol', { class: 'md-tokens', 'aria-label': c.s('tokensLabel') });
  let key = '';
  const buttons = [];
  return {
    el,
    draw(groups, pos) {
      const next = JSON.stringify(groups);
      if (next !== key) {
        key = next;
        buttons.length = 0;
        el.replaceChildren(
          ...groups.map((g) => {
            const split = g.tokens.length > 1 || g.tokens[0].bytes !== undefined;
            const items = g.tokens.map((t) => {
              const b = h(
                'button',
                {
                  type: 'button',
                  class: `md-token${split ? ' md-token-bytes' : ''}`,
                  'data-i': String(t.i),
                  onclick: () => onPick(t.i),
                },
                h('span', { class: 'md-token-text', text: split ? t.bytes : visibleText(t.text) }),
                h('span', { class: 'md-token-id', text: String(t.id) }),
              );
              buttons[t.i] = b;
              return b;
            });
            return h(
              'li',
              { class: split ? 'md-group md-group-split' : 'md-group' },
              split ? h('span', { class: 'md-group-char', text: g.text ?? '?' }) : null,
              h('span', { class: 'md-group-tokens' }, ...items),
            );
          }),
        );
      }
      buttons.forEach((b, i) => {
        const on = i === pos;
        if (b.getAttribute('aria-pressed') !== String(on)) b.setAttribute('aria-pressed', String(on));
      });
    },
  };
}
const visibleText = (t) => t.replace(/ /g, '␣').replace(/\n/g, '⏎');

// ---- the model view -----------------------------------------------------------------------------------

// Every head's weights at once: a layers × heads grid of small maps (one canvas each, one pixel
// per weight), each a button that opens that head. PNG/SVG of the whole grid, and the open head's
// weights as numbers. { el, draw({ attention, labels, head, title }) }
export function createModelView(c, { onPick }) {
  const grid = h('div', { class: 'md-grid', role: 'group' });
  const title = h('h4', { class: 'map-title' });
  const table = h('div', { class: 'md-grid-table', hidden: true });
  const toggle = h('button', { type: 'button', class: 'btn md-grid-toggle', 'aria-expanded': 'false' });
  let shown = null;
  const save = createSaveButtons(
    () => gridScene(shown),
    () => shown?.title,
    () => {
      const [l, hh] = shown.head;
      const m = shown.attention[l][hh];
      return {
        head: ['', ...shown.labels],
        rows: shown.labels.map((lab, i) => [lab, ...Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols))]),
      };
    },
  );
  const el = h('figure', { class: 'md-view' }, title, grid, h('div', { class: 'hm-foot' }, toggle, save.el), table);
  toggle.addEventListener('click', () => {
    table.hidden = !table.hidden;
    toggle.setAttribute('aria-expanded', String(!table.hidden));
    draw(shown, true);
  });
  let cells = [];
  let shape = '';
  function draw(d, force = false) {
    shown = d;
    const { attention, head } = d;
    const L = attention.length;
    const H = attention[0].length;
    setText(title, d.title);
    setText(toggle, table.hidden ? c.t('showTable') : c.t('showHeatmap'));
    grid.setAttribute('aria-label', d.title);
    if (shape !== `${L}x${H}`) {
      shape = `${L}x${H}`;
      grid.style.setProperty('--md-heads', String(H));
      cells = [];
      const rows = [];
      for (let l = 0; l < L; l++) {
        rows.push(h('span', { class: 'md-grid-layer', text: c.s('layerShort', { l }) }));
        for (let hh = 0; hh < H; hh++) {
          const canvas = h('canvas', { class: 'md-cell-map', 'aria-hidden': 'true' });
          const b = h(
            'button',
            {
              type: 'button',
              class: 'md-cell',
              'aria-label': c.s('headName', { l, h: hh }),
              onclick: () => onPick(l, hh),
            },
            canvas,
          );
          cells.push({ b, canvas, l, h: hh, key: null });
          rows.push(b);
        }
      }
      grid.replaceChildren(
        h('span', { class: 'md-grid-corner' }),
        ...Array.from({ length: H }, (_, hh) =>
          h('span', { class: 'md-grid-head', text: c.s('headShort', { h: hh }) }),
        ),
        ...rows,
      );
    }
    for (const cell of cells) {
      const m = attention[cell.l][cell.h];
      if (force || cell.key !== m) {
        cell.key = m;
        paint(cell.canvas, m);
      }
      const on = cell.l === head[0] && cell.h === head[1];
      if (cell.b.getAttribute('aria-pressed') !== String(on)) cell.b.setAttribute('aria-pressed', String(on));
    }
    if (!table.hidden) {
      const m = attention[head[0]][head[1]];
      renderTable(table, {
        caption: c.s('headName', { l: head[0], h: head[1] }),
        rowLabels: d.labels,
        colLabels: d.labels,
        matrix: m,
        digits: 3,
      });
    }
  }
  return { el, draw };
}

// One pixel per weight, viridis over [0, 1].
function paint(canvas, m) {
  if (canvas.width !== m.cols) canvas.width = m.cols;
  if (canvas.height !== m.rows) canvas.height = m.rows;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(m.cols, m.rows);
  const pal = PALETTES.sequential;
  for (let k = 0; k < m.rows * m.cols; k++) {
    const [r, g, b] = toneRgb(pal, tone(m.data[k], 0, 1));
    img.data.set([r, g, b, 255], 4 * k);
  }
  ctx.putImageData(img, 0, 0);
}

// The grid as a scene for PNG and SVG: one rect per weight.
function gridScene(d) {
  const { attention } = d;
  const L = attention.length;
  const H = attention[0].length;
  const n = attention[0][0].rows;
  const cell = Math.max(2, Math.floor(80 / n));
  const size = cell * n;
  const gap = 8;
  const left = 40;
  const top = 40;
  const pal = PALETTES.sequential;
  const items = [
    {
      t: 'text',
      x: 8,
      y: 20,
      text: d.title,
      size: 14,
      weight: 'bold',
      fill: INK,
      anchor: 'start',
      baseline: 'alphabetic',
    },
  ];
  for (let l = 0; l < L; l++) {
    items.push({
      t: 'text',
      x: 8,
      y: top + l * (size + gap) + size / 2,
      text: `L${l}`,
      size: 11,
      fill: INK,
      anchor: 'start',
      baseline: 'middle',
    });
    for (let hh = 0; hh < H; hh++) {
      const m = attention[l][hh];
      const x0 = left + hh * (size + gap);
      const y0 = top + l * (size + gap);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const [r, g, b] = toneRgb(pal, tone(m.data[i * n + j], 0, 1));
          items.push({ t: 'rect', x: x0 + j * cell, y: y0 + i * cell, w: cell, h: cell, fill: `rgb(${r},${g},${b})` });
        }
      items.push({ t: 'rect', x: x0, y: y0, w: size, h: size, fill: 'none', stroke: FRAME, sw: 1 });
    }
  }
  return { width: left + H * (size + gap), height: top + L * (size + gap), items };
}

// ---- labels ---------------------------------------------------------------------------------------------

// A sentence's tokens as labels for maps and tables: "0 Alice", "1 ␣has"…
export const tokenLabels = (tok, ids) => ids.map((id) => tokenLabel(tok, id));

// Bytes as MB / GB for the memory line.
export function sizeText(bytes) {
  if (bytes >= 1e9) return `${fmt(bytes / 1e9, 2)} GB`;
  if (bytes >= 1e6) return `${fmt(bytes / 1e6, 1)} MB`;
  return `${fmt(bytes / 1e3, 0)} kB`;
}

// A parameter count: 0.9 M, 124.4 M.
export const countText = (n) => (n >= 1e6 ? `${fmt(n / 1e6, 1)} M` : `${fmt(n / 1e3, 0)} k`);
