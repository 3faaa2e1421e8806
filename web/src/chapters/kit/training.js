// The training chapters' instrument (the attention playground, the encoder–decoder playground):
// one training worker per chapter instance (workers/train-client.js), each run's history (its loss
// points, accuracy points where the chapter keeps them, the latest report, the speed and the step
// it was learned at), play / pause / step / reset at the pace of the chosen speed (./pace.js), and
// one panel of controls, the chapter's control group for every step (./index.js `controls`: the
// shell puts it beside the step's figure, after the step's own controls). The step reached is written to
// the chapter's step field, so a link replays the run. The state lives in c.ui; the runs and their
// history also go into c.kept when the chapter leaves, so the chapter mounted again (a language
// switch) shows them at once and goes on with them (the new worker trains them to their step
// without reports).
//
//   const training = createTraining({
//     prefix: 'pg',                           // the panel's classes: pg-play, pg-step, pg-status …
//     fields: { step: 'pgStep', speed: 'pgSpeed', task: 'pgTask' },   // the chapter's hash fields
//     runOn: ['pgTask', 'pgLr', …],           // the fields the runs are made of: a change starts
//                                             //   them again from step 0
//     runsOf: (state) => ({ main: config, twin: config }),  // the runs of a state ('main' first)
//     tasks: (c) => [{ value, label }],       // the task menu
//     controls: (c) => [{ wrap, sync(state) }], // the panel's other controls (learning rate …)
//     rule: (c) => text,                      // the task in one sentence, under the menu
//     status: (c, history) => text,           // the status line (step, accuracy …; the steps per
//                                             //   second of wall time are c.ui.rate)
//     learnedLine: (c, history) => text,      // which runs were learned, and at which step ('' none)
//     accuracy: (report) => number | null,    // a point of the accuracy curve, or none
//     learned: (report, state) => boolean,    // the report shows the task learned
//     clear: (ui) => {},                      // what a restart forgets besides the runs
//     track: (report) => ({ name: y }),       // more curves of a run (hist.tracks[name]), optional
//     marks: { name: (report) => boolean },   // the first step each holds (hist.marks[name]), optional
//   });
//   export default training.chapter({ meta, strings, panel, steps })
//                                   the chapter (./index.js): the panel beside every step's figure
//                                   (a control group), its onChange hook starting the runs again
//                                   when a field of runOn changed and following a new speed
//   training.play(c), pause(c), stepOn(c), runTo(c, step), restart(c) (from step 0)
//   training.redrawStep(c)          the step on screen drawn again (as on every report)
//   training.answer(c, { input, ask, show, onError })
//                                   a question about the main run for the step on screen, asked
//                                   of the worker once per run, step and input (below)
//   training.xDomain(c, names)      the step axis of the curves: [0, horizon] (./pace.js)
// The panel's own words are STRINGS below; the chapter's strings have errEngine ({msg}).
//
// Pace: at 'fast' the worker trains on by itself (train to the goal, chunk after chunk); at the
// other speeds one chunk is asked for at a time, when the schedule reaches it (an animation frame
// loop adds the frame's steps to a budget), so the chunks and every number are those of 'fast'.
// A link's replay and Step ×10 always go at 'fast'.
//
// "Learned": the first report in which learned(report) holds marks the run learned at that step
// (hist.learnedAt, drawn on the curves). This is the one place it happens (learnedRun below): it
// reports the run to the host (c.progress('learned', { run, settings, step }), which a course page
// receives as a progress statement, ../../hosts/progress.js), and when the main run learned while
// playing on, training pauses there; Continue (the play button) goes on from there.

import { createTrainClient } from '../../workers/train-client.js';
import { h, setText } from '../../views/dom.js';
import { selectInput } from '../../views/controls.js';
import { lookup } from '../../text/i18n.js';
import { SPEEDS, advance, horizon } from './pace.js';

