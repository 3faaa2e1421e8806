// Motion between the pipeline's stages in headless Chromium, against the built page (dist/): the
// step's main heatmap moves from the last step's picture to its own (views/motion.js), its
// data-motion "running" then "done"; under prefers-reduced-motion nothing moves; a second step in
// the middle of a motion ends on that step's picture. The numbers at the end are checked against
// a double-precision reference (tests/js/reference.js) of vectors typed into the link, and the
// last picture against the same step drawn fresh (no motion), pixel for pixel.
// Frames are sampled with requestAnimationFrame; nothing waits a fixed time.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, settled } from './harness.js';
import { attendRef } from '../js/reference.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

// The translation example's tokens with vectors of the test's own (3 queries, 4 keys, d_k 4).
const Q = [
  [3, 0.5, 0, -1],
  [0, 3.5, 1, -0.5],
  [1, 0, 3, -1],
];
const K = [
  [0.2, 0, 0.1, 1],
  [1, 0.2, 0.1, 0],
  [0.1, 1, 0.4, 0],
  [0.4, 0, 1, 0.1],
];
const V = [
  [0, 0, 0, 1],
  [1, 0, 0.2, 0],
  [0, 1, 0.1, 0],
  [0.5, 0, 1, 0],
];
const PADDING = [false, true, false, false]; // the key "cat" is padding: its column is masked
const rows = (m) => m.map((r) => r.join(',')).join(';');
const LINK =
  `lesson=pipeline&lang=en&preset=cat-fish&inputMode=typed&dk=4&Q=${rows(Q)}&K=${rows(K)}&V=${rows(V)}` +
  `&keyPadding=${PADDING.map(Number).join(',')}`;
const REF = attendRef({ query: Q, key: K, value: V, keyPadding: PADDING });

// Clicks the step button of `stage` (after `first`, in the same task, when given) and samples the
// shown step's heatmaps right after the click and then once per animation frame until none of
// them is moving: [{ motion: [data-motion of each], cells: [hash], text: [hash] }], and every
// data-motion value written meanwhile (`written`).
function stepAndSample(page, stage, { first = null, framesBetween = 0 } = {}) {
  return page.evaluate(
    async ({ stage, first, framesBetween }) => {
      // the shown step's heatmaps, the main one first
      const FIGURES = () => {
        const sec = document.querySelector('section[data-step]:not([hidden])');
        const main = sec.querySelector('[data-figure="main"] figure.heatmap');
        return [main, ...[...sec.querySelectorAll('figure.heatmap')].filter((f) => f !== main)];
      };
      const hash = (canvas) => {
        const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let h = 0;
        for (let k = 0; k < d.length; k++) h = (Math.imul(h, 31) + d[k]) | 0;
        return `${canvas.width}x${canvas.height}:${h}`;
      };
      const written = [];
      const seen = new MutationObserver((list) => {
        for (const m of list) written.push(m.target.dataset.motion);
      });
      seen.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-motion'] });
      const sample = () => {
        const figs = FIGURES();
        return {
          motion: figs.map((f) => f.dataset.motion),
          cells: figs.map((f) => hash(f.querySelector('.hm-canvas'))),
          text: figs.map((f) => hash(f.querySelector('.hm-text'))),
        };
      };
      const frame = () => new Promise(requestAnimationFrame);
      const click = (s) => document.querySelector(`.stepper .step[data-stage="${s}"]`).click();
      if (first) {
        click(first);
        for (let k = 0; k < framesBetween; k++) await frame();
      }
      click(stage);
      const samples = [sample()];
      do {
        await frame();
        samples.push(sample());
      } while (samples.at(-1).motion.includes('running'));
      // two more frames: nothing may change after the motion has ended
      for (let k = 0; k < 2; k++) {
        await frame();
        samples.push(sample());
      }
      seen.disconnect();
      return { samples, written };
    },
    { stage, first, framesBetween },
  );
}

// The shown step's heatmaps as a fresh page draws them at `stage` (no motion): [{ cells, text }].
async function freshPicture(stage, options = {}) {
  const page = await lab.open(`${LINK}&stage=${stage}`, options);
  await settled(page);
  const { samples } = await stepAndSample(page, stage); // the step already shown: nothing moves
  assert.deepEqual(page.errors, []);
  await page.close();
  return samples.at(-1);
}

