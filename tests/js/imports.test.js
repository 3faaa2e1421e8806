// The page's modules import down their layers only, and chapters do not reach into each other.
// Layers, lowest first: engine/ (the wasm engine's JS), text/, views/, workers/, lesson/ (what
// several chapters share), chapters/, hosts/ (the page, the element, the state). A module of
// web/src/chapters/<id>/ imports from another chapter's folder only that chapter's meta.js (its
// links: a patch of that chapter's state for c.set). Logic two chapters share lives in a shared
// module named for what it does (web/src/lesson/, web/src/views/, ...).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src');
const CHAPTERS = path.join(SRC, 'chapters');
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

const LAYERS = ['engine', 'text', 'views', 'workers', 'lesson', 'chapters', 'hosts'];
// Modules that import from fewer layers than their own allows.
const NARROW = {
  'hosts/state.js': ['engine', 'text'], // the state schema: its callers give it the worked example
};

// The imports under `root` that go up a layer (or out of a module's NARROW list): 'from imports spec'.
function upward(root = SRC) {
  const bad = [];
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? walk(p) : p.endsWith('.js') ? [p] : [];
    });
  for (const file of walk(root)) {
    const from = path.relative(root, file).split(path.sep).join('/');
    const layer = LAYERS.indexOf(from.split('/')[0]);
    if (layer < 0) continue; // an entry file (engine.js) or no layer
    const allowed = NARROW[from] ?? LAYERS.slice(0, layer + 1);
    for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const to = path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep)[0];
      if (LAYERS.includes(to) && to !== LAYERS[layer] && !allowed.includes(to)) bad.push(`${from} imports ${spec}`);
    }
  }
  return bad;
}

test('no module imports from a layer above its own', () => {
  assert.deepEqual(upward(), []);
});

test('the check fails on an import up the layers', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  try {
    for (const dir of ['text', 'hosts', 'views']) fs.mkdirSync(path.join(root, dir));
    fs.writeFileSync(path.join(root, 'text', 'format.js'), "import { NAN } from '../views/palette.js';\n");
    fs.writeFileSync(path.join(root, 'views', 'formula.js'), "import { NAN } from './palette.js';\n");
    fs.writeFileSync(
      path.join(root, 'hosts', 'state.js'),
      "import { reason } from '../text/i18n.js';\nimport { PRESET_IDS } from '../lesson/example.js';\n",
    );
    fs.writeFileSync(path.join(root, 'hosts', 'host.js'), "import { EXAMPLE_SHAPE } from '../lesson/example.js';\n");
    assert.deepEqual(upward(root).sort(), [
      'hosts/state.js imports ../lesson/example.js',
      'text/format.js imports ../views/palette.js',
    ]);
  } finally {
    fs.rmSync(root, { recursive: true });
  }
});
