// Small view helpers shared by the score-functions, multi-head and position chapters.

import { h, nextId, isFocused } from '../../views/dom.js';
import { createHeatmap } from '../../views/heatmap.js';
import { heatmapStrings } from '../../text/i18n.js';

// A titled heatmap: { wrap, title, hm }. The heatmap speaks the page's language (c.views) and
// carries its accessible table (the "Show as table" toggle).
export function heatmapFigure(c, { kind = 'diverging', digits = 2, className = '' } = {}) {
  const title = h('h4', { class: 'map-title' });
  const wrap = h('div', { class: `map ${className}`.trim() }, title);
  const hm = createHeatmap(wrap, { kind, digits, strings: heatmapStrings(c.lang) });
  return { wrap, title, hm };
}

// Draws a heatmap figure: title text and the matrix with its labels.
export function drawFigure(fig, { title, matrix, rowLabels, colLabels, domain }) {
  if (fig.title.textContent !== title) fig.title.textContent = title;
  fig.hm.update({ matrix, rowLabels, colLabels, domain, caption: title });
}

// Column labels 1 … n (dimensions of a vector).
export const dims = (n) => Array.from({ length: n }, (_, j) => String(j + 1));

// A labelled whole-number input that calls onValue(n) on change when n is in [min, max], and
// shows `error` otherwise: { wrap, input, sync(n) }.
export function intInput(label, { min, max, onValue, error }) {
  const id = nextId('ii');
  const input = h('input', { type: 'number', id, min: String(min), max: String(max), step: '1', inputmode: 'numeric' });
  const err = h('div', { class: 'field-error', role: 'alert' });
  input.setAttribute('aria-describedby', `${id}-e`);
  err.id = `${id}-e`;
  input.addEventListener('change', () => {
    const t = input.value.trim();
    const x = Number(t);
    if (t === '' || !Number.isInteger(x) || x < min || x > max) {
      input.setAttribute('aria-invalid', 'true');
      err.textContent = error(min, max);
      return;
    }
    input.setAttribute('aria-invalid', 'false');
    err.textContent = '';
    onValue(x);
  });
  const wrap = h('div', { class: 'field' }, h('label', { for: id, text: label }), input, err);
  return {
    wrap,
    input,
    sync(n) {
      if (input.getAttribute('aria-invalid') === 'true' || isFocused(input)) return;
      if (input.value !== String(n)) input.value = String(n);
    },
  };
}

// A labelled <select>: { wrap, select, sync(value) }.
export function selectInput(label, options, onValue) {
  const id = nextId('si');
  const select = h(
    'select',
    { id, onchange: (e) => onValue(e.target.value) },
    ...options.map((o) => h('option', { value: String(o.value), text: o.label })),
  );
  return {
    wrap: h('div', { class: 'field' }, h('label', { for: id, text: label }), select),
    select,
    sync(v) {
      if (select.value !== String(v)) select.value = String(v);
    },
  };
}

// Tokens as typed: split on spaces (ASCII or ideographic), empty pieces dropped.
export const splitTokens = (text) => text.split(/[\s\u3000]+/).filter(Boolean);

// A labelled token-list input that calls onValue(list) on change when it holds 1 to max
// tokens, and shows error(max) otherwise: { wrap, input, sync(list) }.
export function tokensInput(label, { max, onValue, error }) {
  const id = nextId('ti');
  const input = h('input', { type: 'text', class: 'wide', id, autocomplete: 'off', spellcheck: false });
  const err = h('div', { class: 'field-error', role: 'alert', id: `${id}-e` });
  input.setAttribute('aria-describedby', `${id}-e`);
  input.addEventListener('change', () => {
    const list = splitTokens(input.value);
    if (list.length < 1 || list.length > max) {
      input.setAttribute('aria-invalid', 'true');
      err.textContent = error(max);
      return;
    }
    input.setAttribute('aria-invalid', 'false');
    err.textContent = '';
    onValue(list);
  });
  const wrap = h('div', { class: 'field' }, h('label', { for: id, text: label }), input, err);
  return {
    wrap,
    input,
    sync(list) {
      if (input.getAttribute('aria-invalid') === 'true' || isFocused(input)) return;
      const t = list.join(' ');
      if (input.value !== t) input.value = t;
    },
  };
}
