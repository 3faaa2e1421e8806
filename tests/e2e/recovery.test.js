// Recovery in headless Chromium, against the built page (dist/): a √d_k lab worker that stops
// answering is replaced by the page's watchdog (variance-client.js), so is the playground's
// training worker when it hangs or crashes mid-run (train-client.js, workers/port.js), and an engine module that
// traps on the page's own thread is loaded again (engine.js, hosts/page.js). Each time the page says
// what happened in plain words, keeps the state and runs the next computation correctly.
// Nothing here waits on a clock: every step waits for what the page shows.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready } from './harness.js';
import { installWasmTraps } from '../js/wasm-traps.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { fmt } from '../../web/src/text/format.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const VISIBLE = '.lab-step:not([hidden])';
const WAIT = { timeout: 180000 };

// The variance run on screen has finished, and its moments are the page engine's for these args.
async function expectVarianceDone(page, seed) {
  await page.waitForSelector(`${VISIBLE} .lab-progress[data-state="done"]`, WAIT);
  const shown = await page.$$eval('.lab-moments tr[data-row]', (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.row, Number(r.querySelector('td[data-value]').dataset.value)])),
  );
  const here = await page.evaluate((s) => {
    const e = window.attentionLab.engine;
    const st = window.attentionLab.state;
    const a = { dk: st.labDk, samples: st.labSamples, seed: s, bins: 60 };
    return e.mergeVariance({ b: e.varianceExperiment(a), bSamples: a.samples }).raw;
  }, seed);
  assert.ok(
    Math.abs(shown['raw-variance'] - here.variance) <= 1e-9 * here.variance,
    `seed ${seed}: variance on screen ${shown['raw-variance']}, engine ${here.variance}`,
  );
}

