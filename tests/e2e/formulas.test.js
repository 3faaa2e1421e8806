// KaTeX on demand (web/src/views/formula.js): a lesson whose formulas sit below the fold draws
// its figures without fetching KaTeX or its fonts; the script comes when a formula nears the
// screen or at the first click or key press, and then every formula is drawn.
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

// Opens hash and waits for the chapter only (not for its formulas, as harness.ready does).
async function openChapter(hash) {
  // One column (360 px): the formulas sit below the first screen, as at 1280 they now sit beside the figure.
  const page = await lab.open(hash, { wait: false, width: 360, height: 740 });
  page.fetched = [];
  page.on('request', (r) => page.fetched.push(new URL(r.url()).pathname));
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
  // three frames: the observer reports what is on screen after the first one is drawn
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))),
  );
  return page;
}
const katexFetched = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => /\/katex-[\w-]+\.js$|KaTeX_/.test(e.name))
      .map((e) => e.name.split('/').pop()),
  );

test('the pipeline lesson draws its heatmaps without KaTeX; scrolling to a formula draws it', async () => {
  const page = await openChapter('lesson=pipeline&stage=weights&lang=en');
  assert.ok(await page.locator('main .hm-plot').first().isVisible());
  assert.deepEqual(await katexFetched(page), [], 'nothing of KaTeX fetched');
  assert.equal(await page.locator('.katex').count(), 0);
  const general = page.locator('.formula.general');
  assert.match(await general.getAttribute('class'), /formula-pending/);
  assert.match(await general.getAttribute('data-tex'), /\\frac|\\sum|\\exp/, 'the TeX waits in data-tex');
  assert.ok((await general.boundingBox()).height >= 40, 'a waiting formula keeps its place');

  await page.mouse.wheel(0, 0); // nothing yet: a wheel is not a click or key press
  await general.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.waitForSelector('.formula.general .katex', { timeout: 30000 });
  assert.ok(
    (await katexFetched(page)).some((f) => /^katex-/.test(f)),
    'KaTeX fetched once a formula came near',
  );
  // Every waiting formula is drawn, not only the one on screen; none is left pending.
  await page.waitForSelector('.formula.live .katex');
  assert.equal(await page.locator('.formula-pending').count(), 0);
  assert.match(await page.textContent('.formula.general .katex-mathml'), /max/, 'the stable softmax formula');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the first click or key press loads KaTeX; later formulas are drawn at once', async () => {
  for (const act of ['click', 'key']) {
    const page = await openChapter('lesson=pipeline&stage=weights&lang=en');
    assert.deepEqual(await katexFetched(page), [], `${act}: nothing of KaTeX before`);
    if (act === 'click') await page.click('main h2');
    else await page.keyboard.press('Shift');
    await page.waitForSelector('.formula.live .katex', { state: 'attached', timeout: 30000 });
    // A chapter opened afterwards has its formulas drawn as it is drawn.
    await page.evaluate(() => {
      location.hash = 'lesson=softmax&lang=zh';
    });
    await page.waitForFunction(
      () => window.attentionLab.state.lesson === 'softmax' && document.querySelector('main .formula'),
    );
    assert.equal(await page.locator('main .formula-pending').count(), 0, `${act}: no formula left waiting`);
    assert.ok((await page.locator('main .formula .katex').count()) > 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('a failed KaTeX download leaves the formulas waiting, with no error, and the next trigger tries again', async () => {
  const page = await openChapter('lesson=pipeline&stage=weights&lang=en');
  // Every download is refused until the test lets them through (one click is several events, and
  // each may ask again after a refusal).
  let refused = 0;
  let allowed = false;
  await page.route(/\/katex-[\w-]+\.js$/, (route) => (allowed ? route.continue() : (refused++, route.abort())));
  await page.click('main h2');
  // the click asks for KaTeX: poll (with a deadline) until the route has refused that download
  for (const t0 = Date.now(); refused === 0 && Date.now() - t0 < 30000;) await new Promise((r) => setTimeout(r, 20));
  assert.ok(refused >= 1, 'the first download was refused');
  assert.ok((await page.locator('.formula-pending').count()) > 0, 'the formulas still wait');
  allowed = true;
  await page.keyboard.press('Shift');
  await page.waitForSelector('.formula.live .katex', { state: 'attached', timeout: 30000 });
  assert.equal(await page.locator('main .formula-pending').count(), 0);
  assert.deepEqual(
    page.errors.filter((e) => !/ERR_FAILED|Failed to load resource/.test(e)),
    [],
  );
  await page.close();
});

// An edit that changes only a formula's numbers (signs included) sets them in the formula on
// screen instead of drawing it anew: the drawing is kept, and it is the same, element for
// element, as the one a fresh page draws for that state. Every stage of the pipeline, several
// examples and cells; 32 random tokens at d_k 16 (numbers of every sign).
test('a formula whose numbers change is set in place, and equals a fresh drawing of the same state', async () => {
  const tokens = Array.from({ length: 32 }, (_, i) => `t${i}`).join(',');
  const base = `lesson=pipeline&lang=en&preset=random&inputMode=random&dk=16&queryTokens=${tokens}&keyTokens=${tokens}`;
  // The live formula's lines on screen: their HTML, and whether each kept its drawing since last read.
  const live = (page) =>
    page.evaluate(() =>
      [
        ...document.querySelectorAll('section[data-step]:not([hidden]) .formula.live > .formula-line:not([hidden])'),
      ].map((e) => {
        const kept = e.firstChild === e.drawing;
        e.drawing = e.firstChild;
        return { html: e.innerHTML, kept };
      }),
    );
  const page = await lab.open(base);
  let kept = 0;
  let lines = 0;
  for (const [k, stage] of ['scores', 'scaled', 'masked', 'weights', 'output'].entries()) {
    await page.evaluate((stage) => window.attentionLab.set({ stage, seed: 1, selRow: 0, selCol: 1 }), stage);
    await live(page);
    for (const [seed, selRow, selCol] of [
      [2, 0, 1],
      [3, 1, 2],
      [4, 2, 0],
      [5, 3, 1],
    ]) {
      await page.evaluate((st) => window.attentionLab.set(st), { seed, selRow, selCol });
      const shown = await live(page);
      kept += shown.filter((l) => l.kept).length;
      lines += shown.length;
      // One edit per step is checked against a fresh page: seed 2 on every other step, seed 4
      // (another example, another cell) on the rest.
      if (seed !== (k % 2 ? 4 : 2)) continue;
      const fresh = await lab.open(`${base}&stage=${stage}&seed=${seed}&selRow=${selRow}&selCol=${selCol}`);
      const want = await live(fresh);
      await fresh.close();
      assert.deepEqual(
        shown.map((l) => l.html),
        want.map((l) => l.html),
        `${stage}, seed ${seed}, cell (${selRow}, ${selCol})`,
      );
    }
  }
  // The first edit of a step draws anew (a shape is learnt when seen twice); most later ones are set in place.
  assert.ok(kept >= lines / 2, `${kept} of ${lines} formula lines kept their drawing (set in place)`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Coming back to a step shows the formulas it drew before: its drawings are kept (not built
// again), and each is the same, element for element, as a fresh page's at that step.
test('a step visited again shows the formulas it drew before, as a fresh page draws them', async () => {
  const tokens = Array.from({ length: 32 }, (_, i) => `t${i}`).join(',');
  const base = `lesson=pipeline&lang=en&preset=random&inputMode=random&dk=16&queryTokens=${tokens}&keyTokens=${tokens}&seed=1&selRow=0&selCol=1`;
  const stages = ['scores', 'scaled', 'masked', 'weights', 'output'];
  // Goes to the step (stage null: stays) and reads its formulas: their HTML, and the step whose
  // visit drew each drawing (each drawing is tagged with it when `tag`).
  const formulas = (page, stage, tag) =>
    page.evaluate(
      ([stage, tag]) => {
        if (stage) window.attentionLab.set({ stage });
        const shown = 'section[data-step]:not([hidden])';
        const els = document.querySelectorAll(`${shown} .formula.general, ${shown} .formula-line:not([hidden])`);
        return [...els].map((el) => {
          if (tag) el.firstChild.drawnAt = stage;
          return { html: el.innerHTML, drawnAt: el.firstChild.drawnAt };
        });
      },
      [stage, tag],
    );
  const page = await lab.open(base);
  await page.waitForSelector('.formula.live .katex', { state: 'attached', timeout: 30000 });
  const first = {};
  for (const stage of stages) first[stage] = await formulas(page, stage, true);
  for (const stage of [...stages].reverse()) {
    const again = await formulas(page, stage, false);
    assert.equal(again.length, first[stage].length, `${stage}: as many formulas as at the first visit`);
    assert.deepEqual(
      again.map((f) => f.drawnAt),
      again.map(() => stage),
      `${stage}: every formula is the drawing of the first visit`,
    );
    const fresh = await lab.open(`${base}&stage=${stage}`);
    await fresh.waitForSelector('.formula.live .katex', { state: 'attached', timeout: 30000 });
    const want = await formulas(fresh, null, false);
    await fresh.close();
    assert.deepEqual(
      again.map((f) => f.html),
      want.map((f) => f.html),
      `${stage}: the kept drawings equal a fresh page's`,
    );
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
