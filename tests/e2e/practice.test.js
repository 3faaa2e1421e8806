// The "from here to practice" chapter in headless Chromium: the code shown (NumPy and PyTorch,
// switched by keyboard) computes the state in the link, and so do the numbers shown; the copy
// button puts the code on the clipboard (or, without clipboard access, selects it and says so),
// the multi-head step shows the multi-head layer, and nothing scrolls sideways at 360 px. In both
// languages. The expected numbers are computed here, independently of the page: the inputs are
// read from the code shown, the settings are the link's, and tests/js/reference.js computes the
// attention in double precision; the code shown is run with PYTHON (default /usr/bin/python3 with
// numpy and torch, as tests/js/export.test.js) and must print those numbers.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { onePage } from './visit.js';
import { assertNoSideScroll } from './lesson-page.js';
import { spawnSync } from 'node:child_process';
import { attendRef, multiHeadRef } from '../js/reference.js';

const PYTHON = process.env.PYTHON || '/usr/bin/python3';

let lab;
let at; // one page (1280 px) for the tests that need no fresh one, moved by its link
before(async () => {
  lab = await start();
  at = onePage(lab);
});
after(async () => {
  await lab?.close();
});

const STATE = 'preset=cat-chase&causal=1&keyPadding=1,0,0&fill=large-negative&temperature=0.5';
// The same settings, as attendRef reads them; and after "Reset masks" (the defaults).
const SETTINGS = { causal: true, keyPadding: [true, false, false], maskFill: 'large-negative', temperature: 0.5 };
const RESET = {};

// A float32 array literal of the code shown: `name = np.array([[...], ...], dtype=...)` or torch.tensor.
function arrayIn(code, name) {
  const m = new RegExp(`^${name} = (?:np\\.array|torch\\.tensor)\\((\\[[^=]*?\\])\\s*,\\s*dtype`, 'm').exec(code);
  assert.ok(m, `${name} is written in the code`);
  return JSON.parse(m[1]);
}

// Runs the code shown; what it prints with show(name, x) -> { name: rows of numbers }. The same
// code prints the same: it runs once (the Chinese page shows the English page's code).
const printedBy = new Map();
function runShown(code) {
  if (!printedBy.has(code)) printedBy.set(code, runPython(code));
  return printedBy.get(code);
}
function runPython(code) {
  const r = spawnSync(PYTHON, ['-'], { input: code, encoding: 'utf8' });
  assert.equal(r.status, 0, `${PYTHON} ran the code: ${r.stderr}`);
  const out = {};
  let rows = null;
  for (const line of r.stdout.trim().split('\n')) {
    if (/^[a-z]/.test(line)) out[line] = rows = [];
    else rows.push(line.trim().split(/\s+/).map(Number));
  }
  return out;
}

// Every entry of got (rows) within tol of want (rows).
function near(what, got, want, tol) {
  assert.equal(got.length, want.length, `${what}: rows`);
  want.forEach((row, i) =>
    row.forEach((w, j) =>
      assert.ok(Math.abs(got[i][j] - w) <= tol, `${what}[${i}][${j}]: ${got[i][j]}, expected ${w}`),
    ),
  );
}

// The example's code on screen: run it, and compare what it prints with the reference on the
// inputs it holds and the given settings. -> the reference
function checkExampleCode(code, settings) {
  const ref = attendRef({ query: arrayIn(code, 'Q'), key: arrayIn(code, 'K'), value: arrayIn(code, 'V'), ...settings });
  const printed = runShown(code);
  near("the code's weights", printed.weights, ref.weights, 1e-5);
  near("the code's output", printed.output, ref.output, 1e-4);
  return ref;
}

const shownCode = (page, box) => page.textContent(`[data-code="${box}"] code`);

