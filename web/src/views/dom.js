// DOM building blocks every chapter uses: h() to build elements, a labelled field with an
// inline error slot, and writes that leave alone what the learner is editing.

// h('div', { class, text, onclick, ...attributes }, ...children)
// undefined/null props are skipped; a prop the element has as a property (checked, value,
// disabled, ...) is assigned as a property unless given as a string; children may be null.
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

// Whether el has the keyboard focus, also inside a shadow root (where document.activeElement
// is the host element).
export const isFocused = (el) => el.getRootNode().activeElement === el;

let uid = 0;
// A page-unique id: nextId('f') -> 'f0', 'f1', ...
export const nextId = (prefix) => `${prefix}${uid++}`;

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

// Sets text only when it changed (an unchanged page region is not laid out again).
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

// Rebuilds el's children with make() only when `key` changed since the last call (e.g. one
// button per token, rebuilt when the tokens change). Returns true when it rebuilt.
export function rebuildOn(el, key, make) {
  if (el.dataset.built === key) return false;
  el.dataset.built = key;
  el.replaceChildren(...make());
  return true;
}
