// Runs one chapter on screen. The shell owns what every chapter has: the heading and lead, the
// step bar, the error banner, one <section> per step (only the current one shown), where each
// part of a step goes, and the lifecycle (enter on mount, update after every state change, leave).
// The chapter only builds and draws its own parts (the contract is in ./index.js).
//
// Every step is an instrument: under its heading, its main figure, and beside it (to its right
// from about 900 px of width, directly under it below that) the side column: the controls that
// act on this step's figure (the step's own `controls` part, then the chapter's `controls`
// groups whose `steps` include it), its predict questions (kit/predict.js), then the prose that
// explains the figure. What acts on no figure of the step (the chapter's `panel`, the groups of
// other steps) is folded into one "More settings" disclosure after the step.
//
//   const running = mountChapter(chapter, root,
//     { state: () => state, set, engine, lang, notify, engineStopped,
//       engineMissing })
//   (env.path: false leaves out the previous / next chapter links, as in an embedded lesson)
//   running.update()   // after every state change
//   running.leave()    // before another chapter (or language) takes the page

import { button, h, nextId } from '../../views/dom.js';
import { createStepper, stepSection } from '../../views/stepper.js';
import { lookup, hasString, t as shellT } from '../../text/i18n.js';
import { FILL_SIGNS } from '../../engine/choices.js';

// An error the engine raised about its input (engine.js's AttentionError): the banner shows
// its message and keeps the last picture; any other error is a defect and is logged too.
// An engine that stopped (code 'engine-stopped') is the page's to replace: env.engineStopped().
const isEngineError = (e) => e && e.name === 'AttentionError';

