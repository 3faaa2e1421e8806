// The page's one kit of input controls: a labelled field with an inline error slot, a whole
// number, a list of tokens, a select (of numbers too), radio buttons and a slider (over a range or
// over stops). Each writes the state through the callback it is given and leaves alone an input
// the learner is editing or that holds a flagged error (so the text they typed stays next to its
// message).

import { h, nextId, isFocused } from './dom.js';
import { reason, t } from '../text/i18n.js';
import { nearestStop } from '../text/format.js';

// A labelled input with an error slot right under it: { wrap, input, error }.
export function field(labelText, input, hint) {
  const id = nextId('lf');
  input.id = id;
  const error = h('div', { class: 'field-error', id: `${id}-err`, role: 'alert' });
  input.setAttribute('aria-describedby', `${id}-err`);
  const wrap = h(
    'div',
    { class: 'field' },
    h('label', { for: id, text: labelText }),
    input,
    hint ? h('span', { class: 'hint', text: hint }) : null,
    error,
  );
  return { wrap, input, error };
}

// Shows (or with '' clears) a field's message and marks its input invalid.
export function showError(f, message) {
  f.error.textContent = message || '';
  f.input.setAttribute('aria-invalid', message ? 'true' : 'false');
}

// Writes a value into an input unless the learner is editing it or it holds a flagged error
// (so the text they typed stays next to its message).
export function syncInput(f, value) {
  if (f.input.getAttribute('aria-invalid') === 'true' || isFocused(f.input)) return;
  if (f.input.value !== value) f.input.value = value;
}

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
  return { wrap, input, sync: (n) => syncInput({ input }, String(n)) };
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

// A labelled <select> of numbers, each shown as written: { wrap, select, sync(value) };
// onValue(number) on a choice.
export const numberSelect = (label, numbers, onValue) =>
  selectInput(
    label,
    numbers.map((n) => ({ value: n, label: String(n) })),
    (x) => onValue(Number(x)),
  );

// Tokens as typed: control characters dropped, split on spaces (ASCII or ideographic), empty
// pieces dropped.
export const splitTokens = (text) =>
  text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .split(/[\s\u3000]+/)
    .filter(Boolean);

// Why a list of typed tokens cannot be used, as a shell string key and its numbers, or null:
// 1 to max tokens of at most maxChars characters each.
export function tokensProblem(list, max, maxChars) {
  if (list.length === 0) return { key: 'tokensEmpty' };
  if (list.length > max) return { key: 'tokensMany', params: { max, n: list.length } };
  const long = list.find((t) => [...t].length > maxChars);
  if (long !== undefined) return { key: 'tokenLong', params: { max: maxChars, n: [...long].length } };
  return null;
}

// A labelled token-list input that calls onValue(list) on change when it holds 1 to max tokens
// of at most maxChars characters, and otherwise says why (in `lang`), marks itself invalid and
// keeps the text typed; a list the state refuses all the same (onValue returns the state's
// errors) is said too: { wrap, input, sync(list) }.
export function tokensInput(label, { max, maxChars, lang, onValue }) {
  const id = nextId('ti');
  const input = h('input', { type: 'text', class: 'wide', id, autocomplete: 'off', spellcheck: false });
  const err = h('div', { class: 'field-error', role: 'alert', id: `${id}-e` });
  input.setAttribute('aria-describedby', `${id}-e`);
  const say = (message) => {
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
    err.textContent = message;
  };
  input.addEventListener('change', () => {
    const list = splitTokens(input.value);
    const problem = tokensProblem(list, max, maxChars);
    if (problem) return say(t(lang, problem.key, problem.params));
    say('');
    const refused = onValue(list);
    if (Array.isArray(refused) && refused.length) say(t(lang, 'tokensRefused', { why: reason(lang, refused[0]) }));
  });
  const wrap = h('div', { class: 'field' }, h('label', { for: id, text: label }), input, err);
  return { wrap, input, sync: (list) => syncInput({ input }, list.join(' ')) };
}

// Radio buttons under a legend (which also names the group), each with its label (a node):
// a <fieldset>; listClass 'radio-list row' sets them in a row.
export const radioFieldset = (legend, radios, labels, listClass = 'radio-list') =>
  h(
    'fieldset',
    { class: 'plain' },
    h('legend', { text: legend }),
    h(
      'div',
      { class: listClass, role: 'radiogroup', 'aria-label': legend },
      ...radios.map((r, k) => h('label', { class: 'check' }, r, labels[k])),
    ),
  );

// A labelled range slider over a numeric range with its value shown beside it, the two in a row
// of class rowClass: { wrap, input, out }; onInput(value of the range) on every move.
export function slider(id, labelText, { min, max, step, onInput, rowClass = 'range-row' }) {
  const input = h('input', { type: 'range', id, min: String(min), max: String(max), step: String(step) });
  const out = h('output', { for: id });
  input.addEventListener('input', () => onInput(Number(input.value)));
  const wrap = h(
    'div',
    { class: 'field' },
    h('label', { for: id, text: labelText }),
    h('div', { class: rowClass }, input, out),
  );
  return { wrap, input, out };
}

// A slider over a few chosen values (stops): it moves from stop to stop and hands onPick the
// stop's value; show(value, text) puts it on the stop nearest value and says text beside it and
// to a screen reader (which would otherwise read out the stop's index).
export function stopsSlider(id, labelText, stops, rowClass, onPick) {
  const sl = slider(id, labelText, {
    min: 0,
    max: stops.length - 1,
    step: 1,
    rowClass,
    onInput: (k) => onPick(stops[k]),
  });
  sl.show = (value, text) => {
    sl.input.value = String(nearestStop(stops, value));
    sl.out.textContent = text;
    sl.input.setAttribute('aria-valuetext', text);
  };
  return sl;
}
