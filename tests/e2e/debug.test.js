// The debugging chapter in headless Chromium: every bug toggle (by keyboard) shows the bug's
// weights and its symptom with the numbers a double-precision reference of that bug gives
// (tests/js/reference.js, written from the maths, not the engine); the monitors (entropy
// against ln n, the logits' mean and standard deviation); the "not an explanation" demos; the
// predict question; both languages; 360 px without sideways scrolling.
// The inputs are the tokens' vectors as the chapter documents them: drawn by engine.randomMatrix
// on the stream of each token's text.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { loadEngine } from '../../web/src/engine.js';
import { tokenStream } from '../../web/src/lesson/embeddings.js';
import { attendWithBugRef, monitorRef, attendRef } from '../js/reference.js';
import { readMap, answer, assertNoSideScroll, assertShown } from './lesson-page.js';
import { visit, onePage } from './visit.js';

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

const TOKENS = ['The', 'cat', 'sat', 'on', 'a', 'mat', '<pad>', '<pad>'];
const SEED = 42;

// The example's inputs (nested rows): each token's vector for a role, queries times σ.
const draw = (role, t, cols, scale = 1) =>
  Array.from(engine.randomMatrix({ rows: 1, cols, seed: SEED, stream: tokenStream(role, t), scale }).data);
function example({ dk = 16, scale = 1, tokens = TOKENS } = {}) {
  return {
    query: tokens.map((t) => draw('q', t, dk, scale)),
    key: tokens.map((t) => draw('k', t, dk)),
    value: tokens.map((t) => draw('v', t, 3)),
    causal: true,
    keyPadding: tokens.map((t) => t === '<pad>'),
  };
}

// Numbers in a text, as the page prints them (typographic minus).
const numbersIn = (text) => (text.replace(/\u2212/g, '-').match(/-?\d+(\.\d+)?(e-?\d+)?/g) || []).map(Number);
const near = (got, want, digits, what) =>
  assert.ok(Math.abs(got - want) <= 0.5 * 10 ** -digits + 1e-9, `${what}: shown ${got}, reference ${want}`);

async function symptomText(page) {
  return (await page.$$eval('.db-symptoms li', (lis) => lis.map((li) => li.textContent))).join('\n');
}

// Presses the toggle of `bug` by keyboard and waits for the hash and the symptom to follow.
async function toggle(page, bug) {
  const before = await symptomText(page);
  await page.focus(`.db-bug[data-bug="${bug}"]`);
  await page.keyboard.press('Space');
  await page.waitForFunction((b) => location.hash.includes(`dbBug=${b}`), bug);
  await page.waitForFunction(
    (t) => [...document.querySelectorAll('.db-symptoms li')].map((li) => li.textContent).join('\n') !== t,
    before,
  );
  assert.equal(await page.getAttribute(`.db-bug[data-bug="${bug}"]`, 'aria-pressed'), 'true');
}

