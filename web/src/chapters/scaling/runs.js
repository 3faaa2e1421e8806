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
  // The rows of a list at a run's state ('running', 'done', 'stopped' or 'error'): done of total,
  // text, and the button that stops a running run or runs it again.
  const rows = (list) => (state, done, total, text) => {
    for (const row of list) {
      row.bar.max = total || 1;
      row.bar.value = done;
      row.text.textContent = text;
      row.stop.textContent = s(state === 'running' ? 'cancel' : 'rerun');
      row.el.classList.toggle('running', state === 'running');
      row.el.dataset.state = state;
    }
  };
  const failed = (list) => (e) => {
    // a LabError is the background computation's own problem, said in the page's words
    const key =
      { stuck: 'errLabStuck', crashed: 'errLabCrashed', 'bad-job': 'errLabJob' }[e.name === 'LabError' && e.code] ||
      'errEngine';
    rows(list)('error', 0, 1, s(key, { msg: e.message }));
  };
  const live = (list, msg) => {
    for (const row of list) row.live.textContent = msg;
  };

  const varRows = rows(ui.varRows);
  const varRunning = (done, total) => {
    const pct = Math.floor((100 * done) / total);
    varRows('running', done, total, s('running', { done: fmtInt(done), total: fmtInt(total), pct }));
  };
  const variance = createRun({
    job: (args, onProgress) => lab.run('variance', args, onProgress),
    cancel: () => lab.cancel('variance'),
    onStart: (args) => {
      live(ui.varRows, s('started', { total: fmtInt(args.samples), dk: args.dk }));
      varRunning(0, args.samples);
    },
    onProgress: (partial, done, total) => {
      varRunning(done, total);
      drawVariance(c);
    },
    onDone: (result, args, ms) => {
      const msg = s('finished', { total: fmtInt(args.samples), ms: Math.round(ms) });
      varRows('done', args.samples, args.samples, msg);
      live(ui.varRows, msg);
      drawVariance(c);
    },
    onStop: (partial, done, args) => {
      const msg = s('stopped', { done: fmtInt(done), total: fmtInt(args.samples) });
      varRows('stopped', done, args.samples, msg);
      live(ui.varRows, msg);
      drawVariance(c);
    },
    onError: failed(ui.varRows),
  });

  const sweepRows = rows(ui.sweepRows);
  const sweepAt = (state, done, total) => sweepRows(state, done, total, s('sweepRunning', { done, total }));
  const sweep = createRun({
    job: (args, onProgress) => lab.run('sweep', args, onProgress),
    cancel: () => lab.cancel('sweep'),
    onStart: (args) => sweepAt('running', 0, args.dks.length),
    onProgress: (partial, done, total) => {
      sweepAt('running', done, total);
      drawSweep(c);
    },
    onDone: (result, args, ms) => {
      const msg = s('sweepDone', { ms: Math.round(ms) });
      sweepRows('done', args.dks.length, args.dks.length, msg);
      live(ui.sweepRows, msg);
      drawSweep(c);
    },
    onStop: (partial, done, args) => {
      sweepAt('stopped', done, args.dks.length);
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
