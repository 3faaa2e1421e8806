// The training chapters' pace in headless Chromium, on the built page (dist/): for each task of the
// attention playground and of the encoder–decoder playground at the chapter's default settings,
// the wall time from pressing Play to the run being learned (the panel's "Learned" line), at the
// default speed and at 'fast', and the step it was learned at. For random-induction also the
// phase change as the learner sees it: how long the held-out loss shown in the status line sits
// on its plateau (from the first report within 0.2 of ln 64 to the first 0.4 below it) and how
// long the drop takes (from there to the first report at or below 1.0).
//   ./node_modules/.bin/vite build && node bench/training_pace_bench.mjs
//   PACE_RUNS='playground:reverse seq2seq:copy' PACE_SPEEDS='slow fast' to choose.
// The default speed must give every task at least 15 s (the issue "every step an instrument");
// 'fast' is as fast as the worker trains.
import { start } from '../tests/e2e/harness.js';
import { DEFAULT_SPEED } from '../web/src/chapters/kit/pace.js';

const RUNS = (
  process.env.PACE_RUNS ||
  'playground:previous-token playground:reverse playground:sort playground:induction playground:random-induction ' +
    'seq2seq:copy seq2seq:reverse seq2seq:translate'
)
  .split(/\s+/)
  .filter(Boolean)
  .map((r) => r.split(':'));
const SPEEDS = (process.env.PACE_SPEEDS || `${DEFAULT_SPEED} fast`).split(/\s+/).filter(Boolean);
const LIMIT_MS = Number(process.env.PACE_LIMIT_S || 900) * 1000;
const UNIGRAM = Math.log(64);

// One run in a page of its own: Play, then every status line and the learned line as they come,
// timed in the page. Resolves { learned: seconds, step, reports: [{ t, step, loss }] }.
async function measure(lab, lesson, task, speed) {
  const p = lesson === 'playground' ? 'pg' : 's2';
  const page = await lab.open(`lesson=${lesson}&${p}Task=${task}&${p}Speed=${speed}&lang=en`);
  try {
    await page.waitForFunction(
      (sel) => /^Step 0 /.test(document.querySelector(sel)?.textContent || ''),
      `.${p}-status`,
      {
        timeout: 120000,
      },
    );
    await page.evaluate((p) => {
      const status = document.querySelector(`.${p}-status`);
      const learned = document.querySelector(`.${p}-learned`);
      const out = (window.__pace = { start: 0, learned: null, text: '', reports: [] });
      new MutationObserver(() => {
        const m = /^Step (\d+) .*loss ([\d.e-]+)/.exec(status.textContent);
        const step = /^Step (\d+)/.exec(status.textContent);
        if (step && (!out.reports.length || out.reports.at(-1).step !== Number(step[1])))
          out.reports.push({ t: performance.now() - out.start, step: Number(step[1]), loss: m ? Number(m[2]) : null });
      }).observe(status, { childList: true, characterData: true, subtree: true });
      new MutationObserver(() => {
        if (out.learned === null && learned.textContent) {
          out.learned = performance.now() - out.start;
          out.text = learned.textContent;
        }
      }).observe(learned, { childList: true, characterData: true, subtree: true });
      out.start = performance.now();
      document.querySelector(`.${p}-play`).click();
    }, p);
    // learned; for random-induction, a page that never marks it learned (the page before it had
    // speeds asked for 0.99 there) ends 600 steps after the end of its drop
    await page.waitForFunction(
      (phase) => {
        const { learned, reports } = window.__pace;
        const dropped = reports.find((r) => r.loss !== null && r.loss <= 1);
        return learned !== null || (phase && !!dropped && reports.at(-1).step >= dropped.step + 600);
      },
      task === 'random-induction',
      { timeout: LIMIT_MS, polling: 500 },
    );
    const r = await page.evaluate(() => window.__pace);
    // the main run's step (the encoder–decoder's line names the run with attention last)
    const steps = [...r.text.matchAll(/step (\d+)/g)].map((m) => Number(m[1]));
    return { learned: r.learned === null ? null : r.learned / 1000, step: steps.at(-1), reports: r.reports };
  } catch (e) {
    return { learned: null, error: e.message.split('\n')[0] };
  } finally {
    await page.close();
  }
}

// The plateau and the drop of the loss shown, in seconds of wall time.
function phaseChange(reports) {
  const first = (f, from = 0) => reports.findIndex((r, k) => k >= from && r.loss !== null && f(r.loss));
  const a = first((l) => l <= UNIGRAM + 0.2);
  const b = a < 0 ? -1 : first((l) => l <= UNIGRAM - 0.4, a);
  const c = b < 0 ? -1 : first((l) => l <= 1.0, b);
  if (c < 0) return null;
  const [ra, rb, rc] = [reports[a], reports[b], reports[c]];
  return { plateau: [ra.step, rb.step, (rb.t - ra.t) / 1000], drop: [rb.step, rc.step, (rc.t - rb.t) / 1000] };
}

const lab = await start();
try {
  console.log(`Chromium, the built page; wall time from Play to "learned" at the chapter's default settings`);
  console.log(
    `${'chapter'.padEnd(11)}${'task'.padEnd(18)}${SPEEDS.map((s) => `${s} (s)`.padStart(12)).join('')}  learned at step`,
  );
  const phases = [];
  for (const [lesson, task] of RUNS) {
    const cells = [];
    let step = '';
    for (const speed of SPEEDS) {
      const r = await measure(lab, lesson, task, speed);
      cells.push(r.learned === null ? 'none' : r.learned.toFixed(1));
      if (r.error) console.error(`  ${lesson} ${task} at ${speed}: ${r.error}`);
      if (r.step !== undefined) step = String(r.step);
      if (task === 'random-induction') phases.push({ speed, phase: phaseChange(r.reports) });
    }
    console.log(`${lesson.padEnd(11)}${task.padEnd(18)}${cells.map((c) => c.padStart(12)).join('')}  ${step}`);
  }
  for (const { speed, phase } of phases) {
    if (!phase) console.log(`random-induction at ${speed}: no phase change seen`);
    else {
      const [p0, p1, ps] = phase.plateau;
      const [d0, d1, ds] = phase.drop;
      console.log(
        `random-induction at ${speed}: plateau steps ${p0}-${p1} for ${ps.toFixed(1)} s, drop steps ${d0}-${d1} for ${ds.toFixed(1)} s`,
      );
    }
  }
} finally {
  await lab.close();
}
