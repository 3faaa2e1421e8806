// The Softmax chapter in headless Chromium, against the built page (dist/).
// Weights on screen are compared with a double-precision softmax written here; the naive
// column must show NaN (flagged) once a score passes float32's exp overflow (~88.72).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { onePage } from './visit.js';

let lab;
let at; // one page (1280 px) for the tests that need no fresh one, moved by its link
before(async () => {
  lab = await start();
  at = onePage(lab);
});
after(async () => {
  await lab?.close();
});

const SCORES = [2.6, 1.2, 6.1, 2.0];

// Double-precision softmax of one row at temperature T.
function refSoftmax(row, T = 1) {
  const m = Math.max(...row);
  const e = row.map((x) => Math.exp((x - m) / T));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
}

function parseShown(s) {
  const t = s.trim().replace(/\s*≠$/, '').replace('\u2212', '-');
  if (t === 'NaN') return NaN;
  if (t === '+\u221e') return Infinity;
  const x = Number(t);
  assert.ok(Number.isFinite(x), `unreadable number on screen: "${s}"`);
  return x;
}

// The overflow table: { stable: [...], naive: [...], flaggedNaive: count, entropy: [stable, naive] }.
async function readOverflow(page) {
  return page.$eval('.sm-overflow-table', (t) => {
    const rows = [...t.tBodies[0].rows];
    const body = rows.filter((r) => !r.classList.contains('entropy-row'));
    const ent = rows.find((r) => r.classList.contains('entropy-row'));
    return {
      stable: body.map((r) => r.cells[2].textContent),
      naive: body.map((r) => r.cells[3].textContent),
      naiveFlagged: body.filter((r) => r.cells[3].classList.contains('flagged')).length,
      scoreFlagged: body.filter((r) => r.cells[1].classList.contains('flagged')).length,
      entropy: [ent.cells[2].textContent, ent.cells[3].textContent],
    };
  });
}

test('stable vs naive: pushing the scores past ~88.7 turns the naive weights into flagged NaN; the stable ones stay', async () => {
  const page = await at('lesson=softmax&lang=en&stage=overflow');
  let t = await readOverflow(page);
  const ref = refSoftmax(SCORES);
  t.stable.map(parseShown).forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-5, `stable ${k}`));
  t.naive
    .map(parseShown)
    .forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-5, `naive ${k} agrees before any overflow`));
  assert.equal(t.naiveFlagged, 0);

  // Drive the slider with the keyboard: End = +120, every exp overflows.
  await page.focus('#sm-shift');
  await page.keyboard.press('End');
  await page.waitForFunction(() => /smShift=120/.test(location.hash));
  t = await readOverflow(page);
  assert.ok(t.naive.map(parseShown).every(Number.isNaN), 'every naive weight is NaN');
  assert.equal(t.naiveFlagged, 4);
  assert.equal(t.scoreFlagged, 4, 'all four shifted scores are past the overflow point');
  assert.equal(t.entropy[1], 'NaN');
  t.stable.map(parseShown).forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-5, `stable ${k} after the shift`));
  assert.match(await page.textContent('.sm-overflow .msg'), /The naive softmax broke: 4 of 4 weights are NaN/);

  // +84: only 6.1 + 84 = 90.1 overflows: NaN there, wrong zeros elsewhere.
  await page.fill('#sm-shift', '84');
  await page.waitForFunction(() => /smShift=84/.test(location.hash));
  t = await readOverflow(page);
  const naive = t.naive.map(parseShown);
  assert.ok(Number.isNaN(naive[2]));
  assert.deepEqual([naive[0], naive[1], naive[3]], [0, 0, 0]);
  assert.equal(t.scoreFlagged, 1);
  assert.equal(t.naiveFlagged, 4, 'the NaN and the three wrong zeros are flagged');
  assert.deepEqual(page.errors, []);
});