export const STRINGS = {
  en: {
    play: 'Play',
    continue: 'Continue',
    pause: 'Pause',
    stepOnce: 'Step ×10',
    reset: 'Reset',
    task: 'Task',
    speed: 'Speed',
    'speed.slow': 'Slow',
    'speed.medium': 'Medium',
    'speed.fast': 'Fast',
    loading: 'Starting the training worker…',
    replaying: 'Replaying the linked run: step {done} of {step} ({pct} %). Pause stops it there.',
    pausedLearned: 'Training paused there. Continue trains on.',
    learnedMark: 'learned',
    gap: ' ',
    trainRestartStuck:
      'The training in the background stopped answering, so it was restarted: the same runs were trained again to the step on screen and go on from there. Your settings are kept.',
    trainRestartCrashed:
      'The training in the background failed, so it was restarted: the same runs were trained again to the step on screen and go on from there. Your settings are kept.',
  },
  zh: {
    play: '开始',
    continue: '继续',
    pause: '暂停',
    stepOnce: '前进 10 步',
    reset: '重置',
    task: '任务',
    speed: '速度',
    'speed.slow': '慢',
    'speed.medium': '中',
    'speed.fast': '快',
    loading: '正在启动训练线程……',
    replaying: '正在按链接重放训练：第 {done} 步，共 {step} 步（{pct}%）。按“暂停”就停在那一步。',
    pausedLearned: '训练已在那一步自动暂停；按“继续”接着训练。',
    learnedMark: '学会',
    gap: '',
    trainRestartStuck: '后台训练没有响应，已经重新启动：训练重新进行到屏幕上的步数，并从那里继续。你的设置都还在。',
    trainRestartCrashed: '后台训练出错了，已经重新启动：训练重新进行到屏幕上的步数，并从那里继续。你的设置都还在。',
  },
};
// The panel's words in the chapter's language.
export const trainingText = (c, key, params) => lookup(STRINGS, c.lang, key, params);

export const CHUNK = 10; // steps between two reports of the worker
export const MAX_POINTS = 400; // points kept per curve
export const KEEP_EARLY = 200; // the first points of a curve, always kept (the phase change is early)

function newHistory() {
  return { step: 0, loss: [], acc: [], tracks: {}, marks: {}, latest: null, learnedAt: null };
}

// Keeps at most MAX_POINTS points. The first KEEP_EARLY are never dropped: a plateau and the drop
// that ends it (the first few hundred steps) keep every point. When the curve is full, every other
// point of the older half of the rest goes, so the late part is thinned, never the start, and the
// newest points are always there.
export function pushPoint(list, point) {
  list.push(point);
  if (list.length > MAX_POINTS) {
    const late = list.length - KEEP_EARLY;
    const half = Math.floor(late / 2);
    const thinned = list.slice(KEEP_EARLY, KEEP_EARLY + half).filter((_, k) => k % 2 === 0);
    list.splice(KEEP_EARLY, half, ...thinned);
  }
}