// The numbers of one heatmap, read from its accessible table (a number as the page prints it:
// "−0.60", "−∞").
async function readTable(page, map) {
  const toggle = page.locator(`.map-${map} .hm-toggle`);
  await toggle.click();
  const text = await page.$eval(`.map-${map} table`, (t) =>
    [...t.tBodies[0].rows].map((r) => [...r.cells].slice(1).map((c) => c.textContent)),
  );
  await toggle.click();
  return text.map((r) =>
    r.map((s) => {
      const t = s.replace('\u2212', '-');
      return t === '-\u221e' ? -Infinity : Number(t);
    }),
  );
}

// Shown to 2 decimals: within 0.006 of the reference (−∞ exactly).
function assertClose(shown, expected, what) {
  assert.equal(shown.length, expected.length, `${what}: rows`);
  shown.forEach((r, i) =>
    r.forEach((x, j) => {
      const e = expected[i][j];
      if (!Number.isFinite(e)) assert.equal(x, e, `${what}[${i}][${j}]`);
      else assert.ok(Math.abs(x - e) <= 0.006, `${what}[${i}][${j}]: shown ${x}, expected ${e}`);
    }),
  );
}

// The frames of one step change: it started moving at the click, moved through at least one
// picture that is neither the first nor the last, and ended "done" on `end` (which it kept).
function assertMoved(samples, part, end, what) {
  const first = samples[0],
    last = samples.at(-1);
  assert.equal(first.motion[0], 'running', `${what}: the main figure moves from the click`);
  assert.ok(
    samples.some((s) => s.motion[0] === 'running' && s[part][0] !== first[part][0] && s[part][0] !== last[part][0]),
    `${what}: at least one in-between picture (${part})`,
  );
  assert.ok(
    last.motion.every((m) => m === 'done'),
    `${what}: done at the end (${last.motion})`,
  );
  assert.deepEqual(last.cells, end.cells, `${what}: the last colours are the step's as drawn without motion`);
  assert.deepEqual(last.text, end.text, `${what}: the last values are the step's as drawn without motion`);
  assert.deepEqual(samples.at(-3), last, `${what}: nothing changes once done`);
}

