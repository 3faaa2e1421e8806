// A first visit in headless Chromium, against the built folder served like a static host: what
// loads before the first figure and what only after it. The page starts on the first part of the
// engine (a lesson that needs the whole engine loads that one instead); the offline precache waits
// until the figure is drawn and the page's own downloads (the lesson, KaTeX, its fonts) are done;
// an embedded lesson (the element, the iframe) caches nothing unless its author asks for it.
// Nothing here waits on a clock: each test waits for what the page shows and compares the order
// of events, never their durations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { DIST, engineReady, launchBrowser, openContext } from './harness.js';

// A course page whose author asks for offline use: the element's attribute and the iframe's flag.
const PAGES = {
  'test/offline.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>offline</title>
    <link rel="icon" href="icon.svg"><script type="module" src="../attention-lab.js"></script></head><body>
    <attention-lab id="a" lesson="masks" stage="padding" offline></attention-lab>
    <iframe id="f" title="frame" src="../embed.html#lesson=softmax&stage=temperature&offline=1"></iframe></body></html>`,
  'test/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
};

let server, browser;
before(async () => {
  server = await serveDist({ dir: DIST, prefix: '/courses/nlp/lab/', extra: PAGES });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// In the page, before its scripts: when the chapter was drawn (<html data-ready>) and when the
// service worker was registered, on the page's own clock. As the chapter is drawn, its formulas
// are asked for (as a learner's first click does): KaTeX and its fonts download after the figure.
function watch() {
  const register = ServiceWorkerContainer.prototype.register;
  ServiceWorkerContainer.prototype.register = function (...args) {
    window.__registeredAt ??= performance.now();
    return register.apply(this, args);
  };
  new MutationObserver((list, observer) => {
    if (document.documentElement.dataset.ready !== 'true') return;
    observer.disconnect();
    window.__drawnAt = performance.now();
    window.attentionLab.formulas();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

// The requests a context made (the service worker's too), by file name.
function requests(page) {
  const seen = [];
  page
    .context()
    .on('request', (r) => seen.push({ file: new URL(r.url()).pathname.split('/').pop(), sw: !!r.serviceWorker() }));
  return seen;
}

const wasmFiles = (seen) =>
  seen.filter((r) => r.file.endsWith('.wasm')).map((r) => r.file.replace(/-[\w-]{8}\.wasm$/, ''));

test('a lesson link loads the first part of the engine; a lesson that needs the rest loads the whole engine, once', async () => {
  const page = await openContext(browser);
  const seen = requests(page);
  await page.goto(`${server.url}#lesson=pipeline&stage=weights`);
  await engineReady(page);
  assert.deepEqual(wasmFiles(seen), ['attention-first-simd']);
  assert.ok(await page.locator('main .hm-plot').first().isVisible());
  // Every script the lesson needed was asked for at once (KaTeX, for the formulas, comes on
  // demand): preloaded by the page, or listed in it for this lesson (lesson-preload.js preloads
  // those before the chapter list's chunk has run).
  const html = await (await fetch(server.url)).text();
  const listed = JSON.parse(/<script type="application\/json" id="lesson-chunks">(.*?)<\/script>/.exec(html)[1]);
  for (const { file } of seen.filter((r) => r.file.endsWith('.js') && !r.file.startsWith('katex-')))
    assert.ok(html.includes(`./assets/${file}"`) || listed.pipeline.includes(`assets/${file}`), file);
  assert.ok(
    listed.pipeline.some((f) => /^assets\/pipeline-[\w-]{8}\.js$/.test(f)),
    'the lesson itself',
  );
  // The debugging lab computes with functions the first part does not have.
  await page.evaluate(() => window.attentionLab.set({ lesson: 'debug', stage: '' }));
  await page.waitForFunction(() => document.querySelector('main .chapter-debug .hm-plot'), null, { timeout: 60000 });
  assert.deepEqual(wasmFiles(seen), ['attention-first-simd', 'attention-simd']);
  assert.equal(await page.evaluate(() => typeof window.attentionLab.engine.monitor), 'function');
  // Back on the pipeline, the page keeps computing with the whole engine: no download.
  await page.evaluate(() => window.attentionLab.set({ lesson: 'pipeline', stage: 'weights' }));
  await page.waitForFunction(() => document.querySelector('main .chapter-pipeline .hm-plot'), null, { timeout: 60000 });
  assert.deepEqual(wasmFiles(seen), ['attention-first-simd', 'attention-simd']);
  const banners = await page.$$eval('.engine-error', (b) => b.filter((x) => !x.hidden).map((x) => x.textContent));
  assert.deepEqual(banners, []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();

  const direct = await openContext(browser);
  const seenDirect = requests(direct);
  await direct.goto(`${server.url}#lesson=long`);
  await engineReady(direct);
  assert.ok(wasmFiles(seenDirect).includes('attention-simd'), 'the whole engine');
  assert.deepEqual(direct.errors, []);
  await direct.closeAll();
});

