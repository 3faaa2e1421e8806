// Page interaction timing in headless Chromium: how long one change takes to recompute (the
// engine) and re-render (heatmaps, formula, bars), for 4, 16 and 32 tokens at every stage of the
// pipeline chapter. Uses the page's own performance marks (attn-update) around chapter.update,
// plus a forced style/layout after it; then step changes, with the motion each starts (the
// intervals between its animation frames). Needs the built page: ./node_modules/.bin/vite build.
//
//   npm run bench:page

import { start } from '../tests/e2e/harness.js';

const SIZES = [4, 16, 32];
const STAGES = ['scores', 'scaled', 'masked', 'weights', 'output'];
const REPEATS = 100; // the p95 of 100 changes is their 6th slowest: one pause of the collector does not make it
const DK = 16;

const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], p95: s[Math.floor(s.length * 0.95)], max: s[s.length - 1] };
};

const lab = await start();
const rows = [];
const moves = []; // step changes, with their motion (views/motion.js)
let calibration = 0;
try {
  for (const n of SIZES) {
    const toks = Array.from({ length: n }, (_, i) => `t${i}`).join(',');
    const page = await lab.open(
      `lesson=pipeline&lang=en&preset=random&inputMode=random&dk=${DK}&queryTokens=${toks}&keyTokens=${toks}`,
    );
    if (!calibration) {
      // A fixed JS loop, to read the figures against this machine's speed.
      calibration = await page.evaluate(() => {
        const t = [];
        for (let k = 0; k < 15; k++) {
          const t0 = performance.now();
          let x = 0;
          for (let i = 0; i < 1e6; i++) x += i;
          t.push(performance.now() - t0);
          if (x < 0) return 0;
        }
        return t.sort((a, b) => a - b)[7];
      });
    }
    for (const stage of STAGES) {
      const r = await page.evaluate(
        async ({ stage, repeats }) => {
          const lab = window.attentionLab;
          lab.set({ stage });
          const update = [];
          const withLayout = [];
          for (let k = 0; k < repeats; k++) {
            performance.clearMeasures('attn-update');
            const t0 = performance.now();
            lab.set({ seed: 1000 + k, selRow: k % 4 }); // recompute + render
            document.body.getBoundingClientRect(); // force style and layout
            withLayout.push(performance.now() - t0);
            update.push(performance.getEntriesByName('attn-update').at(-1).duration);
            await new Promise(requestAnimationFrame);
          }
          // A new selected cell only (the cursor moved by a click or an arrow key): the same numbers.
          const select = [];
          for (let k = 0; k < repeats; k++) {
            const t0 = performance.now();
            lab.set({ selRow: k % 4, selCol: (k >> 2) % 4 });
            document.body.getBoundingClientRect();
            select.push(performance.now() - t0);
            await new Promise(requestAnimationFrame);
          }
          // engine.attend alone, for the same size.
          const st = lab.state;
          const n = st.queryTokens.length;
          const m = (s) => lab.engine.randomMatrix({ rows: n, cols: st.dk, seed: 5, stream: s });
          const q = m(0),
            kk = m(1),
            v = m(2);
          const attend = [];
          for (let k = 0; k < repeats; k++) {
            const t0 = performance.now();
            lab.engine.attend({ query: q, key: kk, value: v });
            attend.push(performance.now() - t0);
          }
          return { update, withLayout, select, attend };
        },
        { stage, repeats: REPEATS },
      );
      rows.push({
        n,
        stage,
        update: stat(r.update),
        layout: stat(r.withLayout),
        select: stat(r.select),
        attend: stat(r.attend),
      });
    }
    // Step changes (each moves the step's main heatmap for about 400 ms): the click's update, with
    // style and layout; with the next frame's animation callbacks too (the motion's first picture is
    // drawn there) and their style and layout; and the motion's frames (requestAnimationFrame
    // intervals) until it is done.
    const m = await page.evaluate(
      async ({ stages, repeats }) => {
        const lab = window.attentionLab;
        const frame = () => new Promise(requestAnimationFrame);
        const out = stages.slice(1).map((stage) => ({ stage, update: [], withLayout: [], withFrame: [], frames: [] }));
        for (let k = 0; k < repeats; k++) {
          lab.set({ stage: stages[0] });
          await frame();
          for (const r of out) {
            let frameStart = 0;
            requestAnimationFrame(() => (frameStart = performance.now())); // the next frame's first callback
            performance.clearMeasures('attn-update');
            const t0 = performance.now();
            lab.set({ stage: r.stage });
            document.body.getBoundingClientRect();
            const task = performance.now() - t0;
            r.withLayout.push(task);
            r.update.push(performance.getEntriesByName('attn-update').at(-1).duration);
            const fig = () =>
              document.querySelector('section[data-step]:not([hidden]) figure.heatmap[data-motion="running"]');
            // called after the callbacks the change asked for
            let last = await new Promise((done) =>
              requestAnimationFrame((now) => {
                document.body.getBoundingClientRect();
                r.withFrame.push(task + performance.now() - frameStart);
                done(now);
              }),
            );
            while (fig()) {
              const now = await frame();
              r.frames.push(now - last);
              last = now;
            }
          }
        }
        return out;
      },
      { stages: STAGES, repeats: 8 },
    );
    for (const r of m) {
      const [update, layout, withFrame, frames] = [r.update, r.withLayout, r.withFrame, r.frames].map(stat);
      moves.push({ n, stage: r.stage, update, layout, withFrame, frames, count: r.frames.length });
    }
    if (page.errors.length) console.error('page errors:', page.errors);
    await page.close();
  }
} finally {
  await lab.close();
}

