// Chapter 3: masks. Key padding, causal, a custom mask drawn by clicking cells, the fill value
// (−∞, −1e9, 0) and its leak, a reversed causal mask, a fully blocked row, and the two-token
// check. The mask set here is the shared one: the pipeline shows the same example with it.
// Every number comes from engine.attend; the chapter only decides what to flag and says why.
//
// Every step leads with the attention weights, the mask striped on them and the cells the step
// flags outlined; beside them the step's own controls and the fill. Files: the maps, the fill and
// the settings (maps.js), padding and the custom mask (padding.js), the causal mask (causal.js), a
// fully blocked row and the two-token check (blocked.js), and the logic without the DOM (logic.js).

import { runExample } from '../../lesson/example.js';
import strings from './strings.js';
import meta from './meta.js';
import { buildFill, buildMaps, buildPanel, drawFill, drawMaps, drawPanel } from './maps.js';
import { buildCustom, buildPadding, customControls, drawCustom, drawPadding, paddingControls } from './padding.js';
import { buildCausal, causalControls, computeCausal, drawCausal } from './causal.js';
import {
  blockedControls,
  buildBlocked,
  buildTwoToken,
  drawBlocked,
  drawTwoToken,
  twoTokenControls,
} from './blocked.js';

export default {
  ...meta,
  prefix: 'mk',
  strings,
  steps: [
    {
      id: 'padding',
      title: { en: 'Padding', zh: '填充掩码' },
      build: buildPadding,
      controls: paddingControls,
      draw: drawPadding,
    },
    {
      id: 'causal',
      title: { en: 'Causal', zh: '因果掩码' },
      build: buildCausal,
      controls: causalControls,
      compute: computeCausal,
      draw: drawCausal,
    },
    {
      id: 'custom',
      title: { en: 'Draw a mask', zh: '自己画掩码' },
      build: buildCustom,
      controls: customControls,
      draw: drawCustom,
    },
    {
      id: 'blocked',
      title: { en: 'A blocked row', zh: '整行屏蔽' },
      build: buildBlocked,
      controls: blockedControls,
      draw: drawBlocked,
    },
    {
      id: 'two-token',
      title: { en: 'Two-token check', zh: '两词自检' },
      build: buildTwoToken,
      controls: twoTokenControls,
      draw: drawTwoToken,
    },
  ],
  // The shared example with the state's masks: { inputs, args, result } (example.js).
  compute: (c) => runExample(c.engine, c.state),
  // The fill acts on every step's weights.
  controls: [{ steps: '*', build: buildFill, draw: drawFill }],
  panel: { build: buildPanel, draw: drawPanel },
  after: { build: buildMaps, draw: drawMaps },
};
