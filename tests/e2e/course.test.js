// The lesson in a course, seen from the course page. Progress a course can grade: the
// <attention-lab> element's attention-lab-progress events and embed.html's 'progress' messages to
// its parent, for a step visited, a question answered wrong and then right, a chapter completed and a training
// run that reaches "learned". The masks chapter's two-token check is the question: with the -∞ fill
// (the default) masking one of two tokens leaves the other token's value as the output, so "passes"
// is right and "fails" wrong; with the 0 fill the check fails. Frame sizing: Canvas's
// lti.frameResize messages, and iframe-resizer's own parent script (version 4, from npm) sizing the
// frame to its content. The Embed dialog: its code pasted into a blank page shows the same step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { DIST, ROOT, axeViolations, launchBrowser, openContext } from './harness.js';

const PAGES = {
  'test/progress.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>progress</title>
    <script type="module" src="../attention-lab.js"></script></head><body>
    <attention-lab id="a" lesson="masks" stage="padding" lang="en"></attention-lab></body></html>`,
  'test/progress-frame.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>frame</title></head><body>
    <iframe id="f" title="lab" src="../embed.html#lesson=masks&stage=two-token&lang=en&fill=zero"></iframe></body></html>`,
  'test/playground.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>playground</title>
    <script type="module" src="../attention-lab.js"></script></head><body>
    <attention-lab id="a" lesson="playground" stage="train" lang="en"
      state="pgTask=previous-token&pgLayers=1&pgHeads=1&pgD=128&pgLr=0.01&pgSeed=3&pgStep=120"></attention-lab></body></html>`,
  'test/resized.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>resized</title>
    <script src="iframeResizer.js"></script></head><body>
    <iframe id="f" title="lab" src="../embed.html#lesson=softmax&stage=temperature&lang=en" style="width: 900px"></iframe>
    <script src="resize.js"></script></body></html>`,
  'test/iframeResizer.js': fs.readFileSync(path.join(ROOT, 'node_modules/iframe-resizer/js/iframeResizer.js'), 'utf8'),
  'test/resize.js': `window.__sized = []; iFrameResize({ onResized: (m) => window.__sized.push(Number(m.height)) }, '#f');`,
};

let server, browser;
before(async () => {
  server = await serveDist({ dir: DIST, prefix: '/lab/', extra: PAGES });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// A page that records every progress event of its elements and every progress message of its
// frames from the moment it starts.
async function open(path) {
  const page = await openContext(browser, { width: 1280, height: 900 });
  await page.context().addInitScript(() => {
    if (window !== window.top) return;
    window.__events = [];
    window.__messages = [];
    document.addEventListener('attention-lab-progress', (e) => window.__events.push(e.detail));
    window.addEventListener('message', (e) => {
      if (e.data && e.data.source === 'attention-lab' && e.data.type === 'progress') window.__messages.push(e.data);
    });
  });
  await page.goto(server.url + path);
  return page;
}
const verbOf = (s) => s.verb.id.replace('http://adlnet.gov/expapi/verbs/', '');
const summary = (list) => list.map((s) => `${verbOf(s)} ${s.object.id}`);

// Picks an option of the question on screen and presses "Check" (in the element or the frame).
async function answer(frame, value) {
  await frame.evaluate((value) => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const fieldset = [...root.querySelectorAll('fieldset.predict')].find((f) => f.offsetParent !== null);
    fieldset.querySelector(`input[value="${value}"]`).click();
    fieldset.querySelector('.predict-check').click();
  }, value);
}
const feedback = (frame) =>
  frame.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    return [...root.querySelectorAll('.predict-feedback')].find((f) => f.offsetParent !== null).className;
  });

