// The chapters of the page, in order, and the contract a chapter follows.
//
// A chapter is data: one plain object that ./shell.js runs. The shell builds the heading (title)
// and the lead (the `intro` string: the sentences that fit two lines, the rest after the step),
// the error banner, the step bar and one <section> per step, shows the current step only, places
// each step's parts, and on every state change calls onChange() with the fields that changed,
// compute() once and then the draw functions.
// A chapter never builds those parts itself and keeps no module-level mutable state: what it
// builds lives in the view objects the shell hands it.
//
// Every step is an instrument: its figure first, and the few controls that change that figure
// beside it (to its right on a wide screen, directly under it on a phone, before the prose):
//
//   heading (h3)
//   [ figure column: the part of the step that holds its main figure | side column: the step's
//     controls, then the chapter's control groups that act on it, then its predict questions,
//     then the prose (p.explain, p.about, p.lab-explain, p.msg) that followed the figure ]
//   the rest of the step (in the order it was built)
//   ... "More settings": the panel, and the control groups that act on no figure of this step
//
// The main figure is the element marked data-figure="main" (else the first heatmap, chart, bar
// chart, table or formula on screen); the part that moves is the child of the step's section
// (or the `after` part) that holds it. Which controls act on which step is the chapter's data:
// a step's own `controls` part, or a control group in `controls` tagged with the steps it acts on.
// The shell wraps the controls beside the figure and those in the disclosure in
// data-group="inputs" (so #hide=inputs hides them); a chapter does not mark them again.
// Predict questions (kit/predict.js) go beside the figure by themselves, after the controls.
//
// A chapter comes in two files. <id>.meta.js is what the page needs before the chapter loads
// (the nav, the hash schema): small, no imports of views or heavy modules.
//
// export default {                        // softmax/meta.js
//   id: 'softmax',                        // hash: #lesson=softmax
//   title: { en: 'Softmax', zh: 'Softmax' },
//   questions: ['softmax/cooler'],        // ids of its predict-then-reveal questions (predict.js);
//                                         //   the start page counts the answered ones
//   carried: ['temperature'],             // optional: shared settings that change its numbers but
//                                         //   have no control in it; the shell shows them, with a
//                                         //   reset, when another chapter changed them (a step
//                                         //   may list its own `carried`)
//   home: true,                           // only the start page: unnumbered, leads the nav
//   engines: ['full'],                    // optional: engines it needs, loaded with it (ENGINES
//                                         //   below): 'full', the lessons' whole
//                                         //   engine as c.engine (without it the chapter runs on
//                                         //   the first part the page starts on, which has attend,
//                                         //   softmax and its kin, random matrices, multi-head,
//                                         //   positional encodings and linear: engine/api.js)
//   state: { smShift: { type: 'float', default: 0, min: -120, max: 120 } },
//                                         // hash fields this chapter owns (flat names, unique on
//                                         // the page; types in ../state.js)
// };
//
// <id>.js is the chapter itself, loaded when it is first shown (a chunk of its own):
//
// import meta from './softmax/meta.js';
// export default {
//   ...meta,
//   prefix: 'sm',                         // optional: CSS/id prefix of its sections (default: id)
//   strings,                              // import strings from './softmax/strings.js':
//                                         //   { en: {...}, zh: {...} } with the same keys in both
//                                         //   (tests/js/strings.test.js checks). Keys the shell
//                                         //   reads: intro (the lead), errEngine ({msg}: what the
//                                         //   banner says when the engine refuses), h.<step id>
//                                         //   (a step's heading; default "k. title").
//   steps: [{
//     id: 'overflow',                     // hash: stage=overflow
//     title: { en: 'Overflow', zh: '溢出' },   // in the step bar (one line at 1280 px for all steps)
//     build(c, v) -> Node | Node[],       // once: the section's content; keep handles in v
//     controls(c, v) -> Node | Node[],    // optional, once: the controls that act on this step's
//                                         //   figure only (the same v: draw() keeps them in sync);
//                                         //   beside the figure
//     draw(c, data, v) -> any,            // after every change while this step is shown
//     compute(c, data) -> data,           // optional: this step's engine calls (given the
//                                         //   chapter's compute() result); what it returns is
//                                         //   the data the panel, the step and `after` draw
//   }],
//   compute(c) -> data,                   // optional: the engine call(s) all parts draw from:
//                                         //   it only computes, from (c.engine, c.state)
//   onChange(c, changed),                 // optional: starts or restarts long work that follows
//                                         //   the state (the training chapters' runs:
//                                         //   kit/training.js); changed: the Set of the state's
//                                         //   field names whose values changed since the last
//                                         //   update (every field when the chapter was mounted).
//                                         //   Called before compute(), on every change
//   controls: [{                          // optional: controls that act on the figures of
//     steps: ['overflow', 'budget'],      //   these steps ('*': every step): beside the figure
//     build(c, v) -> Node | Node[],       //   there, in "More settings" on the others; built
//     draw(c, data, v),                   //   once (v: the group's own), drawn after every change
//   }],                                   //   (draw optional); listed most particular first
//   panel: { build(c, v), draw(c, data, v) },      // optional: what acts on no figure (the
//                                                  //   disclosure); the start page's is under the lead
//   after: { build(c, v), draw(c, data, v, out) }, // optional: below the steps; out = the step's draw()
//   leave(c),                             // optional cleanup (workers, timers); or c.onLeave(fn)
// };
//
// c, the chapter instance: { state, set(patch), redraw() (the same state drawn again), engine,
// lang, s(key, params) (this chapter's string), t(key, params) (a shell string,
// ../text/i18n.js), notify(message, lines), ui (this instance's own view state), kept (what it
// measured, trained or was answered: plain data that outlives the instance when the same lesson
// is mounted again, e.g. after a language switch), data (the last compute() result), step(id)
// (that step's v), onLeave(fn), chapters (this registry), progress(kind, detail) (what the
// learner did, for the host: kit/predict.js and kit/training.js report 'answered' and 'learned';
// ../hosts/progress.js) }.
// A change of chapter or step is a history entry (Back returns to it); other changes rewrite the
// current one. c.state is read-only; c.set(patch) checks the patch against the schema (an invalid
// one is refused: set returns its errors and nothing changes), writes the hash and redraws. A
// language change leaves the chapter and mounts it again; the state and c.kept are kept. A job
// still running then (a sweep, a training run) is stopped with the instance: the new one resumes
// it from what c.kept holds.
//
// Errors: an AttentionError thrown by compute() or a draw keeps the last picture on screen and
// shows the chapter's errEngine message in the banner; any other error is a defect (logged,
// and the banner says so).
//
// Views: chapters import what they draw with directly (../views/*.js: heatmap, bars, charts,
// table, formula, dom helpers) and the numbers' formatting from ../format.js. The worked example
// (presets, Q/K/V for the state, engine.attend on it) is ../example.js. Long jobs (workers,
// progress, "the latest run wins") go through ../run.js. Controls a course author may hide with
// #hide=... carry data-group="<name>": the shell has header, nav, footer and stepper; chapters
// use inputs.
//
// Chapters never read or write each other's state fields. To send the learner to another
// chapter in a given state, call the link that chapter's meta exports (e.g. softmax/meta.js's
// handCheckLink(state, scores) -> patch) and pass its patch to c.set.
//
// To add a chapter: write <id>.meta.js, <id>.js and <id>.strings.js, and put an entry below where
// it belongs in the course: { ...meta, load: () => import('./<id>.js') } (a literal import, so
// the bundler makes the chapter its own chunk). The start page lists it from there (a line about
// it goes in start/strings.js as about.<id>). A chapter imports no CSS: its stylesheet, if it
// has one, is added to ../lab.css.