test('underflow: at shift −120 every float32 exp is 0, the naive weights are 0/0 = NaN, and the page says why', async () => {
  const page = await at('lesson=softmax&lang=en&stage=overflow&smShift=-120');
  const shifted = SCORES.map((x) => x - 120);
  // The reference: float32 rounds every one of these exponentials to 0.
  assert.ok(shifted.every((x) => Math.fround(Math.exp(x)) === 0));
  let t = await readOverflow(page);
  assert.ok(t.naive.map(parseShown).every(Number.isNaN), 'every naive weight is NaN');
  assert.equal(t.naiveFlagged, 4);
  assert.equal(t.scoreFlagged, 4, 'every shifted score is flagged');
  assert.equal(
    await page.$$eval(
      '.sm-overflow-table .flag-mark',
      (m) => m.filter((x) => /exp underflows to 0/.test(x.textContent)).length,
    ),
    4,
  );
  const ref = refSoftmax(SCORES);
  t.stable.map(parseShown).forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-5, `stable ${k}`));
  assert.equal(await page.getAttribute('.sm-overflow .msg', 'data-cause'), 'underflow');
  assert.match(await page.textContent('.sm-overflow .msg'), /4 of 4 weights are NaN.*underflowed to 0.*divided 0 by 0/);

  // −106: 1.2 − 106 and 2 − 106 underflow to 0 in float32 and 2.6 − 106 is subnormal; the
  // naive weights are finite but wrong, the two zeros are flagged, and the page names the cause.
  await page.fill('#sm-shift', '-106');
  await page.waitForFunction(() => /smShift=-106/.test(location.hash));
  assert.deepEqual(
    SCORES.map((x) => Math.fround(Math.exp(x - 106)) === 0),
    [false, true, false, true],
  );
  t = await readOverflow(page);
  const naive = t.naive.map(parseShown);
  assert.ok(naive.every(Number.isFinite));
  assert.equal(naive[1], 0);
  assert.equal(naive[3], 0);
  assert.equal(t.scoreFlagged, 2, 'the two scores whose float32 exp is 0');
  assert.equal(await page.getAttribute('.sm-overflow .msg', 'data-cause'), 'subnormal');
  assert.match(await page.textContent('.sm-overflow .msg'), /subnormal/);

  // −80: nothing underflows and both columns agree.
  await page.fill('#sm-shift', '-80');
  await page.waitForFunction(() => /smShift=-80/.test(location.hash));
  t = await readOverflow(page);
  assert.equal(t.scoreFlagged, 0);
  t.naive.map(parseShown).forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-5, `naive ${k} at −80`));
  assert.deepEqual(page.errors, []);
});

test('Gumbel: 1000 seeded draws; each key wins about as often as its softmax weight at T = 1', async () => {
  const page = await at('lesson=softmax&lang=en&stage=hard-soft&gumbelSeed=3');
  const table = () =>
    page.$eval('.sm-gumbel-freq-table', (t) =>
      [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)),
    );
  const rows = await table();
  assert.deepEqual(
    rows.map((r) => r[0]),
    ['The', 'cat', 'eats', 'fish'],
  );
  const p = refSoftmax(SCORES);
  const wins = rows.map((r) => Number(r[2]));
  assert.equal(
    wins.reduce((a, b) => a + b, 0),
    1000,
  );
  rows.forEach((r, k) => {
    assert.ok(Math.abs(parseShown(r[1]) - p[k]) <= 6e-4, `weight ${k}`);
    assert.ok(Math.abs(parseShown(r[3]) - wins[k] / 1000) <= 6e-4, `share ${k}`);
    // Four binomial standard deviations: a seeded draw that fails this is not a softmax sampler.
    assert.ok(
      Math.abs(wins[k] / 1000 - p[k]) <= 4 * Math.sqrt((p[k] * (1 - p[k])) / 1000) + 1e-3,
      `key ${k}: ${wins[k]} wins, weight ${p[k]}`,
    );
  });
  // The counts are the engine's own draws: the argmax of each row of gumbelSoftmax, same seed.
  const direct = await page.evaluate((scores) => {
    const g = window.attentionLab.engine.gumbelSoftmax({
      scores: Array.from({ length: 1000 }, () => scores),
      tau: 0.5,
      seed: 3,
    });
    const c = new Array(scores.length).fill(0);
    for (let i = 0; i < g.rows; i++) {
      const r = Array.from(g.data.subarray(i * g.cols, (i + 1) * g.cols));
      c[r.indexOf(Math.max(...r))]++;
    }
    return c;
  }, SCORES);
  assert.deepEqual(wins, direct);
  // A larger τ changes the draws' sharpness, not who wins.
  await page.fill('#sm-tau', '7');
  await page.waitForFunction(() => /gumbelTau=2/.test(location.hash));
  assert.deepEqual(
    (await table()).map((r) => Number(r[2])),
    wins,
  );
  assert.deepEqual(page.errors, []);
});

