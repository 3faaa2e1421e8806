// Lesson 5 (why divide by √d_k) in headless Chromium, against the built page (dist/).
// The numbers on screen are compared with the engine on the page's own thread and with the
// engine loaded separately in Node; long runs must leave the page responsive.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready } from './harness.js';
import { loadEngine } from '../../web/src/engine.js';
import { VARIANCE_BINS } from '../../web/src/workers/variance-jobs.js';

let lab;
let engine;
before(async () => {
  lab = await start();
  engine = await loadEngine({ simd: false });
});
after(async () => {
  await lab?.close();
});

const VISIBLE = '.lab-step:not([hidden])';

async function waitDone(page, timeout = 60000) {
  await page.waitForSelector(`${VISIBLE} .lab-progress[data-state="done"]`, { timeout });
}

// The moments table: { 'raw-mean': x, 'raw-variance': x, ... } at full precision.
function readMoments(page) {
  return page.$$eval('.lab-moments tr[data-row]', (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.row, Number(r.querySelector('td[data-value]').dataset.value)])),
  );
}

// The histogram's accessible table: the counts of the bins on screen.
async function readHistogram(page) {
  const toggle = page.locator(`${VISIBLE} .histogram .hm-toggle`);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const counts = await page.$$eval(`${VISIBLE} .histogram table tbody tr`, (rows) =>
    rows.map((r) => Number(r.cells[1].textContent)),
  );
  await toggle.click();
  return counts;
}

// The same run on the page's main thread (one engine call, merged once for its std).
function mainThread(page, args) {
  return page.evaluate((a) => {
    const e = window.attentionLab.engine;
    const r = e.mergeVariance({ b: e.varianceExperiment(a), bSamples: a.samples });
    return {
      raw: r.raw,
      scaled: r.scaled,
      rawCounts: Array.from(r.histogram.rawCounts),
      edges: Array.from(r.histogram.edges),
    };
  }, args);
}

const rel = (a, b) => Math.abs(a - b) / Math.max(1e-12, Math.abs(b));

// Bins overlapping [lo, hi] (what the histogram shows).
function visibleCounts(edges, counts, lo, hi) {
  return counts.filter((_, i) => !(edges[i + 1] <= lo || edges[i] >= hi));
}

async function checkVarianceShown(page, dk, samples, seed = 1) {
  const args = { dk, samples, seed, bins: VARIANCE_BINS };
  const m = await readMoments(page);
  const here = await mainThread(page, args);
  for (const side of ['raw', 'scaled']) {
    for (const q of ['mean', 'variance', 'std']) {
      const tol = q === 'mean' ? 1e-9 : 1e-9 * Math.abs(here[side][q]);
      assert.ok(
        Math.abs(m[`${side}-${q}`] - here[side][q]) <= tol,
        `d_k ${dk} ${side} ${q}: screen ${m[`${side}-${q}`]}, page engine ${here[side][q]}`,
      );
    }
  }
  // and the engine loaded in Node (scalar build): same RNG, same numbers
  const node = engine.varianceExperiment(args);
  assert.ok(rel(m['raw-variance'], node.raw.variance) < 1e-6, `d_k ${dk}: Node engine variance ${node.raw.variance}`);
  const shown = await readHistogram(page);
  const root = Math.sqrt(dk);
  assert.deepEqual(
    shown,
    visibleCounts(here.edges, here.rawCounts, -4 * root, 4 * root),
    `d_k ${dk}: histogram counts`,
  );
  assert.deepEqual(
    visibleCounts(Array.from(node.histogram.edges), Array.from(node.histogram.rawCounts), -4 * root, 4 * root),
    shown,
  );
}

