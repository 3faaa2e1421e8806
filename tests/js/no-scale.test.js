// "What happens without the scale" (the playground's preset, chapters/playground/meta.js NO_SCALE):
// the trainer at that configuration, run twice from the same seed, with and without 1/√d_k. The
// unscaled run is held to the scaled one: over steps NO_SCALE_FROM to NO_SCALE_STEPS its loss
// (the page's points: the mean of each 10 steps) is far higher and keeps climbing back up, while
// the scaled run has learned. Every loss is finite (the trainer refuses a step that is not).
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
    for (let step = CHUNK; step <= NO_SCALE_STEPS; step += CHUNK) {
      const r = t.step(CHUNK);
      assert.ok(r.losses.every(Number.isFinite), `scale ${scale}: a loss that is not finite by step ${step}`);
      points.push({ x: r.step, y: r.losses.reduce((a, b) => a + b, 0) / r.losses.length });
    }
    return { points, heldOut: t.evaluate() };
  } finally {
    t.delete();
  }
}

// mean, the sum of every rise from one point to the next, and the rises above 0.02, after `from`
function window(points) {
  const w = points.filter((p) => p.x > NO_SCALE_FROM).map((p) => p.y);
  let rise = 0,
    ups = 0;
  for (let i = 1; i < w.length; i++) {
    rise += Math.max(0, w[i] - w[i - 1]);
    if (w[i] - w[i - 1] > 0.02) ups++;
  }
  return { mean: w.reduce((a, b) => a + b, 0) / w.length, rise, ups, min: Math.min(...w), max: Math.max(...w) };
}

test('without the scale the loss stays far higher and climbs back up; with it the same run learns', () => {
  assert.equal(NO_SCALE.pgScale, true); // the page's main run is the scaled one, its twin the unscaled
  const scaled = lossPoints(true);
  const unscaled = lossPoints(false);
  const s = window(scaled.points);
  const u = window(unscaled.points);
  const detail = `scaled ${JSON.stringify(s)}, unscaled ${JSON.stringify(u)}`;
  // the scaled run has learned the task; the unscaled one has not (higher held-out loss, lower accuracy)
  const held = `${detail}; held out: scaled ${JSON.stringify(scaled.heldOut)}, unscaled ${JSON.stringify(unscaled.heldOut)}`;
  assert.ok(scaled.heldOut.accuracy >= 0.99, held);
  assert.ok(unscaled.heldOut.accuracy < scaled.heldOut.accuracy, held);
  assert.ok(unscaled.heldOut.loss > scaled.heldOut.loss + 0.1, held);
  // the unscaled loss: higher everywhere in the window, higher on average by far
  assert.ok(u.min > s.max, detail);
  assert.ok(u.mean > s.mean + 0.2, detail);
  // ... and it goes back up: its rises add up to several times the scaled run's, at least twice
  // by more than 0.02 between two points, and its range spans more than half its mean
  assert.ok(u.rise > 4 * s.rise && u.rise > 0.2, detail);
  assert.ok(u.ups >= 2, detail);
  assert.ok(u.max - u.min > 0.5 * u.mean, detail);
});