test('from one step to the next the main heatmap moves, then ends on the engine’s numbers', async () => {
  const page = await lab.open(`${LINK}&stage=scores`);
  await settled(page);
  // Scores -> scale: the values shrink by 1/√d_k (the colours keep their scale: only the text moves).
  let { samples } = await stepAndSample(page, 'scaled');
  assertMoved(samples, 'text', await freshPicture('scaled'), 'scores -> scaled');
  assertClose(await readTable(page, 'scaled'), REF.scaled, 'scaled vs reference');
  // Mask -> softmax: each row passes through its exponentials to weights that sum to 1.
  await page.click('.step[data-stage="masked"]');
  await settled(page);
  ({ samples } = await stepAndSample(page, 'weights'));
  assertMoved(samples, 'cells', await freshPicture('weights'), 'masked -> weights');
  const w = await readTable(page, 'weights');
  assertClose(w, REF.weights, 'weights vs reference');
  w.forEach((r, i) => assert.ok(Math.abs(r.reduce((a, b) => a + b, 0) - 1) <= 0.02, `row ${i} sums to 1`));
  // Softmax -> weighted sum: the output (the last of the three heatmaps) fills in row by row.
  ({ samples } = await stepAndSample(page, 'output'));
  const out = samples.map((s) => ({ ...s, motion: [s.motion[2]], cells: [s.cells[2]], text: [s.text[2]] }));
  const end = await freshPicture('output');
  assertMoved(out, 'cells', { cells: [end.cells[2]], text: [end.text[2]] }, 'weights -> output');
  assert.deepEqual(samples.at(-1).cells, end.cells, 'every heatmap of the weighted sum as drawn without motion');
  assertClose(await readTable(page, 'output'), REF.output, 'output vs reference');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a new selection over the same numbers draws no heatmap again; a motion it cuts short still ends on the step’s picture', async () => {
  const page = await lab.open(`${LINK}&stage=output`);
  await settled(page);
  const calls = await page.evaluate(async () => {
    let n = 0;
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (...args) {
      n += 1;
      return fillText.apply(this, args);
    };
    const frame = () => new Promise(requestAnimationFrame);
    const lab = window.attentionLab;
    const count = async (patch) => {
      n = 0;
      lab.set(patch);
      await frame();
      return n;
    };
    return {
      select: await count({ selRow: 1, selCol: 2 }),
      again: await count({ selRow: 2, selCol: -1 }),
      temperature: await count({ temperature: 0.5 }),
    };
  });
  assert.equal(calls.select, 0, 'a new selected cell draws no value again');
  assert.equal(calls.again, 0, 'a new selected row draws no value again');
  assert.ok(calls.temperature >= 3 * 4, `new weights draw the values again (${calls.temperature} texts)`);
  // weights -> output, cut short by a new selection: the canvases end on the output step's picture
  await page.click('.step[data-stage="weights"]');
  await settled(page);
  const cut = await page.evaluate(async () => {
    const frame = () => new Promise(requestAnimationFrame);
    document.querySelector('.stepper .step[data-stage="output"]').click();
    await frame();
    await frame();
    const moving = !!document.querySelector('section[data-step]:not([hidden]) figure.heatmap[data-motion="running"]');
    window.attentionLab.set({ selRow: 1, selCol: 2 });
    return moving;
  });
  assert.ok(cut, 'the selection came while the output was moving');
  const { samples } = await stepAndSample(page, 'output');
  const end = await freshPicture('output', {});
  const fresh = await lab.open(`${LINK}&stage=output&temperature=0.5&selRow=1&selCol=2`);
  await settled(fresh);
  const want = (await stepAndSample(fresh, 'output')).samples.at(-1);
  await fresh.close();
  assert.notDeepEqual(want.cells, end.cells, 'the temperature changed the picture');
  assert.deepEqual(samples.at(-1).cells, want.cells, 'the colours of the step drawn fresh');
  assert.deepEqual(samples.at(-1).text, want.text, 'the values of the step drawn fresh');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('under prefers-reduced-motion no step change shows an in-between picture', async () => {
  const options = { reducedMotion: 'reduce' };
  const page = await lab.open(`${LINK}&stage=scores`, options);
  await settled(page);
  for (const stage of ['scaled', 'masked', 'weights', 'output', 'scores']) {
    const { samples, written } = await stepAndSample(page, stage);
    const end = await freshPicture(stage, options);
    assert.ok(!written.includes('running'), `${stage}: data-motion never "running" (${written})`);
    samples.forEach((s, k) => {
      assert.ok(
        s.motion.every((m) => m === 'done'),
        `${stage}, frame ${k}: done`,
      );
      assert.deepEqual(s.cells, end.cells, `${stage}, frame ${k}: the final colours from the click on`);
      assert.deepEqual(s.text, end.text, `${stage}, frame ${k}: the final values from the click on`);
    });
  }
  assertClose(await readTable(page, 'scores'), REF.scores, 'scores vs reference');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a second step in the middle of a motion ends on the second step’s numbers', async () => {
  const page = await lab.open(`${LINK}&stage=scores`);
  await settled(page);
  const masked = await freshPicture('masked');
  // One frame into scores -> scaled, then the mask step; and both clicks in one task.
  for (const framesBetween of [1, 0]) {
    await page.click('.step[data-stage="scores"]');
    await settled(page);
    const { samples } = await stepAndSample(page, 'masked', { first: 'scaled', framesBetween });
    const last = samples.at(-1);
    assert.ok(
      last.motion.every((m) => m === 'done'),
      `${framesBetween} frame(s) between: done`,
    );
    assert.deepEqual(last.cells, masked.cells, `${framesBetween} frame(s) between: the mask step's colours`);
    assert.deepEqual(last.text, masked.text, `${framesBetween} frame(s) between: the mask step's values`);
    assert.equal(await page.getAttribute('.step[aria-current="step"]', 'data-stage'), 'masked');
    assertClose(await readTable(page, 'masked'), REF.masked, 'masked vs reference');
  }
  // An edit in the middle of a motion: the new numbers at once, nothing left moving.
  await page.click('.step[data-stage="scores"]');
  await settled(page);
  await page.evaluate(() => {
    document.querySelector('.stepper .step[data-stage="scaled"]').click();
    window.attentionLab.set({ selRow: 2, selCol: 0 });
  });
  const motion = await page.evaluate(() =>
    [...document.querySelectorAll('figure.heatmap')].map((f) => f.dataset.motion),
  );
  assert.ok(
    motion.every((m) => m === 'done'),
    `after the edit: ${motion}`,
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

// The long-sequences lesson's online softmax: from one block to the next the running max's line
// slides (from the top at the first block) and the current block's frame follows; the table has
// the new block's numbers at once; nothing moves under prefers-reduced-motion.
test('the online softmax moves its running max from block to block, and not under reduced motion', async () => {
  const link = 'lesson=long&lang=en&stage=tiling&longRow=9&longBlock=4&seed=42';
  // the line and the current block's frame as a fresh page draws step k
  const still = async (k, options = {}) => {
    const page = await lab.open(`${link}&longStep=${k}`, options);
    await settled(page);
    const at = await page.evaluate(() => ({
      m: document.querySelector('.long-svg .long-max').getAttribute('y1'),
      tile: document.querySelector('.long-svg .long-tile.current').getAttribute('x'),
    }));
    await page.close();
    return at;
  };
  for (const reducedMotion of ['no-preference', 'reduce']) {
    const page = await lab.open(`${link}&longStep=0`, { reducedMotion });
    await settled(page);
    for (const k of [1, 2]) {
      const end = await still(k, { reducedMotion });
      const frames = await page.evaluate(async () => {
        const fig = document.querySelector('.long-figure');
        const line = () => document.querySelector('.long-svg .long-max');
        const tile = () => document.querySelector('.long-svg .long-tile.current');
        const sample = () => ({
          motion: fig.dataset.motion,
          m: line().getAttribute('y1'),
          tile: tile().getAttribute('x'),
        });
        document.querySelector('.long-tiling .long-run .btn.primary').click();
        const out = [sample()];
        while (out.at(-1).motion === 'running') {
          await new Promise(requestAnimationFrame);
          out.push(sample());
        }
        out.push({ ...sample(), rows: document.querySelectorAll('.long-tiling .long-table tbody tr').length });
        return out;
      });
      const what = `${reducedMotion}, block ${k}`;
      const last = frames.at(-1);
      assert.equal(last.rows, k, `${what}: the table has the block at once`);
      assert.equal(last.motion, 'done', what);
      assert.equal(last.m, end.m, `${what}: the line ends where step ${k} draws it`);
      assert.equal(last.tile, end.tile, `${what}: the frame ends on block ${k - 1}`);
      const between = frames.filter((f) => f.motion === 'running' && f.m !== last.m && f.m !== frames[0].m);
      if (reducedMotion === 'reduce') {
        assert.equal(frames.length, 2, `${what}: no frame moves`);
        assert.equal(frames[0].m, end.m, `${what}: the end drawn at once`);
      } else {
        assert.equal(frames[0].motion, 'running', `${what}: moves from the click`);
        assert.ok(between.length >= 1, `${what}: at least one in-between position of the line`);
        if (k === 2)
          assert.ok(
            frames.some((f) => f.tile !== last.tile && f.tile !== frames[0].tile),
            `${what}: the frame moves`,
          );
      }
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

// The playground's training curves: after a step the loss curve's new part is drawn in from the
// point it had reached (its tip passes through points in between), and ends on the whole curve;
// under prefers-reduced-motion it is there at once.
test('a training curve draws its new points in, and not under reduced motion', async () => {
  for (const reducedMotion of ['no-preference', 'reduce']) {
    const page = await lab.open('lesson=playground&lang=en&pgLayers=1&pgD=32&pgSeed=3', { reducedMotion });
    await page.waitForFunction(() => /^Step 0 /.test(document.querySelector('.pg-status').textContent), null, {
      timeout: 60000,
    });
    for (const k of [1, 2, 3]) {
      // sampled in the page from the click on, each animation frame, until the step is drawn and done
      const frames = await page.evaluate(async () => {
        const status = document.querySelector('.pg-status');
        const fig = document.querySelector('.pg-train .pg-loss figure.line-chart');
        const before = status.textContent;
        const tip = () => {
          const d = fig.querySelector('.series path')?.getAttribute('d') || '';
          const xy = d.replace(/Z$/, '').split(/[ML]/).filter(Boolean);
          return { n: xy.length, x: Number(xy.at(-1)?.split(',')[0]) };
        };
        const out = [];
        document.querySelector('button.pg-step').click();
        const deadline = performance.now() + 60000;
        while (performance.now() < deadline) {
          await new Promise(requestAnimationFrame);
          const s = { motion: fig.dataset.motion, changed: status.textContent !== before, ...tip() };
          out.push(s);
          if (s.changed && s.motion !== 'running') break;
        }
        return out;
      });
      const what = `${reducedMotion}, step ×10 #${k}`;
      const last = frames.at(-1);
      assert.ok(last.changed, `${what}: trained`);
      assert.equal(last.motion, 'done', what);
      assert.equal(last.n, k, `${what}: the whole curve at the end (${k} points)`);
      const running = frames.filter((f) => f.motion === 'running');
      if (reducedMotion === 'reduce' || k === 1) {
        assert.equal(running.length, 0, `${what}: nothing moves`);
      } else {
        const start = frames.find((f) => f.changed); // the first frame with the new point
        assert.ok(running.length >= 1, `${what}: the new part grows`);
        assert.ok(start.x < last.x, `${what}: the tip starts at the point it had reached`);
        assert.ok(
          running.some((f) => f.x > start.x && f.x < last.x),
          `${what}: the tip passes between the last point and the new one`,
        );
      }
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
