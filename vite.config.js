import { defineConfig } from 'vite';

// The page lives in web/; the engine's wasm glue is built into web/src/wasm/.
export default defineConfig({
  root: 'web',
  // assetsInlineLimit 0: no asset (KaTeX's fonts, the favicon) is inlined as a data: URL, so the
  // page runs under default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'
  // (tests/e2e/csp.test.js).
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022', assetsInlineLimit: 0 },
  worker: { format: 'es' },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173 },
});
