// The step bar of a chapter: ← [1 title] [2 title] … →. Clicking a step or an arrow button
// sets the stage; with the focus on the bar, the ← and → keys move between steps and the focus
// moves with the step. Hidden with #hide=stepper (data-group).
//
//   const bar = createStepper(ctx, steps)     // steps: the chapter's [{ id, title: { en, zh } }]
//   root.append(bar.el); ... bar.sync(ctx.state.stage) in update()
//   stepSection(prefix, id, title, ...children)   // a step's <section> with its heading

import { button, h } from './dom.js';

// One step's content: <section class="{prefix}-{id}"> headed by its title (an <h3> that labels it).
export function stepSection(prefix, id, title, ...children) {
  return h(
    'section',
    { class: `${prefix}-${id}`, 'aria-labelledby': `${prefix}-h-${id}` },
    h('h3', { class: 'stage-title', id: `${prefix}-h-${id}`, text: title }),
    ...children,
  );
}

export function createStepper(ctx, steps) {
  const { lang, t } = ctx;
  const go = (delta) => {
    const k = steps.findIndex((st) => st.id === ctx.state.stage);
    const next = Math.max(0, Math.min(steps.length - 1, k + delta));
    if (next !== k) {
      ctx.set({ stage: steps[next].id });
      buttons[next].focus();
    }
  };
  const prev = button('btn step-prev', '←', () => go(-1), { 'aria-label': t('prevStep') });
  const next = button('btn step-next', '→', () => go(1), { 'aria-label': t('nextStep') });
  const list = h('ol', { class: 'steps' });
  const buttons = steps.map((st, k) => {
    const b = h(
      'button',
      { type: 'button', class: 'step', 'data-stage': st.id, onclick: () => ctx.set({ stage: st.id }) },
      h('span', { class: 'step-num', text: String(k + 1) }),
      h('span', { class: 'step-title', text: st.title[lang] }),
    );
    list.append(h('li', {}, b));
    return b;
  });
  const el = h(
    'div',
    { class: 'stepper', role: 'group', 'aria-label': t('steps'), 'data-group': 'stepper' },
    prev,
    list,
    next,
  );
  el.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return; // leave browser shortcuts (Alt+← = back) alone
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    }
  });

  // Marks the current step (and the ones before it as done); attributes are written only when
  // they change, so an update that keeps the stage does not restyle the bar.
  function sync(stage) {
    const k = steps.findIndex((st) => st.id === stage);
    buttons.forEach((b, j) => {
      if (j === k && !b.hasAttribute('aria-current')) b.setAttribute('aria-current', 'step');
      if (j !== k && b.hasAttribute('aria-current')) b.removeAttribute('aria-current');
      b.classList.toggle('done', j < k);
    });
    if (prev.disabled !== k <= 0) prev.disabled = k <= 0;
    if (next.disabled !== (k === steps.length - 1)) next.disabled = k === steps.length - 1;
  }
  return { el, sync };
}