test('colour alone tells no segment apart: each key has its own pattern, shown in a visible key', async () => {
  const page = await at('lesson=softmax&lang=en&stage=hard-soft&gumbelSeed=3');
  const info = await page.evaluate(() => {
    const bars = [...document.querySelectorAll('.sm-hard-soft .stacked-bar')];
    const key = document.querySelector('.sm-hard-soft .stacked-key');
    const style = (el) => getComputedStyle(el).backgroundImage + '|' + el.className.match(/seg-pattern-\S+/)?.[0];
    return {
      keyShown: !!key && getComputedStyle(key).display !== 'none' && key.getBoundingClientRect().height > 0,
      keyText: key ? [...key.querySelectorAll('li')].map((li) => li.textContent) : [],
      keySwatches: key ? [...key.querySelectorAll('.stacked-swatch')].map(style) : [],
      bars: bars.map((b) => [...b.querySelectorAll('.stacked-seg')].map(style)),
      unlabelled: bars.flatMap((b) =>
        [...b.querySelectorAll('.stacked-seg:not([hidden])')].filter((s) => !s.textContent).map((s) => s.className),
      ),
    };
  });
  assert.ok(info.keyShown, 'the key is visible');
  assert.deepEqual(info.keyText, ['The', 'cat', 'eats', 'fish']);
  assert.equal(new Set(info.keySwatches.map((x) => x.split('|')[1])).size, 4, `four patterns: ${info.keySwatches}`);
  assert.equal(info.keySwatches.filter((x) => x.startsWith('none')).length, 1, 'one plain key, three patterned');
  for (const bar of info.bars) assert.deepEqual(bar, info.keySwatches, "each segment wears its key's pattern");
  assert.ok(info.unlabelled.length > 0, 'some segments are too narrow for a name');
  assert.deepEqual(page.errors, []);
});

test('temperature: the slider divides the scores; the weights follow a double-precision softmax', async () => {
  const page = await at('lesson=softmax&lang=en&stage=temperature');
  const bars = async () =>
    (await page.getAttribute('.sm-temperature .bars svg', 'aria-label'))
      .split(': ')
      .slice(1)
      .join(': ')
      .split(', ')
      .map((p) => parseShown(p.split(' ').pop()));
  for (const [stop, T] of [
    [2, 0.3],
    [9, 5],
  ]) {
    await page.fill('#sm-temp', String(stop));
    await page.waitForFunction((t) => location.hash.includes(`temperature=${t}`), T);
    const ref = refSoftmax(SCORES, T);
    (await bars()).forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-4, `T=${T}, weight ${k}: ${x} vs ${ref[k]}`));
  }
  // The entropy line: engine's entropy vs −Σ w log w in double; the even split is log 4.
  const ref = refSoftmax(SCORES, 5);
  const H = -ref.reduce((a, w) => a + w * Math.log(w), 0);
  const line = await page.textContent('.sm-temperature .note');
  const [h, hmax] = [...line.matchAll(/(\d+\.\d+)/g)].map((m) => Number(m[1]));
  assert.ok(Math.abs(h - H) <= 6e-4, `entropy ${h} vs ${H}`);
  assert.ok(Math.abs(hmax - Math.log(4)) <= 6e-4);
  assert.deepEqual(page.errors, []);
});

