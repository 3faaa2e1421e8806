// Runs one chapter on screen. The shell owns what every chapter has: the heading and lead, the
// panel of controls, the step bar, the error banner, one <section> per step (only the current
// one shown), and the lifecycle (enter on mount, update after every state change, leave).
// The chapter only builds and draws its own parts (the contract is in ./index.js).
//
//   const running = mountChapter(chapter, root, { state: () => state, set, engine, lang, notify, engineStopped })
//   running.update()   // after every state change
//   running.leave()    // before another chapter (or language) takes the page

import { h } from '../views/dom.js';
import { createStepper, stepSection } from '../views/stepper.js';
import { lookup, hasString, t as shellT } from '../i18n.js';

// An error the engine raised about its input (engine.js's AttentionError): the banner shows
// its message and keeps the last picture; any other error is a defect and is logged too.
// An engine that stopped (code 'engine-stopped') is the page's to replace: env.engineStopped().
const isEngineError = (e) => e && e.name === 'AttentionError';

export function mountChapter(chapter, root, env) {
  const lang = env.lang;
  const cleanups = [];
  const stepViews = new Map(); // step id -> that step's own view object
  const c = {
    get state() { return env.state(); },
    set: env.set,
    engine: env.engine,
    lang,
    s: (key, params) => lookup(chapter.strings, lang, key, params),
    t: (key, params) => shellT(lang, key, params),
    notify: env.notify,
    ui: {},        // this instance's own view state (handles shared by its parts)
    data: null,    // the last result compute() returned (what is on screen)
    step: (id) => stepViews.get(id),
    onLeave: (fn) => { cleanups.push(fn); },
  };

  const prefix = chapter.prefix || chapter.id;
  const children = (x) => (x == null ? [] : Array.isArray(x) ? x : [x]);
  root.append(h('h2', { text: chapter.title[lang] ?? chapter.title.en }));
  if (hasString(chapter.strings, lang, 'intro')) root.append(h('p', { class: 'lead', text: c.s('intro') }));

  const panelView = {};
  if (chapter.panel) root.append(...children(chapter.panel.build(c, panelView)));
  const banner = h('div', { class: 'field-error engine-error', role: 'alert', hidden: true });
  root.append(banner);

  const steps = chapter.steps || [];
  const stepper = steps.length ? createStepper(c, steps) : null;
  if (stepper) root.append(stepper.el);

  // One section per step that builds something; headed by the chapter's h.<id> string, or by
  // "k. title" when it has none.
  const sections = new Map();
  steps.forEach((st, k) => {
    const v = {};
    stepViews.set(st.id, v);
    if (!st.build) return;
    const heading = hasString(chapter.strings, lang, `h.${st.id}`) ? c.s(`h.${st.id}`) : `${k + 1}. ${st.title[lang] ?? st.title.en}`;
    const sec = stepSection(prefix, st.id, heading, ...children(st.build(c, v)));
    sec.classList.add(`${prefix}-step`);
    sec.dataset.step = st.id;
    sections.set(st.id, sec);
    root.append(sec);
  });

  const afterView = {};
  if (chapter.after) root.append(...children(chapter.after.build(c, afterView)));

  function showError(e) {
    if (!isEngineError(e)) console.error(e);
    const stopped = isEngineError(e) && e.code === 'engine-stopped';
    if (stopped && env.engineStopped) env.engineStopped();
    const msg = stopped ? c.t('engineStopping')
      : isEngineError(e) ? c.s('errEngine', { msg: e.message }) : c.t('chapterError', { msg: e && e.message });
    if (banner.textContent !== msg) banner.textContent = msg;
    banner.hidden = false;
  }

  function update() {
    const stage = c.state.stage;
    if (stepper) stepper.sync(stage);
    for (const [id, sec] of sections) if (sec.hidden !== (id !== stage)) sec.hidden = id !== stage;
    let data;
    try {
      data = chapter.compute ? chapter.compute(c) : null;
    } catch (e) {
      showError(e); // the last picture stays on screen
      return;
    }
    c.data = data;
    try {
      if (chapter.panel?.draw) chapter.panel.draw(c, data, panelView);
      const step = steps.find((st) => st.id === stage);
      const out = step?.draw ? step.draw(c, data, stepViews.get(stage)) : undefined;
      if (chapter.after?.draw) chapter.after.draw(c, data, afterView, out);
      banner.hidden = true;
      banner.textContent = '';
    } catch (e) {
      showError(e);
    }
  }

  function leave() {
    for (const fn of cleanups.splice(0).reverse()) fn();
    if (chapter.leave) chapter.leave(c);
  }

  return { update, leave, context: c };
}

// A step whose build keeps its handles in a closure: make(c) -> { nodes, draw(c, data), ...more }
// (more: handles other parts reach through c.step(id)).
//   steps: [closureStep('overflow', { en: 'Overflow', zh: '溢出' }, buildOverflow), ...]
export function closureStep(id, title, make) {
  return {
    id,
    title,
    build(c, v) {
      const { nodes, ...rest } = make(c);
      Object.assign(v, rest);
      return nodes;
    },
    draw: (c, data, v) => (v.draw ? v.draw(c, data) : undefined),
  };
}
