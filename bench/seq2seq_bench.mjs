// The RNN encoder–decoder under Node: training steps per second of each attention kind, SIMD
// against scalar build (interleaved rounds in one process, medians), at hidden 64, embed 32,
// maxLength 24, batch 32; the same step in PyTorch on the CPU with one thread
// (bench/seq2seq_bench_torch.py, when /usr/bin/python3 has torch); then, for each task and
// attention kind, the steps and seconds until greedy decoding gets >= 95 % of the tokens right at
// every source length (evaluateByLength every 50 steps), and the accuracy by length at the end
// for none, additive and dot side by side.
//   node bench/seq2seq_bench.mjs    (after scripts/build.sh wasm)
//   S2S_ROUNDS=5 S2S_STEPS=10 S2S_LIMIT=3000 S2S_TASKS=copy,reverse,translate to change them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { loadTrainEngine } from '../web/src/engine-train.js';

const ROUNDS = Number(process.env.S2S_ROUNDS || 5);
const STEPS = Number(process.env.S2S_STEPS || 10);
const LIMIT = Number(process.env.S2S_LIMIT || 3000);
const TASKS = (process.env.S2S_TASKS || 'copy,reverse,translate').split(',');
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
for (const task of TASKS) {
  console.log(
    `\n${task}: steps to >= 95 % token accuracy at every length 2..24 (SIMD build, greedy decoding, learning rate 0.003, seed 1, evaluateByLength every 50 steps, at most ${LIMIT} steps; the three models in turn, each timed on its own)`,
  );
  const models = Object.fromEntries(KINDS.map((a) => [a, engine.seq2seq({ task, attention: a, ...SIZE })]));
  const seconds = Object.fromEntries(KINDS.map((a) => [a, 0]));
  const learned = {};
  let last = {},
    atAdditive = null,
    steps = 0;
  while (steps < LIMIT && Object.keys(learned).length < KINDS.length) {
    steps += 50;
    for (const a of KINDS) {
      if (learned[a]) continue;
      const t0 = process.cpuUsage();
      models[a].step(50);
      last[a] = models[a].evaluateByLength();
      seconds[a] += cpuMs(t0) / 1000;
      if (Math.min(...last[a].tokenAccuracy) >= 0.95) learned[a] = { steps, seconds: seconds[a] };
    }
    if (learned.additive && !atAdditive) atAdditive = { steps, byKind: { ...last } };
  }
  for (const a of KINDS) {
    const worst = Math.min(...last[a].tokenAccuracy);
    const verdict = learned[a]
      ? `learned at step ${learned[a].steps}, ${learned[a].seconds.toFixed(1)} s`
      : `not learned by step ${steps}, ${seconds[a].toFixed(1)} s (worst length ${(worst * 100).toFixed(1)} %)`;
    console.log(`  ${a.padEnd(9)} ${verdict}`);
    models[a].delete();
  }
  if (atAdditive) table(`at step ${atAdditive.steps}, when additive attention learned it`, atAdditive.byKind);
  table(`at the end (each model's last evaluation)`, last);
}
