// dist/widget.js: the notebook and book widget (web/src/hosts/widget.js) as one self-contained ES
// module. A notebook (anywidget's _esm) and Jupyter Book load it from its text or from one URL,
// so nothing in it may be fetched relative to it: the wasm builds, the Web Workers, the styles
// and KaTeX's fonts are all inside it (data: and blob: URLs), and every lesson with them. Built
// at the end of `npm run build` (vite.config.js) or alone: node scripts/widget-build.mjs [outDir].

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FONTS = path.join(ROOT, 'web/src/katex-fonts.css');

// Each `new Worker(new URL('./x.js', import.meta.url), { type: 'module' })` of the worker clients
// becomes a worker made from its own code inlined here (Vite's ?worker&inline).
function inlineWorkers() {
  const call = /new Worker\(new URL\('(\.\/[\w-]+\.js)', import\.meta\.url\), \{ type: 'module' \}\)/g;
  return {
    name: 'attention-lab-widget-workers',
    transform(code, id) {
      if (!/\/web\/src\/workers\/[\w-]+\.js$/.test(id) || !call.test(code)) return undefined;
      const imports = [];
      const out = code.replace(call, (_, file) => {
        imports.push(`import InlineWorker${imports.length} from '${file}?worker&inline';`);
        return `new InlineWorker${imports.length - 1}()`;
      });
      return { code: `${imports.join('\n')}\n${out}`, map: null };
    },
  };
}

// KaTeX's font faces (hosts/root-url.js adds them to the host page) as a data: URL with every
// font inside.
function inlineFonts() {
  return {
    name: 'attention-lab-widget-fonts',
    enforce: 'pre',
    load(id) {
      if (id !== `${FONTS}?url`) return undefined;
      const css = fs.readFileSync(FONTS, 'utf8').replace(/url\('([^']+\.woff2)'\)/g, (_, rel) => {
        const font = fs.readFileSync(path.resolve(path.dirname(FONTS), rel));
        return `url(data:font/woff2;base64,${font.toString('base64')})`;
      });
      return `export default ${JSON.stringify(`data:text/css;base64,${Buffer.from(css).toString('base64')}`)};`;
    },
  };
}

export async function buildWidget(outDir) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-widget-'));
  try {
    await build({
      configFile: false,
      root: path.join(ROOT, 'web'),
      logLevel: 'warn',
      plugins: [inlineFonts(), inlineWorkers()],
      build: {
        outDir: tmp,
        emptyOutDir: true,
        target: 'es2022',
        copyPublicDir: false,
        minify: true,
        assetsInlineLimit: () => true,
        lib: { entry: path.join(ROOT, 'web/src/hosts/widget.js'), formats: ['es'], fileName: () => 'widget.js' },
        rolldownOptions: { output: { codeSplitting: false } },
      },
      worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false } } },
    });
    const left = fs.readdirSync(tmp).filter((f) => f !== 'widget.js');
    if (left.length) throw new Error(`widget build: files outside widget.js: ${left.join(', ')}`);
    fs.copyFileSync(path.join(tmp, 'widget.js'), path.join(outDir, 'widget.js'));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await buildWidget(path.resolve(process.argv[2] || path.join(ROOT, 'dist')));
