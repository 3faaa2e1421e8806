// Test harness for the built page: serves dist/ (the output of `vite build`) over HTTP with
// the right MIME types (.wasm as application/wasm), launches the system Chromium through
// playwright-core with a fresh profile, records console errors and page errors, and shuts
// everything down. It builds nothing: run `vite build` first (scripts/test.sh does).

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The built page: dist/, or the directory named by PAGE_DIST (e.g. a build kept apart from others).
export const DIST = process.env.PAGE_DIST ? path.resolve(process.env.PAGE_DIST) : path.join(ROOT, 'dist');

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf',
};

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// A static file server for dir on a free port: { url, close() }.
export function serve(dir = DIST) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html not found: build the page first (./node_modules/.bin/vite build)`);
  }
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.normalize(path.join(dir, urlPath));
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    if (urlPath.endsWith('/')) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
      res.writeHead(200, { 'content-type': MIME[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

// Starts the server and the browser. Returns { url, browser, open(hash, options), close() }.
// open() gives a page (already loaded and ready) with page.errors: console errors and
// uncaught exceptions collected since it opened.
export async function start() {
  const server = await serve();
  // launch() runs Chromium on a fresh temporary profile (its own --user-data-dir), removed on close.
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });

  // A page in its own context (locale, viewport), loaded and ready.
  async function open(hash = '', { width = 1280, height = 900, locale = 'en-US', wait = true } = {}) {
    const context = await browser.newContext({ locale, viewport: { width, height } });
    const page = await context.newPage();
    page.errors = [];
    page.on('console', (msg) => { if (msg.type() === 'error') page.errors.push(msg.text()); });
    page.on('pageerror', (e) => page.errors.push(String(e)));
    page.on('close', () => { context.close().catch(() => {}); });
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

// Waits until the page has loaded the engine and drawn its chapter.
export async function ready(page) {
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
}