const f = (x) => x.toFixed(2).padStart(6);
console.log(`Pipeline chapter: one change (new seed) -> engine.attend + redraw, d_k = ${DK}, ${REPEATS} repeats, ms`);
console.log(
  "(update: the page's attn-update measure around chapter.update; +layout: set() to a forced style and layout)",
);
console.log('(select: a new selected cell only, the same numbers; set() to a forced style and layout)');
console.log(
  'tokens  stage        update min/median/p95         +layout min/median/p95      select median/p95   attend median',
);
for (const r of rows) {
  console.log(
    `${String(r.n).padStart(6)}  ${r.stage.padEnd(8)}  ${f(r.update.min)} ${f(r.update.median)} ${f(r.update.p95)}     ` +
      `${f(r.layout.min)} ${f(r.layout.median)} ${f(r.layout.p95)}      ${f(r.select.median)} ${f(r.select.p95)}` +
      `       ${f(r.attend.median)}`,
  );
}
console.log(
  `machine speed: a 1e6-iteration JS loop takes ${calibration.toFixed(2)} ms here (about 0.7-1 ms on a current laptop)`,
);
const worst = Math.max(...rows.map((r) => r.layout.p95));
const worstMedian = Math.max(...rows.map((r) => r.layout.median));
console.log(
  `worst median with layout: ${worstMedian.toFixed(2)} ms; worst p95: ${worst.toFixed(2)} ms (budget 16 ms per interaction)`,
);
console.log('');
console.log("Step changes (each moves the main heatmap for about 400 ms): the click's update, +layout, and +frame");
console.log("(the click's task and the next frame's animation callbacks, with their style and layout); then the");
console.log("motion's frame intervals (requestAnimationFrame timestamps), 8 rounds from the scores step, ms");
console.log(
  'tokens  to          update median/p95    +layout median/p95    +frame median/p95    frames  interval median/p95/max',
);
for (const r of moves) {
  console.log(
    `${String(r.n).padStart(6)}  ${r.stage.padEnd(8)}  ${f(r.update.median)} ${f(r.update.p95)}         ${f(r.layout.median)} ${f(r.layout.p95)}` +
      `        ${f(r.withFrame.median)} ${f(r.withFrame.p95)}        ` +
      `${String(r.count).padStart(5)}   ${r.count ? `${f(r.frames.median)} ${f(r.frames.p95)} ${f(r.frames.max)}` : '     (nothing moves)'}`,
  );
}
const worstStep = Math.max(...moves.map((r) => r.withFrame.median));
console.log(`worst step change median (+frame): ${worstStep.toFixed(2)} ms`);
