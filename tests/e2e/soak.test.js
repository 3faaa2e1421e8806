// Soak: 1,000 interactions (step changes, mask toggles, slider moves, chapter switches,
// language switches) and 10,000 failing engine calls on one page, then the wasm heap and the
// JS heap after a garbage collection must be where they were, within the bounds below.
//
// The page is driven through means that do not depend on its markup: hash navigation
// (#lesson=…&stage=…), keys on the step bar and on sliders, window.attentionLab.set, and the
// controls' own roles (buttons with aria-pressed, input[type=range], the language buttons).
// Most interactions run inside the page in batches (an interaction every few milliseconds);
// a share of them are real key presses sent by the browser. About 40 s on an idle 2-core
// machine; the timeout leaves room for a busy one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';

const INTERACTIONS = 1000;
const TRUSTED_KEYS = 300; // of the interactions: real key presses on the step bar and sliders
const FAILING_CALLS = 10000;
const WARM_UP = 300; // interactions before the first measurement (caches, JIT, fonts)

// Growth allowed between the two measurements (after a warm-up, both after a full GC).
const BOUNDS = {
  wasmUsedBytes: 256 * 1024, // bytes the engine's allocator has handed out
  wasmHeapBytes: 16 * 1024 * 1024, // size of the wasm memory (grows in 64 KiB pages, never shrinks)
  jsHeapBytes: 6 * 1024 * 1024, // V8 heap in use after HeapProfiler.collectGarbage
};

// In the page: `count` interactions chosen by a seeded generator. Returns how many of each.
async function interactInPage(page, count, seed) {
  return page.evaluate(
    async ({ count, seed }) => {
      const lab = window.attentionLab;
      let s = seed >>> 0;
      const rand = (n) => {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        return s % n;
      };
      const tick = () => new Promise((r) => setTimeout(r, 0));
      const lessons = lab.schema.lesson.values;
      const done = { step: 0, mask: 0, slider: 0, chapter: 0, lang: 0 };
      const visible = (el) => el.offsetParent !== null;
      for (let i = 0; i < count; i++) {
        const roll = rand(100);
        if (roll < 35) {
          // a step: ← or → on the step bar, or a step button
          const bar = [...document.querySelectorAll('.stepper')].find(visible);
          if (bar)
            bar.dispatchEvent(
              new KeyboardEvent('keydown', { key: rand(2) ? 'ArrowRight' : 'ArrowLeft', bubbles: true }),
            );
          else {
            const steps = [...document.querySelectorAll('[data-stage]')];
            if (steps.length) steps[rand(steps.length)].click();
          }
          done.step++;
        } else if (roll < 55) {
          // a mask toggle: a pressed/unpressed toggle on the page, else the causal flag
          const toggles = [...document.querySelectorAll('main button[aria-pressed]')].filter(visible);
          if (toggles.length && rand(2)) toggles[rand(toggles.length)].click();
          else
            lab.set(rand(2) ? { causal: !lab.state.causal } : { fill: ['neg-inf', 'large-negative', 'zero'][rand(3)] });
          done.mask++;
        } else if (roll < 77) {
          // a slider: any range input on the page to a new stop, else the temperature
          const sliders = [...document.querySelectorAll('main input[type=range]')].filter(visible);
          if (sliders.length) {
            const el = sliders[rand(sliders.length)];
            const min = Number(el.min || 0),
              max = Number(el.max || 100),
              step = Number(el.step) || 1;
            el.value = String(min + step * rand(Math.floor((max - min) / step) + 1));
            el.dispatchEvent(new Event('input', { bubbles: true }));
            el.dispatchEvent(new Event('change', { bubbles: true }));
          } else {
            lab.set({ temperature: [0.25, 0.5, 1, 2, 4][rand(5)] });
          }
          done.slider++;
        } else if (roll < 92) {
          // a chapter switch through the hash, sometimes straight to a stage: every other one
          // goes back to the default chapter, so the soak does not dwell on the heaviest ones
          const lesson = done.chapter % 2 ? lab.schema.lesson.default : lessons[rand(lessons.length)];
          location.hash = `lesson=${lesson}&lang=${lab.state.lang}` + (rand(2) ? '' : `&stage=${lab.state.stage}`);
          await tick();
          done.chapter++;
        } else {
          const lang = lab.state.lang === 'en' ? 'zh' : 'en';
          const button = document.querySelector(`.lang-switch button[data-lang="${lang}"]`);
          if (button) button.click();
          else lab.set({ lang });
          done.lang++;
        }
        if (i % 25 === 24) await tick();
      }
      await tick();
      return done;
    },
    { count, seed },
  );
}

// Real key presses: ← and → on a step button, and arrow keys on a slider where there is one.
async function pressKeys(page, count) {
  let pressed = 0;
  const lessons = await page.evaluate(() => window.attentionLab.schema.lesson.values);
  for (let k = 0; pressed < count; k++) {
    const lesson = lessons[k % lessons.length];
    await page.evaluate((l) => {
      location.hash = `lesson=${l}`;
    }, lesson);
    // Polled on a timer, not on animation frames, which a busy headless page may not produce.
    // A navigation that does not land is a failure (hash navigation: hash-navigation.test.js).
    await page
      .waitForFunction(
        (l) => window.attentionLab.state.lesson === l && document.querySelector(`main article.chapter-${l}`),
        lesson,
        { polling: 100, timeout: 60000 },
      )
      .catch(async (e) => {
        const seen = await page.evaluate(() => ({ hash: location.hash, lesson: window.attentionLab.state.lesson }));
        throw new Error(
          `soak: the hash navigation to ${lesson} did not land: ${JSON.stringify(seen)} (${e.message.split('\n')[0]})`,
        );
      });
    const step = page.locator('.stepper button[data-stage]').first();
    if (await step.count()) {
      await step.focus();
      for (let j = 0; j < 20 && pressed < count; j++, pressed++)
        await page.keyboard.press(j % 7 < 4 ? 'ArrowRight' : 'ArrowLeft');
    }
    const slider = page.locator('main input[type=range]').first();
    if ((await slider.count()) && (await slider.isVisible())) {
      await slider.focus();
      for (let j = 0; j < 20 && pressed < count; j++, pressed++)
        await page.keyboard.press(j % 5 < 3 ? 'ArrowRight' : 'ArrowLeft');
    }
  }
  return pressed;
}

