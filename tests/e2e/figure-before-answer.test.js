// A step that asks the learner to predict shows its main figure before the answer, and keeps
// back what the question asks: in headless Chromium, on a fresh page, each step's main figure is
// drawn (cells or bars on screen, outside the part the question reveals), the revealed part stays
// hidden until "Just show me", and then it appears.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { showing } from './lesson-page.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

// What the main figure of the step on screen shows: { drawn, inReveal, top }.
function mainFigure(stage) {
  const sec = document.querySelector(`section[data-step="${stage}"]`);
  const fig = [...sec.querySelectorAll('[data-figure="main"]')].find((el) => el.getClientRects().length);
  if (!fig) return null;
  const drawn = fig.querySelectorAll('.hm-rows span, g.bar rect, li').length;
  return {
    drawn,
    inReveal: !!fig.closest('[data-reveal-of]'),
    top: Math.round(fig.getBoundingClientRect().top + scrollY),
  };
}

const revealShown = (stage) =>
  [...document.querySelectorAll(`section[data-step="${stage}"] [data-reveal-of]`)].map((el) => !el.hidden);

const PREDICT_STEPS = [
  ['why', 'lookup'],
  ['masks', 'two-token'],
  ['score-functions', 'four'],
  ['multihead', 'roles'],
  ['position', 'shuffle'],
  ['debug', 'predict'],
  ['scaling', 'growth'],
];

let page; // one page for both languages
for (const lang of ['en', 'zh']) {
  test(`a predict step shows its figure before the answer and keeps the answer back (${lang})`, async () => {
    page ??= await lab.open(`lang=${lang}`);
    for (const [lesson, stage] of PREDICT_STEPS) {
      await page.evaluate((h) => {
        localStorage.clear();
        location.hash = h;
      }, `lesson=${lesson}&stage=${stage}&lang=${lang}`);
      await showing(page, lesson, stage, { figure: true });
      const fig = await page.evaluate(mainFigure, stage);
      const where = `${lesson}/${stage}`;
      assert.ok(fig, `${where}: a main figure on screen`);
      assert.ok(fig.drawn > 0, `${where}: the figure is drawn`);
      assert.equal(fig.inReveal, false, `${where}: the figure is not the revealed part`);
      assert.ok(fig.top < 800, `${where}: the figure starts at ${fig.top} px`);
      assert.deepEqual(await page.evaluate(revealShown, stage), [false], `${where}: the answer is kept back`);
      await page.click(`section[data-step="${stage}"] .predict-show`);
      await page.waitForFunction(
        (st) => !document.querySelector(`section[data-step="${st}"] [data-reveal-of]`).hidden,
        stage,
        { polling: 50, timeout: 10000 },
      );
      // Shown, the question locks and says what the engine answered (not only that it did).
      const asked = await page.$eval(`section[data-step="${stage}"] .predict`, (q) => ({
        locked: q.classList.contains('locked'),
        open: [...q.querySelectorAll('input, button')].filter((el) => !el.disabled && el.getClientRects().length)
          .length,
        said: q.querySelector('.predict-feedback').textContent,
      }));
      assert.deepEqual([asked.locked, asked.open], [true, 0], `${where}: the question is locked`);
      assert.match(asked.said, lang === 'en' ? /^The engine’s answer: .+\. \S/ : /^引擎的答案：.+。\S/, where);
    }
    assert.deepEqual(page.errors, []);
    if (lang === 'zh') await page.close();
  });
}

test('the hand check draws the scores before a guess; the engine’s weights wait for one', async () => {
  const page = await lab.open('lesson=softmax&stage=hand-check&lang=en', { width: 360, height: 740 });
  await showing(page, 'softmax', 'hand-check', { figure: true });
  const fig = await page.evaluate(mainFigure, 'hand-check');
  assert.ok(fig && fig.drawn === 4, `4 bars of scores (${fig && fig.drawn})`);
  assert.ok(fig.top < 1110, `starts at ${fig.top} px`);
  const bars = await page.$eval('section[data-step="hand-check"] [data-figure="main"] svg', (s) =>
    s.getAttribute('aria-label'),
  );
  assert.match(bars, /2\.60.*1\.20.*6\.10.*2\.00/, bars);
  assert.equal(await page.locator('.sm-hand-table').count(), 0, 'no weights before a guess');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the timeline is the figure of its step', async () => {
  const page = await lab.open('lesson=why&stage=timeline&lang=zh');
  await showing(page, 'why', 'timeline', { figure: true });
  const fig = await page.evaluate(mainFigure, 'timeline');
  assert.equal(fig.drawn, 6);
  assert.ok(fig.top < 800, `starts at ${fig.top} px`);
  await page.close();
});
