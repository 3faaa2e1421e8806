// What the block chapter's steps share: a checkbox bound to a state field, and a step's parts.

import { h } from '../../views/dom.js';

export const check = (c, name, label) => {
  const input = h('input', { type: 'checkbox', onchange: (e) => c.set({ [name]: e.target.checked }) });
  return { input, wrap: h('label', { class: 'check' }, input, h('span', { text: label })) };
};

// A step's parts: its live figure, a short lead (its text, or the paragraph itself when the step's
// draw fills it in) and the rest; its (at most three) controls are kept for the step's `controls`
// part (stepControls), which the shell puts beside the figure, the lead after them.
export function layout(v, figure, lead, controls, ...rest) {
  v.controls = controls;
  return [figure, typeof lead === 'string' ? h('p', { class: 'about lab-explain', text: lead }) : lead, ...rest];
}
export const stepControls = (c, v) => v.controls;
