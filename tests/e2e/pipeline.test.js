// The pipeline chapter in headless Chromium, against the built page (dist/).
// Numbers on screen are checked against the double-precision reference (tests/js/reference.js)
// of vectors the test writes itself (typed into the link), or against literal values; no
// expectation is read from the page's own presets (lesson/example.js).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready } from './harness.js';
import { visit, onePage } from './visit.js';
import { assertNoSideScroll } from './lesson-page.js';
import { loadEngine } from '../../web/src/engine.js';
import { tokenStream } from '../../web/src/lesson/embeddings.js';
import { attendRef, softmaxRef } from '../js/reference.js';

let lab;
let at; // one page (1280 px) for the tests that need no fresh one, moved by its link
let engine;
before(async () => {
  lab = await start();
  at = onePage(lab);
  engine = await loadEngine();
});
after(async () => {
  await lab?.close();
});

const STAGES = ['scores', 'scaled', 'masked', 'weights', 'output'];

// The step on screen (each step is a section of its own; the others are hidden).
const SHOWN = 'section[data-step]:not([hidden])';

// The numbers of one heatmap, read from its accessible table: { rows, cols, values }.
async function readTable(page, map) {
  const sel = `.map-${map}`;
  await page.waitForSelector(sel);
  const toggle = page.locator(`${sel} .hm-toggle`);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const out = await page.$eval(`${sel} table`, (t) => ({
    cols: [...t.tHead.rows[0].cells].slice(1).map((c) => c.textContent),
    rows: [...t.tBodies[0].rows].map((r) => r.cells[0].textContent),
    text: [...t.tBodies[0].rows].map((r) => [...r.cells].slice(1).map((c) => c.textContent)),
  }));
  await toggle.click(); // back to the heatmap
  out.values = out.text.map((r) => r.map(parseShown));
  return out;
}

// A number as the page prints it: "−0.60", "−∞", "+∞", "NaN", "1.0e-3".
function parseShown(s) {
  const t = s.replace('\u2212', '-');
  if (t === '-\u221e') return -Infinity;
  if (t === '+\u221e') return Infinity;
  if (t === 'NaN') return NaN;
  const x = Number(t);
  assert.ok(Number.isFinite(x), `unreadable number on screen: "${s}"`);
  return x;
}

// Shown with 2 decimals (3 for weights): equal to the engine's float to that precision.
function assertClose(shown, expected, tol, what) {
  assert.equal(shown.length, expected.length, `${what}: rows`);
  shown.forEach((r, i) => {
    assert.equal(r.length, expected[i].length, `${what}: cols of row ${i}`);
    r.forEach((x, j) => {
      const e = expected[i][j];
      if (!Number.isFinite(e) || !Number.isFinite(x))
        assert.ok(Object.is(x, e) || (Number.isNaN(x) && Number.isNaN(e)), `${what}[${i}][${j}] ${x} vs ${e}`);
      else assert.ok(Math.abs(x - e) <= tol, `${what}[${i}][${j}]: shown ${x}, expected ${e}`);
    });
  });
}

// Double-precision reference (tests/js/reference.js): softmax(Q Kᵀ / √d_k) with key padding, and
// the output W V.
const reference = (Q, K, V, padding = []) =>
  attendRef({ query: Q, key: K, value: V, keyPadding: padding.length ? padding : undefined });

// Vectors of the test's own for the tokens of the translation example (The cat eats fish -> 猫 吃
// 鱼), typed into the link: each query lies along the feature of its key, so 猫 lands on cat, 吃
// on eats and 鱼 on fish.
const TYPED = {
  Q: [
    [3, 0.5, 0, -1],
    [0, 3.5, 1, -0.5],
    [1, 0, 3, -1],
  ],
  K: [
    [0.2, 0, 0.1, 1],
    [1, 0.2, 0.1, 0],
    [0.1, 1, 0.4, 0],
    [0.4, 0, 1, 0.1],
  ],
  V: [
    [0, 0, 0, 1],
    [1, 0, 0.2, 0],
    [0, 1, 0.1, 0],
    [0.5, 0, 1, 0],
  ],
};
const typedHash = ({ Q, K, V }) =>
  `inputMode=typed&dk=${Q[0].length}&` +
  Object.entries({ Q, K, V })
    .map(([name, m]) => `${name}=${m.map((r) => r.join(',')).join(';')}`)
    .join('&');