test('the offline precache starts once the first figure is drawn and the page has finished its own downloads', async () => {
  const page = await openContext(browser, { serviceWorkers: 'allow' });
  await page.context().addInitScript(watch);
  const seen = requests(page);
  await page.goto(`${server.url}#lesson=pipeline`);
  await engineReady(page);
  await page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 120000 });
  const t = await page.evaluate(() => ({
    drawn: window.__drawnAt,
    registered: window.__registeredAt,
    // the page's own downloads, as they ended (the service worker answers none of them before it
    // is registered)
    own: performance
      .getEntriesByType('resource')
      .filter((r) => r.responseEnd <= window.__registeredAt)
      .map((r) => ({ file: r.name.split('/').pop(), end: r.responseEnd })),
    later: performance.getEntriesByType('resource').filter((r) => r.startTime >= window.__registeredAt).length,
  }));
  assert.ok(t.drawn < t.registered, `drawn at ${t.drawn}, the worker registered at ${t.registered}`);
  assert.ok(
    t.own.some((r) => /^katex-.*\.js$/.test(r.file) && r.end > t.drawn),
    'KaTeX came after the figure, before the worker',
  );
  assert.equal(t.later, 0, 'no download of the page after the worker was registered');
  // sw.js and every file only the worker fetched came after that.
  const first = seen.findIndex((r) => r.sw || r.file === 'sw.js');
  assert.ok(first > seen.findIndex((r) => /^katex-.*\.js$/.test(r.file)));
  assert.ok(seen.filter((r) => r.sw).length > 10, 'the worker kept the build');
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('an embedded lesson caches nothing unless its author asks for offline use', async () => {
  // The example course page (an element and two iframes, no offline flag) and, beside it in a
  // browser of its own, a course page that asks for offline use in both ways.
  const plain = await openContext(browser, { serviceWorkers: 'allow' });
  const plainSeen = requests(plain);
  await plain.goto(`${server.url}examples/course.html`);
  const asked = await openContext(browser, { serviceWorkers: 'allow' });
  await asked.goto(`${server.url}test/offline.html`);
  await asked.waitForFunction(() => document.querySelector('#a').dataset.offline === 'ready', null, {
    timeout: 120000,
  });
  const frame = asked.frame({ url: /embed\.html/ });
  await frame.waitForFunction(() => document.querySelector('#lab').dataset.offline === 'ready', null, {
    timeout: 120000,
  });
  assert.equal(await asked.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 1);

  // Meanwhile the example page drew its three lessons, and asked for nothing.
  await plain.waitForFunction(
    () => document.querySelector('attention-lab').shadowRoot.querySelector('.hm-plot'),
    null,
    {
      timeout: 60000,
    },
  );
  const frames = plain.frames().filter((f) => /embed\.html/.test(f.url()));
  assert.equal(frames.length, 2);
  for (const f of frames) await engineReady(f);
  for (const f of [plain.mainFrame(), ...frames]) {
    assert.equal(await f.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0);
    assert.equal(await f.evaluate(() => document.querySelector('attention-lab')?.dataset.offline), undefined);
  }
  assert.deepEqual(
    plainSeen.filter((r) => r.sw || r.file === 'sw.js'),
    [],
  );
  assert.deepEqual(plain.errors, []);
  assert.deepEqual(asked.errors, []);
  await plain.closeAll();
  await asked.closeAll();
});
