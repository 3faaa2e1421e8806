// The chapters of the page, in order. A chapter is one plain object:
//
// export default {
//   id: 'pipeline',                       // hash: #lesson=pipeline
//   title: { en: '...', zh: '...' },
//   strings: { en: {...}, zh: {...} },    // every string this chapter shows
//   state: { name: { type: 'int'|'float'|'bool'|'enum'|'string'|'list'|'matrix', default, min, max, values } },
//                                         // extra hash fields this chapter owns (flat, unique names;
//                                         // list: item 'string'|'bool'|'float', maxItems;
//                                         // matrix: maxRows, maxCols; see state.js)
//   steps: [{ id, title: {en, zh} }],     // optional; the step id lives in the hash (stage=...)
//   enter(root, ctx),  // build the DOM once; ctx = { state, set(patch), engine, lang, s(key, params)
//                      // (this chapter's string), t(key, params) (shell string), views, notify(message) }
//   update(ctx),       // recompute with the engine and redraw after every state change
//   leave(),           // optional cleanup (workers, listeners)
// };
//
// ctx.state is the current state (read it, never mutate it); ctx.set(patch) merges a patch,
// writes the hash and calls update(ctx) (or re-enters the chapter when lesson or lang change).
// A patch that breaks the schema is refused: set() returns the list of errors and nothing
// changes. ctx.views = { createHeatmap, createBars, renderFormula, renderTable, fmt, tex,
// texVector, fmtVector, parseNumber }. The worked example (presets, Q/K/V for the state,
// engine.attend on it) lives in ../example.js. Chapters build their DOM with ../views/dom.js
// (h, field) and their step bar and step sections with ../views/stepper.js.
// On a language change main.js calls leave() and enter() again; the state is kept.
// Controls a course author may hide with #hide=... carry data-group="<name>": the shell has
// header, nav and footer; the chapters use inputs and stepper.
//
// To add a chapter: import it below and add it to `registry`.

import './chapters.css';
import why from './why.js';
import pipeline from './pipeline.js';
import masks from './masks.js';
import softmax from './softmax.js';
import scaling from './scaling.js';

const registry = { why, pipeline, masks, softmax, scaling };

export const ORDER = ['why', 'pipeline', 'masks', 'softmax', 'scaling'];

export const chapters = ORDER.map((id) => registry[id]).filter(Boolean);