// Clicks cell (i, j) of a heatmap, by position on its plot.
async function clickCell(page, map, i, j) {
  const plot = page.locator(`.map-${map} .hm-plot`);
  const { rows, cols } = await plot.evaluate((el) => ({
    rows: el.querySelector('canvas').height,
    cols: el.querySelector('canvas').width,
  }));
  const box = await plot.boundingBox();
  await plot.click({ position: { x: ((j + 0.5) * box.width) / cols, y: ((i + 0.5) * box.height) / rows } });
}

const hashOf = (page) => page.evaluate(() => location.hash);

// The page writes the hash at most every 200 ms: wait until it matches.
async function waitHash(page, re) {
  try {
    await page.waitForFunction((src) => new RegExp(src).test(location.hash), re.source, { timeout: 3000 });
  } catch {
    assert.match(await hashOf(page), re);
  }
}

test('the chapter loads with no console errors and shows its first step', async () => {
  const page = await at('lesson=pipeline');
  assert.match(await page.textContent('h2'), /pipeline/i);
  assert.equal(await page.getAttribute('.step[aria-current="step"]', 'data-stage'), 'scores');
  assert.match(await hashOf(page), /lesson=pipeline/);
  assert.deepEqual(page.errors, []);
});

test('every stage is reached with the keyboard alone', async () => {
  const page = await lab.open('lesson=pipeline&lang=en');
  // Tab until the focus is on a step button.
  for (let k = 0; k < 60; k++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => !!document.activeElement.closest('.steps'))) break;
  }
  assert.equal(await page.evaluate(() => document.activeElement.dataset.stage), 'scores');
  for (let k = 1; k < STAGES.length; k++) {
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getAttribute('.step[aria-current="step"]', 'data-stage'), STAGES[k]);
    await waitHash(page, new RegExp(`stage=${STAGES[k]}`));
    assert.equal(await page.evaluate(() => document.activeElement.dataset.stage), STAGES[k], 'focus follows the step');
  }
  await page.keyboard.press('ArrowRight'); // past the end: stays
  assert.equal(await page.getAttribute('.step[aria-current="step"]', 'data-stage'), 'output');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('.step[aria-current="step"]', 'data-stage'), 'weights');
  // Into the weights heatmap: Tab to its grid, move with arrows, Enter selects the cell.
  for (let k = 0; k < 40; k++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => !!document.activeElement.closest('.map-weights .hm-plot'))) break;
  }
  assert.ok(
    await page.evaluate(() => !!document.activeElement.closest('.map-weights .hm-plot')),
    'the weights heatmap takes the focus',
  );
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await waitHash(page, /selRow=1&selCol=2/);
  // The score it came from is highlighted in the masked-scores heatmap.
  assert.equal(await page.locator('.map-masked .hm-mark.hl').count(), 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the numbers on screen are the double-precision reference’s, for vectors typed into the link', async () => {
  const page = await at(`lesson=pipeline&lang=en&preset=cat-fish&${typedHash(TYPED)}&stage=scores`);
  const ref = reference(TYPED.Q, TYPED.K, TYPED.V);
  const scores = await readTable(page, 'scores');
  assert.deepEqual(scores.rows, ['猫', '吃', '鱼']);
  assert.deepEqual(scores.cols, ['The', 'cat', 'eats', 'fish']);
  assertClose(scores.values, ref.scores, 0.006, 'scores vs reference');
  for (const [stage, key] of [
    ['scaled', 'scaled'],
    ['weights', 'weights'],
    ['output', 'output'],
  ]) {
    await page.click(`.step[data-stage="${stage}"]`);
    assertClose((await readTable(page, key)).values, ref[key], 0.006, `${key} vs reference`);
  }
  // The filled formula for the selected scaled cell shows its score and scaled score.
  await page.click('.step[data-stage="scaled"]');
  await clickCell(page, 'scaled', 0, 1);
  const formula = await page.textContent('.formula.live .katex-mathml');
  const fmt2 = (x) => x.toFixed(2);
  assert.ok(formula.includes(fmt2(ref.scores[0][1])), `formula ${formula} has the score ${fmt2(ref.scores[0][1])}`);
  assert.ok(formula.includes(fmt2(ref.scaled[0][1])), `formula has the scaled score ${fmt2(ref.scaled[0][1])}`);
  assert.deepEqual(page.errors, []);
});

