// q·k as geometry, in headless Chromium against the built page (dist/): the start page leads with
// the figure (on the first screen at 1280 × 800, above the path; within 1.5 screens at 360 × 740),
// and the pipeline's scores step has it under its heatmap. Dragging a key's tip with the mouse and
// moving it with the arrow keys change the scores shown, and every score, scaled score and weight
// on screen equals a double-precision reference computed here from the arrows' coordinates read
// off the page (each tip's data-x / data-y, also in its aria-label). A link with the arrows draws
// the same picture. Both languages, no console errors, axe finds nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled, axeViolations } from './harness.js';
import { dot, softmaxRef } from '../js/reference.js';
import { goTo } from './lesson-page.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const LOCALE = { en: 'en-US', zh: 'zh-CN' };
const num = (t) => {
  const x = Number(t.trim().replace('\u2212', '-'));
  assert.ok(Number.isFinite(x), `unreadable number on screen: "${t}"`);
  return x;
};

// The figure inside `scope` as the page shows it: the arrows' coordinates and labels, and per
// key the numbers in the bars' table, as text.
function readFigure(page, scope) {
  return page.$eval(scope, (root) => {
    const fig = root.querySelector('figure.geo');
    const arrows = [...fig.querySelectorAll('.geo-handle')].map((g) => ({
      role: g.dataset.role,
      x: Number(g.dataset.x),
      y: Number(g.dataset.y),
      label: g.getAttribute('aria-label'),
      focusable: g.tabIndex === 0,
    }));
    const rows = [...fig.querySelectorAll('.geo-bars tbody tr')].map((tr) => ({
      key: tr.querySelector('th').textContent,
      best: tr.classList.contains('geo-best'),
      score: tr.querySelector('.geo-score .geo-num').textContent,
      scaled: tr.querySelector('.geo-scaled .geo-num').textContent,
      weight: tr.querySelector('.geo-weight .geo-num').textContent,
    }));
    return { arrows, rows, caption: fig.querySelector('.geo-caption').textContent };
  });
}

// Scores q·k, scaled q·k / √2 and softmax weights in double precision from the coordinates.
function reference(arrows) {
  const [q, ...keys] = arrows.map((a) => [a.x, a.y]);
  const scores = keys.map((k) => dot(q, k));
  const scaled = scores.map((s) => s / Math.SQRT2);
  return { scores, scaled, weights: softmaxRef(scaled) };
}

// Every number shown (two decimals) against the reference; the bold row is the largest weight.
// Returns the reference.
function assertMatches(fig, what) {
  assert.equal(fig.arrows.length, 5, `${what}: a query and four keys`);
  assert.deepEqual(
    fig.arrows.map((a) => a.role),
    ['query', 'key', 'key', 'key', 'key'],
  );
  const ref = reference(fig.arrows);
  const tol = 0.005 + 1e-5;
  fig.rows.forEach((r, j) => {
    for (const name of ['score', 'scaled', 'weight']) {
      const want = ref[name === 'weight' ? 'weights' : name === 'score' ? 'scores' : 'scaled'][j];
      const shown = num(r[name]);
      assert.ok(Math.abs(shown - want) <= tol, `${what}: ${name} of key ${j}: shown ${shown}, reference ${want}`);
    }
  });
  const best = ref.weights.indexOf(Math.max(...ref.weights));
  assert.deepEqual(
    fig.rows.map((r) => r.best),
    ref.weights.map((_, j) => j === best),
    `${what}: the largest weight is marked`,
  );
  // Each tip is focusable and says where it is.
  for (const a of fig.arrows) {
    assert.ok(a.focusable, `${what}: tip focusable`);
    const coord = (v) => v.toFixed(Math.abs(v * 10 - Math.round(v * 10)) < 1e-9 ? 1 : 2).replace('-', '\u2212');
    assert.ok(a.label.includes(`(${coord(a.x)}, ${coord(a.y)})`), `${what}: "${a.label}" gives (${a.x}, ${a.y})`);
  }
  return { ...ref, best };
}

