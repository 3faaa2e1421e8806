// Hash navigation in headless Chromium: whatever the learner puts in the address (a typed or
// pasted hash, a link, Back or Forward) is what the page ends up showing, also when it comes
// right after a control was moved (the page's rewrite of the hash is then still pending: it
// writes at most one every 200 ms) and while the chapter it asks for is still loading.
//
// Nothing here waits on the clock for the page: a chapter's code is held at the network (the
// test's route) until the test lets it through, so "the chapter is still loading" is certain,
// not a matter of speed; the page is ready when it says so (data-ready, window.attentionLab), and
// a navigation has landed when the page draws what the hash asks for, and a rewrite of the hash
// is over when <html> no longer carries data-hash-pending.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { start, ready, DIST } from './harness.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const stateOf = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.attentionLab.state)));
const snapshot = async (page) => ({ hash: await page.evaluate(() => location.hash), state: await stateOf(page) });

// Holds the requests for a chapter's own chunk (assets/<id>-<hash>.js) until release() is called.
// The chapter must not have loaded in the page yet (else nothing would be held).
async function hold(page, id) {
  const chunk = new RegExp(`/assets/${id}-[\\w-]+\\.js$`);
  const fetched = await page.evaluate(
    (src) => performance.getEntriesByType('resource').some((e) => new RegExp(src).test(e.name)),
    chunk.source,
  );
  assert.equal(fetched, false, `the ${id} chapter has not loaded yet`);
  let release, requested;
  const released = new Promise((r) => {
    release = r;
  });
  const asked = new Promise((r) => {
    requested = r;
  });
  await page.route(chunk, async (route) => {
    requested(route.request().url());
    await released;
    await route.continue();
  });
  return { asked, release };
}

// In the page, in one go: unless `move` is false, a control moved twice (a range slider of the
// chapter, else the temperature through the state), so a rewrite of the hash is pending; then
// the navigation (a
// list of hashes set one after the other, each once the page has seen the one before; or
// 'back'); then until no rewrite is pending (one from before the navigation has been dropped or
// has landed). Returns the address's hash at that moment.
function moveThenGo(page, go, { move = true } = {}) {
  return page.evaluate(
    async ({ go, move }) => {
      const lab = window.attentionLab;
      const slider = [...document.querySelectorAll('main input[type=range]')].find((el) => el.offsetParent !== null);
      for (const k of move ? [1, 2] : []) {
        if (slider) {
          slider.value = String(k % 2 ? Number(slider.min) : Number(slider.max));
          slider.dispatchEvent(new Event('input', { bubbles: true }));
          slider.dispatchEvent(new Event('change', { bubbles: true }));
        } else {
          lab.set({ temperature: k % 2 ? 0.5 : 2 });
        }
      }
      const seen = () => new Promise((r) => window.addEventListener('hashchange', r, { once: true }));
      if (go === 'back') history.back();
      else {
        for (const [i, h] of go.entries()) {
          const change = seen();
          location.hash = h;
          if (i < go.length - 1) await change;
        }
      }
      if (go === 'back') await new Promise((r) => window.addEventListener('hashchange', r, { once: true }));
      // any rewrite pending from before the navigation has been dropped or has landed
      await new Promise((r) => {
        const tick = () =>
          document.documentElement.hasAttribute('data-hash-pending') ? requestAnimationFrame(tick) : r();
        tick();
      });
      return location.hash;
    },
    { go, move },
  );
}

// Waits until the page shows the state `want` asks for (lesson, stage, lang, any field): the
// state, the chapter's article, the current step and the address all agree.
async function landed(page, want) {
  await page.waitForFunction((w) => {
    const lab = window.attentionLab;
    if (!lab || document.documentElement.dataset.ready !== 'true') return false;
    const s = lab.state;
    if (!Object.entries(w).every(([k, v]) => s[k] === v)) return false;
    if (!document.querySelector(`main article.chapter-${s.lesson}`)) return false;
    if (s.stage && !document.querySelector(`.stepper .step[aria-current="step"][data-stage="${s.stage}"]`))
      return false;
    if (document.documentElement.lang !== (s.lang === 'zh' ? 'zh-CN' : 'en')) return false;
    const h = new URLSearchParams(location.hash.slice(1));
    return h.get('lesson') === s.lesson && h.get('lang') === s.lang && (h.get('stage') ?? '') === s.stage;
  }, want);
}