export function mountChapter(chapter, root, env) {
  const lang = env.lang;
  const cleanups = [];
  const stepViews = new Map(); // step id -> that step's own view object
  const c = {
    get state() {
      return env.state();
    },
    set: env.set,
    // reports what the learner did to the host: progress('answered' | 'learned', detail)
    // (../../hosts/progress.js); absent where nothing listens
    progress: env.progress,
    // draws again with the same state (a view's own toggle changed what it shows)
    redraw: () => env.set({}),
    engine: env.engine,
    lang,
    s: (key, params) => lookup(chapter.strings, lang, key, params),
    t: (key, params) => shellT(lang, key, params),
    notify: env.notify,
    ui: {}, // this instance's own view state (handles shared by its parts)
    // what the chapter measured, trained or was answered (plain data, no DOM): the same object
    // when the lesson is mounted again (a language switch), so its results stay on screen
    kept: env.kept || {},
    data: null, // the last result compute() returned (what is on screen)
    step: (id) => stepViews.get(id),
    onLeave: (fn) => {
      cleanups.push(fn);
    },
    chapters: env.chapters || [], // the registry (./index.js), for the start page and the path
  };

  const prefix = chapter.prefix || chapter.id;
  const children = (x) => (x == null ? [] : Array.isArray(x) ? x : [x]);
  root.append(h('h2', { class: 'chapter-title', tabindex: '-1', text: chapter.title[lang] ?? chapter.title.en }));
  // The lead: the sentences of the chapter's intro that fit two lines; the rest follows the step.
  const [leadText, leadRest] = hasString(chapter.strings, lang, 'intro') ? splitLead(c.s('intro'), lang) : ['', ''];
  const lead = leadText ? createLead(c, leadText) : null;
  if (lead) root.append(lead.el);

  // The order on the page: heading, lead, step bar, the step (its figure and the side column
  // beside it, then the rest of the step), the "More settings" disclosure, the path. The start
  // page (no steps) keeps its panel under the lead.
  const steps = chapter.steps || [];
  const panelView = {};
  const panelNodes = chapter.panel ? children(chapter.panel.build(c, panelView)) : [];
  // The chapter's control groups, each built once and moved to the step whose figure it acts on.
  const groups = (chapter.controls || []).map((g) => {
    const v = {};
    const el = h('div', { class: 'control-group' }, ...children(g.build(c, v)));
    return { ...g, v, el, acts: (stage) => g.steps === '*' || g.steps.includes(stage) };
  });
  const settings = steps.length && (panelNodes.length || groups.length) ? settingsBox(c, panelNodes) : null;
  if (!settings) root.append(...panelNodes);
  const carried = createCarried(c, chapter, env.schema);
  if (carried) root.append(carried.el);
  const banner = h('div', { class: 'field-error engine-error', role: 'alert', hidden: true });
  root.append(banner);

  const stepper = steps.length ? createStepper(c, steps) : null;
  if (stepper) root.append(stepper.el);

  // One section per step that builds something; headed by the chapter's h.<id> string, or by
  // "k. title" when it has none. Under the heading, the stage: the figure and the side column.
  const sections = new Map();
  const stages = new Map(); // step id -> its stage (createStage)
  steps.forEach((st, k) => {
    const v = {};
    stepViews.set(st.id, v);
    if (!st.build) return;
    const heading = hasString(chapter.strings, lang, `h.${st.id}`)
      ? c.s(`h.${st.id}`)
      : `${k + 1}. ${st.title[lang] ?? st.title.en}`;
    const sec = stepSection(prefix, st.id, heading, ...children(st.build(c, v)));
    sec.classList.add(`${prefix}-step`);
    sec.dataset.step = st.id;
    const stage = createStage(sec);
    if (st.controls) stage.controls.append(...children(st.controls(c, v)));
    sections.set(st.id, sec);
    stages.set(st.id, stage);
    root.append(sec);
  });

  const afterView = {};
  const afterBox = h('div', { class: `chapter-after ${prefix}-after` });
  if (chapter.after) afterBox.append(...children(chapter.after.build(c, afterView)));
  // Where the after-part lives when the step's figure is not in it (leadWithFigure may move it
  // into the step's figure column when it is).
  const afterHome = document.createComment('after');
  if (afterBox.firstChild) root.append(afterHome, afterBox);
  if (leadRest) root.append(h('p', { class: 'lead lead-rest', text: leadRest }));
  if (settings) root.append(settings.el);
  const path = env.path === false ? null : pathNav(c, chapter);
  if (path) root.append(path);

  const figureMemo = {}; // the step's main figure, as last found (leadWithFigure)

  function showError(e) {
    if (!isEngineError(e)) console.error(e);
    const stopped = isEngineError(e) && e.code === 'engine-stopped';
    if (stopped && env.engineStopped) env.engineStopped();
    // A function the first part of the engine lacks (../../hosts/host.js): the whole one is loaded.
    const partial = isEngineError(e) && e.code === 'not-in-module' && env.engineMissing;
    if (partial) env.engineMissing();
    const msg = stopped
      ? c.t('engineStopping')
      : partial
        ? c.t('loading')
        : isEngineError(e)
          ? c.s('errEngine', { msg: e.message })
          : c.t('chapterError', { msg: e && e.message });
    if (banner.textContent !== msg) banner.textContent = msg;
    banner.hidden = false;
  }

  // The control groups that act on the step go beside its figure (in the chapter's order, after
  // the step's own controls); the others wait in the settings disclosure.
  function placeGroups(stage) {
    const here = stages.get(stage);
    const boxOf = (g) => (here && g.acts(stage) ? here.controls : settings.groups);
    for (const box of new Set(groups.map(boxOf))) {
      const want = groups.filter((g) => boxOf(g) === box).map((g) => g.el);
      const have = [...box.children].filter((el) => want.includes(el));
      if (want.some((el, k) => el !== have[k])) box.append(...want);
    }
    if (here) here.sync();
  }

  let shownStage = null; // the step on screen
  let drawnState = null; // the state of the last update: onChange gets the fields changed since
  function update() {
    const stage = c.state.stage;
    const changed = changedFields(drawnState, c.state);
    drawnState = c.state;
    if (stepper && shownStage !== null && stage !== shownStage) keepUnderStepper(sections.get(stage), stepper.el);
    if (stage !== shownStage) placeGroups(stage);
    shownStage = stage;
    if (stepper) stepper.sync(stage);
    if (carried) carried.sync(stage);
    if (settings) settings.sync();
    for (const [id, sec] of sections) if (sec.hidden !== (id !== stage)) sec.hidden = id !== stage;
    const step = steps.find((st) => st.id === stage);
    let data;
    try {
      // Long work that follows the state (training runs) starts from the fields that changed;
      // then the chapter's compute (what every step draws from), then the step's own (given the
      // chapter's result): the step's result is what the panel, the step and `after` draw.
      if (chapter.onChange && changed.size) chapter.onChange(c, changed);
      data = chapter.compute ? chapter.compute(c) : null;
      if (step?.compute) data = step.compute(c, data);
    } catch (e) {
      showError(e); // the last picture stays on screen
      return;
    }
    c.data = data;
    try {
      if (chapter.panel?.draw) chapter.panel.draw(c, data, panelView);
      for (const g of groups) if (g.draw) g.draw(c, data, g.v);
      const out = step?.draw ? step.draw(c, data, stepViews.get(stage)) : undefined;
      if (chapter.after?.draw) chapter.after.draw(c, data, afterView, out);
      // The step's main figure leads it; a figure marked for the first time is drawn again at
      // its new size.
      const lead = () => steps.length && leadWithFigure(stage, stages.get(stage), afterBox, afterHome, figureMemo);
      if (lead()) {
        if (step?.draw) step.draw(c, data, stepViews.get(stage));
        if (chapter.after?.draw) chapter.after.draw(c, data, afterView, out);
        lead(); // a draw that builds its figure anew drops the mark: found again
      }
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

// The names of the fields whose values differ between two states (every field when there is no
// previous one: the chapter was just mounted).
const same = (a, b) =>
  a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, k) => same(x, b[k])));
