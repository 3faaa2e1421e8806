// Chapters do not reach into each other: a module of web/src/chapters/<id>/ imports from another
// chapter's folder only that chapter's meta.js (its links: a patch of that chapter's state for
// c.set). Logic two chapters share lives in a shared module named for what it does (web/src/lesson/,
// web/src/views/, ...).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHAPTERS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/chapters');
const SHARED = new Set(['kit']); // the shell and the figures every chapter uses

// Every specifier of a static or dynamic import or re-export in a module's text.
export function importsOf(text) {
  const out = [];
  const re =
    /(?:\bimport\s*(?:[\w*{}\s,$]+\sfrom\s*)?|\bexport\s*[\w*{}\s,$]+\sfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;
  for (let m; (m = re.exec(text));) out.push(m[1]);
  return out;
}

// The imports of chapter `id`'s folder that land in another chapter's folder other than its meta.js.
function reachesInto(id, root = CHAPTERS) {
  const dir = path.join(root, id);
  const bad = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const from = path.join(dir, file);
    for (const spec of importsOf(fs.readFileSync(from, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const to = path.relative(root, path.resolve(dir, spec));
      if (to.startsWith('..')) continue; // outside chapters/
      const [other, ...rest] = to.split(path.sep);
      if (other === id || SHARED.has(other) || rest.length === 0) continue;
      if (rest.join('/') !== 'meta.js') bad.push(`${id}/${file} imports ${spec}`);
    }
  }
  return bad;
}

test('the import scan sees static, re-exported and dynamic imports', () => {
  assert.deepEqual(
    importsOf(
      "import a from './a.js';\nimport { b, c } from '../x/logic.js';\nexport { d } from \"../y/text.js\";\n" +
        "import './side.js';\nconst m = import('../z/index.js');",
    ),
    ['./a.js', '../x/logic.js', '../y/text.js', './side.js', '../z/index.js'],
  );
});

test("no chapter imports another chapter's folder (only its meta.js, for a link)", () => {
  const ids = fs
    .readdirSync(CHAPTERS, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !SHARED.has(e.name))
    .map((e) => e.name);
  assert.ok(ids.length >= 13, 'every chapter folder is scanned');
  assert.deepEqual(
    ids.flatMap((id) => reachesInto(id)),
    [],
  );
});

test('the check fails on a chapter that imports another chapter’s logic', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chapters-'));
  try {
    fs.mkdirSync(path.join(root, 'probe'));
    fs.writeFileSync(
      path.join(root, 'probe', 'index.js'),
      "import { rowKind } from '../pipeline/text.js';\nimport { handCheckLink } from '../softmax/meta.js';\n",
    );
    assert.deepEqual(reachesInto('probe', root), ['probe/index.js imports ../pipeline/text.js']);
  } finally {
    fs.rmSync(root, { recursive: true });
  }
});
