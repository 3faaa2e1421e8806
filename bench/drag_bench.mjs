// Drags in headless Chromium, 2 s each with the mouse (one pointer move per frame the page draws):
// a key's tip of the geometry figure in a circle, on the start page and in the pipeline's scores
// step (its example, and 32 random tokens at d_k 16, where the step's heatmap and formulas are
// drawn again on every move); and the softmax lesson's temperature slider, back and forth along
// its track (the bars, the formula and the entropy redrawn at every stop). Prints the frames per
// second seen by requestAnimationFrame, the frame intervals (median, p95) and the cost of one
// move: the page's attn-update mark around the chapter's update (the engine call and every draw)
// and the same with style and layout forced after it (median, p95). Needs the built page:
// ./node_modules/.bin/vite build.
//
//   node bench/drag_bench.mjs

import os from 'node:os';
import { start } from '../tests/e2e/harness.js';

const TOKENS = Array.from({ length: 32 }, (_, i) => `t${i}`).join(',');
const RANDOM = `preset=random&inputMode=random&dk=16&queryTokens=${TOKENS}&keyTokens=${TOKENS}`;
// [name, hash, what is dragged, the element whose change marks a move drawn]
const HANDLE = '.geo-handle[data-index="4"]';
const CASES = [
  ['start page', 'lesson=start', `.start-figure ${HANDLE}`, 'circle'],
  ['pipeline scores, the example', 'lesson=pipeline&stage=scores', `.pl-geometry ${HANDLE}`, 'circle'],
  ['pipeline scores, 32 tokens', `lesson=pipeline&stage=scores&${RANDOM}`, `.pl-geometry ${HANDLE}`, 'circle'],
  ['softmax temperature slider', 'lesson=softmax&stage=temperature', '#sm-temp', 'track'],
];
const SECONDS = 2;

const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor(s.length * p))];
  return { median: at(0.5), p95: at(0.95) };
};
const ms = (x) => x.toFixed(2);

const lab = await start();
try {
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, ${os.cpus().length} cores`,
  );
  console.log('case | fps | frame median / p95 ms | update median / p95 ms | update + layout median / p95 ms');
  for (const [name, hash, target, path] of CASES) {
    const page = await lab.open(`${hash}&lang=en`, { width: 1280, height: 900 });
    const dragged = page.locator(target);
    await dragged.scrollIntoViewIfNeeded();
    const box = await (path === 'circle' ? page.locator(`${target} .geo-dot`) : dragged).boundingBox();
    const cx = box.x + box.width / 2,
      cy = box.y + box.height / 2;
    // Where the mouse is at move k: around a circle, or back and forth along the slider's track.
    const at =
      path === 'circle'
        ? (k) => [cx - 40 + 40 * Math.cos(k / 12), cy + 40 * Math.sin(k / 12)]
        : (k) => [box.x + 4 + (box.width - 8) * (0.5 - 0.5 * Math.cos(k / 15)), cy];
    // Frame times and the cost of each move, recorded in the page while the mouse moves.
    await page.evaluate((target) => {
      const rec = (window.__drag = { frames: [], update: [], layout: [], on: true });
      const frame = (t) => {
        rec.frames.push(t);
        if (rec.on) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.name === 'attn-update') rec.update.push(e.duration);
      }).observe({ entryTypes: ['measure'] });
      // The style and layout the move leaves: forced once the move's update is done (the
      // handle's new position, or the slider's input event after the chapter's own handler).
      const forced = () => {
        const t0 = performance.now();
        document.body.getBoundingClientRect();
        rec.layout.push(rec.update.at(-1) + performance.now() - t0);
      };
      const el = document.querySelector(target);
      if (el.matches('input')) el.addEventListener('input', forced);
      else new MutationObserver(forced).observe(el, { attributes: true, attributeFilter: ['transform'] });
    }, target);
    await page.mouse.move(...at(0));
    await page.mouse.down();
    const t0 = Date.now();
    for (let k = 0; Date.now() - t0 < SECONDS * 1000; k++) {
      await page.mouse.move(...at(k));
      await page.evaluate(() => new Promise(requestAnimationFrame));
    }
    await page.mouse.up();
    const rec = await page.evaluate(() => {
      window.__drag.on = false;
      return window.__drag;
    });
    const gaps = rec.frames.slice(1).map((t, k) => t - rec.frames[k]);
    const fps = (1000 * gaps.length) / (rec.frames.at(-1) - rec.frames[0]);
    const f = stat(gaps),
      u = stat(rec.update),
      l = stat(rec.layout.filter(Number.isFinite));
    const pair = (x) => `${ms(x.median)} / ${ms(x.p95)}`;
    console.log(`${name} | ${fps.toFixed(1)} | ${pair(f)} | ${pair(u)} | ${pair(l)} (${rec.update.length} moves)`);
    if (page.errors.length) console.log('  errors:', page.errors);
    await page.close();
  }
} finally {
  await lab.close();
}
