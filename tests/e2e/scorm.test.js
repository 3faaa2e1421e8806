// The SCORM 1.2 package (scripts/build-scorm.mjs) in an LMS: the zip is unpacked and launched in a
// frame of a host page whose SCORM 1.2 API is scorm-again's runtime (from npm), as an LMS provides
// it; the host reads the mastery score from the package's manifest and keeps what the package
// commits. Completing the chapter sets lesson_status and the score; a second launch with what the
// LMS kept resumes; without an API the lesson works and reports nothing. The masks chapter's
// two-token check is the question: with the -∞ fill "passes" is right (tests/e2e/course.test.js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { buildScorm } from '../../scripts/build-scorm.mjs';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { DIST, ROOT, launchBrowser, openContext } from './harness.js';

// The LMS: scorm-again's SCORM 1.2 API on window.API, every call the package makes recorded, the
// package's page in a frame. ?cmi= starts it with what an earlier session committed.
const LMS_JS = `const params = new URLSearchParams(location.search);
window.API = new Scorm12API({ logLevel: 5, autocommit: false });
if (params.get('cmi')) window.API.loadFromJSON(JSON.parse(params.get('cmi')));
window.calls = [];
for (const name of ['LMSInitialize', 'LMSCommit', 'LMSFinish'])
  window.API.on(name, () => window.calls.push([name]));
window.API.on('LMSGetValue.cmi.*', (element) => window.calls.push(['LMSGetValue', element]));
window.API.on('LMSSetValue.cmi.*', (element, value) => window.calls.push(['LMSSetValue', element, value]));
const frame = document.createElement('iframe');
frame.title = 'lesson';
frame.src = 'pkg/scorm.html';
document.body.append(frame);
`;

