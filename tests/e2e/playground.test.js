// The attention playground in Chromium: training runs in the worker and the page stays
// responsive; the numbers on screen are the engine's (the same run in Node gives them); the
// previous-token task is learned and training pauses itself there; the link replays the run to the
// same step and numbers. The tests train at 'fast' (pgSpeed) or 'medium', except where they watch
// the pace itself. No wall-clock assertion: every wait is for a state of the page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import { fmt } from '../../web/src/text/format.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const CONFIG = 'pgLayers=1&pgD=32&pgSeed=3&pgSpeed=fast';
const status = (page) => page.$eval('.pg-status', (e) => e.textContent);
// the status without the speed (which depends on the machine)
const numbers = (text) => text.replace(/ · [\d.]+ steps\/s$/, '');

// random-induction, which a one-layer model cannot learn (an induction head reads what a head of
// the layer before wrote): the run is still going when the step changes (it would pause itself
// once learned)
test("training runs in the worker, the page stays responsive, and the numbers are the engine's", async () => {
  const page = await lab.open(`lesson=playground&pgTask=random-induction&${CONFIG}`);
  await page.waitForFunction(() => /Step 0/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 60000,
  });
  await page.click('.pg-play');
  await page.waitForFunction(() => /Step [1-9]/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 120000,
  });
  // while it trains the page answers: a click on a step of the step bar is handled at once
  await page.click('.stepper button.step[data-stage="compare"]');
  await page.waitForFunction(() => location.hash.includes('stage=compare'), null, { timeout: 10000 });
  assert.equal(await page.$eval('.pg-play', (b) => b.getAttribute('aria-pressed')), 'true', 'still training');
  await page.click('.stepper button.step[data-stage="train"]');
  await page.click('.pg-play'); // pause
  await page.waitForFunction(() => /pgStep=\d+/.test(location.hash), null, { timeout: 60000 });
  const hash = await page.evaluate(() => location.hash);
  const step = Number(/pgStep=(\d+)/.exec(hash)[1]);
  await page.waitForFunction((n) => document.querySelector('.pg-status').textContent.includes(`Step ${n} `), step, {
    timeout: 30000,
  });
  const shown = await status(page);
  assert.ok(step > 0 && step % 10 === 0, hash);

  // the same run in Node, with the build the page loaded
  const engine = await loadTrainEngine(); // the SIMD build, as Chromium loads
  const config = { task: 'random-induction', layers: 1, heads: 2, dModel: 32, learningRate: 0.003, seed: 3 };
  const t = engine.trainer(config);
  for (let k = 0; k < step; k += 1000) t.step(Math.min(1000, step - k)); // at most 1,000 steps a call
  const e = t.evaluate();
  t.delete();
  assert.equal(numbers(shown), `Step ${step} · held-out accuracy ${fmt(e.accuracy, 3)} · loss ${fmt(e.loss, 3)}`);
  assert.ok(e.accuracy < 0.9, `not learned at step ${step}`);
  // every head's pattern has its table: one heatmap per head of the 1-layer, 2-head model
  assert.equal(await page.$$eval('.pg-train .pg-head', (hs) => hs.length), 2);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the previous-token task is learned, training pauses itself there, and the link replays the run', async () => {
  const page = await lab.open(`lesson=playground&${CONFIG}`);
  await page.waitForFunction(() => /Step 0/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 60000,
  });
  await page.click('.pg-play');
  // learned: the training pauses by itself (at 'fast' the worker may have trained a chunk or two
  // past the step before the pause reached it), and the step goes into the link
  await page.waitForFunction(
    () =>
      document.querySelector('.pg-learned').textContent !== '' &&
      /pgStep=\d+/.test(location.hash) &&
      document.querySelector('.pg-play').getAttribute('aria-pressed') === 'false',
    null,
    { timeout: 240000, polling: 250 },
  );
  assert.match(
    await page.$eval('.pg-learned', (e) => e.textContent),
    /^Learned: held-out accuracy reached 0\.99 at step \d+\. Training paused there\. Continue trains on\.$/,
  );
  assert.equal(await page.$eval('.pg-play', (b) => b.textContent), 'Continue');
  // the step it was learned at is marked on both curves
  const learnedAt = /at step (\d+)/.exec(await page.$eval('.pg-learned', (e) => e.textContent))[1];
  assert.equal(await page.$eval('.pg-train .pg-acc', (e) => e.dataset.learnedAt), learnedAt);
  assert.equal(await page.$$eval('.pg-train .chart-mark', (ms) => ms.length), 2);
  const hash = await page.evaluate(() => location.hash);
  const step = Number(/pgStep=(\d+)/.exec(hash)[1]);
  await page.waitForFunction((n) => document.querySelector('.pg-status').textContent.includes(`Step ${n} `), step, {
    timeout: 30000,
  });
  const first = numbers(await status(page));
  const firstProbe = await page.$eval('.pg-probe', (e) => e.textContent);
  // a previous-token head: on the probe, the model outputs every target
  const lines = await page.$$eval('.pg-probe p', (ps) => ps.map((p) => p.textContent.split(': ')[1].split(' ')));
  assert.deepEqual(lines[2].slice(1), lines[1].slice(1));
  await page.close();

  const again = await lab.open(hash.slice(1));
  await again.waitForFunction(
    (n) => {
      const s = document.querySelector('.pg-status').textContent;
      return s.includes(`Step ${n} `) && document.querySelector('.pg-play').getAttribute('aria-pressed') === 'false';
    },
    step,
    { timeout: 240000, polling: 250 },
  );
  assert.equal(numbers(await status(again)), first);
  assert.equal(await again.$eval('.pg-probe', (e) => e.textContent), firstProbe);
  assert.equal(await again.evaluate(() => location.hash), hash);
  assert.deepEqual(again.errors, []);
  await again.close();
});