// The softmax cell's live formula writes out the numerator's and the sum's values: each equals
// a double-precision reference (e^(m_ij − max_k m_ik), Σ_k e^(m_ik − max_k m_ik)) to the digits
// shown, and so does the weight; a padded key adds e^(−∞) = 0 to the sum.
test('the softmax formula’s numerator, row sum and weight are a double-precision reference’s', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await at(
      `lesson=pipeline&lang=${lang}&preset=cat-fish&${typedHash(TYPED)}&stage=weights&keyPadding=0,0,0,1`,
    );
    const ref = reference(TYPED.Q, TYPED.K, TYPED.V, [false, false, false, true]);
    for (const [i, j] of [
      [0, 1],
      [2, 0],
      [1, 3],
    ]) {
      await clickCell(page, 'weights', i, j);
      const row = ref.masked[i];
      const top = Math.max(...row);
      const want = {
        num: Math.exp(row[j] - top),
        sum: row.reduce((a, x) => a + Math.exp(x - top), 0),
        w: ref.weights[i][j],
      };
      const name = `w_{\\text{${['猫', '吃', '鱼'][i]}},\\,\\text{${['The', 'cat', 'eats', 'fish'][j]}}}`;
      await page.waitForFunction(
        (n) => [...document.querySelectorAll('.formula.live annotation')].some((a) => a.textContent.startsWith(n)),
        name,
      );
      // The TeX, its numbers written plainly ({\rule[-0.25em]{0em}{1em}\text{−0.30}} as -0.30).
      const texts = await page.$$eval('.formula.live annotation', (as) =>
        as.map((a) =>
          a.textContent.replace(/\{\\rule\[-0\.25em\]\{0em\}\{1em\}\\text\{([^{}]*)\}\}/g, (_, x) =>
            x.replace('−', '-'),
          ),
        ),
      );
      const cell = texts.find((t) => t.startsWith(name) && /\\dfrac\{[^{}]+\}\{[^{}]+\} = [^ ]+$/.test(t));
      assert.ok(cell, `${lang} (${i}, ${j}): a formula ends with numerator / sum = weight: ${texts.join(' | ')}`);
      const [num, sum, w] = /\\dfrac\{([^{}]+)\}\{([^{}]+)\} = ([^ ]+)$/.exec(cell).slice(1).map(Number);
      assert.ok(Math.abs(num - want.num) <= 0.5e-4 + 1e-9, `${lang} (${i}, ${j}): numerator ${num} vs ${want.num}`);
      assert.ok(Math.abs(sum - want.sum) <= 0.5e-3 + 1e-9, `${lang} (${i}, ${j}): sum ${sum} vs ${want.sum}`);
      assert.ok(Math.abs(w - want.w) <= 0.5e-3 + 1e-9, `${lang} (${i}, ${j}): weight ${w} vs ${want.w}`);
      assert.ok(
        cell.includes(`- ${top.toFixed(2)}}`),
        `${lang} (${i}, ${j}): the row max ${top.toFixed(2)} in ${cell}`,
      );
    }
    assert.deepEqual(page.errors, []);
  }
});

test('the translation preset makes the lesson’s point: 猫 lands on cat, 吃 on eats, 鱼 on fish', async () => {
  const page = await at('lesson=pipeline&lang=en&preset=cat-fish&stage=weights');
  const w = await readTable(page, 'weights');
  assert.deepEqual(w.rows, ['猫', '吃', '鱼']);
  assert.deepEqual(w.cols, ['The', 'cat', 'eats', 'fish']);
  assert.deepEqual(
    w.values.map((r) => r.indexOf(Math.max(...r))),
    [1, 2, 3],
  );
  w.values.forEach((r, i) =>
    assert.ok(Math.abs(r.reduce((a, b) => a + b, 0) - 1) <= 0.02, `row ${i} sums to 1 (4 cells shown to 2 places)`),
  );
  assert.deepEqual(page.errors, []);
});