function changedFields(prev, next) {
  return new Set(Object.keys(next).filter((k) => !prev || !same(prev[k], next[k])));
}

// The step bar stays at the top of the screen while the page scrolls (base.css): a step chosen
// there while the page is scrolled past its heading would open under the bar. Before the frame
// is drawn (one layout read, after the update), the page scrolls so that the new step's heading
// sits just under the bar.
function keepUnderStepper(section, bar) {
  if (!section) return;
  requestAnimationFrame(() => {
    const heading = section.querySelector('h3') || section;
    const below = bar.getBoundingClientRect().bottom + 8;
    const top = heading.getBoundingClientRect().top;
    if (top < below && !section.hidden) window.scrollBy(0, top - below);
  });
}

// ---- the lead ---------------------------------------------------------------------------------

// The chapter's lead before the step: whole sentences up to LEAD_WIDTH (in widths of a Latin
// letter: a Chinese character counts as two), which is two lines of the lead on a desktop screen,
// and the rest. A first sentence longer than that stays whole.
const LEAD_WIDTH = 200;
const widthOf = (t) => t.length + (t.match(/[\u3000-\u9fff\uff00-\uffef]/g) || []).length;
function splitLead(text, lang) {
  const parts =
    lang === 'zh' ? text.match(/[^。！？]+[。！？]*/g) || [text] : text.match(/[^.!?]+(?:[.!?]+\s*|$)/g) || [text];
  let lead = '';
  let k = 0;
  while (k < parts.length && (k === 0 || widthOf(lead + parts[k]) <= LEAD_WIDTH)) lead += parts[k++];
  return [lead.trim(), parts.slice(k).join('').trim()];
}

// The lead, held to two lines (base.css): where that cuts it (a narrow screen), a "More" button
// at the end of the second line shows the whole of it. Whether it is cut is read once per change
// of its width.
function createLead(c, text) {
  const p = h('p', { class: 'lead', id: nextId('lead'), text });
  const more = h('button', {
    type: 'button',
    class: 'lead-more',
    'aria-expanded': 'false',
    'aria-controls': p.id,
    hidden: true,
    text: c.t('lead.more'),
  });
  const el = h('div', { class: 'lead-box' }, p, more);
  more.addEventListener('click', () => {
    const open = !el.classList.contains('open');
    el.classList.toggle('open', open);
    more.setAttribute('aria-expanded', String(open));
    more.textContent = c.t(open ? 'lead.less' : 'lead.more');
  });
  if (typeof ResizeObserver === 'function') {
    const seen = new ResizeObserver(() => {
      if (!el.classList.contains('open')) more.hidden = p.scrollHeight <= p.clientHeight + 1;
    });
    seen.observe(p);
    c.onLeave(() => seen.disconnect());
  }
  return { el };
}

// ---- the step's stage: the figure and the side column ---------------------------------------------

// Under the step's heading: the figure column (the part of the step that holds its main figure,
// moved there by leadWithFigure) and the side column: the controls that act on the figure, the
// step's predict questions and the prose that explains the figure. Two columns when the chapter
// is about 900 px wide or more (base.css), else one: the figure, the controls, the question, the
// prose.
function createStage(section) {
  const figure = h('div', { class: 'step-figure' });
  const controls = h('div', { class: 'step-controls', 'data-group': 'inputs' });
  const asks = h('div', { class: 'step-asks' }, ...section.querySelectorAll('fieldset.predict'));
  const prose = h('div', { class: 'step-prose' });
  const side = h('div', { class: 'step-side' }, controls, asks, prose);
  const el = h('div', { class: 'step-stage' }, figure, side);
  section.firstElementChild.after(el);
  return {
    el,
    figure,
    controls,
    prose,
    // Shows the parts that hold something (attributes written only when they change).
    sync() {
      const has = (box) => box.firstElementChild !== null;
      if (controls.hidden !== !has(controls)) controls.hidden = !has(controls);
      if (asks.hidden !== !has(asks)) asks.hidden = !has(asks);
      if (prose.hidden !== !has(prose)) prose.hidden = !has(prose);
      const withSide = has(controls) || has(asks) || has(prose);
      if (side.hidden !== !withSide) side.hidden = !withSide;
      el.classList.toggle('with-side', withSide);
      el.classList.toggle('with-figure', has(figure));
    },
  };
}

