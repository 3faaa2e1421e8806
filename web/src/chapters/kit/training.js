// A chapter that trains in the background (the attention playground, the encoder–decoder
// playground): one training worker per chapter instance (workers/train-client.js), each run's
// history (its loss points, accuracy points where the chapter keeps them, the latest report, the
// speed and the step it was learned at), and play / pause / step / restart, with the step reached
// written to the chapter's own hash field so that a link replays the run. The state lives in c.ui.
//
//   const training = createTraining({
//     stepField: 'pgStep',                  // the hash field that holds the step reached
//     accuracy: (report) => number | null,  // a point of the accuracy curve, or none
//     learned: (report) => boolean,         // the report shows the task learned
//     clear: (ui) => {},                    // what a restart forgets besides the runs
//     track: (report) => ({ name: y }),     // more curves of a run (hist.tracks[name]), optional
//     marks: { name: (report) => boolean }, // the first step each holds (hist.marks[name]), optional
//     redraw: (c) => {},
//   });
//   training.session(c) -> c.ui; training.restart(c, runs); play(c); pause(c); stepOn(c);
//   runTo(c, step) (train every run to that step and stop there)
//   training.buttons(c, v, prefix, runsOf) (the panel's play / pause, step and reset buttons)
//   drawReport(c, steps, drawPanel) (a chapter's redraw: its panel and the step on screen)
// The chapter's strings have trainRestartStuck and trainRestartCrashed (the worker was replaced).

import { createTrainClient } from '../../workers/train-client.js';
import { h, setText } from '../../views/dom.js';

// Draws a training chapter again on a report of its runs (not a state change): its panel, the step
// on screen and, when a run failed, the engine's message in the panel's status line.
export function drawReport(c, steps, drawPanel) {
  const ui = c.ui;
  if (ui.panel) drawPanel(c, null, ui.panel);
  const step = steps.find((st) => st.id === c.state.stage);
  if (step && c.step(step.id)) step.draw(c, c.data, c.step(step.id));
  if (ui.error && ui.panel) setText(ui.panel.status, c.s('errEngine', { msg: ui.error }));
}

export const CHUNK = 10; // steps between two reports of the worker
export const MAX_POINTS = 400; // points kept per curve
export const KEEP_EARLY = 200; // the first points of a curve, always kept (the phase change is early)

function newHistory() {
  return { step: 0, loss: [], acc: [], tracks: {}, marks: {}, latest: null, speed: 0, learnedAt: null };
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
  stepField,
  accuracy = () => null,
  learned,
  clear = () => {},
  track = () => ({}),
  marks = {},
  redraw,
}) {
  // The run stopped at `step` (paused, or a finite run reached its end): the link says so.
  function stopped(c, step) {
    if (c.ui.client && c.state[stepField] !== step) c.set({ [stepField]: step });
  }

  function session(c) {
    const ui = c.ui;
    if (ui.client) return ui;
    ui.history = {};
    ui.playing = false;
    ui.key = null;
    ui.client = createTrainClient({
      simd: c.engine.simd,
      onReport: (runs, training) => {
        for (const [name, r] of Object.entries(runs)) {
          const hist = ui.history[name] || (ui.history[name] = newHistory());
          hist.step = r.step;
          hist.latest = r;
          if (r.losses.length) {
            const mean = r.losses.reduce((a, b) => a + b, 0) / r.losses.length;
            pushPoint(hist.loss, { x: r.step, y: mean });
            hist.speed = r.stepsPerSecond;
          }
          const acc = accuracy(r);
          if (acc !== null) pushPoint(hist.acc, { x: r.step, y: acc });
          if (hist.learnedAt === null && learned(r)) {
            hist.learnedAt = r.step;
            hist.learnedWhilePlaying = ui.playing && ui.until === Infinity;
            c.progress?.('learned', { run: name, settings: ui.runs[name], step: r.step }); // ../../hosts/progress.js
          }
          for (const [key, y] of Object.entries(track(r)))
            pushPoint(hist.tracks[key] || (hist.tracks[key] = []), { x: r.step, y });
          for (const [key, holds] of Object.entries(marks))
            if (hist.marks[key] === undefined && holds(r)) hist.marks[key] = r.step;
        }
        // the first report after a reset is the runs at step 0, not the end of a run
        const finished = !training && ui.playing && !ui.freshReset;
        ui.freshReset = false;
        if (finished) {
          ui.playing = false;
          ui.until = null;
        }
        ui.error = null;
        redraw(c);
        if (finished && ui.history.main) stopped(c, ui.history.main.step);
      },
      onPaused: (step) => stopped(c, step),
      onRestart: ({ code }) => c.notify(c.s(code === 'stuck' ? 'trainRestartStuck' : 'trainRestartCrashed')),
      onError: (e) => {
        ui.playing = false;
        ui.error = e.message;
        redraw(c);
      },
    });
    c.onLeave(() => {
      ui.client.terminate();
      ui.client = null;
    });
    return ui;
  }

  // Starts the runs from step 0 (and replays them to the step in the link).
  function restart(c, runs) {
    const ui = session(c);
    ui.key = JSON.stringify(runs);
    ui.runs = runs;
    ui.history = Object.fromEntries(Object.keys(runs).map((name) => [name, newHistory()]));
    ui.playing = false;
    ui.freshReset = true;
    clear(ui);
    ui.client.reset(runs);
    if (c.state[stepField] > 0) {
      ui.playing = true;
      ui.until = c.state[stepField];
      ui.client.train(c.state[stepField], CHUNK);
    }
  }

  function trainTo(c, until) {
    const ui = session(c);
    ui.playing = true;
    ui.until = until;
    ui.client.train(until, CHUNK);
    redraw(c);
  }

  // Pausing writes the step into the hash (once the worker has stopped), so the link replays
  // the run to here.
  function pause(c) {
    const ui = session(c);
    ui.client.pause();
    ui.playing = false;
    redraw(c);
  }
  const play = (c) => trainTo(c, Infinity);
  const stepOn = (c) => trainTo(c, (c.ui.history?.main ? c.ui.history.main.step : 0) + CHUNK);

  // The panel's buttons: v.play (its label is the panel's to set: play or pause), v.step and
  // v.reset (the runs of runsOf(state) from step 0), classed `${prefix}-play` and so on.
  function buttons(c, v, prefix, runsOf) {
    const button = (name, props) => h('button', { type: 'button', class: `btn ${prefix}-${name}`, ...props });
    v.play = button('play', { onclick: () => (session(c).playing ? pause(c) : play(c)) });
    v.play.classList.add('primary');
    v.step = button('step', { text: c.s('stepOnce'), onclick: () => stepOn(c) });
    v.reset = button('reset', {
      text: c.s('reset'),
      onclick: () => {
        c.set({ [stepField]: 0 });
        restart(c, runsOf(c.state));
      },
    });
  }

  return { session, restart, play, pause, stepOn, runTo: trainTo, buttons };
}
