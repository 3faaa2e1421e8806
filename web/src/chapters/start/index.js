// The start page: one live figure first (q·k as geometry: the query and the keys as arrows the
// learner drags, the engine's scores and weights beside them, kit/geometry.js), then the chapters
// of the registry (./index.js) as a path, each with a line on what it teaches and how many of its
// predict-then-reveal questions the learner has answered, and a button to begin or continue.
// Progress is read from this browser's localStorage (predict.js); nothing is sent anywhere.

import { button, h } from '../../views/dom.js';
import { loadProgress, clearProgress } from '../kit/predict.js';
import { buildGeometry, drawGeometry, geometryData } from '../kit/geometry.js';
import strings from './strings.js';
import meta from './meta.js';

// The path's entries are links to the lessons (a new tab, a copied address); a plain click stays
// on the page.
const lessonHref = (c, ch) => `#lesson=${ch.id}&lang=${c.lang}`;
const goTo = (c, ch) => (e) => {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  c.set({ lesson: ch.id, stage: '' });
};

export default {
  ...meta,
  strings,
  steps: [],
  // The figure's arrows through the engine: { geo: { arrows, scores, scaled, weights } }.
  compute: (c) => ({ geo: geometryData(c, 'startArrows') }),
  panel: {
    build: (c, v) => [buildFigure(c, v), ...buildPath(c, v)],
    draw: (c, data, v) => {
      drawGeometry(c, v.geo, data.geo, c.s('geoTitle'));
      drawPath(c, data, v);
    },
  },
};

// The figure (marked as the page's main one), its heading and a line on what it shows beside the plot.
function buildFigure(c, v) {
  const box = h('section', { class: 'start-figure', 'aria-labelledby': 'start-figure-h', 'data-figure': 'main' });
  v.geo = buildGeometry(c, box, 'startArrows', [
    h('h3', { id: 'start-figure-h', class: 'geo-title', text: c.s('geoTitle') }),
    h('p', { class: 'geo-lead', text: c.s('geoLead') }),
  ]);
  return box;
}

// The chapter's line on the path: its about.<id> string, else the first sentence of its lead.
function aboutOf(c, ch) {
  const own = c.s(`about.${ch.id}`);
  if (own !== `about.${ch.id}`) return own;
  const lead = ch.strings?.[c.lang]?.intro ?? ch.strings?.en?.intro ?? '';
  const m = /^.*?[.。](?=\s|$)/.exec(lead);
  return m ? m[0] : lead;
}

function buildPath(c, v) {
  const { s } = c;
  v.course = c.chapters.filter((ch) => !ch.home);
  v.go = h('a', { class: 'btn primary start-go' });
  v.progress = h('p', { class: 'start-progress' });
  v.clear = button('btn start-clear', s('clear'), () => {
    clearProgress();
    drawPath(c, null, v);
    v.go.focus();
  });
  v.items = v.course.map((ch, k) => {
    const title = ch.title[c.lang] ?? ch.title.en;
    const status = h('span', { class: 'path-status' });
    const button = h(
      'a',
      { class: 'path-go', 'data-lesson': ch.id, href: lessonHref(c, ch), onclick: goTo(c, ch) },
      h('span', { class: 'path-num', text: String(k + 1) }),
      h('span', { class: 'path-title', text: title }),
    );
    const li = h(
      'li',
      { class: 'path-item', 'data-lesson': ch.id },
      button,
      h('p', { class: 'path-about', text: aboutOf(c, ch) }),
      status,
    );
    return { ch, li, status };
  });
  return [
    h('div', { class: 'controls start-actions' }, v.go),
    h(
      'section',
      { class: 'start-path', 'aria-labelledby': 'start-path-h' },
      h('h3', { id: 'start-path-h', text: s('pathTitle') }),
      h('ol', { class: 'path-list' }, ...v.items.map((x) => x.li)),
    ),
    h(
      'section',
      { class: 'panel start-progress-box' },
      v.progress,
      h('p', { class: 'hint', text: s('privacy') }),
      v.clear,
    ),
  ];
}

// Progress as stored: per chapter, how many of its questions (`questions` in its data) have an answer.
function drawPath(c, data, v) {
  const { s } = c;
  const answers = loadProgress();
  let done = 0,
    total = 0,
    right = 0,
    next = -1;
  v.items.forEach(({ ch, li, status }, k) => {
    const ids = ch.questions || [];
    const mine = ids.filter((id) => answers[id]);
    done += mine.length;
    total += ids.length;
    right += mine.filter((id) => answers[id].right).length;
    const complete = ids.length > 0 && mine.length === ids.length;
    if (next < 0 && ids.length > 0 && !complete) next = k;
    status.textContent =
      ids.length === 0
        ? s('chapterNone')
        : complete
          ? `✓ ${s('chapterDone', { total: ids.length })}`
          : mine.length
            ? s('chapterProgress', { done: mine.length, total: ids.length })
            : s('chapterNew');
    li.classList.toggle('done', complete);
  });
  const started = done > 0;
  const target = next < 0 ? 0 : next;
  const ch = v.course[target];
  v.go.textContent = s(!started ? 'begin' : next < 0 ? 'review' : 'resume', {
    n: target + 1,
    title: ch.title[c.lang] ?? ch.title.en,
  });
  v.go.href = lessonHref(c, ch);
  v.go.onclick = goTo(c, ch);
  v.items.forEach((x, k) => x.li.classList.toggle('next', started && k === target));
  v.progress.textContent = started ? s('progress', { done, total, right }) : s('progressNone');
  v.clear.hidden = !started;
}
