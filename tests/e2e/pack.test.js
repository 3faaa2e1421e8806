// The npm package: `npm pack` of the repository holds the built folder (dist/), and the
// <attention-lab> element from the packed tarball works in a blank page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { ROOT, launchBrowser } from './harness.js';

test('the packed tarball’s element works in a blank page', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-pack-'));
  let server, browser;
  try {
    const [info] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    );
    const files = info.files.map((f) => f.path);
    for (const f of [
      'package.json',
      'README.md',
      'dist/attention-lab.js',
      'dist/index.html',
      'dist/embed.html',
      'dist/sw.js',
    ])
      assert.ok(files.includes(f), `${f} packed`);
    assert.ok(
      files.some((f) => /^dist\/assets\/attention-simd-.*\.wasm$/.test(f)),
      'the engine packed',
    );
    assert.ok(!files.some((f) => /^(web|cpp|tests|scripts|build)\//.test(f)), 'no sources or tests packed');
    execFileSync('tar', ['-xzf', path.join(tmp, info.filename), '-C', tmp]);
    const pkg = JSON.parse(fs.readFileSync(path.join(tmp, 'package', 'package.json'), 'utf8'));
    assert.equal(pkg.exports['.'], './dist/attention-lab.js');

    const blank =
      '<!doctype html><html><head><meta charset="utf-8"><title>blank</title><link rel="icon" href="icon.svg">' +
      '<script type="module" src="./node_modules/attention-lab/dist/attention-lab.js"></script></head>' +
      '<body><attention-lab lesson="softmax" stage="temperature"></attention-lab></body></html>';
    // The page and the package as a site would have them: node_modules/attention-lab/ beside the page.
    const site = path.join(tmp, 'site');
    fs.mkdirSync(path.join(site, 'node_modules'), { recursive: true });
    fs.renameSync(path.join(tmp, 'package'), path.join(site, 'node_modules', 'attention-lab'));
    fs.writeFileSync(path.join(site, 'index.html'), blank);
    fs.writeFileSync(path.join(site, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>');
    server = await serveDist({
      dir: site,
      prefix: '/',
      headers: {
        'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'",
      },
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
    await page.waitForFunction(
      () => {
        const el = document.querySelector('attention-lab');
        return el && el.state && el.shadowRoot.querySelector('.bars, svg');
      },
      null,
      { timeout: 60000 },
    );
    const out = await page.evaluate(() => {
      const el = document.querySelector('attention-lab');
      return { stage: el.state.stage, text: el.shadowRoot.textContent, simd: typeof el.engine.softmax };
    });
    assert.equal(out.stage, 'temperature');
    assert.equal(out.simd, 'function');
    assert.match(out.text, /Entropy/);
    assert.deepEqual(errors, []);
  } finally {
    await browser?.close();
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