import { clip } from '../text/i18n.js';
import start from './start/meta.js';
import why from './why/meta.js';
import pipeline from './pipeline/meta.js';
import masks from './masks/meta.js';
import softmax from './softmax/meta.js';
import scaling from './scaling/meta.js';
import scoreFunctions from './score-functions/meta.js';
import multihead from './multihead/meta.js';
import position from './position/meta.js';
import block from './block/meta.js';
import long from './long/meta.js';
import debug from './debug/meta.js';
import practice from './practice/meta.js';
import playground from './playground/meta.js';
import seq2seq from './seq2seq/meta.js';
import model from './model/meta.js';

// The course in order: each chapter's meta and how to load the chapter itself.
export const chapters = [
  { ...start, load: () => import('./start/index.js') },
  { ...why, load: () => import('./why/index.js') },
  { ...pipeline, load: () => import('./pipeline/index.js') },
  { ...masks, load: () => import('./masks/index.js') },
  { ...softmax, load: () => import('./softmax/index.js') },
  { ...scaling, load: () => import('./scaling/index.js') },
  { ...scoreFunctions, load: () => import('./score-functions/index.js') },
  { ...multihead, load: () => import('./multihead/index.js') },
  { ...position, load: () => import('./position/index.js') },
  { ...block, load: () => import('./block/index.js') },
  { ...long, load: () => import('./long/index.js') },
  { ...debug, load: () => import('./debug/index.js') },
  { ...practice, load: () => import('./practice/index.js') },
  { ...playground, load: () => import('./playground/index.js') },
  { ...seq2seq, load: () => import('./seq2seq/index.js') },
  { ...model, load: () => import('./model/index.js') },
];

