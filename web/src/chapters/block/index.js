// The Transformer block: an encoder layer over "The cat eats fish" and a decoder layer over
// "猫 吃 鱼" that attends to it, one stage a step: self-attention, + residual and LayerNorm,
// feed-forward, masked self-attention, cross-attention; then why each part is there (residual
// and LayerNorm off, 1-6 stacked layers, pre- or post-norm) and the parallel pass against an
// RNN's n dependent steps, measured. The sentences sit beside every step's figure; the block
// diagram under the steps is the step bar's map: each box goes to its step. Every number from the
// engine.
//
// Files: the attention steps (heads.js), LayerNorm and feed-forward (norm.js), stacked layers
// (stack.js), parallel against sequential (parallel.js), the sentences and the diagram
// (panel.js), what the steps share (parts.js), and the numbers without the DOM (logic.js).

import strings from './strings.js';
import meta from './meta.js';
import { blockData } from './logic.js';
import { buildDiagram, buildSentences, drawDiagram, drawSentences } from './panel.js';
import { stepControls } from './parts.js';
import { buildSelf, drawSelf, buildMasked, drawMasked, buildCross, drawCross } from './heads.js';
import { buildNorm, drawNorm, buildFf, drawFf } from './norm.js';
import { buildStack, drawStack } from './stack.js';
import { buildParallel, drawParallel } from './parallel.js';

const STEPS = [
  { id: 'self', title: { en: 'Self-attention', zh: '自注意力' }, build: buildSelf, draw: drawSelf },
  {
    id: 'norm',
    title: { en: 'Add & LayerNorm', zh: '残差与层归一化' },
    build: buildNorm,
    controls: stepControls,
    draw: drawNorm,
  },
  { id: 'ff', title: { en: 'Feed-forward', zh: '前馈网络' }, build: buildFf, controls: stepControls, draw: drawFf },
  { id: 'masked', title: { en: 'Masked self-attention', zh: '掩码自注意力' }, build: buildMasked, draw: drawMasked },
  {
    id: 'cross',
    title: { en: 'Cross-attention', zh: '交叉注意力' },
    build: buildCross,
    controls: stepControls,
    draw: drawCross,
  },
  {
    id: 'stack',
    title: { en: 'Stacked layers', zh: '堆叠多层' },
    build: buildStack,
    controls: stepControls,
    draw: drawStack,
  },
  {
    id: 'parallel',
    title: { en: 'Parallel vs sequential', zh: '并行与串行' },
    build: buildParallel,
    controls: stepControls,
    draw: drawParallel,
  },
];

export default {
  ...meta,
  prefix: 'bl',
  strings,
  steps: STEPS,
  controls: [{ steps: '*', build: buildSentences, draw: drawSentences }],
  after: { build: buildDiagram, draw: drawDiagram },
  compute: (c) => blockData(c.engine, c.state),
};
