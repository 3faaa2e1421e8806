// The position chapter in headless Chromium: 我 爱 你 vs 你 爱 我 give permuted scores without
// positions and different ones with sinusoidal encodings (switched by keyboard), the question
// answered in both languages, the sinusoidal table against sin/cos, RoPE pairs typed by
// keyboard, and 360 px without sideways scrolling.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { readMap, typeInto, answer, assertNoSideScroll } from './lesson-page.js';
import { visit, onePage } from './visit.js';

let lab;
let at; // one page (1280 px) for the tests that need no fresh one, moved by its link
before(async () => {
  lab = await start();
  at = onePage(lab);
});
after(async () => {
  await lab?.close();
});

const Q = '[data-predict="position/shuffle"]';

for (const lang of ['en', 'zh']) {
  test(`${lang}: without positions the scores are only permuted; with sinusoidal encodings they differ`, async () => {
    const page = await lab.open(`lesson=position&lang=${lang}&stage=shuffle`);
    assert.match(await page.textContent('h2'), lang === 'en' ? /Position/ : /位置编码/);
    const fb = await answer(page, Q, lang === 'en' ? 'yes, the same numbers, reordered' : '是，数值相同，只是顺序变了');
    assert.match(fb, lang === 'en' ? /^Right\./ : /^答对了。/);
    const a = await readMap(page, '.map-pos-scoresA');
    const b = await readMap(page, '.map-pos-scoresB');
    assert.deepEqual(b.rows, ['你', '爱', '我']);
    const perm = [2, 1, 0];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.equal(b.text[i][j], a.text[perm[i]][perm[j]]);
    assert.match(await page.textContent('.perm-list'), /你 1 → 3/);

    // sinusoidal encodings on, by keyboard
    const box = page.getByLabel(
      lang === 'en' ? 'Add sinusoidal position encodings to the token vectors' : '在词向量上加上正弦位置编码',
    );
    await box.focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => /posPE=1/.test(location.hash));
    const a2 = await readMap(page, '.map-pos-scoresA');
    const b2 = await readMap(page, '.map-pos-scoresB');
    let differs = false;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) differs ||= b2.text[i][j] !== a2.text[perm[i]][perm[j]];
    assert.ok(differs, 'with positions the scores are no longer a permutation');
    assert.notDeepEqual(a2.values, a.values);
    // The question, answered, is locked (kit/predict.js): with positions it says what the engine
    // answers for the settings on screen.
    assert.match(
      await page.textContent(`${Q} .predict-feedback`),
      lang === 'en'
        ? /^With the settings on screen the engine’s answer is no, some numbers change\./
        : /^按现在的设置，引擎的答案是：不是，有些数值变了。/,
    );
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('the sinusoidal table is sin/cos(p / 10000^(2i/d)); n and d typed by keyboard', async () => {
  const page = await at('lesson=position&lang=en&stage=sinusoidal');
  await typeInto(page, 'Positions n', 6);
  await typeInto(page, 'Dimensions d', 4);
  await page.waitForFunction(() => /posN=6/.test(location.hash) && /posDim=4/.test(location.hash));
  const m = await readMap(page, '.map-pos-sin');
  assert.deepEqual([m.rows.length, m.cols.length], [6, 4]);
  m.values.forEach((r, p) =>
    r.forEach((x, c) => {
      const angle = p / 10000 ** ((c - (c % 2)) / 4);
      const want = c % 2 ? Math.cos(angle) : Math.sin(angle);
      assert.ok(Math.abs(x - want) <= 0.006, `PE[${p}, ${c}] shown ${x}, want ${want}`);
    }),
  );
  assert.deepEqual(page.errors, []);
});

test('RoPE: two pairs with the same offset give the same number; another offset another', async () => {
  const page = await at('lesson=position&lang=en&stage=rope');
  const lines = async () => page.$$eval('.rope-pairs p', (ps) => ps.map((p) => p.textContent));
  let [l1, l2] = await lines();
  const value = (l) => l.match(/= (\S+)/)[1];
  assert.match(l1, /^q_5 · k_2 = .* \(m − n = 3\)$/);
  assert.equal(value(l1), value(l2));
  assert.match(await page.textContent('section[aria-labelledby$="rope"] .pos-verdict'), /Same offset, same number/);
  await typeInto(page, 'm (second pair)', 403);
  await typeInto(page, 'n (second pair)', 400);
  await page.waitForFunction(() => /posN2=400/.test(location.hash));
  [l1, l2] = await lines();
  assert.match(l2, /q_403 · k_400/);
  const number = (l) => Number(value(l).replace('−', '-')); // the page writes a minus sign
  assert.ok(Number.isFinite(number(l1)) && Math.abs(number(l1) - number(l2)) < 2e-4, `${l1} vs ${l2}`);
  await typeInto(page, 'n (second pair)', 401);
  await page.waitForFunction(() => /posN2=401/.test(location.hash));
  assert.match(await page.textContent('section[aria-labelledby$="rope"] .pos-verdict'), /Different offsets/);
  assert.deepEqual(page.errors, []);
});

// tests/e2e/layout.test.js opens every step at 360 px in both languages as it opens: here the
// shuffle step with its answer shown, which it does not reach.
test('at 360 px the shuffle step with its answer fits without sideways scrolling, in both languages', async () => {
  const page = await lab.open('lesson=position&lang=en&stage=sinusoidal', { width: 360, height: 800 });
  for (const lang of ['en', 'zh']) {
    await visit(page, `lesson=position&lang=${lang}&stage=shuffle`);
    if (await page.isVisible('.predict-show')) await page.click('.predict-show');
    await assertNoSideScroll(page, `${lang} shuffle`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