test('the Scale step shows the weights without and with the scale, both against a double-precision reference', async () => {
  const page = await at(`lesson=pipeline&lang=en&preset=cat-fish&${typedHash(TYPED)}&stage=scaled&keyPadding=0,0,0,1`);
  const padding = [false, false, false, true];
  const ref = reference(TYPED.Q, TYPED.K, TYPED.V, padding);
  // Without the scale: softmax of the raw scores, padding as set.
  const rawWeights = ref.scores.map((r) => softmaxRef(r.map((v, j) => (padding[j] ? -Infinity : v))));
  const unscaled = await readTable(page, 'unscaledWeights');
  assert.deepEqual(unscaled.cols, ['The', 'cat', 'eats', 'fish']);
  assertClose(unscaled.values, rawWeights, 0.006, 'unscaled weights vs reference');
  const scaled = await readTable(page, 'weights');
  assertClose(scaled.values, ref.weights, 0.006, 'scaled weights vs reference');
  // The two differ (d_k = 4: the scale halves every score).
  assert.ok(Math.abs(unscaled.values[0][1] - scaled.values[0][1]) > 0.05);
  assert.match(await page.textContent('.map-unscaledWeights .map-title'), /without the scale/);
  assert.match(await page.textContent('.map-weights .map-title'), /with the scale/);
  // The note reads the selected row: 猫's top key without and with the scale.
  const note = await page.textContent('.note');
  assert.ok(
    note.includes(
      `“猫” puts ${rawWeights[0][1].toFixed(2)} of its attention on “cat”; with it, ${ref.weights[0][1].toFixed(2)}`,
    ),
    note,
  );
  // Typed scores have no scale: only the scores are shown.
  await visit(page, 'lesson=pipeline&lang=en&preset=hand-check&stage=scaled');
  assert.equal(await page.locator('.map-unscaledWeights').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('a causal mask on the cross-attention example is flagged; on self-attention it is not', async () => {
  const page = await at('lesson=pipeline&lang=en&preset=cat-fish&stage=masked');
  const warning = '.pl-cross-causal';
  assert.equal(await page.isVisible(warning), false);
  await page.getByLabel(/^Causal/).check();
  await waitHash(page, /causal=1/);
  assert.equal(await page.isVisible(warning), true);
  assert.match(await page.textContent(warning), /cross-attention.*causal mask/);
  // Self-attention: the causal mask is what it is for.
  await page.getByLabel('Example', { exact: true }).selectOption('cat-chase');
  await page.getByLabel(/^Causal/).check();
  await waitHash(page, /preset=cat-chase.*causal=1|causal=1.*preset=cat-chase/);
  assert.equal(await page.isVisible(warning), false);
  // In Chinese too.
  await visit(page, 'lesson=pipeline&lang=zh&preset=cat-fish&causal=1');
  assert.match(await page.textContent(warning), /交叉注意力/);
  assert.deepEqual(page.errors, []);
});

// Each token's vectors: the engine's draw of its own stream (a hash of role and text) from the seed.
const tokenRows = (tokens, role, cols, seed) =>
  tokens.map((t) => Array.from(engine.randomMatrix({ rows: 1, cols, seed, stream: tokenStream(role, t) }).data));

test('random vectors come from the seed; padding gives −∞ and zero weight; the link reproduces them', async () => {
  const tokens = ['a', 'b', 'c', 'd', 'e'];
  const page = await at(
    `lesson=pipeline&lang=en&preset=random&inputMode=random&seed=7&dk=8&queryTokens=${tokens.join(',')}&keyTokens=${tokens.join(',')}&keyPadding=0,0,1,0,0&stage=masked`,
  );
  const Q = tokenRows(tokens, 'q', 8, 7);
  const K = tokenRows(tokens, 'k', 8, 7);
  const V = tokenRows(tokens, 'v', 8, 7);
  const ref = reference(Q, K, V, [false, false, true, false, false]);
  const masked = await readTable(page, 'masked');
  assertClose(masked.values, ref.masked, 0.006, 'masked vs reference');
  assert.ok(
    masked.text.every((r) => r[2] === '\u2212\u221e'),
    'padding column shows −∞',
  );
  await page.click('.step[data-stage="weights"]');
  const weights = await readTable(page, 'weights');
  assertClose(weights.values, ref.weights, 0.006, 'weights vs reference');
  assert.ok(
    weights.values.every((r) => r[2] === 0),
    'padding key gets zero weight',
  );

  // Reload: the hash alone reproduces the same numbers.
  await waitHash(page, /stage=weights/);
  const hash = await hashOf(page);
  assert.match(hash, /seed=7/);
  await page.reload();
  await ready(page);
  const again = await readTable(page, 'weights');
  assert.deepEqual(again.text, weights.text);
  assert.equal(await hashOf(page), hash);

  // Editing the seed through its field changes the numbers, and the hash.
  const seedInput = page.getByLabel('Seed', { exact: true });
  await seedInput.fill('8');
  await seedInput.press('Enter');
  await waitHash(page, /seed=8/);
  const other = await readTable(page, 'weights');
  const ref8 = reference(tokenRows(tokens, 'q', 8, 8), tokenRows(tokens, 'k', 8, 8), tokenRows(tokens, 'v', 8, 8), [
    false,
    false,
    true,
    false,
    false,
  ]);
  assertClose(other.values, ref8.weights, 0.006, 'weights for seed 8');
  assert.deepEqual(page.errors, []);
});

test('switching language changes the text and keeps the state', async () => {
  const page = await lab.open(
    'lesson=pipeline&lang=en&preset=random&inputMode=random&seed=11&stage=weights&selRow=2&selCol=1',
  );
  const before = await readTable(page, 'weights');
  const titleEn = await page.textContent('h2');
  await page.click('.lang-switch button[data-lang="zh"]');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  const titleZh = await page.textContent('h2');
  assert.notEqual(titleZh, titleEn);
  assert.match(titleZh, /[\u4e00-\u9fff]/);
  await waitHash(page, /lang=zh/);
  assert.match(await page.textContent(`${SHOWN} .stage-title`), /Softmax/);
  assert.match(await page.textContent('.explain'), /[\u4e00-\u9fff]/);
  const h = await hashOf(page);
  for (const part of ['lang=zh', 'seed=11', 'stage=weights', 'selRow=2', 'selCol=1', 'preset=random'])
    assert.ok(h.includes(part), `${part} in ${h}`);
  const after = await readTable(page, 'weights');
  assert.deepEqual(after.text, before.text);
  await page.click('.lang-switch button[data-lang="en"]');
  await waitHash(page, /lang=en/);
  assert.equal(await page.textContent('h2'), titleEn);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the default language follows the browser', async () => {
  const page = await lab.open('', { locale: 'zh-CN' });
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.match(await hashOf(page), /lang=zh/);
  await page.close();
});

test('a malformed hash shows the notice and falls back to defaults, without errors', async () => {
  const page = await at('lesson=pipeline&seed=abc&dk=0&fill=minus&Q=1,x&stage=nowhere&wat=1');
  const notice = page.locator('#notice');
  assert.ok(await notice.isVisible());
  const text = await notice.textContent();
  for (const k of ['seed=abc', 'dk=0', 'fill=minus', 'Q=1,x', 'stage=nowhere', 'wat=1'])
    assert.ok(text.includes(k), `${k} in notice`);
  assert.equal(await page.getAttribute('.step[aria-current="step"]', 'data-stage'), 'scores');
  const scores = await readTable(page, 'scores');
  assert.deepEqual(scores.rows, ['猫', '吃', '鱼'], 'the default example is drawn');
  assert.deepEqual(page.errors, []);
  const h = await hashOf(page);
  assert.ok(!h.includes('seed=abc') && !h.includes('wat'), 'the hash is rewritten with valid values');
});

test('bad input gets an inline message and the last valid numbers stay', async () => {
  const page = await at('lesson=pipeline&lang=en&preset=random&inputMode=random&stage=scores');
  const before = await readTable(page, 'scores');
  const hash = await hashOf(page);

  const q = page.getByLabel('Query tokens');
  await q.fill('   ');
  await q.press('Enter');
  await page.locator('.field-error', { hasText: 'at least one token' }).waitFor();
  assert.equal(await q.getAttribute('aria-invalid'), 'true');

  const many = Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ');
  const k = page.getByLabel('Key / value tokens');
  await k.fill(many);
  await k.press('Enter');
  await page.locator('.field-error', { hasText: 'At most 32 tokens' }).waitFor();

  const dk = page.getByLabel('d_k', { exact: true });
  await dk.fill('0');
  await dk.press('Enter');
  await page.locator('.field-error', { hasText: 'whole number from 1 to 64' }).waitFor();

  assert.equal(await hashOf(page), hash);
  assert.deepEqual((await readTable(page, 'scores')).text, before.text);

  // A non-number in a typed grid.
  await page.selectOption('select >> nth=1', 'typed');
  await page.click('.grids summary');
  const cell = page.locator('.grid-input input').first();
  // Typed mode starts from the seeded draws of the first token (seed 42), rounded to 2 decimals.
  const q0 = tokenRows(['the'], 'q', 4, 42)[0][0];
  assert.equal(Number(await cell.inputValue()), Number(q0.toFixed(2)));
  await cell.fill('abc');
  await cell.press('Enter');
  await page.locator('.grids .field-error', { hasText: 'Please type a number' }).waitFor();
  assert.equal(await cell.getAttribute('aria-invalid'), 'true');
  // A number in the same cell is taken and recomputed.
  await cell.fill('2.5');
  await cell.press('Enter');
  await waitHash(page, /Q=2\.5,/);
  assert.deepEqual(page.errors, []);
});

test('an output row highlights its weight row and the values it mixes', async () => {
  const page = await at('lesson=pipeline&lang=en&preset=cat-fish&stage=output&keyPadding=1,0,0,0');
  await clickCell(page, 'output', 1, 0);
  await waitHash(page, /selRow=1&selCol=-1/);
  const weightMarks = await page.$$eval('.map-weights .hm-mark.hl', (ms) => ms.map((m) => parseFloat(m.style.top)));
  assert.equal(weightMarks.length, 1);
  assert.ok(Math.abs(weightMarks[0] - 100 / 3) < 0.01, `weight row 1 marked (top ${weightMarks[0]}%)`);
  // Key "The" is padding: its value row is not mixed, the other three are.
  const valueMarks = await page.$$eval('.map-values .hm-mark.hl', (ms) => ms.map((m) => m.style.top));
  assert.deepEqual(valueMarks, ['25%', '50%', '75%']);
  const note = await page.textContent('.note');
  for (const k of ['cat', 'eats', 'fish']) assert.ok(note.includes(`${k} (`), `${k} named in: ${note}`);
  assert.ok(!note.includes('The ('), 'the padding key is not mixed');
});

test('hide flags hide control groups for embedding', async () => {
  const page = await at('lesson=pipeline&hide=inputs,nav');
  assert.equal(await page.locator('.inputs').isVisible(), false);
  assert.equal(await page.locator('#chapter-nav').isVisible(), false);
  assert.ok(await page.locator('.stepper').isVisible());
});

// tests/e2e/layout.test.js opens every step at 360 px in both languages with the chapter's default
// example: here the examples it does not open, the longest (32 tokens) in both languages and the
// typed scores in English.
test('no horizontal scrolling at 360 px at every stage, up to 32 tokens', async () => {
  const toks = Array.from({ length: 32 }, (_, i) => `tok${i}`).join(',');
  const many = `preset=random&inputMode=random&dk=16&queryTokens=${toks}&keyTokens=${toks}`;
  const page = await lab.open(`lesson=pipeline&lang=en&${many}`, { width: 360, height: 740 });
  for (const [lang, extra] of [
    ['en', many],
    ['zh', many],
    ['en', 'preset=hand-check'],
  ]) {
    await visit(page, `lesson=pipeline&lang=${lang}&${extra}&stage=${STAGES[0]}`);
    for (const stage of STAGES) {
      await page.click(`.step[data-stage="${stage}"]`);
      await assertNoSideScroll(page, `${lang} ${extra.slice(0, 20)} ${stage}`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('hand check: the preset takes its scores to the Softmax chapter’s check; the published weights are wrong and do not sum to 1; the softmax is right', async () => {
  const page = await at('lesson=pipeline&lang=en&preset=hand-check&stage=weights');
  await page.click('.guess-box .hand-check-go');
  await page.waitForFunction(() => /lesson=softmax/.test(location.hash) && /stage=hand-check/.test(location.hash));
  assert.match(await page.textContent('.sm-hand-check .formula .katex-mathml'), /2\.60.*1\.20.*6\.10.*2\.00/s);
  const inputs = page.locator('.guess-grid input');
  for (const [j, v] of ['0.2', '0.06', '0.1', '0.1'].entries()) await inputs.nth(j).fill(v);
  await page.click('.guess-grid button[type="submit"]');
  await page.waitForSelector('.sm-verdict');
  assert.equal(await page.getAttribute('.sm-verdict', 'data-result'), 'wrong');
  assert.equal(await page.getAttribute('.sm-sum', 'data-result'), 'bad');
  assert.match(await page.textContent('.sm-sum'), /0\.460: the set does not sum to 1/);
  // softmax([2.6, 1.2, 6.1, 2.0]) in double precision.
  const e = [2.6, 1.2, 6.1, 2.0].map((x) => Math.exp(x - 6.1));
  const s = e.reduce((a, b) => a + b, 0);
  const right = e.map((x) => (x / s).toFixed(4));
  for (const [j, v] of right.entries()) await inputs.nth(j).fill(v);
  await page.click('.guess-grid button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('.sm-verdict')?.dataset.result === 'right');
  assert.match(await page.textContent('.sm-verdict'), /Right/);
  assert.equal(await page.getAttribute('.sm-sum', 'data-result'), 'ok');
  assert.deepEqual(page.errors, []);
});

// For every fill × stable combination, the Mask and Softmax steps say what the engine returned:
// 猫 追 老鼠, causal, with 猫 as padding, so the query 猫 may see nothing and the others keep keys.
const EMPTY_ROW = [
  {
    fill: 'neg-inf',
    stable: 1,
    weights: 'zero',
    mask: /Every one of them gets weight exactly 0/,
    note: /this engine’s own rule it gets zero weights and a zero output/,
  },
  {
    fill: 'neg-inf',
    stable: 0,
    weights: 'nan',
    mask: /3 of them get weight exactly 0 in step 4\. 3 of them get NaN weights/,
    note: /weights and its output are NaN/,
  },
  {
    fill: 'large-negative',
    stable: 1,
    weights: 'uniform',
    mask: /3 of them still get weight in step 4 \(up to 0\.333\)/,
    note: /each key gets 0\.333, and the output is the mean of all the Values/,
  },
  {
    fill: 'large-negative',
    stable: 0,
    weights: 'nan',
    mask: /3 of them get NaN weights/,
    note: /weights and its output are NaN/,
  },
  {
    fill: 'zero',
    stable: 1,
    weights: 'uniform',
    mask: /6 of them still get weight in step 4/,
    note: /each key gets 0\.333/,
  },
  {
    fill: 'zero',
    stable: 0,
    weights: 'uniform',
    mask: /6 of them still get weight in step 4/,
    note: /each key gets 0\.333/,
  },
];
const SHOWN_FILL = { 'neg-inf': '−∞', 'large-negative': '−1e9', zero: '0' };

test('the Mask and Softmax steps name what the engine returned, for every fill × stable combination', async () => {
  let page;
  for (const c of EMPTY_ROW) {
    page = await at(
      `lesson=pipeline&lang=en&preset=cat-chase&causal=1&keyPadding=1,0,0&fill=${c.fill}&stable=${c.stable}&stage=masked&selRow=0&selCol=0`,
    );
    assert.ok((await page.textContent('.explain')).includes(`here ${SHOWN_FILL[c.fill]}.`), c.fill);
    const what = `${c.fill}, stable=${c.stable}`;
    const explain = await page.textContent('.explain');
    assert.match(explain, /Blocked cells here: 6\./, what);
    assert.match(explain, c.mask, `${what}: ${explain}`);
    assert.match(await page.textContent('.note'), c.note, what);

    await page.click('button.step[data-stage="weights"]');
    await page.waitForFunction(
      (shown) => document.querySelector(`${shown} .stage-title`)?.textContent.startsWith('4.'),
      SHOWN,
    );
    const w = (await readTable(page, 'weights')).values[0];
    if (c.weights === 'zero') assert.deepEqual(w, [0, 0, 0], what);
    if (c.weights === 'nan') assert.ok(w.every(Number.isNaN), what);
    if (c.weights === 'uniform') w.forEach((x) => assert.ok(Math.abs(x - 1 / 3) <= 0.005, what));
    const softmax = await page.textContent('.explain');
    assert.match(
      softmax,
      c.stable ? /engine subtracts the row’s largest score/ : /takes the exponentials of the scores as they are/,
      what,
    );
    assert.match(
      softmax,
      {
        zero: /this engine’s own rule gives such a row zero weights/,
        nan: /every exponential is 0, and 0 \/ 0 = NaN/,
        uniform: /every key gets the same weight/,
      }[c.weights],
      `${what}: ${softmax}`,
    );
    assert.match(softmax, /−Σ w ln w \(in nats\)/);
    // The formula shows the max subtraction only when the engine does it.
    assert.equal((await page.textContent('.formula.general')).includes('max'), c.stable === 1, `${what}: formula`);
  }
  assert.deepEqual(page.errors, []);
});

test('the Chinese page has no English in its formulas, heatmap descriptions or punctuation', async () => {
  const page = await at(
    'lesson=pipeline&lang=zh&preset=cat-chase&causal=1&keyPadding=1,0,0&stage=masked&selRow=0&selCol=0',
  );
  const general = await page.textContent('.formula.general');
  assert.ok(general.includes('否则') && !general.includes('otherwise'), general);
  assert.match(
    await page.textContent('.explain'),
    /这里是 −∞。exp\(−∞\) 恰好等于 0，所以被屏蔽的 Key 对这一行毫无贡献。这里共有 6 个格子被屏蔽。它们在第 4 步得到的权重都恰好为 0。/,
  );
  assert.match(await page.textContent('.note'), /按本引擎的规则，它的权重全为 0，输出也全为 0/);
  assert.equal(await page.getAttribute('.map-masked .hm-plot', 'aria-roledescription'), '热力图');
  assert.match(await page.getAttribute('.map-masked .hm-plot', 'aria-label'), /方向键在格子间移动/);
  assert.equal(await page.textContent('.pad-box .field-label'), '填充位：');
  await visit(page, 'lesson=pipeline&lang=zh&preset=hand-check&stage=scores&selRow=0&selCol=0');
  await page.waitForFunction(() => document.querySelector('.formula.live')?.textContent.includes('直接输入'));
  assert.ok(!(await page.textContent('.formula.live')).includes('typed'));
  assert.deepEqual(page.errors, []);
});

test('each step leads with its own figure: the Softmax step with the weights, not the masked scores', async () => {
  const page = await at('lesson=pipeline&lang=en&preset=cat-fish&stage=scores');
  const lead = { scores: 'scores', scaled: 'scaled', masked: 'masked', weights: 'weights', output: 'weights' };
  for (const stage of STAGES) {
    await page.click(`.step[data-stage="${stage}"]`);
    await page.waitForFunction(([shown, st]) => document.querySelector(shown)?.dataset.step === st, [SHOWN, stage]);
    const main = await page.$$eval(`${SHOWN} [data-figure="main"]`, (els) => els.map((el) => el.className));
    assert.deepEqual(main, [`map map-${lead[stage]}`], `${stage}: the main figure`);
    // The figure comes right under the step's heading, before its prose.
    const first = await page.$eval(`${SHOWN} .stage-title`, (h) => {
      const next = h.nextElementSibling;
      return !!next.querySelector('[data-figure="main"]');
    });
    assert.ok(first, `${stage}: the figure follows the heading`);
  }
  assert.deepEqual(page.errors, []);
});
