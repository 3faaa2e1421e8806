// The encoder–decoder playground in Chromium: both models train side by side in the worker, the
// numbers on screen are the engine's (the same runs in Node give them), a link replays the run to
// its step, the alignment and the accuracy-by-length chart are drawn with their tables, your own
// sentence is translated by both, and lesson 1 links here. No wall-clock assertion: every wait is
// for a state of the page. SEQ2SEQ_SHOTS=dir saves screenshots of the figures there.

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

const SHOTS = process.env.SEQ2SEQ_SHOTS;
const status = (page) => page.$eval('.s2-status', (e) => e.textContent);
const numbers = (text) => text.replace(/ · [\d.]+ steps\/s each$/, '');

test("a link replays both runs to its step, and the numbers are the engine's", async () => {
  const page = await lab.open('lesson=seq2seq&s2Task=translate&s2Seed=2&s2Step=30');
  await page.waitForFunction(
    () =>
      /^Step 30 /.test(document.querySelector('.s2-status').textContent) &&
      document.querySelector('.s2-play').getAttribute('aria-pressed') === 'false',
    null,
    { timeout: 300000, polling: 250 },
  );
  const engine = await loadTrainEngine(); // the SIMD build, as Chromium loads
  const run = (attention) => {
    const m = engine.seq2seq({ task: 'translate', attention, seed: 2 });
    m.step(30);
    const out = { e: m.evaluate(), probe: m.probe(), byLength: m.evaluateByLength() };
    m.delete();
    return out;
  };
  const attn = run('additive'),
    none = run('none');
  assert.equal(
    numbers(await status(page)),
    `Step 30 · held-out token accuracy: without attention ${fmt(none.e.accuracy, 3)}, with attention ${fmt(attn.e.accuracy, 3)}`,
  );
  // the probe's lines and the alignment: one row per output step of the probe
  assert.equal(await page.$eval('.s2-probe p', (p) => p.textContent), 'Input: the cat that eats fish chases the mouse');
  assert.equal(
    await page.$eval('.s2-probe .s2-out-attn', (p) => p.textContent),
    `With attention: ${attn.probe.predictionWords.join(' ')}`,
  );
  assert.equal(await page.$eval('.s2-align', (e) => e.hidden), false);
  // the accuracy-by-length chart: one table row per length 2..24, both models' numbers
  await page.click('.s2-length .hm-toggle');
  const rows = await page.$$eval('.s2-length .chart-table tbody tr', (trs) =>
    trs.map((tr) => [...tr.children].map((td) => td.textContent)),
  );
  assert.equal(rows.length, 23);
  assert.deepEqual(rows[0], ['2', fmt(none.byLength.tokenAccuracy[0], 3), fmt(attn.byLength.tokenAccuracy[0], 3)]);
  assert.deepEqual(rows[22], ['24', fmt(none.byLength.tokenAccuracy[22], 3), fmt(attn.byLength.tokenAccuracy[22], 3)]);
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/seq2seq-race-step30.png`, fullPage: true });
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('your own sentence: both models translate it, with the grammar’s translation beside them', async () => {
  const page = await lab.open('lesson=seq2seq&s2Task=translate&s2Seed=2&s2Step=10&stage=own');
  await page.waitForFunction(() => /^Step 10 /.test(document.querySelector('.s2-status').textContent), null, {
    timeout: 300000,
    polling: 250,
  });
  await page.fill('#s2-own-input', 'the big dog sees fish');
  await page.press('#s2-own-input', 'Enter');
  await page.dispatchEvent('#s2-own-input', 'change');
  await page.waitForFunction(() => location.hash.includes('s2Input='), null, { timeout: 30000 });
  await page.waitForFunction(() => /大 狗 看 鱼/.test(document.querySelector('.s2-own-out').textContent), null, {
    timeout: 60000,
  });
  const text = await page.$eval('.s2-own-out', (e) => e.textContent);
  assert.match(text, /Without attention: /);
  assert.match(text, /With attention: /);
  assert.match(text, /The grammar’s translation: 大 狗 看 鱼/);
  // a word that is not the task's is refused, naming the words
  await page.fill('#s2-own-input', 'the cow');
  await page.dispatchEvent('#s2-own-input', 'change');
  assert.match(await page.$eval('#s2-own-input-e', (e) => e.textContent), /^Use 1 to 24 of these words: the that cat/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('lesson 1 links to the comparison', async () => {
  const page = await lab.open('lesson=why');
  await page.click('.why-seq2seq');
  await page.waitForFunction(() => location.hash.includes('lesson=seq2seq'), null, { timeout: 30000 });
  await page.waitForSelector('.s2-status');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The steps that wait for the worker open on their figure from its first report: the models at
// step 0 (an untrained model's alignment is a real result, said so), the same numbers as the same
// models give in Node before any step.
const table = (page, sel) =>
  page.$eval(sel, (t) => [...t.rows].map((r) => [...r.cells].map((c) => c.textContent.replace('\u2212', '-'))));

test('your sentence opens on the untrained model’s alignment at step 0, as Node gives it', async () => {
  const words = ['the', 'big', 'dog', 'sees', 'fish'];
  const page = await lab.open(`lesson=seq2seq&s2Task=translate&s2Seed=2&stage=own&s2Input=${words.join(',')}`);
  const fig = 'section[data-step="own"] [data-figure="main"]';
  await page.waitForSelector(`${fig}.s2-own-map[data-step="0"]:not([aria-busy])`, { timeout: 60000 });
  const title = await page.$eval(`${fig} .map-title`, (e) => e.textContent);
  assert.match(
    title,
    /^Where the untrained model with attention looks \(step 0, its random weights; rows: its first \d+ of \d+ output words; columns: your words\)$/,
  );
  const top = await page.$eval(fig, (el) => el.getBoundingClientRect().top + scrollY);
  assert.ok(top < 800, `the figure starts at ${top} px`);
  await page.click(`${fig} .hm-toggle`);
  const rows = await table(page, `${fig} table`);
  const engine = await loadTrainEngine();
  const m = engine.seq2seq({ task: 'translate', attention: 'additive', seed: 2 });
  try {
    const r = m.translate(words);
    const a = r.alignment;
    // its first (words + 1) output steps, of all it decoded
    const k = Math.min(a.rows, words.length + 1);
    assert.ok(title.includes(`its first ${k} of ${a.rows} output words`), title);
    assert.deepEqual(
      rows[0].slice(1),
      r.sourceWords.map((w, j) => `${j + 1}:${w}`),
    );
    assert.equal(rows.length, 1 + k);
    for (let i = 0; i < k; i++) {
      assert.equal(rows[i + 1][0], `${i + 1}:${r.predictionWords[i]}`);
      for (let j = 0; j < a.cols; j++) {
        const shown = Number(rows[i + 1][j + 1]);
        assert.ok(Math.abs(shown - a.data[i * a.cols + j]) <= 0.005 + 1e-6, `(${i}, ${j}): ${shown}`);
      }
    }
  } finally {
    m.delete();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('length by length opens on both models’ accuracies at step 0, as Node gives them', async () => {
  const page = await lab.open('lesson=seq2seq&s2Seed=2&stage=lengths');
  const fig = 'section[data-step="lengths"] [data-figure="main"]';
  await page.waitForSelector(`${fig}:not([aria-busy]) table`, { timeout: 60000 });
  const rows = (await table(page, `${fig} table`)).slice(1);
  const engine = await loadTrainEngine();
  const byLength = (attention) => {
    const m = engine.seq2seq({ task: 'copy', attention, seed: 2 });
    const b = m.evaluateByLength();
    m.delete();
    return b;
  };
  const none = byLength('none'),
    attn = byLength('additive');
  assert.deepEqual(
    rows,
    Array.from(none.lengths, (n, k) => [
      String(n),
      fmt(none.tokenAccuracy[k], 3),
      fmt(attn.tokenAccuracy[k], 3),
      fmt(none.sequenceAccuracy[k], 3),
      fmt(attn.sequenceAccuracy[k], 3),
    ]),
  );
  assert.match(await page.$eval(`${fig} caption`, (e) => e.textContent), /at step 0$/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