// What may be a step's main figure when the chapter marks none: heatmaps, charts, bar charts,
// tables, formulas (the first one on screen at least MIN_FIGURE px wide and tall).
// In that order of preference: a picture before a table, a table before a formula.
const FIGURES = ['.map, figure, .bars', 'canvas, svg:not([aria-hidden="true"]):not(.katex svg)', 'table', '.formula'];
const MIN_FIGURE = [120, 40];
const onScreen = (el) => {
  const r = el.getBoundingClientRect();
  return r.width >= MIN_FIGURE[0] && r.height >= MIN_FIGURE[1];
};
// A figure the chapter marked leads when it is shown: nothing around it hidden (base.css hides
// [hidden] and .group-hidden). Read from the DOM, so a step just drawn is not laid out here and
// then again for its frame.
const shown = (el) => !el.closest('[hidden], .group-hidden');
const outsideSide = (el) => !el.closest('.step-side');

// Marks the step's main figure (data-figure="main": the element a chapter marked, else its first
// figure on screen) and moves the part of the step that holds it into the stage's figure column,
// and the prose that came after it into the side column, so the figure comes first with its
// controls beside it. Looked for again when the step changes or its figure has left the page (one
// layout read then). Returns true when the mark moved to another element (its heatmaps are then
// drawn again at the figure column's size).
function leadWithFigure(key, stage, afterBox, afterHome, memo) {
  const held = memo.fig;
  if (held && memo.key === key && held.isConnected) return false;
  memo.key = key;
  memo.fig = null;
  if (afterHome.parentNode && afterHome.nextSibling !== afterBox) afterHome.after(afterBox);
  if (!stage) return false;
  const section = stage.el.parentNode;
  // What the last figure took goes back under the stage, in its order.
  for (const el of stage.figure.querySelectorAll('.fig-part, .fig-after')) el.classList.remove('fig-part', 'fig-after');
  stage.el.after(...stage.figure.children, ...stage.prose.children);
  const boxes = [section, afterBox].filter(Boolean);
  for (const box of boxes)
    for (const el of box.querySelectorAll('[data-figure-auto]')) {
      el.removeAttribute('data-figure');
      el.removeAttribute('data-figure-auto');
    }
  let fig = null;
  for (const box of boxes) {
    fig = [...box.querySelectorAll('[data-figure="main"]')].find((el) => shown(el) && outsideSide(el)) || null;
    if (!fig) {
      for (const kind of FIGURES) {
        fig =
          [...box.querySelectorAll(kind)].find(
            (el) => !el.closest('[data-figure]') && outsideSide(el) && onScreen(el),
          ) || null;
        if (fig) break;
      }
      if (fig) {
        fig.setAttribute('data-figure', 'main');
        fig.setAttribute('data-figure-auto', '');
      }
    }
    if (!fig) continue;
    // The part of the step that holds the figure (the after-part, when the figure is drawn there).
    let part = box === afterBox ? afterBox : fig;
    while (part !== afterBox && part.parentElement !== section) part = part.parentElement;
    stage.figure.append(part);
    markPart(part, fig);
    // The prose that followed the figure's part: paragraphs of explanation and message lines, one
    // after another.
    const prose = [];
    for (let el = stage.el.nextElementSibling; el && el.matches(PROSE) && !el.hidden; el = el.nextElementSibling)
      prose.push(el);
    stage.prose.append(...prose);
    break;
  }
  stage.sync();
  memo.fig = fig;
  return fig !== held && fig !== null;
}
const PROSE = 'p.explain, p.about, p.lab-explain, p.msg';

// On a narrow screen the side column comes right after the main figure, before what else the
// figure's part holds (its formulas, a second chart): the part (a plain <div>) steps aside there
// (base.css: display: contents), and what follows the child that holds the figure is ordered after
// the side column.
function markPart(part, fig) {
  if (part === fig || part.tagName !== 'DIV') return;
  part.classList.add('fig-part');
  let after = false;
  for (const child of part.children) {
    if (after) child.classList.add('fig-after');
    else after = child === fig || child.contains(fig);
  }
}

