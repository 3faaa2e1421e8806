// Test harness for the built page: serves dist/ (the output of `vite build`) with `vite
// preview` (.wasm as application/wasm) on a free port, so parallel runs never clash; launches
// the system Chromium through playwright-core with a fresh profile, records console errors and
// page errors, and shuts everything down. It builds nothing: run `vite build` first
// (scripts/test.sh does).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The built page: dist/, or the directory named by PAGE_DIST (e.g. a build kept apart from others).
export const DIST = process.env.PAGE_DIST ? path.resolve(process.env.PAGE_DIST) : path.join(ROOT, 'dist');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The strict Content-Security-Policy a course site may serve the page with (README: the page, the
// embed, the element and the example page run under it without a violation).
export const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

// `vite preview` of dir on a free port, with extra response headers (e.g. a
// Content-Security-Policy): { url, close() }.
export async function serve(dir = DIST, { headers = {} } = {}) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html not found: build the page first (./node_modules/.bin/vite build)`);
  }
  const server = await preview({
    configFile: path.join(ROOT, 'vite.config.js'),
    logLevel: 'silent',
    build: { outDir: dir },
    preview: {
      host: '127.0.0.1',
      port: 0,
      strictPort: false,
      open: false,
      headers: { 'cache-control': 'no-store', ...headers },
    },
  });
  return { url: server.resolvedUrls.local[0], close: () => server.close() };
}

// The system Chromium, headless, on a fresh temporary profile (removed on close). The page tests
// run in Chromium's headless shell (CHROMIUM_SHELL): the same Blink and V8 without the desktop
// browser around them, where opening a page takes about a third of the CPU time. { full: true }
// is the whole browser (CHROMIUM), as a learner runs it: the load scripts measure that one.
export function launchBrowser({ full = false } = {}) {
  return chromium.launch({
    executablePath: full
      ? process.env.CHROMIUM || '/usr/bin/chromium'
      : process.env.CHROMIUM_SHELL || '/usr/bin/chromium-headless-shell',
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

// A page of `browser` in a fresh context of its own (cold cache), not yet navigated, with
// page.errors: console errors and uncaught exceptions collected since it opened. With
// { violations: true } every frame also records its Content-Security-Policy violations in
// window.__violations. Closing the page closes its context (page.closeAll() does so at once).
// The offline service worker is blocked unless serviceWorkers: 'allow' (it would fetch the whole
// build for every page). reducedMotion: 'reduce' emulates prefers-reduced-motion.
export async function openContext(
  browser,
  { width = 1280, height = 900, locale, serviceWorkers = 'block', reducedMotion, violations = false } = {},
) {
  const options = { viewport: { width, height }, serviceWorkers };
  if (locale !== undefined) options.locale = locale;
  if (reducedMotion !== undefined) options.reducedMotion = reducedMotion;
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.errors.push(msg.text());
  });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('close', () => {
    context.close().catch(() => {});
  });
  page.closeAll = () => context.close();
  if (violations) {
    await context.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
  }
  return page;
}

// Starts the server and the browser. Returns { url, browser, open(hash, options), close() }.
// open() gives a page (already loaded and ready, see openContext) with page.errors. `headers`
// are sent with every response.
export async function start({ headers } = {}) {
  const server = await serve(DIST, { headers });
  const browser = await launchBrowser();

  // A page in its own context (locale, viewport), loaded and ready.
  async function open(
    hash = '',
    { width = 1280, height = 900, locale = 'en-US', wait = true, reducedMotion = 'no-preference' } = {},
  ) {
    const page = await openContext(browser, { width, height, locale, reducedMotion });
    await page.goto(server.url + (hash ? '#' + hash.replace(/^#/, '') : ''));
    if (wait) await ready(page);
    return page;
  }

  async function close() {
    await browser.close().catch(() => {});
    await server.close();
  }

  return { url: server.url, browser, open, close };
}

// Waits until the page has loaded the engine and drawn its chapter, formulas included (KaTeX
// otherwise loads only when a formula nears the screen or at the first click or key press).
export async function ready(page) {
  await engineReady(page);
  await page.evaluate(() => window.attentionLab?.formulas?.());
}

// Waits until the page has loaded the engine and drawn its chapter (formulas may still wait).
export const engineReady = (page) =>
  page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });

// Waits until what is on screen has settled: the formulas drawn, the fonts loaded, and then no
// change to the document for two animation frames in a row (a poll with a deadline, not a
// fixed sleep: on a slow machine it waits longer, on a fast one not at all).
export async function settled(page, { timeout = 30000 } = {}) {
  await page.evaluate(() => window.attentionLab?.formulas?.());
  await quiet(page, { timeout });
}

// Waits until the document has not changed for two animation frames in a row and its fonts have
// loaded; rejects if it is still changing after `timeout` ms.
export function quiet(page, { timeout = 30000 } = {}) {
  return page.evaluate(
    (timeout) =>
      new Promise((resolve, reject) => {
        const deadline = performance.now() + timeout;
        let changed = true;
        let still = 0;
        const seen = new MutationObserver(() => {
          changed = true;
        });
        seen.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        const frame = () => {
          still = changed ? 0 : still + 1;
          changed = false;
          if (still >= 2) {
            seen.disconnect();
            document.fonts.ready.then(() => resolve());
          } else if (performance.now() > deadline) {
            seen.disconnect();
            reject(new Error(`the page was still changing after ${timeout} ms`));
          } else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    timeout,
  );
}

// axe-core's violations on the page as it is, as "rule (impact): target — summary" lines; axe is
// added to the page the first time. With `only` (a CSS selector), axe checks just the elements it
// matches (none matched: no violation).
let axeSource = null;
export async function axeViolations(page, only) {
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axeSource); // evaluated by the browser's protocol: a page's CSP does not apply
  }
  return page.evaluate(async (only) => {
    const context = only ? document.querySelectorAll(only) : document;
    if (!context.length && only) return [];
    const r = await window.axe.run(context, { resultTypes: ['violations'] });
    return r.violations.flatMap((v) =>
      v.nodes.map(
        (n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 200)}`,
      ),
    );
  }, only);
}
