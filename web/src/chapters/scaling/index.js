// Lesson 5: why attention divides the scores by √d_k.
//
// Five steps, each with the controls that act on its figure beside it:
//   variance     the histogram of q·k for random q, k (N(0, 1) entries): variance d_k
//   growth       variance against d_k on log-log axes, raw and scaled
//   softmax      one query against n keys: raw scores saturate softmax, scaled ones do not
//   gradient     the softmax Jacobian shrinks toward 0: the vanishing gradient
//   temperature  τ divides the scores; √d_k is a temperature; hard vs soft vs Gumbel-softmax
//
// Every measured number comes from the engine: long runs (a million samples, the d_k sweeps)
// in variance-worker.js through variance-client.js, each a createRun (workers/run.js), and short ones (one
// query) on this thread. The theory curves and reference values are formulas
// (scaling/theory.js).
//
// Files: one per step (variance.js, growth.js, saturation.js, gradient.js, temperature.js), the
// controls (controls.js), the long runs (runs.js) and what they draw as they go (run-figures.js), one
// query against n keys (probe.js), colours and run sizes (settings.js).

import strings from './strings.js';
import meta from './meta.js';
import { GROUPS, buildHint } from './controls.js';
import { buildVariance, drawVarianceStep } from './variance.js';
import { buildGrowth, drawGrowth } from './growth.js';
import { buildSoftmax, drawSoftmax } from './saturation.js';
import { buildGradient, drawGradient } from './gradient.js';
import { buildTemperature, drawTemperature } from './temperature.js';

export default {
  ...meta,
  prefix: 'lab',
  strings,
  steps: [
    {
      id: 'variance',
      title: { en: 'Variance of q·k', zh: 'q·k 的方差' },
      build: buildVariance,
      draw: drawVarianceStep,
    },
    { id: 'growth', title: { en: 'Against d_k', zh: '随 d_k 增长' }, build: buildGrowth, draw: drawGrowth },
    { id: 'softmax', title: { en: 'Saturation', zh: 'softmax 饱和' }, build: buildSoftmax, draw: drawSoftmax },
    { id: 'gradient', title: { en: 'Gradient', zh: '梯度消失' }, build: buildGradient, draw: drawGradient },
    { id: 'temperature', title: { en: 'Temperature', zh: '温度' }, build: buildTemperature, draw: drawTemperature },
  ],
  controls: GROUPS,
  panel: { build: buildHint },
};