// The chapter's settings that act on no figure of the step on screen (its panel, and the control
// groups of its other steps), folded into one disclosure that stays open or closed as the learner
// left it (the hash's `folded`), hidden when it holds nothing.
function settingsBox(c, nodes) {
  const summary = h('summary', { class: 'settings-summary', text: c.t('settings') });
  const groups = h('div', { class: 'settings-groups', 'data-group': 'inputs' });
  const el = h('details', { class: 'settings', open: !c.state.folded }, summary, groups, ...nodes);
  el.addEventListener('toggle', () => {
    if (el.open === c.state.folded) c.set({ folded: !el.open });
  });
  return {
    el,
    groups,
    sync() {
      if (el.open !== !c.state.folded) el.open = !c.state.folded;
      const empty = !groups.firstElementChild && nodes.length === 0;
      if (el.hidden !== empty) el.hidden = empty;
    },
  };
}
// ---- settings carried from other chapters -------------------------------------------------------

// How a shared setting reads when it is not its default (shell strings carried.<name>).
const SHOWN = {
  temperature: (c, v) => c.t('carried.temperature', { v }),
  fill: (c, v) => c.t('carried.fill', { v: FILL_SIGNS[v].text }),
  stable: (c) => c.t('carried.stable'),
  causal: (c) => c.t('carried.causal'),
  reverseCausal: (c) => c.t('carried.reverseCausal'),
  customMask: (c) => c.t('carried.customMask'),
  keyPadding: (c, v) => c.t('carried.keyPadding', { n: v.filter(Boolean).length }),
};
const isDefault = (v, d) => JSON.stringify(v) === JSON.stringify(d);

// A chapter lists the shared settings that change its numbers but have no control of its own
// (`carried: ['temperature', ...]`, or per step `carried` on the step): when one of them is not
// at its default (set in another chapter), a line under the lead says so, with a reset.
function createCarried(c, chapter, schema) {
  const steps = chapter.steps || [];
  if (!schema || !(chapter.carried || steps.some((st) => st.carried))) return null;
  const list = h('ul', { class: 'carried-list' });
  const el = h(
    'div',
    { class: 'msg info carried', role: 'group', 'aria-label': c.t('carried.title'), hidden: true },
    h('span', { class: 'carried-title', text: c.t('carried.title') }),
    list,
  );
  let key = null;
  function sync(stage) {
    const step = steps.find((st) => st.id === stage);
    const names = (step && step.carried) || chapter.carried || [];
    const st = c.state;
    const on = names.filter((n) => schema[n] && SHOWN[n] && !isDefault(st[n], schema[n].default));
    const next = JSON.stringify(on.map((n) => [n, st[n]]));
    if (next === key) return;
    key = next;
    el.hidden = on.length === 0;
    list.replaceChildren(
      ...on.map((n) => {
        const text = SHOWN[n](c, st[n]);
        return h(
          'li',
          { 'data-setting': n },
          h('span', { text }),
          ' ',
          button('btn carried-reset', c.t('carried.reset'), () => c.set({ [n]: schema[n].default }), {
            'aria-label': c.t('carried.resetOne', { what: text }),
          }),
        );
      }),
    );
  }
  return { el, sync };
}

// ---- the path: previous and next chapter ---------------------------------------------------------

// Under every chapter: the chapter before and the one after it in the course (the start page,
// marked `home`, is not numbered and has its own list).
function pathNav(c, chapter) {
  const course = c.chapters.filter((ch) => !ch.home);
  const k = course.findIndex((ch) => ch.id === chapter.id);
  if (k < 0) return null;
  // Links to the lessons (a new tab, a copied address); a plain click stays on the page.
  const go = (ch, cls, label) =>
    h(
      'a',
      {
        class: `btn ${cls}`,
        href: `#lesson=${ch.id}&lang=${c.lang}`,
        'data-lesson': ch.id,
        onclick: (e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          c.set({ lesson: ch.id, stage: '' });
        },
      },
      label,
    );
  const title = (ch) => ch.title[c.lang] ?? ch.title.en;
  const prev = k > 0 ? course[k - 1] : c.chapters.find((ch) => ch.home);
  const next = course[k + 1];
  return h(
    'nav',
    { class: 'chapter-path', 'aria-label': c.t('path.label') },
    prev ? go(prev, 'path-prev', prev.home ? c.t('path.home') : c.t('path.prev', { n: k, title: title(prev) })) : null,
    next
      ? go(next, 'path-next primary', c.t('path.next', { n: k + 2, title: title(next) }))
      : go(c.chapters.find((ch) => ch.home) || course[0], 'path-next', c.t('path.home')),
  );
}
