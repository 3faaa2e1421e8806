// "What happens without the scale" in Chromium: one click sets the playground's preset (meta.js
// NO_SCALE) and trains both runs, with and without 1/√d_k, from the same seed to NO_SCALE_STEPS,
// where they stop. The loss chart's table (the page's points) equals the same runs in Node, and the
// verdict under the chart says what those runs show: the step the scaled run learned the task at,
// both runs' held-out accuracy at the end and the unscaled run's training loss at NO_SCALE_FROM
// and at the end. The page's words say learning crawls without the scale; the runs must show it
// (the preset used to have the unscaled run reach 0.95 held-out accuracy while the text said its
// loss stayed high). Every wait is for a state of the page. NO_SCALE_SHOTS=dir saves screenshots.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { fmt } from '../../web/src/text/format.js';
import { NO_SCALE, NO_SCALE_FROM, NO_SCALE_STEPS } from '../../web/src/chapters/playground/meta.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const SHOTS = process.env.NO_SCALE_SHOTS;

// The same two runs in Node: the page's points (the mean loss of every 10 steps) by step, the
// held-out accuracy at the end, and the first step of 10 at which the held-out accuracy was 0.99.
async function nodeRuns() {
  const engine = await loadTrainEngine(); // the SIMD build, as Chromium loads
  const run = (scale) => {
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
    const points = new Map();
    let learnedAt = null;
    let acc = 0;
    for (let step = 10; step <= NO_SCALE_STEPS; step += 10) {
      const r = t.step(10);
      points.set(r.step, r.losses.reduce((a, b) => a + b, 0) / r.losses.length);
      acc = t.evaluate().accuracy;
      if (learnedAt === null && acc >= 0.99) learnedAt = r.step;
    }
    t.delete();
    return { points, acc, learnedAt };
  };
  return { scaled: run(true), unscaled: run(false) };
}

test('one click trains both runs; the verdict says what they show, and the runs back the words', async () => {
  // another configuration first: the button sets every field of the preset
  const page = await lab.open('lesson=playground&stage=compare&lang=en&pgD=32&pgSeed=7&pgSpeed=fast');
  await page.waitForFunction(() => /\d/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 60000,
  });
  await page.click('.pg-no-scale');
  await page.waitForFunction(
    () =>
      document.querySelector('.pg-no-scale-verdict').textContent !== '' &&
      document.querySelector('.pg-play').getAttribute('aria-pressed') === 'false',
    null,
    { timeout: 600000, polling: 250 },
  );
  const hash = await page.evaluate(() => location.hash);
  for (const [k, x] of Object.entries({ ...NO_SCALE, pgStep: NO_SCALE_STEPS })) {
    const shown = new URLSearchParams(hash.slice(1)).get(k);
    // a field at its default is left out of the link
    if (shown !== null) assert.equal(shown, String(x === true ? 1 : x === false ? 0 : x), `${k} in ${hash}`);
  }
  assert.match(hash, new RegExp(`pgStep=${NO_SCALE_STEPS}`));

  // the loss chart's table: step, this run (scaled), the other run (unscaled)
  const chart = '.pg-compare .pg-loss';
  await page.click(`${chart} .hm-toggle`);
  const rows = await page.$$eval(`${chart} .chart-table tbody tr`, (trs) =>
    trs.map((tr) => [...tr.children].map((td) => td.textContent)),
  );
  const node = await nodeRuns();
  assert.equal(rows.length, NO_SCALE_STEPS / 10);
  for (const [x, s, u] of rows) {
    assert.equal(s, fmt(node.scaled.points.get(Number(x)), 3), `scaled at step ${x}`);
    assert.equal(u, fmt(node.unscaled.points.get(Number(x)), 3), `unscaled at step ${x}`);
  }

  // the verdict: the runs' numbers, as Node has them
  const verdict = await page.$eval('.pg-no-scale-verdict', (e) => e.textContent);
  const { scaled, unscaled } = node;
  for (const x of [
    fmt(scaled.acc, 3),
    fmt(unscaled.acc, 3),
    fmt(unscaled.points.get(NO_SCALE_FROM), 3),
    fmt(unscaled.points.get(NO_SCALE_STEPS), 3),
    `step ${scaled.learnedAt} `,
  ])
    assert.ok(verdict.includes(x), `${x} in ${verdict}`);
  // ... and the words: learning crawls without the scale. The runs show it: the scaled run learned
  // the task within a few dozen steps, the unscaled one is right on well under three quarters of
  // the held-out positions at the end and its loss is still far from 0
  const words = await page.$eval('section[data-step="compare"]', (e) => e.textContent);
  assert.match(words, /learning slows to a crawl/);
  const detail = JSON.stringify({
    scaled: { ...scaled, points: undefined },
    unscaled: { ...unscaled, points: undefined },
  });
  assert.ok(scaled.learnedAt !== null && scaled.learnedAt <= 50 && scaled.acc >= 0.99, detail);
  assert.ok(unscaled.learnedAt === null && unscaled.acc < 0.7, detail);
  assert.ok(unscaled.points.get(NO_SCALE_STEPS) > 1, detail);
  if (SHOTS) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/no-scale-en-${width}.png`, fullPage: true });
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a step that would leave float32 is refused, and the page says so with the step it reached', async () => {
  // learning rate 1 (only a link reaches it): the update at about step 100 would overflow
  const page = await lab.open(
    'lesson=playground&pgTask=reverse&pgLayers=2&pgHeads=1&pgD=128&pgLr=1&pgSeed=1&pgSpeed=fast',
  );
  await page.waitForFunction(() => /Step 0/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 60000,
  });
  await page.click('.pg-play');
  await page.waitForFunction(() => /could not do this/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 600000,
    polling: 250,
  });
  const shown = await page.$eval('.pg-status', (e) => e.textContent);
  // the engine's refusal in the same run in Node
  const engine = await loadTrainEngine();
  const t = engine.trainer({ task: 'reverse', layers: 2, heads: 1, dModel: 128, learningRate: 1, seed: 1 });
  let message = '';
  try {
    for (let i = 0; i < 100 && !message; i++) t.step(10);
  } catch (e) {
    message = e.message;
  } finally {
    t.delete();
  }
  assert.match(message, /^step: the update would leave float32 .* \(after \d+ of 10 steps, at step \d+\)$/);
  assert.equal(shown, `The engine could not do this: ${message}`);
  assert.equal(await page.$eval('.pg-play', (b) => b.getAttribute('aria-pressed')), 'false');
  assert.ok(!/NaN/.test(await page.$eval('.pg-compare, .pg-train', (e) => e.textContent)));
  await page.close();
});