for (const lang of ['en', 'zh']) {
  test(`${lang}: the code shown is the export of the state on screen, in NumPy and PyTorch`, async () => {
    const page = await at(`lesson=practice&stage=example&lang=${lang}&${STATE}`);
    assert.match(await page.textContent('h2'), lang === 'en' ? /From here to practice/ : /从这里走向实践/);
    const numpy = await shownCode(page, 'example');
    assert.match(numpy, /np\.float32\(-1e9\)/);
    assert.match(numpy, /temperature T/);
    const ref = checkExampleCode(numpy, SETTINGS);

    // the weights in the table (4 decimals) are the reference's; row 0 has every key blocked
    const cells = await page.$$eval('.pr-tables table:first-of-type tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent.replace('\u2212', '-')))),
    );
    near('the weights shown', cells.slice(0, ref.weights.length), ref.weights, 5e-5 + 2e-6); // the first table
    assert.deepEqual(ref.fullyMaskedRows, [0]);
    assert.match(
      await page.textContent('.pr-rule'),
      lang === 'en' ? /every key blocked.*−1e9.*equal/ : /所有 Key 都被屏蔽.*−1e9.*全都相等/,
    );

    // PyTorch, by keyboard: the radio group moves with the arrow keys
    await page.focus('section[data-step="example"] .pr-bar input[value="numpy"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => /prLang=torch/.test(location.hash));
    const torch = await shownCode(page, 'example');
    assert.match(torch, /F\.softmax\(scores, dim=-1\)/);
    assert.match(torch, /masked_fill\(blocked, -1e9\)/);
    checkExampleCode(torch, SETTINGS);

    // the reset button clears masks, fill, temperature and softmax; the code follows
    await page.click('[data-step="example"] button:has-text("' + (lang === 'en' ? 'Reset masks' : '重置掩码') + '")');
    await page.waitForFunction(() => !/causal=1|fill=|temperature=/.test(location.hash));
    const reset = await shownCode(page, 'example');
    checkExampleCode(reset, RESET);
    assert.doesNotMatch(reset, /masked_fill/);
    assert.equal(await page.isHidden('.pr-rule'), true);

    await page.setViewportSize({ width: 360, height: 800 });
    await assertNoSideScroll(page, `${lang} practice at 360 px`);
    await page.setViewportSize({ width: 1280, height: 900 }); // the page goes on to the next test
    assert.deepEqual(page.errors, []);
  });
}

test('the copy button puts the code on the clipboard; without access it selects the code and says so', async () => {
  const page = await at(`lesson=practice&stage=example&${STATE}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lab.url });
  const code = await shownCode(page, 'example');
  await page.focus('section[data-step="example"] .pr-copy');
  await page.keyboard.press('Enter');
  await page.waitForSelector('section[data-step="example"] .pr-status[data-state="copied"]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  assert.match(await page.textContent('section[data-step="example"] .pr-status'), /Copied/);

  // no clipboard access: the code is selected and the message says how to copy it
  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));
  });
  await page.click('section[data-step="example"] .pr-copy');
  await page.waitForSelector('section[data-step="example"] .pr-status[data-state="selected"]');
  // (the selection's text leaves out the code's last newline)
  assert.equal(await page.evaluate(() => window.getSelection().toString().trimEnd()), code.trimEnd());
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('pr-code')), true);
  assert.match(await page.textContent('section[data-step="example"] .pr-status'), /Ctrl\+C/);
  assert.deepEqual(page.errors, []);
});

test('the multi-head step shows its layer as torch.nn.MultiheadAttention code', async () => {
  const page = await lab.open(
    'lesson=practice&stage=multihead&prLang=torch&prTokens=the,cat,sat,down&prD=8&prH=2&seed=5',
  );
  const code = await shownCode(page, 'multihead');
  assert.match(
    code,
    /torch\.nn\.MultiheadAttention\(embed_dim=X\.shape\[1\], num_heads=2, bias=False, batch_first=True\)/,
  );
  // the layer of the code's own inputs and weights, in double: what the code prints and the
  // output shown under it
  const X = arrayIn(code, 'X');
  assert.deepEqual([X.length, X[0].length], [4, 8]);
  const [Wq, Wk, Wv, Wo] = ['Wq', 'Wk', 'Wv', 'Wo'].map((w) => arrayIn(code, w));
  const ref = multiHeadRef({ query: X, key: X, value: X, heads: 2, Wq, Wk, Wv, Wo });
  near("the code's output", runShown(code).output, ref.output, 1e-4);
  const cells = await page.$$eval('.pr-tables .table-scroll:last-child tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent.replace('\u2212', '-')))),
  );
  near('the output shown', cells.slice(0, ref.output.length), ref.output, 5e-5 + 2e-6);
  await page.click('.stepper button.step[data-stage="conventions"]');
  assert.match(await page.textContent('[data-step="conventions"]'), /batch_first=True.*average_attn_weights=True/s);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the multi-head step and the multi-head chapter send their layer to each other through links', async () => {
  const page = await lab.open('lesson=practice&stage=multihead&prTokens=the,cat,sat,down&prD=8&prH=2');
  await page.click('[data-step="multihead"] button.linklike');
  await page.waitForSelector('.mh-code-link');
  const there = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  assert.equal(there.get('lesson'), 'multihead');
  assert.equal(there.get('stage'), 'heads');
  assert.equal(there.get('mhTokens'), 'the,cat,sat,down');
  assert.equal(there.get('mhD'), '8');
  assert.equal(there.get('mhH'), '2');
  // a layer changed there comes back as that layer's code
  await page.fill('[data-step="heads"] input[type="number"] >> nth=1', '4');
  await page.press('[data-step="heads"] input[type="number"] >> nth=1', 'Enter');
  await page.waitForFunction(() => location.hash.includes('mhH=4'));
  await page.click('.mh-code-link');
  await page.waitForSelector('[data-code="multihead"]');
  const back = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  assert.equal(back.get('lesson'), 'practice');
  assert.equal(back.get('prTokens'), 'the,cat,sat,down');
  assert.equal(back.get('prD'), '8');
  assert.equal(back.get('prH'), '4');
  assert.match(await page.textContent('[data-step="multihead"] .pr-settings'), /8, 4 heads of d_k = 2/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the block step shows the Transformer block chapter’s two layers as code that prints the numbers shown', async () => {
  // the block chapter's state travels in the link: pre-norm, GELU, the hand-set cross-attention
  const page = await at('lesson=practice&stage=block&lang=en&blNormFirst=1&blAct=gelu&blAligned=1');
  const tables = () =>
    page.$$eval('[data-step="block"] .pr-tables table', (ts) =>
      ts.map((t) =>
        [...t.tBodies[0].rows].map((tr) =>
          [...tr.querySelectorAll('td')].map((td) => Number(td.textContent.replace('\u2212', '-'))),
        ),
      ),
    );
  const [encoderShown, decoderShown] = await tables();
  assert.equal(encoderShown.length, 4);
  assert.equal(decoderShown.length, 3);
  const settings = await page.textContent('[data-step="block"] .pr-settings');
  assert.match(settings, /pre-norm/);
  assert.match(settings, /GELU/);
  assert.match(settings, /hand-set/);
  for (const lang of ['numpy', 'torch']) {
    if (lang === 'torch') {
      await page.click('section[data-step="block"] .pr-bar input[value="torch"]');
      await page.waitForFunction(() =>
        /TransformerDecoderLayer/.test(document.querySelector('[data-code="block"] code').textContent),
      );
    }
    const code = await shownCode(page, 'block');
    if (lang === 'torch') assert.match(code, /norm_first=True/);
    const printed = runShown(code);
    near(`${lang}: encoder output`, encoderShown, printed['encoder output'], 5e-5 + 2e-6);
    near(`${lang}: decoder output`, decoderShown, printed['decoder output'], 5e-5 + 2e-6);
  }
  // residual off in the block chapter: the code is the layer with it on, and the step says so
  await page.evaluate(() => (location.hash = location.hash.replace('blAligned=1', 'blAligned=1&blResidual=0')));
  await page.waitForSelector('[data-step="block"] .pr-switched:not([hidden])');
  assert.deepEqual(await tables(), [encoderShown, decoderShown]);
  await page.click('[data-step="block"] button.linklike');
  await page.waitForFunction(() => /lesson=block/.test(location.hash));
  assert.deepEqual(page.errors, []);
});
