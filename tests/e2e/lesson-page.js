// Reading the chapters in headless Chromium: waiting until a chapter's step is on screen, a
// heatmap's numbers from its accessible table, typing into a field by keyboard, answering a
// predict-then-reveal question by keyboard, and the page width.

import assert from 'node:assert/strict';

// Waits until the page shows chapter `lesson` with step `stage` current (any step when stage is
// not given) and, with { figure: true }, that step's main figure in the document. Polled on a
// timer, not on animation frames, which a busy headless page may not produce.
export const showing = (page, lesson, stage, { figure = false } = {}) =>
  page.waitForFunction(
    ([l, st, fig]) =>
      document.querySelector(`article.chapter-${l}`) &&
      (!st || document.querySelector(`.stepper .step[aria-current="step"][data-stage="${st}"]`)) &&
      (!fig || document.querySelector(`section[data-step="${st}"] [data-figure="main"]`)),
    [lesson, stage, figure],
    { polling: 100, timeout: 60000 },
  );

// Moves an open page to a lesson (at a step, when given) by its hash, as a followed link does, and
// waits until it shows it.
export async function goTo(page, lesson, lang, stage) {
  await page.evaluate(
    (h) => {
      location.hash = h;
    },
    `lesson=${lesson}${stage ? `&stage=${stage}` : ''}&lang=${lang}`,
  );
  await showing(page, lesson, stage);
}

// The numbers of the heatmap inside `sel` (its "Show as table" view): { rows, cols, values }.
export async function readMap(page, sel) {
  const toggle = page.locator(`${sel} .hm-toggle`);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const out = await page.$eval(`${sel} table`, (t) => ({
    cols: [...t.tHead.rows[0].cells].slice(1).map((c) => c.textContent),
    rows: [...t.tBodies[0].rows].map((r) => r.cells[0].textContent),
    text: [...t.tBodies[0].rows].map((r) => [...r.cells].slice(1).map((c) => c.textContent)),
  }));
  await toggle.click();
  out.values = out.text.map((r) => r.map((s) => Number(s.replace('\u2212', '-'))));
  return out;
}

// Replaces the value of the field labelled `label` by keyboard and commits it (Enter).
export async function typeInto(page, label, text) {
  const input = page.getByLabel(label, { exact: true });
  await input.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(text));
  await page.keyboard.press('Enter');
}

// Answers the question in `sel` by keyboard: focus the option labelled `option`, Space, then
// Tab to "check" and Enter. Returns the feedback text once it is shown.
export async function answer(page, sel, option) {
  const radio = page.locator(`${sel} label`, { hasText: option }).locator('input');
  await radio.focus();
  await page.keyboard.press('Space');
  const check = page.locator(`${sel} .predict-check`);
  await check.focus();
  await page.keyboard.press('Enter');
  // The feedback waits for the engine's answer, which a loaded machine may take long to give: the
  // test's own timeout bounds this wait, not Playwright's 30 s.
  await page.waitForFunction((s) => document.querySelector(`${s} .predict-feedback`).textContent.trim() !== '', sel, {
    timeout: 0,
  });
  return page.textContent(`${sel} .predict-feedback`);
}

// No sideways scrolling of the page.
export async function assertNoSideScroll(page, what) {
  const { sw, cw } = await page.evaluate(() => ({
    sw: document.documentElement.scrollWidth,
    cw: document.documentElement.clientWidth,
  }));
  assert.ok(sw <= cw, `${what}: page is ${sw} px wide in a ${cw} px window`);
}

export const rowsOf = (m) =>
  Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));

// Shown numbers (rounded to `digits`) against the engine's.
export function assertShown(shown, expected, digits, what) {
  const tol = 0.5 * 10 ** -digits + 1e-9;
  assert.equal(shown.length, expected.length, `${what}: rows`);
  shown.forEach((r, i) =>
    r.forEach((x, j) =>
      assert.ok(Math.abs(x - expected[i][j]) <= tol, `${what}[${i}][${j}]: shown ${x}, engine ${expected[i][j]}`),
    ),
  );
}

// Clicks cell (i, j) of the heatmap in `sel`: its plot is one element, the cell found from its position.
export async function clickCell(page, sel, i, j) {
  const plot = page.locator(`${sel} .hm-plot`);
  const { rows, cols } = await plot.evaluate((el) => ({
    rows: el.querySelector('canvas').height,
    cols: el.querySelector('canvas').width,
  }));
  const box = await plot.boundingBox();
  await plot.click({ position: { x: ((j + 0.5) * box.width) / cols, y: ((i + 0.5) * box.height) / rows } });
}
