// One palette: the page's JavaScript takes every colour from web/src/views/palette.js, so no other
// module writes a hex colour of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as palette from '../../web/src/views/palette.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src');
const walk = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
const HEX = /#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b(?![-\w])/g;

test('no module but the palette writes a hex colour', () => {
  const found = [];
  for (const file of walk(SRC).filter((f) => f.endsWith('.js') && !f.endsWith(`views${path.sep}palette.js`))) {
    const code = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => (/^\s*\/\//.test(line) ? '' : line)); // comments may name a colour
    code.forEach((line, k) => {
      for (const m of line.match(HEX) || []) found.push(`${path.relative(SRC, file)}:${k + 1} ${m}`);
    });
  }
  assert.deepEqual(found, []);
});

test('every palette colour is a hex colour, and the segment colours are ten distinct pairs', () => {
  for (const [name, v] of Object.entries(palette)) {
    if (name === 'SEGMENT_COLORS') continue;
    assert.match(v, /^#([0-9a-f]{3}|[0-9a-f]{6})$/i, name);
  }
  assert.equal(new Set(palette.SEGMENT_COLORS.map(([bg]) => bg.toLowerCase())).size, 10);
});
