// How fast a first visit shows its first figure: the built folder (dist/, from `npm run build`)
// served like a static host (scripts/serve-dist.mjs: gzip level 9 for text and wasm, as GitHub
// Pages sends them (hosts that send brotli send about 15 % fewer bytes); .wasm as
// application/wasm; hashed assets cached for a year; under a sub-path; HTTP/1.1, six connections
// at a time), opened in headless Chromium with a cold cache and no service worker, several times,
// on a throttled profile:
// 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip added to every request, CPU slowed 4 times
// (Chromium's own throttling, the mobile profile of Lighthouse).
//
// For each page it prints:
//   first figure   from navigation to the first frame that shows the chapter's first figure: the
//                  build's picture of the first screen (<html data-first-screen="shown">: drawn by
//                  the engine when the site was built, scripts/first-screens.mjs; shown by
//                  web/src/hosts/visit.js on a first visit) or the live chapter, whichever is first
//   live figure    the first frame after <html data-ready="true">: the chapter's first figure
//                  computed by the engine in this browser and in the document
//   first heatmap  the page's own mark (attn-first-heatmap), on a page whose first step draws one
//   by figure      the bytes on the wire and the requests finished by the first figure
//   in all         every request until the page is ready, its fonts have loaded and the network
//                  has been quiet for 500 ms: bytes on the wire (compressed) and as files
//                  (uncompressed)
//
//   node scripts/measure-load.mjs [--runs 5] [--hash ''] [--hash lesson=pipeline] ...
//                                 [--profile throttled|none] [--http2] [--dist dir] [--prefix /courses/nlp/lab/]
//                                 [--baseline dir [--baseline-prefix /]] [--waterfall]
// --hash: a page to load (repeat it for several; '' is the start page); default: the start page and
// the pipeline lesson. --profile none: the machine's own speed. --http2: over TLS with HTTP/2, as
// most static hosts and CDNs serve (every request on one connection); Chromium's request-level
// throttling sometimes stalls every response of an HTTP/2 connection for good (a run then fails
// after 2 minutes), which is why HTTP/1.1 is the default. --waterfall: every request of the
// last run with when it started and ended.
// With --baseline (another build, e.g. of an older commit), the two are loaded in turn, run by
// run, and both are printed with their ratio: on a busy machine only such side-by-side figures
// compare.
//
// Target (issue: Every step an instrument): the first figure within 1.5 s on the throttled profile,
// on the start page and on a lesson link.

import path from 'node:path';
import { launchBrowser } from '../tests/e2e/harness.js';
import { serveDist, ROOT } from './serve-dist.mjs';
import { median } from '../tests/support/random.js';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const all = (name) => args.flatMap((a, k) => (a === name && k + 1 < args.length ? [args[k + 1]] : []));
const RUNS = Number(opt('--runs', '5'));
const HASHES = all('--hash').length ? all('--hash') : ['', 'lesson=pipeline'];
const PROFILE = opt('--profile', 'throttled');
const DIST = path.resolve(opt('--dist', path.join(ROOT, 'dist')));
const PREFIX = opt('--prefix', '/courses/nlp/lab/');
const BASELINE = opt('--baseline', '');
const BASELINE_PREFIX = opt('--baseline-prefix', PREFIX);
const WATERFALL = args.includes('--waterfall');
const HTTP2 = args.includes('--http2');

const PROFILES = {
  // Lighthouse's mobile profile, applied by Chromium's DevTools throttling (per request).
  throttled: { latency: 150, down: 1.6e6 / 8, up: 750e3 / 8, cpu: 4 },
  none: null,
};
if (!(PROFILE in PROFILES)) throw new Error(`--profile: one of ${Object.keys(PROFILES).join(', ')}`);
const TARGET_MS = 1500;

const kb = (n) => (n / 1024).toFixed(1);

