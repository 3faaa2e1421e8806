// The block chapter's panel: the two sentences, and the block diagram whose boxes are the steps.

import { h } from '../../views/dom.js';
import { tokensInput } from '../../views/controls.js';
import { MAX_TOKENS } from './meta.js';
import { MAX_TOKEN_CHARS } from '../../lesson/example.js';

const BOXES = {
  encoder: [
    ['self', 'box.self'],
    ['norm', 'box.norm'],
    ['ff', 'box.ff'],
    ['norm', 'box.norm'],
  ],
  decoder: [
    ['masked', 'box.masked'],
    ['norm', 'box.norm'],
    ['cross', 'box.cross'],
    ['norm', 'box.norm'],
    ['ff', 'box.ff'],
    ['norm', 'box.norm'],
  ],
};

export function buildPanel(c, v) {
  const { s } = c;
  const tokens = (label, name) =>
    tokensInput(label, {
      max: MAX_TOKENS,
      maxChars: MAX_TOKEN_CHARS,
      lang: c.lang,
      onValue: (list) => c.set({ [name]: list }),
    });
  v.source = tokens(s('source'), 'blSource');
  v.target = tokens(s('target'), 'blTarget');
  v.boxes = [];
  const column = (side) =>
    h(
      'ol',
      { class: `bl-column bl-${side}`, 'aria-label': s(`side.${side}`) },
      h('li', { class: 'bl-side-title', text: s(`side.${side}`) }),
      ...BOXES[side].map(([step, key]) => {
        const b = h('button', {
          type: 'button',
          class: `bl-box bl-box-${step}`,
          'data-step': step,
          text: s(key),
          onclick: () => c.set({ stage: step }),
        });
        v.boxes.push(b);
        return h('li', {}, b);
      }),
    );
  const extra = ['stack', 'parallel'].map((step) => {
    const b = h('button', {
      type: 'button',
      class: `bl-box bl-box-${step}`,
      'data-step': step,
      text: s(`box.${step}`),
      onclick: () => c.set({ stage: step }),
    });
    v.boxes.push(b);
    return b;
  });
  return h(
    'section',
    { class: 'panel bl-panel', 'aria-labelledby': 'bl-panel-h' },
    h('h3', { class: 'panel-title', id: 'bl-panel-h', text: s('example') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, v.source.wrap, v.target.wrap),
    h(
      'nav',
      { class: 'bl-diagram', 'aria-label': s('diagram') },
      column('encoder'),
      h('span', { class: 'bl-arrow', 'aria-hidden': 'true', text: '→' }),
      column('decoder'),
      h('div', { class: 'bl-extra' }, ...extra),
    ),
  );
}

export function drawPanel(c, data, v) {
  v.source.sync(c.state.blSource);
  v.target.sync(c.state.blTarget);
  for (const b of v.boxes) {
    const here = b.dataset.step === c.state.stage;
    b.classList.toggle('bl-here', here);
    if (here) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  }
}
