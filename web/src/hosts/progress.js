// Progress a course can grade: what the learner did in the lessons, as statements shaped like
// xAPI's (https://github.com/adlnet/xAPI-Spec), handed to whatever holds the lesson. The element
// dispatches each one as `attention-lab-progress`, embed.html posts it to its parent
// ({ type: 'progress', statement }), the notebook widget sends it to its model, the SCORM package
// turns it into cmi.core values. Nothing is sent anywhere by the lesson itself.
//
//   const progress = createProgress({ emit: (statement) => ..., chapterOf: (id) => chapter });
//   progress.visited(state)                 // the step on screen (after every change)
//   progress.answered(state, { question, text, options, response, answer })   // a guess checked
//   progress.learned(state, { run, settings, step })   // a training run reached "learned"
//   progress.snapshot() -> plain JSON; progress.restore(snapshot)   // kept by a host (SCORM)
//   progress.score(lessons) -> { raw, max, answered, completed }  // over the given lessons (scoreOf)
//
// The statements (README, "Use it in your course"):
//   { verb, object, result?, context, timestamp }, with no actor: the course page knows who the
//   learner is and adds it.
//   verb        experienced  a step seen for the first time   object: the step
//               answered     a predict-then-reveal answer     object: the question (a choice)
//               completed    a chapter whose every step was seen and every question answered;
//                            score: its questions right on the first try   object: the chapter
//               passed       a training run that reached "learned"   object: the run's task
//   object.id   urn:attention-lab:<lesson>, …:<lesson>/step/<stage>,
//               …:<lesson>/question/<name> (its question id masks/two-token), …:<lesson>/run/<task>
//   result      { success, response, score: { raw, min, max, scaled }, completion } as the kind has
// A step, an answer's first try and a chapter's completion count once per tracker (a host that
// keeps a snapshot restores them, and nothing is reported again).

import { HTML_LANG } from '../text/i18n.js';

const ACTIVITY = 'urn:attention-lab:';
const VERB = (name) => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { 'en-US': name } });
const VERBS = Object.fromEntries(['experienced', 'answered', 'completed', 'passed'].map((name) => [name, VERB(name)]));
const TYPE = {
  lesson: 'http://adlnet.gov/expapi/activities/lesson',
  step: 'http://adlnet.gov/expapi/activities/module',
  question: 'http://adlnet.gov/expapi/activities/cmi.interaction',
  run: 'http://adlnet.gov/expapi/activities/simulation',
};
// Extensions (IRIs of our own): an answer's attempt (1 = the first try), a run's step and settings.
const EXTENSION = { attempt: `${ACTIVITY}attempt`, step: `${ACTIVITY}step`, run: `${ACTIVITY}run` };

const activityId = {
  lesson: (lesson) => `${ACTIVITY}${lesson}`,
  step: (lesson, stage) => `${ACTIVITY}${lesson}/step/${stage}`,
  // a question's id is '<lesson>/<name>' (its chapter's meta lists it)
  question: (question) => `${ACTIVITY}${question.replace('/', '/question/')}`,
  run: (lesson, task) => `${ACTIVITY}${lesson}/run/${task}`,
};

// A title { en, zh } as an xAPI language map.
const names = (title) =>
  Object.fromEntries(
    Object.entries(title)
      .filter(([lang]) => HTML_LANG[lang])
      .map(([lang, text]) => [HTML_LANG[lang], text]),
  );

function statement(verb, object, state, { result, extensions } = {}) {
  const lesson = { objectType: 'Activity', id: activityId.lesson(state.lesson) };
  const context = { language: HTML_LANG[state.lang] };
  if (object.id !== lesson.id) context.contextActivities = { parent: [lesson] };
  if (extensions) context.extensions = extensions;
  return {
    verb: VERBS[verb],
    object: { objectType: 'Activity', ...object },
    ...(result ? { result } : {}),
    context,
    timestamp: new Date().toISOString(),
  };
}

const score = (raw, max) => ({ raw, min: 0, max, scaled: max ? raw / max : 0 });

