// Embedding in a course site: the built folder served like a static host under a sub-path
// (/courses/nlp/lab/) with the strict Content-Security-Policy, and opened as a course author's
// pages would open it: the standalone page, the example course page (one <attention-lab>
// element and two iframes), an iframe deep link, two elements side by side, a host page with
// hostile CSS, hostile postMessage payloads, and an offline reload after a first visit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { DIST, launchBrowser, openContext, POLICY } from './harness.js';

// Test pages a course author might write, served beside the folder (static HTML, no inline script).
const PAGES = {
  'test/two.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>two</title><link rel="icon" href="icon.svg">
    <script type="module" src="../attention-lab.js"></script></head><body>
    <attention-lab id="a" lesson="masks" stage="padding"></attention-lab>
    <attention-lab id="b" lesson="masks" stage="padding" hide="inputs stepper" height="320"></attention-lab></body></html>`,
  'test/hostile.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hostile</title><link rel="icon" href="icon.svg">
    <link rel="stylesheet" href="hostile.css"><script type="module" src="../attention-lab.js"></script></head><body>
    <p class="panel hint lead" id="host-text">Course text with the page's own class names.</p>
    <attention-lab id="a" lesson="pipeline" stage="weights"></attention-lab></body></html>`,
  'test/one.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>one</title><link rel="icon" href="icon.svg">
    <script type="module" src="../attention-lab.js"></script></head><body>
    <attention-lab id="a" lesson="softmax" stage="temperature"></attention-lab></body></html>`,
  'test/themed.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>themed</title><link rel="icon" href="icon.svg">
    <link rel="stylesheet" href="themed.css"><script type="module" src="../attention-lab.js"></script></head><body>
    <attention-lab id="a" lesson="softmax" stage="temperature"></attention-lab>
    <attention-lab id="tall" lesson="softmax" stage="temperature" height="99999999999999999999"></attention-lab></body></html>`,
  'test/themed.css': `:root, body, attention-lab, * { --ink: #ff0000; --paper: #000000; --font: "Comic Sans MS", cursive;
    --accent: #00ff00; --muted: #ff00ff; --line: #00ffff; --panel: #ffff00; --radius: 40px;
    --al-ink: #ff0000; --al-paper: #000000; --al-accent: #00ff00; --al-font: cursive; }`,
  'test/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
  'test/hostile.css': `* { all: unset; } html { font-size: 64px; } body { display: block; font-size: 48px; line-height: 3;
    font-family: "Comic Sans MS", cursive; letter-spacing: 4px; text-transform: uppercase; }
    attention-lab { border: 9px solid red; padding: 40px; font-size: 80px; width: 10px; display: inline; }
    div, p, section, canvas, button { margin: 50px !important; }`,
  'test/frames.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>frames</title><link rel="icon" href="icon.svg"></head><body>
    <iframe id="f1" title="one" src="../embed.html#lesson=masks&stage=padding"></iframe>
    <iframe id="f2" title="two" src="../embed.html#lesson=softmax&stage=temperature"></iframe></body></html>`,
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

// A page in a fresh context (cold cache), recording errors and CSP violations (in every frame).
// The service worker only where a test asks for it.
async function openPage(path, { width = 1280, height = 900, serviceWorkers = 'block' } = {}) {
  const page = await openContext(browser, { width, height, serviceWorkers, violations: true });
  const response = await page.goto(server.url + path);
  assert.equal(response.headers()['content-security-policy'], POLICY);
  return page;
}

// Requests the server has answered for files whose path matches re (e.g. the engine's wasm).
const served = (re) => [...server.hits].filter(([k]) => re.test(k)).reduce((n, [, c]) => n + c, 0);

const violations = async (page) =>
  (await Promise.all(page.frames().map((f) => f.evaluate(() => window.__violations || []).catch(() => [])))).flat();

// Waits until the element (selector) has drawn its chapter; returns its state.
async function labReady(frameOrPage, selector = 'attention-lab') {
  await frameOrPage.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel);
      return el && el.state && el.shadowRoot.querySelector('.hm-plot, .stepper');
    },
    selector,
    { timeout: 60000 },
  );
  return frameOrPage.evaluate((sel) => document.querySelector(sel).state, selector);
}

test('the standalone page works from a sub-path under the strict policy', async () => {
  const wasm = served(/\.wasm$/);
  const page = await openPage('#lesson=masks&stage=causal&causal=1');
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.attentionLab.state.stage), 'causal');
  assert.ok(await page.locator('main .hm-plot').first().isVisible());
  assert.equal(served(/\.wasm$/) - wasm, 1, 'one wasm download');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('the example course page: prose, one element and two iframes, each on its stage and sized to its content', async () => {
  const page = await openPage('examples/course.html', { width: 1280 });
  assert.deepEqual(await labReady(page).then((s) => [s.lesson, s.stage, s.hide]), ['pipeline', 'weights', ['inputs']]);
  const frames = page.locator('iframe.lab-frame');
  assert.equal(await frames.count(), 2);
  const expected = [
    ['masks', 'padding'],
    ['softmax', 'temperature'],
  ];
  for (let k = 0; k < 2; k++) {
    const frame = await (await frames.nth(k).elementHandle()).contentFrame();
    const s = await labReady(frame, '#lab');
    assert.deepEqual([s.lesson, s.stage], expected[k]);
    // The frame told the page its height and stage, and the page sized the frame.
    await page.waitForFunction(
      (i) => {
        const f = document.querySelectorAll('iframe.lab-frame')[i];
        return f.dataset.stage && parseFloat(f.style.height) > 300;
      },
      k,
      { timeout: 30000 },
    );
    const { frameHeight, contentHeight } = await page.evaluate((i) => {
      const f = document.querySelectorAll('iframe.lab-frame')[i];
      return {
        frameHeight: parseFloat(f.style.height),
        contentHeight: Math.ceil(f.contentDocument.getElementById('lab').getBoundingClientRect().height),
      };
    }, k);
    assert.ok(
      Math.abs(frameHeight - contentHeight) <= 1,
      `frame ${k}: ${frameHeight} px for ${contentHeight} px of content`,
    );
  }
  // The padding frame shows the fill it uses as text although its controls are hidden.
  const masks = await (await frames.nth(0).elementHandle()).contentFrame();
  const shown = await masks.evaluate(() => {
    const root = document.getElementById('lab').shadowRoot;
    return {
      inputsVisible: [...root.querySelectorAll('[data-group="inputs"]')].some((el) => el.offsetParent !== null),
      values: [...root.querySelectorAll('.hidden-values')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => el.textContent),
    };
  });
  assert.equal(shown.inputsVisible, false);
  assert.ok(
    shown.values.some((t) => /Fill value for blocked scores: 0/.test(t)),
    shown.values.join(' | '),
  );
  assert.ok(
    shown.values.some((t) => /“老鼠” as padding: on/.test(t)),
    shown.values.join(' | '),
  );
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 1280));
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('an iframe deep link lands on the stage with the controls hidden, and reports it to its parent', async () => {
  const page = await openPage('test/frames.html');
  await labReady(page.frame({ url: /embed\.html#lesson=masks/ }), '#lab');
  await page.evaluate(() => {
    window.__got = [];
    window.addEventListener('message', (e) => window.__got.push(e.data));
    document.getElementById('f1').src = document
      .getElementById('f1')
      .src.replace('stage=padding', 'stage=causal&hide=inputs,stepper&causal=1');
  });
  await page.waitForFunction(() => window.__got.some((m) => m.type === 'stage' && m.stage === 'causal'), null, {
    timeout: 60000,
  });
  const f1 = page.frame({ url: /embed\.html#lesson=masks/ });
  const s = await labReady(f1, '#lab');
  assert.deepEqual([s.lesson, s.stage, s.causal, s.hide], ['masks', 'causal', true, ['inputs', 'stepper']]);
  const view = await f1.evaluate(() => {
    const root = document.getElementById('lab').shadowRoot;
    const visible = (el) => el.offsetParent !== null;
    return {
      heading: [...root.querySelectorAll('.stage-title')].filter(visible).map((el) => el.textContent),
      stepper: [...root.querySelectorAll('.stepper')].some(visible),
      inputs: [...root.querySelectorAll('[data-group="inputs"]')].some(visible),
      hash: location.hash,
    };
  });
  assert.deepEqual(view.heading.length, 1);
  assert.match(view.heading[0], /[Cc]ausal/);
  assert.equal(view.stepper, false);
  assert.equal(view.inputs, false);
  assert.match(view.hash, /stage=causal/);
  // (the frame's own messages; Canvas's lti.frameResize text is another host's: tests/e2e/course.test.js)
  const got = (await page.evaluate(() => window.__got)).filter((m) => typeof m !== 'string');
  const KEYS = {
    height: ['height', 'source', 'type', 'version'],
    stage: ['lesson', 'source', 'stage', 'type', 'version'],
    progress: ['source', 'statement', 'type', 'version'],
  };
  for (const m of got) assert.deepEqual(Object.keys(m).sort(), KEYS[m.type]);
  assert.ok(got.some((m) => m.type === 'height' && m.height > 100));
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('a hash navigation in the frame wins over a rewrite of the state before it that was still waiting', async () => {
  const page = await openPage('embed.html#lesson=pipeline&stage=weights');
  await labReady(page, '#lab');
  // the masks chapter's code is held at the network, so the navigation is certainly still loading
  let release;
  const released = new Promise((r) => {
    release = r;
  });
  await page.route(/\/assets\/masks-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  const during = await page.evaluate(async () => {
    document.getElementById('lab').set({ temperature: 2 }); // its hash is written up to 200 ms later
    location.hash = '#lesson=masks&stage=padding';
    await new Promise((r) => {
      const tick = () =>
        document.documentElement.hasAttribute('data-hash-pending') ? requestAnimationFrame(tick) : r();
      tick();
    });
    return location.hash;
  });
  assert.equal(during, '#lesson=masks&stage=padding');
  release();
  await page.waitForFunction(
    () => document.getElementById('lab').state?.lesson === 'masks' && /lesson=masks/.test(location.hash),
    null,
    { timeout: 60000 },
  );
  const s = await labReady(page, '#lab');
  assert.deepEqual([s.lesson, s.stage], ['masks', 'padding']);
  assert.match(await page.evaluate(() => location.hash), /stage=padding/);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

// Holds the requests for a chapter's own chunk (assets/<id>-<hash>.js) until release() is called,
// so "its chapter is still loading" is certain, not a matter of speed.
async function hold(page, id) {
  let release, requested;
  const released = new Promise((r) => {
    release = r;
  });
  const asked = new Promise((r) => {
    requested = r;
  });
  await page.route(new RegExp(`/assets/${id}-[\\w-]+\\.js$`), async (route) => {
    requested(route.request().url());
    await released;
    await route.continue();
  });
  return { asked, release };
}

// Moves the visible range slider of the element's chapter (a control of the chapter on screen,
// through the chapter's own set()) to its other end; run in the page.
function moveSlider(root) {
  const sl = [...root.querySelectorAll('input[type=range]')].find((el) => el.offsetParent !== null);
  sl.value = sl.value === sl.min ? sl.max : sl.min;
  sl.dispatchEvent(new Event('input', { bubbles: true }));
  sl.dispatchEvent(new Event('change', { bubbles: true }));
}
test('embed.html: a control moved while a hash navigation loads writes nothing into the address, and the navigation lands', async () => {
  const page = await openPage('embed.html#lesson=softmax&stage=temperature');
  const before = await labReady(page, '#lab');
  const masks = await hold(page, 'masks');
  await page.evaluate(`window.moveSlider = ${moveSlider}`); // (an evaluation, not a script: the policy allows it)
  const during = await page.evaluate(async () => {
    const lab = document.getElementById('lab');
    const seen = new Promise((r) => window.addEventListener('hashchange', r, { once: true }));
    location.hash = '#lesson=masks&stage=padding';
    await seen; // the element is reading the new hash; its chapter is held at the network
    window.moveSlider(lab.shadowRoot);
    // a rewrite of the hash, had one been asked for, would be pending now: wait until none is
    await new Promise((r) => {
      const tick = () =>
        document.documentElement.hasAttribute('data-hash-pending') ? requestAnimationFrame(tick) : r();
      tick();
    });
    return { hash: location.hash, temperature: lab.state.temperature };
  });
  await masks.asked;
  assert.equal(during.hash, '#lesson=masks&stage=padding', 'the address keeps the hash of the navigation');
  assert.equal(during.temperature, before.temperature, 'the chapter being left no longer changes the state');
  masks.release();
  await page.waitForFunction(
    () => document.getElementById('lab').state?.lesson === 'masks' && /lesson=masks/.test(location.hash),
    null,
    { timeout: 60000 },
  );
  const s = await labReady(page, '#lab');
  assert.deepEqual([s.lesson, s.stage, s.temperature], ['masks', 'padding', before.temperature]);
  assert.match(await page.evaluate(() => location.hash), /stage=padding/);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('<attention-lab>: a change of attributes wins over set() of a chapter still loading and over the chapter being left', async () => {
  const page = await openPage('test/one.html');
  const before = await labReady(page, '#a');
  await page.evaluate(`window.moveSlider = ${moveSlider}`);
  const [position, masks] = [await hold(page, 'position'), await hold(page, 'masks')];
  const during = await page.evaluate(() => {
    const el = document.getElementById('a');
    const errors = el.set({ lesson: 'position' }); // its chapter is held: the change waits for it
    el.setAttribute('lesson', 'masks'); // a navigation, also held
    el.setAttribute('stage', 'causal');
    window.moveSlider(el.shadowRoot); // the chapter on screen is being left: ignored
    return { errors, lesson: el.state.lesson, temperature: el.state.temperature };
  });
  assert.deepEqual(during, { errors: [], lesson: 'softmax', temperature: before.temperature });
  await Promise.all([position.asked, masks.asked]);
  masks.release();
  await page.waitForFunction(() => document.getElementById('a').state.lesson === 'masks', null, { timeout: 60000 });
  await labReady(page, '#a');
  // The chapter that set() asked for arrives afterwards: the element stays where its attributes are.
  position.release();
  const url = await position.asked;
  await page.evaluate((u) => import(u), url);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  const s = await page.evaluate(() => document.getElementById('a').state);
  assert.deepEqual([s.lesson, s.stage, s.temperature], ['masks', 'causal', before.temperature]);
  assert.ok(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.chapter-masks')));
  // and its controls answer again
  await page.evaluate(() =>
    document.getElementById('a').shadowRoot.querySelector('.stepper button[data-stage="padding"]').click(),
  );
  await page.waitForFunction(() => document.getElementById('a').state.stage === 'padding');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('hostile postMessage payloads are ignored; a valid one from the parent is applied, the same from a sibling frame is not', async () => {
  const page = await openPage('test/frames.html');
  await page.waitForFunction(
    () => [...document.querySelectorAll('iframe')].every((f) => f.contentDocument?.getElementById('lab')?.state),
    null,
    { timeout: 60000 },
  );
  const f1 = page.frame({ url: /lesson=masks/ });
  await labReady(f1, '#lab');
  const before = await f1.evaluate(() => JSON.stringify(document.getElementById('lab').state));
  await page.evaluate(() => {
    const w = document.getElementById('f1').contentWindow;
    const host = 'attention-lab-host';
    const payloads = [
      null,
      1,
      'set stage=causal',
      [host],
      { source: host },
      { type: 'set', state: { stage: 'causal' } },
      { source: host, type: 'set', state: { stage: 'weights' } },
      { source: host, type: 'set', state: { lesson: 'nope' } },
      { source: host, type: 'set', state: { seed: '7' } },
      { source: host, type: 'set', state: { hide: 'inputs' } },
      { source: host, type: 'set', state: { stage: 'causal' }, extra: true },
      { source: host, type: 'set', state: { stage: 'causal', evil: 1 } },
      { source: host, type: 'set', state: { queryTokens: Array(5000).fill('x') } },
      { source: host, type: 'set', state: { temperature: -1 } },
      { source: host, type: 'set', state: JSON.parse('{"__proto__": {"stage": "causal"}}') },
      { source: host, type: 'eval', code: 'alert(1)' },
    ];
    for (const p of payloads) w.postMessage(p, '*');
  });
  // A sibling frame sends a valid message: not from the parent, so ignored.
  const f2 = page.frame({ url: /lesson=softmax/ });
  await f2.evaluate(() =>
    window.parent.frames[0].postMessage(
      { source: 'attention-lab-host', type: 'set', state: { stage: 'blocked' } },
      '*',
    ),
  );
  // Then the parent sends a valid one: applied (messages arrive in order, so the others were read first).
  await page.evaluate(() =>
    document
      .getElementById('f1')
      .contentWindow.postMessage({ source: 'attention-lab-host', type: 'set', state: { stage: 'two-token' } }, '*'),
  );
  await f1.waitForFunction(() => document.getElementById('lab').state.stage === 'two-token', null, { timeout: 30000 });
  const after = await f1.evaluate(() => JSON.parse(JSON.stringify(document.getElementById('lab').state)));
  assert.deepEqual({ ...after, stage: 'padding' }, JSON.parse(before), 'nothing but the stage changed');
  assert.equal(await f1.evaluate(() => ({}).stage), undefined);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('two elements on one page are independent and share one engine download', async () => {
  const wasm = served(/\.wasm$/);
  const page = await openPage('test/two.html');
  await labReady(page, '#a');
  await labReady(page, '#b');
  await page.evaluate(() =>
    document.getElementById('a').shadowRoot.querySelector('.stepper button[data-stage="causal"]').click(),
  );
  await page.waitForFunction(() => document.getElementById('a').state.stage === 'causal');
  const states = await page.evaluate(() => ['a', 'b'].map((id) => document.getElementById(id).state));
  assert.equal(states[0].stage, 'causal');
  assert.equal(states[1].stage, 'padding', 'the other element did not move');
  assert.deepEqual(states[1].hide, ['inputs', 'stepper']);
  const seen = await page.evaluate(() =>
    ['a', 'b'].map((id) => {
      const root = document.getElementById(id).shadowRoot;
      const visible = (el) => el.offsetParent !== null;
      return {
        stepper: [...root.querySelectorAll('.stepper')].some(visible),
        inputs: [...root.querySelectorAll('[data-group="inputs"]')].some(visible),
      };
    }),
  );
  assert.deepEqual(seen, [
    { stepper: true, inputs: true },
    { stepper: false, inputs: false },
  ]);
  // height="320": the second element is 320 px tall and scrolls inside; the first is as tall as its content.
  const heights = await page.evaluate(() =>
    ['a', 'b'].map((id) => {
      const el = document.getElementById(id);
      const lab = el.shadowRoot.querySelector('.lab');
      return { host: Math.round(el.getBoundingClientRect().height), scroll: lab.scrollHeight };
    }),
  );
  assert.equal(heights[1].host, 320);
  assert.ok(heights[1].scroll > 320, `scrolls inside: ${heights[1].scroll}`);
  assert.ok(heights[0].host > 600 && heights[0].host >= heights[0].scroll - 2, JSON.stringify(heights[0]));
  // The element's CSS stays in its shadow roots: the page got one stylesheet, KaTeX's font faces.
  const sheets = await page.evaluate(() =>
    [...document.querySelectorAll('link[rel="stylesheet"], style')].map((l) => l.getAttribute('href') || 'style'),
  );
  assert.equal(sheets.length, 1);
  assert.match(sheets[0], /katex-fonts-.*\.css$/);
  assert.equal(served(/\.wasm$/) - wasm, 1, 'one wasm download');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('a host page with hostile CSS (* { all: unset }, huge fonts) does not break the element, nor the element the page', async () => {
  const page = await openPage('test/hostile.html', { width: 1000 });
  await labReady(page, '#a');
  const m = await page.evaluate(() => {
    const el = document.getElementById('a');
    const root = el.shadowRoot;
    const lab = root.querySelector('.lab');
    const plot = root.querySelector('.hm-plot');
    const cs = (x) => getComputedStyle(x);
    const host = document.getElementById('host-text');
    return {
      hostDisplay: cs(el).display,
      hostWidth: el.getBoundingClientRect().width,
      hostBorder: cs(el).borderTopWidth,
      labFont: cs(lab).fontSize,
      labFamily: cs(lab).fontFamily,
      labTransform: cs(lab).textTransform,
      title: cs(root.querySelector('h2')).fontSize,
      step: cs(root.querySelector('.stepper button')).fontSize,
      plotWidth: plot.getBoundingClientRect().width,
      canvasMargin: cs(root.querySelector('canvas')).marginTop,
      hostTextBg: cs(host).backgroundColor,
      hostTextFont: cs(host).fontSize,
    };
  });
  assert.equal(m.hostDisplay, 'block');
  assert.ok(m.hostWidth > 900, `element width ${m.hostWidth}`);
  assert.equal(m.hostBorder, '0px');
  assert.equal(m.labFont, '16px');
  assert.doesNotMatch(m.labFamily, /Comic/);
  assert.equal(m.labTransform, 'none');
  assert.ok(parseFloat(m.title) <= 24, `title ${m.title}`);
  assert.ok(parseFloat(m.step) <= 18, `step button ${m.step}`);
  assert.ok(m.plotWidth > 150, `heatmap ${m.plotWidth} px wide`);
  assert.equal(m.canvasMargin, '0px');
  // The page's own text kept the page's CSS (no .panel background from the element's styles).
  assert.equal(m.hostTextBg, 'rgba(0, 0, 0, 0)');
  assert.equal(m.hostTextFont, '48px');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

// issue item 15: the element's look, read in its shadow root
const looks = (page, selector) =>
  page.evaluate((sel) => {
    const root = document.querySelector(sel).shadowRoot;
    const out = {};
    for (const q of ['.lab', 'h2', '.stepper button', '.lab-foot a', '.lab-foot', 'input, select']) {
      const el = root.querySelector(q);
      const cs = getComputedStyle(el);
      out[q] = [cs.color, cs.backgroundColor, cs.fontFamily, cs.borderTopColor, cs.borderTopLeftRadius];
    }
    return out;
  }, selector);

test("a host page's custom properties (--ink, --paper, --font, even --al-…) leave the element's look unchanged; a huge height is clamped with a notice", async () => {
  const plain = await openPage('test/one.html');
  await labReady(plain, '#a');
  const want = await looks(plain, '#a');
  await plain.closeAll();
  const page = await openPage('test/themed.html');
  await labReady(page, '#a');
  await labReady(page, '#tall');
  assert.deepEqual(await looks(page, '#a'), want);
  assert.equal(want['.lab'][0], 'rgb(27, 29, 35)', 'the theme ink');
  const tall = await page.evaluate(() => {
    const root = document.getElementById('tall').shadowRoot;
    const notice = root.querySelector('.notice');
    return {
      height: root.querySelector('.lab').getBoundingClientRect().height,
      notice: notice.hidden ? '' : notice.textContent,
    };
  });
  assert.equal(tall.height, 20000);
  assert.match(
    tall.notice,
    /height="99999999999999999999" is outside 120–20000 pixels: the element is 20000 pixels tall/,
  );
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

// issue item 12: the element's set() stores exactly what it checked and answers a bad call with
// the schema's message, never a TypeError; the link it writes agrees with its state.
test('<attention-lab>.set() refuses wrong JS types with a message, stores only what it checked', async () => {
  const page = await openPage('test/one.html');
  const before = await labReady(page, '#a');
  const out = await page.evaluate(() => {
    const el = document.getElementById('a');
    const calls = [
      { causal: 'false' },
      { seed: '7' },
      { dk: [4] },
      { queryTokens: 'a,b' },
      { keyPadding: [1, 0] },
      { Q: [1, 2] },
      null,
      undefined,
      'seed=7',
    ];
    const answers = calls.map((patch) => {
      try {
        return el.set(patch).map((e) => e.message);
      } catch (e) {
        return [`threw ${e.name}: ${e.message}`];
      }
    });
    const tokens = ['x', 'y'];
    const ok = el.set({ queryTokens: tokens, seed: 7, causal: true });
    tokens.push('z');
    return { answers, ok, state: el.state, link: el.shadowRoot.querySelector('.lab-foot a').href };
  });
  assert.deepEqual(out.answers, [
    ["causal: not 0 or 1, got 'false'"],
    ["seed: not an integer, got '7'"],
    ['dk: not an integer, got an array'],
    ["queryTokens: not a list, got 'a,b'"],
    ['keyPadding: items must be 0 or 1, got an array'],
    ['Q: not a list of rows, got an array'],
    ['set(): expected an object of fields to set, got null'],
    ['set(): expected an object of fields to set, got undefined'],
    ['set(): expected an object of fields to set, got string'],
  ]);
  assert.deepEqual(out.ok, []);
  assert.deepEqual(out.state.queryTokens, ['x', 'y'], 'a copy of the caller’s list');
  assert.equal(out.state.seed, 7);
  assert.equal(out.state.causal, true);
  assert.equal(out.state.dk, before.dk);
  const hash = new URL(out.link).hash;
  assert.match(hash, /[#&]seed=7(&|$)/);
  assert.match(hash, /[#&]causal=1(&|$)/);
  assert.match(hash, /[#&]queryTokens=x,y(&|$)/);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('after a first visit the tutorial and the iframe entry reload without a network', async () => {
  const page = await openPage('#lesson=pipeline&stage=weights', { serviceWorkers: 'allow' });
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
  // The service worker has kept every file of the build (the rest once the page was idle).
  await page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 60000 });
  const context = page.context();
  await context.setOffline(true);
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.attentionLab.state.stage), 'weights');
  assert.ok(await page.locator('main .hm-plot').first().isVisible());
  await page.evaluate(() => window.attentionLab.formulas()); // KaTeX, loaded on demand, from the cache
  assert.ok(await page.locator('main .katex').first().isVisible(), 'formulas drawn offline');
  // Another lesson (a chunk not loaded before) and the iframe entry, still offline.
  await page.evaluate(() => {
    location.hash = 'lesson=scaling&stage=variance&labSamples=1000';
  });
  await page.waitForFunction(
    () => window.attentionLab.state.lesson === 'scaling' && document.querySelector('main .chapter-scaling'),
    null,
    { timeout: 60000 },
  );
  await page.goto(server.url + 'embed.html#lesson=softmax&stage=overflow');
  const s = await labReady(page, '#lab');
  assert.equal(s.stage, 'overflow');
  await context.setOffline(false);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(
    page.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e)),
    [],
  );
  await page.closeAll();
});

// The saved files, opened in a blank page of their own (no policy there to load them with).
async function inspectImage(png, svg, cells) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent('<!doctype html><body></body>');
  const out = await page.evaluate(
    async ({ png, svg, cells }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, c.width, c.height).data;
      const count = new Map();
      for (let k = 0; k < px.length; k += 4) {
        const key = `${px[k]},${px[k + 1]},${px[k + 2]}`;
        count.set(key, (count.get(key) || 0) + 1);
      }
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      const hex = (rgb) =>
        `#${rgb
          .split(',')
          .map((v) => (+v).toString(16).padStart(2, '0'))
          .join('')}`;
      const fills = new Set([...doc.querySelectorAll('rect')].map((r) => (r.getAttribute('fill') || '').toLowerCase()));
      return {
        size: [c.width, c.height],
        pngCells: cells.map((rgb) => count.get(rgb) || 0),
        svgError: doc.querySelector('parsererror')?.textContent || '',
        svgRoot: doc.documentElement.nodeName,
        svgCells: cells.map((rgb) => fills.has(hex(rgb))),
        svgText: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      };
    },
    { png, svg, cells },
  );
  await context.close();
  return out;
}

test('a heatmap and a chart saved as PNG and SVG are valid files showing the figure', async () => {
  const page = await openPage('#lesson=pipeline&stage=weights&lang=en');
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 60000 });
  const map = page.locator('.map-weights .heatmap, .heatmap').first();
  // The colour of every cell, from the heatmap's own one-pixel-per-cell canvas.
  const cells = await map.evaluate((fig) => {
    const c = fig.querySelector('.hm-canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const out = [];
    for (let k = 0; k < d.length; k += 4) out.push(`${d[k]},${d[k + 1]},${d[k + 2]}`);
    return out;
  });
  const labels = await map.evaluate((fig) =>
    [...fig.querySelectorAll('.hm-rows span, .hm-cols span')].map((s) => s.textContent),
  );
  assert.ok(cells.length >= 9, `${cells.length} cells`);
  // Each figure's menu button opens its menu: PNG, SVG, Copy the numbers.
  const save = async (locator, cls) => {
    await locator.locator('button.fig-menu-button').first().click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      locator.locator(`button.${cls}`).first().click(),
    ]);
    const file = await download.path();
    return { name: download.suggestedFilename(), bytes: (await import('node:fs')).readFileSync(file) };
  };
  const png = await save(map, 'save-png');
  const svg = await save(map, 'save-svg');
  assert.match(png.name, /^attention-lab-[a-z0-9-]+\.png$/);
  assert.match(svg.name, /^attention-lab-[a-z0-9-]+\.svg$/);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(png.bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  const seen = await inspectImage(png.bytes.toString('base64'), svg.bytes.toString('utf8'), cells);
  assert.equal(seen.svgError, '');
  assert.equal(seen.svgRoot, 'svg');
  seen.pngCells.forEach((n, k) => assert.ok(n >= 100, `cell ${k} (${cells[k]}) covers ${n} pixels of the PNG`));
  seen.svgCells.forEach((ok, k) => assert.ok(ok, `cell ${k} (${cells[k]}) is a rectangle of the SVG`));
  for (const l of labels) assert.ok(seen.svgText.includes(l), `label ${l} in the SVG`);

  // A chart (the bars of the selected row): its bars and labels are in both files.
  const bars = page.locator('figure.bars').first();
  const barInfo = await bars.evaluate((fig) => ({
    fill: getComputedStyle(fig.querySelector('g.bar rect')).fill,
    labels: [...fig.querySelectorAll('.bar-label')].map((t) => t.textContent),
  }));
  const rgb = barInfo.fill.match(/\d+/g).join(',');
  const barsPng = await save(bars, 'save-png');
  const barsSvg = await save(bars, 'save-svg');
  const seenBars = await inspectImage(barsPng.bytes.toString('base64'), barsSvg.bytes.toString('utf8'), [rgb]);
  assert.ok(seenBars.pngCells[0] >= 200, `bar colour covers ${seenBars.pngCells[0]} pixels`);
  for (const l of barInfo.labels) assert.ok(seenBars.svgText.includes(l), `bar label ${l} in the SVG`);
  assert.ok(barsSvg.bytes.toString('utf8').includes('<path'), 'bars drawn as paths');

  // The stacked bar (HTML, not SVG): its segments in both files.
  await page.evaluate(() => {
    location.hash = 'lesson=softmax&stage=budget&lang=en';
  });
  const stacked = page.locator('figure.stacked').first();
  await stacked.waitFor({ timeout: 60000 });
  const segs = await stacked.evaluate((fig) =>
    [...fig.querySelectorAll('.stacked-seg:not([hidden])')].map((s) =>
      getComputedStyle(s).backgroundColor.match(/\d+/g).join(','),
    ),
  );
  assert.ok(segs.length >= 2);
  const stPng = await save(stacked, 'save-png');
  const stSvg = await save(stacked, 'save-svg');
  const seenStacked = await inspectImage(stPng.bytes.toString('base64'), stSvg.bytes.toString('utf8'), segs);
  seenStacked.pngCells.forEach((n, k) => assert.ok(n >= 50, `segment ${k} covers ${n} pixels`));
  seenStacked.svgCells.forEach((ok, k) => assert.ok(ok, `segment ${k} in the SVG`));
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

// An embedded lesson stays its lesson: no previous / next chapter links unless the author asks for
// them (navigation attribute), and the arrow-key tip goes with the step bar under hide=stepper.
test('an embedded lesson shows no chapter navigation unless asked; hide=stepper hides the arrow-key tip', async () => {
  const page = await openPage('embed.html#lesson=pipeline&stage=scores&lang=en&hide=stepper');
  await page.waitForFunction(() => document.querySelector('#lab')?.shadowRoot?.querySelector('.hm-plot'), null, {
    timeout: 60000,
  });
  const seen = await page.evaluate(() => {
    const root = document.getElementById('lab').shadowRoot;
    const shown = (el) => !!el && !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
    return {
      path: root.querySelectorAll('.chapter-path, .path-next, .path-prev').length,
      tip: shown(root.querySelector('.keys-hint')),
    };
  });
  assert.deepEqual(seen, { path: 0, tip: false });
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});
