// The engine's download size: for each wasm build in web/src/wasm, the .wasm and its JS glue,
// raw and gzip -9 (Node's zlib at level 9), and the sum a page fetches for that build.
//   node scripts/module-size.mjs            (after scripts/build.sh wasm)
//   node scripts/module-size.mjs --json     the same figures as JSON
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dir = new URL('../web/src/wasm/', import.meta.url);
const kb = (n) => (n / 1000).toFixed(1);

function measure(file) {
  const bytes = readFileSync(new URL(file, dir));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

// Every module is a pair <name>.wasm + <name>.js.
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.wasm'))
  .map((f) => f.slice(0, -'.wasm'.length))
  .sort();
if (names.length === 0) {
  console.error('no wasm modules in web/src/wasm: run scripts/build.sh wasm first');
  process.exit(1);
}

const rows = names.map((name) => {
  const wasm = measure(name + '.wasm');
  const glue = measure(name + '.js');
  return { name, wasm, glue, raw: wasm.raw + glue.raw, gzip: wasm.gzip + glue.gzip };
});

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  console.log('module                  wasm raw   wasm gz   glue raw   glue gz   total gz (bytes; KB = 1000 B)');
  for (const r of rows) {
    const cells = [r.wasm.raw, r.wasm.gzip, r.glue.raw, r.glue.gzip].map((n) => String(n).padStart(9));
    console.log(`${r.name.padEnd(22)} ${cells.join('  ')}  ${String(r.gzip).padStart(9)} = ${kb(r.gzip)} KB`);
  }
}
