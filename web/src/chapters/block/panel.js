// The block chapter's sentences (beside every step's figure) and its block diagram (under the
// steps), whose boxes are the steps.

import { button, h } from '../../views/dom.js';
import { tokensField } from '../kit/fields.js';
import { MAX_TOKENS } from './meta.js';

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

// The two sentences (a control group beside every step's figure).
export function buildSentences(c, v) {
  const { s } = c;
  v.source = tokensField(c, s('source'), 'blSource', MAX_TOKENS);
  v.target = tokensField(c, s('target'), 'blTarget', MAX_TOKENS);
  return h('div', { class: 'controls' }, v.source.wrap, v.target.wrap);
}

export function drawSentences(c, data, v) {
  v.source.sync(c.state.blSource);
  v.target.sync(c.state.blTarget);
}

// The block diagram under the steps: one box per step, the step on screen marked.
export function buildDiagram(c, v) {
  const { s } = c;
  v.boxes = [];
  const box = (step, key) => {
    const b = button(`bl-box bl-box-${step}`, s(key), () => c.set({ stage: step }), { 'data-step': step });
    v.boxes.push(b);
    return b;
  };
  const column = (side) =>
    h(
      'ol',
      { class: `bl-column bl-${side}`, 'aria-label': s(`side.${side}`) },
      h('li', { class: 'bl-side-title', text: s(`side.${side}`) }),
      ...BOXES[side].map(([step, key]) => h('li', {}, box(step, key))),
    );
  return h(
    'nav',
    { class: 'bl-diagram bl-panel', 'aria-label': s('diagram') },
    column('encoder'),
    h('span', { class: 'bl-arrow', 'aria-hidden': 'true', text: '→' }),
    column('decoder'),
    h('div', { class: 'bl-extra' }, ...['stack', 'parallel'].map((step) => box(step, `box.${step}`))),
  );
}

export function drawDiagram(c, data, v) {
  for (const b of v.boxes) {
    const here = b.dataset.step === c.state.stage;
    b.classList.toggle('bl-here', here);
    if (here) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  }
}
