// The RNN encoder–decoder under Node: training steps per second of each attention kind, SIMD
// against scalar build (interleaved rounds in one process, medians), at hidden 64, embed 32,
// maxLength 24, batch 32; the same step in PyTorch on the CPU with one thread
// (bench/seq2seq_bench_torch.py, when /usr/bin/python3 has torch); Node and Chromium side by side
// (the built page's training worker, SIMD and scalar, after scripts/build.sh wasm and vite build);
// then, for each task and attention kind, the steps and seconds until greedy decoding gets >= 95 %
// of the tokens right at every source length (evaluateByLength every 50 steps), and the accuracy
// by length of none, additive and dot at the same step (when the last attention model learned).
//   node bench/seq2seq_bench.mjs    (after scripts/build.sh wasm)
//   S2S_ROUNDS=5 S2S_STEPS=10 S2S_LIMIT=3000 S2S_TASKS=copy,reverse,translate to change them
//   (S2S_TASKS= with nothing: no time to learn; S2S_CHROMIUM=0: no Chromium).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { loadTrainEngine } from '../web/src/engine-train.js';

const ROUNDS = Number(process.env.S2S_ROUNDS || 5);
const STEPS = Number(process.env.S2S_STEPS || 10);
const LIMIT = Number(process.env.S2S_LIMIT || 3000);
const TASKS = (process.env.S2S_TASKS ?? 'copy,reverse,translate').split(',').filter(Boolean);
const SIZE = { hidden: 64, embed: 32, maxLength: 24, batch: 32, seed: 1 };
const KINDS = ['none', 'additive', 'dot'];
const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
// milliseconds of CPU time since `from` (a process.cpuUsage() value)
const cpuMs = (from) => {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1000;
};

const builds = { SIMD: await loadTrainEngine({ simd: true }), scalar: await loadTrainEngine({ simd: false }) };

console.log(
  `training step, copy, hidden ${SIZE.hidden}, embed ${SIZE.embed}, maxLength ${SIZE.maxLength}, batch ${SIZE.batch}, bidirectional (median of ${ROUNDS} rounds of ${STEPS} steps)`,
);
const ms = {};
for (const attention of KINDS) {
  const times = { SIMD: [], scalar: [] };
  const models = Object.fromEntries(
    Object.entries(builds).map(([name, e]) => [name, e.seq2seq({ task: 'copy', attention, ...SIZE })]),
  );
  for (const m of Object.values(models)) m.step(3); // warm up
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, m] of Object.entries(models)) {
      const t0 = process.cpuUsage();
      m.step(STEPS);
      times[name].push(cpuMs(t0) / STEPS);
    }
  }
  for (const m of Object.values(models)) m.delete();
  ms[attention] = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const { SIMD, scalar } = ms[attention];
  console.log(
    `  ${attention.padEnd(9)} SIMD ${SIMD.toFixed(2).padStart(6)} ms/step ${(1000 / SIMD).toFixed(1).padStart(6)} steps/s   scalar ${scalar.toFixed(2).padStart(6)} ms/step ${(1000 / scalar).toFixed(1).padStart(6)} steps/s   SIMD x${(scalar / SIMD).toFixed(2)}`,
  );
}

// Node and Chromium side by side: the page's own training worker (the built page, dist/ or
// PAGE_DIST), one per build, and the Node modules above, in interleaved rounds of STEPS steps, wall
// time (each worker's figure is its report's stepsPerSecond: the time of step() alone, not the
// evaluations it reports). S2S_CHROMIUM=0 skips it.
const { existsSync, readdirSync } = await import('node:fs');
const { DIST, start } = await import('../tests/e2e/harness.js');
if (process.env.S2S_CHROMIUM === '0') {
  console.log('\nChromium: skipped (S2S_CHROMIUM=0)');
} else if (!existsSync(`${DIST}/index.html`)) {
  console.log('\nChromium: not measured (build the page first: ./node_modules/.bin/vite build)');
} else {
  const workerFile = readdirSync(`${DIST}/assets`).find((f) => /^train-worker-.*\.js$/.test(f));
  const lab = await start();
  const page = await lab.open('lesson=start');
  page.on('pageerror', (e) => console.error('page error:', e.message));
  // one worker per build in the page: window.s2sBench.train(simd, steps) -> steps per second
  await page.evaluate(
    async ({ file, size }) => {
      const workers = {};
      const ask = (w, message, until) =>
        new Promise((resolve, reject) => {
          const heard = (e) => {
            const m = e.data;
            if (m.type === 'error') reject(new Error(m.message));
            else if (until(m)) {
              w.removeEventListener('message', heard);
              resolve(m);
            }
          };
          w.addEventListener('message', heard);
          w.postMessage(message);
        });
      const steps = {};
      window.s2sBench = {
        async reset(attention) {
          for (const simd of [true, false]) {
            let w = workers[simd];
            if (!w) {
              w = workers[simd] = new Worker(new URL(`assets/${file}`, location.href), { type: 'module' });
              await ask(w, { type: 'load', simd }, (m) => m.type === 'ready');
            }
            const runs = { main: { kind: 'seq2seq', task: 'copy', attention, ...size } };
            await ask(w, { type: 'reset', id: 1, runs }, (m) => m.type === 'report');
            steps[simd] = 0;
          }
        },
        async train(simd, n) {
          steps[simd] += n;
          const m = await ask(
            workers[simd],
            { type: 'train', id: 1, until: steps[simd], chunk: n },
            (m) => m.type === 'report' && m.runs.main && m.runs.main.step === steps[simd],
          );
          return m.runs.main.stepsPerSecond;
        },
      };
    },
    { file: workerFile, size: SIZE },
  );
  console.log(
    `\nNode and Chromium side by side, copy, the same size (${ROUNDS} interleaved rounds of ${STEPS} steps after ${STEPS} untimed; wall time, medians; Chromium: the page's training worker)`,
  );
  console.log(
    `  ${'attention'.padEnd(9)} ${['Node SIMD', 'Node scalar', 'Chromium SIMD', 'Chromium scalar'].map((x) => x.padStart(16)).join('')}   Chromium/Node (SIMD, scalar)`,
  );
  for (const attention of KINDS) {
    await page.evaluate((a) => window.s2sBench.reset(a), attention);
    const models = Object.fromEntries(
      Object.entries(builds).map(([name, e]) => [name, e.seq2seq({ task: 'copy', attention, ...SIZE })]),
    );
    const rate = { nodeSIMD: [], nodeScalar: [], chromeSIMD: [], chromeScalar: [] };
    const node = (m) => {
      const t0 = performance.now();
      m.step(STEPS);
      return (1000 * STEPS) / (performance.now() - t0);
    };
    for (let r = 0; r <= ROUNDS; r++) {
      // round 0 warms every build up, untimed
      const out = {
        nodeSIMD: node(models.SIMD),
        nodeScalar: node(models.scalar),
        chromeSIMD: await page.evaluate((n) => window.s2sBench.train(true, n), STEPS),
        chromeScalar: await page.evaluate((n) => window.s2sBench.train(false, n), STEPS),
      };
      if (r > 0) for (const k of Object.keys(rate)) rate[k].push(out[k]);
    }
    for (const m of Object.values(models)) m.delete();
    const med = Object.fromEntries(Object.entries(rate).map(([k, v]) => [k, median(v)]));
    console.log(
      `  ${attention.padEnd(9)} ${[med.nodeSIMD, med.nodeScalar, med.chromeSIMD, med.chromeScalar].map((x) => `${x.toFixed(1)} steps/s`.padStart(16)).join('')}   x${(med.chromeSIMD / med.nodeSIMD).toFixed(2)}, x${(med.chromeScalar / med.nodeScalar).toFixed(2)}`,
    );
  }
  if (page.errors.length) console.error('page errors:', page.errors);
  await page.close();
  await lab.close();
}

