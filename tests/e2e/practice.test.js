// The "from here to practice" chapter in headless Chromium: the code shown is what export.js
// writes for the state in the link (NumPy and PyTorch, switched by keyboard), the numbers
// shown are the engine's, the copy button puts the code on the clipboard (or, without
// clipboard access, selects it and says so), the multi-head step shows the multi-head layer,
// and nothing scrolls sideways at 360 px. In both languages.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { assertNoSideScroll } from './lesson-page.js';
import { loadEngine } from '../../web/src/engine.js';
import { CORE_SCHEMA, parseHash } from '../../web/src/hosts/state.js';
import { runExample } from '../../web/src/lesson/example.js';
import { attentionSpec, multiHeadSpec, exportCode } from '../../web/src/lesson/export.js';
import { layerWeights, tokenMatrix } from '../../web/src/lesson/layer.js';

let lab;
let engine;
before(async () => {
  engine = await loadEngine({ simd: false });
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const STATE = 'preset=cat-chase&causal=1&keyPadding=1,0,0&fill=large-negative&temperature=0.5';

// The example's code for the page's current hash, written here by export.js.
async function expectedExample(page, lang) {
  const hash = await page.evaluate(() => location.hash);
  const { state } = parseHash(hash, CORE_SCHEMA);
  const { inputs, args, result } = runExample(engine, state);
  const spec = attentionSpec({
    args,
    queryTokens: inputs.queryTokens,
    keyTokens: inputs.keyTokens,
    scoresTyped: inputs.scoresTyped,
  });
  return { code: exportCode(spec, lang), result };
}

const shownCode = (page, box) => page.textContent(`[data-code="${box}"] code`);

for (const lang of ['en', 'zh']) {
  test(`${lang}: the code shown is the export of the state on screen, in NumPy and PyTorch`, async () => {
    const page = await lab.open(`lesson=practice&stage=example&lang=${lang}&${STATE}`);
    assert.match(await page.textContent('h2'), lang === 'en' ? /From here to practice/ : /从这里走向实践/);
    const numpy = await expectedExample(page, 'numpy');
    assert.equal(await shownCode(page, 'example'), numpy.code);
    assert.match(numpy.code, /np\.float32\(-1e9\)/);
    assert.match(numpy.code, /temperature T/);

    // the weights in the table are the engine's (4 decimals); row 0 has every key blocked
    const cells = await page.$$eval('.pr-tables table:first-of-type tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    const w = numpy.result.weights;
    for (let i = 0; i < w.rows; i++)
      for (let j = 0; j < w.cols; j++) {
        assert.ok(
          Math.abs(Number(cells[i][j].replace('\u2212', '-')) - w.data[i * w.cols + j]) <= 5e-5,
          `weights[${i}][${j}]`,
        );
      }
    assert.match(
      await page.textContent('.pr-rule'),
      lang === 'en' ? /every key blocked.*−1e9.*equal/ : /所有 Key 都被屏蔽.*−1e9.*全都相等/,
    );

    // PyTorch, by keyboard: the radio group moves with the arrow keys
    await page.focus('[data-code="example"] input[value="numpy"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => /prLang=torch/.test(location.hash));
    const torch = await expectedExample(page, 'torch');
    assert.equal(await shownCode(page, 'example'), torch.code);
    assert.match(torch.code, /F\.softmax\(scores, dim=-1\)/);
    assert.match(torch.code, /masked_fill\(blocked, -1e9\)/);

    // the reset button clears masks, fill, temperature and softmax; the code follows
    await page.click('[data-step="example"] button:has-text("' + (lang === 'en' ? 'Reset masks' : '重置掩码') + '")');
    await page.waitForFunction(() => !/causal=1|fill=|temperature=/.test(location.hash));
    const reset = await expectedExample(page, 'torch');
    assert.equal(await shownCode(page, 'example'), reset.code);
    assert.doesNotMatch(reset.code, /masked_fill/);
    assert.equal(await page.isHidden('.pr-rule'), true);

    await page.setViewportSize({ width: 360, height: 800 });
    await assertNoSideScroll(page, `${lang} practice at 360 px`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('the copy button puts the code on the clipboard; without access it selects the code and says so', async () => {
  const page = await lab.open(`lesson=practice&stage=example&${STATE}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lab.url });
  const code = await shownCode(page, 'example');
  await page.focus('[data-code="example"] .pr-copy');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-code="example"] .pr-status[data-state="copied"]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  assert.match(await page.textContent('[data-code="example"] .pr-status'), /Copied/);

  // no clipboard access: the code is selected and the message says how to copy it
  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));
  });
  await page.click('[data-code="example"] .pr-copy');
  await page.waitForSelector('[data-code="example"] .pr-status[data-state="selected"]');
  // (the selection's text leaves out the code's last newline)
  assert.equal(await page.evaluate(() => window.getSelection().toString().trimEnd()), code.trimEnd());
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('pr-code')), true);
  assert.match(await page.textContent('[data-code="example"] .pr-status'), /Ctrl\+C/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the multi-head step shows its layer as torch.nn.MultiheadAttention code', async () => {
  const page = await lab.open(
    'lesson=practice&stage=multihead&prLang=torch&prTokens=the,cat,sat,down&prD=8&prH=2&seed=5',
  );
  const X = tokenMatrix(engine, ['the', 'cat', 'sat', 'down'], 8, 5);
  const args = { query: X, key: X, value: X, heads: 2, ...layerWeights(engine, 8, 5) };
  const want = exportCode(multiHeadSpec({ args, tokens: ['the', 'cat', 'sat', 'down'] }), 'torch');
  assert.equal(await shownCode(page, 'multihead'), want);
  assert.match(
    want,
    /torch\.nn\.MultiheadAttention\(embed_dim=X\.shape\[1\], num_heads=2, bias=False, batch_first=True\)/,
  );
  // the engine's output, shown under the code
  const r = engine.multiHead(args);
  const cells = await page.$$eval('.pr-tables .table-scroll:last-child tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  );
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 8; j++) {
      assert.ok(
        Math.abs(Number(cells[i][j].replace('\u2212', '-')) - r.output.data[i * 8 + j]) <= 5e-5,
        `output[${i}][${j}]`,
      );
    }
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