test('the budget bar: nudging one score up takes share from all the others', async () => {
  const page = await at('lesson=softmax&lang=en&stage=budget');
  const shares = async () =>
    (await page.$$eval('.sm-budget .stacked-legend li', (li) => li.map((l) => l.textContent.split(' ').pop()))).map(
      parseShown,
    );
  const before = await shares();
  await page.getByRole('button', { name: 'Raise The by 1' }).click();
  await page.waitForFunction(() => /smScores=3.6/.test(location.hash));
  const after = await shares();
  assert.ok(after[0] > before[0]);
  for (const k of [1, 2, 3]) assert.ok(after[k] < before[k], `share ${k} shrinks`);
  const ref = refSoftmax([3.6, 1.2, 6.1, 2.0]);
  after.forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-5, `share ${k}`));
  assert.match(await page.textContent('.sm-budget .sm-sum-check'), /add up to 1\.0000/);
  assert.deepEqual(page.errors, []);
});

test('hard attention is the engine’s one-hot; Gumbel samples follow the seed', async () => {
  const page = await at('lesson=softmax&lang=en&stage=hard-soft&gumbelSeed=7');
  const rows = () =>
    page.$$eval('.sm-hard-soft :not(.sm-gumbel-freq) > .gumbel-list > .gumbel-row .stacked-bar', (bars) =>
      bars.map((b) => b.getAttribute('aria-label')),
    );
  const first = await rows();
  assert.equal(first.length, 7);
  assert.match(first[1], /The 0\.000, cat 0\.000, eats 1\.000, fish 0\.000/);
  assert.match(await page.textContent('.gumbel-row:nth-of-type(2) .gumbel-label'), /picks eats/);
  // The same link gives the same samples; "Draw again" moves the seed and changes them.
  const again = await lab.open('lesson=softmax&lang=en&stage=hard-soft&gumbelSeed=7');
  assert.deepEqual(
    await again.$$eval('.sm-hard-soft :not(.sm-gumbel-freq) > .gumbel-list > .gumbel-row .stacked-bar', (b) =>
      b.map((x) => x.getAttribute('aria-label')),
    ),
    first,
  );
  await page.getByRole('button', { name: 'Draw again' }).click();
  await page.waitForFunction(() => /gumbelSeed=8/.test(location.hash));
  const next = await rows();
  assert.deepEqual(next.slice(0, 2), first.slice(0, 2), 'soft and hard do not depend on the seed');
  assert.notDeepEqual(next.slice(2), first.slice(2));
  // τ → small: the Gumbel samples become (almost) one-hot, and still sum to 1. A sample can
  // only stay split where two noisy scores come within a few τ of each other: then between
  // those two keys alone.
  await page.fill('#sm-tau', '0');
  await page.waitForFunction(() => /gumbelTau=0.05/.test(location.hash));
  const samples = (await rows()).slice(2);
  let oneHot = 0;
  for (const label of samples) {
    const w = label
      .split(': ')
      .slice(1)
      .join(': ')
      .split(', ')
      .map((p) => Number(p.split(' ').pop()));
    const [top, second] = [...w].sort((a, b) => b - a);
    if (top >= 0.99) oneHot += 1;
    assert.ok(top + second >= 0.99, `on at most two keys: ${label}`);
    assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) <= 2e-3, `sums to 1: ${label}`);
  }
  assert.ok(oneHot >= samples.length - 1, `near one-hot: ${samples.join(' | ')}`);
  assert.deepEqual(page.errors, []);
});

