// Odd links against the built page: navigation anchors are not state, overlong tokens are cut
// with a notice, rejected values are echoed short, and a NUL never reaches a formula.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

test('"Skip to content" moves the focus to the lesson and keeps the state', async () => {
  const page = await lab.open('lesson=masks&stage=causal&causal=1');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'main');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /lesson=masks/);
  assert.match(hash, /stage=causal/);
  assert.match(hash, /causal=1/);
  assert.equal(await page.evaluate(() => window.attentionLab.state.lesson), 'masks');
  // A link that is just the anchor opens the default lesson, without a notice.
  const direct = await lab.open('main');
  assert.equal(await direct.isVisible('#notice'), false);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(direct.errors, []);
});

test('a 100,000-character token is cut to 32 characters, with a short notice', async () => {
  const page = await lab.open('lesson=pipeline&stage=scores&preset=cat-chase&queryTokens=' + 'x'.repeat(100000) + ',b');
  assert.ok((await updateMs(page)) < 3000, 'the chapter draws quickly');
  const st = await page.evaluate(() => window.attentionLab.state.queryTokens);
  assert.deepEqual(st, ['x'.repeat(32), 'b']);
  const items = await page.$$eval('#notice li', (li) => li.map((x) => x.textContent));
  assert.equal(items.length, 1);
  assert.match(items[0], /cut to 32/);
  assert.ok(items[0].length < 160, `notice line of ${items[0].length} characters`);
  // The formula shows the token (cut), the page has no KaTeX error.
  assert.equal(await page.$$eval('.katex-error', (e) => e.length), 0);
  assert.deepEqual(page.errors, []);
});

// The page's own work on a link (reading the hash, drawing the chapter): the 'attn-update'
// measures hosts/page.js records. (Chromium itself is slow to load a page with a megabyte URL.)
const updateMs = (page) =>
  page.evaluate(() => performance.getEntriesByName('attn-update').reduce((a, e) => a + e.duration, 0));

test('a megabyte value is refused quickly and echoed short; a NUL in a token is dropped', async () => {
  const page = await lab.open('lesson=pipeline&Q=' + '1,'.repeat(500000));
  assert.ok((await updateMs(page)) < 3000, 'the chapter draws quickly');
  const items = await page.$$eval('#notice li', (li) => li.map((x) => x.textContent));
  assert.equal(items.length, 1);
  assert.match(items[0], /^Q=1,1,.*…: too long$/);
  assert.ok(items[0].length < 80);

  const nul = await lab.open('lesson=pipeline&stage=scores&queryTokens=a%00b,c');
  assert.deepEqual(await nul.evaluate(() => window.attentionLab.state.queryTokens), ['ab', 'c']);
  assert.equal(await nul.$$eval('.katex-error', (e) => e.length), 0);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(nul.errors, []);
});

// issue item 14: a number past float32 in a link is refused at the schema, with a notice that
// names the field; the lesson keeps its default and draws finite numbers.
test('a link with Q=1e300 gets a notice naming Q, and the lesson stays usable', async () => {
  for (const lesson of ['pipeline&stage=weights', 'masks&stage=causal', 'practice']) {
    const page = await lab.open(`lesson=${lesson}&Q=1e300,1;2,3`);
    const items = await page.$$eval('#notice li', (li) => li.map((x) => x.textContent));
    assert.equal(items.length, 1, lesson);
    assert.match(items[0], /^Q=1e300,1;2,3: a number too large for the engine/);
    const q = await page.evaluate(() => window.attentionLab.state.Q);
    assert.ok(
      q.flat().every((x) => Number.isFinite(x) && Math.abs(x) < 3.4e38),
      lesson,
    );
    const text = await page.$eval('main', (m) => m.textContent);
    assert.doesNotMatch(text, /Infinity|NaN/, lesson);
    assert.doesNotMatch(text, /row 0, column 0/, lesson);
    // and it answers its controls: another step
    const next = await page.$('.stepper button.step:not([aria-current="step"])');
    if (next) {
      const stage = await next.getAttribute('data-stage');
      await next.click();
      await page.waitForFunction((s) => window.attentionLab.state.stage === s, stage, { timeout: 30000 });
    }
    assert.deepEqual(page.errors, [], lesson);
    await page.close();
  }
});
