// Chapter 9: long sequences. O(n²) time and memory measured live (naive, flash, windowed and
// linear attention in Web Workers, attend-pool.js), the online softmax of tiled attention block
// by block (engine.flashTrace), sliding-window and strided masks as the engine applies them, and
// when each is worth it. Every number comes from the engine or from a measurement.
//
// Files: one per step (cost.js, tiling.js, patterns.js, when.js), the sweep on screen (sweep.js),
// the measurements in the workers (runs.js), and what is read and counted from the engine's
// numbers, without the DOM (logic.js). What was measured lives in c.kept, so a language switch
// keeps it.

import strings from './strings.js';
import meta, { TRACE_N, PATTERN_N } from './meta.js';
import { PATTERN_BLOCK, TRACE_D, patternOptions } from './logic.js';
import { followSweep } from './sweep.js';
import { buildCost, costControls, drawCost, resumeRuns } from './cost.js';
import { buildTiling, drawTiling, tilingControls } from './tiling.js';
import { buildPatterns, drawPatterns, patternControls } from './patterns.js';
import { buildWhen, drawWhen } from './when.js';

function compute(c) {
  const { engine, state } = c;
  followSweep(c); // a sweep the cost or when step started stops when they are left
  resumeRuns(c); // runs under way when the chapter was mounted again go on
  if (state.stage === 'tiling') {
    const x = (stream) => engine.randomMatrix({ rows: TRACE_N, cols: TRACE_D, seed: state.seed, stream });
    const o = { query: x(1), key: x(2), value: x(3) };
    return { trace: engine.flashTrace({ ...o, blockSize: Number(state.longBlock) }), naive: engine.attend(o) };
  }
  if (state.stage === 'patterns') {
    const x = (stream) => engine.randomMatrix({ rows: PATTERN_N, cols: 4, seed: state.seed, stream });
    const pattern = engine.flashTrace({
      query: x(4),
      key: x(5),
      value: x(6),
      blockSize: PATTERN_BLOCK,
      ...patternOptions(state.longPattern, state.longWidth),
    });
    return { pattern };
  }
  return null;
}

export default {
  ...meta,
  strings,
  steps: [
    {
      id: 'cost',
      title: { en: 'Time and memory', zh: '时间与内存' },
      build: buildCost,
      controls: costControls,
      draw: drawCost,
    },
    {
      id: 'tiling',
      title: { en: 'The online softmax', zh: '在线 softmax' },
      build: buildTiling,
      controls: tilingControls,
      draw: drawTiling,
    },
    {
      id: 'patterns',
      title: { en: 'Window and stride', zh: '窗口与跨步' },
      build: buildPatterns,
      controls: patternControls,
      draw: drawPatterns,
    },
    { id: 'when', title: { en: 'When to use which', zh: '何时用哪种' }, build: buildWhen, draw: drawWhen },
  ],
  compute,
};
