// The chapter registry (web/src/chapters/index.js): every chapter is data (id, title, hash
// fields, a loader) before its module loads, and its module, once loaded, is that chapter.
// Stylesheets: every one is in web/src/styles/lab.css (the page and the element use that one), and no
// module imports CSS itself (a lazily loaded chapter would add a <link> to a course page).
// shadowCss: the page's CSS made to work inside the element's shadow root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chapters, loadChapter, loadedChapter, stageInChapter } from '../../web/src/chapters/index.js';
import { buildSchema } from '../../web/src/hosts/state.js';
import { EXAMPLE_SHAPE } from '../../web/src/lesson/example.js';
import { shadowCss } from '../../web/src/hosts/shadow-css.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src');
const walk = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? (e.name === 'wasm' ? [] : walk(path.join(dir, e.name))) : [path.join(dir, e.name)],
    );

test('every chapter meta file is registered, with an id, a title in both languages and its hash fields', () => {
  const metas = fs
    .readdirSync(path.join(SRC, 'chapters'))
    .filter((id) => fs.existsSync(path.join(SRC, 'chapters', id, 'meta.js')))
    .sort();
  assert.deepEqual(chapters.map((c) => c.id).sort(), metas);
  for (const c of chapters) {
    assert.equal(typeof c.title.en, 'string', c.id);
    assert.equal(typeof c.title.zh, 'string', c.id);
    assert.equal(typeof c.load, 'function', c.id);
    assert.equal(c.steps, undefined, `${c.id}: steps belong to the module`);
  }
  const schema = buildSchema(chapters, EXAMPLE_SHAPE);
  assert.deepEqual(
    schema.lesson.values,
    chapters.map((c) => c.id),
  );
  assert.equal(schema.lesson.default, 'start', 'a link without a lesson opens the start page');
  assert.deepEqual(
    chapters.filter((c) => c.home).map((c) => c.id),
    ['start'],
  );
  assert.equal(chapters[0].id, 'start');
});

test('a chapter loads once, is the chapter its meta names, and keeps the meta’s fields', async () => {
  for (const meta of chapters) {
    assert.equal(loadedChapter(meta.id), undefined);
    const [a, b] = await Promise.all([loadChapter(meta.id), loadChapter(meta.id)]);
    assert.equal(a, b, `${meta.id}: one load`);
    assert.equal(loadedChapter(meta.id), a);
    assert.equal(a.id, meta.id);
    assert.deepEqual(a.state, meta.state, `${meta.id}: hash fields from the meta`);
    // the start page is one page; every chapter has steps
    assert.ok(Array.isArray(a.steps) && a.steps.length >= (meta.home ? 0 : 1), `${meta.id}: steps`);
  }
  await assert.rejects(loadChapter('nope'), /no chapter "nope"/);
});

test('stageInChapter keeps a stage of the lesson, else takes the first step and reports an unknown one', async () => {
  const masks = await loadChapter('masks');
  const problems = [];
  assert.equal(stageInChapter(masks, { lesson: 'masks', stage: 'causal' }, problems).stage, 'causal');
  assert.equal(stageInChapter(masks, { lesson: 'masks', stage: '' }, problems).stage, 'padding');
  assert.deepEqual(problems, []);
  assert.equal(stageInChapter(masks, { lesson: 'masks', stage: 'weights' }, problems).stage, 'padding');
  assert.equal(problems.length, 1);
  assert.equal(problems[0].reason.code, 'unknownStage');
});

test('every stylesheet is in lab.css (or belongs to one entry), and no module imports CSS', () => {
  const ENTRY_ONLY = [
    'styles/lab.css',
    'hosts/element-shell.css',
    'hosts/embed.css',
    'hosts/scorm.css',
    'katex-fonts.css',
  ];
  const lab = fs.readFileSync(path.join(SRC, 'styles/lab.css'), 'utf8');
  const listed = [...lab.matchAll(/@import '(\.\.?\/[^']+)'/g)].map((m) =>
    path.relative(SRC, path.join(SRC, 'styles', m[1])),
  );
  const sheets = walk(SRC)
    .filter((f) => f.endsWith('.css'))
    .map((f) => path.relative(SRC, f));
  for (const f of sheets) if (!ENTRY_ONLY.includes(f)) assert.ok(listed.includes(f), `${f} is not in lab.css`);
  for (const f of listed) assert.ok(fs.existsSync(path.join(SRC, f)), `lab.css lists ${f}, which does not exist`);
  for (const f of walk(SRC).filter((x) => x.endsWith('.js'))) {
    const rel = path.relative(SRC, f);
    const imports = [...fs.readFileSync(f, 'utf8').matchAll(/^import\s+(?:\w+\s+from\s+)?'([^']+\.css)(\?\w+)?'/gm)];
    for (const m of imports) {
      const ok =
        (rel === 'hosts/boot.js' && m[1] === '../styles/lab.css' && !m[2]) ||
        (m[2] && ['hosts/element.js', 'hosts/root-url.js'].includes(rel));
      assert.ok(ok, `${rel} imports ${m[1]}${m[2] || ''}`);
    }
  }
});

test('shadowCss: :root and body become the frame, rem becomes px, width breakpoints follow the element', () => {
  const css =
    ':root { --ink: #000; }\nbody { margin: 0; }\nh1, body, p { x: 1 }\n.a { font-size: 1.6rem; margin: .5rem 2rem; }\n@media (max-width: 600px) { .b { c: d } }\n.tbody { e: f }\n.nobody{}';
  const out = shadowCss(css);
  assert.match(out, /^:host, \.lab \{ --al-ink: #000; \}/);
  assert.match(out, /\n\.lab \{ margin: 0; \}/);
  assert.match(out, /h1, \.lab, p \{/);
  assert.match(out, /font-size: 25\.6px; margin: 8px 32px;/);
  assert.match(out, /@container lab \(max-width: 600px\)/);
  assert.ok(!/rem\b/.test(out));
  assert.match(out, /\.tbody \{ e: f \}/);
  assert.match(out, /\.nobody\{\}/);
});

// issue item 15: the theme's custom properties are the element's own (--al-…, declared on .lab,
// which the host page's CSS cannot reach); a property :root does not declare keeps its name
// (views set --pat and --c inline on their elements).
test('shadowCss: the theme properties are renamed and declared inside the shadow root', () => {
  const css =
    ':root {\n  --ink: #111; --font: serif;\n}\n.a { color: var(--ink); font: 1em var(--font, x); }\n.b { background: var(--pat); --c: red; }';
  const out = shadowCss(css);
  assert.match(out, /^:host, \.lab \{\n {2}--al-ink: #111; --al-font: serif;/);
  assert.match(out, /\.a \{ color: var\(--al-ink\); font: 1em var\(--al-font, x\); \}/);
  assert.match(out, /\.b \{ background: var\(--pat\); --c: red; \}/);
  assert.ok(!/var\(--(ink|font)\b/.test(out));
});
