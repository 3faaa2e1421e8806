// Figure first: on every step of every lesson, in both languages, at 1280 × 800 and 360 × 740,
// the step's main figure (the element marked data-figure="main") is measured as a learner meets
// it: where it starts on the page, how many words and controls come before it in reading order,
// and how wide it is. What a step must meet:
//   1280 × 800: the figure starts inside the first screen (top < 800 px), after at most 80 words
//               and at most 3 controls; a main heatmap of 4 × 4 or more is at least half as wide
//               as the content;
//   360 × 740:  the figure starts within the first 1.5 screens (top < 1110 px).
// Words: Latin words and numbers, plus one word per two Chinese characters. Controls: inputs,
// selects, text areas and buttons on screen, not counting the step bar, the chapter path and the
// figures' own menus. The start page (no steps) is measured but not held to these. A step whose
// figure is filled by a run it starts is measured once that figure has its first numbers (it is
// aria-busy until then). LAYOUT_REPORT=1 prints the table of every step's figures.

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

const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

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
  await page.waitForFunction(there, [lesson, stage], { polling: 100, timeout: 60000 });
  // A figure filled by a run the step starts (a worker's first report, a short sweep) is
  // aria-busy until its first numbers are drawn: measured once they are.
  const drawn = () =>
    ![...document.querySelectorAll('main [data-figure="main"][aria-busy="true"]')].some(
      (el) => el.getClientRects().length,
    );
  await page.waitForFunction(drawn, null, { polling: 100, timeout: 60000 });
  await settle(page);
}

// The figures of the step on screen: { marked, top, words, controls, width, content, cells }.
function measure() {
  const main = document.querySelector('main');
  const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const marked = [...main.querySelectorAll('[data-figure="main"]')].filter(shown);
  // Unmarked (the page before figures were marked): the first picture on screen.
  const fig =
    marked[0] ||
    [...main.querySelectorAll('figure, canvas, svg:not(.hm-legend), .map, table.data-table')].find(
      (el) => shown(el) && el.getBoundingClientRect().width > 60,
    );
  if (!fig) return { marked: false, top: null, words: null, controls: null, width: null };
  const before = (el) => el.compareDocumentPosition(fig) & Node.DOCUMENT_POSITION_FOLLOWING && !el.contains(fig);
  const skip = (el) =>
    el.closest(
      '.stepper, .chapter-path, .fig-menu, .hm-foot, .chart-foot, .save-figure, .visually-hidden, [data-figure]',
    );
  let words = 0;
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !before(n) || skip(el) || !shown(el) || getComputedStyle(el).visibility === 'hidden') continue;
    const t = n.textContent;
    words += (t.match(/[A-Za-z0-9][A-Za-z0-9'’.,-]*/g) || []).length;
    words += Math.ceil((t.match(/[\u3400-\u9fff]/g) || []).length / 2);
  }
  const controls = [...main.querySelectorAll('input, select, textarea, button, [role="slider"]')].filter(
    (el) => shown(el) && before(el) && !skip(el) && !el.closest('summary'),
  ).length;
  const r = fig.getBoundingClientRect();
  const article = main.querySelector('article') || main;
  const cs = getComputedStyle(article);
  const content = article.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const hm = fig.matches('.heatmap') ? fig : fig.querySelector('.heatmap');
  // A heatmap's drawn width: from its row labels to the right edge of its cells.
  const drawnWidth = (el) => {
    const plot = el.querySelector('.hm-plot').getBoundingClientRect();
    return plot.right - Math.min(plot.left, el.querySelector('.hm-rows').getBoundingClientRect().left);
  };
  const cells = hm ? [hm.querySelectorAll('.hm-rows span').length, hm.querySelectorAll('.hm-cols span').length] : null;
  return {
    marked: !!marked[0],
    top: Math.round(r.top + scrollY),
    words,
    controls,
    width: Math.round(hm ? drawnWidth(hm) : fig.getBoundingClientRect().width),
    content: Math.round(content),
    cells,
  };
}

const SIZES = [
  [1280, 800],
  [360, 740],
];
const rows = [];

for (const lang of ['en', 'zh']) {
  for (const [width, height] of SIZES) {
    test(`every step leads with its figure (${lang}, ${width} × ${height})`, async () => {
      const page = await lab.open(`lang=${lang}`, { width, height });
      const lessons = await page.evaluate(() => window.attentionLab.schema.lesson.values);
      const problems = [];
      let checked = 0;
      for (const lesson of lessons) {
        await go(page, lesson, '', lang);
        const stages = await page.$$eval('.stepper button.step', (bs) => bs.map((b) => b.dataset.stage));
        for (const stage of stages.length ? stages : ['']) {
          if (stage) await go(page, lesson, stage, lang);
          await page.evaluate(() => scrollTo(0, 0));
          const m = await page.evaluate(measure);
          rows.push({ lang, size: `${width}x${height}`, step: `${lesson}/${stage}`, ...m });
          const where = `${lang} ${width}px ${lesson}/${stage}`;
          checked++;
          if (!stage) continue; // the start page: measured, not held to a step's layout
          if (!m.marked) {
            problems.push(`${where}: no main figure marked`);
            continue;
          }
          if (width >= 1000) {
            if (m.top >= height) problems.push(`${where}: figure starts at ${m.top} px (screen ${height})`);
            if (m.words > 80) problems.push(`${where}: ${m.words} words before the figure`);
            if (m.controls > 3) problems.push(`${where}: ${m.controls} controls before the figure`);
            if (m.cells && Math.min(...m.cells) >= 4 && m.width < m.content / 2)
              problems.push(`${where}: ${m.cells.join('×')} heatmap ${m.width} px of ${m.content} px`);
          } else if (m.top >= height * 1.5) {
            problems.push(`${where}: figure starts at ${m.top} px (1.5 screens = ${height * 1.5})`);
          }
        }
      }
      assert.ok(checked >= 30, `${checked} steps measured`);
      assert.deepEqual(page.errors, []);
      await page.close();
      assert.deepEqual(problems, [], `${problems.length} layout misses:\n${problems.join('\n')}`);
    });
  }
}

after(() => {
  if (!process.env.LAYOUT_REPORT) return;
  const cell = (m) =>
    m.top == null
      ? '—'
      : `${m.top}px ${m.words}w ${m.controls}c ${m.width}/${m.content}px${m.cells ? ` ${m.cells.join('×')}` : ''}`;
  const steps = [...new Set(rows.map((r) => r.step))];
  const cols = [...new Set(rows.map((r) => `${r.lang} ${r.size}`))];
  console.log(['step', ...cols].join(' | '));
  for (const st of steps)
    console.log(
      [st, ...cols.map((k) => rows.find((r) => r.step === st && `${r.lang} ${r.size}` === k))]
        .map((m, i) => (i === 0 ? m : m ? cell(m) : ''))
        .join(' | '),
    );
});
