// The Why-attention chapter in headless Chromium, against the built page (dist/).
// The live weights (猫 追 老鼠 and the translation diagram) are compared with a
// double-precision scaled dot-product softmax written here from the preset vectors.

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

// Row i of softmax(Q Kᵀ / √d_k) for a preset, in double.
function refWeights(id, i) {
  const p = PRESETS[id];
  const s = p.K.map((k) => p.Q[i].reduce((a, x, d) => a + x * k[d], 0) / Math.sqrt(p.dk));
  const m = Math.max(...s);
  const e = s.map((x) => Math.exp(x - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

// "caption: 猫 0.685, 追 0.119, 老鼠 0.196" -> [0.685, 0.119, 0.196]
function barValues(label) {
  return label
    .split(': ')
    .slice(1)
    .join(': ')
    .split(', ')
    .map((p) => Number(p.split(' ').pop()));
}

test('“who chases?” lands on 猫: the bars are the engine’s weights; the hard lookup is one-hot', async () => {
  const page = await at('lesson=why&lang=en&stage=lookup');
  const bars = () => page.$$eval('.why-lookup .bars svg', (s) => s.map((x) => x.getAttribute('aria-label')));
  let [soft, hard] = await bars();
  assert.match(soft, /who chases\?/);
  const w = barValues(soft);
  const ref = refWeights('cat-chase', 1);
  w.forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-4, `weight ${k}: ${x} vs ${ref[k]}`));
  assert.equal(w.indexOf(Math.max(...w)), 0, '猫 gets the most weight');
  assert.deepEqual(barValues(hard), [1, 0, 0]);
  assert.match(await page.textContent('.why-lookup .note'), /Most of the weight lands on 猫/);

  // Another question, with the keyboard: ↑ on the radio group moves to 猫's question.
  await page.focus('input[name="why-query"][value="1"]');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => /whyQuery=0/.test(location.hash));
  [soft, hard] = await bars();
  const ref0 = refWeights('cat-chase', 0);
  barValues(soft).forEach((x, k) => assert.ok(Math.abs(x - ref0[k]) <= 6e-4, `query 0, weight ${k}`));
  assert.deepEqual(barValues(hard), [0, 1, 0], '“what do I do?” finds 追');
  assert.deepEqual(page.errors, []);
});

test('the bottleneck diagram: with attention, the line labels are the translation weights', async () => {
  const page = await at('lesson=why&lang=en&stage=bottleneck');
  assert.match(await page.getAttribute('.why-svg', 'aria-label'), /one context vector c/);
  await page.getByRole('button', { name: 'With attention' }).click();
  await page.getByRole('button', { name: '鱼' }).click();
  await page.waitForFunction(() => /whyAttn=1/.test(location.hash) && /whyTarget=2/.test(location.hash));
  const labels = await page.$$eval('.why-svg .why-wlabel', (t) => t.map((x) => Number(x.textContent)));
  const ref = refWeights('cat-fish', 2);
  assert.equal(labels.length, 4);
  labels.forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-3, `鱼 → key ${k}: ${x} vs ${ref[k]}`));
  assert.equal(labels.indexOf(Math.max(...labels)), 3, '鱼 looks at “fish”');
  assert.equal(await page.getByRole('button', { name: '鱼' }).getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByRole('button', { name: '猫' }).getAttribute('aria-pressed'), 'false');
  assert.deepEqual(page.errors, []);
});

test('self vs cross: the weight matrices have the shapes the text states', async () => {
  const page = await at('lesson=why&lang=en&stage=self-cross');
  const text = await page.textContent('.why-self-cross');
  assert.match(text, /a 3\s×\s4 weight matrix here/);
  assert.match(text, /a 3\s×\s3 matrix/);
  // The same matrices as accessible tables: 3 rows × 4 columns and 3 × 3.
  for (const b of await page.$$('.why-self-cross .hm-toggle')) await b.click();
  const shapes = await page.$$eval('.why-self-cross table', (ts) =>
    ts.map((t) => `${t.tBodies[0].rows.length}x${t.tHead.rows[0].cells.length - 1}`),
  );
  assert.deepEqual(shapes, ['3x4', '3x3']);
  assert.deepEqual(page.errors, []);
});

test('every step is reachable with the keyboard, and the language switch keeps the state', async () => {
  const page = await lab.open('lesson=why&lang=en&stage=bottleneck&whyQuery=2');
  await page.focus('.step[data-stage="bottleneck"]');
  for (const stage of ['lookup', 'self-cross', 'timeline']) {
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((st) => location.hash.includes(`stage=${st}`), stage);
  }
  assert.equal(await page.locator('.timeline .tl-item').count(), 6);
  await page.click('.lang-switch button[data-lang="zh"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.evaluate(() => location.hash), /stage=timeline/);
  assert.match(await page.textContent('.timeline'), /缩放点积/);
  await page.click('.step[data-stage="lookup"]');
  assert.ok(await page.isChecked('input[name="why-query"][value="2"]'), 'the chosen question survives the switch');
  assert.match(await page.textContent('.why-lookup .note'), /大部分权重落在“猫”上/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
