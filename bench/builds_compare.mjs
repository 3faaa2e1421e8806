// Two builds of the engine side by side, for a change of compile or link flags: each a copy of
// web/src with its build/wasm beside it (e.g. `cp -r --parents web/src build/wasm /tmp/before` before
// the change, then build again, and pass /tmp/before/web/src),
// both loaded in ONE Node process, interleaved rounds, CPU-time medians, the ratio after/before
// for each engine entry on the hot and the cold paths. Figures only; nothing is asserted.
//   node bench/builds_compare.mjs /tmp/before/web/src web/src    (SIMD builds)
//   SCALAR=1 ROUNDS=21 node bench/builds_compare.mjs /tmp/before/web/src web/src
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [beforeDir, afterDir] = process.argv.slice(2);
if (!beforeDir || !afterDir) {
  console.error('usage: node bench/builds_compare.mjs <web/src copy before> <web/src after>');
  process.exit(2);
}
const url = (dir, file) => pathToFileURL(path.resolve(dir, file)).href;
const dirs = { before: beforeDir, after: afterDir };
const simd = !process.env.SCALAR;
const E = {},
  T = {};
for (const [k, d] of Object.entries(dirs)) {
  E[k] = await (await import(url(d, 'engine.js'))).loadEngine({ simd });
  T[k] = await (await import(url(d, 'engine-train.js'))).loadTrainEngine({ simd });
}
const mats = {};
const m = (k, n, c, s) => {
  const key = `${k}${n}x${c}s${s}`;
  return (mats[key] ??= E[k].randomMatrix({ rows: n, cols: c, seed: s }));
};
const cases = [];
for (const n of [64, 256, 1024]) {
  const reps = n >= 1024 ? 1 : n >= 256 ? 4 : 40;
  cases.push({
    name: `attend n=${n} stages`,
    run: (k) => E[k].attend({ query: m(k, n, 64, 1), key: m(k, n, 64, 2), value: m(k, n, 64, 3), causal: true }),
    reps,
  });
  cases.push({
    name: `attend n=${n} output`,
    run: (k) => E[k].attend({ query: m(k, n, 64, 1), key: m(k, n, 64, 2), value: m(k, n, 64, 3), stages: false }),
    reps: reps * 2,
  });
  cases.push({
    name: `flashAttend n=${n}`,
    run: (k) => E[k].flashAttend({ query: m(k, n, 64, 1), key: m(k, n, 64, 2), value: m(k, n, 64, 3) }),
    reps: reps * 2,
  });
}
const nested = (k) => Array.from({ length: 64 }, (_, i) => Array.from(m(k, 64, 64, 1).data.slice(i * 64, i * 64 + 64)));
cases.push({
  name: 'attend n=64 nested arrays',
  run: (k) => E[k].attend({ query: nested(k), key: nested(k), value: nested(k) }),
  reps: 10,
});
cases.push({
  name: 'multiHead n=64 d=64 h=4',
  run: (k) => {
    const x = m(k, 64, 64, 1);
    const w = m(k, 64, 64, 9);
    return E[k].multiHead({ query: x, key: x, value: x, heads: 4, Wq: w, Wk: w, Wv: w, Wo: w });
  },
  reps: 10,
});
cases.push({
  name: 'varianceExperiment dk 64 20000',
  run: (k) => E[k].varianceExperiment({ dk: 64, samples: 20000, seed: 7 }),
  reps: 1,
});
cases.push({
  name: 'saturationSweep 3 dks 200 trials',
  run: (k) => E[k].saturationSweep({ dks: [16, 64, 256], nKeys: 16, trials: 200 }),
  reps: 1,
});
cases.push({
  name: 'queryProbe dk 64',
  run: (k) => E[k].queryProbe({ dk: 64, nKeys: 16, gumbelSamples: 64 }),
  reps: 20,
});
cases.push({
  name: 'attendWithBug n=64 missing-scale',
  run: (k) =>
    E[k].attendWithBug({ query: m(k, 64, 64, 1), key: m(k, 64, 64, 2), value: m(k, 64, 64, 3), bug: 'missing-scale' }),
  reps: 20,
});
cases.push({
  name: 'monitor 256x256',
  run: (k) =>
    E[k].monitor({
      logits: m(k, 256, 256, 4),
      weights: m(k, 256, 256, 5),
      mask: { rows: 256, cols: 256, data: new Float32Array(65536).fill(1) },
    }),
  reps: 10,
});
cases.push({ name: 'sinusoidal 1024 x 512', run: (k) => E[k].sinusoidal({ n: 1024, d: 512 }), reps: 3 });
cases.push({ name: 'rope 1024 x 512', run: (k) => E[k].rope({ x: m(k, 1024, 512, 6) }), reps: 3 });
cases.push({ name: 'softmax 256x256', run: (k) => E[k].softmax({ scores: m(k, 256, 256, 4) }), reps: 10 });
const tr = {
  before: T.before.trainer({ task: 'induction', dModel: 64 }),
  after: T.after.trainer({ task: 'induction', dModel: 64 }),
};
cases.push({ name: 'trainer.step (induction, d 64)', run: (k) => tr[k].step(1), reps: 3 });
cases.push({
  name: 'a refused call (bad key shape)',
  run: (k) => {
    try {
      E[k].attend({ query: m(k, 64, 64, 1), key: m(k, 64, 32, 2), value: m(k, 64, 64, 3) });
    } catch {
      // the refusal is what is timed
    }
  },
  reps: 50,
});
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[s.length >> 1];
};
const ROUNDS = Number(process.env.ROUNDS || 11);
console.log(`${simd ? 'SIMD' : 'scalar'} builds`.padEnd(42), 'before ms', 'after ms', 'after/before');
for (const c of cases) {
  const t = { before: [], after: [] };
  try {
    c.run('before');
    c.run('after');
  } catch (e) {
    console.log(c.name, 'ERROR', e.message);
    continue;
  }
  for (let r = 0; r < ROUNDS + 1; r++)
    for (const k of r % 2 ? ['before', 'after'] : ['after', 'before']) {
      const t0 = process.cpuUsage();
      for (let i = 0; i < c.reps; i++) c.run(k);
      const u = process.cpuUsage(t0);
      if (r >= 1) t[k].push((u.user + u.system) / 1000 / c.reps);
    }
  const b = med(t.before),
    a = med(t.after);
  console.log(c.name.padEnd(42), b.toFixed(3).padStart(9), a.toFixed(3).padStart(8), (a / b).toFixed(3).padStart(12));
}