export function createTraining({
  prefix,
  fields,
  runOn,
  runsOf,
  tasks,
  controls = () => [],
  rule,
  status,
  learnedLine,
  accuracy = () => null,
  learned,
  clear = () => {},
  track = () => ({}),
  marks = {},
}) {
  const reached = (ui) => (ui.history.main ? ui.history.main.step : 0);
  const speedOf = (c) => c.state[fields.speed];
  let steps = []; // the chapter's (chapter() below)

  // The step on screen drawn again with the data on screen (a report, not a state change).
  function redrawStep(c) {
    const step = steps.find((st) => st.id === c.state.stage);
    if (step && c.step(step.id)) step.draw(c, c.data, c.step(step.id));
  }

  // A report or a press of a button (not a state change): the panel and the step on screen.
  function redraw(c) {
    if (c.ui.panel) drawPanel(c);
    redrawStep(c);
  }

  // The run stopped at `step` (paused, or a finite run reached its goal): the link says so.
  function stopped(c, step) {
    if (c.ui.client && c.state[fields.step] !== step) c.set({ [fields.step]: step });
  }

  function session(c) {
    const ui = c.ui;
    if (ui.client) return ui;
    ui.history = {};
    ui.playing = false;
    ui.answers = {}; // step id -> the worker's last answer for it, and the question asked (answer())
    ui.asking = {}; // step id -> the question on its way
    ui.client = createTrainClient({
      simd: c.engine.simd,
      onReport: (runs) => onReport(c, runs),
      onPaused: (step) => stopped(c, step),
      onRestart: ({ code }) =>
        c.notify(trainingText(c, code === 'stuck' ? 'trainRestartStuck' : 'trainRestartCrashed')),
      onError: (e) => {
        stopPlaying(ui);
        ui.error = e.message;
        redraw(c);
      },
    });
    c.onLeave(() => {
      keep(c);
      stopPlaying(ui);
      ui.client.terminate();
      ui.client = null;
    });
    return ui;
  }

  // The one place where a run is found learned (see the header).
  function learnedRun(c, name, step) {
    const ui = c.ui;
    ui.history[name].learnedAt = step;
    c.progress?.('learned', { run: name, settings: ui.runs[name], step }); // ../../hosts/progress.js
    return name === 'main' && ui.playing && ui.goal === Infinity;
  }

  function onReport(c, runs) {
    const ui = c.ui;
    let pauseHere = false;
    for (const [name, r] of Object.entries(runs)) {
      const hist = ui.history[name] || (ui.history[name] = newHistory());
      hist.step = r.step;
      hist.latest = r;
      if (r.losses.length) {
        const mean = r.losses.reduce((a, b) => a + b, 0) / r.losses.length;
        pushPoint(hist.loss, { x: r.step, y: mean });
      }
      const acc = accuracy(r);
      if (acc !== null) pushPoint(hist.acc, { x: r.step, y: acc });
      for (const [key, y] of Object.entries(track(r)))
        pushPoint(hist.tracks[key] || (hist.tracks[key] = []), { x: r.step, y });
      for (const [key, holds] of Object.entries(marks))
        if (hist.marks[key] === undefined && holds(r)) hist.marks[key] = r.step;
      if (hist.learnedAt === null && learned(r, c.state)) pauseHere = learnedRun(c, name, r.step) || pauseHere;
    }
    ui.error = null;
    const at = reached(ui);
    measureRate(ui, at);
    const finished = ui.playing && at >= ui.goal;
    if (finished || pauseHere) {
      stopPlaying(ui);
      if (pauseHere) {
        ui.pausedLearned = true;
        ui.client.pause(); // the worker says where it stopped; that step goes into the link
      }
    } else pump(c);
    redraw(c);
    if (finished) stopped(c, at);
  }

  // ---- the pace -------------------------------------------------------------------------------

  // The steps per second of wall time while playing (ui.rate, for the status line): each report's
  // steps over the time since the one before, smoothed over the last few.
  function measureRate(ui, at) {
    const now = performance.now();
    const last = ui.lastReport;
    ui.lastReport = ui.playing ? { at, now } : null;
    if (!last || at <= last.at || now <= last.now) return;
    const rate = ((at - last.at) * 1000) / (now - last.now);
    ui.rate = ui.rate > 0 ? 0.7 * ui.rate + 0.3 * rate : rate;
  }

  function stopPlaying(ui) {
    ui.playing = false;
    ui.replay = false;
    if (ui.frame) cancelAnimationFrame(ui.frame);
    ui.frame = null;
  }

  // Asks the worker for what the goal and the pace allow now.
  function pump(c) {
    const ui = c.ui;
    if (!ui.playing) return;
    const at = reached(ui);
    if (ui.replay || ui.stepping || speedOf(c) === 'fast') {
      if (ui.asked < ui.goal) ui.client.train((ui.asked = ui.goal), CHUNK);
      return;
    }
    // paced: the next chunk once the budget has reached it (the budget runs at most one chunk
    // past it, so a worker slower than the pace trains on without a pause, and never catches up in
    // a burst)
    const next = Math.min(ui.goal, at + CHUNK);
    if (ui.asked < next && ui.budget >= next) ui.client.train((ui.asked = next), CHUNK);
    if (!ui.frame) ui.frame = requestAnimationFrame((now) => frame(c, now));
  }

  function frame(c, now) {
    const ui = c.ui;
    ui.frame = null;
    if (!ui.playing) return;
    const dt = ui.lastFrame === null ? 0 : (now - ui.lastFrame) / 1000;
    ui.lastFrame = now;
    ui.budget = Math.min(advance(speedOf(c), Math.max(ui.budget, reached(ui)), dt), reached(ui) + 2 * CHUNK);
    pump(c);
  }

  function trainTo(c, goal, { stepping = false } = {}) {
    const ui = session(c);
    if (ui.frame) cancelAnimationFrame(ui.frame);
    ui.frame = null;
    Object.assign(ui, { playing: true, goal, stepping, replay: false, pausedLearned: false, rate: 0 });
    Object.assign(ui, { asked: reached(ui), budget: reached(ui), lastFrame: null, lastReport: null });
    pump(c);
    redraw(c);
  }

  // Pausing writes the step into the link (once the worker has stopped), so it replays the run
  // to here.
  function pause(c) {
    const ui = session(c);
    stopPlaying(ui);
    ui.client.pause();
    redraw(c);
  }
  const play = (c) => trainTo(c, Infinity);
  const stepOn = (c) => trainTo(c, reached(session(c)) + CHUNK, { stepping: true });
  const runTo = (c, step) => trainTo(c, step);

  // ---- the runs kept when the chapter is mounted again (a language switch) ------------------------

  // Leaving: the runs, their history and whether they were playing go into c.kept (plain data),
  // with the step field as the link had it.
  function keep(c) {
    const ui = c.ui;
    if (!ui.runs || reached(ui) === 0) return;
    const goal = ui.playing && !ui.stepping ? ui.goal : null;
    const { runs, history, replay, pausedLearned } = ui;
    c.kept.training = { runs, history, goal, replay, pausedLearned, linked: c.state[fields.step] };
  }

  // The kept runs, when they are this state's (the same runs and the same step in the link).
  function kept(c, runs) {
    const k = c.kept.training;
    c.kept.training = null;
    if (!k || k.linked !== c.state[fields.step]) return null;
    const same = (a, b) =>
      !!a && !!b && Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((x) => a[x] === b[x]);
    const names = Object.keys(runs);
    return names.length === Object.keys(k.runs).length && names.every((n) => same(k.runs[n], runs[n])) ? k : null;
  }

  // Starts the runs from step 0, and replays them to the step in the link; or, in a chapter
  // mounted again, takes up the runs it had (their history stays on screen while the worker trains
  // them to their step again) and goes on as they were.
  function restart(c) {
    const ui = session(c);
    stopPlaying(ui);
    ui.runs = runsOf(c.state);
    ui.pausedLearned = false;
    ui.error = null;
    ui.answers = {};
    clear(ui);
    const before = kept(c, ui.runs);
    if (before) {
      ui.history = before.history;
      ui.pausedLearned = before.pausedLearned;
      ui.client.reset(ui.runs, reached(ui));
      if (before.goal !== null && before.replay) replayTo(c, before.goal);
      else if (before.goal !== null) trainTo(c, before.goal);
      return;
    }
    ui.history = Object.fromEntries(Object.keys(ui.runs).map((name) => [name, newHistory()]));
    ui.client.reset(ui.runs);
    if (c.state[fields.step] > 0) replayTo(c, c.state[fields.step]);
  }

  // Replays the runs to the step of a link, at 'fast'.
  function replayTo(c, goal) {
    Object.assign(c.ui, { playing: true, goal, replay: true, stepping: false, asked: reached(c.ui) });
    pump(c);
  }

  // The shell's hook after a state change (../index.js): the fields that changed.
  function onChange(c, changed) {
    const ui = session(c);
    if (!ui.runs || runOn.some((f) => changed.has(f))) restart(c);
    else if (changed.has(fields.speed) && ui.playing && !ui.replay && !ui.stepping) {
      // the new pace from the step reached: one chunk at once (at 'fast', on to the goal)
      Object.assign(ui, { asked: reached(ui), budget: reached(ui) + CHUNK, lastFrame: null, rate: 0 });
      pump(c);
    }
  }

  // ---- the panel ------------------------------------------------------------------------------

  // The panel, built once per chapter instance (c.ui.panel): play / pause, step, reset, the status,
  // the task, the speed, the chapter's controls.
  function buildPanel(c) {
    const ui = session(c);
    const s = (key) => trainingText(c, key);
    const v = {};
    const button = (name, props) => h('button', { type: 'button', class: `btn ${prefix}-${name}`, ...props });
    v.play = button('play', { onclick: () => (ui.playing && !ui.stepping ? pause(c) : play(c)) });
    v.play.classList.add('primary');
    v.step = button('step', { text: s('stepOnce'), onclick: () => stepOn(c) });
    v.reset = button('reset', {
      text: s('reset'),
      onclick: () => {
        if (c.state[fields.step] !== 0) c.set({ [fields.step]: 0 });
        restart(c);
        redraw(c);
      },
    });
    // a new task or setting starts the runs from step 0: the step in the link goes back to 0
    const set = (patch) => c.set({ ...patch, [fields.step]: 0 });
    v.task = selectInput(s('task'), tasks(c), (x) => set({ [fields.task]: x }));
    v.speed = selectInput(
      s('speed'),
      SPEEDS.map((x) => ({ value: x, label: s(`speed.${x}`) })),
      (x) => c.set({ [fields.speed]: x }),
    );
    v.controls = controls(c, set);
    v.rule = h('p', { class: `hint train-rule ${prefix}-rule` });
    v.status = h('p', { class: `train-status ${prefix}-status`, 'aria-live': 'polite' });
    v.learned = h('p', { class: `train-learned ${prefix}-learned`, 'aria-live': 'polite' });
    v.el = h(
      'div',
      { class: `train-panel ${prefix}-panel` },
      h('div', { class: `train-buttons ${prefix}-buttons` }, v.play, v.step, v.reset),
      v.status,
      v.learned,
      h('div', { class: 'train-fields' }, v.task.wrap, v.speed.wrap, ...v.controls.map((x) => x.wrap)),
      v.rule,
    );
    ui.panel = v;
    return v.el;
  }

  function drawPanel(c) {
    const ui = session(c);
    const v = ui.panel;
    const { state } = c;
    const s = (key, params) => trainingText(c, key, params);
    v.task.sync(state[fields.task]);
    v.speed.sync(state[fields.speed]);
    for (const x of v.controls) x.sync(state);
    setText(v.rule, rule(c));
    const main = ui.history.main;
    const at = main ? main.step : 0;
    const on = ui.playing && !ui.stepping;
    setText(v.play, on ? s('pause') : at > 0 ? s('continue') : s('play'));
    v.play.setAttribute('aria-pressed', String(on));
    if (ui.error) setText(v.status, c.s('errEngine', { msg: ui.error }));
    else if (!main || !main.latest) setText(v.status, s('loading'));
    else if (ui.replay && ui.goal > at + CHUNK)
      setText(v.status, s('replaying', { done: at, step: ui.goal, pct: Math.floor((100 * at) / ui.goal) }));
    else setText(v.status, status(c, ui.history));
    const learnedText = main ? learnedLine(c, ui.history) : '';
    const paused = learnedText && ui.pausedLearned && !ui.playing;
    setText(v.learned, paused ? `${learnedText}${s('gap')}${s('pausedLearned')}` : learnedText);
  }

  // The step axis of the curves of these runs: from 0 to the horizon of the furthest step.
  function xDomain(c, names) {
    const hist = c.ui.history || {};
    return [0, horizon(Math.max(0, ...names.map((n) => (hist[n] ? hist[n].step : 0))))];
  }

  // The worker's answer about the main run at the step reached, for the step on screen (from its
  // draw): ask() (a promise of the answer; null when there is none) once per run, step and input
  // (a text); show(answer) draws it now when it is known, else when it comes if the step is still
  // on screen; onError(error) when asking failed. A restart forgets the answers.
  function answer(c, { input, ask, show, onError }) {
    const ui = c.ui;
    const stage = c.state.stage;
    const main = ui.history.main;
    const asked = { run: main, step: main.step, input };
    const same = (a) => a && a.run === asked.run && a.step === asked.step && a.input === asked.input;
    if (same(ui.answers[stage])) return show(ui.answers[stage].result);
    if (same(ui.asking[stage])) return; // asked already: its answer draws it
    ui.asking[stage] = asked;
    ask().then((result) => {
      if (!result || !c.ui.client) return;
      ui.answers[stage] = { ...asked, result };
      if (c.state.stage === stage) show(result);
    }, onError);
  }

  // The training chapter of these runs: its meta, strings, settings (`panel`) and steps, with the
  // training panel as its control group beside the figure of every step and onChange as its hook.
  function chapter({ meta, strings, panel, steps: chapterSteps }) {
    steps = chapterSteps;
    const controls = [{ steps: '*', build: buildPanel, draw: drawPanel }];
    return { ...meta, prefix, strings, controls, panel, steps, onChange };
  }

  return { chapter, session, restart, redrawStep, answer, play, pause, stepOn, runTo, xDomain };
}