// Engines a chapter may need (its meta's `engines`), loaded with the chapter: 'full' is the
// lessons' whole engine, of which the page first loads only the first part (../hosts/host.js).
// (The training chapters' trainer lives in their Web Worker: ../workers/train-worker.js.)
const ENGINES = {
  full: () => import('../engine/api.js').then((m) => m.loadEngine()),
};
const engines = new Map(); // name -> the engine loaded last

// The engine of that name, loaded (once; again after it stopped).
export const loadChapterEngine = (name) =>
  ENGINES[name]().then((e) => {
    engines.set(name, e);
    return e;
  });

// The lessons' engine a first chapter starts on: the whole one if it needs it, else the first part
// (engine/api.js, loadFirstEngine: 60 % of the bytes, so the first figure comes sooner).
export const loadLessonEngine = (id) =>
  chapters.find((c) => c.id === id)?.engines?.includes('full')
    ? loadChapterEngine('full')
    : import('../engine/api.js').then((m) => m.loadFirstEngine());

// The engine of that name the chapters use now (null before its chapter has loaded). Once it
// has stopped (an internal error) a fresh one is loaded, and it is the one given from then on;
// until it arrives the stopped one answers with its 'engine-stopped' error, and the page
// redraws the chapter.
export function chapterEngine(name) {
  const e = engines.get(name) ?? null;
  if (e && e.stopped) loadChapterEngine(name).catch(() => {});
  return e;
}

// The loaded chapters by id, and the loads under way (one per chapter, shared by every caller).
const loaded = new Map();
const loading = new Map();

// The chapter ready to mount if it has loaded (synchronous), else undefined.
export const loadedChapter = (id) => loaded.get(id);

// loadChapter(id) -> Promise<chapter>: its module, loaded once. A failed load (a network error)
// is forgotten, so the next call tries again.
export function loadChapter(id) {
  if (loaded.has(id)) return Promise.resolve(loaded.get(id));
  if (!loading.has(id)) {
    const entry = chapters.find((c) => c.id === id);
    if (!entry) return Promise.reject(new Error(`no chapter "${id}"`));
    loading.set(
      id,
      Promise.all([entry.load(), ...(entry.engines || []).map(loadChapterEngine)]).then(
        ([m]) => {
          const chapter = { ...entry, ...m.default };
          loaded.set(id, chapter);
          loading.delete(id);
          return chapter;
        },
        (e) => {
          loading.delete(id);
          throw e;
        },
      ),
    );
  }
  return loading.get(id);
}

// The state s with a stage of its lesson's (loaded) chapter: the first step when the stage is
// missing or unknown; an unknown one is reported in problems (for the notice).
export function stageInChapter(chapter, s, problems) {
  const steps = chapter.steps || [];
  if (steps.length === 0) return { ...s, stage: '' };
  if (steps.some((st) => st.id === s.stage)) return s;
  if (s.stage !== '' && problems)
    problems.push({ key: 'stage', value: s.stage, reason: { code: 'unknownStage', params: { stage: clip(s.stage) } } });
  return { ...s, stage: steps[0].id };
}
