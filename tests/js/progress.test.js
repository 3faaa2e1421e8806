// Progress statements (web/src/hosts/progress.js) over the real chapters' steps and questions:
// a step counts once, a chapter is completed when every step was seen and every question
// answered, its score is the questions right on the first try, and a snapshot restores all that
// without reporting it again.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { chapters, loadChapter, loadedChapter } from '../../web/src/chapters/index.js';
import { createProgress } from '../../web/src/hosts/progress.js';

const chapterOf = (id) => loadedChapter(id) || chapters.find((c) => c.id === id);
let masks;
before(async () => {
  masks = await loadChapter('masks');
});

function tracker() {
  const log = [];
  const p = createProgress({ emit: (s) => log.push(s), chapterOf });
  return { p, log, verbs: () => log.map((s) => s.verb.display['en-US']) };
}
const state = (stage, lesson = 'masks') => ({ lesson, stage, lang: 'en' });
const question = {
  question: 'masks/two-token',
  text: 'Does it pass?',
  options: [
    { value: 'pass', label: 'Passes' },
    { value: 'fail', label: 'Fails' },
  ],
};

test('every step once, then the question: one completed statement with the first try as its score', () => {
  const { p, log, verbs } = tracker();
  const steps = masks.steps.map((s) => s.id);
  assert.ok(steps.length >= 3);
  for (const s of steps) p.visited(state(s));
  p.visited(state(steps[0])); // a step seen again says nothing
  assert.deepEqual(
    verbs(),
    steps.map(() => 'experienced'),
  );
  assert.equal(log[0].object.id, `urn:attention-lab:masks/step/${steps[0]}`);
  assert.equal(log[0].object.definition.name.en, masks.steps[0].title.en);
  assert.equal(log[0].object.definition.name['zh-CN'], masks.steps[0].title.zh);
  assert.deepEqual(log[0].context.contextActivities.parent, [
    { objectType: 'Activity', id: 'urn:attention-lab:masks' },
  ]);
  assert.equal(log[0].actor, undefined, 'the actor is the host’s');
  assert.ok(!Number.isNaN(Date.parse(log[0].timestamp)));

  p.answered(state('two-token'), { ...question, response: 'fail', answer: 'pass' });
  p.answered(state('two-token'), { ...question, response: 'pass', answer: 'pass' });
  assert.deepEqual(verbs().slice(steps.length), ['answered', 'completed', 'answered']);
  const [wrong, done, right] = log.slice(steps.length);
  assert.equal(wrong.object.id, 'urn:attention-lab:masks/question/two-token');
  assert.deepEqual(wrong.result, { success: false, response: 'fail', score: { raw: 0, min: 0, max: 1, scaled: 0 } });
  assert.deepEqual(wrong.object.definition.correctResponsesPattern, ['pass']);
  assert.deepEqual(
    wrong.object.definition.choices.map((c) => c.id),
    ['pass', 'fail'],
  );
  assert.equal(wrong.context.extensions['urn:attention-lab:attempt'], 1);
  assert.equal(right.context.extensions['urn:attention-lab:attempt'], 2);
  assert.equal(right.result.success, true);
  assert.equal(done.object.id, 'urn:attention-lab:masks');
  assert.equal(done.object.definition.name.en, 'Masks');
  assert.deepEqual(done.result, { completion: true, score: { raw: 0, min: 0, max: 1, scaled: 0 } });
  assert.deepEqual(p.score(['masks']), { raw: 0, max: 1, answered: true, completed: true });
});

test('answered before the last step: completed comes with that step, scored by the first try', () => {
  const { p, log, verbs } = tracker();
  const steps = masks.steps.map((s) => s.id);
  p.visited(state(steps[0]));
  p.answered(state(steps[0]), { ...question, response: 'pass', answer: 'pass' });
  for (const s of steps.slice(1)) p.visited(state(s));
  assert.equal(verbs().at(-1), 'completed');
  assert.deepEqual(log.at(-1).result.score, { raw: 1, min: 0, max: 1, scaled: 1 });
  assert.equal(verbs().filter((v) => v === 'completed').length, 1);
});

test('a snapshot restores the progress; nothing already reported is reported again', () => {
  const a = tracker();
  const steps = masks.steps.map((s) => s.id);
  for (const s of steps.slice(0, -1)) a.p.visited(state(s));
  a.p.answered(state(steps[0]), { ...question, response: 'pass', answer: 'pass' });
  const snap = JSON.parse(JSON.stringify(a.p.snapshot()));
  assert.deepEqual(snap.masks.answers, { 'masks/two-token': true });
  const b = tracker();
  b.p.restore(snap);
  b.p.visited(state(steps[0]));
  assert.deepEqual(b.verbs(), []);
  b.p.answered(state(steps[0]), { ...question, response: 'fail', answer: 'pass' }); // a second try
  b.p.visited(state(steps.at(-1)));
  assert.deepEqual(b.verbs(), ['answered', 'experienced', 'completed']);
  assert.equal(b.log[0].context.extensions['urn:attention-lab:attempt'], 2);
  assert.equal(b.log.at(-1).result.score.raw, 1, 'the first try, from the snapshot');
  // anything not of the snapshot's shape is left out
  const c = tracker();
  for (const bad of [null, 7, 'x', { masks: 3 }, { masks: { steps: 'padding', answers: [1] } }]) {
    c.p.restore(bad);
    c.p.score(['masks']);
  }
  assert.deepEqual(c.p.score(['masks']), { raw: 0, max: 1, answered: false, completed: false });
});

test('a training run that learned: passed, once per run and settings', () => {
  const { p, log, verbs } = tracker();
  const s = state('train', 'playground');
  const settings = { task: 'previous-token', layers: 1 };
  p.learned(s, { run: 'main', settings, step: 40 });
  p.learned(s, { run: 'main', settings, step: 50 });
  p.learned(s, { run: 'twin', settings: { ...settings, scale: false }, step: 90 });
  assert.deepEqual(verbs(), ['passed', 'passed']);
  assert.equal(log[0].object.id, 'urn:attention-lab:playground/run/previous-token');
  assert.deepEqual(log[0].result, { success: true, completion: true, extensions: { 'urn:attention-lab:step': 40 } });
  assert.deepEqual(log[0].context.extensions['urn:attention-lab:run'], { name: 'main', ...settings });
});

test('the start page (no steps, no questions) is never completed', () => {
  const { p, verbs } = tracker();
  p.visited(state('', 'start'));
  assert.deepEqual(verbs(), []);
  assert.deepEqual(p.score(['start']), { raw: 0, max: 0, answered: false, completed: false });
});
