// The √d_k lab's long run in headless Chromium, as figures (tests/e2e/scaling.test.js checks
// only that the run is in the worker, that timers fire while it runs, and that Stop stops it):
// while a million pairs at d_k = 1024 run in the worker, the lag of 20 timers of 10 ms on the
// page's thread (median and largest), and the time from a click on Stop to the stopped state.
// ROUNDS runs (SCALING_ROUNDS, default 3). Needs the built page: ./node_modules/.bin/vite build.
//   node bench/scaling_lab_bench.mjs
import { start } from '../tests/e2e/harness.js';
import { median } from '../tests/support/random.js';

const ROUNDS = Number(process.env.SCALING_ROUNDS || 3);
const VISIBLE = '.lab-step:not([hidden])';
const lab = await start();
const medians = [];
const largest = [];
const stops = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    const page = await lab.open('lesson=scaling&labDk=1024&labSamples=1000000');
    await page.waitForFunction(
      () => Number(document.querySelector('.lab-step:not([hidden]) .histogram')?.dataset.samples) > 0,
    );
    const lags = await page.evaluate(async () => {
      const out = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await new Promise((res) => setTimeout(res, 10));
        out.push(performance.now() - t - 10);
      }
      return out;
    });
    medians.push(median(lags));
    largest.push(Math.max(...lags));
    const t0 = performance.now();
    await page.click(`${VISIBLE} .lab-stop`);
    await page.waitForSelector(`${VISIBLE} .lab-progress[data-state="stopped"]`);
    stops.push(performance.now() - t0);
    await page.close();
  }
} finally {
  await lab.close();
}
const list = (xs) => xs.map((x) => x.toFixed(1)).join(', ');
console.log(`timer lag during the run: median ${median(medians).toFixed(1)} ms (runs: ${list(medians)})`);
console.log(`timer lag during the run: largest ${Math.max(...largest).toFixed(1)} ms (runs: ${list(largest)})`);
console.log(
  `Stop -> stopped: ${median(stops).toFixed(0)} ms median (runs: ${list(stops)}; Playwright's click included)`,
);
