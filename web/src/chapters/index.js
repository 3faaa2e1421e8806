// The chapters of the page, in order, and the contract a chapter follows.
//
// A chapter is data: one plain object that ./shell.js runs. The shell builds the heading (title)
// and the lead (the `intro` string), the panel, the error banner, the step bar and one <section>
// per step, shows the current step only, and on every state change calls compute() once and
// then the draw functions. A chapter never builds those parts itself and keeps no module-level
// mutable state: what it builds lives in the view objects the shell hands it.
//
// export default {
//   id: 'softmax',                        // hash: #lesson=softmax
//   prefix: 'sm',                         // optional: CSS/id prefix of its sections (default: id)
//   title: { en: 'Softmax', zh: 'Softmax' },
//   strings,                              // import strings from './softmax.strings.js':
//                                         //   { en: {...}, zh: {...} } with the same keys in both
//                                         //   (tests/js/strings.test.js checks). Keys the shell
//                                         //   reads: intro (the lead), errEngine ({msg}: what the
//                                         //   banner says when the engine refuses), h.<step id>
//                                         //   (a step's heading; default "k. title").
//   state: { smShift: { type: 'float', default: 0, min: -120, max: 120 } },
//                                         // hash fields this chapter owns (flat names, unique on
//                                         // the page; types in ../state.js)
//   steps: [{
//     id: 'overflow',                     // hash: stage=overflow
//     title: { en: 'Overflow', zh: '溢出' },   // in the step bar
//     build(c, v) -> Node | Node[],       // once: the section's content; keep handles in v
//     draw(c, data, v) -> any,            // after every change while this step is shown
//   }],
//   compute(c) -> data,                   // optional: the engine call(s) all parts draw from
//   panel: { build(c, v), draw(c, data, v) },      // optional: controls above the step bar
//   after: { build(c, v), draw(c, data, v, out) }, // optional: below the steps; out = the step's draw()
//   leave(c),                             // optional cleanup (workers, timers); or c.onLeave(fn)
// };
//
// c, the chapter instance: { state, set(patch), engine, lang, s(key, params) (this chapter's
// string), t(key, params) (a shell string, ../i18n.js), notify(message, lines), ui (this
// instance's own view state), data (the last compute() result), step(id) (that step's v),
// onLeave(fn) }. c.state is read-only; c.set(patch) checks the patch against the schema (an
// invalid one is refused: set returns its errors and nothing changes), writes the hash and
// redraws. A language change leaves the chapter and mounts it again; the state is kept.
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
// chapter in a given state, call the link that chapter exports (e.g. softmax.js's
// handCheckLink(state, scores) -> patch) and pass its patch to c.set.
//
// To add a chapter: write <id>.js and <id>.strings.js, import it below and put it in `chapters`
// where it belongs in the course.

import './chapters.css';
import why from './why.js';
import pipeline from './pipeline.js';
import masks from './masks.js';
import softmax from './softmax.js';
import scaling from './scaling.js';
import scoreFunctions from './score-functions.js';
import multihead from './multihead.js';
import position from './position.js';
import long from './long.js';
import practice from './practice.js';

export const chapters = [why, pipeline, masks, softmax, scaling, scoreFunctions, multihead, position, long, practice];
