// The built page under a strict Content-Security-Policy (the one a course site may embed us
// with): every chapter loads and computes, and the browser reports no violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled, openContext, engineReady, POLICY } from './harness.js';
import { showing } from './lesson-page.js';

export let lab;
before(async () => {
  lab = await start({ headers: { 'content-security-policy': POLICY } });
});
after(async () => {
  await lab?.close();
});

test('no CSP violation on any chapter, in either language, while drawing formulas and heatmaps', async () => {
  const stages = [
    'lesson=why&stage=self-cross',
    'lesson=pipeline&stage=weights',
    'lesson=masks&stage=causal&causal=1',
    'lesson=softmax&stage=overflow&smShift=100',
    'lesson=scaling&stage=variance&labSamples=2000',
  ];
  // Chinese on the five steps above (its fonts and formulas); the other chapters load the same
  // resources in either language. One page per language, moved by the hash from chapter to
  // chapter: each chapter's code, workers and fonts load (under the policy) on its first visit.
  for (const lang of ['en', 'zh']) {
    const page = await openContext(lab.browser, { violations: true });
    const response = await page.goto(lab.url + `#${stages[0]}&lang=${lang}`);
    assert.equal(response.headers()['content-security-policy'], POLICY);
    await engineReady(page);
    // Every other chapter of the page (chapters added later included), at its first step.
    if (lang === 'en') {
      const lessons = await page.evaluate(() => window.attentionLab.schema.lesson.values);
      for (const id of lessons) if (!stages.some((st) => st.startsWith(`lesson=${id}&`))) stages.push(`lesson=${id}`);
      assert.ok(stages.length >= 5);
    }
    for (const hash of lang === 'en' ? stages : stages.slice(0, 5)) {
      const [lesson, stage] = [/lesson=([\w-]+)/.exec(hash)[1], /stage=([\w-]+)/.exec(hash)?.[1]];
      await page.evaluate((h) => {
        location.hash = h;
      }, `${hash}&lang=${lang}`);
      await showing(page, lesson, stage);
      await page.evaluate(() => window.attentionLab.formulas()); // KaTeX loads on demand
      // KaTeX's fonts have loaded (or been refused) and the page has stopped changing.
      await settled(page);
      const katex = await page.$$eval('main .katex', (k) => k.length);
      if (/pipeline|softmax|scaling/.test(hash)) assert.ok(katex > 0, `${hash}: formulas drawn`);
      assert.deepEqual(await page.evaluate(() => window.__violations), [], `${hash} (${lang})`);
      assert.deepEqual(page.errors, [], `${hash} (${lang})`);
    }
    await page.closeAll();
  }
});

test('the favicon and the formula fonts are files, not data: URLs', async () => {
  const page = await lab.open('lesson=pipeline&stage=scaled');
  const icon = await page.getAttribute('link[rel="icon"]', 'href');
  assert.ok(!icon.startsWith('data:'), icon);
  const res = await page.request.get(new URL(icon, lab.url).href);
  assert.equal(res.status(), 200);
  const fontUrls = await page.evaluate(() =>
    [...document.styleSheets]
      .flatMap((sh) => {
        try {
          return [...sh.cssRules];
        } catch {
          return [];
        }
      })
      .filter((r) => r instanceof CSSFontFaceRule)
      .map((r) => r.style.getPropertyValue('src')),
  );
  assert.ok(fontUrls.length > 10, `${fontUrls.length} font faces`);
  for (const src of fontUrls) assert.ok(!src.includes('data:'), src.slice(0, 80));
  await page.close();
});

// issue item 13: a token ending in ^ or ~ (TeX specials) is set as text in every formula: no
// KaTeX error and no inline style the policy blocks.
test('tokens x^ and x~ render in the formulas without a KaTeX error or a CSP violation', async () => {
  for (const token of ['x%5E', 'x~', 'a%5E,b~,%5C,%7B']) {
    const context = await lab.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    await page.goto(lab.url + `#lesson=pipeline&stage=scores&queryTokens=${token}`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
    await page.evaluate(() => window.attentionLab.formulas());
    await settled(page);
    const out = await page.evaluate(() => ({
      tokens: window.attentionLab.state.queryTokens,
      katex: document.querySelectorAll('.katex').length,
      errors: document.querySelectorAll('.katex-error').length,
      text: [...document.querySelectorAll('.katex')].map((k) => k.textContent).join(' '),
    }));
    assert.ok(out.katex > 0, `${token}: formulas drawn`);
    assert.equal(out.errors, 0, `${token}: KaTeX errors`);
    assert.ok(out.text.includes(out.tokens[0]), `${token}: ${out.tokens[0]} shown in a formula`);
    assert.deepEqual(await page.evaluate(() => window.__violations), [], token);
    assert.deepEqual(errors, [], token);
    await context.close();
  }
});