test("the variance step shows the engine's histogram and moments; d_k = 64 gives std 8", async () => {
  const page = await lab.open('lesson=scaling');
  await waitDone(page);
  await checkVarianceShown(page, 64, 100000);
  const callout = await page.textContent('[data-out="callout-64"]');
  assert.match(callout, /√64 = 8/);
  const m = await readMoments(page);
  assert.ok(Math.abs(m['raw-std'] - 8) < 0.1, `measured std ${m['raw-std']}`);
  assert.ok(Math.abs(m['scaled-std'] - 1) < 0.02);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("moving d_k with the keyboard changes the histogram and the table to the engine's values", async () => {
  const page = await lab.open('lesson=scaling&labSamples=20000');
  await waitDone(page);
  const slider = page.locator('input[data-field="dk"]');
  await slider.focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => location.hash.includes('labDk=1024'));
  await waitDone(page);
  assert.equal(await page.getAttribute(`${VISIBLE} .histogram`, 'data-dk'), '1024');
  await checkVarianceShown(page, 1024, 20000);
  await slider.focus(); // reading the histogram's table moved the focus
  for (let k = 0; k < 12; k++) await page.keyboard.press('ArrowLeft'); // 1024 -> 512 (12 stops per octave)
  await page.waitForFunction(() => location.hash.includes('labDk=512'));
  await waitDone(page);
  await checkVarianceShown(page, 512, 20000);
  assert.equal(await slider.getAttribute('aria-valuetext'), 'd_k = 512');
  // the scaled view: the N(0, 1) histogram of the same pairs on its own edges (±4), at once
  // (no new run)
  await page.check('input[data-field="scaled"]');
  assert.match(await page.textContent(`${VISIBLE} .histogram figcaption`), /q·k \/ √d_k at d_k = 512/);
  assert.equal(await page.getAttribute(`${VISIBLE} .lab-progress`, 'data-state'), 'done');
  const scaledShown = await readHistogram(page);
  const here = await page.evaluate((bins) => {
    const r = window.attentionLab.engine.varianceExperiment({ dk: 512, samples: 20000, seed: 1, bins });
    return { edges: Array.from(r.histogram.scaledEdges), counts: Array.from(r.histogram.scaledCounts) };
  }, VARIANCE_BINS);
  assert.deepEqual(scaledShown, visibleCounts(here.edges, here.counts, -4, 4), 'scaled histogram counts');
  assert.equal(scaledShown.length, VARIANCE_BINS, 'the scaled histogram has as many bars as the raw one');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('bad input is refused with a clear message and changes nothing', async () => {
  const page = await lab.open('lesson=scaling&labSamples=5000');
  await waitDone(page);
  const hash = await page.evaluate(() => location.hash);
  await page.fill('input[data-field="dk-box"]', '5000');
  await page.press('input[data-field="dk-box"]', 'Enter');
  await page.waitForSelector('.field-error:has-text("d_k must be a whole number from 1 to 1024")');
  assert.equal(await page.getAttribute('input[data-field="dk-box"]', 'aria-invalid'), 'true');
  await page.fill('input[data-field="samples-box"]', '2000000');
  await page.press('input[data-field="samples-box"]', 'Enter');
  await page.waitForSelector('.field-error:has-text("at most a million pairs")');
  assert.equal(await page.evaluate(() => location.hash), hash, 'state unchanged');
  // a good value clears the message
  await page.fill('input[data-field="dk-box"]', '100');
  await page.press('input[data-field="dk-box"]', 'Enter');
  await page.waitForFunction(() => location.hash.includes('labDk=100'));
  assert.equal(await page.getAttribute('input[data-field="dk-box"]', 'aria-invalid'), 'false');
  await waitDone(page);
  await page.close();
  // out of range in the link: the default is used and the notice says why
  const linked = await lab.open('lesson=scaling&labDk=5000&labSamples=1000');
  await linked.waitForSelector('#notice:not([hidden]) li:has-text("labDk=5000")');
  await waitDone(linked);
  assert.equal(await linked.getAttribute(`${VISIBLE} .histogram`, 'data-dk'), '64');
  await linked.close();
});

test('a million samples at d_k = 1024 run in the worker: progress, partial histograms, a responsive page, cancel', async () => {
  // Every message the page's workers send is recorded (window.__fromWorkers: their types), so
  // the test can wait on the worker's own answers instead of on time.
  const page = await lab.open('', { wait: false });
  await page.addInitScript(() => {
    window.__fromWorkers = [];
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          window.__fromWorkers.push(e.data && e.data.type);
          window.dispatchEvent(new CustomEvent('from-worker', { detail: e.data && e.data.type }));
        });
      }
    };
  });
  await page.goto(lab.url + 'index.html#lesson=scaling&labDk=1024&labSamples=1000000');
  await ready(page);
  await page.waitForFunction(
    () => Number(document.querySelector('.lab-step:not([hidden]) .histogram')?.dataset.samples) > 0,
  );
  // While it runs the page's thread is free: a timer of this thread fires, and after it the worker
  // still sends progress of the same run (one whole run on this thread would hold the timer until
  // it was over). Signals only: the timer's callback, then the worker's next message. The lag of
  // such timers is printed by bench/scaling_lab_bench.mjs.
  const during = await page.evaluate(
    () =>
      new Promise((resolve) => {
        setTimeout(() => {
          const next = (e) => {
            if (e.detail !== 'progress') return;
            window.removeEventListener('from-worker', next);
            resolve(document.querySelector('.lab-step:not([hidden]) .lab-progress').dataset.state);
          };
          window.addEventListener('from-worker', next);
        });
      }),
  );
  assert.equal(during, 'running', 'a timer fired while the run went on');
  assert.ok(
    await page.evaluate(() => window.__fromWorkers.includes('progress')),
    'the progress comes from the lab worker',
  );
  const workerLoaded = await page.evaluate(() =>
    performance.getEntriesByType('resource').some((r) => /variance-worker/.test(r.name)),
  );
  assert.ok(workerLoaded, 'the run happens in the lab worker');
  const first = Number(await page.getAttribute(`${VISIBLE} .histogram`, 'data-samples'));
  await page.waitForFunction(
    (n) => Number(document.querySelector('.lab-step:not([hidden]) .histogram').dataset.samples) > n,
    first,
  );
  assert.equal(await page.getAttribute(`${VISIBLE} .lab-progress`, 'data-state'), 'running');
  await page.click(`${VISIBLE} .lab-stop`);
  await page.waitForSelector(`${VISIBLE} .lab-progress[data-state="stopped"]`);
  const stoppedAt = await page.getAttribute(`${VISIBLE} .histogram`, 'data-samples');
  // The worker's answer to the cancel comes after every progress message it sent before it: once
  // it is here, nothing of the stopped run is still on its way.
  await page.waitForFunction(() => window.__fromWorkers.includes('cancelled'));
  assert.equal(await page.getAttribute(`${VISIBLE} .histogram`, 'data-samples'), stoppedAt, 'no progress after stop');
  assert.ok(Number(stoppedAt) < 1000000);
  // moving a control starts fresh work, which completes
  await page.fill('input[data-field="samples-box"]', '3000');
  await page.press('input[data-field="samples-box"]', 'Enter');
  await waitDone(page);
  await checkVarianceShown(page, 1024, 3000);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('moving the slider quickly cancels stale work: only the last d_k is drawn', async () => {
  const page = await lab.open('lesson=scaling&labDk=1024&labSamples=100000');
  const slider = page.locator('input[data-field="dk"]');
  await slider.focus();
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowLeft'); // 1024 967 912 861 813 767
  await page.waitForFunction(() => location.hash.includes('labDk=767'));
  const dk = 767;
  await waitDone(page, 120000);
  assert.equal(Number(await page.getAttribute(`${VISIBLE} .histogram`, 'data-dk')), dk);
  assert.equal(await page.getAttribute(`${VISIBLE} .histogram`, 'data-samples'), '100000');
  await page.close();
});

test("the sweeps: variance, max weight and Jacobian against d_k are the engine's numbers", async () => {
  const page = await lab.open('lesson=scaling&stage=softmax');
  await waitDone(page, 120000);
  const sweep = engine.saturationSweep({
    dks: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    nKeys: 16,
    trials: 400,
    seed: 1,
  });
  // the max-weight chart's table: d_k, raw, scaled (3 decimals)
  const chart = page.locator(`${VISIBLE} .line-chart`).first();
  await chart.locator('.hm-toggle').click();
  const rows = await chart
    .locator('table tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 11);
  rows.forEach((r, i) => {
    assert.equal(Number(r[0]), sweep.points[i].dk);
    assert.ok(Math.abs(Number(r[1]) - sweep.points[i].raw.maxWeight) <= 0.0006, `raw max at d_k ${r[0]}: ${r[1]}`);
    assert.ok(
      Math.abs(Number(r[2]) - sweep.points[i].scaled.maxWeight) <= 0.0006,
      `scaled max at d_k ${r[0]}: ${r[2]}`,
    );
  });
  // one query: raw saturates at d_k = 64, scaled does not
  const rawMax = Number(await page.getAttribute('[data-out="raw-stats"]', 'data-max'));
  const probe = engine.queryProbe({ dk: 64, nKeys: 16, seed: 1, trial: 0 });
  assert.ok(Math.abs(rawMax - probe.rawMax) < 1e-6);
  // the gradient step reuses the finished sweep
  await page.click('button.step[data-stage="gradient"]');
  await page.waitForSelector(`${VISIBLE} .line-chart svg circle`);
  assert.equal(await page.getAttribute(`${VISIBLE} .lab-progress`, 'data-state'), 'done');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('temperature: raw scores at τ = √d_k give the scaled weights', async () => {
  const page = await lab.open('lesson=scaling&stage=temperature&labDk=256');
  await page.click('button[data-field="tau-sqrt"]');
  await page.waitForFunction(() => location.hash.includes('labTau=16'));
  const text = await page.textContent('[data-out="tau-compare"]');
  const nums = text.match(/\d+\.\d+/g);
  assert.equal(nums[0], nums[2], `largest weights: ${text}`);
  assert.equal(nums[1], nums[3], `entropies: ${text}`);
  // τ → 0: every Gumbel-softmax row is one-hot (read from its table)
  await page.fill('input[data-field="tau-box"]', '0.01');
  await page.press('input[data-field="tau-box"]', 'Enter');
  await page.waitForFunction(() => location.hash.includes('labTau=0.01'));
  await page.click(`${VISIBLE} .map .hm-toggle`);
  const rows = await page.$$eval(`${VISIBLE} .map table tbody tr`, (trs) =>
    trs.map((tr) => [...tr.cells].slice(1).map((c) => Number(c.textContent.replace('\u2212', '-')))),
  );
  assert.equal(rows.length, 8);
  // nearly one-hot, unless two noisy scores happen to land within ~0.03 of each other
  assert.ok(rows.filter((r) => Math.max(...r) > 0.95).length >= 6, `Gumbel rows at τ = 0.01: ${rows.join(' | ')}`);
  const hard = await page.getAttribute(`${VISIBLE} .lab-bars:nth-child(2) svg`, 'aria-label');
  assert.equal((hard.match(/ 1(,|$)/g) || []).length, 1, `hard attention is one-hot: ${hard}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Chinese and a 360 px screen', async () => {
  const page = await lab.open('lesson=scaling&lang=zh&labSamples=2000', { width: 360, locale: 'zh-CN' });
  await waitDone(page);
  assert.match(await page.textContent('main h2'), /为什么要除以 √d_k/);
  assert.match(await page.textContent(`${VISIBLE} .lab-progress-text`), /完成/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow} px wider than the screen`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('one drawn pair: the q, k and q·k the engine draws for the run; another pair moves the link; raw and scaled on one axis', async () => {
  const page = await lab.open('lesson=scaling&labDk=16&labSamples=2000&labSeed=3');
  await waitDone(page);
  const shownPair = () =>
    page.evaluate(() => {
      const box = document.querySelector('[data-out="drawn-pair"]');
      const rows = [...box.querySelectorAll('tbody tr')].filter((r) => r.querySelector('td[data-value]'));
      return {
        q: rows.map((r) => Number(r.querySelectorAll('td')[0].dataset.value)),
        k: rows.map((r) => Number(r.querySelectorAll('td')[1].dataset.value)),
        dot: Number(box.querySelector('[data-out="pair-dot"]').dataset.value),
        more: box.querySelector('tbody').textContent,
      };
    });
  for (const sample of [0, 1]) {
    const shown = await shownPair();
    const want = engine.varianceSample({ dk: 16, seed: 3, sample }); // the Node engine: same RNG, same numbers
    assert.deepEqual(shown.q, Array.from(want.q.slice(0, 8)), `pair ${sample}: q`);
    assert.deepEqual(shown.k, Array.from(want.k.slice(0, 8)), `pair ${sample}: k`);
    assert.equal(shown.dot, want.dot, `pair ${sample}: q·k`);
    assert.match(shown.more, /8 more entries/);
    if (sample === 0) {
      // the experiment's first two pairs are these pairs: their mean is the run's mean at 2 samples
      const two = engine.varianceExperiment({ dk: 16, samples: 2, seed: 3 });
      assert.ok(
        Math.abs(two.raw.mean - (want.dot + engine.varianceSample({ dk: 16, seed: 3, sample: 1 }).dot) / 2) < 1e-6,
      );
      await page.click('[data-field="another-pair"]');
      await page.waitForFunction(() => location.hash.includes('labPair=1'));
    }
  }
  // one axis: the scaled histogram keeps the raw range ±4√d_k = ±16, and has as many bars
  const domain = () => page.getAttribute(`${VISIBLE} .histogram`, 'data-domain');
  await page.check('input[data-field="scaled"]');
  assert.equal(await domain(), '-4,4');
  await page.check('input[data-field="shared"]');
  await page.waitForFunction(() => /labShared=/.test(location.hash));
  assert.equal(await domain(), '-16,16');
  assert.equal((await readHistogram(page)).length, VARIANCE_BINS);
  await page.check('input[data-field="raw"]');
  assert.equal(await domain(), '-16,16');
  await page.screenshot({ path: '/tmp/rngx/shot-scaling-en.png', fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The growth step opens on its chart with the question still open: the engine's variance at
// d_k = 64 (Node's engine, same seed and samples; near 64 by theory) and, at d_k = 128, the three
// answers (that variance ×1, ×2, ×4); the measured d_k = 128 and the sweep only after the guess.
test('the growth step opens on its chart: the variance at d_k, the three answers at 2·d_k, the rest after the guess', async () => {
  for (const [lang, width] of [
    ['en', 1280],
    ['zh', 360],
  ]) {
    const page = await lab.open(`lesson=scaling&stage=growth&lang=${lang}`, { width, height: 800 });
    const fig = `${VISIBLE} [data-figure="main"]`;
    await page.waitForSelector(`${fig}[data-shows="question"] svg circle`);
    assert.equal(await page.$eval(fig, (el) => !!el.closest('[data-reveal-of]')), false, 'not in the reveal');
    assert.equal(await page.$eval(`${VISIBLE} [data-reveal-of]`, (el) => el.hidden), true, 'the answer kept back');
    const top = await page.$eval(fig, (el) => el.getBoundingClientRect().top + scrollY);
    assert.ok(top < (width >= 1000 ? 800 : 1110), `the chart starts at ${top} px`);
    await page.click(`${fig} .hm-toggle`);
    const table = () =>
      page.$$eval(`${fig} table tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    const rows = await table();
    const want = engine.varianceExperiment({ dk: 64, samples: 20000, seed: 1, bins: 1 }).raw.variance;
    assert.ok(Math.abs(want - 64) < 4, `the engine's variance at d_k = 64: ${want}`);
    // rows: d_k 64 (measured) and 128 (the answers ×1, ×2, ×4), two decimals
    const near = (text, x) => Math.abs(Number(text) - x) <= 0.006;
    assert.equal(rows.length, 2, JSON.stringify(rows));
    const [lo, hi] = rows;
    assert.deepEqual([lo[0], hi[0]], ['64', '128']);
    assert.ok(near(lo[1], want) && lo.slice(2).every((x) => x === ''), `d_k = 64: ${lo}`);
    assert.equal(hi[1], '');
    [1, 2, 4].forEach((k, j) => assert.ok(near(hi[2 + j], k * want), `×${k} at d_k = 128: ${hi[2 + j]}`));
    await page.click(`${VISIBLE} .predict-show`);
    await page.waitForSelector(`${fig}[data-shows="sweep"]`, { timeout: 120000 });
    assert.equal(await page.$eval(`${VISIBLE} [data-reveal-of]`, (el) => el.hidden), false);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