test('the element: each step once, a wrong answer that locks the question, the chapter completed with its first-try score', async () => {
  const page = await open('test/progress.html');
  await page.waitForFunction(() => window.__events.length >= 1, null, { timeout: 60000 });
  const steps = await page.evaluate(() =>
    [...document.getElementById('a').shadowRoot.querySelectorAll('.stepper button[data-stage]')].map(
      (b) => b.dataset.stage,
    ),
  );
  assert.deepEqual(steps, ['padding', 'causal', 'custom', 'blocked', 'two-token']);
  for (const stage of [...steps.slice(1), 'padding']) {
    await page.evaluate(
      (stage) =>
        document.getElementById('a').shadowRoot.querySelector(`.stepper button[data-stage="${stage}"]`).click(),
      stage,
    );
    await page.waitForFunction((stage) => document.getElementById('a').state.stage === stage, stage);
  }
  await page.evaluate(() => document.getElementById('a').set({ stage: 'two-token' }));
  await page.waitForFunction(() => document.getElementById('a').state.stage === 'two-token');
  await answer(page, 'fail');
  await page.waitForFunction(() => window.__events.some((s) => s.verb.id.endsWith('/completed')));
  assert.match(await feedback(page), /wrong/);
  // Answered, the question is locked (kit/predict.js): a second pick is not taken.
  await answer(page, 'pass');
  assert.match(await feedback(page), /wrong/);
  const log = await page.evaluate(() => window.__events);
  if (process.env.PROGRESS_LOG)
    (await import('node:fs')).writeFileSync(process.env.PROGRESS_LOG, JSON.stringify(log, null, 1));
  assert.deepEqual(summary(log), [
    ...steps.map((s) => `experienced urn:attention-lab:masks/step/${s}`),
    'answered urn:attention-lab:masks/question/two-token',
    'completed urn:attention-lab:masks',
  ]);
  const [wrong, done] = log.slice(steps.length);
  assert.deepEqual([wrong.result.success, wrong.result.response], [false, 'fail']);
  assert.deepEqual(wrong.object.definition.correctResponsesPattern, ['pass']);
  assert.deepEqual(done.result, { completion: true, score: { raw: 0, min: 0, max: 1, scaled: 0 } });
  assert.equal(log[0].object.definition.name.en, 'Padding');
  assert.equal(log[0].actor, undefined);
  // what the element has kept: its progress, as a host would store it
  const kept = await page.evaluate(() => document.getElementById('a').progress);
  assert.deepEqual(kept.masks.steps.sort(), [...steps].sort());
  assert.deepEqual(kept.masks.answers, { 'masks/two-token': false });
  assert.equal(kept.masks.completed, true);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('the iframe posts each statement to its parent: right on the first try, then the chapter completed', async () => {
  const page = await open('test/progress-frame.html');
  await page.waitForFunction(() => window.__messages.length >= 1, null, { timeout: 60000 });
  const frame = page.frame({ url: /embed\.html/ });
  await frame.waitForFunction(() => document.querySelector('attention-lab').state);
  await answer(frame, 'fail'); // with the 0 fill the check fails
  await page.waitForFunction(() => window.__messages.some((m) => m.statement.verb.id.endsWith('/answered')));
  for (const stage of ['padding', 'causal', 'custom', 'blocked'])
    await page.evaluate((stage) => {
      document
        .getElementById('f')
        .contentWindow.postMessage({ source: 'attention-lab-host', type: 'set', state: { stage } }, '*');
    }, stage);
  await page.waitForFunction(() => window.__messages.some((m) => m.statement.verb.id.endsWith('/completed')), null, {
    timeout: 30000,
  });
  const messages = await page.evaluate(() => window.__messages);
  for (const m of messages) assert.deepEqual(Object.keys(m).sort(), ['source', 'statement', 'type', 'version']);
  assert.ok(messages.every((m) => m.version === 1));
  const log = messages.map((m) => m.statement);
  assert.deepEqual(summary(log), [
    'experienced urn:attention-lab:masks/step/two-token',
    'answered urn:attention-lab:masks/question/two-token',
    ...['padding', 'causal', 'custom', 'blocked'].map((s) => `experienced urn:attention-lab:masks/step/${s}`),
    'completed urn:attention-lab:masks',
  ]);
  assert.deepEqual([log[1].result.success, log[1].result.response], [true, 'fail']);
  assert.deepEqual(log.at(-1).result.score, { raw: 1, min: 0, max: 1, scaled: 1 });
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('a training run that reaches "learned" is a passed statement with its step and settings', async () => {
  const page = await open('test/playground.html');
  await page.waitForFunction(() => window.__events.some((s) => s.verb.id.endsWith('/passed')), null, {
    timeout: 120000,
  });
  const passed = (await page.evaluate(() => window.__events)).filter((s) => verbOf(s) === 'passed');
  assert.equal(passed.length, 1);
  const [run] = passed;
  assert.equal(run.object.id, 'urn:attention-lab:playground/run/previous-token');
  assert.equal(run.result.success, true);
  const step = run.result.extensions['urn:attention-lab:step'];
  assert.ok(Number.isInteger(step) && step > 0 && step <= 120, `learned at step ${step}`);
  const settings = run.context.extensions['urn:attention-lab:run'];
  assert.equal(settings.name, 'main');
  assert.equal(settings.task, 'previous-token');
  assert.equal(settings.dModel, 128);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('sized by iframe-resizer’s parent script, and Canvas’s lti.frameResize sent with every height', async () => {
  const page = await openContext(browser, { width: 1280, height: 900 });
  await page.context().addInitScript(() => {
    if (window !== window.top) return;
    window.__canvas = [];
    window.addEventListener('message', (e) => {
      if (typeof e.data === 'string' && e.data.includes('lti.frameResize')) window.__canvas.push(JSON.parse(e.data));
    });
  });
  await page.goto(server.url + 'test/resized.html');
  const frame = page.frame({ url: /embed\.html/ });
  await frame.waitForFunction(
    () => document.querySelector('attention-lab').shadowRoot.querySelector('.stepper'),
    null,
    {
      timeout: 60000,
    },
  );
  // The frame's height, once iframe-resizer has sized the frame to its content and Canvas's message
  // says the same height (read in one go: the content may still grow as fonts and formulas arrive).
  const sized = (other) =>
    page
      .waitForFunction(
        (other) => {
          const f = document.getElementById('f');
          const h = Math.ceil(f.contentDocument.getElementById('lab').getBoundingClientRect().height);
          const ok = h > 300 && h !== other && f.clientHeight === h && window.__canvas.at(-1)?.height === h;
          return ok && window.__sized.includes(h) && h;
        },
        other,
        { timeout: 30000 },
      )
      .then((handle) => handle.jsonValue());
  const height = await sized(0);
  const canvas = await page.evaluate(() => window.__canvas);
  assert.deepEqual(Object.keys(canvas.at(-1)).sort(), ['height', 'subject']);
  assert.equal(canvas.at(-1).subject, 'lti.frameResize');
  // Another step, another height: iframe-resizer and Canvas get it.
  await frame.evaluate(() => document.getElementById('lab').set({ stage: 'overflow' }));
  assert.notEqual(await sized(height), height);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

// The step on screen as text: what every part of it says, its formulas as their TeX (drawn or not).
function stepText(root) {
  const section = [...root.querySelectorAll('section[data-step]')].find((s) => !s.hidden);
  const copy = section.cloneNode(true);
  for (const f of copy.querySelectorAll('[data-tex]')) f.replaceWith(` ${f.dataset.tex} `);
  for (const el of copy.querySelectorAll('[data-group="save"], .hidden-values')) el.remove();
  return { stage: section.dataset.step, text: copy.textContent.replace(/\s+/g, ' ').trim() };
}

test('the Embed dialog’s code, pasted into a blank page, shows the same step with the same numbers', async () => {
  const page = await openContext(browser, { width: 1280, height: 900 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${server.url}index.html#lesson=pipeline&stage=weights&lang=en&seed=7&temperature=2&causal=1`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
  const want = await page.evaluate(() => window.attentionLab.state);
  await page.click('.site-header .embed-open');
  const dialog = page.locator('dialog.embed-dialog');
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute('aria-labelledby'), 'embed-title');
  assert.equal(
    await page.evaluate(() => document.activeElement.closest('dialog') !== null),
    true,
    'focus in the dialog',
  );
  await dialog.locator('input[value="save"]').check();
  const violations = (await axeViolations(page)).filter((v) => v.includes('embed'));
  assert.deepEqual(violations, []);
  const copied = {};
  for (const name of ['script', 'element', 'iframe']) {
    await dialog.locator(`.embed-copy-${name}`).click();
    await page.waitForFunction(() => /Copied/.test(document.querySelector('.embed-status').textContent));
    copied[name] = await page.evaluate(() => navigator.clipboard.readText());
    await page.evaluate(() => (document.querySelector('.embed-status').textContent = ''));
  }
  assert.match(copied.script, /^<script type="module" src="http:\/\/[^"]+\/lab\/attention-lab\.js"><\/script>$/);
  assert.match(
    copied.element,
    /^<attention-lab lesson="pipeline" stage="weights" lang="en" hide="save" state="[^"]*seed=7/,
  );
  assert.match(copied.iframe, /^<iframe src="http:\/\/[^"]+\/lab\/embed\.html#lesson=pipeline&amp;stage=weights/);
  await page.keyboard.press('Escape');
  assert.equal(await dialog.evaluate((d) => d.open), false);
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('embed-open')), true);
  const shown = await page.evaluate(`(${stepText})(document.querySelector('main'))`);
  assert.equal(shown.stage, 'weights');

  PAGES['test/pasted.html'] =
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>pasted</title>${copied.script}</head>` +
    `<body>${copied.element}</body></html>`;
  PAGES['test/pasted-frame.html'] =
    '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>pasted</title></head>' +
    `<body>${copied.iframe}</body></html>`;
  const blank = await openContext(browser, { width: 1280, height: 900, locale: 'zh-CN' });
  await blank.goto(`${server.url}test/pasted.html`);
  await blank.waitForFunction(
    () => document.querySelector('attention-lab')?.shadowRoot.querySelector('section[data-step]'),
    null,
    {
      timeout: 60000,
    },
  );
  await blank.evaluate(() => window.attentionLab?.formulas?.());
  const element = await blank.evaluate(() => document.querySelector('attention-lab').state);
  assert.deepEqual(
    { ...element, hide: [] },
    { ...want, hide: [] },
    'the same state, the seed and the settings included',
  );
  assert.deepEqual(element.hide, ['save']);
  assert.deepEqual(await blank.evaluate(`(${stepText})(document.querySelector('attention-lab').shadowRoot)`), shown);

  await blank.goto(`${server.url}test/pasted-frame.html`);
  // (the pasted iframe loads lazily: its document may come after the page's load event)
  await blank.waitForFunction(
    () => document.querySelector('iframe')?.contentDocument?.querySelector('attention-lab'),
    null,
    {
      timeout: 60000,
    },
  );
  const frame = blank.frame({ url: /embed\.html/ });
  await frame.waitForFunction(
    () => document.querySelector('attention-lab')?.shadowRoot.querySelector('section[data-step]'),
    null,
    {
      timeout: 60000,
    },
  );
  const framed = await frame.evaluate(() => document.querySelector('attention-lab').state);
  assert.deepEqual({ ...framed, hide: [] }, { ...want, hide: [] });
  assert.deepEqual(await frame.evaluate(`(${stepText})(document.querySelector('attention-lab').shadowRoot)`), shown);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(blank.errors, []);
  await page.closeAll();
  await blank.closeAll();
});
