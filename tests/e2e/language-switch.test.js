// A language switch keeps what is on screen: the chapter is mounted again in the other language,
// and what the learner measured or answered stays (the shell's c.kept), in headless Chromium:
// an answered question stays answered, the multi-head chapter's timed layers and the block
// chapter's measured table keep their numbers (measured again they would differ), and the
// long-sequences chapter keeps a sweep the learner ran past the short one its step starts by
// itself, and finishes one that was still running.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { answer, showing } from './lesson-page.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

// Presses the language button and waits for the chapter to be drawn in that language.
async function switchTo(page, lang, lesson) {
  await page.click(`.lang-switch button[data-lang="${lang}"]`);
  await page.waitForFunction(
    ([l, id]) =>
      location.hash.includes(`lang=${l}`) && document.querySelector(`main[lang^="${l}"] article.chapter-${id}`),
    [lang, lesson],
  );
  await showing(page, lesson);
}

// The numbers of a table, row by row (the words around them are the language's).
const numbers = (page, sel) =>
  page.$$eval(`${sel} tbody tr`, (rows) =>
    rows.map((r) => Array.from(r.cells, (c) => (c.textContent.match(/\d[\d,.]*/g) || []).join(' '))),
  );

test('an answered question, timed layers and a measured table stay after a language switch', async () => {
  const page = await lab.open('lesson=debug&lang=en&stage=predict');
  const said = await answer(page, '[data-predict="debug/zero-fill"]', 'some weight, as if their score were 0');
  assert.match(said, /^Right\./);
  await switchTo(page, 'zh', 'debug');
  const feedback = page.locator('[data-predict="debug/zero-fill"] .predict-feedback');
  assert.match(await feedback.textContent(), /^答对了。用 0 填充时/);
  assert.equal(await page.isVisible('[data-reveal-of="debug/zero-fill"] .db-map-zero'), true, 'the answer stays shown');

  // the multi-head chapter times a layer for every head count when its step opens
  await page.evaluate(() => (location.hash = '#lesson=multihead&lang=zh&stage=heads'));
  await showing(page, 'multihead', 'heads');
  await page.waitForSelector('.mh-cost tbody tr');
  const timed = await numbers(page, '.mh-cost');
  await switchTo(page, 'en', 'multihead');
  await page.waitForSelector('.mh-cost tbody tr');
  assert.deepEqual(await numbers(page, '.mh-cost'), timed, 'the same measurements, not new ones');

  // the block chapter measures on request
  await page.evaluate(() => (location.hash = '#lesson=block&lang=en&stage=parallel'));
  await showing(page, 'block', 'parallel');
  await page.click('.bl-measure');
  await page.waitForSelector('.bl-timed:not(:empty)');
  const measured = await numbers(page, '.bl-table[aria-live]');
  assert.equal(measured.length, 4);
  await switchTo(page, 'zh', 'block');
  await page.waitForSelector('.bl-timed:not(:empty)');
  assert.deepEqual(await numbers(page, '.bl-table[aria-live]'), measured);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The long-sequences chapter: the learner's sweep to n = 1024 (past the short sweep to 512 the
// step starts by itself), switched to Chinese while it runs, finishes there; switched back, the
// same measurements are on screen.
test('a sweep still running at a language switch finishes, and stays measured after another', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longSweepTo=1024&longWorkers=1&seed=42');
  const status = () => page.textContent('.long-sweep-status');
  await page.waitForFunction(
    () => /^Swept n = 64 … 512:/.test(document.querySelector('.long-sweep-status').textContent),
    null,
    { timeout: 120000 },
  );
  await page.getByRole('button', { name: 'Sweep n' }).click();
  await page.waitForFunction(() =>
    /^(n = \d+|Warming up)/.test(document.querySelector('.long-sweep-status').textContent),
  );
  await switchTo(page, 'zh', 'long');
  await page.waitForFunction(
    () => /^(已扫描|在 n)/.test(document.querySelector('.long-sweep-status').textContent),
    null,
    { timeout: 120000 },
  );
  assert.equal(await status(), '已扫描 n = 64 … 1024：共 20 次运行。');
  await page.click('.long-sweep-time .hm-toggle');
  const times = await numbers(page, '.long-sweep-time');
  assert.deepEqual(
    times.map((r) => r[0]),
    ['64', '128', '256', '512', '1024'],
  );
  await switchTo(page, 'en', 'long');
  assert.equal(await status(), 'Swept n = 64 … 1024: 20 runs.');
  await page.click('.long-sweep-time .hm-toggle');
  assert.deepEqual(await numbers(page, '.long-sweep-time'), times, 'the same measurements, not new ones');
  assert.deepEqual(page.errors, []);
  await page.close();
});
