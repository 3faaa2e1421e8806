// The scaling lesson's long runs: the variance run and the d_k sweep, in the lab worker
// (workers/variance-client.js), each a createRun with its progress rows; both end with the chapter.

import { createLabClient } from '../../workers/variance-client.js';
import { SWEEP_DKS, VARIANCE_BINS } from '../../workers/variance-jobs.js';
import { createRun } from '../../workers/run.js';
import { fmtInt } from '../../text/format.js';
import { h, nextId } from '../../views/dom.js';
import { SWEEP_TRIALS, SWEEP_SAMPLES } from './settings.js';
import { drawVariance, drawSweep } from './run-figures.js';

// A progress line: <progress>, a text, a stop/run-again button; a polite live region for
// start and end only (not every chunk).
function progressRow(onStop) {
  const text = h('span', { class: 'lab-progress-text', id: nextId('lab-progress-') });
  const bar = h('progress', { max: '1', value: '0', 'aria-labelledby': text.id });
  const stop = h('button', { type: 'button', class: 'btn lab-stop', onclick: onStop });
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
  return { el: h('div', { class: 'lab-progress' }, bar, text, stop, live), bar, text, stop, live };
}

function setProgress(row, { state, done, total, text, stopLabel }) {
  row.bar.max = total || 1;
  row.bar.value = done;
  row.text.textContent = text;
  row.stop.textContent = stopLabel;
  row.el.classList.toggle('running', state === 'running');
  row.el.dataset.state = state;
}

// The variance run (one progress row) and the d_k sweep (a progress row in each step that
// draws it), made on first use with the lab worker behind them; both end with the chapter.
export function runsOf(c) {
  const ui = c.ui;
  if (ui.runs) return ui.runs;
  const { s } = c;
  // a replaced worker is said in plain words; the run goes on in the new one
  const lab = createLabClient({
    engine: c.engine,
    onRestart: ({ code }) => c.notify(s(code === 'stuck' ? 'labRestartStuck' : 'labRestartCrashed')),
  });
  c.onLeave(() => lab.terminate());
  ui.varRows = [];
  ui.sweepRows = [];
  const rows = (list) => (o) => {
    for (const row of list) setProgress(row, o);
  };
  const failed = (list) => (e) => {
    // a LabError is the background computation's own problem, said in the page's words
    const key =
      { stuck: 'errLabStuck', crashed: 'errLabCrashed', 'bad-job': 'errLabJob' }[e.name === 'LabError' && e.code] ||
      'errEngine';
    for (const row of list)
      setProgress(row, { state: 'error', done: 0, total: 1, text: s(key, { msg: e.message }), stopLabel: s('rerun') });
  };
  const live = (list, msg) => {
    for (const row of list) row.live.textContent = msg;
  };

  const variance = createRun({
    job: (args, onProgress) => lab.run('variance', args, onProgress),
    cancel: () => lab.cancel('variance'),
    onStart: (args) => {
      live(ui.varRows, s('started', { total: fmtInt(args.samples), dk: args.dk }));
      rows(ui.varRows)({
        state: 'running',
        done: 0,
        total: args.samples,
        stopLabel: s('cancel'),
        text: s('running', { done: 0, total: fmtInt(args.samples), pct: 0 }),
      });
    },
    onProgress: (partial, done, total) => {
      rows(ui.varRows)({
        state: 'running',
        done,
        total,
        stopLabel: s('cancel'),
        text: s('running', { done: fmtInt(done), total: fmtInt(total), pct: Math.floor((100 * done) / total) }),
      });
      drawVariance(c);
    },
    onDone: (result, args, ms) => {
      const msg = s('finished', { total: fmtInt(args.samples), ms: Math.round(ms) });
      rows(ui.varRows)({ state: 'done', done: args.samples, total: args.samples, stopLabel: s('rerun'), text: msg });
      live(ui.varRows, msg);
      drawVariance(c);
    },
    onStop: (partial, done, args) => {
      const msg = s('stopped', { done: fmtInt(done), total: fmtInt(args.samples) });
      rows(ui.varRows)({ state: 'stopped', done, total: args.samples, stopLabel: s('rerun'), text: msg });
      live(ui.varRows, msg);
      drawVariance(c);
    },
    onError: failed(ui.varRows),
  });

  const sweep = createRun({
    job: (args, onProgress) => lab.run('sweep', args, onProgress),
    cancel: () => lab.cancel('sweep'),
    onStart: (args) =>
      rows(ui.sweepRows)({
        state: 'running',
        done: 0,
        total: args.dks.length,
        stopLabel: s('cancel'),
        text: s('sweepRunning', { done: 0, total: args.dks.length }),
      }),
    onProgress: (partial, done, total) => {
      rows(ui.sweepRows)({
        state: 'running',
        done,
        total,
        stopLabel: s('cancel'),
        text: s('sweepRunning', { done, total }),
      });
      drawSweep(c);
    },
    onDone: (result, args, ms) => {
      const msg = s('sweepDone', { ms: Math.round(ms) });
      rows(ui.sweepRows)({
        state: 'done',
        done: args.dks.length,
        total: args.dks.length,
        stopLabel: s('rerun'),
        text: msg,
      });
      live(ui.sweepRows, msg);
      drawSweep(c);
    },
    onStop: (partial, done, args) => {
      rows(ui.sweepRows)({
        state: 'stopped',
        done,
        total: args.dks.length,
        stopLabel: s('rerun'),
        text: s('sweepRunning', { done, total: args.dks.length }),
      });
      drawSweep(c);
    },
    onError: failed(ui.sweepRows),
  });
  c.onLeave(() => {
    variance.dispose();
    sweep.dispose();
  });
  ui.runs = { variance, sweep };
  return ui.runs;
}

// A progress row of the run `kind`: its button stops the run, or runs it again.
export function runRow(c, kind) {
  const row = progressRow(() => {
    const run = runsOf(c)[kind];
    if (run.running) run.stop();
    else run.restart();
  });
  runsOf(c);
  (kind === 'variance' ? c.ui.varRows : c.ui.sweepRows).push(row);
  return row;
}

export const varianceArgs = (st) => ({ dk: st.labDk, samples: st.labSamples, seed: st.labSeed, bins: VARIANCE_BINS });
const sweepArgs = (st) => ({
  dks: SWEEP_DKS,
  nKeys: st.labKeys,
  trials: SWEEP_TRIALS,
  seed: st.labSeed,
  samples: SWEEP_SAMPLES,
});

// The sweep for the current settings (a new run when they changed), and its charts.
export function requestSweep(c) {
  runsOf(c).sweep.request(sweepArgs(c.state));
  drawSweep(c);
}
