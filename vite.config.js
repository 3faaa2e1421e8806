import { defineConfig } from 'vite';

// The page lives in web/; the engine's wasm glue is built into web/src/wasm/.
export default defineConfig({
  root: 'web',
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022' },
  worker: { format: 'es' },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173 },
});
