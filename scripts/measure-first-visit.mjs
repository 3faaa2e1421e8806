// What a first visit transfers with the service worker on: the built folder (dist/) served like
// a static host (gzip, under a sub-path; scripts/serve-dist.mjs), opened in headless Chromium in a
// fresh profile, the page left open until the network has been quiet for 5 s. Prints the bytes
// served in the first 10 s after navigation (the first lesson and whatever the service worker
// fetches meanwhile), the bytes of the files the page asked for itself, the bytes of the files
// only the service worker fetched (its precache beyond the lesson, sw.js included), and the total.
//
//   node scripts/measure-first-visit.mjs [--runs 3] [--hash lesson=pipeline] [--page examples/course.html] [--dist dir]
//
// --page: another page of the folder instead of the tutorial (the example course page: an element
// and two iframes); "ready" is then its load event.
//
// The figures are bytes on the wire as the server sent them; this measures, it tests nothing.

import path from 'node:path';
import { launchBrowser } from '../tests/e2e/harness.js';
import { serveDist, ROOT } from './serve-dist.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const RUNS = Number(opt('--runs', '3'));
const PAGE = opt('--page', '');
const HASH = opt('--hash', PAGE ? '' : 'lesson=pipeline');
const DIST = path.resolve(opt('--dist', path.join(ROOT, 'dist')));
const kb = (n) => (n / 1024).toFixed(1);
const wait = (ms) => new Promise((r) => setTimeout(r, ms));

async function once(browser, server) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'allow' });
  const page = await context.newPage();
  const byPage = new Set(); // paths the page asked for itself (through the service worker or not)
  context.on('request', (r) => {
    if (!r.serviceWorker()) byPage.add(new URL(r.url()).pathname);
  });
  const start = server.log.length;
  const t0 = performance.now();
  await page.goto(server.url + PAGE + (HASH ? '#' + HASH : ''));
  if (!PAGE)
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
  const ready = performance.now() - t0;
  await wait(Math.max(0, 10000 - (performance.now() - t0)));
  for (;;) {
    const last = server.log.at(-1)?.at ?? 0;
    if (performance.now() - last > 5000) break;
    await wait(500);
  }
  const entries = server.log.slice(start);
  const prefix = new URL(server.url).pathname;
  const sum = (list) => list.reduce((n, e) => n + e.bytes, 0);
  const first10 = sum(entries.filter((e) => e.at - t0 <= 10000));
  const first10Raw = entries.filter((e) => e.at - t0 <= 10000).reduce((n, e) => n + e.raw, 0);
  const first10Count = entries.filter((e) => e.at - t0 <= 10000).length;
  const untilReady = sum(entries.filter((e) => e.at - t0 <= ready));
  const swFirst = entries.find((e) => !byPage.has(prefix + e.path) && !e.path.endsWith('sw.js'));
  // What the service worker fetched beyond what the page asked for (sw.js itself included).
  const worker = entries.filter((e) => !byPage.has(prefix + e.path));
  const own = sum(entries.filter((e) => byPage.has(prefix + e.path)));
  const controlled = await page.evaluate(() => !!navigator.serviceWorker.controller);
  await context.close();
  return {
    t0,
    ready,
    untilReady,
    swStart: swFirst ? swFirst.at - t0 : NaN,
    first10,
    first10Raw,
    first10Count,
    own,
    sw: sum(worker),
    swFiles: worker.length,
    total: sum(entries),
    n: entries.length,
    controlled,
    entries,
  };
}

const server = await serveDist({ dir: DIST, prefix: '/courses/nlp/lab/' });
const browser = await launchBrowser({ full: true });
try {
  console.log(
    `first visit: ${server.url}${PAGE}${HASH ? '#' + HASH : ''} (gzip, fresh profile, service worker on, ${RUNS} runs)`,
  );
  const runs = [];
  for (let k = 0; k < RUNS; k++) {
    const r = await once(browser, server);
    runs.push(r);
    console.log(
      `  run ${k + 1}: ready ${r.ready.toFixed(0)} ms (${kb(r.untilReady)} KB by then); the worker's first file of its own at ${r.swStart.toFixed(0)} ms; first 10 s ${kb(r.first10)} KB (${kb(r.first10Raw)} KB as files, ${r.first10Count} responses); the page's own ${kb(r.own)} KB; service worker beyond it ${kb(r.sw)} KB in ${r.swFiles} files; total ${kb(r.total)} KB in ${r.n} responses; controlled ${r.controlled}`,
    );
  }
  const last = runs.at(-1);
  console.log('\nresponses (last run), largest first:');
  for (const e of [...last.entries].sort((a, b) => b.bytes - a.bytes).slice(0, 25))
    console.log(`  ${kb(e.bytes).padStart(7)} KB  at ${((e.at - last.t0) / 1000).toFixed(1).padStart(5)} s  ${e.path}`);
} finally {
  await browser.close();
  await server.close();
}
