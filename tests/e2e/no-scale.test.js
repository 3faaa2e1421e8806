// "What happens without the scale" in Chromium: one click sets the playground's preset (meta.js
// NO_SCALE) and trains both runs, with and without 1/√d_k, from the same seed to NO_SCALE_STEPS,
// where they stop. The loss chart's table (the page's points) is read over steps NO_SCALE_FROM to
// NO_SCALE_STEPS: the unscaled run's loss keeps climbing back up and stays above the scaled run's;
// both runs' numbers equal the same runs in Node, and so does the verdict under the chart. Every
// wait is for a state of the page. NO_SCALE_SHOTS=dir saves screenshots there.

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

// The same two runs in Node: the page's points (the mean loss of every 10 steps), by step.
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
    for (let step = 10; step <= NO_SCALE_STEPS; step += 10) {
      const r = t.step(10);
      points.set(r.step, r.losses.reduce((a, b) => a + b, 0) / r.losses.length);
    }
    t.delete();
    return points;
  };
  return { scaled: run(true), unscaled: run(false) };
}

// mean and the sum of every rise between two points of the window, and the rises above 0.02
function window(ys) {
  let rise = 0,
    ups = 0;
  for (let i = 1; i < ys.length; i++) {
    rise += Math.max(0, ys[i] - ys[i - 1]);
    if (ys[i] - ys[i - 1] > 0.02) ups++;
  }
  return { mean: ys.reduce((a, b) => a + b, 0) / ys.length, rise, ups, min: Math.min(...ys), max: Math.max(...ys) };
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: one click trains both runs; without the scale the loss climbs back and stays higher`, async () => {
    // another configuration first: the button sets every field of the preset
    const page = await lab.open(`lesson=playground&stage=compare&lang=${lang}&pgD=32&pgSeed=7`);
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
    const chart = '.pg-compare .pg-chart:first-child';
    await page.click(`${chart} .hm-toggle`);
    const rows = await page.$$eval(`${chart} .chart-table tbody tr`, (trs) =>
      trs.map((tr) => [...tr.children].map((td) => td.textContent)),
    );
    const node = await nodeRuns();
    assert.equal(rows.length, NO_SCALE_STEPS / 10);
    for (const [x, s, u] of rows) {
      assert.equal(s, fmt(node.scaled.get(Number(x)), 3), `scaled at step ${x}`);
      assert.equal(u, fmt(node.unscaled.get(Number(x)), 3), `unscaled at step ${x}`);
    }
    const inWindow = rows.filter(([x]) => Number(x) > NO_SCALE_FROM);
    const s = window(inWindow.map((r) => Number(r[1])));
    const u = window(inWindow.map((r) => Number(r[2])));
    const detail = `scaled ${JSON.stringify(s)}, unscaled ${JSON.stringify(u)}`;
    assert.ok(u.ups >= 2 && u.rise > 0.2 && u.rise > 4 * s.rise, detail); // it oscillates
    assert.ok(u.min > s.max && u.mean > s.mean + 0.2, detail); // ... above the scaled run

    // the verdict: the same window of the Node runs
    const ys = (m) => [...m].filter(([x]) => x > NO_SCALE_FROM).map(([, y]) => y);
    const ns = window(ys(node.scaled));
    const nu = window(ys(node.unscaled));
    const verdict = await page.$eval('.pg-no-scale-verdict', (e) => e.textContent);
    for (const x of [nu.mean, nu.rise, ns.mean, ns.rise])
      assert.ok(verdict.includes(fmt(x, 3)), `${fmt(x, 3)} in ${verdict}`);
    assert.ok(verdict.includes(`${NO_SCALE_FROM}`) && verdict.includes(`${NO_SCALE_STEPS}`), verdict);
    if (SHOTS) {
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${SHOTS}/no-scale-${lang}-${width}.png`, fullPage: true });
      }
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('a step that would leave float32 is refused, and the page says so with the step it reached', async () => {
  // learning rate 1 (only a link reaches it): the update at about step 100 would overflow
  const page = await lab.open('lesson=playground&pgTask=reverse&pgLayers=2&pgHeads=1&pgD=128&pgLr=1&pgSeed=1');
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
