// The Transformer block chapter in headless Chromium: the numbers on the page (the heatmaps'
// tables and the LayerNorm table) against an independent double-precision reference of the
// encoder layer written here from the maths (tests/js/reference.js for multi-head attention),
// on the same inputs (the chapter's seeded embeddings and weights, drawn by the engine's RNG in
// Node); the residual question answered by keyboard in both languages; the hand-set
// cross-attention (猫 → cat, 鱼 → fish); the block diagram's boxes go to their steps; every
// control in the hash; the measured table; 360 px without sideways scrolling.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { onePage } from './visit.js';
import { readMap, answer, assertNoSideScroll } from './lesson-page.js';
import { loadEngine } from '../../web/src/engine.js';
import { multiHeadRef, linearRef, toRows } from '../js/reference.js';
import { embed, layerWeights, gruWeights, HEADS } from '../../web/src/chapters/block/logic.js';

let lab;
let at; // one page (1280 px) for the tests that need no fresh one, moved by its link
let ref;
let gruStates; // the engine's gruEncoder over the page's embeddings (Node, scalar build)
before(async () => {
  lab = await start();
  at = onePage(lab);
  // the inputs, as the page draws them (seed 42, the default sentence)
  const engine = await loadEngine({ simd: false });
  const w = layerWeights(engine, 42).encoder;
  const embedded = embed(engine, ['The', 'cat', 'eats', 'fish'], 42);
  ref = encoderRef(toRows(embedded), w);
  gruStates = toRows(engine.gruEncoder({ x: embedded, ...gruWeights(engine, 42) }).hidden);
});
after(async () => {
  await lab?.close();
});

// ---- the reference: torch.nn.TransformerEncoderLayer (post-norm, relu), in double ------------

const W = (m) => toRows(m);
function layerNormRef(X, gamma, beta, eps = 1e-5) {
  const out = [],
    mean = [],
    std = [];
  for (const row of X) {
    const m = row.reduce((s, v) => s + v, 0) / row.length;
    const v = row.reduce((s, x) => s + (x - m) ** 2, 0) / row.length;
    out.push(row.map((x, c) => ((x - m) / Math.sqrt(v + eps)) * gamma[c] + beta[c]));
    mean.push(m);
    std.push(Math.sqrt(v));
  }
  return { out, mean, std };
}
function encoderRef(x, w) {
  const sa = multiHeadRef({
    query: x,
    key: x,
    value: x,
    heads: HEADS,
    Wq: W(w.selfAttention.Wq),
    Wk: W(w.selfAttention.Wk),
    Wv: W(w.selfAttention.Wv),
    Wo: W(w.selfAttention.Wo),
  });
  const sum1 = x.map((row, i) => row.map((v, c) => v + sa.output[i][c]));
  const n1 = layerNormRef(sum1, w.norms[0].gamma, w.norms[0].beta);
  const hidden = linearRef(n1.out, W(w.ff.W1)).map((row) => row.map((v) => Math.max(0, v)));
  return { x, sa, sum1, n1, hidden };
}

const cosine = (a, b) => {
  const d = a.reduce((s, v, i) => s + v * b[i], 0);
  return d / Math.hypot(...a) / Math.hypot(...b);
};
const near = (shown, want, digits, what) => {
  const tol = 0.5 * 10 ** -digits + 1e-6;
  assert.ok(Math.abs(shown - want) <= tol, `${what}: shown ${shown}, reference ${want}`);
};

test('en: self-attention heads, the similarity map and the LayerNorm table equal the double reference', async () => {
  const page = await at('lesson=block&lang=en&stage=self');
  assert.match(await page.textContent('h2'), /Transformer block/);
  for (let k = 0; k < HEADS; k++) {
    const m = await readMap(page, `.map-bl-self-${k + 1}`);
    assert.deepEqual(m.rows, ['The', 'cat', 'eats', 'fish']);
    m.values.forEach((row, i) =>
      row.forEach((v, j) => near(v, ref.sa.heads[k].weights[i][j], 2, `head ${k + 1} [${i}][${j}]`)),
    );
  }
  // the diagram's Add & Norm box goes to its step
  await page.click('.bl-encoder .bl-box-norm >> nth=0');
  await page.waitForFunction(() => /stage=norm/.test(location.hash));
  assert.equal(await page.getAttribute('.bl-encoder .bl-box-norm >> nth=0', 'aria-current'), 'step');
  const sim = await readMap(page, '.map-bl-sim');
  sim.values.forEach((row, i) =>
    row.forEach((v, j) => near(v, cosine(ref.n1.out[i], ref.x[j]), 2, `similarity [${i}][${j}]`)),
  );
  const table = await page.$$eval('.bl-table table tbody tr', (rs) =>
    rs.map((r) => [...r.cells].slice(1).map((c) => Number(c.textContent.replace('\u2212', '-')))),
  );
  assert.equal(table.length, 4);
  table.forEach(([mb, sb, ma, sa], i) => {
    near(mb, ref.n1.mean[i], 3, `mean before ${i}`);
    near(sb, ref.n1.std[i], 3, `std before ${i}`);
    near(ma, 0, 3, `mean after ${i}`);
    near(sa, 1, 3, `std after ${i}`);
  });
  assert.deepEqual(page.errors, []);
});

test('en: the feed-forward hidden layer equals relu(LN(x + attention) W1ᵀ); gelu through the hash', async () => {
  const page = await at('lesson=block&lang=en&stage=ff');
  const m = await readMap(page, '.map-bl-ff');
  assert.equal(m.cols.length, 32);
  m.values.forEach((row, i) => row.forEach((v, j) => near(v, ref.hidden[i][j], 2, `hidden [${i}][${j}]`)));
  await page.selectOption('section[data-step="ff"] .step-side select', 'gelu');
  await page.waitForFunction(() => /blAct=gelu/.test(location.hash));
  const g = await readMap(page, '.map-bl-ff');
  assert.ok(
    g.values.flat().some((v) => v < 0),
    'gelu lets negative values through',
  );
});

