// The long-sequences lesson's sweep of n in headless Chromium, against the built page: naive,
// flash, windowed and linear attention at n = 64 and 128 in the workers, the bytes behind the
// chart equal to each method's formula written here (4 n², the tiles at the block size, linear
// attention's d × d + d state), linear attention's error equal to a double-precision reference
// of the same engine-drawn inputs to the digits shown, progress and Cancel on a longer sweep,
// and Chinese at 360 px with axe clean.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, start } from './harness.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const D = 64;
const B = 64; // the engine's default block (blockSize fallback)

// The status says the sweep to n = `to` (64 … to) ended: the learner's, or with `auto` the
// short one the step started when it opened.
const swept = (page, to, { auto = false, lang = 'en' } = {}) =>
  page.waitForFunction(
    ([want]) => document.querySelector('.long-sweep-status').textContent === want,
    [doneText(to, auto, lang)],
    { timeout: 120000 },
  );
function doneText(to, auto, lang) {
  const runs = 4 * Math.log2(to / 32);
  if (lang === 'zh')
    return auto
      ? `已扫描 n = 64 … ${to}：共 ${runs} 次运行，这是打开本步时自动开始的短扫描。选一个更大的 n，再按“扫描 n”就能继续。`
      : `已扫描 n = 64 … ${to}：共 ${runs} 次运行。`;
  return auto
    ? `Swept n = 64 … ${to}: ${runs} runs, a short sweep started when the step opened. Choose a larger n and press Sweep n to go further.`
    : `Swept n = 64 … ${to}: ${runs} runs.`;
}

const tableOf = (page, sel) =>
  page.$$eval(`${sel} tbody tr`, (rows) => rows.map((r) => Array.from(r.cells, (c) => c.textContent.trim())));

// Exact (softmax) attention and linear attention (φ = elu + 1) in double; max |Δ| and
// ‖Δ‖ / ‖exact‖ between them.
function linearError(q, k, v) {
  const n = q.length,
    d = q[0].length;
  const phi = (x) => (x > 0 ? x + 1 : Math.exp(x));
  let maxAbs = 0,
    d2 = 0,
    e2 = 0;
  for (let i = 0; i < n; i++) {
    const s = k.map((kj) => q[i].reduce((a, x, c) => a + x * kj[c], 0) / Math.sqrt(d));
    const m = Math.max(...s);
    const e = s.map((x) => Math.exp(x - m));
    const sum = e.reduce((a, x) => a + x, 0);
    const lw = k.map((kj) => q[i].reduce((a, x, c) => a + phi(x) * phi(kj[c]), 0));
    const lsum = lw.reduce((a, x) => a + x, 0);
    for (let c = 0; c < v[0].length; c++) {
      let exact = 0,
        lin = 0;
      for (let j = 0; j < n; j++) {
        exact += (e[j] / sum) * v[j][c];
        lin += (lw[j] / lsum) * v[j][c];
      }
      maxAbs = Math.max(maxAbs, Math.abs(lin - exact));
      d2 += (lin - exact) ** 2;
      e2 += exact ** 2;
    }
  }
  return { maxAbs, relative: Math.sqrt(d2 / e2) };
}