// In the page, before any of its scripts: the time of the first frame after the first screen's
// picture is shown (window.__firstFigure, unless the live chapter came first) and after the chapter
// is drawn (window.__liveFigure); a task queued in the animation frame runs once that frame has been
// produced.
function watchFirstFigure() {
  const marks = { firstScreen: ['shown', '__firstFigure'], ready: ['true', '__liveFigure'] };
  const frameAfter = (name) =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        window[name] = performance.now();
        window.__firstFigure ??= window[name];
      }),
    );
  const seen = new Set();
  new MutationObserver((list, observer) => {
    for (const [key, [value, name]] of Object.entries(marks))
      if (!seen.has(key) && document.documentElement.dataset[key] === value) {
        seen.add(key);
        frameAfter(name);
      }
    if (seen.size === 2) observer.disconnect();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready', 'data-first-screen'] });
}

async function once(browser, url) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
    ignoreHTTPSErrors: true, // the server's certificate is made for the run
  }); // an empty cache
  await context.addInitScript(watchFirstFigure);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  const p = PROFILES[PROFILE];
  if (p) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: p.latency,
      downloadThroughput: p.down,
      uploadThroughput: p.up,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: p.cpu });
  }
  const requests = new Map(); // requestId -> { url, type, bytes, raw, start, end (wall ms), done }
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, {
      url: e.request.url,
      type: e.type,
      bytes: 0,
      raw: 0,
      start: e.wallTime * 1000,
      t0: e.timestamp,
      end: NaN,
      done: false,
    });
    lastActivity = Date.now();
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.raw += e.dataLength;
  });
  const finish = (e) => {
    const r = requests.get(e.requestId);
    if (r) {
      r.bytes = e.encodedDataLength ?? 0;
      r.end = r.start + (e.timestamp - r.t0) * 1000;
      r.done = true;
    }
    lastActivity = Date.now();
  };
  cdp.on('Network.loadingFinished', finish);
  cdp.on('Network.loadingFailed', finish);
  await page.goto(url, { waitUntil: 'commit' });
  await page
    .waitForFunction(() => window.__liveFigure !== undefined, null, { timeout: 120000, polling: 100 })
    .catch(async (e) => {
      const at = await page.evaluate(() => [
        document.documentElement.dataset.ready,
        document.querySelector('#loading')?.textContent,
      ]);
      const open = [...requests.values()].filter((r) => !r.done).map((r) => r.url.split('/').pop());
      throw new Error(
        `${url}: no figure (${errors.join('; ') || e.message}; ready ${at}; unfinished: ${open.join(' ')})`,
      );
    });
  await page.evaluate(() => document.fonts.ready);
  while (Date.now() - lastActivity < 500 || [...requests.values()].some((r) => !r.done))
    await new Promise((r) => setTimeout(r, 100));
  const marks = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    figure: window.__firstFigure,
    live: window.__liveFigure,
    heatmap: performance.getEntriesByName('attn-first-heatmap')[0]?.startTime ?? NaN,
  }));
  await context.close();
  const list = [...requests.values()]
    .filter((r) => !r.url.startsWith('data:'))
    .map((r) => ({ ...r, start: r.start - marks.origin, end: r.end - marks.origin }));
  const byFigure = list.filter((r) => r.end <= marks.figure);
  const sum = (l, k) => l.reduce((s, r) => s + r[k], 0);
  return {
    figure: marks.figure,
    live: marks.live,
    heatmap: marks.heatmap,
    bytes: sum(list, 'bytes'),
    raw: sum(list, 'raw'),
    figureBytes: sum(byFigure, 'bytes'),
    figureRequests: byFigure.length,
    list,
  };
}

const ms = (t) => (Number.isNaN(t) ? '-' : t.toFixed(0));
function report(name, runs) {
  const m = (k) => median(runs.map((r) => r[k]));
  const times = (k) => runs.map((r) => ms(r[k])).join(', ');
  const last = runs.at(-1);
  const figure = m('figure');
  // The fastest run is the one a busy machine disturbed least.
  console.log(
    `${name} first figure ${ms(figure)} ms median, ${ms(Math.min(...runs.map((r) => r.figure)))} ms fastest (runs: ${times('figure')})${PROFILES[PROFILE] ? `; target <= ${TARGET_MS} ms: ${figure <= TARGET_MS ? 'met' : 'NOT met'}` : ''}`,
  );
  console.log(`${name} live figure ${ms(m('live'))} ms median (runs: ${times('live')})`);
  if (runs.some((r) => !Number.isNaN(r.heatmap))) console.log(`${name} first heatmap ${ms(m('heatmap'))} ms median`);
  console.log(
    `${name} by the figure ${kb(m('figureBytes'))} KB in ${last.figureRequests} requests; in all ${kb(m('bytes'))} KB on the wire (${kb(m('raw'))} KB as files) in ${last.list.length} requests`,
  );
  return { figure, live: m('live'), bytes: m('bytes') };
}

function waterfall(run) {
  console.log('  start    end  wire KB  file KB  type       file');
  for (const r of [...run.list].sort((a, b) => a.start - b.start)) {
    const name = decodeURIComponent(new URL(r.url).pathname).split('/').pop() || '(page)';
    console.log(
      `  ${ms(r.start).padStart(5)}  ${ms(r.end).padStart(5)}  ${kb(r.bytes).padStart(7)}  ${kb(r.raw).padStart(7)}  ${r.type.padEnd(10)} ${name}`,
    );
  }
  console.log(`  (first figure at ${ms(run.figure)} ms)`);
}

const server = await serveDist({ dir: DIST, prefix: PREFIX, http2: HTTP2 });
const base = BASELINE ? await serveDist({ dir: path.resolve(BASELINE), prefix: BASELINE_PREFIX, http2: HTTP2 }) : null;
const browser = await launchBrowser({ full: true });
const profile = PROFILES[PROFILE];
try {
  console.log(
    `profile: ${profile ? `${(profile.down * 8) / 1e6} Mbit/s down, ${(profile.up * 8) / 1e3} kbit/s up, ${profile.latency} ms round trip, CPU x${profile.cpu}` : 'none (the machine as it is)'}; ${HTTP2 ? 'HTTP/2' : 'HTTP/1.1'}, gzip; cold cache; ${RUNS} runs`,
  );
  for (const hash of HASHES) {
    const url = server.url + (hash ? '#' + hash : '');
    const baseUrl = base ? base.url + (hash ? '#' + hash : '') : '';
    console.log(`\n${hash || '(start page)'}: ${url}${base ? `, side by side with ${baseUrl}` : ''}`);
    const runs = [],
      baseRuns = [];
    for (let k = 0; k < RUNS; k++) {
      if (base) baseRuns.push(await once(browser, baseUrl));
      runs.push(await once(browser, url));
    }
    if (WATERFALL) waterfall(runs.at(-1));
    const now = report(base ? 'this build:' : '', runs);
    if (base) {
      const was = report('baseline:  ', baseRuns);
      console.log(
        `ratio (this / baseline): first figure ${(now.figure / was.figure).toFixed(2)}, live figure ${(now.live / was.live).toFixed(2)}, transfer ${(now.bytes / was.bytes).toFixed(2)}`,
      );
    }
  }
} finally {
  await browser.close();
  await server.close();
  await base?.close();
}
