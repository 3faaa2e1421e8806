// Chapter 2: the pipeline, step by step.
// score QKᵀ -> scale by 1/√d_k -> mask -> softmax -> weights × V, on the current example.
// Every number shown comes from engine.attend (through lesson/example.js), computed before any
// draw: the chapter's compute runs the example, the scale step's compute adds the example without
// the 1/√d_k, the scores step's adds its geometry figure (q·k as arrows, ./geometry.js). The draws
// only lay out, label and link what the engine returned.
//
// Beside each step's figure: the example (preset and tokens) on every step, d_k and the seed where
// they change the scores, the masks from the mask step on (the chapter's control groups); the rest
// of the settings fold away (the panel).
//
// Files: the controls and the grid editor (inputs.js), the stage every step draws (stage.js: its
// heatmaps, formulas and notes), the scores step's question and the Softmax step's hand check
// (questions.js), and the sentences and formulas (text.js, tex.js).

import { runExample } from '../../lesson/example.js';
import strings from './strings.js';
import meta from './meta.js';
import { buildExample, buildInputs, buildMasks, buildSizes, syncInputs } from './inputs.js';
import { destroyStage, drawStage, holdStage, stageSlots } from './stage.js';
import { buildHandCheck, buildTopWeight, drawHandCheck, drawTopWeight } from './questions.js';
import { buildScoreGeometry, drawScoreGeometry, scoresGeometry } from './geometry.js';

// A step of the pipeline: its section holds the stage's lead, then the figure; `extra` adds what
// the step has of its own: build(c, v) -> { before, after } (nodes before the figure and after
// it) and draw(c, v, data, row).
function stageStep(id, title, extra = null, compute = undefined) {
  return {
    id,
    title,
    compute,
    build(c, v) {
      const slots = stageSlots(c, v);
      const own = extra ? extra.build(c, v) : {};
      return [slots.lead, own.before, slots.figure, slots.more, ...[].concat(own.after ?? [])].filter(Boolean);
    },
    draw(c, data, v) {
      const { row } = drawStage(c, data, v, id);
      if (extra) extra.draw(c, v, data, row);
      else holdStage(c, v, false);
    },
  };
}

// The scores step: the question on the top weight, then q·k as geometry.
const scoresExtra = {
  build: (c, v) => ({ after: [buildTopWeight(c, v), buildScoreGeometry(c, v)] }),
  draw: (c, v, data, row) => {
    holdStage(c, v, false);
    drawTopWeight(c, v, data, row);
    drawScoreGeometry(c, v, data);
  },
};
const handCheck = {
  build: (c, v) => {
    const { guess, bars } = buildHandCheck(c, v);
    return { before: guess, after: bars };
  },
  draw: drawHandCheck,
};

// The scale step shows what the scale changes: the same example through the engine without the
// 1/√d_k (score 'dot'); typed scores have no scale.
const unscaled = (c, data) => ({
  ...data,
  unscaled: data.inputs.scoresTyped ? null : c.engine.attend({ ...data.args, score: 'dot' }),
});

export default {
  ...meta,
  prefix: 'pl',
  strings,
  // The current example through engine.attend: { inputs, args, result } (lesson/example.js).
  compute: (c) => runExample(c.engine, c.state),
  steps: [
    stageStep('scores', { en: 'Scores', zh: '分数' }, scoresExtra, scoresGeometry),
    stageStep('scaled', { en: 'Scale', zh: '缩放' }, null, unscaled),
    stageStep('masked', { en: 'Mask', zh: '掩码' }),
    stageStep('weights', { en: 'Softmax', zh: 'Softmax' }, handCheck),
    stageStep('output', { en: 'Weighted sum', zh: '加权求和' }),
  ],
  // The controls beside each step's figure, most particular first (all synced by the panel's draw).
  controls: [
    { steps: ['masked', 'weights', 'output'], build: buildMasks },
    { steps: ['scores', 'scaled'], build: buildSizes },
    { steps: '*', build: buildExample },
  ],
  panel: { build: buildInputs, draw: syncInputs },
  leave: destroyStage,
};