test('a hash set right after a control moved lands, also while its chapter is still loading', async () => {
  const page = await lab.open('lesson=softmax&stage=temperature&lang=en');
  const scaling = await hold(page, 'scaling');
  const shown = await moveThenGo(page, ['lesson=scaling&lang=zh']);
  await scaling.asked;
  assert.equal(shown, '#lesson=scaling&lang=zh', 'while its chapter loads, the address keeps the hash the learner set');
  scaling.release();
  await landed(page, { lesson: 'scaling', lang: 'zh' });
  const s = await stateOf(page);
  assert.equal(s.stage, 'variance', 'the chapter opens on its first step');
  assert.equal(s.temperature, 1, 'nothing of the state before is mixed in');
  // The page answers its controls afterwards.
  await page.click('.stepper button.step[data-stage="growth"]');
  await landed(page, { lesson: 'scaling', stage: 'growth', lang: 'zh' });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Back and Forward right after a control moved land, also while the chapter is still loading', async () => {
  const page = await lab.open('lesson=pipeline&stage=scaled&lang=en');
  const first = await snapshot(page);
  await page.evaluate(() => {
    location.hash = 'lesson=softmax&stage=temperature&lang=en';
  });
  await landed(page, { lesson: 'softmax', stage: 'temperature' });
  // A new document on the same history: the pipeline's chapter has not loaded in it.
  await page.reload();
  await ready(page);
  const pipeline = await hold(page, 'pipeline');
  const shown = await moveThenGo(page, 'back');
  await pipeline.asked;
  assert.equal(shown, first.hash, 'while its chapter loads, the address keeps the entry Back went to');
  pipeline.release();
  await landed(page, { lesson: 'pipeline', stage: 'scaled' });
  assert.deepEqual(await snapshot(page), first, 'Back restores the entry exactly');
  await page.goForward();
  await landed(page, { lesson: 'softmax', stage: 'temperature' });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('several hashes in a row while their chapters load: the last one wins', async () => {
  const page = await lab.open('lesson=why&stage=lookup&lang=en');
  const [masks, position, softmax] = [
    await hold(page, 'masks'),
    await hold(page, 'position'),
    await hold(page, 'softmax'),
  ];
  const shown = await moveThenGo(page, [
    'lesson=masks&stage=causal',
    'lesson=position&lang=zh',
    'lesson=softmax&stage=budget&lang=en',
  ]);
  for (const p of [masks, position, softmax]) await p.asked;
  assert.equal(
    shown,
    '#lesson=softmax&stage=budget&lang=en',
    'while the chapters load, the address keeps the last hash',
  );
  softmax.release();
  await landed(page, { lesson: 'softmax', stage: 'budget', lang: 'en' });
  masks.release();
  position.release();
  // Once the older chapters have loaded (their modules evaluated in the page), the page still
  // shows the last hash.
  for (const p of [masks, position]) await page.evaluate((u) => import(u), await p.asked);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  await landed(page, { lesson: 'softmax', stage: 'budget', lang: 'en' });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a hash set back to what is on screen while another chapter loads: the page stays and answers its controls', async () => {
  const page = await lab.open('lesson=why&stage=lookup&lang=en');
  const here = await snapshot(page);
  const masks = await hold(page, 'masks');
  const shown = await moveThenGo(page, ['lesson=masks&stage=causal', here.hash.slice(1)], { move: false });
  await masks.asked;
  assert.equal(shown, here.hash);
  // The controls of the chapter on screen still change the state.
  await page.click('.why-pick label:nth-child(3) input');
  assert.equal((await stateOf(page)).whyQuery, 2, 'the page took the click');
  masks.release();
  await page.evaluate((u) => import(u), await masks.asked);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  await landed(page, { lesson: 'why', stage: 'lookup', lang: 'en', whyQuery: 2 });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a hash set while the page itself is still loading wins over the one it opened with', async () => {
  const context = await lab.browser.newContext({ locale: 'en-US', serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  let release;
  const released = new Promise((r) => {
    release = r;
  });
  let requested;
  const asked = new Promise((r) => {
    requested = r;
  });
  await page.route(/\/assets\/pipeline-[\w-]+\.js$/, async (route) => {
    requested();
    await released;
    await route.continue();
  });
  await page.goto(lab.url + '#lesson=pipeline&lang=en', { waitUntil: 'commit' });
  await asked; // the page has read its hash and is loading its chapter
  await page.waitForFunction(() => document.getElementById('site-tagline').textContent !== '');
  await page.evaluate(() => {
    location.hash = 'lang=zh&lesson=why';
  });
  // The why chapter loaded in the page (whoever asks for it next has it at once), then the
  // page's own chapter is let through.
  const why = fs.readdirSync(path.join(DIST, 'assets')).find((f) => /^why-[\w-]+\.js$/.test(f));
  await page.evaluate((u) => import(u), new URL(`assets/${why}`, lab.url).href);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
  release();
  await ready(page);
  const s = await stateOf(page);
  assert.deepEqual([s.lesson, s.lang], ['why', 'zh'], 'the page opens on the hash set while it loaded');
  await landed(page, { lesson: 'why', lang: 'zh' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('Back and Forward between two steps of a training chapter keep its runs: nothing trains again', async () => {
  const page = await lab.open('lesson=seq2seq&stage=lengths&s2Task=translate&s2Step=20&lang=en');
  const status = () => page.textContent('.s2-status');
  const reached = () => document.querySelector('.s2-status')?.textContent.startsWith('Step 20 ·');
  await page.waitForFunction(reached, null, { timeout: 120000 }); // the link replays the run to step 20
  await page.click('.stepper button.step[data-stage="race"]');
  await landed(page, { lesson: 'seq2seq', stage: 'race' });
  await page.goBack();
  await landed(page, { lesson: 'seq2seq', stage: 'lengths' });
  // A chapter mounted again would be replaying from step 0 here.
  assert.match(await status(), /^Step 20 ·/, 'Back keeps the runs where they were');
  await page.goForward();
  await landed(page, { lesson: 'seq2seq', stage: 'race' });
  assert.match(await status(), /^Step 20 ·/, 'and so does Forward');
  assert.deepEqual(page.errors, []);
  await page.close();
});
