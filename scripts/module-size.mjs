// The engine's download size: for each wasm build in build/wasm, the .wasm and its JS glue,
// raw and gzip -9 (Node's zlib at level 9), and the sum a page fetches for that build. When a
// built page is in dist/ (npm run build), also the glue as it ships there, minified by Vite.
//   node scripts/module-size.mjs            (after scripts/build.sh wasm)
//   node scripts/module-size.mjs --json     the same figures as JSON
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dir = new URL('../build/wasm/', import.meta.url);
const dist = new URL('../dist/assets/', import.meta.url);
const kb = (n) => (n / 1000).toFixed(1);

function measure(file, folder = dir) {
  const bytes = readFileSync(new URL(file, folder));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

// Every module is a pair <name>.wasm + <name>.js.
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.wasm'))
  .map((f) => f.slice(0, -'.wasm'.length))
  .sort();
if (names.length === 0) {
  console.error('no wasm modules in build/wasm: run scripts/build.sh wasm first');
  process.exit(1);
}

const rows = names.map((name) => {
  const wasm = measure(name + '.wasm');
  const glue = measure(name + '.js');
  const row = { name, wasm, glue, raw: wasm.raw + glue.raw, gzip: wasm.gzip + glue.gzip };
  // dist/assets/<name>-<hash>.js: the same glue after Vite's minifier
  const shipped = existsSync(dist) && readdirSync(dist).find((f) => f.startsWith(name + '-') && f.endsWith('.js'));
  if (shipped) {
    row.shippedGlue = measure(shipped, dist);
    row.shippedGzip = wasm.gzip + row.shippedGlue.gzip;
  }
  return row;
});

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  console.log('module                  wasm raw   wasm gz   glue raw   glue gz   total gz (bytes; KB = 1000 B)');
  for (const r of rows) {
    const cells = [r.wasm.raw, r.wasm.gzip, r.glue.raw, r.glue.gzip].map((n) => String(n).padStart(9));
    console.log(`${r.name.padEnd(22)} ${cells.join('  ')}  ${String(r.gzip).padStart(9)} = ${kb(r.gzip)} KB`);
  }
  for (const r of rows.filter((x) => x.shippedGlue)) {
    const g = r.shippedGlue;
    console.log(
      `${r.name} as dist/ ships it: glue ${g.raw} raw / ${g.gzip} gz (minified), wasm + glue ${r.shippedGzip} gz = ${kb(r.shippedGzip)} KB`,
    );
  }
}
