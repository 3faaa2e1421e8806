// The playground's trainer under Node: training steps per second, SIMD against scalar build, at
// d_model = 64, 2 layers x 2 heads, sequence 16, batch 32 (interleaved rounds in one process,
// medians); the same step in PyTorch on the CPU with one thread (bench/train_bench_torch.py,
// when /usr/bin/python3 has torch); and the steps and time each task needs to be learned
// (previous token: held-out accuracy >= 99 %; induction: >= 90 % on the repeats, which are its
// only targets; reverse and sort: >= 99 %), checked every 10 steps.
//   node bench/train_bench.mjs    (after scripts/build.sh wasm)
//   TRAIN_ROUNDS=5 TRAIN_STEPS=20 to change the rounds and steps per round.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { loadTrainEngine } from '../web/src/engine-train.js';
import { median } from '../tests/support/random.js';

const ROUNDS = Number(process.env.TRAIN_ROUNDS || 5);
const STEPS = Number(process.env.TRAIN_STEPS || 20);
const SIZE = { layers: 2, heads: 2, dModel: 64, batch: 32, seed: 1 };

const builds = { SIMD: await loadTrainEngine({ simd: true }), scalar: await loadTrainEngine({ simd: false }) };

console.log(
  `training step, d_model ${SIZE.dModel}, ${SIZE.layers} layers x ${SIZE.heads} heads, sequence 16, batch ${SIZE.batch} (median of ${ROUNDS} rounds of ${STEPS} steps)`,
);
const times = { SIMD: [], scalar: [] };
const trainers = Object.fromEntries(
  Object.entries(builds).map(([name, e]) => [name, e.trainer({ task: 'induction', ...SIZE })]),
);
for (const t of Object.values(trainers)) t.step(5); // warm up
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, t] of Object.entries(trainers)) {
    const t0 = performance.now();
    t.step(STEPS);
    times[name].push((performance.now() - t0) / STEPS);
  }
}
for (const t of Object.values(trainers)) t.delete();
const ms = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
for (const name of Object.keys(ms)) {
  console.log(
    `  ${name.padEnd(7)} ${ms[name].toFixed(2).padStart(7)} ms/step  ${(1000 / ms[name]).toFixed(1).padStart(6)} steps/s  x${(ms.scalar / ms[name]).toFixed(2)} vs scalar`,
  );
}

const torch = spawnSync(
  process.env.PYTHON || '/usr/bin/python3',
  [fileURLToPath(new URL('./train_bench_torch.py', import.meta.url)), String(ROUNDS), String(STEPS)],
  { encoding: 'utf8' },
);
if (torch.status === 0) {
  const tms = Number(torch.stdout.trim());
  console.log(
    `  PyTorch ${tms.toFixed(2).padStart(7)} ms/step  ${(1000 / tms).toFixed(1).padStart(6)} steps/s  (CPU, 1 thread; SIMD build x${(tms / ms.SIMD).toFixed(2)} of its speed)`,
  );
} else {
  console.log(`  PyTorch: not measured (${(torch.stderr || String(torch.error)).trim().split('\n').pop()})`);
}

// Time to learn each task (SIMD build), the page's default settings otherwise.
const engine = builds.SIMD;
const TASKS = [
  { task: 'previous-token', layers: 1, target: 0.99 },
  { task: 'previous-token', layers: 2, target: 0.99 },
  { task: 'induction', layers: 2, target: 0.9 },
  { task: 'reverse', layers: 2, target: 0.99 },
  { task: 'sort', layers: 2, target: 0.99 },
];
const LIMIT = Number(process.env.TRAIN_LIMIT || 3000);
console.log(
  `\ntime to learn (SIMD build, d_model ${SIZE.dModel}, ${SIZE.heads} heads, batch 32, learning rate 0.003, seed 1; held-out accuracy every 10 steps, at most ${LIMIT} steps)`,
);
for (const { task, layers, target } of TASKS) {
  const t = engine.trainer({ task, layers, heads: 2, dModel: 64, seed: 1 });
  const t0 = performance.now();
  let steps = 0,
    acc = 0;
  while (steps < LIMIT && acc < target) {
    t.step(10);
    steps += 10;
    acc = t.evaluate().accuracy;
  }
  const s = (performance.now() - t0) / 1000;
  t.delete();
  const verdict = acc >= target ? `learned at step ${steps}` : `not learned by step ${steps}`;
  console.log(
    `  ${task.padEnd(15)} ${layers} layer${layers > 1 ? 's' : ' '}  >= ${(target * 100).toFixed(0)} %: ${verdict} (accuracy ${(acc * 100).toFixed(1)} %), ${s.toFixed(1)} s`,
  );
}

// In Chromium: the page's own training worker (needs the built page, dist/ or PAGE_DIST): its
// steps per second at the size above, and the time from Play to the task's accuracy.
const { existsSync } = await import('node:fs');
const { DIST, start } = await import('../tests/e2e/harness.js');
if (!existsSync(`${DIST}/index.html`)) {
  console.log('\nChromium: not measured (build the page first: ./node_modules/.bin/vite build)');
} else {
  const lab = await start();
  console.log(
    '\nin Chromium (the playground page, its Web Worker, SIMD build, d_model 64, 2 layers x 2 heads, batch 32)',
  );
  for (const { task, target } of [
    { task: 'previous-token', target: 0.99 },
    { task: 'induction', target: 0.9 },
    { task: 'sort', target: 0.99 },
  ]) {
    const page = await lab.open(`lesson=playground&pgTask=${task}&pgD=64&pgLayers=2&pgHeads=2&pgSeed=1`);
    await page.waitForFunction(() => /Step 0/.test(document.querySelector('.pg-status').textContent), null, {
      timeout: 60000,
    });
    const t0 = Date.now();
    await page.click('.pg-play');
    const reached = await page
      .waitForFunction(
        (want) => {
          const m = /accuracy ([\d.]+)/.exec(document.querySelector('.pg-status').textContent);
          const step = /Step (\d+)/.exec(document.querySelector('.pg-status').textContent);
          return m && Number(m[1]) >= want
            ? document.querySelector('.pg-status').textContent
            : step && Number(step[1]) >= 3000
              ? 'limit'
              : false;
        },
        target,
        { timeout: 600000, polling: 100 },
      )
      .then((h) => h.jsonValue());
    const s = (Date.now() - t0) / 1000;
    // steps per second: the page's own figure, over a further stretch of training
    await page.waitForTimeout(3000);
    const status = await page.$eval('.pg-status', (e) => e.textContent);
    await page.close();
    console.log(
      `  ${task.padEnd(15)} >= ${(target * 100).toFixed(0)} %: ${reached === 'limit' ? 'not reached by step 3000' : `${reached.split(' · ')[0].toLowerCase()}`}, ${s.toFixed(1)} s after Play; then ${/([\d.]+) steps\/s/.exec(status)?.[1]} steps/s`,
    );
  }
  await lab.close();
}
