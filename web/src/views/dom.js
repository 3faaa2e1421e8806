// DOM building blocks every view and chapter uses: h() to build elements, button(), ids, and
// writes that change the page only when the text changed. The input controls are ./controls.js.

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

// A button (type="button": never a form's submit) of class className that says text and calls
// onclick when pressed; attrs as h() takes them (disabled, aria-label, ...).
export const button = (className, text, onclick, attrs = {}) =>
  h('button', { type: 'button', class: className, text, onclick, ...attrs });

// Whether el has the keyboard focus, also inside a shadow root (where document.activeElement
// is the host element).
export const isFocused = (el) => el.getRootNode().activeElement === el;

let uid = 0;
// A page-unique id: nextId('f') -> 'f0', 'f1', ...
export const nextId = (prefix) => `${prefix}${uid++}`;

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
