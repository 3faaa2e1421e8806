// What the block chapter's steps share: a checkbox bound to a state field, and a step's layout.

import { h } from '../../views/dom.js';

export const check = (c, name, label) => {
  const input = h('input', { type: 'checkbox', onchange: (e) => c.set({ [name]: e.target.checked }) });
  return { input, wrap: h('label', { class: 'check', 'data-group': 'inputs' }, input, h('span', { text: label })) };
};

// A step's layout: the live figure first, then a short lead and its (at most 3) controls beside
// it (the LayerNorm step: its table too), the rest of the prose below. lead: its text, or the
// paragraph itself when the step's draw fills it in.
export const layout = (figure, lead, controls, ...rest) => [
  h(
    'div',
    { class: 'bl-lead' },
    figure,
    h(
      'div',
      { class: 'bl-side' },
      typeof lead === 'string' ? h('p', { class: 'about lab-explain', text: lead }) : lead,
      ...controls,
    ),
  ),
  ...rest,
];
