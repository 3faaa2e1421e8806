// The playground's "what happens without the scale" (chapters/playground/meta.js NO_SCALE) over
// several seeds: the same trainer with and without 1/√d_k, from the same seed, and for each run
// the page's points (the mean loss of every 10 steps) from NO_SCALE_FROM to NO_SCALE_STEPS with
// their mean, the sum of every rise from one point to the next, the rises above 0.02 and the
// held-out accuracy at the end. No timing.
//   node bench/scale_bench.mjs     (after scripts/build.sh wasm)
//   SCALE_SEEDS=1,2,3 SCALE_LR=0.003 SCALE_TASK=reverse SCALE_LAYERS=2 to try others.
import { loadTrainEngine } from '../web/src/engine-train.js';
import { NO_SCALE, NO_SCALE_FROM, NO_SCALE_STEPS } from '../web/src/chapters/playground/meta.js';

const env = process.env;
const config = {
  task: env.SCALE_TASK || NO_SCALE.pgTask,
  layers: Number(env.SCALE_LAYERS || NO_SCALE.pgLayers),
  heads: Number(env.SCALE_HEADS || NO_SCALE.pgHeads),
  dModel: Number(env.SCALE_D || NO_SCALE.pgD),
  learningRate: Number(env.SCALE_LR || NO_SCALE.pgLr),
  position: NO_SCALE.pgPos,
};
const seeds = (env.SCALE_SEEDS || '1,2,3,4,5').split(',').map(Number);
const engine = await loadTrainEngine({ simd: true });

console.log(
  `${config.task}, ${config.layers} layer(s) x ${config.heads} head(s), d_model ${config.dModel} (d_k ${config.dModel / config.heads}), learning rate ${config.learningRate}; ` +
    `mean loss of every 10 steps, steps ${NO_SCALE_FROM + 10} to ${NO_SCALE_STEPS} (the page's preset is seed ${NO_SCALE.pgSeed})`,
);
for (const seed of seeds) {
  for (const scale of [true, false]) {
    const t = engine.trainer({ ...config, seed, scale });
    const ys = [];
    let error = '';
    try {
      for (let step = 10; step <= NO_SCALE_STEPS; step += 10) {
        const r = t.step(10);
        if (step > NO_SCALE_FROM) ys.push(r.losses.reduce((a, b) => a + b, 0) / r.losses.length);
      }
    } catch (e) {
      error = e.message;
    }
    const acc = error ? NaN : t.evaluate().accuracy;
    t.delete();
    let rise = 0,
      ups = 0;
    for (let i = 1; i < ys.length; i++) {
      rise += Math.max(0, ys[i] - ys[i - 1]);
      if (ys[i] - ys[i - 1] > 0.02) ups++;
    }
    const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
    console.log(
      `  seed ${seed} ${scale ? 'scaled  ' : 'unscaled'} mean ${mean.toFixed(3)} rise ${rise.toFixed(3)} ups ${ups}/${ys.length - 1} ` +
        `held-out accuracy ${acc.toFixed(3)}${error ? ` stopped: ${error}` : ''}\n    ${ys.map((y) => y.toFixed(2)).join(' ')}`,
    );
  }
}