// In the page: `count` engine calls with bad arguments, each of which must throw AttentionError.
async function failingCalls(page, count) {
  return page.evaluate((count) => {
    const e = window.attentionLab.engine;
    const bad = [
      () => e.attend({ query: [[NaN, 1]], key: [[1, 2]], value: [[1]] }),
      () => e.attend({ query: [[1, 2]], key: [[1, 2, 3]], value: [[1]] }),
      () => e.attend({ query: [[1]], key: [[1]], value: [[1]], score: 'cosine' }),
      () => e.attend({ query: [[1]], key: [[1]], value: [[1]], temperature: 0 }),
      () => e.attend({ query: [[1]], key: [[1], [2]], value: [[1], [2]], mask: [[1, 2]] }),
      () => e.multiHead({ query: [[1, 2]], key: [[1, 2]], value: [[1, 2]], heads: 3 }),
      () => e.softmax({ scores: [[1, Infinity]] }),
      () => e.softmaxJacobian({ p: [] }),
      () => e.hardAttention({ scores: [[NaN]] }),
      () => e.gumbelSoftmax({ scores: [[1, 2]], tau: -1 }),
      () => e.sinusoidal({ n: 0, d: 4 }),
      () => e.rope({ x: [[1, 2, 3]] }),
      () => e.linear({ x: [[1, 2]], W: [[1, 2, 3]] }),
      () => e.randomMatrix({ rows: 0, cols: 2 }),
      () => e.varianceExperiment({ dk: 0 }),
      () => e.mergeVariance({ b: { raw: 1 }, bSamples: 1 }),
      () => e.queryProbe({ nKeys: 1 }),
      () => e.saturationSweep({ dks: [] }),
    ];
    const other = [];
    for (let i = 0; i < count; i++) {
      try {
        bad[i % bad.length]();
        other.push(`call ${i % bad.length} did not throw`);
      } catch (err) {
        if (err.name !== 'AttentionError') other.push(`call ${i % bad.length}: ${err.name}: ${err.message}`);
      }
      if (other.length > 5) break;
    }
    // and the engine still answers correctly: softmax of [0, ln 3] is [1/4, 3/4]
    const w = e.softmax({ scores: [[0, Math.log(3)]] }).weights.data;
    return { other, w: Array.from(w) };
  }, count);
}

test(
  `soak: ${INTERACTIONS} interactions and ${FAILING_CALLS} failing engine calls keep the heaps flat`,
  { timeout: 1200000 },
  async () => {
    const lab = await start();
    try {
      const page = await lab.open('lesson=pipeline');
      const cdp = await page.context().newCDPSession(page);
      const measure = async () => {
        await cdp.send('HeapProfiler.collectGarbage');
        const { usedSize } = await cdp.send('Runtime.getHeapUsage');
        const m = await page.evaluate(() => window.attentionLab.engine.memory());
        return { jsHeapBytes: usedSize, wasmUsedBytes: m.usedBytes, wasmHeapBytes: m.heapBytes };
      };

      await interactInPage(page, WARM_UP, 7);
      await failingCalls(page, 100);
      const before = await measure();
      const t0 = Date.now();

      const pressed = await pressKeys(page, TRUSTED_KEYS);
      const counts = { step: 0, mask: 0, slider: 0, chapter: 0, lang: 0 };
      const batch = 1000;
      for (let done = pressed, b = 0; done < INTERACTIONS; done += batch, b++) {
        const c = await interactInPage(page, Math.min(batch, INTERACTIONS - done), 1000 + b);
        for (const k in c) counts[k] += c[k];
      }
      const t1 = Date.now();
      const calls = await failingCalls(page, FAILING_CALLS);
      const t2 = Date.now();
      const after = await measure();

      const mb = (x) => (x / 1048576).toFixed(2) + ' MiB';
      console.log(
        `soak: ${pressed} key presses + in-page ${JSON.stringify(counts)} in ${((t1 - t0) / 1000).toFixed(1)} s; ` +
          `${FAILING_CALLS} failing calls in ${((t2 - t1) / 1000).toFixed(1)} s`,
      );
      for (const k of Object.keys(BOUNDS)) {
        console.log(
          `soak: ${k} before ${mb(before[k])}, after ${mb(after[k])}, growth ${mb(after[k] - before[k])} (bound ${mb(BOUNDS[k])})`,
        );
      }

      assert.deepEqual(calls.other, [], 'every failing call throws an AttentionError');
      assert.ok(
        Math.abs(calls.w[0] - 0.25) < 1e-6 && Math.abs(calls.w[1] - 0.75) < 1e-6,
        `softmax after the soak: ${calls.w}`,
      );
      for (const k of Object.keys(BOUNDS)) {
        assert.ok(after[k] - before[k] <= BOUNDS[k], `${k} grew by ${after[k] - before[k]} bytes (bound ${BOUNDS[k]})`);
      }
      assert.deepEqual(page.errors, [], 'no console errors or uncaught exceptions');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.ready), 'true');
    } finally {
      await lab.close();
    }
  },
);
