// The course as a learner walks it, in headless Chromium: the root URL opens the start page with
// every chapter of the registry as a path and the progress kept in this browser; a walk by
// keyboard from there through every chapter and every step; Back and Forward restore exactly
// what was on screen (also with an edit left uncommitted in a text field); a predict-then-reveal
// question in every chapter; settings carried over from another chapter shown with a reset.
// The chapter list is read from the page (window.attentionLab.schema.lesson.values), so a new
// chapter is walked too.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import { answer, assertNoSideScroll } from './lesson-page.js';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

const stateOf = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.attentionLab.state)));
const hashOf = (page) => page.evaluate(() => location.hash);
const chaptersOf = (page) => page.evaluate(() => window.attentionLab.schema.lesson.values);
const activeIs = (page, sel) =>
  page.evaluate((s) => !!document.activeElement && document.activeElement.matches(s), sel);
// Waits for the page to show `lesson` (and `stage` when given).
const showing = (page, lesson, stage) =>
  page.waitForFunction(
    ([l, st]) => {
      const s = window.attentionLab.state;
      return s.lesson === l && (st === undefined || s.stage === st);
    },
    [lesson, stage],
  );

// Back / Forward, then the page has drawn what the address now says.
async function travel(page, dir, expect) {
  if (dir === 'back') await page.goBack();
  else await page.goForward();
  await page.waitForFunction((h) => location.hash === h, expect.hash);
  await showing(page, expect.state.lesson, expect.state.stage);
  assert.deepEqual(await stateOf(page), expect.state, `${dir} to ${expect.hash}`);
}
const snapshot = async (page) => ({ hash: await hashOf(page), state: await stateOf(page) });

