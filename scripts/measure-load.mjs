// How fast the first lesson loads: the built folder (dist/, from `npm run build`) served like a
// static host (gzip, .wasm as application/wasm, under a sub-path; scripts/serve-dist.mjs), opened
// in headless Chromium with a cold cache, several times. Prints what the first lesson transfers
// (bytes on the wire, every request until the page is ready, its fonts have loaded and the
// network has been quiet for 500 ms) and the time from navigation to the first heatmap drawn
// (the page's own performance mark, attn-first-heatmap).
//
//   node scripts/measure-load.mjs [--runs 5] [--hash lesson=pipeline] [--dist dir] [--prefix /courses/nlp/lab/]
//                                 (--hash '' for the start page)
//                                 [--baseline dir [--baseline-prefix /]]
// With --baseline (another build, e.g. of an older commit), the two are loaded in turn, run by
// run, and both are printed with their ratio: on a busy machine only such side-by-side figures
// compare.
//
// Targets (issue: Embedding in a course site): at most 200 KB gzipped, first heatmap at most 600 ms.

import path from 'node:path';
import { launchBrowser } from '../tests/e2e/harness.js';
import { serveDist, ROOT } from './serve-dist.mjs';
import { median } from '../tests/support/random.js';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const RUNS = Number(opt('--runs', '5'));
const HASH = opt('--hash', 'lesson=pipeline'); // the first lesson that draws a heatmap
const DIST = path.resolve(opt('--dist', path.join(ROOT, 'dist')));
const PREFIX = opt('--prefix', '/courses/nlp/lab/');
const BASELINE = opt('--baseline', '');
const BASELINE_PREFIX = opt('--baseline-prefix', PREFIX);

const kb = (n) => (n / 1024).toFixed(1);

async function once(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } }); // its own, empty cache
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  const requests = new Map(); // requestId -> { url, type, bytes, done }
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, { url: e.request.url, type: e.type, bytes: 0, done: false });
    lastActivity = Date.now();
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) {
      r.bytes = e.encodedDataLength;
      r.done = true;
    }
    lastActivity = Date.now();
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.done = true;
    lastActivity = Date.now();
  });
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
  await page.evaluate(() => document.fonts.ready);
  while (Date.now() - lastActivity < 500 || [...requests.values()].some((r) => !r.done))
    await new Promise((r) => setTimeout(r, 100));
  // NaN on a lesson whose first step draws no heatmap (the start page, Why attention)
  const firstHeatmap = await page.evaluate(
    () => performance.getEntriesByName('attn-first-heatmap')[0]?.startTime ?? NaN,
  );
  const list = [...requests.values()].filter((r) => !r.url.startsWith('data:'));
  await context.close();
  return { firstHeatmap, bytes: list.reduce((s, r) => s + r.bytes, 0), list };
}

function report(name, runs) {
  const bytes = runs.map((r) => r.bytes),
    times = runs.map((r) => r.firstHeatmap);
  const last = runs[runs.length - 1];
  console.log(
    `${name} transferred: ${kb(median(bytes))} KB median in ${last.list.length} requests (runs: ${bytes.map(kb).join(', ')} KB); target <= 200 KB`,
  );
  if (times.some(Number.isNaN)) console.log(`${name} first heatmap: none (this step draws no heatmap)`);
  else
    console.log(
      `${name} first heatmap: ${median(times).toFixed(0)} ms median after navigation (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms); target <= 600 ms`,
    );
  return { bytes: median(bytes), time: median(times) };
}

const server = await serveDist({ dir: DIST, prefix: PREFIX });
const base = BASELINE ? await serveDist({ dir: path.resolve(BASELINE), prefix: BASELINE_PREFIX }) : null;
const browser = await launchBrowser();
try {
  const url = server.url + (HASH ? '#' + HASH : '');
  const baseUrl = base ? base.url + (HASH ? '#' + HASH : '') : '';
  console.log(`first lesson: ${url} (gzip, cold cache, ${RUNS} runs)${base ? `, side by side with ${baseUrl}` : ''}`);
  const runs = [],
    baseRuns = [];
  for (let k = 0; k < RUNS; k++) {
    if (base) baseRuns.push(await once(browser, baseUrl));
    runs.push(await once(browser, url));
  }
  const last = runs[runs.length - 1];
  console.log('\nrequests (last run):');
  for (const r of [...last.list].sort((a, b) => b.bytes - a.bytes)) {
    console.log(
      `  ${kb(r.bytes).padStart(7)} KB  ${r.type.padEnd(10)} ${decodeURIComponent(new URL(r.url).pathname).split('/').pop() || '(page)'}`,
    );
  }
  console.log('');
  const now = report(base ? 'this build:' : '', runs);
  if (base) {
    const was = report('baseline:  ', baseRuns);
    console.log(
      `ratio (this / baseline): transfer ${(now.bytes / was.bytes).toFixed(2)}, first heatmap ${(now.time / was.time).toFixed(2)}`,
    );
  }
} finally {
  await browser.close();
  await server.close();
  await base?.close();
}
