// The npm package: `npm pack` of the repository holds the built folder (dist/), the engine (its
// sources and wasm builds) and the types, with a custom-elements.json manifest. Its element works
// in a blank page, and a scratch Vite project that installs the tarball (offline), imports the
// element and the engine, and builds with tsc type-checking works, in Node and in the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { ROOT, launchBrowser, POLICY } from './harness.js';

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

let tmp, tarball, files, browser;
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-pack-'));
  const [info] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  );
  tarball = path.join(tmp, info.filename);
  files = info.files.map((f) => f.path);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// A page of the browser that records its errors; closed by the caller.
async function openPage(url) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push(m.text());
  });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.missing = [];
  page.on('response', (r) => {
    if (r.status() === 404) page.missing.push(r.url());
  });
  await page.goto(url);
  return page;
}
const drawn = (page) =>
  page.waitForFunction(
    () => {
      const el = document.querySelector('attention-lab');
      return el && el.state && el.shadowRoot.querySelector('.bars, svg, .hm-plot');
    },
    null,
    { timeout: 60000 },
  );

test('the tarball holds the built folder, the engine, the types and the manifest; nothing else', () => {
  for (const f of [
    'package.json',
    'README.md',
    'custom-elements.json',
    'dist/attention-lab.js',
    'dist/index.html',
    'dist/embed.html',
    'dist/sw.js',
    'web/src/engine.js',
    'web/src/engine.d.ts',
    'web/src/engine-train.d.ts',
    'web/src/engine/api.js',
    'web/src/hosts/element.d.ts',
    'build/wasm/attention-simd.wasm',
    'build/wasm/attention-scalar.js',
  ])
    assert.ok(files.includes(f), `${f} packed`);
  assert.ok(
    files.some((f) => /^dist\/assets\/attention-simd-.*\.wasm$/.test(f)),
    'the engine packed',
  );
  const allowed =
    /^(dist\/|build\/wasm\/[\w-]+\.(js|wasm)$|web\/src\/engine(-train)?\.(js|d\.ts)$|web\/src\/engine\/|web\/src\/hosts\/element\.d\.ts$|[^/]+$)/;
  assert.deepEqual(
    files.filter((f) => !allowed.test(f)),
    [],
    'no other sources, no tests',
  );
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.exports['.'].default, './dist/attention-lab.js');
  assert.equal(pkg.customElements, 'custom-elements.json');
  for (const entry of Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))))
    if (!entry.includes('*')) assert.ok(files.includes(entry.replace(/^\.\//, '')), `${entry} packed`);
});

test('the packed tarball’s element works in a blank page', async () => {
  const site = path.join(tmp, 'site');
  fs.mkdirSync(path.join(site, 'node_modules'), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', path.join(site, 'node_modules')]);
  fs.renameSync(path.join(site, 'node_modules', 'package'), path.join(site, 'node_modules', 'attention-lab'));
  fs.writeFileSync(
    path.join(site, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>blank</title><link rel="icon" href="icon.svg">' +
      '<script type="module" src="./node_modules/attention-lab/dist/attention-lab.js"></script></head>' +
      '<body><attention-lab lesson="softmax" stage="temperature"></attention-lab></body></html>',
  );
  fs.writeFileSync(path.join(site, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>');
  const server = await serveDist({ dir: site, prefix: '/', headers: { 'content-security-policy': POLICY } });
  try {
    const page = await openPage(server.url);
    await drawn(page);
    const out = await page.evaluate(() => {
      const el = document.querySelector('attention-lab');
      return { stage: el.state.stage, text: el.shadowRoot.textContent, simd: typeof el.engine.softmax };
    });
    assert.equal(out.stage, 'temperature');
    assert.equal(out.simd, 'function');
    assert.match(out.text, /Entropy/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.close();
  }
});

// A course site's own project: TypeScript, strict, bundled by Vite.
const SCRATCH = {
  'package.json': JSON.stringify({ name: 'scratch-course', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['es2022', 'dom'],
      types: [],
      skipLibCheck: false,
    },
    include: ['main.ts'],
  }),
  'index.html':
    '<!doctype html><html><head><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">' +
    '<script type="module" src="./main.ts"></script></head><body></body></html>',
  'main.ts': `import { AttentionLab } from 'attention-lab';
import type { LabState, ProgressStatement } from 'attention-lab';
import { loadEngine } from 'attention-lab/engine';

const lab = document.createElement('attention-lab');
lab.setAttribute('lesson', 'masks');
lab.setAttribute('stage', 'causal');
const typed: AttentionLab = lab;
const heard: string[] = [];
typed.addEventListener('attention-lab-progress', (e) => {
  const statement: ProgressStatement = e.detail;
  heard.push(statement.verb.id);
});
document.body.append(lab);
const engine = await loadEngine();
const weights = engine.softmax({ scores: [[2.6, 1.2, 6.1, 2.0]] }).weights.data;
const state: LabState | null = lab.state;
Object.assign(window, { course: { weights: Array.from(weights), heard, started: state === null, isClass: lab instanceof AttentionLab } });
`,
  'engine-node.mjs': `import { loadEngine } from 'attention-lab/engine';
const engine = await loadEngine();
console.log(JSON.stringify(Array.from(engine.softmax({ scores: [[2.6, 1.2, 6.1, 2.0]] }).weights.data)));
`,
};

// softmax([2.6, 1.2, 6.1, 2.0]) in double precision, by hand here (not the engine's).
const expected = (() => {
  const x = [2.6, 1.2, 6.1, 2.0];
  const e = x.map((v) => Math.exp(v - 6.1));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
})();

test('a scratch Vite project installs the tarball offline, type-checks with tsc, builds, and runs', async () => {
  const dir = path.join(tmp, 'scratch');
  fs.mkdirSync(dir);
  for (const [name, text] of Object.entries(SCRATCH)) fs.writeFileSync(path.join(dir, name), text);
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: dir,
    encoding: 'utf8',
    stdio: 'pipe',
  });
  execFileSync(bin('tsc'), ['-p', dir], { encoding: 'utf8', stdio: 'pipe' });
  // and a mistake is caught: a language the element does not have
  fs.writeFileSync(
    path.join(dir, 'wrong.ts'),
    "import 'attention-lab';\ndocument.createElement('attention-lab').set({ lang: 'fr' });\n",
  );
  fs.writeFileSync(
    path.join(dir, 'tsconfig.wrong.json'),
    JSON.stringify({ extends: './tsconfig.json', include: ['wrong.ts'] }),
  );
  let refused = '';
  try {
    execFileSync(bin('tsc'), ['-p', path.join(dir, 'tsconfig.wrong.json')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    refused = e.stdout;
  }
  assert.match(refused, /wrong\.ts.*"fr"/s);
  execFileSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  const built = fs.readdirSync(path.join(dir, 'dist', 'assets'));
  assert.ok(
    built.some((f) => f.endsWith('.wasm')),
    built.join(' '),
  );
  // the engine in Node, from the installed package
  const node = JSON.parse(execFileSync('node', ['engine-node.mjs'], { cwd: dir, encoding: 'utf8' }));
  node.forEach((w, k) => assert.ok(Math.abs(w - expected[k]) < 1e-6, `${w} vs ${expected[k]}`));
  // the built site in the browser: the element draws its lesson, the engine computes
  const server = await serveDist({ dir: path.join(dir, 'dist'), prefix: '/' });
  try {
    const page = await openPage(server.url);
    await page.waitForFunction(() => window.course, null, { timeout: 60000 });
    await drawn(page);
    const course = await page.evaluate(() => window.course);
    course.weights.forEach((w, k) => assert.ok(Math.abs(w - expected[k]) < 1e-6));
    assert.equal(course.isClass, true);
    const seen = await page.evaluate(() => ({
      stage: document.querySelector('attention-lab').state.stage,
      observed: customElements.get('attention-lab').observedAttributes,
    }));
    assert.equal(seen.stage, 'causal');
    await page.waitForFunction(() => window.course.heard.length > 0);
    // the manifest names every attribute the element watches
    const manifest = JSON.parse(
      fs.readFileSync(path.join(dir, 'node_modules/attention-lab/custom-elements.json'), 'utf8'),
    );
    const [decl] = manifest.modules[0].declarations;
    assert.equal(decl.tagName, 'attention-lab');
    const listed = decl.attributes.map((a) => a.name);
    for (const a of seen.observed) assert.ok(listed.includes(a), `${a} in custom-elements.json`);
    assert.deepEqual(
      decl.events.map((e) => e.name),
      ['attention-lab-change', 'attention-lab-progress'],
    );
    // The prebuilt chunks ask the browser to preload their imports under the names they had in
    // dist/ (modulepreload hints); the course site's bundler renamed those chunks, so the hints
    // miss (404) while the chunks themselves load. Each miss is a chunk of the package's dist/.
    const packaged = path.join(dir, 'node_modules', 'attention-lab', 'dist', 'assets');
    for (const url of page.missing) {
      const file = path.basename(new URL(url).pathname);
      assert.ok(file.endsWith('.js') && fs.existsSync(path.join(packaged, file)), `${url}: not a packaged chunk`);
    }
    const notFound = /^Failed to load resource: the server responded with a status of 404/;
    assert.deepEqual(
      page.errors.filter((e) => !notFound.test(e)),
      [],
    );
    assert.equal(page.errors.length, page.missing.length);
    await page.context().close();
  } finally {
    await server.close();
  }
});
