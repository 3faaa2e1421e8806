// Small building blocks shared by the Why, Masks and Softmax chapters: a DOM helper, a
// labelled field with an inline error, the step bar (same markup and classes as the
// pipeline's), a stacked "budget" bar of one row of weights, and a row of vector cells.
// Values come from the caller (the engine); nothing here computes them.

import { fmt } from '../format.js';
import './lesson.css';

// h('div', { class, text, onclick, ...attributes }, ...children)
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c != null) el.append(c);
  return el;
}

let uid = 0;
export const nextId = (prefix) => `${prefix}${uid++}`;

// A labelled input with an error slot right under it: { wrap, input, error }.
export function field(labelText, input, hint) {
  const id = nextId('lf');
  input.id = id;
  const error = h('div', { class: 'field-error', id: `${id}-err`, role: 'alert' });
  input.setAttribute('aria-describedby', `${id}-err`);
  const wrap = h('div', { class: 'field' }, h('label', { for: id, text: labelText }), input,
    hint ? h('span', { class: 'hint', text: hint }) : null, error);
  return { wrap, input, error };
}

export function showError(f, message) {
  f.error.textContent = message || '';
  f.input.setAttribute('aria-invalid', message ? 'true' : 'false');
}

// Writes a value into an input unless the learner is editing it or it holds a flagged error
// (so the text they typed stays next to its message).
export function syncInput(f, value) {
  if (f.input.getAttribute('aria-invalid') === 'true' || document.activeElement === f.input) return;
  if (f.input.value !== value) f.input.value = value;
}

// A comma- or space-separated list of numbers -> { values } or { error: 'number' | 'count' }.
export function parseList(text, parseNumber, { min = 1, max = 32 } = {}) {
  const parts = text.split(/[,，;\s]+/).filter((p) => p !== '');
  if (parts.length < min || parts.length > max) return { error: 'count' };
  const values = parts.map(parseNumber);
  const bad = values.findIndex(Number.isNaN);
  if (bad >= 0) return { error: 'number', at: bad };
  return { values };
}

// The step bar: ← [1 title] [2 title] … →, arrow keys move between steps.
// Returns { el, sync(stageId) }.
export function createStepper(ctx, steps, label) {
  const { lang } = ctx;
  const go = (delta) => {
    const k = steps.findIndex((st) => st.id === ctx.state.stage);
    const next = Math.max(0, Math.min(steps.length - 1, k + delta));
    if (next !== k) {
      ctx.set({ stage: steps[next].id });
      buttons[next].focus();
    }
  };
  const prev = h('button', { type: 'button', class: 'btn step-prev', 'aria-label': label.prev, text: '←', onclick: () => go(-1) });
  const next = h('button', { type: 'button', class: 'btn step-next', 'aria-label': label.next, text: '→', onclick: () => go(1) });
  const list = h('ol', { class: 'steps' });
  const buttons = steps.map((st, k) => {
    const b = h('button', { type: 'button', class: 'step', 'data-stage': st.id, onclick: () => ctx.set({ stage: st.id }) },
      h('span', { class: 'step-num', text: String(k + 1) }), h('span', { class: 'step-title', text: st.title[lang] }));
    list.append(h('li', {}, b));
    return b;
  });
  const el = h('div', { class: 'stepper', role: 'group', 'aria-label': label.steps, 'data-group': 'stepper' }, prev, list, next);
  el.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') { e.preventDefault(); go(1); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); go(-1); }
  });
  function sync(stage) {
    const k = steps.findIndex((st) => st.id === stage);
    buttons.forEach((b, j) => {
      if (j === k) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
      b.classList.toggle('done', j < k);
    });
    prev.disabled = k === 0;
    next.disabled = k === steps.length - 1;
  }
  return { el, sync };
}

// Ten colour-blind-safe segment colours (Okabe–Ito, then two greys), with the text colour each needs.
const SEGMENTS = [
  ['#0072B2', '#fff'], ['#E69F00', '#000'], ['#009E73', '#fff'], ['#CC79A7', '#000'], ['#56B4E9', '#000'],
  ['#D55E00', '#fff'], ['#F0E442', '#000'], ['#000000', '#fff'], ['#999999', '#000'], ['#666666', '#fff'],
];

// A stacked bar: one row of weights as segments of a bar whose full width is 1.
//   const sb = createStacked(parent, { label })
//   sb.update({ values, labels, caption, digits })
// Non-finite values (NaN, ±∞) get no width and are listed as flagged under the bar.
export function createStacked(parent, { label = '' } = {}) {
  const figure = h('figure', { class: 'stacked' });
  const bar = h('div', { class: 'stacked-bar', role: 'img' });
  const legend = h('ul', { class: 'stacked-legend' });
  figure.append(bar, legend);
  parent.append(figure);

  function update({ values, labels, caption = label, digits = 3 }) {
    const vals = Array.from(values);
    bar.setAttribute('aria-label', `${caption}: ` + vals.map((v, i) => `${labels[i]} ${fmt(v, digits)}`).join(', '));
    bar.replaceChildren(...vals.map((v, i) => {
      const [bg, ink] = SEGMENTS[i % SEGMENTS.length];
      const ok = Number.isFinite(v) && v > 0;
      const seg = h('span', { class: 'stacked-seg', title: `${labels[i]}: ${fmt(v, digits)}` });
      seg.style.flexGrow = ok ? String(v) : '0';
      seg.style.flexBasis = '0';
      seg.style.background = bg;
      seg.style.color = ink;
      seg.hidden = !ok;
      // A label inside the segment only when there is room for it (about 8% of the bar).
      if (ok && v >= 0.08) seg.textContent = labels[i];
      return seg;
    }));
    legend.replaceChildren(...vals.map((v, i) => {
      const [bg] = SEGMENTS[i % SEGMENTS.length];
      const sw = h('span', { class: 'stacked-swatch', 'aria-hidden': 'true' });
      sw.style.background = bg;
      const flagged = !Number.isFinite(v);
      return h('li', { class: flagged ? 'flagged' : '' }, sw, h('span', { text: `${labels[i]} ${fmt(v, digits)}` }));
    }));
  }
  return { el: figure, update, destroy: () => figure.remove() };
}

// A vector as a row of labelled cells: [label] 0.12 0.50 … ; flagged (non-finite) cells marked.
export function vectorRow(label, values, digits = 3) {
  return h('div', { class: 'vec-row' }, label ? h('span', { class: 'vec-label', text: label }) : null,
    h('span', { class: 'vec' }, ...Array.from(values, (v) => h('span', { class: Number.isFinite(v) ? 'vec-cell' : 'vec-cell flagged', text: fmt(v, digits) }))));
}

// Row i of an engine matrix as a plain array.
export function rowOf(m, i) {
  return Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
}
