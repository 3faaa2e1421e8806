import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { buildServiceWorker } from './scripts/service-worker.mjs';
import { buildWidget } from './scripts/widget-build.mjs';
import { drawFirstScreens } from './scripts/first-screens.mjs';

// Files made once the page's files are written, into the same folder: sw.js, the service worker
// (web/src/hosts/sw.js on Workbox) with its precache manifest (scripts/service-worker.mjs), and
// widget.js, the notebook and book widget as one self-contained module (scripts/widget-build.mjs).
function afterBuild(name, make) {
  let outDir = '';
  return {
    name,
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await make(outDir);
    },
  };
}

// The page lives in web/; the engine's wasm glue is built into build/wasm/ (outside the root:
// server.fs.allow lets the dev server read it).
//
// The build (npm run build) is one static folder, dist/, that works from any path
// (https://school.example/courses/nlp/lab/): every URL in it is relative (base './') and every
// asset but the entry points has a content hash in its name. Entries:
//   index.html              the tutorial
//   embed.html              one lesson for an <iframe> (#lesson=…&stage=…; postMessage API)
//   attention-lab.js        the <attention-lab> custom element (a fixed name to link to)
//   examples/course.html    an example course page that embeds three stages
//   scorm.html              the SCORM package's page (npm run build:scorm)
//   widget.js               the notebook widget (anywidget), everything inside it
//   sw.js                   the service worker that keeps the tutorial working offline
//   first-screen/           each lesson's first screen as a picture (scripts/first-screens.mjs)
// index.html: hosts/visit.js is the first script (async, first in <head>): it shows the first
// screen's picture on a first visit, then starts the page. What the page then needs at once is
// held in <template id="page-start"> until visit.js puts it in <head>: the page's scripts
// (hosts/page.js, which hosts/boot.js imports once it has started the lesson's chapter and the
// engine), the default lesson's chunk and the glue of the engine's first part with what they
// import (modulepreload, instead of after the scripts before them have run), and the engine's
// wasm. So the first screen does not share the first round trips with them. 'start' is the
// lesson a link without one opens (state.js, buildSchema: the first chapter). Every other
// lesson's chunks are listed in the page as data (<script type="application/json"
// id="lesson-chunks">: { lesson: [file, ...] }, the files the page does not preload already):
// visit.js preloads those of the lesson a link opens, so they no longer wait for the chapter
// list's chunk to arrive and run.
const FIRST_LOAD = [
  '/web/src/hosts/page.js',
  '/web/src/chapters/start/index.js',
  '/build/wasm/attention-first-simd.js',
];
function firstLoad() {
  return {
    name: 'attention-lab-preload-first-lesson',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.filename.endsWith('/web/index.html')) return undefined;
        const chunks = Object.values(ctx.bundle).filter((c) => c.type === 'chunk');
        const files = new Set();
        const add = (file) => {
          if (files.has(file)) return;
          files.add(file);
          for (const dep of ctx.bundle[file]?.imports || []) add(dep);
        };
        for (const id of FIRST_LOAD) {
          const chunk = chunks.find((c) => c.facadeModuleId && c.facadeModuleId.endsWith(id));
          if (chunk) add(chunk.fileName);
        }
        const visit = chunks.find((c) => c.isEntry && c.name === 'visit');
        // Every other lesson's chunk and what it imports that the page does not preload already.
        const lessons = {};
        for (const c of chunks) {
          const id = c.facadeModuleId?.match(/\/chapters\/([^/]+)\/index\.js$/)?.[1];
          if (!id || id === 'kit' || files.has(c.fileName)) continue;
          const own = [];
          const walk = (file) => {
            if (files.has(file) || own.includes(file)) return;
            own.push(file);
            for (const dep of ctx.bundle[file]?.imports || []) walk(dep);
          };
          walk(c.fileName);
          lessons[id] = own;
        }
        // The list and the script that reads it come first after <meta charset> (the first
        // request); the page's preloads, its wasm and its entry script wait in the template.
        const held = [];
        const rest = html.replace(
          /\s*<link rel="(?:module)?preload"[^>]*>|\s*<script type="module" crossorigin src="[^"]*"><\/script>/g,
          (tag) => {
            held.push(tag.trim());
            return '';
          },
        );
        for (const f of files)
          if (!held.some((tag) => tag.includes(`./${f}"`)))
            held.push(`<link rel="modulepreload" crossorigin href="./${f}">`);
        const first =
          `\n  <script type="module" async blocking="render" crossorigin src="./${visit.fileName}"></script>` +
          `\n  <script type="application/json" id="lesson-chunks">${JSON.stringify(lessons)}</script>`;
        return rest
          .replace(/<meta charset="utf-8">/, (m) => m + first)
          .replace('</head>', `  <template id="page-start">\n    ${held.join('\n    ')}\n  </template>\n</head>`);
      },
    },
  };
}

export default defineConfig({
  root: 'web',
  base: './',
  plugins: [
    // The first screens are drawn from the written page, before the worker lists the files.
    afterBuild('attention-lab-first-screens', async (out) => {
      await drawFirstScreens(out);
      await buildServiceWorker(out);
    }),
    firstLoad(),
    afterBuild('attention-lab-widget', buildWidget),
  ],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    // No asset (KaTeX's fonts, the favicon) is inlined as a data: URL, so the page runs under
    // default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'
    // (tests/e2e/csp.test.js).
    assetsInlineLimit: 0,
    rolldownOptions: {
      // attention-lab.js keeps its exports (AttentionLab, ATTRIBUTES: the package's types declare them)
      preserveEntrySignatures: 'exports-only',
      input: {
        index: fileURLToPath(new URL('./web/index.html', import.meta.url)),
        embed: fileURLToPath(new URL('./web/embed.html', import.meta.url)),
        course: fileURLToPath(new URL('./web/examples/course.html', import.meta.url)),
        scorm: fileURLToPath(new URL('./web/scorm.html', import.meta.url)), // the SCORM package's page
        'attention-lab': fileURLToPath(new URL('./web/src/hosts/element.js', import.meta.url)),
        // index.html's first script (firstLoad adds it)
        visit: fileURLToPath(new URL('./web/src/hosts/visit.js', import.meta.url)),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'attention-lab' ? 'attention-lab.js' : 'assets/[name]-[hash].js'),
        // a chapter's chunks are named after its folder: chapters/masks/index.js -> masks-<hash>.js,
        // chapters/masks/meta.js -> masks.meta-<hash>.js
        chunkFileNames: (chunk) => {
          const m = (chunk.facadeModuleId ?? chunk.moduleIds.at(-1))?.match(/chapters\/([^/]+)\/([^/]+)\.js$/);
          if (!m || m[1] === 'kit') return 'assets/[name]-[hash].js';
          return m[2] === 'index' ? `assets/${m[1]}-[hash].js` : `assets/${m[1]}.${m[2]}-[hash].js`;
        },
      },
    },
  },
  worker: { format: 'es' },
  server: { port: 5173, strictPort: false, fs: { allow: ['..'] } },
  preview: { port: 4173 },
});