// What each bug's symptom must say, checked against the reference's numbers.
function checkSymptom(bug, text, ref, healthy, mon, monHealthy) {
  const n = numbersIn(text);
  switch (bug) {
    case 'missing-scale': {
      near(n[0], mon.logitStd, 3, 'std with the bug');
      near(n[1], monHealthy.logitStd, 3, 'std healthy');
      // at d_k = 16 no row passes 0.99: the text says how much sharper the rows are, not that
      // softmax is saturated
      const rows = [1, 2, 3, 4, 5, 6, 7]; // every row with two allowed keys or more
      assert.equal(rows.filter((i) => Math.max(...ref.weights[i]) > 0.99).length, 0, 'nothing saturated here');
      assert.doesNotMatch(text, /is saturated|已经饱和/);
      const mean = (f) => rows.reduce((a, i) => a + f(i), 0) / rows.length;
      assert.deepEqual(n.slice(2, 4), [0.99, 7]);
      near(
        n[4],
        mean((i) => ref.entropy[i]),
        3,
        'mean entropy with the bug',
      );
      near(
        n[5],
        mean((i) => healthy.entropy[i]),
        3,
        'mean entropy healthy',
      );
      near(
        n[6],
        mean((i) => Math.max(...ref.weights[i])),
        3,
        'mean largest weight with the bug',
      );
      near(
        n[7],
        mean((i) => Math.max(...healthy.weights[i])),
        3,
        'mean largest weight healthy',
      );
      break;
    }
    case 'zero-fill':
      assert.ok(mon.leaked[5] > 0.01);
      near(n[0], mon.leaked[5], 3, 'weight “mat” gives to <pad>');
      near(n[2], mon.leaked[0], 3, 'weight “The” gives to the future');
      break;
    case 'reversed-causal':
      near(n[0], mon.leaked[0], 3, 'future weight of “The”');
      near(n[2], ref.weights[5][5], 3, 'weight “mat” gives itself');
      break;
    case 'wrong-axis': {
      // the column sums in the first parentheses, the row sums in the second
      const [cols, rows] = [...text.matchAll(/[(（]([^)）]*)[)）]/g)].map((m) => numbersIn(m[1]));
      mon.colSums.forEach((x, j) => near(cols[j], x, 2, `column sum ${j}`));
      mon.rowSums.forEach((x, i) => near(rows[i], x, 2, `row sum ${i}`));
      assert.ok(
        mon.rowSums.some((x) => Math.abs(x - 1) > 0.05),
        'rows do not sum to 1',
      );
      break;
    }
    case 'mask-after-softmax':
      mon.rowSums.forEach((x, i) => near(n[1 + i], x, 2, `row sum ${i}`)); // after "sum to 1"
      assert.ok(mon.rowSums[0] < 0.99);
      break;
    case 'no-max-subtraction':
      near(n[0], mon.logitMax, 3, 'largest logit');
      break;
    case 'scale-by-d-model':
      assert.deepEqual(n.slice(0, 2), [128, 16]);
      near(n[2], mon.logitStd, 3, 'std with the bug');
      near(n[3], monHealthy.logitStd, 3, 'std healthy');
      near(n[4], ref.entropy[5], 3, 'entropy of “mat”');
      near(n[5], mon.maxEntropy[5], 3, 'ln n of “mat”');
      near(n[6], healthy.entropy[5], 3, 'healthy entropy of “mat”');
      break;
    default:
      throw new Error(bug);
  }
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: every bug toggle shows the bug's weights and its symptom with the reference's numbers`, async () => {
    const page = await at(`lesson=debug&lang=${lang}&stage=checklist`);
    const bugs = await page.$$eval('.db-bug', (bs) => bs.map((b) => b.dataset.bug));
    assert.deepEqual(
      bugs,
      engine.choices.bug.filter((b) => b !== 'none'),
      'the list is the engine’s',
    );
    const ex = example();
    const healthy = attendRef(ex);
    assertShown((await readMap(page, '.db-map-healthy')).values, healthy.weights, 2, 'healthy weights');
    const monHealthy = monitorRef(healthy.scaled, healthy.weights, healthy.mask);
    for (const bug of bugs) {
      await toggle(page, bug);
      const ref = attendWithBugRef({ ...ex, bug, dModel: 128 });
      assertShown((await readMap(page, '.db-map-bugged')).values, ref.weights, 2, `${bug} weights`);
      const mon = monitorRef(ref.scaled, ref.weights, healthy.mask);
      checkSymptom(bug, await symptomText(page), ref, healthy, mon, monHealthy);
    }
    // pressing the pressed toggle again switches the bug off
    await page.focus('.db-bug[data-bug="scale-by-d-model"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !/dbBug=/.test(location.hash));
    assert.equal(await page.$$eval('.db-bug[aria-pressed="true"]', (bs) => bs.length), 0);
    assert.deepEqual(page.errors, []);
  });
}

// The checklist promises the bug side by side with the healthy result: the two maps share a row,
// at one size, at 1280 and at 360 px (the page at 360 px is the next test's).
async function sideBySide(page, width) {
  const [a, b] = await page.$$eval('.db-map-healthy .hm-plot, .db-map-bugged .hm-plot', (els) =>
    els.map((el) => el.getBoundingClientRect().toJSON()),
  );
  assert.ok(Math.abs(a.top - b.top) <= 1, `${width}: tops ${a.top} and ${b.top}`);
  assert.ok(b.left >= a.right, `${width}: the bugged map right of the healthy one`);
  assert.ok(Math.abs(a.width - b.width) <= 1 && Math.abs(a.height - b.height) <= 1, `${width}: one size`);
}
test('the checklist shows the healthy and the bugged weights side by side, at one size', async () => {
  const page = await at('lesson=debug&lang=en&stage=checklist&dbBug=zero-fill');
  await sideBySide(page, 1280);
  assert.deepEqual(page.errors, []);
});

test('the symptoms that need a setting: d_k 1024 saturates the missing scale, σ 50 overflows the naive softmax', async () => {
  const page = await at('lesson=debug&lang=en&stage=checklist&dbBug=missing-scale&dbDk=1024');
  let ex = example({ dk: 1024 });
  let ref = attendWithBugRef({ ...ex, bug: 'missing-scale' });
  assertShown((await readMap(page, '.db-map-bugged')).values, ref.weights, 2, 'unscaled weights at d_k 1024');
  const saturated = (w) => w.filter((_, i) => i > 0).filter((r) => Math.max(...r) > 0.99).length; // row 0 has one key
  const rows = saturated(ref.weights);
  assert.ok(rows >= 5, `saturated rows: ${rows}`);
  assert.match(
    await symptomText(page),
    new RegExp(
      `${rows} of 7 rows give more than 0\\.99 of their weight to one key \\(healthy: ${saturated(attendRef(ex).weights)}\\)`,
    ),
  );
  // σ from the keyboard: the naive softmax turns NaN
  await visit(page, 'lesson=debug&lang=en&stage=checklist&dbBug=no-max-subtraction');
  const sel = page.getByLabel('Logit scale σ (queries × σ)');
  await sel.focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => /dbScale=100/.test(location.hash));
  ex = example({ scale: 100 });
  ref = attendWithBugRef({ ...ex, bug: 'no-max-subtraction' });
  const nans = ref.weights.flat().filter(Number.isNaN).length;
  assert.ok(nans > 0, 'the reference overflows too');
  const shown = await readMap(page, '.db-map-bugged');
  assert.equal(shown.text.flat().filter((t) => t === 'NaN').length, nans);
  assert.match(await symptomText(page), new RegExp(`NaN weights: ${nans} of 64\\.`));
  assert.deepEqual(page.errors, []);
});

// The healthy example with no bug is never called degraded (its row of two keys is near uniform
// in the healthy run too), and the rows are counted over all 8.
for (const lang of ['en', 'zh']) {
  test(`${lang}: with no bug the monitors do not call the healthy example degraded`, async () => {
    const page = await at(`lesson=debug&lang=${lang}&stage=monitors&dbBug=none`);
    const ex = example();
    const healthy = attendRef(ex);
    const mon = monitorRef(healthy.scaled, healthy.weights, healthy.mask);
    const near = mon.maxEntropy.filter((mx, i) => mx > 0 && healthy.entropy[i] >= 0.95 * mx).length;
    const line = await page.textContent('.db-mon-line');
    assert.doesNotMatch(line, lang === 'en' ? /Degraded/ : /已经退化/);
    if (near)
      assert.match(
        line,
        lang === 'en' ? new RegExp(`Not degraded: ${near} of 8 rows`) : new RegExp(`8 行中有 ${near} 行`),
      );
    assert.deepEqual(page.errors, []);
  });
}

// The scale missing at d_k = 16: no row is near uniform, but rows collapse toward one key
// (entropy 1.497 -> 0.270 for “mat”): the monitors call them too sharp rather than "not degraded".
test('the monitors with the scale missing flag the rows that collapsed toward one key', async () => {
  const page = await at('lesson=debug&lang=en&stage=monitors&dbBug=missing-scale');
  const ex = example();
  const healthy = attendRef(ex);
  const ref = attendWithBugRef({ ...ex, bug: 'missing-scale' });
  const mon = monitorRef(ref.scaled, ref.weights, healthy.mask);
  const monHealthy = monitorRef(healthy.scaled, healthy.weights, healthy.mask);
  // less than a quarter of ln n under the bug, and not so in the healthy run
  const quarter = (m, r, i) => m.maxEntropy[i] > 0 && r.entropy[i] < m.maxEntropy[i] / 4;
  const sharp = TOKENS.map((_, i) => i).filter((i) => quarter(mon, ref, i) && !quarter(monHealthy, healthy, i));
  assert.ok(sharp.length > 0, 'the reference has collapsed rows');
  const line = await page.textContent('.db-mon-line');
  assert.doesNotMatch(line, /Not degraded/);
  const names = sharp.map((i) => `“${TOKENS[i]}”`).join('; ');
  assert.ok(
    line.startsWith(
      `Too sharp: ${sharp.length} of 8 rows have less than a quarter of their maximum entropy (${names}),`,
    ),
    line,
  );
  const flags = await page.$$eval('.db-mon-table tbody tr', (trs) => trs.map((tr) => tr.cells[7].textContent));
  for (const i of sharp)
    assert.equal(flags[i], Math.max(...ref.weights[i]) > 0.99 ? 'one key' : 'nearly one key', `row ${i}`);
  assert.deepEqual(page.errors, []);
});

for (const lang of ['en', 'zh']) {
  test(`${lang}: the monitors show entropy against ln n and the logits' mean and standard deviation`, async () => {
    const page = await at(`lesson=debug&lang=${lang}&stage=monitors&dbBug=scale-by-d-model&dbHeads=64`);
    const ex = example();
    const healthy = attendRef(ex);
    const ref = attendWithBugRef({ ...ex, bug: 'scale-by-d-model', dModel: 1024 });
    const mon = monitorRef(ref.scaled, ref.weights, healthy.mask);
    const monHealthy = monitorRef(healthy.scaled, healthy.weights, healthy.mask);
    const rows = await page.$$eval('.db-mon-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.cells].map((c) => c.textContent)),
    );
    assert.equal(rows.length, 8);
    rows.forEach((r, i) => {
      near(Number(r[1]), healthy.entropy[i], 3, `healthy entropy ${i}`);
      near(Number(r[2]), ref.entropy[i], 3, `entropy ${i}`);
      near(Number(r[3]), mon.maxEntropy[i], 3, `ln n ${i}`);
      near(Number(r[5]), mon.rowSums[i], 3, `row sum ${i}`);
      if (mon.maxEntropy[i] > 0 && ref.entropy[i] >= 0.95 * mon.maxEntropy[i]) {
        assert.equal(r[7], lang === 'en' ? 'near uniform' : '接近均匀', `row ${i} flagged`);
      }
    });
    const logits = await page.$$eval('.db-logit-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.cells].map((c) => c.textContent.replace('\u2212', '-'))),
    );
    for (const [r, m] of [
      [logits[0], monHealthy],
      [logits[1], mon],
    ]) {
      near(Number(r[1]), m.logitMean, 3, 'mean');
      near(Number(r[2]), m.logitStd, 3, 'std');
      near(Number(r[3]), m.logitMax, 3, 'max');
    }
    assert.ok(mon.logitStd < 0.5 * monHealthy.logitStd, '√d_model flattens the logits');
    const line = await page.textContent('.db-mon-line');
    // Degraded: rows near uniform under the bug that the healthy run keeps sharper, of all 8 rows.
    const near95 = (m, r, i) => m.maxEntropy[i] > 0 && r.entropy[i] >= 0.95 * m.maxEntropy[i];
    const uniform = mon.maxEntropy.filter((_, i) => near95(mon, ref, i) && !near95(monHealthy, healthy, i)).length;
    assert.ok(uniform > 0);
    assert.match(
      line,
      lang === 'en' ? new RegExp(`Degraded: ${uniform} of 8 rows`) : new RegExp(`8 行中有 ${uniform} 行`),
    );
    assert.deepEqual(page.errors, []);
  });

  test(`${lang}: attention weights are not an explanation: a near-uniform row, and the same weights with different outputs`, async () => {
    const page = await at(`lesson=debug&lang=${lang}&stage=explanation`);
    // the near-uniform row: the query of “mat” at 0.03 of its size against the keys up to “mat”
    const keys = TOKENS.slice(0, 6);
    const flat = attendRef({
      query: [draw('q', 'mat', 16, 0.03)],
      key: keys.map((t) => draw('k', t, 16)),
      value: keys.map((t) => draw('v', t, 3)),
    });
    const shown = await page.$$eval('.db-flat-table tbody tr td', (tds) => tds.map((td) => Number(td.textContent)));
    assertShown([shown], flat.weights, 3, 'near-uniform row');
    const line = await page.textContent('.db-flat-line');
    const n = numbersIn(line);
    near(n[1], flat.entropy[0], 3, 'entropy');
    near(n[2], Math.log(6), 3, 'ln 6');
    assert.ok(flat.entropy[0] > 0.999 * Math.log(6));
    // same weights, different outputs
    const a = await readMap(page, '.db-map-wa');
    const b = await readMap(page, '.db-map-wb');
    assert.deepEqual(a.text, b.text);
    assertShown(a.values, attendRef(example()).weights, 2, 'weights');
    const oa = await readMap(page, '.db-map-oa');
    const ob = await readMap(page, '.db-map-ob');
    assert.notDeepEqual(oa.text, ob.text);
    assertShown(oa.values, attendRef(example()).output, 2, 'output with the first values');
    assert.match(
      await page.textContent('.db-same-line'),
      lang === 'en' ? /identical, entry for entry/ : /逐项完全相同/,
    );
    assert.deepEqual(page.errors, []);
  });

  test(`${lang}: the predict question on the 0 fill, answered by keyboard`, async () => {
    const page = await lab.open(`lesson=debug&lang=${lang}&stage=predict`);
    assert.equal(await page.isVisible('.db-reveal'), false, 'nothing revealed before the answer');
    const fb = await answer(
      page,
      '[data-predict="debug/zero-fill"]',
      lang === 'en' ? 'some weight, as if their score were 0' : '分到一些权重',
    );
    const ref = attendWithBugRef({ ...example(), bug: 'zero-fill' });
    const leak = ref.weights[5][6] + ref.weights[5][7];
    assert.ok(leak > 0.01);
    assert.match(fb, lang === 'en' ? /^Right\. With the 0 fill “mat” gives / : /^答对了。用 0 填充时，“mat”把 /);
    near(numbersIn(fb)[lang === 'en' ? 1 : 1], leak, 3, 'leaked weight');
    assert.equal(await page.isVisible('.db-reveal'), true);
    assertShown((await readMap(page, '.db-map-zero')).values, ref.weights, 2, '0-fill weights');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('an unknown bug in the link is reported and the example stays healthy', async () => {
  const page = await at('lesson=debug&lang=en&stage=checklist&dbBug=typo');
  await page.waitForFunction(() => !document.querySelector('#notice').hidden);
  assert.match(await page.textContent('#notice'), /dbBug=typo/);
  assert.equal(await page.$$eval('.db-bug[aria-pressed="true"]', (bs) => bs.length), 0);
  assert.deepEqual(page.errors, []);
});

// tests/e2e/layout.test.js opens every step at 360 px in both languages as it opens: here the
// states it does not reach (the answer shown, a bug chosen), on one page.
test('at 360 px the answer and the bugs fit without sideways scrolling, in both languages', async () => {
  const page = await lab.open('lesson=debug&lang=en&stage=checklist&dbBug=zero-fill', { width: 360, height: 740 });
  await sideBySide(page, 360);
  await assertNoSideScroll(page, 'checklist at 360');
  for (const lang of ['en', 'zh']) {
    for (const [stage, extra] of [
      ['predict', ''],
      ['checklist', '&dbBug=wrong-axis'],
      ['monitors', '&dbBug=missing-scale'],
    ]) {
      await visit(page, `lesson=debug&lang=${lang}&stage=${stage}${extra}`);
      if (stage === 'predict' && (await page.isVisible('.predict-show'))) await page.click('.predict-show');
      await assertNoSideScroll(page, `${lang} ${stage}`);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