test('a lab worker that stops answering is replaced; the page says so, keeps the state, and runs again', async () => {
  const page = await lab.open('lesson=scaling&labSamples=20000&labSeed=3');
  await expectVarianceDone(page, 3);

  // Stop the worker from answering: it spins forever from its next turn on.
  const worker = page.workers().find((w) => w.url().includes('variance-worker'));
  assert.ok(
    worker,
    `a lab worker runs (${page
      .workers()
      .map((w) => w.url())
      .join(', ')})`,
  );
  await worker.evaluate(() => {
    setTimeout(() => {
      for (;;) {
        /* never answers again */
      }
    }, 0);
  });
  const closed = new Promise((resolve) => worker.once('close', resolve));

  // A new run goes to the dead worker; the watchdog replaces it and sends the run again.
  await page.evaluate(() => window.attentionLab.set({ labSeed: 4 }));
  await page.waitForFunction(
    () =>
      !document.querySelector('#notice').hidden &&
      document.querySelector('#notice').textContent.includes('stopped answering'),
    null,
    WAIT,
  );
  const notice = await page.textContent('#notice .notice-body');
  assert.match(
    notice,
    /^The background computation stopped answering, so it was restarted and the run was started again in it\. Your settings are kept\.$/,
  );
  await expectVarianceDone(page, 4);
  await closed; // the stuck worker was terminated, and another one ran the lab
  assert.ok(
    page.workers().some((w) => w !== worker && w.url().includes('variance-worker')),
    'a new worker runs the lab',
  );

  // The state is kept (page, link) and the next run works in the new worker.
  const state = await page.evaluate(() => ({ ...window.attentionLab.state, hash: location.hash }));
  assert.equal(state.lesson, 'scaling');
  assert.equal(state.labSeed, 4);
  assert.equal(state.labSamples, 20000);
  assert.match(state.hash, /labSeed=4/);
  await page.evaluate(() => window.attentionLab.set({ labSeed: 5 }));
  await expectVarianceDone(page, 5);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The playground's status line without the speed (which depends on the machine).
const trainStatus = (page) => page.$eval('.pg-status', (e) => e.textContent.replace(/ · [\d.]+ steps\/s$/, ''));
const stepShown = (page) => page.$eval('.pg-status', (e) => Number((/^Step (\d+)/.exec(e.textContent) || [])[1] ?? -1));
const trainWorker = (page, not = []) =>
  page.workers().find((w) => w.url().includes('train-worker') && !not.includes(w));

test('a training worker that hangs, then one that crashes, mid-run, are replaced; the run goes on with the same numbers', async () => {
  // random-induction, which one layer cannot learn: the run goes on (it would pause once learned)
  const page = await lab.open('lesson=playground&pgTask=random-induction&pgLayers=1&pgD=32&pgSeed=3&pgSpeed=fast');
  await page.waitForFunction(() => /Step 0/.test(document.querySelector('.pg-status').textContent), null, WAIT);
  await page.click('.pg-play');
  await page.waitForFunction(() => /Step [1-9]/.test(document.querySelector('.pg-status').textContent), null, WAIT);
  const noticeSays = (text) =>
    page.waitForFunction(
      (t) => !document.querySelector('#notice').hidden && document.querySelector('#notice').textContent.includes(t),
      text,
      WAIT,
    );
  const goesOnPast = async (step) =>
    page.waitForFunction(
      (n) => Number((/^Step (\d+)/.exec(document.querySelector('.pg-status').textContent) || [])[1]) > n,
      step,
      WAIT,
    );

  // 1. It stops answering: spins forever from its next turn on.
  const first = trainWorker(page);
  assert.ok(first, 'a training worker runs');
  const firstClosed = new Promise((resolve) => first.once('close', resolve));
  await first.evaluate(() => {
    setTimeout(() => {
      for (;;) {
        /* never answers again */
      }
    }, 0);
  });
  await noticeSays('The training in the background stopped answering, so it was restarted');
  await firstClosed;
  await goesOnPast(await stepShown(page));
  const second = trainWorker(page, [first]);
  assert.ok(second, 'a new worker trains');

  // 2. It crashes: an uncaught error inside the worker.
  const secondClosed = new Promise((resolve) => second.once('close', resolve));
  await second.evaluate(() => {
    setTimeout(() => {
      throw new Error('the training worker failed');
    }, 0);
  });
  await noticeSays('The training in the background failed, so it was restarted');
  await secondClosed;
  await goesOnPast(await stepShown(page));
  assert.ok(trainWorker(page, [first, second]), 'a third worker trains');

  // Paused, the numbers on screen are those of one trainer that ran the same steps uninterrupted.
  await page.click('.pg-play');
  await page.waitForFunction(
    () =>
      /pgStep=\d+/.test(location.hash) && document.querySelector('.pg-play').getAttribute('aria-pressed') === 'false',
    null,
    WAIT,
  );
  const step = Number(/pgStep=(\d+)/.exec(await page.evaluate(() => location.hash))[1]);
  await page.waitForFunction(
    (n) => document.querySelector('.pg-status').textContent.includes(`Step ${n} `),
    step,
    WAIT,
  );
  const engine = await loadTrainEngine(); // the SIMD build, as Chromium loads
  const t = engine.trainer({ task: 'random-induction', layers: 1, heads: 2, dModel: 32, learningRate: 0.003, seed: 3 });
  for (let k = 0; k < step; k += 1000) t.step(Math.min(1000, step - k)); // at most 1,000 steps a call
  const e = t.evaluate();
  t.delete();
  assert.equal(
    await trainStatus(page),
    `Step ${step} · held-out accuracy ${fmt(e.accuracy, 3)} · loss ${fmt(e.loss, 3)}`,
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

for (const lang of ['en', 'zh']) {
  test(`an engine that dies on the page's thread is loaded again; the page says so and keeps the state (${lang})`, async () => {
    const context = await lab.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    await context.addInitScript(installWasmTraps); // window.__attnTraps = n: the next n wasm calls trap
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${lab.url}#lesson=pipeline&stage=weights&lang=${lang}&temperature=2`);
    await ready(page);
    const weights = () =>
      page.evaluate(() => {
        const st = window.attentionLab.state;
        return { causal: st.causal, shown: document.querySelector('#main').textContent.length };
      });
    assert.equal((await weights()).causal, false);

    // The next call into the module traps, inside the redraw that the causal switch starts.
    await page.evaluate(() => {
      window.oldEngine = window.attentionLab.engine;
      window.__attnTraps = 1;
      window.attentionLab.set({ causal: true });
    });
    await page.waitForFunction(
      () => window.attentionLab.engine !== window.oldEngine && !document.querySelector('#notice').hidden,
      null,
      WAIT,
    );
    const said = await page.textContent('#notice .notice-body');
    assert.equal(
      said,
      lang === 'en'
        ? 'The attention engine stopped after an internal error, so it was loaded again and this chapter was redrawn. Your settings are kept.'
        : '注意力计算引擎因内部错误停止了，已经重新加载，本章也重新画好了。你的设置都还在。',
    );
    const after = await page.evaluate(() => ({
      oldStopped: window.oldEngine.stopped,
      newStopped: window.attentionLab.engine.stopped,
      state: window.attentionLab.state,
      hash: location.hash,
      banner: [...document.querySelectorAll('.engine-error')].map((b) => (b.hidden ? '' : b.textContent)).join(''),
    }));
    assert.equal(after.oldStopped, true, 'the trapped instance is marked stopped');
    assert.equal(after.newStopped, false);
    assert.equal(after.banner, '', 'no error left on the chapter');
    assert.equal(after.state.lesson, 'pipeline');
    assert.equal(after.state.stage, 'weights');
    assert.equal(after.state.causal, true, 'the change that met the dead engine is kept');
    assert.equal(after.state.temperature, 2);
    assert.match(after.hash, /causal=1/);

    // The new engine computes, and the chapter shows its numbers: the causal weights of the
    // first query put everything on the first key.
    const r = await page.evaluate(() => {
      window.attentionLab.set({ stage: 'weights' });
      const e = window.attentionLab.engine;
      const w = e.attend({
        query: [
          [1, 0],
          [0, 1],
        ],
        key: [
          [1, 0],
          [0, 1],
        ],
        value: [
          [1, 2],
          [3, 4],
        ],
        causal: true,
      }).weights;
      return Array.from(w.data);
    });
    assert.deepEqual(r.slice(0, 2), [1, 0]);
    assert.ok(Math.abs(r[2] + r[3] - 1) < 1e-6);
    assert.ok((await weights()).shown > 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('an <attention-lab> element whose engine dies loads a fresh one, says so and keeps its state', async () => {
  const context = await lab.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  await context.addInitScript(installWasmTraps); // the course page's own window only is trapped below
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${lab.url}examples/course.html`);
  await page.waitForFunction(
    () => {
      const el = document.querySelector('attention-lab');
      return el && el.state && el.engine && el.shadowRoot.querySelector('.hm-plot, .stepper');
    },
    null,
    WAIT,
  );
  await page.evaluate(() => {
    const el = document.querySelector('attention-lab');
    window.oldEngine = el.engine;
    window.__attnTraps = 1;
    el.set({ causal: true });
  });
  await page.waitForFunction(
    () => {
      const el = document.querySelector('attention-lab');
      return el.engine !== window.oldEngine && !el.shadowRoot.querySelector('.notice').hidden;
    },
    null,
    WAIT,
  );
  const r = await page.evaluate(() => {
    const el = document.querySelector('attention-lab');
    return {
      said: el.shadowRoot.querySelector('.notice-body').textContent,
      state: el.state,
      oldStopped: window.oldEngine.stopped,
      weights: Array.from(
        el.engine.attend({
          query: [[1, 0]],
          key: [
            [1, 0],
            [0, 1],
          ],
          value: [[1], [2]],
          causal: true,
        }).weights.data,
      ),
    };
  });
  assert.equal(
    r.said,
    'The attention engine stopped after an internal error, so it was loaded again and this chapter was redrawn. Your settings are kept.',
  );
  assert.equal(r.oldStopped, true);
  assert.deepEqual([r.state.lesson, r.state.stage, r.state.causal], ['pipeline', 'weights', true]);
  assert.deepEqual(r.weights, [1, 0]);
  assert.deepEqual(errors, []);
  await context.close();
});