test('a sweep to 128: every method at n = 64 and 128, the bytes behind the chart by formula, linear’s error by a double reference', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longSweepTo=128&longWorkers=1&longWindow=16&seed=42');
  await swept(page, 128, { auto: true }); // the step opened on the short sweep (to 128 here)
  await page.getByRole('button', { name: 'Sweep n' }).click();
  await swept(page, 128);
  assert.equal(await page.$eval('.long-sweep-progress', (p) => p.value), 1);
  assert.equal(await page.isDisabled('.long-sweep-cancel'), true);

  // the table behind the bytes chart: n, naive, flash, window 16, linear
  await page.click('.long-sweep-bytes .hm-toggle');
  const head = await page.$$eval('.long-sweep-bytes thead th', (th) => th.map((x) => x.textContent.trim()));
  assert.deepEqual(head, ['sequence length n', 'naive', 'flash', 'window 16', 'linear (elu + 1)']);
  const bytes = await tableOf(page, '.long-sweep-bytes');
  const num = (t) => Number(t.replace(/,/g, ''));
  assert.deepEqual(
    bytes.map((r) => r.map(num)),
    [64, 128].map((n) => [n, 4 * n * n, 4 * (B * B + B * D + 4 * B), 4 * (B * B + B * D + 4 * B), 4 * (D * D + D)]),
  );
  // the time chart has a point for every method and n
  const times = await (async () => {
    await page.click('.long-sweep-time .hm-toggle');
    return tableOf(page, '.long-sweep-time');
  })();
  assert.equal(times.length, 2);
  for (const r of times) for (const t of r.slice(1)) assert.ok(num(t) > 0, `time ${t}`);
  // naive's n × n passes flash's tiles between 64 and 128: 4 n² = 4 (B² + B d + 4B) at n ≈ 91.9
  assert.match(
    await page.textContent('.long-sweep-cross'),
    /^Naive holds more bytes than flash’s tiles from n ≈ 92 on\./,
  );
  assert.match(await page.textContent('.long-sweep-note'), /4·\(B² \+ B·d \+ 4B\) = 33,792 bytes at B = 64, d = 64/);

  // linear attention against exact attention, per n, to the digits shown
  const errors = await tableOf(page, '.long-sweep-errors');
  assert.deepEqual(
    errors.map((r) => r[0]),
    ['64', '128'],
  );
  const { q, k, v } = await page.evaluate(() => {
    const e = window.attentionLab.engine;
    const rows = (m) =>
      Array.from({ length: m.rows }, (_, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols)));
    const draw = (stream) => rows(e.randomMatrix({ rows: 64, cols: 64, seed: 42, stream: stream * 64 }));
    return { q: draw(1), k: draw(2), v: draw(3) };
  });
  const want = linearError(q, k, v);
  const [, maxAbs, relative] = errors[0];
  assert.ok(Math.abs(Number(maxAbs) - want.maxAbs) <= 0.5e-4 + 1e-5, `max |Δ| ${maxAbs} vs ${want.maxAbs}`);
  assert.ok(
    Math.abs(Number(relative.replace(' %', '')) - 100 * want.relative) <= 0.05 + 1e-3,
    `relative ${relative} vs ${100 * want.relative} %`,
  );
  assert.ok(want.relative > 0.01, 'a different model: far from exact attention');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a long sweep shows its progress and Cancel stops it, keeping the runs so far', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longSweepTo=8192&longWorkers=1');
  await page.getByRole('button', { name: 'Sweep n' }).click();
  // progress: some runs done, the bar part way, the status naming the n and method
  await page.waitForFunction(
    () => {
      const p = document.querySelector('.long-sweep-progress').value;
      return p > 0.1 && p < 1 && !document.querySelector('.long-sweep-charts').hidden;
    },
    null,
    { timeout: 120000 },
  );
  assert.match(
    await page.textContent('.long-sweep-status'),
    /^n = \d+: (naive|flash|window \d+|linear \(elu \+ 1\)) \(run \d+ of 32\)$/,
  );
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForFunction(() =>
    /^Cancelled at n = \d+;/.test(document.querySelector('.long-sweep-status').textContent),
  );
  assert.ok((await page.$eval('.long-sweep-progress', (p) => p.value)) < 1);
  assert.equal(await page.isDisabled('.long-sweep-go'), false);
  assert.equal(await page.isDisabled('.long-sweep-cancel'), true);
  const label = await page.$eval('.long-sweep-bytes svg', (s) => s.getAttribute('aria-label'));
  assert.match(label, /naive: 64 → 16,384/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Chinese at 360 px: the sweep, its table and no sideways scroll', async () => {
  const page = await lab.open('lesson=long&lang=zh&stage=cost&longSweepTo=128&longWorkers=1', {
    width: 360,
    height: 800,
    locale: 'zh-CN',
  });
  await page.getByRole('button', { name: '扫描 n' }).click();
  await swept(page, 128, { lang: 'zh' });
  await page.click('.long-sweep-bytes .hm-toggle');
  assert.equal((await tableOf(page, '.long-sweep-bytes')).length, 2);
  assert.match(await page.textContent('.long-sweep-errors caption'), /线性注意力与精确注意力/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `scrollWidth ${width}`);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The cost step opens on its charts: the short sweep (n = 64 … 512) starts by itself, the figure
// is aria-busy until its first points are drawn, and the bytes behind the chart are each
// method's formula (as above) at every n.
test('the cost step opens with its charts drawn, the bytes equal to the formula', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=cost&longWindow=16');
  const fig = 'section[data-step="cost"] [data-figure="main"]';
  await page.waitForSelector(
    `${fig}:not([aria-busy]) .long-sweep-charts:not([hidden]) svg circle, ${fig}:not([aria-busy]) .long-sweep-charts:not([hidden]) svg path`,
    { timeout: 60000 },
  );
  const top = await page.$eval(fig, (el) => el.getBoundingClientRect().top + scrollY);
  assert.ok(top < 800, `the figure starts at ${top} px`);
  await swept(page, 512, { auto: true });
  assert.equal(await page.isDisabled('.long-sweep-go'), false);
  assert.equal(await page.isDisabled('.long-sweep-cancel'), true);
  await page.click('.long-sweep-bytes .hm-toggle');
  const num = (t) => Number(t.replace(/,/g, ''));
  const bytes = await tableOf(page, '.long-sweep-bytes');
  assert.deepEqual(
    bytes.map((r) => r.map(num)),
    [64, 128, 256, 512].map((n) => [
      n,
      4 * n * n,
      4 * (B * B + B * D + 4 * B),
      4 * (B * B + B * D + 4 * B),
      4 * (D * D + D),
    ]),
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Leaving the step stops the sweep it started: no work goes on after the learner has left.
test('the short sweep stops when the learner leaves the step, and the when step opens on the same charts', async () => {
  const page = await lab.open('lesson=long&lang=en&stage=tiling&longWorkers=1');
  await page.waitForSelector('section[data-step="tiling"]:not([hidden])');
  // open the cost step, and leave it for the tiling step as soon as its sweep is running
  await page.evaluate(() => (location.hash = 'lesson=long&lang=en&stage=cost&longWorkers=1'));
  await page.waitForFunction(
    () => {
      if (document.querySelector('.long-sweep-cancel').disabled) return false;
      location.hash = 'lesson=long&lang=en&stage=tiling&longWorkers=1';
      return true;
    },
    null,
    { polling: 'raf', timeout: 60000 },
  );
  await page.waitForFunction(() =>
    /^Cancelled at n = \d+;/.test(document.querySelector('.long-sweep-status').textContent),
  );
  assert.ok((await page.$eval('.long-sweep-progress', (p) => p.value)) < 1);
  assert.equal(await page.isDisabled('.long-sweep-go'), false);
  assert.equal(await page.isDisabled('.long-sweep-cancel'), true);

  // the when step: nothing drawn yet, so it starts the short sweep and shows its charts
  await page.evaluate(() => (location.hash = 'lesson=long&lang=en&stage=when&longWorkers=1'));
  const fig = 'section[data-step="when"] [data-figure="main"]';
  await page.waitForSelector(`${fig}:not([aria-busy]) .long-sweep-bytes svg`, { timeout: 60000 });
  await page.waitForFunction(
    () =>
      /^Measured on your machine by the sweep of step 1, n = 64 … 512\./.test(
        document.querySelector('.long-when-sweep').textContent,
      ),
    null,
    { timeout: 120000 },
  );
  const label = await page.$eval(`${fig} .long-sweep-bytes svg`, (s) => s.getAttribute('aria-label'));
  assert.match(label, /naive: 64 → 16,384, 128 → 65,536, 256 → 262,144, 512 → 1,048,576/);
  assert.equal(await page.isDisabled('.long-when-cancel'), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});
