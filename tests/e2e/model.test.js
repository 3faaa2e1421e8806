// The real-model lesson in headless Chromium: the shipped model's guess on the example sentence
// in both languages against its PyTorch golden; a learner's checkpoint given as Files (a random
// tiny GPT-2 written here, F32 with the `transformer.` prefix) whose head's five stages match a
// double-precision reference read from the same bytes (tests/js/gpt2-reference.js, no engine);
// a head switched off from the grid; the link that names the learner's file (at 360 px the chapter
// is checked by tests/e2e/layout.test.js).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { start } from './harness.js';
import { showing, readMap, clickCell } from './lesson-page.js';
import { randomCheckpoint, readSafetensors, gpt2Forward, probabilities } from '../js/gpt2-reference.js';

const golden = JSON.parse(readFileSync(new URL('../golden/tiny_gpt2.json', import.meta.url), 'utf8'));

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

// Waits until the figure in `sel` is drawn with the model's numbers (no longer busy).
const drawn = (page, sel) =>
  page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return el && !el.closest('[hidden]') && el.getAttribute('aria-busy') !== 'true';
  }, sel);

const barValues = (page, sel) =>
  page.$$eval(`${sel} .bar-value`, (els) => els.map((e) => Number(e.textContent.replace('\u2212', '-'))));

for (const [lang, k] of [
  ['en', 0],
  ['zh', 1],
]) {
  test(`${lang}: the shipped model's guess on a sentence given by the link is its PyTorch golden`, async () => {
    const c = golden.cases[k];
    const page = await lab.open(`lesson=model&stage=guess&lang=${lang}&mdText=${encodeURIComponent(c.text)}`);
    await showing(page, 'model', 'guess', { figure: true });
    await drawn(page, '.md-guess');
    // the bars arrive with the model's run (the figure may be drawn empty while the model loads)
    await page.waitForFunction(() => document.querySelectorAll('.md-guess .bar-value').length === 10);
    const last = c.ids.length - 1;
    const want = c.topK.probabilities.slice(last * c.topK.k, last * c.topK.k + 10);
    const shown = await barValues(page, '.md-guess');
    assert.equal(shown.length, 10);
    shown.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 0.0005 + 1e-9, `bar ${i}: ${x} vs ${want[i]}`));
    const ids = await page.$$eval('.md-token-id', (els) => els.map((e) => Number(e.textContent)));
    assert.deepEqual(ids, c.ids);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('a learner’s checkpoint from Files: one head’s five stages equal the reference; a head switched off; the link names the file', async () => {
  const { bytes, config } = randomCheckpoint({
    seed: 7,
    nLayer: 2,
    nHead: 3,
    nEmbd: 12,
    nPositions: 16,
    vocabSize: 90,
  });
  const ids = [5, 9, 1, 66, 9, 2, 40];
  const page = await lab.open('lesson=model&stage=stages&mdLayer=1&mdHead=2&mdStage=scores');
  await showing(page, 'model', 'stages');
  await page.setInputFiles('.md-file', [
    { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) },
    { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(config)) },
  ]);
  await page.waitForFunction(() => location.hash.includes('mdModel=file%3Amodel.safetensors'));
  // this model has no tokenizer the page knows: the sentence is its ids
  const text = page.locator('.md-text');
  await text.fill(ids.join(' '));
  await page.waitForFunction((n) => document.querySelectorAll('.md-token').length === n, ids.length);
  const ref = gpt2Forward(readSafetensors(bytes), config, ids, { head: [1, 2] }).stages;
  for (const stage of ['scores', 'scaled', 'masked', 'weights', 'output']) {
    await page.evaluate((s) => {
      const sel = [...document.querySelectorAll('section[data-step="stages"] select')].find((x) =>
        [...x.options].some((o) => o.value === s),
      );
      sel.value = s;
      sel.dispatchEvent(new Event('change', { bubbles: true }));
    }, stage);
    await page.waitForFunction(
      (s) => location.hash.includes(`mdStage=${s}`) || (s === 'weights' && !location.hash.includes('mdStage')),
      stage,
    );
    await drawn(page, '.md-stage');
    const m = await readMap(page, '.md-stage');
    const cols = stage === 'output' ? config.n_embd / config.n_head : ids.length;
    assert.equal(m.values.length, ids.length, stage);
    m.text.forEach((row, i) =>
      row.forEach((cell, j) => {
        const want = ref[stage][i * cols + j];
        if (want === -Infinity) assert.match(cell, /−∞|-∞/, `${stage}[${i}][${j}]`);
        else
          assert.ok(
            Math.abs(m.values[i][j] - want) <= 0.005 + 1e-6 * Math.abs(want),
            `${stage}[${i}][${j}]: ${cell} vs ${want}`,
          );
      }),
    );
  }

  // switch off layer 0, head 1 from the grid: the link says so, and the second bars are the
  // reference's probabilities with that head's output zeroed
  await page.evaluate(() => document.querySelector('.stepper .step[data-stage="ablate"]').click());
  await drawn(page, '.md-effect');
  await clickCell(page, '.md-effect', 0, 1);
  await page.waitForFunction(() => decodeURIComponent(location.hash).includes('mdAblate=0.1'));
  const off = gpt2Forward(readSafetensors(bytes), config, ids, { ablate: [[0, 1]] });
  const p = probabilities(off.logits, off.vocab, ids.length - 1);
  const want = (id) => p[id];
  const afterBars = () =>
    page.$$eval('.md-compare .bars:last-of-type .bar', (els) =>
      els.map((e) => [
        Number(e.querySelector('.bar-label').textContent.replace('#', '')),
        Number(e.querySelector('.bar-value').textContent),
      ]),
    );
  await page.waitForFunction(
    (first) => {
      const el = document.querySelector('.md-compare .bars:last-of-type .bar');
      return el && Math.abs(Number(el.querySelector('.bar-value').textContent) - first) <= 0.0005;
    },
    want(Number((await afterBars())[0][0])),
  );
  // a token that left the top k is drawn at 0: its probability is under every one still in it
  const shown = await afterBars();
  const floor = Math.min(...shown.filter(([, x]) => x > 0).map(([, x]) => x));
  for (const [id, x] of shown)
    if (x > 0) assert.ok(Math.abs(x - want(id)) <= 0.0005 + 1e-9, `after #${id}: ${x} vs ${want(id)}`);
    else assert.ok(want(id) <= floor + 0.0005, `after #${id}: ${want(id)} left the top k`);
  assert.deepEqual(page.errors, []);

  // the same link on a fresh page asks for the file it needs
  const url = await page.evaluate(() => location.hash);
  const fresh = await lab.open(url.slice(1));
  await showing(fresh, 'model');
  await fresh.waitForFunction(() =>
    /model\.safetensors/.test(document.querySelector('.md-model-status')?.textContent || ''),
  );
  await fresh.close();
  await page.close();
});
