// The run the multi-head chapter opens as "heads that a model learned" (playground/meta.js
// learnedHeadsLink): trained by the playground's trainer with the link's fields to the link's
// step, it has learned the task, a head of layer 1 looks at the previous token and both heads of
// layer 2 do induction, as the chapter's text says (the trainer's head scores on repeated random
// sequences: the mean weight on position i - 1, and on the token after the last occurrence).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { learnedHeadsLink } from '../../web/src/chapters/playground/meta.js';

test('the learned-heads link: a previous-token head in layer 1 and induction heads in layer 2 by its step', async () => {
  const te = await loadTrainEngine();
  const link = learnedHeadsLink();
  const t = te.trainer({
    task: link.pgTask,
    layers: link.pgLayers,
    heads: link.pgHeads,
    dModel: link.pgD,
    learningRate: link.pgLr,
    seed: link.pgSeed,
    scale: link.pgScale,
    position: link.pgPos,
  });
  t.step(link.pgStep);
  assert.ok(t.evaluate().accuracy >= 0.99, 'the task is learned');
  const { heads, previousToken, induction } = t.headScores();
  const prev = Array.from(previousToken.subarray(0, heads)); // layer 1
  const ind = Array.from(induction.subarray(heads, 2 * heads)); // layer 2
  assert.ok(Math.max(...prev) >= 0.4, `layer 1 previous-token scores ${prev}`);
  for (const x of ind) assert.ok(x >= 0.7, `layer 2 induction scores ${ind}`);
  t.delete();
});
