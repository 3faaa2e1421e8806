// "What happens without the scale" (the playground's preset, chapters/playground/meta.js NO_SCALE):
// the trainer at that configuration, run twice from the same seed, with and without 1/√d_k. The
// page says learning crawls without the scale: the scaled run learns the task within a few dozen
// steps, while over steps NO_SCALE_FROM to NO_SCALE_STEPS the unscaled run's loss (the page's
// points: the mean of each 10 steps) stays high and far above, and it has not learned the task by
// the end. Every loss is finite (the trainer refuses a step that is not).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadTrainEngine } from '../../web/src/engine-train.js';
import { NO_SCALE, NO_SCALE_FROM, NO_SCALE_STEPS } from '../../web/src/chapters/playground/meta.js';

const CHUNK = 10; // the page's points: one per 10 steps

let engine;
before(async () => {
  engine = await loadTrainEngine({ simd: true });
});

// The page's loss points of one run: { x: step, y: mean loss of the 10 steps before it }.
function lossPoints(scale) {
  const t = engine.trainer({
    task: NO_SCALE.pgTask,
    layers: NO_SCALE.pgLayers,
    heads: NO_SCALE.pgHeads,
    dModel: NO_SCALE.pgD,
    learningRate: NO_SCALE.pgLr,
    seed: NO_SCALE.pgSeed,
    position: NO_SCALE.pgPos,
    scale,
  });
  try {
    const points = [];
    let learnedAt = null;
    for (let step = CHUNK; step <= NO_SCALE_STEPS; step += CHUNK) {
      const r = t.step(CHUNK);
      assert.ok(r.losses.every(Number.isFinite), `scale ${scale}: a loss that is not finite by step ${step}`);
      points.push({ x: r.step, y: r.losses.reduce((a, b) => a + b, 0) / r.losses.length });
      if (scale && learnedAt === null && t.evaluate().accuracy >= 0.99) learnedAt = r.step;
    }
    return { points, heldOut: t.evaluate(), learnedAt };
  } finally {
    t.delete();
  }
}

test('without the scale learning crawls: the same run with it learns within a few dozen steps', () => {
  assert.equal(NO_SCALE.pgScale, true); // the page's main run is the scaled one, its twin the unscaled
  const scaled = lossPoints(true);
  const unscaled = lossPoints(false);
  const at = (run, x) => run.points.find((p) => p.x === x).y;
  const detail = JSON.stringify({ scaled: scaled.heldOut, unscaled: unscaled.heldOut, learnedAt: scaled.learnedAt });
  // the scaled run learned the task early (its held-out accuracy read every 10 steps) and keeps it
  assert.ok(scaled.learnedAt !== null && scaled.learnedAt <= 50, detail);
  assert.ok(scaled.heldOut.accuracy >= 0.99, detail);
  // the unscaled one has not: right on well under three quarters of the held-out positions, its
  // training loss above 1 over the whole window and above the scaled run's at every point of it
  assert.ok(unscaled.heldOut.accuracy < 0.7, detail);
  for (const p of unscaled.points.filter((q) => q.x >= NO_SCALE_FROM)) {
    assert.ok(p.y > 1, `unscaled loss ${p.y} at step ${p.x}`);
    assert.ok(p.y > at(scaled, p.x) + 0.5, `step ${p.x}: unscaled ${p.y}, scaled ${at(scaled, p.x)}`);
  }
});
