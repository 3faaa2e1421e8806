// Tokens carry their vectors, in headless Chromium: reordering 猫 追 老鼠 permutes the scores
// on screen, a new word is marked "drawn" and gets its own non-zero vector.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

// The scores heatmap's accessible table: { rows, cols, text }.
async function scoresTable(page) {
  const toggle = page.locator('.map-scores .hm-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return page.$eval('.map-scores table', (t) => ({
    cols: [...t.tHead.rows[0].cells].slice(1).map((c) => c.textContent),
    rows: [...t.tBodies[0].rows].map((r) => r.cells[0].textContent),
    text: [...t.tBodies[0].rows].map((r) => [...r.cells].slice(1).map((c) => c.textContent)),
  }));
}

// Types a token list into a field (by keyboard) and commits it with Enter... and Tab.
async function typeTokens(page, label, text) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill('');
  await input.focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Tab');
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: reordering permutes the scores; a new word is drawn, not zeros`, async () => {
    const page = await lab.open(`lesson=pipeline&lang=${lang}&preset=cat-chase&stage=scores`);
    const before = await scoresTable(page);
    assert.deepEqual(before.rows, ['猫', '追', '老鼠']);
    const badges = await page.$$eval('.token-sources .src-badge', (b) => b.map((x) => x.textContent));
    assert.equal(badges.length, 6);
    assert.equal(new Set(badges).size, 1, 'every preset word is hand-made');

    const qLabel = lang === 'en' ? 'Query tokens' : 'Query 词';
    const kLabel = lang === 'en' ? 'Key / value tokens' : 'Key / Value 词';
    await typeTokens(page, qLabel, '老鼠 追 猫');
    await typeTokens(page, kLabel, '老鼠 追 猫');
    await page.waitForFunction(() => document.querySelector('.map-scores table tbody tr th')?.textContent === '老鼠');
    const after = await scoresTable(page);
    const perm = [2, 1, 0];
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        assert.equal(after.text[i][j], before.text[perm[i]][perm[j]], `score ${i},${j}`);
      }

    await typeTokens(page, kLabel, '老鼠 追 猫 狗');
    await page.waitForFunction(() => document.querySelector('.map-scores table thead tr')?.cells.length === 5);
    const added = await scoresTable(page);
    const dogColumn = added.text.map((r) => r[3]);
    assert.ok(
      dogColumn.some((x) => Number(x.replace('\u2212', '-')) !== 0),
      `狗 has a non-zero score: ${dogColumn}`,
    );
    const drawn = await page.$$eval('.token-sources .src-drawn', (b) => b.map((x) => x.textContent));
    assert.equal(drawn.length, 1);
    assert.match(drawn[0], lang === 'en' ? /狗.*drawn/ : /狗.*随机生成/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