test('the hand check accepts the right weights and rejects [0.2, 0.06, 0.1, 0.1]: it does not sum to 1', async () => {
  const page = await at('lesson=softmax&lang=en&stage=hand-check');
  const ref = refSoftmax(SCORES); // ≈ [0.0286, 0.0071, 0.9486, 0.0157]
  const boxes = page.locator('.guess-grid input');
  assert.equal(await boxes.count(), 4);
  for (let k = 0; k < 4; k++) await boxes.nth(k).fill(ref[k].toFixed(4));
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await page.waitForSelector('.sm-verdict');
  assert.equal(await page.getAttribute('.sm-verdict', 'data-result'), 'right');
  assert.equal(await page.getAttribute('.sm-sum', 'data-result'), 'ok');

  // The printed weights.
  await page.getByRole('button', { name: 'Try the printed weights' }).click();
  await page.waitForFunction(() => /smGuess=0.2,0.06,0.1,0.1/.test(location.hash));
  assert.equal(await page.getAttribute('.sm-verdict', 'data-result'), 'wrong');
  assert.match(await page.textContent('.sm-verdict'), /4 of 4 weights are off by more than 0\.005/);
  assert.equal(await page.getAttribute('.sm-sum', 'data-result'), 'bad');
  assert.match(await page.textContent('.sm-sum'), /add up to 0\.460: the set does not sum to 1/);

  // Close but not within 0.005 on one weight.
  const near = ref.map((x) => x.toFixed(4));
  near[2] = (ref[2] - 0.01).toFixed(4);
  for (let k = 0; k < 4; k++) await boxes.nth(k).fill(near[k]);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await page.waitForFunction(() => /smGuess=0.02/.test(location.hash));
  assert.match(await page.textContent('.sm-verdict'), /1 of 4 weights are off by more than 0\.005: eats/);

  // A typo is refused next to the field; the last valid state stays.
  await boxes.nth(1).fill('0.0o7');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  assert.equal(await boxes.nth(1).getAttribute('aria-invalid'), 'true');
  assert.match(await page.textContent('.guess-grid .field-error:not(:empty)'), /Please type a number/);
  assert.match(await page.evaluate(() => location.hash), /smGuess=0.02/);
  assert.deepEqual(page.errors, []);
});

test('bad scores get an inline message and the last valid row stays', async () => {
  const page = await at('lesson=softmax&lang=en&stage=overflow');
  const input = page.getByLabel('Scores (comma-separated)');
  await input.fill('1, two, 3');
  await input.press('Enter');
  await input.blur();
  assert.match(await page.textContent('.sm-scores-row .field-error'), /Item 2 is not a number/);
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  assert.doesNotMatch(await page.evaluate(() => location.hash), /smScores=/);
  assert.equal((await readOverflow(page)).stable.length, 4);
  await input.fill('1, 2, 3');
  await input.blur();
  await page.waitForFunction(() => /smScores=1,2,3/.test(location.hash));
  const ref = refSoftmax([1, 2, 3]);
  (await readOverflow(page)).stable.map(parseShown).forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 6e-5));
  assert.deepEqual(page.errors, []);
});

test('switching the language keeps the guess, the shift and the step', async () => {
  const page = await lab.open('lesson=softmax&lang=en&stage=hand-check&smShift=90&smGuess=0.2,0.06,0.1,0.1');
  await page.click('.lang-switch button[data-lang="zh"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /stage=hand-check/);
  assert.match(hash, /smShift=90/);
  assert.match(hash, /smGuess=0.2,0.06,0.1,0.1/);
  assert.match(await page.textContent('.sm-sum'), /你的权重加起来是 0\.460，总和不等于 1/);
  await page.click('.step[data-stage="overflow"]');
  const t = await readOverflow(page);
  assert.ok(t.naive.map(parseShown).every(Number.isNaN));
  assert.match(await page.textContent('.sm-overflow .msg'), /朴素 softmax 算崩了/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
