// The long-sequences chapter in headless Chromium, against the built page (dist/): runs in
// workers with their measurements in the table, naive attention refused past its limit with
// the engine's reason, the online-softmax animation against a double-precision replay of the
// same inputs, the masks as counted from their definition, both languages, the keyboard and
// a 360 px screen.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { assertNoSideScroll } from './lesson-page.js';
import { visit } from './visit.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const runsTable = (page) =>
  page.$$eval('.long-cost .long-table tbody tr', (rows) =>
    rows.map((r) => Array.from(r.cells, (c) => c.textContent.trim())),
  );

test('running all three at n = 256: three measured rows, bars, and the workers finish', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longN=256&longWorkers=2&longWindow=32');
  assert.match(await page.textContent('.long-cost .long-value'), /n = 256/);
  await page.getByRole('button', { name: 'Run all three' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.long-cost .long-table tbody tr').length === 3, null, {
    timeout: 120000,
  });
  await page.waitForFunction(() => !document.querySelector('.long-cost .long-run .btn.primary').disabled);
  const rows = await runsTable(page);
  assert.deepEqual(
    rows.map((r) => r.slice(0, 2)),
    [
      ['256', 'naive'],
      ['256', 'flash'],
      ['256', 'window 32'],
    ],
  );
  for (const r of rows) {
    assert.ok(Number(r[2].replace(/,/g, '')) >= 0, `time ${r[2]}`);
    assert.ok(Number(r[3]) >= 64, `two workers of at least 32 MiB each: ${r[3]}`);
    assert.equal(r[4], '2');
  }
  const bars = await page.$$eval('.long-cost .bars svg', (s) => s.map((x) => x.getAttribute('aria-label')));
  assert.match(bars[0], /^Time at n = 256/);
  assert.match(bars[1], /^Memory at n = 256/);
  assert.match(
    await page.textContent('.long-cost .long-status'),
    /window 32 at n = 256: \d+ ms, \d+ MiB of wasm memory in 2 worker\(s\)\./,
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('naive attention at 16,384 tokens is refused before it allocates, with the engine’s reason', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longN=16384');
  await page.getByRole('button', { name: 'Run naive' }).click();
  await page.waitForFunction(() => document.querySelector('.long-refused').textContent !== '');
  const text = await page.textContent('.long-refused');
  assert.match(
    text,
    /^Naive attention at n = 16384 is refused before anything is allocated\. The engine says: query: expected 1 to 2048 rows/,
  );
  assert.match(text, /5 × 16384 × 16384 × 4 bytes = 5\.0 GiB here; flashAttend computes the same output/);
  assert.deepEqual((await runsTable(page))[0], ['16384', 'naive', 'refused', '—', '2']);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the keyboard moves n, and the prediction is checked', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longN=1024');
  await page.focus('#long-n');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /longN=2048/.test(location.hash));
  assert.match(await page.textContent('.long-cost .long-value'), /n = 2048/);
  await page.check('.long-cost .predict input[value="4"]');
  await page.getByRole('button', { name: 'Check my guess' }).click();
  // checked against the sweep's measured bytes, once it has two lengths
  await page.waitForFunction(() => document.querySelector('.long-cost .predict-feedback').textContent !== '', null, {
    timeout: 60000,
  });
  assert.match(await page.textContent('.long-cost .predict-feedback'), /^Right\. There are n × n cells/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// "Just show me" shows what the engine measured: the bytes naive attention held at two lengths
// (the sweep's), 4·n² each.
test('the memory question, shown without a guess: the measured bytes at n and 2n', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longWorkers=1&longSweepTo=128');
  await page.getByRole('button', { name: 'Just show me' }).click();
  await page.waitForFunction(
    () => /^Measured by the sweep/.test(document.querySelector('.long-cost .long-answer')?.textContent),
    null,
    { timeout: 60000 },
  );
  assert.equal(await page.isVisible('.long-cost .long-answer'), true);
  const text = await page.textContent('.long-cost .long-answer');
  const m = text.match(
    /held ([\d,]+) bytes for its scores at n = (\d+) and ([\d,]+) bytes at n = (\d+), ([\d.]+) times/,
  );
  assert.ok(m, text);
  const [b1, n1, b2, n2, r] = m.slice(1).map((x) => Number(x.replace(/,/g, '')));
  assert.equal(n2, 2 * n1);
  assert.equal(b1, 4 * n1 * n1);
  assert.equal(b2, 4 * n2 * n2);
  assert.equal(r, 4);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The short sweep a step starts stops when the learner leaves the step, and goes on from where it
// was when they come back: the memory question, which needs two lengths, gets its answer.
test('a sweep left after its first length goes on when the learner comes back, and answers the question', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longWorkers=1');
  // Left while the sweep measures its second length (or later, on a fast machine).
  await page.waitForFunction(
    () => /^n = (?!64:)\d+:|^Swept/.test(document.querySelector('.long-sweep-status').textContent),
    null,
    { polling: 'raf', timeout: 60000 },
  );
  await page.click('.stepper button.step[data-stage="tiling"]');
  await page.click('.stepper button.step[data-stage="cost"]');
  await page.waitForFunction(
    () => /^Measured by the sweep/.test(document.querySelector('.long-cost .long-answer')?.textContent),
    null,
    { timeout: 60000 },
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Block by block, in double: the largest score of the block, the running max m, the factor
// exp(m_old - m_new) and the running sum l, from the same engine-drawn inputs.
function replay(q, k, i, block, dk) {
  const s = k.map((kj) => q[i].reduce((a, x, c) => a + x * kj[c], 0) / Math.sqrt(dk));
  const out = [];
  let m = -Infinity,
    l = 0;
  for (let j0 = 0; j0 < s.length; j0 += block) {
    const part = s.slice(j0, j0 + block);
    const bm = Math.max(...part);
    const mNew = Math.max(m, bm);
    const r = l > 0 ? Math.exp(m - mNew) : 0;
    l = r * l + part.reduce((a, x) => a + Math.exp(x - mNew), 0);
    m = mNew;
    out.push({ bm, m, r, l });
  }
  return out;
}

test('the online softmax, stepped with the keyboard: every number the double replay gives', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=tiling&longRow=9&longBlock=4&longStep=0&seed=42');
  assert.match(await page.textContent('.long-explain'), /Nothing folded in yet/);
  const next = page.getByRole('button', { name: 'Next block' });
  await next.focus();
  for (let k = 1; k <= 4; k++) {
    await page.keyboard.press('Enter');
    await page.waitForFunction((k) => new RegExp(`longStep=${k}`).test(location.hash), k);
  }
  const { q, k } = await page.evaluate(() => {
    const e = window.attentionLab.engine;
    const rows = (m) =>
      Array.from({ length: m.rows }, (_, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols)));
    return {
      q: rows(e.randomMatrix({ rows: 16, cols: 8, seed: 42, stream: 1 })),
      k: rows(e.randomMatrix({ rows: 16, cols: 8, seed: 42, stream: 2 })),
    };
  });
  const want = replay(q, k, 9, 4, 8);
  const rows = await page.$$eval('.long-tiling .long-table tbody tr', (tr) =>
    tr.map((r) => Array.from(r.cells, (c) => c.textContent.trim())),
  );
  assert.equal(rows.length, 4);
  rows.forEach((r, c) => {
    assert.equal(r[1], `${4 * c}–${4 * c + 3}`);
    const near = (got, x, what) =>
      assert.ok(Math.abs(Number(got) - x) <= 6e-4 * Math.max(1, Math.abs(x)), `block ${c} ${what}: ${got} vs ${x}`);
    near(r[2], want[c].bm, 'block max');
    near(r[3], want[c].m, 'm');
    if (c > 0) near(r[4], want[c].r, 'rescale');
    near(r[5], want[c].l, 'l');
  });
  assert.equal(await next.isDisabled(), true, 'no block after the last');
  // the figure says what it shows, has a score axis and a running-sum axis, and carries the last
  // block's m and l
  assert.match(
    await page.textContent('.long-figure figcaption'),
    /^The online softmax of query 9: its scores against 16 keys in blocks of 4, the running max m/,
  );
  const ticks = await page.$$eval('.long-figure .long-yaxis', (axes) =>
    axes.map((a) => a.querySelectorAll('.tick').length),
  );
  assert.equal(ticks.length, 2, 'two y axes: scores and running sum');
  for (const t of ticks) assert.ok(t >= 3, `ticks: ${ticks}`);
  const label = async (sel) => Number((await page.textContent(sel)).replace(/^[ml] = /, '').replace('\u2212', '-'));
  assert.ok(Math.abs((await label('.long-figure .long-mlabel')) - want[3].m) <= 6e-4, 'm on the figure');
  assert.ok(Math.abs((await label('.long-figure .long-llabel')) - want[3].l) <= 6e-4 * want[3].l, 'l on the figure');
  const outputs = await page.$$eval('.long-outputs .long-vec', (p) => p.map((x) => x.textContent));
  assert.equal(outputs.length, 2);
  assert.equal(
    outputs[0].replace(/^flash: /, ''),
    outputs[1].replace(/^naive: /, ''),
    'flash and naive outputs agree to 4 decimals',
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('masks: a window of 3 and a stride of 4 on 32 tokens, counted from their definitions', async () => {
  const count = (ok) => {
    let n = 0;
    for (let i = 0; i < 32; i++) for (let j = 0; j < 32; j++) n += ok(Math.abs(i - j)) ? 1 : 0;
    return n;
  };
  const page = await lab.open('lesson=long&lang=en&stage=patterns&longPattern=window&longWidth=3');
  let caption = await page.textContent('.long-patterns .hint');
  assert.match(caption, new RegExp(`^${count((d) => d <= 3)} of 1024 cells attended`));
  assert.match(caption, /6 of 16 tiles of 8 × 8 skipped whole/); // the diagonal tiles and their neighbours remain
  await page.selectOption('#long-pattern', 'stride');
  await page.waitForFunction(() => /longPattern=stride/.test(location.hash));
  await page.fill('.long-patterns .long-num', '4');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /longWidth=4/.test(location.hash));
  caption = await page.textContent('.long-patterns .hint');
  assert.match(caption, new RegExp(`^${count((d) => d < 4 || d % 4 === 0)} of 1024 cells attended`));
  // the same mask as a table: 32 rows of 32 cells
  await page.click('.long-patterns .hm-toggle');
  const shape = await page.$eval(
    '.long-patterns table',
    (t) => `${t.tBodies[0].rows.length}x${t.tHead.rows[0].cells.length - 1}`,
  );
  assert.equal(shape, '32x32');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// tests/e2e/layout.test.js opens every step at 360 px in both languages: here the Chinese of two
// of them, on one page.
test('Chinese at 360 px', async () => {
  const page = await lab.open('lesson=long&lang=zh&stage=cost', { width: 360, height: 800, locale: 'zh-CN' });
  assert.match(await page.textContent('.long-cost'), /三种都运行/);
  await visit(page, 'lesson=long&lang=zh&stage=when');
  assert.match(await page.textContent('.long-when'), /大约 2000 个 token 以内，完整注意力就够了/);
  await assertNoSideScroll(page, 'when');
  assert.deepEqual(page.errors, []);
  await page.close();
});
