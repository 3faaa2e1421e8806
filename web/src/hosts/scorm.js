// scorm.html: the lessons of a SCORM 1.2 package (npm run build:scorm, scripts/build-scorm.mjs),
// one <attention-lab> element under a row of the package's chapters. It finds the LMS's SCORM 1.2
// API (window.API in this window, a parent frame or the opener's, as every SCO looks for it) and
// reports what the learner does (the element's progress events, ./progress.js):
//   cmi.core.lesson_status   incomplete, then, once every chapter of the package is completed,
//                            completed, or passed / failed against cmi.student_data.mastery_score
//                            (the manifest's adlcp:masteryscore) when the LMS gives one
//   cmi.core.score.raw/min/max  the questions right on the first try, as a percentage (0-100)
//   cmi.suspend_data         the progress and the step on screen, so a learner who comes back
//                            resumes there (cmi.core.exit is 'suspend')
//   cmi.core.session_time    when the page goes
// Without an API it is a plain page: the lessons work and nothing is reported.

import { chapters } from '../chapters/index.js';
import { scoreOf } from './progress.js';
import './element.js';

// The LMS's API: in this window or one of its parents, then in the opener and its parents.
function findApi(win = window) {
  for (let start = win, hops = 0; start && hops < 2; start = start.opener, hops++) {
    for (let w = start, k = 0; w && k < 10; k++) {
      try {
        if (w.API && typeof w.API.LMSInitialize === 'function') return w.API;
      } catch {
        // a frame of another origin: not the LMS's
      }
      if (w.parent === w) break;
      w = w.parent;
    }
  }
  return null;
}

// A session with the LMS: get/set of cmi values as text, commit, finish; null without an LMS.
function connect(api) {
  if (!api || String(api.LMSInitialize('')) !== 'true') return null;
  return {
    get: (key) => String(api.LMSGetValue(key) ?? ''),
    set: (key, value) => api.LMSSetValue(key, String(value)),
    commit: () => api.LMSCommit(''),
    finish: () => api.LMSFinish(''),
  };
}

// HHHH:MM:SS, SCORM 1.2's CMITimespan.
const timespan = (ms) => {
  const s = Math.round(ms / 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
};

const chapterOf = (id) => chapters.find((c) => c.id === id);
const FINAL = ['completed', 'passed', 'failed'];

// What the LMS kept last time (JSON of { at: { lesson, stage }, progress }), or {}.
function suspended(lms) {
  try {
    return (lms && JSON.parse(lms.get('cmi.suspend_data') || '{}')) || {};
  } catch {
    return {}; // not ours: start afresh
  }
}

function launch(lms) {
  const listed = (document.body.dataset.chapters || '').split(/[\s,]+/).filter((id) => chapterOf(id));
  const course = listed.length ? listed : chapters.filter((c) => !c.home).map((c) => c.id);

  const started = performance.now();
  const saved = suspended(lms);
  const mastery = lms ? parseFloat(lms.get('cmi.student_data.mastery_score')) : NaN;
  let status = lms ? lms.get('cmi.core.lesson_status') : '';
  let scored = null; // the score last reported

  // The lesson: where the learner left it, else the package's first chapter.
  const lab = document.createElement('attention-lab');
  lab.id = 'lab';
  const at = saved.at && course.includes(saved.at.lesson) ? saved.at : { lesson: course[0], stage: '' };
  lab.setAttribute('lesson', at.lesson);
  if (at.stage) lab.setAttribute('stage', at.stage);
  const prefers = lms ? lms.get('cmi.student_preference.language') : '';
  if (/^zh/i.test(prefers)) lab.setAttribute('lang', 'zh');
  else if (/^en/i.test(prefers)) lab.setAttribute('lang', 'en');
  if (saved.progress) lab.progress = saved.progress;

  // The package's chapters, one button each (a chapter completed is marked).
  const nav = document.querySelector('.scorm-chapters');
  nav.hidden = course.length < 2;
  const buttons = course.map((id) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.lesson = id;
    b.addEventListener('click', () => {
      lab.removeAttribute('stage');
      lab.setAttribute('lesson', id);
    });
    return b;
  });
  nav.append(...buttons);
  function drawNav() {
    const s = lab.state;
    const progress = lab.progress || {};
    if (!s) return;
    document.documentElement.lang = s.lang === 'zh' ? 'zh-CN' : 'en';
    nav.setAttribute('aria-label', s.lang === 'zh' ? '章节' : 'Chapters');
    for (const b of buttons) {
      const ch = chapterOf(b.dataset.lesson);
      b.textContent = ch.title[s.lang] ?? ch.title.en;
      b.classList.toggle('done', progress[b.dataset.lesson]?.completed === true);
      if (b.dataset.lesson === s.lesson) b.setAttribute('aria-current', 'page');
      else b.removeAttribute('aria-current');
    }
  }
  document.body.append(lab);

  // What the LMS keeps: where the learner is and what they have done.
  function keep() {
    const s = lab.state;
    if (!lms || !s) return;
    lms.set('cmi.suspend_data', JSON.stringify({ at: { lesson: s.lesson, stage: s.stage }, progress: lab.progress }));
  }

  // The score and the status after each progress statement; committed at once.
  function report() {
    const { raw, max, answered, completed } = scoreOf(lab.progress || {}, course, chapterOf);
    const percent = max ? Math.round((100 * raw) / max) : 100;
    if ((answered || completed) && percent !== scored) {
      scored = percent;
      lms.set('cmi.core.score.min', 0);
      lms.set('cmi.core.score.max', 100);
      lms.set('cmi.core.score.raw', percent);
    }
    let next = FINAL.includes(status) ? status : 'incomplete';
    if (completed) next = Number.isFinite(mastery) ? (percent >= mastery ? 'passed' : 'failed') : 'completed';
    if (next !== status) lms.set('cmi.core.lesson_status', (status = next));
    keep();
    lms.commit();
  }

  lab.addEventListener('attention-lab-change', () => {
    drawNav();
    keep();
  });
  lab.addEventListener('attention-lab-progress', () => {
    drawNav();
    if (lms) report();
  });

  if (lms) {
    if (!FINAL.includes(status)) lms.set('cmi.core.lesson_status', (status = 'incomplete'));
    lms.set('cmi.core.exit', 'suspend');
    lms.commit();
    let finished = false;
    window.addEventListener('pagehide', () => {
      if (finished) return;
      finished = true;
      keep();
      lms.set('cmi.core.session_time', timespan(performance.now() - started));
      lms.commit();
      lms.finish();
    });
  }
}

launch(connect(findApi()));
