// axe-core finds nothing on any step of any chapter, in English and in Chinese, with every
// "Show as table" view open too. The chapters and their steps are read from the page (the
// schema's lesson values and the step bar), so a chapter added later is checked without a
// change here. One page per language, moved by its hash, keeps the run short; English is
// checked on a wide screen and Chinese on a 360 px phone, where tables and formulas scroll.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { start, ROOT } from './harness.js';

const AXE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

let lab;
before(async () => { lab = await start(); });
after(async () => { await lab?.close(); });

// Two animation frames: whatever the last state change scheduled has been drawn.
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Moves the page to a chapter's step (by the hash) and waits until the page shows it: chapters
// load on first use, so the hash alone says nothing yet.
async function go(page, lesson, stage, lang) {
  await page.evaluate((h) => { location.hash = h; }, `lesson=${lesson}${stage ? `&stage=${stage}` : ''}&lang=${lang}`);
  await page.waitForFunction(([l, st]) => document.querySelector(`article.chapter-${l}`)
    && (!st || document.querySelector(`.stepper .step[aria-current="step"][data-stage="${st}"]`)), [lesson, stage]);
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

// axe's violations on the page as it is: "rule (impact): target — summary" lines.
async function violations(page) {
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 200)}`));
  });
}

for (const [lang, width] of [['en', 1280], ['zh', 360]]) {
  test(`axe-core finds no violation on any step of any chapter (${lang}, ${width} px), tables open`, async () => {
    const page = await lab.open(`lang=${lang}`, { width, height: 800 });
    await page.addScriptTag({ content: AXE });
    const lessons = await page.evaluate(() => window.attentionLab.schema.lesson.values);
    assert.ok(lessons.length >= 9, `lessons: ${lessons}`);
    const found = [];
    let checked = 0, tables = 0;
    for (const lesson of lessons) {
      await go(page, lesson, '', lang);
      const stages = await page.$$eval('.stepper button.step', (bs) => bs.map((b) => b.dataset.stage));
      for (const stage of stages.length ? stages : ['']) {
        if (stage) await go(page, lesson, stage, lang);
        for (const v of await violations(page)) found.push(`${lang} ${lesson}/${stage}: ${v}`);
        const opened = await openTables(page);
        if (opened) {
          tables += opened;
          for (const v of await violations(page)) found.push(`${lang} ${lesson}/${stage} (tables open): ${v}`);
        }
        checked++;
      }
    }
    assert.ok(checked >= 24, `${checked} steps checked`);
    assert.ok(tables >= 10, `${tables} tables opened`);
    assert.deepEqual(found, [], `${found.length} violations:\n${found.join('\n')}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