// Paced (a speed other than 'fast'), the worker is asked for one chunk at a time as the schedule
// reaches it, so the run stops on the very report that showed it learned: the link's step is the
// learned step, and the curve has a point every 10 steps up to it. Continue trains on from there.
test('at a paced speed the run pauses on the step it was learned at, and Continue trains on', async () => {
  const page = await lab.open(`lesson=playground&${CONFIG.replace('pgSpeed=fast', 'pgSpeed=medium')}`);
  await page.waitForFunction(() => /Step 0/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 60000,
  });
  assert.equal(await page.$eval('.pg-play', (b) => b.textContent), 'Play');
  await page.click('.pg-play');
  await page.waitForFunction(
    () => /pgStep=\d+/.test(location.hash) && document.querySelector('.pg-learned').textContent !== '',
    null,
    { timeout: 240000, polling: 250 },
  );
  const learnedAt = Number(/at step (\d+)/.exec(await page.$eval('.pg-learned', (e) => e.textContent))[1]);
  const step = Number(/pgStep=(\d+)/.exec(await page.evaluate(() => location.hash))[1]);
  assert.equal(step, learnedAt);
  await page.click('.pg-train .pg-acc .hm-toggle');
  // the steps of this run's points (the table's second column; the blind guess has its own)
  const xs = await page.$$eval('.pg-train .pg-acc .chart-table tbody tr', (trs) =>
    trs.filter((tr) => tr.children[1].textContent !== '').map((tr) => Number(tr.children[0].textContent)),
  );
  assert.deepEqual(
    xs,
    Array.from({ length: learnedAt / 10 + 1 }, (_, k) => k * 10),
  );
  await page.click('.pg-play'); // Continue
  await page.waitForFunction(
    (n) => Number((/^Step (\d+)/.exec(document.querySelector('.pg-status').textContent) || [])[1]) > n,
    learnedAt,
    { timeout: 120000 },
  );
  assert.equal(await page.$eval('.pg-play', (b) => b.getAttribute('aria-pressed')), 'true');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// A language switch mounts the chapter again: the run on screen stays (the same step, its curve),
// and it goes on from there in a new worker that trained the same run to that step without
// showing it; paused, its numbers are those of one uninterrupted trainer in Node.
test('a language switch keeps the run on screen and it trains on from its step', async () => {
  const page = await lab.open(`lesson=playground&pgTask=random-induction&${CONFIG}`);
  await page.waitForFunction(() => /Step 0/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 60000,
  });
  await page.click('.pg-play');
  await page.waitForFunction(
    () => Number((/^Step (\d+)/.exec(document.querySelector('.pg-status').textContent) || [])[1]) >= 30,
    null,
    { timeout: 120000 },
  );
  // the switch and what is on screen right after it, in one task of the page
  const [before, after] = await page.evaluate(() => {
    const read = () => ({
      step: Number((/(\d+)/.exec(document.querySelector('.pg-status').textContent) || [])[1]),
      points: document.querySelector('.pg-acc svg').getAttribute('aria-label').split('→').length - 1,
    });
    const was = read();
    window.attentionLab.set({ lang: 'zh' });
    return [was, read()];
  });
  assert.equal(await page.evaluate(() => window.attentionLab.state.lang), 'zh');
  assert.ok(after.step >= before.step && after.points >= before.points, JSON.stringify({ before, after }));
  await page.waitForFunction(
    (n) => Number((/^第 (\d+) 步/.exec(document.querySelector('.pg-status').textContent) || [])[1]) > n,
    after.step,
    { timeout: 120000 },
  );
  assert.equal(await page.$eval('.pg-play', (b) => b.getAttribute('aria-pressed')), 'true');
  await page.click('.pg-play'); // pause
  await page.waitForFunction(
    () =>
      /pgStep=\d+/.test(location.hash) && document.querySelector('.pg-play').getAttribute('aria-pressed') === 'false',
    null,
    { timeout: 60000 },
  );
  const step = Number(/pgStep=(\d+)/.exec(await page.evaluate(() => location.hash))[1]);
  await page.waitForFunction((n) => document.querySelector('.pg-status').textContent.startsWith(`第 ${n} 步`), step, {
    timeout: 30000,
  });
  const engine = await loadTrainEngine();
  const t = engine.trainer({ task: 'random-induction', layers: 1, heads: 2, dModel: 32, learningRate: 0.003, seed: 3 });
  for (let k = 0; k < step; k += 1000) t.step(Math.min(1000, step - k));
  const e = t.evaluate();
  t.delete();
  assert.match(
    await status(page),
    new RegExp(`^第 ${step} 步 · 验证集准确率 ${fmt(e.accuracy, 3)} · 损失 ${fmt(e.loss, 3)}`),
  );
  // every report once: the accuracy curve's steps go up by 10 from 0
  await page.click('.pg-train .pg-acc .hm-toggle');
  const xs = await page.$$eval('.pg-train .pg-acc .chart-table tbody tr', (trs) =>
    trs.filter((tr) => tr.children[1].textContent !== '').map((tr) => Number(tr.children[0].textContent)),
  );
  assert.deepEqual(
    xs,
    Array.from({ length: step / 10 + 1 }, (_, k) => k * 10),
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a head on your own tokens, and bad tokens are refused with a message', async () => {
  const page = await lab.open(`lesson=playground&${CONFIG}&pgStep=20&stage=inspect&pgInput=5,4,3,2,1`);
  await page.waitForFunction(
    () =>
      document.querySelector('.pg-own').dataset.step === '20' &&
      document.querySelector('.pg-pred').textContent.startsWith('Predictions'),
    null,
    { timeout: 120000 },
  );
  assert.equal(await page.$eval('.pg-own .map-title', (e) => e.textContent), 'Layer 1, head 1 on your tokens');
  assert.match(await page.$eval('.pg-pred', (e) => e.textContent), /^Predictions on your tokens: \d+ \d+ \d+ \d+ \d+$/);
  await page.fill('#pg-own-tokens', '3 99');
  await page.$eval('#pg-own-tokens', (i) => i.dispatchEvent(new Event('change')));
  await page.waitForFunction(() => document.querySelector('#pg-own-tokens').getAttribute('aria-invalid') === 'true');
  assert.match(await page.$eval('#pg-own-tokens-e', (e) => e.textContent), /0 to 15/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The induction step: every head's scores and the ablation table are the engine's (the same run in
// Node gives them), a click ablates a head and a second click puts it back.
test('induction heads: the scores of every head, and ablating one changes the numbers as in Node', async () => {
  const page = await lab.open('lesson=playground&pgTask=random-induction&pgStep=20&stage=induction');
  await page.waitForFunction(
    () =>
      document.querySelector('.pg-status').textContent.includes('Step 20 ') &&
      document.querySelector('.pg-play').getAttribute('aria-pressed') === 'false' &&
      !document.querySelector('.pg-ablate').disabled,
    null,
    { timeout: 240000, polling: 250 },
  );
  const engine = await loadTrainEngine();
  const t = engine.trainer({ task: 'random-induction', layers: 2, heads: 2, dModel: 32, learningRate: 0.003, seed: 1 });
  try {
    t.step(20);
    const s = t.headScores();
    const labels = await page.$$eval('.pg-ablate', (bs) => bs.map((b) => b.textContent));
    assert.deepEqual(
      labels,
      [0, 1, 2, 3].map(
        (k) =>
          `L${Math.floor(k / 2) + 1}H${(k % 2) + 1}: previous ${fmt(s.previousToken[k], 2)}, induction ${fmt(s.induction[k], 2)}`,
      ),
    );
    assert.ok(Math.max(...s.induction) < 0.4);
    assert.equal(
      await page.$eval('.pg-crossed', (e) => e.textContent),
      'No head’s induction score has reached 0.4 yet.',
    );
    assert.equal(await page.$eval('.pg-scores', (e) => e.hidden), false);
    assert.equal(await page.$eval('.pg-ablate-status', (e) => e.textContent), 'No head ablated: click one.');

    // ablate layer 2, head 1 (by keyboard: focus and Enter)
    await page.focus('.pg-ablate[data-head="2"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.pg-ablation', { timeout: 60000 });
    assert.equal(await page.$eval('.pg-ablate[data-head="2"]', (b) => b.getAttribute('aria-pressed')), 'true');
    const cells = await page.$$eval('.pg-ablation tbody tr', (rows) =>
      rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent)),
    );
    const whole = t.evaluate(),
      cut = t.evaluate({ ablate: [[1, 0]] });
    const wholeProbe = t.probe(),
      cutProbe = t.probe({ ablate: [[1, 0]] });
    assert.deepEqual(cells, [
      [fmt(whole.loss, 3), fmt(cut.loss, 3)],
      [fmt(whole.accuracy, 3), fmt(cut.accuracy, 3)],
      [fmt(wholeProbe.loss, 3), fmt(cutProbe.loss, 3)],
      [fmt(wholeProbe.accuracy, 3), fmt(cutProbe.accuracy, 3)],
    ]);
    assert.match(await page.$eval('.pg-ablation thead', (e) => e.textContent), /without L2H1/);

    await page.click('.pg-ablate[data-head="2"]');
    await page.waitForFunction(() => !document.querySelector('.pg-ablation'), null, { timeout: 10000 });
    assert.equal(await page.$eval('.pg-ablate[data-head="2"]', (b) => b.getAttribute('aria-pressed')), 'false');
  } finally {
    t.delete();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

// issue item 10: a link that asks for hours of replay is refused past the cap (10,000 steps) with
// a notice that names the field (the link: 100,000 steps at pgD=128 and 4 heads); a replay
// within the cap shows its progress, which moves, and Pause stops it there.
test('a replay link past the cap gets a notice; a replay shows its progress and can be stopped', async () => {
  const refused = await lab.open('lesson=playground&pgStep=100000&pgD=128&pgHeads=4');
  const notice = await refused.$eval('#notice', (n) => (n.hidden ? '' : n.textContent));
  assert.match(notice, /pgStep=100000: outside 0\.\.10000/);
  await refused.waitForFunction(() => /^Step 0 /.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 60000,
  });
  assert.deepEqual(refused.errors, []);
  await refused.close();

  const page = await lab.open(`lesson=playground&pgStep=10000&${CONFIG}`);
  const progress = (text) => /Replaying the linked run: step (\d+) of 10000 \((\d+) %\)/.exec(text);
  await page.waitForFunction(
    () => /Replaying the linked run: step \d+ of 10000/.test(document.querySelector('.pg-status').textContent),
    null,
    { timeout: 120000 },
  );
  const first = Number(progress(await status(page))[1]);
  await page.waitForFunction(
    (n) => {
      const m = /step (\d+) of 10000/.exec(document.querySelector('.pg-status').textContent);
      return m && Number(m[1]) > n;
    },
    first,
    { timeout: 120000 },
  );
  const [, done, pct] = progress(await status(page));
  assert.ok(Number(done) > first && Number(done) < 10000, `step ${done}`);
  assert.equal(Number(pct), Math.floor((100 * Number(done)) / 10000));
  await page.click('.pg-play'); // Pause: the cancel
  await page.waitForFunction(
    () =>
      document.querySelector('.pg-play').getAttribute('aria-pressed') === 'false' &&
      !/Replaying/.test(document.querySelector('.pg-status').textContent),
    null,
    { timeout: 60000 },
  );
  // the step goes into the link once the worker has stopped (its answer comes after the button
  // and the status have changed), then the address is rewritten
  await page.waitForFunction(
    () =>
      !document.documentElement.hasAttribute('data-hash-pending') &&
      Number(/pgStep=(\d+)/.exec(location.hash)?.[1] ?? 10000) < 10000,
    null,
    { timeout: 30000 },
  );
  const step = Number(/pgStep=(\d+)/.exec(await page.evaluate(() => location.hash))?.[1]);
  assert.ok(step >= Number(done) && step < 10000, `stopped at ${step}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The steps that wait for the worker open on their figure from its first report, the model at
// step 0 (an untrained model's attention is a real result, said so): the same numbers as the same
// configuration gives in Node before any step.
const table = (page, sel) =>
  page.$eval(sel, (t) => [...t.rows].map((r) => [...r.cells].map((c) => c.textContent.replace('\u2212', '-'))));
const nodeTrainer = async (config) =>
  (await loadTrainEngine()).trainer({ layers: 1, heads: 2, dModel: 32, learningRate: 0.003, seed: 3, ...config });

test('your sequence opens on the untrained model’s head at step 0, as Node gives it', async () => {
  const page = await lab.open(`lesson=playground&${CONFIG}&stage=inspect&pgInput=5,4,3,2,1`);
  const fig = 'section[data-step="inspect"] [data-figure="main"]';
  await page.waitForSelector(`${fig}.pg-own[data-step="0"]:not([aria-busy])`, { timeout: 60000 });
  assert.equal(
    await page.$eval(`${fig} .map-title`, (e) => e.textContent),
    'Layer 1, head 1 of the untrained model (step 0, random weights) on your tokens',
  );
  const top = await page.$eval(fig, (el) => el.getBoundingClientRect().top + scrollY);
  assert.ok(top < 800, `the figure starts at ${top} px`);
  await page.click(`${fig} .hm-toggle`);
  const rows = await table(page, `${fig} table`);
  const t = await nodeTrainer({ task: 'previous-token' });
  try {
    const w = t.run([5, 4, 3, 2, 1]).patterns[0][0];
    assert.equal(rows.length, 1 + w.rows, JSON.stringify(rows[0]));
    for (let i = 0; i < w.rows; i++)
      for (let j = 0; j < w.cols; j++) {
        const shown = Number(rows[i + 1][j + 1]);
        assert.ok(Math.abs(shown - w.data[i * w.cols + j]) <= 0.005 + 1e-6, `(${i}, ${j}): ${shown}`);
      }
  } finally {
    t.delete();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('side by side opens on this run’s curves and heads before a comparison is chosen', async () => {
  const page = await lab.open(`lesson=playground&${CONFIG}&stage=compare`);
  const fig = 'section[data-step="compare"] [data-figure="main"]';
  await page.waitForSelector(`${fig}:not([aria-busy]) svg circle`, { timeout: 60000 });
  const top = await page.$eval(fig, (el) => el.getBoundingClientRect().top + scrollY);
  assert.ok(top < 800, `the figure starts at ${top} px`);
  const t = await nodeTrainer({ task: 'previous-token' });
  const e = t.evaluate();
  t.delete();
  const acc = await page.$eval(`${fig} .pg-acc svg`, (s) => s.getAttribute('aria-label'));
  assert.match(acc, new RegExp(`This run: 0 → ${fmt(e.accuracy, 3).replace('.', '\\.')}; A blind guess`), acc);
  assert.equal(await page.$$eval('section[data-step="compare"] .pg-head', (hs) => hs.length), 2);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('induction heads opens on every head’s scores at step 0, as Node gives them', async () => {
  const page = await lab.open('lesson=playground&pgTask=random-induction&stage=induction');
  const fig = 'section[data-step="induction"] [data-figure="main"]';
  await page.waitForSelector(`${fig}:not([aria-busy]) .pg-scores svg circle`, { timeout: 60000 });
  await page.click(`${fig} .pg-scores .hm-toggle`);
  const rows = await table(page, `${fig} .pg-scores table`);
  const t = await nodeTrainer({ task: 'random-induction', layers: 2, seed: 1 });
  const sc = t.headScores();
  t.delete();
  const want = ['0'];
  for (let k = 0; k < 4; k++) want.push(fmt(sc.induction[k], 3), fmt(sc.previousToken[k], 3));
  assert.deepEqual(rows.slice(1), [want]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Before any training the accuracy chart already reads: its step axis spans the first 100 steps
// (the horizon, which holds still while the run fills it), and a dotted line marks a blind guess
// among the task's 16 tokens, at 1/16 on the axis.
test('the untrained accuracy point sits on a step axis of 100 steps, over a blind-guess line at 1 / vocabulary', async () => {
  const page = await lab.open(`lesson=playground&${CONFIG}&stage=train`);
  await page.waitForFunction(() => /Step 0/.test(document.querySelector('.pg-status').textContent), null, {
    timeout: 60000,
  });
  const chart = await page.$eval('.pg-train .pg-acc', (box) => ({
    legend: box.textContent,
    ticks: [...box.querySelectorAll('svg .tick')].map((t) => [t.textContent, t.getAttribute('transform')]),
    dashed: [...box.querySelectorAll('svg path[stroke-dasharray]')].map((p) => p.getAttribute('d')),
  }));
  // d3's axes: a bottom tick at translate(x,0), a left one at translate(0,y)
  const xTicks = chart.ticks.filter(([, tr]) => /,0\)$/.test(tr)).map(([text]) => text);
  const yTicks = chart.ticks
    .filter(([, tr]) => /^translate\(0,/.test(tr))
    .map(([text, tr]) => [Number(text), Number(/translate\(0,([\d.]+)\)/.exec(tr)[1])]);
  const yAt = (v) => yTicks.find(([t]) => t === v)[1];
  assert.match(chart.legend, /A blind guess \(1 \/ 16\)/);
  assert.equal(xTicks.at(-1), '100', `the step axis ends at 100: ${xTicks}`);
  const y0 = yAt(0),
    y1 = yAt(1);
  assert.equal(chart.dashed.length, 1, 'one dashed line');
  const ys = [...chart.dashed[0].matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
  assert.ok(ys.length >= 2, chart.dashed[0]);
  for (const y of ys)
    // (d3 sets its ticks half a pixel off, for crisp lines)
    assert.ok(Math.abs(y - (y0 + (y1 - y0) / 16)) <= 0.75, `the line at 1/16: ${y} (0 at ${y0}, 1 at ${y1})`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