export function createProgress({ emit, chapterOf }) {
  // lesson -> { steps: Set of stages seen, answers: Map question -> { first: right on the first
  // try, tries }, completed, runs: Set of run keys learned }
  let lessons = new Map();
  const of = (lesson) => {
    if (!lessons.has(lesson)) lessons.set(lesson, { steps: new Set(), answers: new Map(), completed: false });
    return lessons.get(lesson);
  };
  const runsLearned = new Set();

  // A chapter is completed once every step was seen and every question answered.
  function checkCompleted(state) {
    const chapter = chapterOf(state.lesson);
    const steps = (chapter.steps || []).map((st) => st.id);
    const questions = chapter.questions || [];
    const p = of(state.lesson);
    if (p.completed || !steps.length || !steps.every((s) => p.steps.has(s))) return;
    if (!questions.every((q) => p.answers.has(q))) return;
    p.completed = true;
    const raw = questions.filter((q) => p.answers.get(q).first).length;
    emit(
      statement(
        'completed',
        {
          id: activityId.lesson(state.lesson),
          definition: { type: TYPE.lesson, name: names(chapter.title) },
        },
        state,
        { result: { completion: true, score: score(raw, questions.length) } },
      ),
    );
  }

  function visited(state) {
    const chapter = chapterOf(state.lesson);
    const step = (chapter.steps || []).find((st) => st.id === state.stage);
    if (!step) return;
    const p = of(state.lesson);
    if (p.steps.has(step.id)) return;
    p.steps.add(step.id);
    emit(
      statement(
        'experienced',
        {
          id: activityId.step(state.lesson, step.id),
          definition: { type: TYPE.step, name: names(step.title) },
        },
        state,
      ),
    );
    checkCompleted(state);
  }

  // options: [{ value, label }] as the question shows them; response: the value picked; answer:
  // the engine's (the right one for the settings on screen).
  function answered(state, { question, text, options, response, answer }) {
    const p = of(state.lesson);
    const success = response === answer;
    const before = p.answers.get(question);
    const tries = before ? before.tries + 1 : 1;
    p.answers.set(question, { first: before ? before.first : success, tries });
    const lang = HTML_LANG[state.lang];
    emit(
      statement(
        'answered',
        {
          id: activityId.question(question),
          definition: {
            type: TYPE.question,
            name: { [lang]: text },
            interactionType: 'choice',
            choices: options.map((o) => ({ id: String(o.value), description: { [lang]: String(o.label) } })),
            correctResponsesPattern: [String(answer)],
          },
        },
        state,
        {
          result: { success, response: String(response), score: score(success ? 1 : 0, 1) },
          extensions: { [EXTENSION.attempt]: tries },
        },
      ),
    );
    checkCompleted(state);
  }

  // settings: the run's (its task among them); each task and run settings count once.
  function learned(state, { run, settings = {}, step }) {
    const key = `${state.lesson}:${JSON.stringify(settings)}:${run}`;
    if (runsLearned.has(key)) return;
    runsLearned.add(key);
    const chapter = chapterOf(state.lesson);
    const task = settings.task || run;
    const title = Object.fromEntries(Object.entries(chapter.title).map(([l, t]) => [l, `${t}: ${task}`]));
    emit(
      statement(
        'passed',
        { id: activityId.run(state.lesson, task), definition: { type: TYPE.run, name: names(title) } },
        state,
        {
          result: { success: true, completion: true, extensions: { [EXTENSION.step]: step } },
          extensions: { [EXTENSION.run]: { name: run, ...settings } },
        },
      ),
    );
  }

  // The progress as plain JSON: { <lesson>: { steps: [...], answers: { <question>: right on the
  // first try }, completed } }.
  function snapshot() {
    const out = {};
    for (const [lesson, p] of lessons)
      out[lesson] = {
        steps: [...p.steps],
        answers: Object.fromEntries([...p.answers].map(([q, a]) => [q, a.first])),
        completed: p.completed,
      };
    return out;
  }

  // A snapshot back (what a host kept); anything not of its shape is left out.
  function restore(snap) {
    lessons = new Map();
    if (!snap || typeof snap !== 'object') return;
    for (const [lesson, p] of Object.entries(snap)) {
      if (!p || typeof p !== 'object') continue;
      const steps = Array.isArray(p.steps) ? p.steps.filter((s) => typeof s === 'string') : [];
      const answers = p.answers && typeof p.answers === 'object' ? Object.entries(p.answers) : [];
      lessons.set(lesson, {
        steps: new Set(steps),
        answers: new Map(answers.map(([q, first]) => [q, { first: first === true, tries: 1 }])),
        completed: p.completed === true,
      });
    }
  }

  return { visited, answered, learned, snapshot, restore, score: (ids) => scoreOf(snapshot(), ids, chapterOf) };
}

// Over the given lessons of a snapshot: the questions right on the first try (raw) of all their
// questions (max), whether any was answered, and whether every one of the lessons is completed.
export function scoreOf(snapshot, ids, chapterOf) {
  let raw = 0;
  let max = 0;
  let answered = false;
  for (const id of ids) {
    const questions = chapterOf(id).questions || [];
    const answers = snapshot[id]?.answers || {};
    max += questions.length;
    raw += questions.filter((q) => answers[q] === true).length;
    answered ||= questions.some((q) => q in answers);
  }
  return { raw, max, answered, completed: ids.every((id) => snapshot[id]?.completed === true) };
}
