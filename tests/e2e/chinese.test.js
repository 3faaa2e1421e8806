// The Chinese page speaks Chinese: on every step of every chapter, no English sentence, button,
// screen-reader description or formula word reaches it, and the punctuation after Chinese text is
// full-width. Words that stay English on purpose (the example sentence The cat eats fish, softmax,
// Query/Key/Value, float32, names and titles) are not function words, so a list of English function
// and interface words finds what slipped through.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled } from './harness.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

// Every chapter of the page, so a new chapter is covered too (the nav lists them all).
const LESSONS = [
  'start',
  'why',
  'pipeline',
  'masks',
  'softmax',
  'scaling',
  'score-functions',
  'multihead',
  'position',
  'block',
  'long',
  'debug',
  'practice',
  'playground',
  'seq2seq',
  'model',
];
// Lower-case English words that only an untranslated sentence or label would bring.
const ENGLISH =
  /\b(the|and|of|is|are|to|with|for|this|that|show|hide|table|heatmap|arrow|selects?|typed|otherwise|if|rows?|columns?|weights?|scores?|queries|keys|fullyMaskedRows)\b/;
// Half-width punctuation right after a Chinese character (a colon or an opening parenthesis).
const HALF_WIDTH = /[\u4e00-\u9fff][:(]|[:(][\u4e00-\u9fff]/;

// What a reader or a screen reader gets on the step on screen: the visible text (formulas as
// KaTeX renders them, without their TeX source) and the accessible names and descriptions.
async function wordsOnScreen(page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    const clone = main.cloneNode(true);
    // Left out: KaTeX's TeX source, hidden parts, text marked as English (the engine's own
    // messages, quoted as they are), and a heatmap's row and column labels and its cursor line,
    // which are the example's tokens (the multi-head roles' "the cat sat on the mat").
    const skip = 'annotation, [hidden], .group-hidden, [lang="en"], .hm-rows, .hm-cols, .heatmap > [aria-live]';
    for (const el of clone.querySelectorAll(skip)) el.remove();
    const attrs = [...main.querySelectorAll('[aria-label], [aria-roledescription], [title]')]
      .filter((el) => !el.closest('[hidden], .hm-rows, .hm-cols'))
      .flatMap((el) => ['aria-label', 'aria-roledescription', 'title'].map((a) => el.getAttribute(a)).filter(Boolean));
    return { text: clone.textContent, attrs };
  });
}

for (const lesson of LESSONS) {
  test(`${lesson}: every step in Chinese, with no English words and full-width punctuation`, async () => {
    const page = await lab.open(`lesson=${lesson}&lang=zh`);
    const stages = await page.$$eval('.stepper button.step', (bs) => bs.map((b) => b.dataset.stage));
    // The start page is one page without steps; every chapter has three or more.
    assert.ok(lesson === 'start' ? stages.length === 0 : stages.length >= 3, `${lesson}: ${stages.length} steps`);
    for (const stage of stages.length ? stages : ['']) {
      if (stage) {
        await page.click(`.stepper button.step[data-stage="${stage}"]`);
        await page.waitForFunction((st) => location.hash.includes(`stage=${st}`), stage);
      }
      await settled(page);
      const { text, attrs } = await wordsOnScreen(page);
      for (const t of [text, ...attrs]) {
        const m = ENGLISH.exec(t);
        assert.equal(
          m,
          null,
          `${lesson}/${stage}: English “${m?.[0]}” in: ${m ? t.slice(Math.max(0, m.index - 60), m.index + 60) : ''}`,
        );
        const p = HALF_WIDTH.exec(t);
        assert.equal(
          p,
          null,
          `${lesson}/${stage}: half-width punctuation “${p?.[0]}” in: ${p ? t.slice(Math.max(0, p.index - 40), p.index + 40) : ''}`,
        );
      }
      for (const plot of await page.$$eval('.hm-plot', (ps) => ps.map((p) => p.getAttribute('aria-roledescription')))) {
        assert.equal(plot, '热力图', `${lesson}/${stage}: heatmap description`);
      }
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('the list above covers every chapter the page offers', async () => {
  const page = await lab.open('lang=zh');
  assert.deepEqual(
    (await page.$$eval('#chapter-nav a[data-lesson]', (bs) => bs.map((b) => b.dataset.lesson))).sort(),
    [...LESSONS].sort(),
  );
  await page.close();
});