for (const lang of ['en', 'zh']) {
  test(`${lang}: the root URL opens the start page, with every chapter as a path and the progress kept in this browser`, async () => {
    const page = await lab.open('', { locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    assert.match(await hashOf(page), /^#lesson=start&/);
    assert.equal(await page.textContent('main h2'), lang === 'en' ? 'Start here' : '从这里开始');
    const chapters = (await chaptersOf(page)).filter((id) => id !== 'start');
    assert.deepEqual(
      await page.$$eval('.path-item', (li) => li.map((x) => x.dataset.lesson)),
      chapters,
      'the registry, in order',
    );
    assert.match(
      await page.textContent('.start-go'),
      lang === 'en' ? /^Begin: 1\. Why attention$/ : /^开始：1\. 为什么需要注意力$/,
    );
    assert.match(
      await page.textContent('.start-progress'),
      lang === 'en' ? /not answered any question yet/ : /还没有回答过任何问题/,
    );
    assert.equal(await page.isVisible('.start-clear'), false);

    // Answer the first chapter's question, come back: the path shows it, and points on.
    await page.click('.start-go');
    await showing(page, chapters[0]);
    const [
      {
        stage,
        ids: [qid],
      },
    ] = await questionsOf(page, chapters[0]);
    await page.click(`.stepper button.step[data-stage="${stage}"]`);
    const first = await page.$eval(`[data-predict="${qid}"] .predict-option span`, (s) => s.textContent);
    await answer(page, `[data-predict="${qid}"]`, first);
    await goToChapter(page, 'start');
    await showing(page, 'start');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('attention-lab-progress')));
    const ids = Object.keys(stored);
    assert.equal(ids.length, 1);
    assert.ok(ids[0].startsWith(`${chapters[0]}/`), ids[0]);
    assert.match(
      await page.textContent(`.path-item[data-lesson="${chapters[0]}"] .path-status`),
      lang === 'en' ? /all 1 answered/ : /全部答完/,
    );
    assert.match(
      await page.textContent('.start-progress'),
      lang === 'en'
        ? /You have answered 1 of \d+ questions; [01] of your answers were right\./
        : /道题中的 1 道，其中答对 [01] 道。/,
    );
    assert.match(await page.textContent('.start-go'), lang === 'en' ? /^Continue: 2\./ : /^继续：2\./);
    assert.ok(await page.isVisible(`.path-item.next[data-lesson="${chapters[1]}"]`));
    // Forgetting the answers empties the store and the path.
    await page.click('.start-clear');
    assert.equal(await page.evaluate(() => localStorage.getItem('attention-lab-progress')), null);
    assert.match(await page.textContent('.start-go'), lang === 'en' ? /^Begin:/ : /^开始：/);
    // Nothing left this page for another address.
    const origin = new URL(lab.url).origin;
    assert.deepEqual(
      requests.filter((u) => new URL(u).origin !== origin),
      [],
    );
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(
    `${lang}: a walk by keyboard from the start page through every step of every chapter, and back to the start`,
    { timeout: 600000 },
    async () => {
      const page = await lab.open(`lang=${lang}`);
      const chapters = (await chaptersOf(page)).filter((id) => id !== 'start');
      const before = await page.evaluate(() => history.length);
      // Tab from the top of the page to the start button, Enter.
      for (let k = 0; k < 60 && !(await activeIs(page, '.start-go')); k++) await page.keyboard.press('Tab');
      assert.ok(await activeIs(page, '.start-go'), 'the start button is reached with Tab');
      await page.keyboard.press('Enter');
      let entries = 1;
      for (const [k, id] of chapters.entries()) {
        await showing(page, id);
        assert.ok(await activeIs(page, 'main h2.chapter-title'), `${id}: the focus moves to the chapter's heading`);
        const steps = await page.$$eval('.stepper button.step', (bs) => bs.map((b) => b.dataset.stage));
        assert.ok(steps.length >= 1, `${id}: steps`);
        assert.equal((await stateOf(page)).stage, steps[0]);
        // The step bar by keyboard: → through every step.
        await page.focus(`.stepper button.step[data-stage="${steps[0]}"]`);
        for (const stage of steps.slice(1)) {
          await page.keyboard.press('ArrowRight');
          await showing(page, id, stage);
          assert.equal(await page.getAttribute('.stepper .step[aria-current="step"]', 'data-stage'), stage);
        }
        entries += steps.length;
        await assertNoSideScroll(page, `${id}, last step`);
        // Under the chapter: "Next: k+2. …" (the last one leads back to the start page).
        const next = page.locator('.chapter-path .path-next');
        const label = await next.textContent();
        if (k + 1 < chapters.length) {
          const title = await page.$eval(
            `#chapter-nav a[data-lesson="${chapters[k + 1]}"] .nav-title`,
            (el) => el.textContent,
          );
          assert.equal(label, lang === 'en' ? `Next: ${k + 2}. ${title} →` : `下一章：${k + 2}. ${title} →`);
        }
        await next.focus();
        await page.keyboard.press('Enter');
      }
      await showing(page, 'start');
      // Every chapter and every step was a history entry of its own (Chromium keeps at most 50).
      assert.equal(await page.evaluate(() => history.length), Math.min(50, before + entries));
      assert.deepEqual(page.errors, []);
      await page.close();
    },
  );
}

// Follows a chapter's link in the chapter list (at 360 px the list is folded behind one button).
async function goToChapter(page, id) {
  const toggle = page.locator('#chapter-nav .nav-toggle');
  if (await toggle.isVisible()) await toggle.click();
  await page.click(`#chapter-nav a[data-lesson="${id}"]`);
}

test('Back and Forward restore exactly: chapters and steps are entries, a toggle rewrites the current one', async () => {
  const page = await lab.open('lesson=why&lang=en');
  const at = [await snapshot(page)]; // why / bottleneck
  await page.click('.step[data-stage="lookup"]');
  await showing(page, 'why', 'lookup');
  await page.click('.why-pick label:nth-child(3) input'); // a setting on this step (no new entry)
  await page.waitForFunction(() => window.attentionLab.state.whyQuery === 2);
  await page.waitForFunction(() => /whyQuery=2/.test(location.hash)); // the throttled rewrite has landed
  at.push(await snapshot(page));
  await goToChapter(page, 'masks');
  await showing(page, 'masks', 'padding');
  at.push(await snapshot(page));
  await page.click('.step[data-stage="causal"]');
  await showing(page, 'masks', 'causal');
  await page.check('input[name="mk-causal"][value="causal"]');
  await page.waitForFunction(() => window.attentionLab.state.causal === true);
  // the rewrite is throttled: wait until it has landed
  await page.waitForFunction(() => /causal=1/.test(location.hash));
  at.push(await snapshot(page));
  assert.equal(at[3].state.causal, true);
  assert.equal(at[1].state.whyQuery, 2);

  for (let k = at.length - 2; k >= 0; k--) await travel(page, 'back', at[k]);
  for (let k = 1; k < at.length; k++) await travel(page, 'forward', at[k]);
  // The causal mask is on screen again, drawn from the restored state.
  assert.equal(await page.isChecked('input[name="mk-causal"][value="causal"]'), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Back with an edit left uncommitted in a text field: no error, and the edit stays out of the restored state', async () => {
  const page = await lab.open('lesson=pipeline&lang=en&preset=cat-fish&stage=scores');
  const scores = await snapshot(page);
  await page.click('.step[data-stage="scaled"]');
  await showing(page, 'pipeline', 'scaled');
  const scaled = await snapshot(page);
  const field = page.getByLabel('Key / value tokens', { exact: true });
  await field.focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' dog'); // no Enter: not committed
  assert.match(await field.inputValue(), / dog$/);
  await travel(page, 'back', scores);
  assert.equal((await stateOf(page)).keyTokens.length, 0, 'the typed token did not reach the state');
  assert.ok(!(await hashOf(page)).includes('dog'));
  assert.equal(await page.getByLabel('Key / value tokens', { exact: true }).inputValue(), 'The cat eats fish');
  await travel(page, 'forward', scaled);
  // A committed edit is a setting of the current entry: Back then leaves the step, not the edit.
  const f2 = page.getByLabel('Key / value tokens', { exact: true });
  await f2.focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' dog');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /keyTokens=The,cat,eats,fish,dog/.test(location.hash));
  const edited = await snapshot(page);
  await travel(page, 'back', scores);
  await travel(page, 'forward', edited);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a link followed while a slider write is pending is not overwritten, and Back returns to the slider’s value', async () => {
  const page = await lab.open('lesson=softmax&lang=en&stage=temperature');
  const slider = page.locator('#sm-temp');
  await slider.focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowLeft'); // three writes in quick succession
  const T = (await stateOf(page)).temperature;
  assert.ok(T < 1, `T = ${T}`);
  await goToChapter(page, 'masks');
  await showing(page, 'masks');
  await page.goBack();
  await showing(page, 'softmax', 'temperature');
  assert.equal((await stateOf(page)).temperature, T, 'the entry kept the last slider value');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// ---- predict, then reveal, in every chapter ----------------------------------------------------

// The chapter's steps in order, each with the questions it asks: [{ stage, ids }].
async function questionsOf(page, id) {
  const steps = await page.$$eval('.stepper button.step', (bs) => bs.map((b) => b.dataset.stage));
  const out = [];
  for (const stage of steps) {
    await page.click(`.stepper button.step[data-stage="${stage}"]`);
    await showing(page, id, stage);
    const ids = await page.$$eval('[data-predict]', (els) =>
      els.filter((e) => e.offsetParent !== null).map((e) => e.dataset.predict),
    );
    if (ids.length) out.push({ stage, ids });
  }
  return out;
}

// In English: each question's Chinese wording and feedback are checked where the chapter is (the
// debug, multihead, position and language-switch tests), and this walk is one of the longest.
for (const lang of ['en']) {
  test(
    `${lang}: every chapter asks a question before it shows the engine's answer, and answers by keyboard`,
    { timeout: 600000 },
    async () => {
      // One page: from the start page to each chapter by its link, and back.
      const page = await lab.open(`lang=${lang}`);
      const chapters = (await chaptersOf(page)).filter((id) => id !== 'start');
      for (const id of chapters) {
        await goToChapter(page, id);
        await showing(page, id);
        const found = await questionsOf(page, id);
        assert.ok(found.length >= 1, `${id}: a predict-then-reveal question`);
        const { stage, ids } = found[0];
        await page.click(`.stepper button.step[data-stage="${stage}"]`);
        await showing(page, id, stage);
        const sel = `[data-predict="${ids[0]}"]`;
        assert.ok(ids[0].startsWith(`${id}/`), `${ids[0]}: named after its chapter`);
        const reveal = `[data-reveal-of="${ids[0]}"]`;
        if (await page.$(reveal)) assert.equal(await page.isVisible(reveal), false, `${id}: the answer is kept back`);
        // Check without a pick: asked to pick first.
        await page.click(`${sel} .predict-check`);
        assert.equal(
          await page.textContent(`${sel} .predict-feedback`),
          lang === 'en' ? 'Pick an answer first.' : '请先选一个答案。',
        );
        const options = await page.$$eval(`${sel} .predict-option span`, (s) => s.map((x) => x.textContent));
        const feedback = await answer(page, sel, options[0]);
        assert.match(feedback, lang === 'en' ? /^(Right\.|Not this time\.) \S/ : /^(答对了。|这次没猜中。)\S/);
        if (await page.$(reveal)) assert.equal(await page.isVisible(reveal), true, `${id}: revealed after the answer`);
        const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('attention-lab-progress')));
        assert.ok(stored[ids[0]], `${id}: progress kept`);
        assert.equal(stored[ids[0]].right, /^(Right|答对)/.test(feedback));
        await assertNoSideScroll(page, `${id}/${stage}`);
        // The chapter's data lists the question, so the start page counts it.
        await goToChapter(page, 'start');
        await showing(page, 'start');
        assert.match(
          await page.textContent(`.path-item[data-lesson="${id}"] .path-status`),
          lang === 'en' ? /answered/ : /已答|答完/,
        );
        assert.deepEqual(page.errors, [], id);
      }
      await page.close();
    },
  );
}

// ---- the questions' answers come from the engine's numbers ----------------------------------------

// Softmax in double precision (the reference the answers are checked against).
const softmaxRef = (row, T = 1) => {
  const m = Math.max(...row.map((x) => x / T));
  const e = row.map((x) => Math.exp(x / T - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
};

test('the new questions: the right option is the one a double-precision reference gives, and the answer is kept back until then', async () => {
  // Pipeline, step 1: 猫's top weight in the cat-fish example (scaled scores, T = 1).
  const { PRESETS } = await import('../../web/src/lesson/example.js');
  const p = PRESETS['cat-fish'];
  const scaled = p.K.map((k) => p.Q[0].reduce((a, x, d) => a + x * k[d], 0) / Math.sqrt(p.dk));
  const top = Math.max(...softmaxRef(scaled));
  const band = top < 0.5 ? 'below 0.5' : top > 0.9 ? 'above 0.9' : 'between 0.5 and 0.9';
  let page = await lab.open('lesson=pipeline&lang=en&preset=cat-fish&stage=scores');
  const q = '[data-predict="pipeline/top-weight"]';
  assert.match(await page.textContent(`${q} legend`), /biggest weight in the row of 猫/);
  assert.equal(await page.isVisible('.pl-top-reveal'), false);
  assert.match(await answer(page, q, band), new RegExp(`^Right\\. cat takes ${top.toFixed(3)}\\.$`));
  assert.match(await page.textContent('.pl-top-reveal'), new RegExp(`cat \\(${top.toFixed(3)}\\)`));
  // Answered, the question is locked. At T = 0.1 (set in Softmax) the same row is almost one-hot:
  // the locked question says what the engine answers for the setting on screen.
  assert.equal(await page.locator(`${q} input:enabled`).count(), 0, 'locked');
  await page.evaluate(() => window.attentionLab.set({ temperature: 0.1 }));
  const cold = Math.max(...softmaxRef(scaled, 0.1));
  assert.ok(cold > 0.9);
  await page.waitForFunction(
    (sel) =>
      /^With the settings on screen the engine’s answer is above 0\.9/.test(document.querySelector(sel).textContent),
    `${q} .predict-feedback`,
  );
  assert.deepEqual(page.errors, []);
  await page.close();

  // Softmax, step 3: a cooler T moves weight onto the top score.
  page = await lab.open('lesson=softmax&lang=en&stage=temperature');
  const row = [2.6, 1.2, 6.1, 2];
  assert.ok(softmaxRef(row, 0.1)[2] > softmaxRef(row, 1)[2]);
  assert.equal(await page.isVisible('.sm-cooler-reveal'), false);
  assert.match(await answer(page, '[data-predict="softmax/cooler"]', 'it stays the same'), /^Not this time\./);
  assert.match(
    await page.textContent('.sm-cooler-reveal'),
    new RegExp(
      `eats gets ${softmaxRef(row)[2].toFixed(3)} at T = 1 and ${softmaxRef(row, 0.1)[2].toFixed(3)} at T = 0\\.1`,
    ),
  );
  // One answer: the question is locked once answered.
  assert.equal(await page.locator('[data-predict="softmax/cooler"] input:enabled').count(), 0, 'locked');
  await page.close();

  // Masks, two-token check: −∞ and −1e9 keep the masked key out exactly; 0 lets it in.
  for (const [fill, option, right] of [
    ['neg-inf', 'yes, exactly', true],
    ['large-negative', 'yes, exactly', true],
    ['zero', 'yes, exactly', false],
  ]) {
    page = await lab.open(`lesson=masks&lang=en&preset=cat-fish&stage=two-token&fill=${fill}`);
    assert.equal(await page.isVisible('.mk-two-reveal'), false);
    const fb = await answer(page, '[data-predict="masks/two-token"]', option);
    assert.equal(fb.startsWith('Right.'), right, `${fill}: ${fb}`);
    assert.equal(await page.getAttribute('.mk-two-token .mk-note', 'data-result'), right ? 'pass' : 'fail');
    assert.equal(await page.isVisible('.mk-two-reveal'), true);
    await page.close();
  }

  // √d_k, step 2: doubling d_k doubles the variance (measured ratio near 2).
  page = await lab.open('lesson=scaling&lang=en&stage=growth&labDk=16');
  assert.equal(await page.isVisible('.lab-growth-reveal'), false);
  assert.match(await answer(page, '[data-predict="scaling/double"]', 'it doubles'), /^Right\./);
  const ratio = Number((await page.textContent('.lab-double-reveal')).match(/a ratio of (\d+(?:\.\d+)?)/)[1]);
  assert.ok(ratio > 1.8 && ratio < 2.2, `ratio ${ratio}`);
  await page.close();

  // Practice: softmax over the last axis makes each row sum to 1.
  page = await lab.open('lesson=practice&lang=en&causal=1');
  assert.match(await answer(page, '[data-predict="practice/softmax-axis"]', 'each row'), /^Right\./);
  assert.match(await page.textContent('.pr-sums'), /rows 1\.0000, 1\.0000, 1\.0000;/);
  await page.close();
});

// ---- answers after questions -------------------------------------------------------------------

test('the hand-check preset keeps the engine’s weights back, and Softmax starts with the hand check', async () => {
  const page = await lab.open('lesson=pipeline&lang=en&preset=hand-check&stage=weights');
  // The box that asks for the learner's own weights is on screen; no weight is.
  assert.equal(await page.isVisible('.guess-box'), true);
  for (const sel of ['.pl-main', '.pl-more', '.bars-box', '.formula.live'])
    assert.equal(await page.isVisible(sel), false, `${sel} kept back`);
  assert.ok(!(await page.evaluate(() => document.querySelector('main').innerText)).includes('0.949'));
  await page.click('.hand-check-show');
  await page.waitForSelector('.pl-main', { state: 'visible' });
  assert.ok((await page.evaluate(() => document.querySelector('main').innerText)).includes('0.949'));
  assert.equal(await page.isVisible('.hand-check-show'), false);
  // The Softmax chapter opens on the hand check, and no weight of the row is on screen before an answer.
  await goToChapter(page, 'softmax');
  await showing(page, 'softmax', 'hand-check');
  assert.equal(await page.getAttribute('.stepper li:first-child .step', 'data-stage'), 'hand-check');
  assert.ok(!(await page.evaluate(() => document.querySelector('main').innerText)).includes('0.949'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

// ---- settings carried from another chapter ---------------------------------------------------------

for (const lang of ['en', 'zh']) {
  test(`${lang}: a temperature set in Softmax is shown in Masks and the Pipeline with a reset; a fill set in Masks is shown in the Pipeline`, async () => {
    const page = await lab.open(`lesson=softmax&lang=${lang}&stage=temperature`, { width: 360 });
    assert.equal(await page.isVisible('.carried'), false, 'no line on the step that sets T');
    await page.evaluate(() => window.attentionLab.set({ temperature: 0.1 }));
    await page.click('.stepper .step[data-stage="budget"]');
    await page.waitForSelector('.carried [data-setting="temperature"]', { state: 'visible' });
    await goToChapter(page, 'masks');
    await showing(page, 'masks');
    const line = '.carried [data-setting="temperature"]';
    assert.match(await page.textContent(line), lang === 'en' ? /temperature T = 0\.1/ : /温度 T = 0\.1/);
    await assertNoSideScroll(page, 'masks with a carried setting');
    // Masks has its own fill control: a 0 fill is not "carried" here, but it is in the Pipeline.
    await page.click('input[name="mk-fill"][value="zero"]');
    assert.equal(await page.isVisible('.carried [data-setting="fill"]'), false);
    await goToChapter(page, 'pipeline');
    await showing(page, 'pipeline');
    assert.match(
      await page.textContent('.carried [data-setting="fill"]'),
      lang === 'en' ? /masked scores filled with 0/ : /被屏蔽的分数填成 0/,
    );
    assert.ok(await page.isVisible(line));
    // Reset, by keyboard: the setting returns to its default and the line goes.
    await page.focus(`${line} .carried-reset`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.attentionLab.state.temperature === 1);
    assert.equal(await page.isVisible(line), false);
    await page.click('.carried [data-setting="fill"] .carried-reset');
    await page.waitForFunction(() => window.attentionLab.state.fill === 'neg-inf');
    assert.equal(await page.isVisible('.carried'), false);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
