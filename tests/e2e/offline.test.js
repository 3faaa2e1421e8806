// Offline use and deploys, on the Workbox service worker (web/src/hosts/sw.js): a page left open
// while a new build is deployed, with and without the service worker, with no HTTP cache at all
// (every response no-store), and a stale sw.js (a CDN still serving the old one) in front of a new
// build. The built folder is build A; build B is a copy of it in which every hashed script has a
// new name (as a real deploy gives every changed chunk), with its own service worker made by the
// same build step (scripts/service-worker.mjs), and a marker in its pages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { buildServiceWorker } from '../../scripts/service-worker.mjs';
import { DIST, engineReady, launchBrowser, openContext, POLICY } from './harness.js';

const NO_STORE = { 'content-security-policy': POLICY, 'cache-control': 'no-store' };

let tmp, A, B, browser;
let renamed; // build A's hashed scripts -> their names in build B
const servers = []; // closed after the file's tests too, so a failed test leaves none open

async function serve(options) {
  const server = await serveDist(options);
  servers.push(server);
  return server;
}

// A copy of the build in which every hashed script is renamed (references included) and the pages
// carry <meta name="attention-lab-build" content="B">.
async function deployCopy(from, to) {
  fs.cpSync(from, to, { recursive: true });
  const assets = path.join(to, 'assets');
  const renamed = new Map();
  for (const f of fs.readdirSync(assets)) {
    const m = /^(.*-[\w-]{8})\.js$/.exec(f);
    if (m) renamed.set(f, `${m[1]}b.js`);
  }
  const texts = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|html|css)$/.test(e.name)) texts.push(p);
    }
  };
  walk(to);
  const names = [...renamed.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(names.map((n) => n.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|'), 'g');
  for (const file of texts) {
    let text = fs.readFileSync(file, 'utf8');
    text = text.replace(pattern, (n) => renamed.get(n));
    if (file.endsWith('.html')) text = text.replace('<head>', '<head><meta name="attention-lab-build" content="B">');
    fs.writeFileSync(file, text);
  }
  for (const [from, name] of renamed) fs.renameSync(path.join(assets, from), path.join(assets, name));
  await buildServiceWorker(to);
  return renamed;
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-deploy-'));
  A = path.join(tmp, 'a');
  B = path.join(tmp, 'b');
  fs.cpSync(DIST, A, { recursive: true });
  renamed = await deployCopy(A, B);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close().catch(() => {})));
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function open(server, hash, { serviceWorkers }) {
  const page = await openContext(browser, { serviceWorkers, violations: true });
  page.loads = 0;
  page.on('load', () => page.loads++);
  await page.goto(server.url + '#' + hash);
  await engineReady(page);
  return page;
}

const offlineReady = (page) =>
  page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 60000 });
const build = (page) => page.evaluate(() => document.querySelector('meta[name="attention-lab-build"]')?.content || 'A');
const notice = (page) =>
  page.evaluate(() => [...document.querySelectorAll('.notice:not([hidden])')].map((n) => n.textContent).join(' '));
// Errors the test causes on purpose: the missing chunk of the old build, requests while offline.
const unexpected = (errors) =>
  errors.filter((e) => !/404|Failed to fetch dynamically imported module|ERR_INTERNET_DISCONNECTED/.test(e));

// What the caches hold, per cache: the path of each entry (without Workbox's revision parameter).
const cached = (page) =>
  page.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname.split('/').pop());
    }
    return out;
  });

test('a deploy under an open tab, no service worker, no HTTP cache: the next lesson reloads the page once into the new build, with a notice', async () => {
  const server = await serve({ dir: A, prefix: '/courses/nlp/lab/', headers: NO_STORE });
  const page = await open(server, 'lesson=pipeline&stage=weights', { serviceWorkers: 'block' });
  assert.equal(await build(page), 'A');
  server.setDir(B); // deployed
  await page.evaluate(() => {
    location.hash = 'lesson=masks&stage=padding';
  });
  await page.waitForFunction(() => document.querySelector('meta[name="attention-lab-build"]'), null, {
    timeout: 60000,
  });
  await engineReady(page);
  await page.waitForFunction(() => window.attentionLab?.state.lesson === 'masks', null, { timeout: 60000 });
  assert.equal(await build(page), 'B');
  assert.equal(page.loads, 2, 'one reload');
  assert.equal(await page.evaluate(() => window.attentionLab.state.stage), 'padding');
  assert.match(await notice(page), /updated while this page was open/);
  // The next lessons load from the new build, and no error notice stays.
  await page.evaluate(() => window.attentionLab.set({ lesson: 'softmax', stage: '' }));
  await page.waitForFunction(() => document.querySelector('main .chapter-softmax'), null, { timeout: 60000 });
  assert.doesNotMatch(await notice(page), /could not|Failed/i);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(unexpected(page.errors), []);
  await page.context().close();
  await server.close();
});

