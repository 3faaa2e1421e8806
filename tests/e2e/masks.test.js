// The Masks chapter in headless Chromium, against the built page (dist/).
// The weights on screen are compared with a double-precision softmax written here from the
// preset vectors, and with what each mask must give (exact zeros, uniform rows, NaN).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { onePage } from './visit.js';
import { PRESETS } from '../../web/src/lesson/example.js';

let lab;
let at; // one page (1280 px) for the tests that need no fresh one, moved by its link
before(async () => {
  lab = await start();
  at = onePage(lab);
});
after(async () => {
  await lab?.close();
});

// ---- double-precision reference -----------------------------------------------------------------

// Scaled dot-product scores of a preset, in double: (n_q, n_k).
function refScores(id) {
  const p = PRESETS[id];
  return p.Q.map((q) => p.K.map((k) => q.reduce((a, x, d) => a + x * k[d], 0) / Math.sqrt(p.dk)));
}

// Softmax of one row over the allowed keys (allowed[j] false = blocked, weight 0).
function refSoftmax(row, allowed = row.map(() => true)) {
  const m = Math.max(...row.filter((_, j) => allowed[j]));
  const e = row.map((x, j) => (allowed[j] ? Math.exp(x - m) : 0));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

// ---- reading the page ----------------------------------------------------------------------------

// A number as the page prints it: "−0.60", "−∞", "NaN", "7.1e-3".
function parseShown(s) {
  const t = s.trim().replace('\u2212', '-');
  if (t === '-\u221e') return -Infinity;
  if (t === '+\u221e') return Infinity;
  if (t === 'NaN') return NaN;
  const x = Number(t);
  assert.ok(Number.isFinite(x), `unreadable number on screen: "${s}"`);
  return x;
}

// The numbers of one of the chapter's heatmaps (mask, masked, weights), from its accessible table.
async function readMap(page, name) {
  const sel = `.mk-map-${name}`;
  const toggle = page.locator(`${sel} .hm-toggle`);
  await toggle.click();
  const text = await page.$eval(`${sel} table`, (t) =>
    [...t.tBodies[0].rows].map((r) => [...r.cells].slice(1).map((c) => c.textContent)),
  );
  await toggle.click();
  return text.map((r) => r.map(parseShown));
}

// Clicks cell (i, j) of a (rows, cols) heatmap: the plot is one element; the cell is found from the position.
async function clickCell(page, name, [rows, cols], i, j) {
  const plot = page.locator(`.mk-map-${name} .hm-plot`);
  const box = await plot.boundingBox();
  await plot.click({ position: { x: ((j + 0.5) * box.width) / cols, y: ((i + 0.5) * box.height) / rows } });
}

function assertRowClose(shown, expected, tol, what) {
  assert.equal(shown.length, expected.length, `${what}: length`);
  shown.forEach((x, j) =>
    assert.ok(Math.abs(x - expected[j]) <= tol, `${what}[${j}]: shown ${x}, expected ${expected[j]}`),
  );
}

// ---- tests -------------------------------------------------------------------------------------------

test('padding with −∞ zeroes the padded key column; with a 0 fill the column still gets weight, flagged', async () => {
  const page = await at('lesson=masks&lang=en&preset=cat-fish&stage=padding');
  const S = refScores('cat-fish');
  await page.click('.pad-key[data-key="3"]'); // "fish" is padding
  assert.equal(await page.getAttribute('.pad-key[data-key="3"]', 'aria-pressed'), 'true');
  let w = await readMap(page, 'weights');
  w.forEach((row, i) => {
    assert.equal(row[3], 0, `row ${i}: padded key weight must be exactly 0`);
    assertRowClose(row, refSoftmax(S[i], [true, true, true, false]), 0.006, `row ${i} (−∞)`);
  });
  assert.match(await page.textContent('.mk-padding .mk-note'), /exactly 0/);
  assert.equal(await page.locator('.mk-map-weights .hm-mark.hl').count(), 0);

  await page.check('input[name="mk-fill"][value="zero"]');
  await page.waitForFunction(() => /fill=zero/.test(location.hash));
  w = await readMap(page, 'weights');
  w.forEach((row, i) => {
    assert.ok(row[3] > 0, `row ${i}: with a 0 fill the padded key still gets weight`);
    // The blocked score became 0, an ordinary score: softmax over [s0, s1, s2, 0].
    assertRowClose(row, refSoftmax([S[i][0], S[i][1], S[i][2], 0]), 0.006, `row ${i} (0 fill)`);
  });
  assert.match(await page.textContent('.mk-padding .mk-note.bad'), /Leak: 3 blocked cells still receive weight/);
  assert.equal(await page.locator('.mk-map-weights .hm-mark.hl').count(), 3, 'the three leaking cells are outlined');

  // −1e9 blocks as well as −∞ when the row still has allowed keys.
  await page.check('input[name="mk-fill"][value="large-negative"]');
  w = await readMap(page, 'weights');
  w.forEach((row, i) => assert.equal(row[3], 0, `row ${i}: −1e9 fill`));
  assert.deepEqual(page.errors, []);
});

test('every step but the two-token check leads with the weights, the mask after them', async () => {
  // Fails before: each step led with the 0/1 mask (a solid block of 1s by default).
  const page = await lab.open('lesson=masks&lang=en&stage=padding', { width: 1280, height: 800 });
  for (const stage of ['padding', 'causal', 'custom', 'blocked']) {
    await page.click(`.stepper button.step[data-stage="${stage}"]`);
    await page.waitForSelector(`.mk-${stage} .step-figure .mk-map-weights[data-figure="main"]`);
    const order = await page.$eval(`.mk-${stage}`, (sec) => {
      const y = (sel) => sec.querySelector(sel).getBoundingClientRect().top;
      return { weights: y('.mk-map-weights'), mask: y('.mk-map-mask') };
    });
    assert.ok(order.weights < order.mask, `${stage}: weights at ${order.weights} px, mask at ${order.mask} px`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the causal step opens on a sequence attending to itself; one causal mask at a time', async () => {
  // The chapter's example is cross-attention (3 Chinese queries, 4 English keys): the causal step
  // shows 猫 追 老鼠 instead, and says why. Fails before: it opened on the 3 × 4 cross-attention.
  const page = await at('lesson=masks&lang=en&stage=causal');
  assert.match(await page.textContent('.mk-cross-hint'), /cross-attention.*This step shows 猫 追 老鼠/);
  const labels = await page.$$eval('.mk-map-weights .hm-cols span', (els) => els.map((e) => e.textContent));
  assert.deepEqual(labels, ['猫', '追', '老鼠']);
  const S = refScores('cat-chase');
  const causal = page.getByLabel('Causal mask (query i sees keys 1…i)');
  const reversed = page.getByLabel(/Reversed causal mask/);
  await causal.check();
  await page.waitForFunction(() => /[#&]causal=1/.test(location.hash));
  let w = await readMap(page, 'weights');
  for (let i = 0; i < 3; i++) {
    for (let j = i + 1; j < 3; j++) assert.equal(w[i][j], 0, `(${i}, ${j}) above the diagonal`);
    assertRowClose(
      w[i],
      refSoftmax(
        S[i],
        [0, 1, 2].map((j) => j <= i),
      ),
      0.006,
      `causal row ${i}`,
    );
  }
  assert.equal(w[0][0], 1, 'the first query sees only itself');
  assert.match(await page.textContent('.mk-causal .mk-note'), /no query reads the future/);

  // Choosing the reversed mask switches the causal one off (fails before: both could be ticked).
  await reversed.check();
  await page.waitForFunction(() => /reverseCausal=1/.test(location.hash) && !/[#&]causal=1/.test(location.hash));
  assert.equal(await causal.isChecked(), false);
  w = await readMap(page, 'weights');
  let above = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < i; j++) assert.equal(w[i][j], 0, `(${i}, ${j}) below the diagonal is blocked`);
    for (let j = i + 1; j < 3; j++) {
      assert.ok(w[i][j] > 0, `(${i}, ${j}) leaks the future`);
      above++;
    }
    assertRowClose(
      w[i],
      refSoftmax(
        S[i],
        [0, 1, 2].map((j) => j >= i),
      ),
      0.006,
      `reversed row ${i}`,
    );
  }
  assert.equal(above, 3);
  assert.match(await page.textContent('.mk-causal .mk-note.bad'), /Future leak: 3 cells above the diagonal/);
  assert.equal(await page.locator('.mk-map-weights .hm-mark.hl').count(), 3);

  // The right causal mask with a 0 fill leaks the future too: the fill, not the mask, is wrong.
  await causal.check();
  await page.check('input[name="mk-fill"][value="zero"]');
  await page.waitForFunction(() => /fill=zero/.test(location.hash) && /[#&]causal=1/.test(location.hash));
  assert.ok(!/reverseCausal=1/.test(await page.evaluate(() => location.hash)));
  w = await readMap(page, 'weights');
  for (let i = 0; i < 3; i++)
    assertRowClose(w[i], refSoftmax(S[i].map((x, j) => (j <= i ? x : 0))), 0.006, `causal + 0 fill row ${i}`);
  assert.match(
    await page.textContent('.mk-causal .mk-note.bad'),
    /Future leak: 3 cells.*a 0 fill does not block anything/,
  );

  // The chapter can take the self-attention example for every step, the causal choice kept.
  await page.getByRole('button', { name: 'Use 猫 追 老鼠 in every step' }).click();
  await page.waitForFunction(() => /preset=cat-chase/.test(location.hash) && /[#&]causal=1/.test(location.hash));
  assert.ok(await page.locator('.mk-cross-hint').isHidden());
  assert.deepEqual(page.errors, []);
});

test('a link with both causal masks says what that does', async () => {
  const page = await at('lesson=masks&lang=en&preset=cat-chase&stage=causal&causal=1&reverseCausal=1');
  await page.waitForSelector('.mk-causal .mk-note.bad');
  const w = await readMap(page, 'weights');
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.equal(w[i][j], i === j ? 1 : 0, `(${i}, ${j})`);
  assert.match(await page.textContent('.mk-causal .mk-note.bad'), /Both masks are on.*only its own key/);
  assert.deepEqual(page.errors, []);
});

test('a custom mask is drawn by clicking and with the keyboard', async () => {
  const page = await at('lesson=masks&lang=en&preset=cat-fish&stage=custom');
  const S = refScores('cat-fish');
  await clickCell(page, 'mask', [3, 4], 0, 1);
  await page.waitForFunction(() => /customMask=/.test(location.hash));
  let w = await readMap(page, 'weights');
  assert.equal(w[0][1], 0);
  assertRowClose(w[0], refSoftmax(S[0], [true, false, true, true]), 0.006, 'row 0 without cat');
  // Keyboard: the click left the cursor on (0, 1); focus the mask, → moves to (0, 2), Space blocks it.
  await page.focus('.mk-map-mask .hm-plot');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => /customMask=1,0,0,1/.test(location.hash));
  w = await readMap(page, 'weights');
  assertRowClose(w[0], refSoftmax(S[0], [true, false, false, true]), 0.006, 'row 0 without cat and eats');
  // Clicking a blocked cell allows it again; the clear button restores everything.
  await clickCell(page, 'mask', [3, 4], 0, 1);
  w = await readMap(page, 'weights');
  assert.ok(w[0][1] > 0);
  await page.getByRole('button', { name: 'Allow every cell again' }).click();
  await page.waitForFunction(() => !/customMask=/.test(location.hash));
  assert.deepEqual(page.errors, []);
});

test('a fully blocked row: zeros with −∞, uniform with −1e9, NaN with the naive softmax', async () => {
  const page = await at('lesson=masks&lang=en&preset=cat-fish&stage=blocked');
  assert.match(await page.textContent('.mk-blocked .mk-note'), /No query row is fully blocked/);
  await page.selectOption('#mk-block-row', '1');
  await page.getByRole('button', { name: 'Block every key for this query' }).click();
  await page.waitForSelector('.mk-blocked tr[data-case="neg-inf"]');
  const cells = (c) =>
    page.$$eval(`.mk-blocked tr[data-case="${c}"] td`, (tds) =>
      tds.map((td) =>
        [...td.querySelectorAll('.vec-cell')]
          .map((e) => e.textContent)
          .concat(td.querySelector('.vec-cell') ? [] : [td.textContent]),
      ),
    );
  const negInf = await cells('neg-inf');
  assert.deepEqual(negInf[0].map(parseShown), [0, 0, 0, 0], 'weights');
  assert.deepEqual(negInf[1].map(parseShown), [0, 0, 0, 0], 'output');
  assert.equal(negInf[2][0], '1 (吃)', 'listed in fullyMaskedRows');
  const large = await cells('large-negative');
  assertRowClose(large[0].map(parseShown), [0.25, 0.25, 0.25, 0.25], 1e-6, '−1e9 weights');
  // Uniform weights: the output is the mean of the Value rows (computed here from the preset).
  const V = PRESETS['cat-fish'].V;
  assertRowClose(
    large[1].map(parseShown),
    V[0].map((_, d) => V.reduce((a, r) => a + r[d], 0) / 4),
    0.0006,
    '−1e9 output',
  );
  const naive = await cells('naive');
  assert.ok(naive[0].map(parseShown).every(Number.isNaN), 'naive weights are NaN');
  assert.equal(
    await page.locator('.mk-blocked tr[data-case="naive"] .vec-cell.flagged').count(),
    8,
    'NaN cells flagged',
  );
  // The main heatmap (−∞, stable) shows the zero row.
  const w = await readMap(page, 'weights');
  assert.deepEqual(w[1], [0, 0, 0, 0]);
  assert.deepEqual(page.errors, []);
});

test('the two-token check passes with −∞ and fails with a 0 fill', async () => {
  const page = await at('lesson=masks&lang=en&preset=cat-fish&stage=two-token');
  const V = PRESETS['cat-fish'].V;
  const vec = async (k) =>
    (
      await page.$$eval('.mk-two-vectors .vec-row', (rows) =>
        rows.map((r) => [...r.querySelectorAll('.vec-cell')].map((c) => c.textContent)),
      )
    )[k].map(parseShown);
  // "cat" is masked: the output must be the Value of "The".
  assert.equal(await page.getAttribute('.mk-two-token .mk-note', 'data-result'), 'pass');
  assert.deepEqual(await vec(1), V[0], 'output = V[The]');
  assert.deepEqual(await vec(2), V[0]);
  // Mask "The" instead: the output is the Value of "cat".
  await page.check('input[name="mk-two"][value="0"]');
  await page.waitForFunction(() => /twoMasked=0/.test(location.hash));
  assert.deepEqual(await vec(1), V[1], 'output = V[cat]');
  assert.equal(await page.getAttribute('.mk-two-token .mk-note', 'data-result'), 'pass');
  // The 0 fill lets the masked token back in.
  await page.check('input[name="mk-fill"][value="zero"]');
  await page.waitForFunction(() => /fill=zero/.test(location.hash));
  assert.equal(await page.getAttribute('.mk-two-token .mk-note', 'data-result'), 'fail');
  assert.match(await page.textContent('.mk-two-token .mk-note'), /Fail: the output differs from the Value of “cat”/);
  assert.deepEqual(page.errors, []);
});

test('switching the language keeps the masks, the fill and the step', async () => {
  const page = await lab.open('lesson=masks&lang=en&preset=cat-fish&stage=padding');
  await page.click('.pad-key[data-key="0"]');
  await page.check('input[name="mk-fill"][value="zero"]');
  const before = await readMap(page, 'weights');
  await page.click('.lang-switch button[data-lang="zh"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.evaluate(() => location.hash), /keyPadding=1,0,0,0/);
  assert.match(await page.evaluate(() => location.hash), /fill=zero/);
  assert.equal(await page.getAttribute('.step[data-stage="padding"]', 'aria-current'), 'step');
  assert.equal(await page.getAttribute('.pad-key[data-key="0"]', 'aria-pressed'), 'true');
  assert.ok(await page.isChecked('input[name="mk-fill"][value="zero"]'));
  assert.match(await page.textContent('.mk-padding .mk-note.bad'), /泄漏：有 3 个被屏蔽的格子/);
  assert.deepEqual(await readMap(page, 'weights'), before);
  assert.deepEqual(page.errors, []);
  await page.close();
});
