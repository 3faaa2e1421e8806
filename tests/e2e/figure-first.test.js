// The page's frame around the figures, in headless Chromium: the chapters, the path and the start
// page's entries are links to the lessons (a plain click stays on the page); the title, the
// chapter menu and the language switch take one row on a wide screen, and the chapter list opens
// over the page from the menu; a new chapter starts at its heading; a language switch survives
// Back; the chapter's other settings fold into one disclosure that the hash remembers; every
// figure has one small menu (PNG, SVG, "Copy the numbers") that the keyboard opens and closes; the
// example's own vectors are not called typed; "Dismiss" stays on one line; a lead cut at two
// lines offers the rest. (The lead's two lines and the step bar's titles, on every chapter:
// layout.test.js.)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { goTo, showing } from './lesson-page.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

test('the chapter list, the path and the start page link to the lessons; a plain click stays on the page', async () => {
  const page = await lab.open('lang=en');
  const hrefs = await page.$$eval('#chapter-nav a[data-lesson]', (as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.length >= 10, `${hrefs.length} links`);
  assert.ok(hrefs.includes('#lesson=masks&lang=en'), hrefs.join(' '));
  const path = await page.$$eval('.path-go', (as) => as.map((a) => [a.tagName, a.getAttribute('href')]));
  assert.ok(path.length >= 10);
  for (const [tag, href] of path) {
    assert.equal(tag, 'A');
    assert.match(href, /^#lesson=[a-z0-9-]+&lang=en$/);
  }
  assert.equal(await page.$eval('.start-go', (a) => a.tagName), 'A');
  await page.evaluate(() => {
    window.stayed = true;
  });
  await page.click('#chapter-nav .nav-toggle');
  await page.click('#chapter-nav a[data-lesson="masks"]');
  await showing(page, 'masks');
  const next = await page.$eval('.chapter-path .path-next', (a) => [a.tagName, a.getAttribute('href')]);
  assert.deepEqual(next, ['A', '#lesson=softmax&lang=en']);
  assert.equal(await page.evaluate(() => window.stayed), true, 'no reload');
  // A link opened in a new page shows its lesson.
  const other = await lab.open(next[1]);
  assert.ok(await other.$('article.chapter-softmax'));
  await other.close();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('on a phone the chapter list folds behind one button that names the chapter on screen', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await lab.open(`lesson=masks&lang=${lang}`, { width: 360, height: 740 });
    const toggle = page.locator('#chapter-nav .nav-toggle');
    assert.equal(await toggle.isVisible(), true);
    assert.match(await toggle.textContent(), lang === 'en' ? /Chapter 3 of \d+: Masks/ : /第 3 章/);
    assert.equal(await page.locator('#chapter-nav .nav-list').isVisible(), false);
    const navHeight = await page.$eval('#chapter-nav', (n) => n.getBoundingClientRect().height);
    assert.ok(navHeight < 120, `the folded list is ${navHeight} px tall`);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.click('#chapter-nav a[data-lesson="softmax"]');
    await showing(page, 'softmax');
    assert.equal(await page.locator('#chapter-nav .nav-list').isVisible(), false, 'folded again');
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// On a wide screen the title, the chapter menu and the language switch are one row (the list of
// chapters used to take three rows of chips there); the list opens over the page, without moving
// it, and Escape or a click elsewhere folds it again.
test('on a wide screen the title, the chapter menu and the language switch take one row; the list opens over the page', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await lab.open(`lesson=masks&lang=${lang}`, { width: 1280, height: 800 });
    const row = await page.evaluate(() => {
      const top = (sel) => document.querySelector(sel).getBoundingClientRect();
      const [brand, menu, langs] = ['.brand h1', '#chapter-nav .nav-toggle', '.lang-switch'].map(top);
      return {
        header: document.querySelector('.site-header').getBoundingClientRect().height,
        oneRow:
          menu.top < brand.bottom && langs.top < brand.bottom && menu.left > brand.right && langs.left > menu.right,
      };
    });
    assert.ok(row.oneRow, `${lang}: title, menu and language on one row`);
    assert.ok(row.header <= 64, `${lang}: the header is ${row.header} px tall`);
    assert.equal(await page.locator('#chapter-nav a[data-lesson="softmax"]').isVisible(), false, 'folded');
    const heading = () => page.$eval('main h2', (h2) => h2.getBoundingClientRect().top);
    const before = await heading();
    await page.click('#chapter-nav .nav-toggle');
    assert.equal(await page.locator('#chapter-nav a[data-lesson="softmax"]').isVisible(), true);
    assert.equal(await heading(), before, 'the open list moves nothing');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#chapter-nav .nav-list').isVisible(), false, 'Escape folds it');
    assert.equal(await page.evaluate(() => document.activeElement.matches('.nav-toggle')), true);
    await page.click('#chapter-nav .nav-toggle');
    await page.mouse.click(40, 760);
    assert.equal(await page.locator('#chapter-nav .nav-list').isVisible(), false, 'a click elsewhere folds it');
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('"Next chapter" starts the next chapter at its heading', async () => {
  for (const [from, to, width] of [
    ['masks', 'softmax', 1280],
    ['why', 'pipeline', 1280],
    ['why', 'pipeline', 360],
  ]) {
    const page = await lab.open(`lesson=${from}&lang=en`, { width, height: 800 });
    await page.locator('.chapter-path .path-next').scrollIntoViewIfNeeded();
    await page.click('.chapter-path .path-next');
    await showing(page, to);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const top = await page.$eval('main h2', (h) => h.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 120, `${from} → ${to} at ${width} px: heading at ${top} px`);
    assert.equal(await page.evaluate(() => document.activeElement.matches('main h2')), true);
    await page.close();
  }
});

// The step bar stays at the top while the page scrolls: a step chosen there with the page scrolled
// past the step's heading opens with its heading and figure just under the bar, not behind it.
test('a step chosen in the step bar while scrolled down opens with its heading under the bar (360 px)', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await lab.open(`lesson=pipeline&stage=scores&lang=${lang}`, { width: 360, height: 740 });
    const top = await page.evaluate(() => document.querySelector('[data-figure="main"]').getBoundingClientRect().top);
    await page.evaluate((y) => scrollTo(0, scrollY + y - 20), top); // the figure's top behind the bar
    await page.waitForFunction(() => document.querySelector('.stepper').getBoundingClientRect().top === 0);
    const scrolled = await page.evaluate(() => scrollY);
    await page.click('.stepper .step[data-stage="scaled"]');
    await page.waitForFunction((y) => scrollY !== y, scrolled);
    const m = await page.evaluate(() => {
      const section = document.querySelector('section[data-step="scaled"]');
      return {
        bar: document.querySelector('.stepper').getBoundingClientRect().bottom,
        heading: section.querySelector('h3').getBoundingClientRect().top,
        figure: section.querySelector('[data-figure="main"]').getBoundingClientRect().top,
      };
    });
    assert.ok(m.heading >= m.bar && m.heading <= m.bar + 40, `${lang}: heading at ${m.heading}, bar ends at ${m.bar}`);
    assert.ok(m.figure > m.bar, `${lang}: figure at ${m.figure}, under the bar ending at ${m.bar}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('a language switch survives Back and Forward', async () => {
  const page = await lab.open('lesson=pipeline&stage=scores&lang=en');
  await page.click('.stepper button.step[data-stage="scaled"]');
  await showing(page, 'pipeline', 'scaled');
  await page.click('.lang-switch button[data-lang="zh"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await page.goBack();
  await showing(page, 'pipeline', 'scores');
  assert.equal(await page.evaluate(() => window.attentionLab.state.lang), 'zh');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await page.waitForFunction(() => location.hash.includes('lang=zh'));
  await page.goForward();
  await showing(page, 'pipeline', 'scaled');
  assert.equal(await page.evaluate(() => window.attentionLab.state.lang), 'zh');
  // A link that names a language still wins.
  await page.evaluate(() => {
    location.hash = 'lesson=masks&lang=en';
  });
  await showing(page, 'masks');
  assert.equal(await page.evaluate(() => window.attentionLab.state.lang), 'en');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the chapter settings fold into one disclosure after the step, remembered by the hash', async () => {
  const page = await lab.open('lesson=pipeline&stage=scores&lang=en');
  const box = page.locator('details.settings');
  assert.equal(await box.count(), 1);
  assert.equal((await box.locator('.inputs select').count()) > 0, true, 'the inputs are inside');
  // After the step's figure in reading order.
  const after = await page.evaluate(
    () =>
      !!(
        document
          .querySelector('[data-figure="main"]')
          .compareDocumentPosition(document.querySelector('details.settings')) & Node.DOCUMENT_POSITION_FOLLOWING
      ),
  );
  assert.ok(after);
  assert.equal(await box.evaluate((d) => d.open), true);
  await box.locator('summary.settings-summary').click();
  await page.waitForFunction(() => /folded=(1|true)/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  const again = await lab.open(hash);
  assert.equal(await again.locator('details.settings').evaluate((d) => d.open), false);
  await again.close();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('every figure has one menu: PNG, SVG and "Copy the numbers", opened and closed by the keyboard', async () => {
  const page = await lab.open('lesson=pipeline&stage=weights&lang=en');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // The weights' heatmap of the Softmax step.
  const fig = page.locator('.map-weights .heatmap');
  assert.equal(await fig.locator('.fig-menu-button').count(), 1);
  assert.equal(await fig.locator('.save-png').isVisible(), false, 'folded away');
  // Only one menu button per figure on the page, and no loose PNG/SVG buttons.
  const loose = await page.$$eval('main .save-png', (bs) => bs.filter((b) => !b.closest('.fig-menu-list')).length);
  assert.equal(loose, 0);
  await fig.locator('.fig-menu-button').focus();
  await page.keyboard.press('Enter');
  assert.equal(await fig.locator('.fig-menu-button').getAttribute('aria-expanded'), 'true');
  const items = await fig.locator('.fig-menu-list button').allTextContents();
  assert.deepEqual(items, ['PNG', 'SVG', 'Copy the numbers']);
  await page.keyboard.press('Escape');
  assert.equal(await fig.locator('.fig-menu-list').isVisible(), false);
  assert.equal(await fig.locator('.fig-menu-button').evaluate((b) => b === document.activeElement), true);
  // Copy: the numbers as the table view shows them (full digits, tab-separated, labelled).
  await page.keyboard.press('Enter');
  await fig.locator('.save-copy').click();
  await page.waitForFunction(() => document.querySelector('.map-weights .fig-menu-status')?.textContent);
  const text = await page.evaluate(() => navigator.clipboard.readText());
  const lines = text.split('\n').map((l) => l.split('\t'));
  await fig.locator('.hm-toggle').click();
  const table = await fig
    .locator('table')
    .evaluate((t) => [...t.rows].map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(lines.length, table.length);
  assert.deepEqual(lines[0].slice(1), table[0].slice(1), 'column labels');
  for (let i = 1; i < lines.length; i++) {
    assert.equal(lines[i][0], table[i][0], 'row label');
    lines[i].slice(1).forEach((x, j) => {
      const shown = Number(table[i][j + 1].replace('\u2212', '-'));
      assert.ok(Math.abs(Number(x) - shown) < 0.006, `${x} vs ${shown}`);
    });
    const sum = lines[i].slice(1).reduce((a, x) => a + Number(x), 0);
    assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} of the weights sums to ${sum}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the example's own vectors are not called typed; Dismiss stays on one line", async () => {
  for (const lang of ['en', 'zh']) {
    const page = await lab.open(`lesson=pipeline&lang=${lang}`);
    const mode = await page.$eval('.inputs select', () => {
      const sel = [...document.querySelectorAll('.inputs select')].find((s) =>
        [...s.options].some((o) => o.value === 'typed'),
      );
      return sel.options[sel.selectedIndex].textContent;
    });
    assert.doesNotMatch(mode, lang === 'en' ? /typed/ : /手动输入/);
    await page.close();
  }
  const page = await lab.open('lesson=pipeline&lang=en&seed=abc');
  await page.waitForSelector('#notice:not([hidden])');
  assert.equal(await page.$eval('.notice-close', (b) => getComputedStyle(b).whiteSpace), 'nowrap');
  await page.close();
});

test('a table wider than its box says so: its cut edge fades until it is scrolled to the end', async () => {
  const page = await lab.open('lesson=score-functions&stage=cost&lang=en', { width: 360, height: 740 });
  const box = page.locator('.sf-cost .table-scroll').first();
  await page.waitForFunction(() => document.querySelector('.sf-cost .table-scroll')?.dataset.overflow === 'more');
  assert.notEqual(
    await box.evaluate((b) => getComputedStyle(b).maskImage || getComputedStyle(b).webkitMaskImage),
    'none',
  );
  await box.evaluate((b) => b.scrollTo(b.scrollWidth, 0));
  await page.waitForFunction(() => document.querySelector('.sf-cost .table-scroll').dataset.overflow === 'end');
  await page.close();
  // A table that fits has no fade.
  const wide = await lab.open('lesson=score-functions&stage=cost&lang=en', { width: 1280, height: 800 });
  await wide.waitForSelector('.sf-cost .table-scroll table');
  const fits = await wide.$eval('.sf-cost .table-scroll', (b) => b.scrollWidth <= b.clientWidth + 1);
  if (fits) assert.equal(await wide.$eval('.sf-cost .table-scroll', (b) => b.dataset.overflow ?? ''), '');
  await wide.close();
});

test('the 0/1 mask has a two-swatch key, and the practice and long-sequence controls are styled', async () => {
  const page = await lab.open('lesson=masks&stage=custom&lang=en');
  const key = await page.$eval('.mk-map-mask .hm-legend', (svg) => ({
    levels: [...svg.querySelectorAll('.hm-level text')].map((t) => t.textContent),
    gradient: svg.querySelectorAll('linearGradient').length,
  }));
  assert.deepEqual(key, { levels: ['0 blocked', '1 allowed'], gradient: 0 });
  await page.close();
  const practice = await lab.open('lesson=practice&stage=example&lang=en');
  const styled = await practice.$$eval('main button', (bs) =>
    bs
      .filter((b) => /^(Copy the code|Reset)/.test(b.textContent.trim()))
      .map((b) => [b.textContent.trim(), getComputedStyle(b).borderTopStyle, getComputedStyle(b).borderRadius]),
  );
  assert.ok(styled.length >= 2, JSON.stringify(styled));
  for (const [name, border, radius] of styled)
    assert.ok(border === 'solid' && radius === '6px', `${name}: ${border} ${radius}`);
  await practice.close();
  const long = await lab.open('lesson=long&stage=cost&lang=en');
  const sel = await long.$eval('#long-workers', (s) => [
    getComputedStyle(s).borderRadius,
    s.getBoundingClientRect().height,
  ]);
  assert.equal(sel[0], '6px');
  assert.ok(sel[1] >= 36, `workers select ${sel[1]} px tall`);
  await long.close();
});

// The step as an instrument: from about 1000 px its side column (the controls that act on the
// figure, then the prose that explains it) sits beside the figure, as a reading column; below that,
// directly under the figure, controls first.
test('from about 1000 px the controls and the prose sit beside the figure; below that, right under it', async () => {
  for (const [width, beside] of [
    [1280, true],
    [1000, true],
    [360, false],
  ]) {
    // One page per width, moved by the hash from step to step.
    const page = await lab.open('lesson=pipeline&stage=scores&lang=en', { width, height: 800 });
    for (const [lesson, stage] of [
      ['pipeline', 'scores'],
      ['why', 'lookup'],
      ['scaling', 'variance'],
    ]) {
      await goTo(page, lesson, 'en', stage);
      const where = await page.evaluate(() => {
        const stage = [...document.querySelectorAll('main .step-stage')].find((el) => el.getClientRects().length);
        if (!stage) return null;
        const rect = (el) => el && el.getClientRects().length && el.getBoundingClientRect();
        const fig = rect(stage.querySelector('.step-figure'));
        // On a narrow screen the figure column steps aside (display: contents): the side column
        // follows the main figure itself, before the rest of the figure's part.
        const main = rect(stage.querySelector('.step-figure [data-figure="main"]'));
        const side = rect(stage.querySelector('.step-side'));
        const controls = rect(stage.querySelector('.step-controls'));
        const prose = rect(stage.querySelector('.step-prose p'));
        return {
          holdsFigure: !!stage.querySelector('.step-figure [data-figure="main"]'),
          besides: side.left >= fig.right - 1 && side.top < fig.bottom,
          below: side.top >= main.bottom - 1,
          controlsFirst: !controls || !prose || controls.bottom <= prose.top,
          proseWidth: prose ? Math.round(prose.width) : null,
        };
      });
      const at = `${lesson}/${stage} at ${width} px`;
      assert.ok(where, `${at}: the step has a stage`);
      assert.ok(where.holdsFigure, `${at}: the stage leads with the main figure`);
      assert.ok(where.controlsFirst, `${at}: the controls come before the prose`);
      if (beside) {
        assert.ok(where.besides, `${at}: the side column is beside the figure`);
        if (where.proseWidth !== null)
          assert.ok(where.proseWidth >= 250 && where.proseWidth <= 340, `${at}: reading column ${where.proseWidth} px`);
      } else assert.ok(where.below, `${at}: the side column is under the figure`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// Where two lines cut the lead under the chapter's heading, "More" at their end shows the rest
// (every chapter's lead takes two lines at most: layout.test.js).
test('where two lines cut the lead, "More" shows all of it', async () => {
  const page = await lab.open('lesson=seq2seq&lang=en', { width: 360, height: 740 });
  const more = page.locator('main .lead-more');
  assert.equal(await more.isVisible(), true, 'a long lead cut at 360 px offers the rest');
  const height = () => page.$eval('main .lead-box > .lead', (p) => p.clientHeight);
  const cut = await height();
  await more.click();
  assert.equal(await more.getAttribute('aria-expanded'), 'true');
  assert.ok((await height()) > cut, 'the whole lead is shown');
  assert.deepEqual(page.errors, []);
  await page.close();
});
