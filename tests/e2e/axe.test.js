// axe-core finds nothing on any step of any chapter, in English and in Chinese, with every
// "Show as table" view open too. The chapters and their steps are read from the page (the
// schema's lesson values and the step bar), so a chapter added later is checked without a
// change here. One page per language, moved by its hash, keeps the run short; English is
// checked on a wide screen and Chinese on a 360 px phone, where tables and formulas scroll;
// English on a 360 px phone gets the layout checks only (a quick walk, with no axe run between
// steps, so its hash navigations also come close together).
// On the same walk, what axe does not see: the current step's title is not cut off, no word in
// a table is broken across lines, and no chart text is drawn smaller than 11.5 px.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, axeViolations } from './harness.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

// Two animation frames: whatever the last state change scheduled has been drawn.
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Moves the page to a chapter's step (by the hash) and waits until the page shows it: chapters
// load on first use, so the hash alone says nothing yet. A navigation that does not land is a
// failure (hash navigation: hash-navigation.test.js).
async function go(page, lesson, stage, lang) {
  await page.evaluate(
    (h) => {
      location.hash = h;
    },
    `lesson=${lesson}${stage ? `&stage=${stage}` : ''}&lang=${lang}`,
  );
  const there = ([l, st]) =>
    document.querySelector(`article.chapter-${l}`) &&
    (!st || document.querySelector(`.stepper .step[aria-current="step"][data-stage="${st}"]`));
  // Polled on a timer, not on animation frames, which a busy headless page may not produce.
  await page.waitForFunction(there, [lesson, stage], { polling: 100, timeout: 60000 }).catch(async (e) => {
    const seen = await page.evaluate(() => ({
      hash: location.hash,
      lesson: window.attentionLab.state.lesson,
      stage: window.attentionLab.state.stage,
    }));
    throw new Error(
      `the hash navigation to ${lesson}/${stage} did not land: ${JSON.stringify(seen)} (${e.message.split('\n')[0]})`,
    );
  });
  await settle(page);
}

// Opens every "Show as table" view of the step on screen.
async function openTables(page) {
  const n = await page.evaluate(() => {
    const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
    const closed = [...document.querySelectorAll('main .hm-toggle[aria-expanded="false"]')].filter(shown);
    for (const b of closed) b.click();
    return closed.length;
  });
  if (n) await settle(page);
  return n;
}

// Layout problems on the page as it is: "what: where" lines.
async function layoutProblems(page) {
  return page.evaluate(() => {
    const out = [];
    const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
    const title = document.querySelector('.stepper .step[aria-current="step"] .step-title');
    if (title && title.scrollWidth > title.clientWidth + 1) out.push(`step title cut off: "${title.textContent}"`);
    // A Latin word (two letters or more) in a table cell must sit on one line.
    for (const cell of document.querySelectorAll('main table th, main table td')) {
      if (!shown(cell)) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (const m of n.textContent.matchAll(/[A-Za-z][A-Za-z-]+/g)) {
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          const lines = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
          if (lines.size > 1)
            out.push(`word broken across lines in a table: "${m[0]}" in "${cell.textContent.slice(0, 40)}"`);
        }
      }
    }
    // Chart text (SVG, scaled with its viewBox) at least 11.5 px.
    for (const t of document.querySelectorAll('main svg text')) {
      if (!t.textContent.trim() || !t.getBoundingClientRect().height) continue;
      const svg = t.ownerSVGElement;
      const vb = svg.viewBox.baseVal;
      const scale = vb && vb.width ? svg.getBoundingClientRect().width / vb.width : 1;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < 11.5)
        out.push(`chart text ${px.toFixed(1)} px: "${t.textContent.slice(0, 20)}" in ${svg.parentElement.className}`);
    }
    return [...new Set(out)];
  });
}

// English wide and Chinese narrow, with axe and the layout checks; English narrow, layout only.
for (const [lang, width, withAxe] of [
  ['en', 1280, true],
  ['zh', 360, true],
  ['en', 360, false],
]) {
  test(`${withAxe ? 'axe-core finds no violation and ' : ''}no layout problem on any step of any chapter (${lang}, ${width} px), tables open`, async () => {
    const page = await lab.open(`lang=${lang}`, { width, height: 800 });
    const lessons = await page.evaluate(() => window.attentionLab.schema.lesson.values);
    assert.ok(lessons.length >= 9, `lessons: ${lessons}`);
    const found = [];
    const layout = [];
    let checked = 0,
      tables = 0;
    for (const lesson of lessons) {
      await go(page, lesson, '', lang);
      const stages = await page.$$eval('.stepper button.step', (bs) => bs.map((b) => b.dataset.stage));
      for (const stage of stages.length ? stages : ['']) {
        if (stage) await go(page, lesson, stage, lang);
        if (withAxe) for (const v of await axeViolations(page)) found.push(`${lang} ${lesson}/${stage}: ${v}`);
        for (const v of await layoutProblems(page)) layout.push(`${lang} ${width}px ${lesson}/${stage}: ${v}`);
        const opened = await openTables(page);
        if (opened) {
          tables += opened;
          if (withAxe)
            for (const v of await axeViolations(page)) found.push(`${lang} ${lesson}/${stage} (tables open): ${v}`);
          for (const v of await layoutProblems(page))
            layout.push(`${lang} ${width}px ${lesson}/${stage} (tables open): ${v}`);
        }
        checked++;
      }
    }
    assert.ok(checked >= 24, `${checked} steps checked`);
    assert.ok(tables >= 10, `${tables} tables opened`);
    assert.deepEqual(found, [], `${found.length} violations:\n${found.join('\n')}`);
    assert.deepEqual(layout, [], `${layout.length} layout problems:\n${layout.join('\n')}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
