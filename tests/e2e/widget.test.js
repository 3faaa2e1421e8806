// The notebook and book widget (dist/widget.js, an anywidget front-end module) loaded the way a
// notebook loads it: its text imported from a blob: URL, render({ model, el }) called with a
// minimal model (get, set, on, off, save_changes, send; set() fires change:<name> as a notebook's
// model does when Python sets a trait). A trait moves the lesson, the learner's changes come back
// into the traits, progress statements arrive as model messages, and nothing is fetched but the
// module's own text (no CDN, no sibling file).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { DIST, launchBrowser, openContext } from './harness.js';

const HOST = `const traits = JSON.parse(document.body.dataset.traits);
const handlers = {};
const model = {
  saved: 0,
  sent: [],
  get: (name) => traits[name],
  set(name, value) {
    traits[name] = value;
    for (const fn of handlers['change:' + name] || []) fn();
  },
  on: (event, fn) => (handlers[event] ||= []).push(fn),
  off: (event, fn) => (handlers[event] = (handlers[event] || []).filter((f) => f !== fn)),
  save_changes() { this.saved++; },
  send(message) { this.sent.push(JSON.parse(JSON.stringify(message))); },
};
window.model = model;
const text = await (await fetch('../widget.js')).text();
const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
const widget = (await import(url)).default;
window.cleanup = widget.render({ model, el: document.getElementById('out') });
`;
const page = (traits) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>notebook</title></head>' +
  `<body data-traits='${JSON.stringify(traits)}'><div id="out"></div><script type="module" src="host.js"></script></body></html>`;
const PAGES = {
  'nb/host.js': HOST,
  'nb/masks.html': page({ lesson: 'masks', stage: 'causal', lang: 'en', state: 'fill=zero', hide: ['footer'] }),
  'nb/playground.html': page({
    lesson: 'playground',
    stage: 'train',
    lang: 'en',
    state: 'pgTask=previous-token&pgLayers=1&pgHeads=1&pgD=128&pgLr=0.01&pgSeed=3&pgStep=120',
    hide: [],
  }),
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

// A notebook page; every request it makes to a server is recorded.
async function notebook(name) {
  const p = await openContext(browser, { width: 1100, height: 900 });
  p.requests = [];
  p.on('request', (r) => {
    if (/^https?:/.test(r.url())) p.requests.push(new URL(r.url()).pathname); // not blob: or data:
  });
  await p.goto(`${server.url}nb/${name}.html`);
  await p.waitForFunction(() => document.querySelector('attention-lab')?.shadowRoot.querySelector('.stepper'), null, {
    timeout: 60000,
  });
  return p;
}
const labState = (p) => p.evaluate(() => document.querySelector('attention-lab').state);

test('traits move the lesson, the learner’s changes come back, progress arrives as messages, nothing is fetched', async () => {
  const p = await notebook('masks');
  const s = await labState(p);
  assert.deepEqual([s.lesson, s.stage, s.lang, s.fill, s.hide], ['masks', 'causal', 'en', 'zero', ['footer']]);
  // Python sets traits
  await p.evaluate(() => window.model.set('stage', 'padding'));
  await p.waitForFunction(() => document.querySelector('attention-lab').state.stage === 'padding');
  await p.evaluate(() => window.model.set('state', 'causal=1'));
  await p.waitForFunction(() => document.querySelector('attention-lab').state.causal === true);
  assert.equal((await labState(p)).fill, 'neg-inf', 'the state trait is the whole rest of the link');
  await p.evaluate(() => window.model.set('lang', 'zh'));
  await p.waitForFunction(() => document.querySelector('attention-lab').state.lang === 'zh');
  // the learner moves the lesson: the traits follow and are saved
  const saved = await p.evaluate(() => window.model.saved);
  await p.evaluate(() =>
    document.querySelector('attention-lab').shadowRoot.querySelector('.stepper button[data-stage="two-token"]').click(),
  );
  await p.waitForFunction(() => window.model.get('stage') === 'two-token');
  assert.ok((await p.evaluate(() => window.model.saved)) > saved);
  assert.deepEqual(await p.evaluate(() => [window.model.get('lesson'), window.model.get('lang')]), ['masks', 'zh']);
  assert.match(await p.evaluate(() => window.model.get('state')), /(^|&)causal=1(&|$)/);
  // a question answered in the widget: its statement is a message to the model
  await p.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const fieldset = [...root.querySelectorAll('fieldset.predict')].find((f) => f.offsetParent !== null);
    fieldset.querySelector('input[value="pass"]').click();
    fieldset.querySelector('.predict-check').click();
  });
  await p.waitForFunction(() => window.model.sent.some((m) => m.statement.verb.id.endsWith('/answered')));
  const sent = await p.evaluate(() => window.model.sent);
  assert.ok(sent.every((m) => m.type === 'progress'));
  assert.deepEqual(
    sent.filter((m) => m.statement.verb.id.endsWith('/experienced')).map((m) => m.statement.object.id),
    ['causal', 'padding', 'two-token'].map((st) => `urn:attention-lab:masks/step/${st}`),
  );
  const answered = sent.find((m) => m.statement.verb.id.endsWith('/answered')).statement;
  assert.equal(answered.result.success, true, 'with the -∞ fill the two-token check passes');
  // nothing fetched but the page, its script and the widget's own text
  assert.deepEqual([...new Set(p.requests)].sort(), ['/lab/nb/host.js', '/lab/nb/masks.html', '/lab/widget.js']);
  // the view goes: the element with it
  await p.evaluate(() => window.cleanup());
  assert.equal(await p.evaluate(() => document.querySelector('attention-lab')), null);
  assert.deepEqual(p.errors, []);
  await p.closeAll();
});

test('a lesson that trains in a Web Worker works inside the widget: the run learns and says so', async () => {
  const p = await notebook('playground');
  await p.waitForFunction(() => window.model.sent.some((m) => m.statement.verb.id.endsWith('/passed')), null, {
    timeout: 120000,
  });
  const run = (await p.evaluate(() => window.model.sent)).find((m) => m.statement.verb.id.endsWith('/passed'));
  assert.equal(run.statement.object.id, 'urn:attention-lab:playground/run/previous-token');
  assert.deepEqual([...new Set(p.requests)].sort(), ['/lab/nb/host.js', '/lab/nb/playground.html', '/lab/widget.js']);
  assert.deepEqual(p.errors, []);
  await p.closeAll();
});