let tmp, server, browser, mastery;
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-scorm-'));
  const zip = path.join(tmp, 'lab.zip');
  await buildScorm({ ids: ['masks'], mastery: 80, out: zip, build: false, dist: DIST });
  const site = path.join(tmp, 'site');
  for (const [name, bytes] of Object.entries(unzipSync(fs.readFileSync(zip)))) {
    fs.mkdirSync(path.dirname(path.join(site, 'pkg', name)), { recursive: true });
    fs.writeFileSync(path.join(site, 'pkg', name), bytes);
  }
  // as an LMS reads it from the manifest
  const manifest = strFromU8(
    unzipSync(fs.readFileSync(zip), { filter: (f) => f.name === 'imsmanifest.xml' })['imsmanifest.xml'],
  );
  mastery = /<adlcp:masteryscore>(\d+)<\/adlcp:masteryscore>/.exec(manifest)[1];
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(manifest, /adlcp:scormtype="sco" href="scorm\.html"/);
  assert.ok(manifest.includes('<file href="scorm.html"/>'));
  assert.ok(!fs.existsSync(path.join(site, 'pkg', 'sw.js')), 'no service worker in the package');
  fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>lms</title>');
  fs.writeFileSync(
    path.join(site, 'lms.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title>' +
      '<style>iframe { width: 1200px; height: 860px; border: 1px solid #999; }</style>' +
      '<script src="scorm12.js"></script></head><body><script src="lms.js"></script></body></html>',
  );
  fs.writeFileSync(path.join(site, 'lms.js'), LMS_JS);
  fs.copyFileSync(path.join(ROOT, 'node_modules/scorm-again/dist/scorm12.js'), path.join(site, 'scorm12.js'));
  server = await serveDist({ dir: site, prefix: '/' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function launch(cmi) {
  const page = await openContext(browser, { width: 1280, height: 900 });
  await page.goto(`${server.url}lms.html${cmi ? `?cmi=${encodeURIComponent(JSON.stringify(cmi))}` : ''}`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => document.getElementById('lab')?.shadowRoot.querySelector('.stepper'), null, {
    timeout: 60000,
  });
  return { page, frame };
}
const sets = (calls, element) => calls.filter((c) => c[0] === 'LMSSetValue' && c[1] === element).map((c) => c[2]);

let kept = null; // what the LMS holds after the first session
test('completing the chapter sets lesson_status (passed at the mastery score) and the score', async () => {
  const { page, frame } = await launch({ student_data: { mastery_score: mastery } });
  await page.waitForFunction(() => window.calls.some((c) => c[1] === 'cmi.core.lesson_status'));
  assert.deepEqual(sets(await page.evaluate(() => window.calls), 'cmi.core.lesson_status'), ['incomplete']);
  await frame.evaluate(() => document.getElementById('lab').set({ stage: 'two-token' }));
  await frame.waitForFunction(() => document.getElementById('lab').state.stage === 'two-token');
  await frame.evaluate(() => {
    const root = document.getElementById('lab').shadowRoot;
    const fieldset = [...root.querySelectorAll('fieldset.predict')].find((f) => f.offsetParent !== null);
    fieldset.querySelector('input[value="pass"]').click();
    fieldset.querySelector('.predict-check').click();
  });
  for (const stage of ['padding', 'causal', 'custom', 'blocked']) {
    await frame.evaluate((stage) => document.getElementById('lab').set({ stage }), stage);
    await frame.waitForFunction((stage) => document.getElementById('lab').state.stage === stage, stage);
  }
  await page.waitForFunction(() => window.API.cmi.core.lesson_status === 'passed', null, { timeout: 30000 });
  if (process.env.SCORM_SHOT) await page.screenshot({ path: process.env.SCORM_SHOT });
  await frame.evaluate(() => document.getElementById('lab').set({ stage: 'causal' }));
  await frame.waitForFunction(() => document.getElementById('lab').state.stage === 'causal');
  // the learner leaves: the frame goes, the package commits and finishes
  await page.evaluate(() => document.querySelector('iframe').remove());
  await page.waitForFunction(() => window.calls.some((c) => c[0] === 'LMSFinish'));
  const calls = await page.evaluate(() => window.calls);
  if (process.env.SCORM_LOG) fs.writeFileSync(process.env.SCORM_LOG, calls.map((c) => c.join(' ')).join('\n'));
  assert.deepEqual(calls[0], ['LMSInitialize']);
  assert.deepEqual(sets(calls, 'cmi.core.lesson_status'), ['incomplete', 'passed']);
  assert.deepEqual(sets(calls, 'cmi.core.score.raw'), ['100'], 'the first try was right; reported once');
  assert.deepEqual(sets(calls, 'cmi.core.score.min').at(-1), '0');
  assert.deepEqual(sets(calls, 'cmi.core.score.max').at(-1), '100');
  assert.deepEqual(sets(calls, 'cmi.core.exit'), ['suspend']);
  assert.match(sets(calls, 'cmi.core.session_time')[0], /^\d{2,4}:\d{2}:\d{2}$/);
  assert.deepEqual(calls.at(-1), ['LMSFinish']);
  assert.ok(calls.some((c) => c[0] === 'LMSGetValue' && c[1] === 'cmi.student_data.mastery_score'));
  kept = await page.evaluate(() => ({
    core: {
      entry: 'resume',
      lesson_status: window.API.cmi.core.lesson_status,
      score: { raw: window.API.cmi.core.score.raw, min: '0', max: '100' },
    },
    suspend_data: window.API.cmi.suspend_data,
    student_data: { mastery_score: window.API.cmi.student_data.mastery_score },
  }));
  const data = JSON.parse(kept.suspend_data);
  assert.deepEqual(data.at, { lesson: 'masks', stage: 'causal' });
  assert.equal(data.progress.masks.completed, true);
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('a second launch resumes from suspend_data: the same step, the progress kept, nothing reported again', async () => {
  assert.ok(kept, 'the first session ran');
  const { page, frame } = await launch(kept);
  const s = await frame.evaluate(() => document.getElementById('lab').state);
  assert.deepEqual([s.lesson, s.stage], ['masks', 'causal']);
  const progress = await frame.evaluate(() => document.getElementById('lab').progress);
  assert.deepEqual(progress, JSON.parse(kept.suspend_data).progress);
  assert.ok(
    await frame.evaluate(() => document.querySelector('.scorm-chapters').hidden),
    'one chapter: no chapter row',
  );
  await frame.evaluate(() => document.getElementById('lab').set({ stage: 'blocked' }));
  await page.waitForFunction(() => JSON.parse(window.API.cmi.suspend_data || '{}').at?.stage === 'blocked');
  const calls = await page.evaluate(() => window.calls);
  assert.deepEqual(sets(calls, 'cmi.core.lesson_status'), [], 'the status stays passed');
  assert.equal(await page.evaluate(() => window.API.cmi.core.lesson_status), 'passed');
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});

test('without an LMS the package is a plain page: the lesson works and says nothing', async () => {
  const page = await openContext(browser, { width: 1280, height: 900 });
  await page.goto(`${server.url}pkg/scorm.html`);
  await page.waitForFunction(() => document.getElementById('lab')?.shadowRoot.querySelector('.stepper'), null, {
    timeout: 60000,
  });
  await page.evaluate(() =>
    document.getElementById('lab').shadowRoot.querySelector('.stepper button[data-stage="causal"]').click(),
  );
  await page.waitForFunction(() => document.getElementById('lab').state.stage === 'causal');
  const seen = await page.evaluate(() => ({
    lesson: document.getElementById('lab').state.lesson,
    notice: document.getElementById('lab').shadowRoot.querySelector('.notice').hidden,
  }));
  assert.deepEqual(seen, { lesson: 'masks', notice: true });
  assert.deepEqual(page.errors, []);
  await page.closeAll();
});
