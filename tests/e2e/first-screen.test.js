// The first screen at first visit (web/src/hosts/visit.js, scripts/first-screens.mjs), under the
// strict Content-Security-Policy a course site may serve the page with: a link to a lesson shows
// the build's picture of its first screen while the page's scripts are still on their way (held
// here), inert, in the visit's language and width, with what the live page then draws; the live
// chapter replaces it. A link with other settings, or a browser that keeps the lab's progress,
// gets no picture.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openContext, engineReady, axeViolations, POLICY } from './harness.js';

let lab;
before(async () => {
  lab = await start({ headers: { 'content-security-policy': POLICY } });
});
after(async () => {
  await lab?.close();
});

// A page whose entry script (assets/index-*.js) waits until release() is called.
async function held(options) {
  const page = await openContext(lab.browser, { violations: true, ...options });
  const waiting = [];
  let open = false;
  await page.route(/\/assets\/index-[\w-]+\.js$/, (route) => (open ? route.continue() : waiting.push(route)));
  page.release = () => {
    open = true;
    for (const route of waiting) route.continue();
  };
  return page;
}

// What the main figure says in text (its headings, labels, legends, captions), and the chapter's
// heading: in the picture, then on the live page.
const figureText = (page, within) =>
  page.evaluate(
    (within) => ({
      heading: document.querySelector(`${within} h2`)?.textContent,
      figure: document.querySelector(`${within} [data-figure="main"]`)?.innerText,
    }),
    within,
  );

test('a lesson link shows the picture of its first screen until the page has drawn it live', async () => {
  const page = await held();
  await page.goto(`${lab.url}#lesson=pipeline&lang=en`);
  await page.waitForFunction(() => document.documentElement.dataset.firstScreen === 'shown', null, { timeout: 60000 });
  const picture = await page.evaluate(() => {
    const [header, chapter] = document.querySelectorAll('.first-screen');
    return {
      header: header.tagName,
      // nothing to reach but the title (the page's one h1 meanwhile)
      inert: [...header.children].every((el) => el.inert === !el.querySelector('h1')) && chapter.inert,
      own: document.querySelector('header.site-header:not(.first-screen)').hidden,
      lang: chapter.lang,
      images: [...chapter.querySelectorAll('img')].map((img) => img.complete && img.naturalWidth > 0),
      styled: chapter.querySelector('.hm-plot').style.width,
      ready: document.documentElement.dataset.ready,
    };
  });
  assert.deepEqual(
    { ...picture, images: picture.images.length > 0 && picture.images.every(Boolean) },
    { header: 'HEADER', inert: true, own: true, lang: 'en', images: true, styled: picture.styled, ready: undefined },
  );
  assert.match(picture.styled, /^\d+(\.\d+)?px$/, 'the heatmap has the size it had (through the CSSOM)');
  assert.deepEqual(await axeViolations(page), [], 'axe-core on the picture');
  const drawn = await figureText(page, '.first-screen');
  assert.match(drawn.heading, /pipeline/i);
  assert.match(drawn.figure, /QK/);

  page.release();
  await engineReady(page);
  assert.deepEqual(await figureText(page, 'main'), drawn, 'the live page draws what the picture showed');
  assert.deepEqual(
    await page.evaluate(() => [
      document.querySelectorAll('.first-screen').length,
      document.querySelector('header.site-header').hidden,
      document.activeElement?.closest('.first-screen') ?? null,
    ]),
    [0, false, null],
  );
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('the picture is in the browser language at a narrow width; none for a link with settings or a returning learner', async () => {
  const page = await held({ width: 360, height: 740, locale: 'zh-CN' });
  const asked = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname.split('/').pop()));
  await page.goto(`${lab.url}#lesson=masks`);
  await page.waitForFunction(() => document.documentElement.dataset.firstScreen === 'shown', null, { timeout: 60000 });
  assert.ok(
    asked.some((f) => /^masks\.zh\.narrow-[\w-]+\.html$/.test(f)),
    asked.join(' '),
  );
  assert.equal(await page.evaluate(() => document.querySelector('main .first-screen').lang), 'zh-CN');
  const drawn = await figureText(page, '.first-screen');
  page.release();
  await engineReady(page);
  assert.deepEqual(await figureText(page, 'main'), drawn);
  assert.deepEqual(page.errors, []);
  await page.closeAll();

  for (const [hash, kept] of [
    ['lesson=pipeline&dk=8&lang=en', false],
    ['lesson=pipeline&lang=en', true],
  ]) {
    const other = await openContext(lab.browser);
    if (kept) await other.context().addInitScript(() => localStorage.setItem('attention-lab-progress', '{}'));
    const files = [];
    other.on('request', (r) => files.push(new URL(r.url()).pathname));
    await other.goto(`${lab.url}#${hash}`);
    await engineReady(other);
    assert.equal(await other.evaluate(() => document.documentElement.dataset.firstScreen), undefined, hash);
    assert.deepEqual(
      files.filter((f) => f.includes('/first-screen/')),
      [],
      kept ? 'a returning learner' : hash,
    );
    assert.deepEqual(other.errors, []);
    await other.closeAll();
  }
});
