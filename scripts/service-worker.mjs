// Builds the service worker of a built folder (dist/): web/src/hosts/sw.js bundled with Workbox
// (one classic script, sw.js next to index.html), and the precache manifest injected into it by
// workbox-build's injectManifest. vite.config.js runs it after every build; a test that makes a
// second build of the folder (a deploy) runs it on that copy.
//
//   import { buildServiceWorker } from './scripts/service-worker.mjs';
//   const { count, size, manifest } = await buildServiceWorker(dir);
//
// Each manifest entry is { url, revision, group, simd? }: group 'now' (cached when the worker
// installs) for the pages, the scripts and styles they load at once and what they import, and
// group 'later' (cached once a page is idle) for everything else; simd 'simd' or 'scalar' for the
// files of one engine build (the worker keeps only the build its browser runs). Hashed files
// (assets/) are their own revision. Left out: the woff and ttf fonts (every browser the page runs
// in reads woff2) and source maps.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { injectManifest } from 'workbox-build';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'web/src/hosts/sw.js');
const PAGES = ['index.html', 'embed.html', 'examples/course.html'];
const ELEMENT = 'attention-lab.js';

// The files a page loads as soon as it opens: its scripts, module preloads and stylesheets, and
// what those scripts import statically (import(...) is left for later), relative to dir.
function firstLoad(dir) {
  const files = new Set();
  const add = (rel) => {
    const file = path.join(dir, rel);
    if (files.has(rel) || !fs.existsSync(file)) return;
    files.add(rel);
    if (!rel.endsWith('.js')) return;
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*["'](\.{1,2}\/[^"']+)["']/g))
      add(path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1] || m[2])));
  };
  for (const page of PAGES) {
    if (!fs.existsSync(path.join(dir, page))) continue;
    add(page);
    const html = fs.readFileSync(path.join(dir, page), 'utf8');
    for (const m of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)) {
      if (/^[a-z]+:|^\/\//i.test(m[1])) continue;
      add(path.posix.normalize(path.posix.join(path.posix.dirname(page), m[1])));
    }
  }
  add(ELEMENT);
  return files;
}

export async function buildServiceWorker(dir) {
  const out = path.resolve(dir);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-sw-'));
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: tmp,
        emptyOutDir: true,
        target: 'es2022',
        copyPublicDir: false,
        rolldownOptions: { input: SOURCE, output: { format: 'iife', entryFileNames: 'sw.js' } },
      },
    });
    const now = firstLoad(out);
    const group = (url) => (now.has(url) && !/\.wasm$/.test(url) ? 'now' : 'later');
    let manifest = [];
    const result = await injectManifest({
      swSrc: path.join(tmp, 'sw.js'),
      swDest: path.join(out, 'sw.js'),
      globDirectory: out,
      globPatterns: ['**/*.{html,js,css,wasm,woff2,svg}'],
      // widget.js: the notebook widget, never the page's; gpt2-*.js: GPT-2’s vocabulary (545 kB), loaded
      // only when the real-model lesson opens a GPT-2-sized checkpoint (its small model, .safetensors
      // and .json, is outside the patterns: fetched when that lesson opens)
      globIgnores: ['sw.js', '**/*.map', 'widget.js', 'assets/gpt2-*.js', 'first-screen/**'],
      dontCacheBustURLsMatching: /^assets\//,
      maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      manifestTransforms: [
        (entries) => {
          manifest = entries.map((e) => {
            const build = /-(simd|scalar)-[\w-]+\.(js|wasm)$/.exec(e.url);
            return { ...e, group: group(e.url), ...(build ? { simd: build[1] } : {}) };
          });
          return { manifest, warnings: [] };
        },
      ],
    });
    for (const w of result.warnings) console.warn(`service worker: ${w}`);
    return { count: result.count, size: result.size, manifest };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
