// Every step an instrument: on every step of every lesson, in both languages, at 1280 × 800 and
// 360 × 740, reached by its link and not scrolled, this measures where the step's first figure
// (the element marked data-figure="main") and its first control start, and for a training step
// where its Play button and its curves are. What a step must meet:
//   figure    at least NEED px of it on the first screen (240 px at 1280 × 800, 200 px at
//             360 × 740), or all of it when it is shorter than that;
//   control   the first control a learner can act with (an input, select, text area, button or
//             slider that is not the figure's menu, its table toggle, a predict question, the
//             page's or the chapter's navigation, the step bar or the settings' summary) is on
//             the first screen at 1280 × 800 and starts within 1.5 screens at 360 × 740;
//   training  a step with a Play button and curves (line charts) has both on the first screen
//             at 1280 × 800;
//   width     at 1280 a main heatmap of 4 × 4 or more is at least half as wide as the content,
//             and at 360 the page does not scroll sideways.
// The start page (no steps) is measured but not held to a step's layout. A step whose figure is
// filled by a run it starts is measured once that figure has its first numbers (it is aria-busy
// until then). LAYOUT_REPORT=1 prints the table of every step view and the counts; LAYOUT_ONLY=
// pipeline,masks measures those chapters only.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';

// Chapters not yet in the step's new shape (controls beside the figure, chapters/index.js):
// measured and printed, not held to it. Each chapter leaves this list when it takes that shape.
const PENDING = [];

const SIZES = [
  { width: 1280, height: 800, need: 240 },
  { width: 360, height: 740, need: 200 },
];

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

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
  // A figure filled by a run the step starts (a worker's first report, a short sweep, a model
  // loading) is aria-busy until its first numbers are drawn, and may be left out (hidden) until
  // then: measured once they are.
  const drawn = () =>
    ![...document.querySelectorAll('main [data-figure="main"][aria-busy="true"]')].some(
      (el) => el.getClientRects().length || (el.hidden && el.parentElement.getClientRects().length),
    );
  await page.waitForFunction(drawn, null, { polling: 100, timeout: 60000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.evaluate(() => scrollTo(0, 0));
}

// The step view as it opens: { fig: { top, bottom }, control: { top, bottom, what }, play, curves,
// width, content, cells, sideways } (tops and bottoms in px from the top of the page).
function measure() {
  const main = document.querySelector('main');
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY) };
  };
  const union = (els) =>
    els.length
      ? els.map(box).reduce((a, b) => ({ top: Math.min(a.top, b.top), bottom: Math.max(a.bottom, b.bottom) }))
      : null;
  const fig = [...main.querySelectorAll('[data-figure="main"]')].find(shown);
  const NOT_LEARNER =
    '.fig-menu, .hm-foot, .chart-foot, .predict, .stepper, .chapter-path, #chapter-nav, summary, .lead-more, .carried';
  const controls = [
    ...main.querySelectorAll('input:not([type="hidden"]), select, textarea, button, [role="slider"]'),
  ].filter((el) => shown(el) && !el.disabled && !el.closest(NOT_LEARNER));
  const first = controls.map((el) => ({ el, ...box(el) })).sort((a, b) => a.top - b.top)[0];
  const play = [...main.querySelectorAll('button[class*="-play"], [data-train="play"]')].find(shown);
  const curves = [...main.querySelectorAll('.line-chart')].filter(shown);
  const article = main.querySelector('article') || main;
  const cs = getComputedStyle(article);
  const content = article.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const hm = fig && (fig.matches('.heatmap') ? fig : fig.querySelector('.heatmap'));
  // A heatmap's drawn width: from its row labels to the right edge of its cells; a figure of
  // heatmaps side by side (a comparison) counts the row of them together.
  const drawnWidth = (el) => {
    const top = el.getBoundingClientRect().top;
    const row = [...fig.querySelectorAll('.heatmap')].filter((x) => Math.abs(x.getBoundingClientRect().top - top) < 2);
    const plots = row.map((x) => x.querySelector('.hm-plot').getBoundingClientRect());
    const left = Math.min(
      ...row.map((x, k) => Math.min(plots[k].left, x.querySelector('.hm-rows').getBoundingClientRect().left)),
    );
    return Math.max(...plots.map((p) => p.right)) - left;
  };
  const name = (el) =>
    (el.getAttribute('aria-label') || el.labels?.[0]?.textContent || el.textContent || el.tagName).trim().slice(0, 24);
  return {
    fig: fig ? box(fig) : null,
    control: first ? { top: first.top, bottom: first.bottom, what: name(first.el) } : null,
    play: play && curves.length ? box(play) : null,
    curves: play && curves.length ? union(curves) : null,
    width: fig ? Math.round(hm ? drawnWidth(hm) : fig.getBoundingClientRect().width) : null,
    content: Math.round(content),
    cells: hm ? [hm.querySelectorAll('.hm-rows span').length, hm.querySelectorAll('.hm-cols span').length] : null,
    sideways: document.documentElement.scrollWidth - innerWidth,
  };
}

