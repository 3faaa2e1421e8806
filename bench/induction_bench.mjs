// The induction lab's phase change under Node (SIMD build): the playground's random-induction task
// at the page's settings (2 layers x 2 heads, d_model 32, learning rate 0.003, batch 32), five
// seeds. For each: where the loss plateau starts and ends, how long the drop takes (steps and
// seconds of training), the step where a head's induction score first crosses 0.4, and the
// held-out accuracy at the end with each head ablated in turn.
//   plateau: from the first 10-step mean training loss within 0.2 of ln 64 (what the unigram
//            statistics of random tokens give) to the first one 0.4 below it;
//   drop:    from there to the first one at or below 1.0.
//   node bench/induction_bench.mjs   (after scripts/build.sh wasm)
//   INDUCTION_SEEDS=1,2,3 INDUCTION_MAX_STEPS=3000 to change the seeds and the cap.
import { loadTrainEngine } from '../web/src/engine-train.js';
import { median } from '../tests/support/random.js';

const SEEDS = (process.env.INDUCTION_SEEDS || '1,2,3,4,5').split(',').map(Number);
const MAX_STEPS = Number(process.env.INDUCTION_MAX_STEPS || 3000);
const CHUNK = 10;
const SETTINGS = { task: 'random-induction', layers: 2, heads: 2, dModel: 32, learningRate: 0.003, batch: 32 };
const UNIGRAM = Math.log(64);
const LEARNED_LOSS = 1.0;

const engine = await loadTrainEngine({ simd: true });
console.log(
  `random-induction, ${SETTINGS.layers} layers x ${SETTINGS.heads} heads, d_model ${SETTINGS.dModel}, lr ${SETTINGS.learningRate}, batch ${SETTINGS.batch}; ln 64 = ${UNIGRAM.toFixed(3)}`,
);
console.log(
  'seed  plateau start  plateau (steps, s)  drop (steps, s)  induction >= 0.4  end acc  ablated acc (L1H1 L1H2 L2H1 L2H2)',
);
const rows = [];
for (const seed of SEEDS) {
  const t = engine.trainer({ ...SETTINGS, seed });
  const at = { start: null, dropStart: null, dropEnd: null, induction: null };
  const seconds = {};
  let ms = 0;
  try {
    for (let step = 0; step < MAX_STEPS && at.dropEnd === null;) {
      const t0 = performance.now();
      const r = t.step(CHUNK);
      ms += performance.now() - t0;
      step = r.step;
      const loss = r.losses.reduce((a, b) => a + b, 0) / r.losses.length;
      const mark = (name, yes) => {
        if (at[name] === null && yes) {
          at[name] = step;
          seconds[name] = ms / 1000;
        }
      };
      mark('start', loss <= UNIGRAM + 0.2);
      mark('dropStart', at.start !== null && loss <= UNIGRAM - 0.4);
      mark('dropEnd', at.dropStart !== null && loss <= LEARNED_LOSS);
      mark('induction', Math.max(...t.headScores().induction) >= 0.4);
    }
    for (let k = 0; k < 20; k++) t.step(CHUNK); // settle after the drop
    const acc = t.evaluate().accuracy;
    const ablated = [];
    for (let l = 0; l < SETTINGS.layers; l++)
      for (let h = 0; h < SETTINGS.heads; h++) ablated.push(t.evaluate({ ablate: [[l, h]] }).accuracy);
    const row = { seed, at, seconds, acc, ablated };
    rows.push(row);
    const span = (a, b) =>
      at[a] !== null && at[b] !== null ? `${at[b] - at[a]} (${(seconds[b] - seconds[a]).toFixed(1)} s)` : 'none';
    console.log(
      `${String(seed).padStart(4)}  ${String(at.start ?? '-').padStart(13)}  ${span('start', 'dropStart').padStart(18)}  ${span('dropStart', 'dropEnd').padStart(15)}  ${String(at.induction ?? '-').padStart(16)}  ${acc.toFixed(3).padStart(7)}  ${ablated.map((a) => a.toFixed(3)).join(' ')}`,
    );
  } finally {
    t.delete();
  }
}
const done = rows.filter((r) => r.at.dropEnd !== null);
if (done.length) {
  const med = (f) => median(done.map(f));
  console.log(
    `median of ${done.length} seeds: plateau ${med((r) => r.at.dropStart - r.at.start)} steps (${med((r) => r.seconds.dropStart - r.seconds.start).toFixed(1)} s), drop ${med((r) => r.at.dropEnd - r.at.dropStart)} steps (${med((r) => r.seconds.dropEnd - r.seconds.dropStart).toFixed(1)} s), ${(1000 / med((r) => (1000 * r.seconds.dropEnd) / r.at.dropEnd)).toFixed(0)} steps/s`,
  );
}
if (done.length < rows.length)
  console.log(`${rows.length - done.length} seed(s) had no drop within ${MAX_STEPS} steps`);