// The screen position of the tip of arrow i (the centre of its handle).
async function tipAt(page, scope, i) {
  const box = await page.locator(`${scope} .geo-handle[data-index="${i}"] .geo-dot`).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const waitMoved = (page, scope, i, from) =>
  page.waitForFunction(
    ([s, k, x, y]) => {
      const g = document.querySelector(`${s} .geo-handle[data-index="${k}"]`);
      return g && (Number(g.dataset.x) !== x || Number(g.dataset.y) !== y);
    },
    [scope, i, from.x, from.y],
  );

// Drags key `i` by (dx, dy) pixels and moves key `j` with the keyboard; checks the numbers after
// each. Returns the figure as left.
async function dragAndKeys(page, scope, what, i = 4, j = 1) {
  const before = await readFigure(page, scope);
  assertMatches(before, `${what}, as opened`);

  // The mouse: the tip follows while the button is down (the numbers change before it is let go).
  const from = before.arrows[i];
  const p = await tipAt(page, scope, i);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(p.x + 20, p.y + 30, { steps: 4 });
  await waitMoved(page, scope, i, from);
  await page.mouse.move(p.x + 40, p.y + 60, { steps: 4 });
  await page.mouse.up();
  await settled(page);
  const dragged = await readFigure(page, scope);
  const moved = dragged.arrows[i];
  assert.ok(moved.x > from.x && moved.y < from.y, `${what}: dragged right and down, now (${moved.x}, ${moved.y})`);
  assert.notEqual(dragged.rows[i - 1].score, before.rows[i - 1].score, `${what}: the dragged key's score changed`);
  assertMatches(dragged, `${what}, dragged`);

  // The keyboard: three steps right, two up (0.1 each), the focus staying on the tip.
  const was = dragged.arrows[j];
  await page.focus(`${scope} .geo-handle[data-index="${j}"]`);
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(key);
  await page.waitForFunction(
    ([s, k, x, y]) => {
      const g = document.querySelector(`${s} .geo-handle[data-index="${k}"]`);
      return Math.abs(Number(g.dataset.x) - x) < 1e-9 && Math.abs(Number(g.dataset.y) - y) < 1e-9;
    },
    [scope, j, Math.round((was.x + 0.3) * 10) / 10, Math.round((was.y + 0.2) * 10) / 10],
  );
  await settled(page);
  assert.ok(
    await page.$eval(`${scope} .geo-handle[data-index="${j}"]`, (g) => g === document.activeElement),
    `${what}: the focus stays on the moved tip`,
  );
  const keyed = await readFigure(page, scope);
  assert.notEqual(keyed.rows[j - 1].score, dragged.rows[j - 1].score, `${what}: the moved key's score changed`);
  assertMatches(keyed, `${what}, moved by keys`);
  // Shift + arrow: a bigger step (0.5); the query moves too.
  const q = keyed.arrows[0];
  await page.focus(`${scope} .geo-handle[data-index="0"]`);
  await page.keyboard.press('Shift+ArrowLeft');
  await page.waitForFunction(
    ([s, x]) => Math.abs(Number(document.querySelector(`${s} .geo-handle[data-index="0"]`).dataset.x) - x) < 1e-9,
    [scope, Math.round((q.x - 0.5) * 10) / 10],
  );
  await settled(page);
  const last = await readFigure(page, scope);
  assertMatches(last, `${what}, query moved`);
  return last;
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: the start page leads with the geometry figure; its numbers are the reference's`, async () => {
    const page = await lab.open(`lesson=start&lang=${lang}`, { width: 1280, height: 800, locale: LOCALE[lang] });
    await settled(page);
    const fig = await page.locator('.start-figure figure.geo').boundingBox();
    const plot = await page.locator('.start-figure svg.geo-plot').boundingBox();
    const path = await page.locator('.start-path').boundingBox();
    assert.ok(fig.y >= 0 && fig.y < 800, `figure starts at ${fig.y} px (screen 800)`);
    assert.ok(plot.y + plot.height <= 800, `the plot ends at ${plot.y + plot.height} px, on the first screen`);
    assert.ok(plot.width >= 300, `plot ${plot.width} px wide`);
    assert.ok(path.y > fig.y, 'the figure comes before the path');
    const shown = await readFigure(page, '.start-figure');
    const ref = assertMatches(shown, `${lang} start`);
    // The caption names the key with the largest weight, its weight, and why (angle and length).
    const bestKey = shown.rows[ref.best].key;
    assert.ok(shown.caption.includes(`“${bestKey}”`), `caption names ${bestKey}: ${shown.caption}`);
    assert.ok(shown.caption.includes(shown.rows[ref.best].weight), shown.caption);
    assert.match(shown.caption, lang === 'en' ? /attends most to .*cos \d+°/ : /最关注.*cos \d+°/);
    const q = shown.arrows[0];
    const k = shown.arrows[ref.best + 1];
    const len = Math.hypot(k.x, k.y);
    const deg = (Math.acos(ref.scores[ref.best] / (Math.hypot(q.x, q.y) * len)) * 180) / Math.PI;
    assert.ok(shown.caption.includes(`${len.toFixed(2)} × cos ${Math.round(deg)}°`), shown.caption);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`${lang}: start: a drag and arrow keys move the scores as the reference says; links keep them`, async () => {
    const page = await lab.open(`lesson=start&lang=${lang}`, { width: 1280, height: 800, locale: LOCALE[lang] });
    await settled(page);
    const last = await dragAndKeys(page, '.start-figure', `${lang} start`);
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-hash-pending'));
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /startArrows=/);
    // The link draws the same arrows and numbers.
    const again = await lab.open(hash, { width: 1280, height: 800 });
    await settled(again);
    const shown = await readFigure(again, '.start-figure');
    assert.deepEqual(
      shown.arrows.map((a) => [a.x, a.y]),
      last.arrows.map((a) => [a.x, a.y]),
    );
    assert.deepEqual(shown.rows, last.rows);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(again.errors, []);
    await page.close();
    await again.close();
  });

  test(`${lang}: at 360 × 740 the figure starts within 1.5 screens, and a drag works there`, async () => {
    const page = await lab.open(`lesson=start&lang=${lang}`, { width: 360, height: 740, locale: LOCALE[lang] });
    await settled(page);
    const fig = await page.locator('.start-figure figure.geo').boundingBox();
    assert.ok(fig.y < 740 * 1.5, `figure starts at ${fig.y} px (1.5 screens = 1110)`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `no sideways scroll: ${width} px`);
    // The plot's text, scaled with its viewBox, is still at least 11.5 px.
    const small = await page.$$eval('.start-figure svg.geo-plot text', (ts) =>
      ts
        .filter((t) => t.textContent.trim() && t.getBoundingClientRect().height)
        .map((t) => {
          const svg = t.ownerSVGElement;
          const px =
            (parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width) / svg.viewBox.baseVal.width;
          return [t.textContent, px];
        })
        .filter(([, px]) => px < 11.5),
    );
    assert.deepEqual(small, []);
    await page.locator('.start-figure .geo-handle[data-index="2"]').scrollIntoViewIfNeeded();
    const before = await readFigure(page, '.start-figure');
    const p = await tipAt(page, '.start-figure', 2);
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x - 30, p.y - 40, { steps: 5 });
    await page.mouse.up();
    await waitMoved(page, '.start-figure', 2, before.arrows[2]);
    await settled(page);
    assertMatches(await readFigure(page, '.start-figure'), `${lang} start 360`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`${lang}: the pipeline's scores step has the figure under its heatmap, live the same way`, async () => {
    const page = await lab.open(`lesson=pipeline&stage=scores&lang=${lang}`, { locale: LOCALE[lang] });
    await settled(page);
    const scope = '.pl-geometry';
    // The step's main figure is still its score heatmap; the geometry figure follows it.
    assert.equal(
      await page.$eval('section[data-step="scores"] [data-figure="main"]', (el) => el.matches('.map')),
      true,
    );
    const order = await page.$eval('section[data-step="scores"]', (sec) => {
      const map = sec.querySelector('[data-figure="main"]');
      const geo = sec.querySelector('.pl-geometry');
      return !!(map.compareDocumentPosition(geo) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.ok(order, 'the heatmap comes first');
    await page.locator(`${scope} figure.geo`).scrollIntoViewIfNeeded();
    await dragAndKeys(page, scope, `${lang} pipeline`, 3, 2);
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-hash-pending'));
    assert.match(await page.evaluate(() => location.hash), /plArrows=/);
    // Another step and back: the arrows are kept (they are the chapter's state).
    const kept = await readFigure(page, scope);
    await page.click('.stepper button.step[data-stage="scaled"]');
    await page.click('.stepper button.step[data-stage="scores"]');
    await settled(page);
    assert.deepEqual(await readFigure(page, scope), kept);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`${lang}: axe finds nothing on the start page and the pipeline's scores step, at 1280 and 360 px`, async () => {
    // One page per width, moved by the hash from the start page to the pipeline's step.
    for (const width of [1280, 360]) {
      const page = await lab.open(`lesson=start&lang=${lang}`, { width, height: 800, locale: LOCALE[lang] });
      for (const [lesson, stage] of [['start'], ['pipeline', 'scores']]) {
        const hash = `lesson=${lesson}${stage ? `&stage=${stage}` : ''}`;
        await goTo(page, lesson, lang, stage);
        await settled(page);
        // With a tip focused, as a keyboard user leaves it.
        await page.focus('main figure.geo .geo-handle[data-index="1"]');
        await page.keyboard.press('ArrowDown');
        await settled(page);
        assert.deepEqual(await axeViolations(page), [], `${lang} ${width}px ${hash}`);
      }
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });
}

test('a link with arrows outside the plot or rows missing: the example fills in, the rest within ±2.5', async () => {
  const page = await lab.open('lesson=start&startArrows=9,0.5;-1,2', { width: 1280, height: 800 });
  await settled(page);
  const fig = await readFigure(page, '.start-figure');
  assert.deepEqual(
    fig.arrows.map((a) => [a.x, a.y]),
    [
      [2.5, 0.5],
      [-1, 2],
      [1.6, 0.2],
      [-0.2, 1],
      [0.8, 1.6],
    ],
  );
  assertMatches(fig, 'clamped link');
  assert.deepEqual(page.errors, []);
  await page.close();
});
