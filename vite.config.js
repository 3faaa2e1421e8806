import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { buildServiceWorker } from './scripts/service-worker.mjs';
import { buildWidget } from './scripts/widget-build.mjs';

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
// index.html: the page's scripts (hosts/page.js, which hosts/boot.js imports once it has started
// the lesson's chapter and the engine), the default lesson's chunk and the glue of the engine's
// first part, with what they import, start downloading with the page (modulepreload) instead of
// after the scripts before them have run. 'start' is the lesson a link without one opens
// (state.js, buildSchema: the first chapter). Every other lesson's chunks are listed in the page
// as data (<script type="application/json" id="lesson-chunks">: { lesson: [file, ...] }, the
// files the page does not preload already): hosts/lesson-preload.js, the first script to run,
// preloads those of the lesson a link opens, so they no longer wait for the chapter list's chunk
// to arrive and run.
const FIRST_LOAD = [
  '/web/src/hosts/page.js',
  '/web/src/chapters/start/index.js',
  '/build/wasm/attention-first-simd.js',
];
function preloadFirstLesson() {
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
        const preloader = chunks.find((c) => c.isEntry && c.name === 'lesson-preload');
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
        // The list and the script that reads it come first after <meta charset> (the first request).
        const first =
          `\n  <script type="application/json" id="lesson-chunks">${JSON.stringify(lessons)}</script>` +
          `\n  <script type="module" async crossorigin src="./${preloader.fileName}"></script>`;
        return {
          html: html.replace(/<meta charset="utf-8">/, (m) => m + first),
          tags: [...files]
            .filter((f) => !html.includes(f))
            .map((f) => ({
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` },
              injectTo: 'head',
            })),
        };
      },
    },
  };
}

export default defineConfig({
  root: 'web',
  base: './',
  plugins: [
    afterBuild('attention-lab-service-worker', buildServiceWorker),
    preloadFirstLesson(),
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
        // index.html's first script (preloadFirstLesson adds it)
        'lesson-preload': fileURLToPath(new URL('./web/src/hosts/lesson-preload.js', import.meta.url)),
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