// What a step view misses of the rules above (an empty list when it meets them all).
function misses(m, { width, height, need }) {
  const out = [];
  if (!m.fig) return ['no main figure marked'];
  const visible = Math.min(m.fig.bottom, height) - m.fig.top;
  if (visible < Math.min(need, m.fig.bottom - m.fig.top))
    out.push(`figure at ${m.fig.top} px: ${Math.max(0, visible)} px of it on the first screen (need ${need})`);
  if (m.control) {
    if (width >= 1000 ? m.control.bottom > height : m.control.top >= height * 1.5)
      out.push(`first control (${m.control.what}) at ${m.control.top} px`);
  }
  if (m.play && width >= 1000) {
    if (m.play.bottom > height) out.push(`Play at ${m.play.top} px`);
    if (m.curves.bottom > height) out.push(`curves at ${m.curves.top}–${m.curves.bottom} px`);
  }
  if (width >= 1000 && m.cells && Math.min(...m.cells) >= 4 && m.width < m.content / 2)
    out.push(`${m.cells.join('×')} heatmap ${m.width} px of ${m.content} px`);
  if (width < 1000 && m.sideways > 0) out.push(`the page scrolls ${m.sideways} px sideways`);
  return out;
}

const rows = [];

for (const lang of ['en', 'zh']) {
  for (const size of SIZES) {
    const { width, height } = size;
    test(`every step is an instrument: figure and controls on the first screen (${lang}, ${width} × ${height})`, async () => {
      const page = await lab.open(`lang=${lang}`, { width, height, reducedMotion: 'reduce' });
      const only = process.env.LAYOUT_ONLY?.split(',');
      const lessons = (await page.evaluate(() => window.attentionLab.schema.lesson.values)).filter(
        (l) => !only || only.includes(l),
      );
      const problems = [];
      let steps = 0;
      for (const lesson of lessons) {
        await go(page, lesson, '', lang);
        const stages = await page.$$eval('.stepper button.step', (bs) => bs.map((b) => b.dataset.stage));
        for (const stage of stages.length ? stages : ['']) {
          if (stage) await go(page, lesson, stage, lang);
          const m = await page.evaluate(measure);
          const miss = stage ? misses(m, size) : [];
          rows.push({
            lang,
            size: `${width}x${height}`,
            step: `${lesson}/${stage}`,
            pending: PENDING.includes(lesson),
            miss,
            ...m,
          });
          if (!stage) continue; // the start page: measured, not held to a step's layout
          steps++;
          if (!PENDING.includes(lesson))
            problems.push(...miss.map((x) => `${lang} ${width}px ${lesson}/${stage}: ${x}`));
        }
      }
      assert.ok(only || steps >= 50, `${steps} steps measured`);
      assert.deepEqual(page.errors, []);
      await page.close();
      assert.deepEqual(problems, [], `${problems.length} layout misses:\n${problems.join('\n')}`);
    });
  }
}

// LAYOUT_REPORT=1: one line per step view, then how many meet each rule.
after(() => {
  if (!process.env.LAYOUT_REPORT) return;
  const cell = (m) =>
    [
      m.fig ? `fig ${m.fig.top}` : 'no fig',
      m.control ? `ctl ${m.control.top}` : 'no ctl',
      m.play ? `play ${m.play.top} curves ${m.curves.top}-${m.curves.bottom}` : '',
      m.miss.length ? '✗' : '✓',
    ]
      .filter(Boolean)
      .join(' ');
  const views = [...new Set(rows.map((r) => `${r.lang} ${r.size}`))];
  console.log(['step', ...views].join(' | '));
  for (const st of [...new Set(rows.map((r) => r.step))])
    console.log(
      [st, ...views.map((k) => rows.find((r) => r.step === st && `${r.lang} ${r.size}` === k))]
        .map((m, i) => (i === 0 ? m : m ? cell(m) : ''))
        .join(' | '),
    );
  const stepRows = rows.filter((r) => !r.step.endsWith('/'));
  const need = (r) => SIZES.find((s) => `${s.width}x${s.height}` === r.size);
  const figOk = stepRows.filter((r) => r.fig && !misses(r, need(r)).some((x) => x.startsWith('figure')));
  const withCtl = stepRows.filter((r) => r.control);
  const ctlOk = withCtl.filter((r) => !misses(r, need(r)).some((x) => x.startsWith('first control')));
  const training = stepRows.filter((r) => r.play && r.size === '1280x800');
  const trainOk = training.filter((r) => !misses(r, need(r)).some((x) => /^(Play|curves)/.test(x)));
  console.log(`first figure with enough of it on the first screen: ${figOk.length} of ${stepRows.length} step views`);
  console.log(`first control on the first screen (1.5 screens at 360): ${ctlOk.length} of ${withCtl.length}`);
  console.log(
    `training steps with Play and the curves on the first screen at 1280×800: ${trainOk.length} of ${training.length}`,
  );
  console.log(`step views meeting every rule: ${stepRows.filter((r) => !r.miss.length).length} of ${stepRows.length}`);
});
