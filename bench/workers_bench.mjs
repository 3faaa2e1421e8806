// 1 vs 2 Web Workers in headless Chromium: flashAttend split by query rows (attend-pool.js),
// d = 64, full and causal attention, n in WORKERS_SIZES (default 2048 4096). Both pools load
// their engines first and run each size once untimed (every worker's engine instance compiles
// its hot code with V8's optimizing tier only after a first run: the first call at n = 2048 takes
// about twice as long as the later ones); rounds are then interleaved (1 worker, 2 workers, then
// the other way round) and the table shows medians of the wall time of pool.run and the speed-up. Every 2-worker
// output is compared with the 1-worker output bit for bit. The source modules are served as
// they are (web/), so nothing needs bundling: after scripts/build.sh wasm,
//   node bench/workers_bench.mjs
import path from 'node:path';
import { ROOT, launchBrowser, serve } from '../tests/e2e/harness.js';

const SIZES = (process.env.WORKERS_SIZES || '2048 4096').split(/[\s,]+/).map(Number);
const ROUNDS = Number(process.env.WORKERS_ROUNDS || 9);

const server = await serve(path.join(ROOT, 'web'));
const browser = await launchBrowser({ full: true });
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(server.url + 'src/attend-pool.js'); // any page of the origin; the modules are imported below
  const rows = await page.evaluate(
    async ({ sizes, rounds }) => {
      const { createAttendPool } = await import('/src/attend-pool.js');
      const { loadEngine } = await import('/src/engine.js');
      const engine = await loadEngine();
      const cores = navigator.hardwareConcurrency;
      // inputs from the engine's own RNG, 2048 rows at a time (randomMatrix's row limit)
      const random = (n, seed) => {
        const data = new Float32Array(n * 64);
        for (let r = 0; r < n; r += 2048) {
          const part = engine.randomMatrix({ rows: Math.min(2048, n - r), cols: 64, seed, stream: r / 2048 });
          data.set(part.data, r * 64);
        }
        return { rows: n, cols: 64, data };
      };
      const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
      const one = createAttendPool({ workers: 1, simd: engine.simd });
      const two = createAttendPool({ workers: 2, simd: engine.simd });
      await Promise.all([one.ready(), two.ready()]);
      const out = [];
      for (const n of sizes) {
        for (const causal of [false, true]) {
          const o = { query: random(n, 1), key: random(n, 2), value: random(n, 3), causal };
          await one.run('flash', o); // warm-up, untimed
          await two.run('flash', o);
          const t = { 1: [], 2: [] };
          let same = true;
          for (let round = 0; round < rounds; round++) {
            const order = round % 2 ? [two, one] : [one, two];
            const results = [];
            for (const pool of order) {
              const r = await pool.run('flash', o);
              t[pool.size].push(r.ms);
              results[pool.size] = r.output.data;
            }
            same =
              same &&
              results[1].length === results[2].length &&
              results[1].every((x, i) => Object.is(x, results[2][i]));
          }
          out.push({ n, causal, one: median(t[1]), two: median(t[2]), same, cores, simd: engine.simd });
        }
      }
      one.terminate();
      two.terminate();
      return out;
    },
    { sizes: SIZES, rounds: ROUNDS },
  );

  console.log(
    `1 vs 2 workers, flashAttend, d = 64, headless Chromium (${rows[0].simd ? 'SIMD' : 'scalar'} build, ` +
      `navigator.hardwareConcurrency = ${rows[0].cores}), medians of ${ROUNDS} interleaved rounds after an untimed one\n`,
  );
  console.log('| n | mask | 1 worker ms | 2 workers ms | speed-up | 2 workers = 1 worker, bit for bit |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.n} | ${r.causal ? 'causal' : 'none'} | ${r.one.toFixed(0)} | ${r.two.toFixed(0)} | ` +
        `${(r.one / r.two).toFixed(2)}× | ${r.same ? 'yes' : 'NO'} |`,
    );
  }
  if (rows.some((r) => !r.same)) process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
}