test('a deploy under an open tab with the service worker: the new worker takes over, the old build is gone from the caches, and the old page reloads once into the new build', async () => {
  const server = await serve({ dir: A, prefix: '/courses/nlp/lab/', headers: NO_STORE });
  const page = await open(server, 'lesson=pipeline&stage=weights', { serviceWorkers: 'allow' });
  await offlineReady(page);
  const before = await cached(page);
  const names = Object.keys(before);
  assert.equal(names.length, 2, `two caches: ${names}`);
  const all = Object.values(before).flat();
  assert.ok(
    all.some((f) => /^masks-[\w-]{8}\.js$/.test(f)),
    'the lessons are kept',
  );
  // Only the engine build this browser runs (SIMD) is kept.
  assert.ok(all.some((f) => /^attention-simd-.*\.wasm$/.test(f)));
  assert.ok(!all.some((f) => /scalar/.test(f)), 'no scalar build');

  server.setDir(B);
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const changed = new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
    await reg.update();
    await changed;
    // It claims the page as it activates; its clean-up is done once it is activated.
    const sw = navigator.serviceWorker.controller;
    if (sw.state !== 'activated')
      await new Promise((resolve) =>
        sw.addEventListener('statechange', () => {
          if (sw.state === 'activated') resolve();
        }),
      );
  });
  const after = await cached(page);
  const kept = Object.values(after).flat();
  // By name, not by pattern: a hash may start with "-" (attention-first-simd--DczK2he.js), and
  // its build-B name then looks like a build-A one.
  const ofB = new Set(renamed.values());
  assert.deepEqual(
    kept.filter((f) => renamed.has(f)),
    [],
    'no script of build A left',
  );
  assert.ok(
    kept.some((f) => ofB.has(f)),
    "build B's first files are kept",
  );
  // The old page asks for a lesson it has not loaded: its file is gone.
  await page.evaluate(() => window.attentionLab.set({ lesson: 'masks', stage: 'padding' }));
  await page.waitForFunction(() => document.querySelector('meta[name="attention-lab-build"]'), null, {
    timeout: 60000,
  });
  await engineReady(page);
  await page.waitForFunction(() => document.querySelector('main .chapter-masks'), null, { timeout: 60000 });
  assert.equal(page.loads, 2, 'one reload');
  assert.equal(await page.evaluate(() => window.attentionLab.state.stage), 'padding');
  assert.match(await notice(page), /updated while this page was open/);
  // Build B, cached in full, works offline.
  await offlineReady(page);
  await page.context().setOffline(true);
  await page.reload();
  await engineReady(page);
  assert.equal(await build(page), 'B');
  await page.evaluate(() => {
    location.hash = 'lesson=pipeline&stage=weights';
  });
  await page.waitForFunction(() => document.querySelector('main .chapter-pipeline .hm-plot'), null, {
    timeout: 60000,
  });
  await page.evaluate(() => window.attentionLab.formulas());
  assert.ok(await page.locator('main .katex').first().isVisible(), 'formulas drawn offline');
  await page.context().setOffline(false);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(unexpected(page.errors), []);
  await page.context().close();
  await server.close();
});

test('a stale sw.js in front of a new build, no HTTP cache: the page stays on the build its worker keeps, online and offline', async () => {
  const extra = {};
  const server = await serve({ dir: A, prefix: '/courses/nlp/lab/', headers: NO_STORE, extra });
  const page = await open(server, 'lesson=pipeline&stage=weights', { serviceWorkers: 'allow' });
  await offlineReady(page);
  // The new build is deployed, but a cache in front of the site still serves the old sw.js.
  extra['sw.js'] = fs.readFileSync(path.join(A, 'sw.js'), 'utf8');
  server.setDir(B);
  await page.reload();
  await engineReady(page);
  assert.equal(await build(page), 'A', 'the pages and files of one build');
  await page.evaluate(() => {
    location.hash = 'lesson=scaling&stage=variance&labSamples=1000';
  });
  await page.waitForFunction(() => document.querySelector('main .chapter-scaling'), null, { timeout: 60000 });
  // No page of build B found its way into the caches of build A.
  const held = await page.evaluate(async () => {
    const texts = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const r of await cache.keys()) if (/\.html/.test(r.url)) texts.push(await (await cache.match(r)).text());
    }
    return texts;
  });
  assert.ok(held.length >= 2);
  assert.ok(
    held.every((t) => !t.includes('attention-lab-build')),
    'no page of build B cached',
  );
  await page.context().setOffline(true);
  await page.reload();
  await engineReady(page);
  assert.equal(await build(page), 'A');
  await page.evaluate(() => {
    location.hash = 'lesson=softmax&stage=overflow';
  });
  await page.waitForFunction(() => document.querySelector('main .chapter-softmax'), null, { timeout: 60000 });
  await page.evaluate(() => window.attentionLab.formulas());
  assert.ok(await page.locator('main .katex').first().isVisible(), 'formulas drawn offline');
  await page.context().setOffline(false);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(unexpected(page.errors), []);
  await page.context().close();
  await server.close();
});
