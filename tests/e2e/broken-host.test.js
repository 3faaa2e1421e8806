// <attention-lab> on a host page that breaks it: a page whose own JavaScript built-ins misbehave
// (Array.prototype.map replaced, Function.prototype.call replaced) and a page that already defined
// another element of that name. The lab cannot defend such a page, but it never fails in silence:
// it says so once on the console and, inside each element of its own, in words that name the
// cause (never an engine message such as "query: data is a Float32Array" that blames the lesson).
// The built folder is served under a sub-path with the strict Content-Security-Policy, each test
// page with a classic script of its own that breaks the page before the lab's module runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { DIST, launchBrowser, openContext, POLICY } from './harness.js';

const page = (script, body = '<attention-lab lesson="masks"></attention-lab><attention-lab></attention-lab>') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>broken</title>
    <script src="${script}"></script><script type="module" src="../attention-lab.js"></script></head>
    <body><p>Course text.</p>${body}</body></html>`;

const PAGES = {
  'test/array.html': page('array.js'),
  'test/array.js': 'Array.prototype.map = function () { return []; };',
  'test/call.html': page('call.js'),
  'test/call.js': 'Function.prototype.call = function () { return undefined; };',
  'test/defined.html': page('defined.js'),
  'test/defined.js': "customElements.define('attention-lab', class CourseWidget extends HTMLElement {});",
  'test/zh.html': page('array.js', '<attention-lab lang="zh"></attention-lab>'),
};

let server, browser;
before(async () => {
  server = await serveDist({
    dir: DIST,
    prefix: '/courses/nlp/lab/',
    headers: { 'content-security-policy': POLICY },
    extra: PAGES,
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path) {
  const p = await openContext(browser, { violations: true });
  await p.goto(server.url + path);
  return p;
}

// The lab's console errors, once one has come (polled with a deadline) and the page has answered
// a later question (every console message sent before it has arrived). Playwright's locators run
// in a world of their own, which the page's broken built-ins do not reach.
async function labErrors(p) {
  const deadline = Date.now() + 60000;
  while (!p.errors.some((e) => e.startsWith('attention-lab: '))) {
    assert.ok(Date.now() < deadline, `no message from the lab: ${p.errors.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await p.locator('body').count();
  return p.errors.filter((e) => e.startsWith('attention-lab: '));
}

for (const [path, builtin] of [
  ['test/array.html', 'Array.prototype.map'],
  ['test/call.html', 'Function.prototype.call'],
]) {
  test(`a host whose ${builtin} misbehaves: each element says so, the console once`, async () => {
    const p = await open(path);
    try {
      const messages = p.locator('attention-lab p.start-failed');
      await messages.nth(1).waitFor({ timeout: 60000 });
      for (const text of await messages.allTextContents()) {
        assert.equal(
          text,
          'Attention Lab cannot run on this page: the page has changed JavaScript’s own functions, so the ' +
            `lessons would compute wrong numbers or none. Changed: ${builtin}`,
        );
      }
      assert.equal(await p.locator('attention-lab [role="alert"]').count(), 2);
      assert.deepEqual(await labErrors(p), [
        'attention-lab: Attention Lab cannot run on this page: the page has changed JavaScript’s own functions, ' +
          `so the lessons would compute wrong numbers or none. Changed: ${builtin}`,
      ]);
      assert.ok(!p.errors.some((e) => /data is a Float32Array/.test(e)), p.errors.join('\n'));
    } finally {
      await p.closeAll();
    }
  });
}

test('the message is in the element’s language', async () => {
  const p = await open('test/zh.html');
  try {
    const text = await p.locator('attention-lab p.start-failed').textContent({ timeout: 60000 });
    assert.match(text, /^Attention Lab 无法在此页面运行：.*被改动的是： Array\.prototype\.map$/);
  } finally {
    await p.closeAll();
  }
});

test('a host that already defined <attention-lab>: the lab says so on the console, once', async () => {
  const p = await open('test/defined.html');
  try {
    assert.deepEqual(await labErrors(p), [
      'attention-lab: this page already defines another element named <attention-lab>, so this copy of ' +
        'Attention Lab cannot draw its lessons: CourseWidget',
    ]);
  } finally {
    await p.closeAll();
  }
});