for (const lang of ['en', 'zh']) {
  test(`${lang}: the residual question, answered by keyboard, and the switch in the hash`, async () => {
    const page = await lab.open(`lesson=block&lang=${lang}&stage=norm`);
    const fb = await answer(
      page,
      '[data-predict="block/residual"]',
      lang === 'en' ? 'yes, every row keeps' : '会，每一行都保住',
    );
    assert.match(fb, lang === 'en' ? /With the residual 4 of 4 rows/ : /有残差时，4 行中有 4 行/);
    const box = page.getByLabel(lang === 'en' ? 'Residual connection (x + attention)' : '残差连接（x + 注意力）');
    await box.focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => /blResidual=0/.test(location.hash));
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('zh: the hand-set cross-attention sends 猫 to cat and 鱼 to fish; n_q ≠ n_k', async () => {
  const page = await at('lesson=block&lang=zh&stage=cross&blAligned=1');
  const m = await readMap(page, '.map-bl-cross-1');
  assert.deepEqual(m.rows, ['猫', '吃', '鱼']);
  assert.deepEqual(m.cols, ['The', 'cat', 'eats', 'fish']);
  const argmax = (row) => row.indexOf(Math.max(...row));
  assert.equal(m.cols[argmax(m.values[0])], 'cat');
  assert.equal(m.cols[argmax(m.values[1])], 'eats');
  assert.equal(m.cols[argmax(m.values[2])], 'fish');
  assert.ok(m.values[0][1] > 0.8, `猫 → cat ${m.values[0][1]}`);
  // the lead names the map's shape: 3 Chinese rows over 4 English columns
  assert.match(await page.textContent('section[data-step="cross"] .step-side .about'), /\(3 × 4\)/);
});

test('stacked layers and the measured RNN table; 360 px without sideways scrolling', async () => {
  const page = await lab.open('lesson=block&lang=en&stage=parallel', { width: 360 });
  await page.waitForSelector('.map-bl-rnn[data-done="true"]'); // every state drawn
  const rnn = await readMap(page, '.map-bl-rnn');
  assert.equal(rnn.rows.length, 4);
  await page.click('.bl-measure');
  await page.waitForFunction(() => document.querySelectorAll('.bl-table table').length >= 2);
  const steps = await page.$$eval('.bl-table table', (ts) =>
    [...ts[ts.length - 1].tBodies[0].rows].map((r) => r.cells[3].textContent),
  );
  assert.deepEqual(steps, ['8', '32', '128', '512']);
  assert.match(await page.textContent('.bl-timed'), /GRU was faster at \d of 4 lengths; at n = 512/);
  await assertNoSideScroll(page, 'parallel at 360 px');
  await page.click('.bl-box-stack');
  await page.waitForFunction(() => /stage=stack/.test(location.hash));
  await assertNoSideScroll(page, 'stack at 360 px');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Records every value the GRU figure's data-shown takes from now on (window.shownSeen).
async function recordShown(page) {
  await page.evaluate(() => {
    const el = document.querySelector('.map-bl-rnn');
    window.shownSeen = [];
    new MutationObserver(() => window.shownSeen.push(el.dataset.shown)).observe(el, {
      attributes: true,
      attributeFilter: ['data-shown'],
    });
  });
}

// The states on the page (two decimals) against the engine's, row by row.
async function assertStates(page, what) {
  const m = await readMap(page, '.map-bl-rnn');
  assert.deepEqual(m.rows, ['h1 The', 'h2 cat', 'h3 eats', 'h4 fish'], what);
  m.values.forEach((row, i) =>
    row.forEach((v, j) =>
      assert.ok(Math.abs(v - gruStates[i][j]) <= 0.005 + 1e-9, `${what} h${i + 1}[${j}]: ${v} vs ${gruStates[i][j]}`),
    ),
  );
}

test("the GRU's hidden states appear one after another and are the engine's gruEncoder output", async () => {
  const page = await at('lesson=block&lang=en&stage=parallel');
  await page.waitForSelector('.map-bl-rnn[data-done="true"]');
  await recordShown(page);
  await page.click('.bl-replay');
  await page.waitForFunction(
    () => window.shownSeen.includes('1') && document.querySelector('.map-bl-rnn').dataset.done === 'true',
  );
  const seen = await page.evaluate(() => window.shownSeen);
  assert.deepEqual(
    seen.filter((k, i) => k !== seen[i - 1]),
    ['1', '2', '3', '4'],
    'one state after another, in order',
  );
  await assertStates(page, 'animated');
  assert.deepEqual(page.errors, []);
});

test('with prefers-reduced-motion the GRU states are drawn all at once', async () => {
  const page = await lab.open('lesson=block&lang=zh&stage=parallel', { reducedMotion: 'reduce' });
  await page.waitForSelector('.map-bl-rnn[data-done="true"]');
  await recordShown(page);
  await page.click('.bl-replay');
  await page.waitForFunction(() => window.shownSeen.length > 0);
  const seen = await page.evaluate(() => window.shownSeen);
  assert.deepEqual([...new Set(seen)], ['4'], 'every state at once');
  assert.equal(await page.$eval('.map-bl-rnn', (el) => el.dataset.done), 'true');
  await assertStates(page, 'reduced motion');
  assert.deepEqual(page.errors, []);
  await page.close();
});