const torch = spawnSync(
  '/usr/bin/python3',
  [fileURLToPath(new URL('./seq2seq_bench_torch.py', import.meta.url)), String(ROUNDS), String(STEPS)],
  { encoding: 'utf8' },
);
if (torch.status === 0) {
  const t = JSON.parse(torch.stdout.trim());
  for (const attention of KINDS) {
    console.log(
      `  PyTorch ${attention.padEnd(9)} ${t[attention].toFixed(2).padStart(6)} ms/step ${(1000 / t[attention]).toFixed(1).padStart(6)} steps/s  (CPU, 1 thread; the SIMD build x${(t[attention] / ms[attention].SIMD).toFixed(2)} of its speed)`,
    );
  }
} else {
  console.log(`  PyTorch: not measured (${(torch.stderr || String(torch.error)).trim().split('\n').pop()})`);
}

const engine = builds.SIMD;
const pct = (x) => `${(x * 100).toFixed(0)}`.padStart(4);
const table = (title, byKind) => {
  console.log(`  ${title}: token accuracy (%) by source length, whole sentences right in brackets`);
  console.log(`  length ${KINDS.map((k) => k.padStart(14)).join('')}`);
  byKind.none.lengths.forEach((n, k) => {
    const cells = KINDS.map((a) =>
      `${pct(byKind[a].tokenAccuracy[k])} (${pct(byKind[a].sequenceAccuracy[k])})`.padStart(14),
    );
    console.log(`  ${String(n).padStart(6)} ${cells.join('')}`);
  });
};
// The three models train in lockstep, 50 steps at a time, until every attention model has learned
// (or LIMIT): each one's steps and CPU seconds to learn are counted up to the evaluation that first
// shows it, and the table at the end is of the three at that same step.
for (const task of TASKS) {
  console.log(
    `\n${task}: steps to >= 95 % token accuracy at every length 2..24 (SIMD build, greedy decoding, learning rate 0.003, seed 1, evaluateByLength every 50 steps, at most ${LIMIT} steps; the three models in turn, each timed on its own, CPU time)`,
  );
  const models = Object.fromEntries(KINDS.map((a) => [a, engine.seq2seq({ task, attention: a, ...SIZE })]));
  const seconds = Object.fromEntries(KINDS.map((a) => [a, 0]));
  const learned = {};
  const attention = KINDS.filter((a) => a !== 'none');
  let last = {},
    steps = 0;
  while (steps < LIMIT && !attention.every((a) => learned[a])) {
    steps += 50;
    for (const a of KINDS) {
      const t0 = process.cpuUsage();
      models[a].step(50);
      last[a] = models[a].evaluateByLength();
      seconds[a] += cpuMs(t0) / 1000;
      if (!learned[a] && Math.min(...last[a].tokenAccuracy) >= 0.95) learned[a] = { steps, seconds: seconds[a] };
    }
  }
  for (const a of KINDS) {
    const worst = Math.min(...last[a].tokenAccuracy);
    const verdict = learned[a]
      ? `learned at step ${learned[a].steps}, ${learned[a].seconds.toFixed(1)} s`
      : `not learned by step ${steps}, ${seconds[a].toFixed(1)} s (worst length ${(worst * 100).toFixed(1)} %)`;
    console.log(`  ${a.padEnd(9)} ${verdict}`);
    models[a].delete();
  }
  table(`at step ${steps}, the three models at the same step and seed`, last);
}
