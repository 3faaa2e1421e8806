// Step 1 of the long-sequences chapter: time and memory, measured. The question (how the naive
// run's memory grows when n doubles, answered by the sweep's measured bytes), the sweep
// (./sweep.js), and single runs of naive, flash and windowed attention at one n in the workers,
// with their time and memory as bars and a table of every run. The runs live in c.kept (a
// language switch keeps them; one still running then goes on with the methods it had left).

import { button, h, isFocused, setText } from '../../views/dom.js';
import { createBars } from '../../views/bars.js';
import { dataTable } from '../../views/table.js';
import { fmt, fmtInt } from '../../text/format.js';
import { createPredict } from '../kit/predict.js';
import { AMBER, WEIGHT } from '../../views/palette.js';
import { METHODS, memoryGrowth } from './logic.js';
import { measureRuns, recordedRun } from './runs.js';
import { buildSweep, drawSweep, englishQuote, followSweep, methodLabel, sweepControls } from './sweep.js';

export function buildCost(c, v) {
  const { s } = c;
  v.answer = h('p', { class: 'msg info long-answer' });
  v.predict = createPredict(c, {
    id: 'long/memory',
    question: s('predict'),
    options: [
      { value: '2', label: s('predict2') },
      { value: '4', label: s('predict4') },
    ],
    reveal: v.answer,
  });
  v.nInput = h('input', {
    type: 'range',
    min: '6',
    max: '14',
    step: '1',
    id: 'long-n',
    oninput: (e) => c.set({ longN: 2 ** Number(e.target.value) }),
  });
  v.nText = h('output', { for: 'long-n', class: 'long-value' });
  v.window = h('input', {
    type: 'number',
    min: '0',
    max: '16384',
    step: '1',
    id: 'long-w',
    class: 'long-num',
    onchange: (e) => {
      const w = Number(e.target.value);
      if (Number.isInteger(w) && w >= 0 && w <= 16384) c.set({ longWindow: w });
    },
  });
  v.workers = h(
    'select',
    { id: 'long-workers', onchange: (e) => c.set({ longWorkers: Number(e.target.value) }) },
    ...[1, 2, 4].map((k) => h('option', { value: String(k), text: String(k) })),
  );
  const run = (methods) => () => startRuns(c, methods);
  v.buttons = [
    button('btn', s('runNaive'), run(['naive'])),
    button('btn', s('runFlash'), run(['flash'])),
    button('btn', s('runWindow'), run(['window'])),
    button('btn primary', s('runAll'), run(METHODS)),
  ];
  v.stop = button('btn', s('stop'), () => c.ui.runner?.run.stop(), { disabled: true });
  v.progress = h('progress', { max: '1', value: '0', 'aria-label': s('idle') });
  v.status = h('p', { class: 'long-status', role: 'status', text: s('idle') });
  v.refused = h('p', { class: 'msg bad long-refused', role: 'alert' });
  const charts = h('div', { class: 'long-charts' });
  v.timeBars = createBars(charts, { color: WEIGHT });
  v.memBars = createBars(charts, { color: AMBER });
  v.noRuns = h('p', { class: 'hint' });
  v.table = h('div', { class: 'long-table' });
  c.ui.redrawCost = () => c.state.stage === 'cost' && drawCost(c, c.data, v);
  const sweep = buildSweep(c, v);
  return [
    sweep.figure,
    v.answer,
    h('p', { class: 'explain', text: s('p.cost1') }),
    h('p', { class: 'explain', text: s('p.cost2') }),
    v.predict.el,
    ...sweep.more,
    h('h4', { class: 'long-single', text: s('singleRuns') }),
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('n') }), v.nInput, v.nText),
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('window') }), v.window),
      h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('workers') }), v.workers),
    ),
    h('div', { class: 'controls long-run' }, ...v.buttons, v.stop),
    v.progress,
    v.status,
    v.refused,
    v.noRuns,
    charts,
    v.table,
  ];
}

// Beside the sweep's charts: its controls (the single runs' are with their bars, below).
export const costControls = sweepControls;

export function drawCost(c, data, v) {
  const { state, s } = c;
  const n = state.longN;
  // n × n cells: twice the tokens, four times the cells; the sweep measures the bytes
  const grown = memoryGrowth(c.kept.sweep);
  v.predict.draw(grown?.answer ?? null, { right: s('predictWhy'), wrong: s('predictWhy') });
  setText(
    v.answer,
    grown
      ? s('predictMeasured', {
          n1: grown.n1,
          b1: fmtInt(grown.b1),
          n2: grown.n2,
          b2: fmtInt(grown.b2),
          r: fmt(grown.ratio, 2),
        })
      : s('predictWaiting'),
  );
  v.nInput.value = String(Math.round(Math.log2(n)));
  v.nText.textContent = `n = ${n}`;
  if (!isFocused(v.window)) v.window.value = String(state.longWindow);
  v.workers.value = String(state.longWorkers);
  drawSweep(c, v);
  followSweep(c, { drawing: true }); // opened with nothing measured: the short sweep
  drawRunStatus(c, v);

  const runs = c.kept.runs || [];
  const last = (m) => runs.filter((r) => r.n === n && r.method === m).at(-1);
  const shown = METHODS.map(last);
  const failure = c.kept.run?.failure;
  const refused = shown[0]?.refused;
  v.refused.replaceChildren(
    ...(failure
      ? failure.engine
        ? [s('engineSays'), englishQuote(failure.message)]
        : [c.t('chapterError', { msg: failure.message })]
      : refused
        ? [s('refused', { n }), englishQuote(refused)]
        : []),
  );
  const measured = shown.filter((r) => r && !r.refused);
  setText(v.noRuns, measured.length ? '' : s('noRuns'));
  const labels = [s('naive'), s('flash'), s('windowShort')];
  for (const [bars, key, title] of [
    [v.timeBars, 'ms', 'timeTitle'],
    [v.memBars, 'mib', 'memTitle'],
  ]) {
    bars.el.hidden = measured.length === 0;
    if (measured.length) {
      bars.update({
        values: shown.map((r) => (r && !r.refused ? r[key] : NaN)),
        labels,
        caption: s(title, { n }),
        digits: 0,
      });
    }
  }
  v.table.replaceChildren(
    runs.length
      ? dataTable({
          caption: s('tableCaption'),
          head: [s('colN'), s('colMethod'), s('colMs'), s('colMib'), s('colWorkers')],
          rows: runs.map((r) => [
            String(r.n),
            methodLabel(c, r.method, r.window),
            r.refused ? s('refusedCell') : fmt(r.ms, 0),
            r.refused ? '—' : fmt(r.mib, 0),
            String(r.workers),
          ]),
        })
      : '',
  );
}

// The single runs' buttons, progress and status, from c.kept.run (the request under way or
// last made: status 'running' | 'done' | 'stopped' | 'failed').
function drawRunStatus(c, v) {
  const { s } = c;
  const run = c.kept.run;
  const busy = !!c.ui.runner?.run.running;
  for (const b of v.buttons) b.disabled = busy;
  v.stop.disabled = !busy;
  const p = run?.progress;
  v.progress.value = !run ? 0 : run.status === 'done' ? 1 : p?.total ? p.done / p.total : 0;
  const name = (m) => methodLabel(c, m, run.args.w);
  let text = s('idle');
  if (run?.status === 'running' && p)
    text =
      p.done === 0
        ? s('loading', { method: name(p.method), workers: p.workers })
        : s('running', { method: name(p.method), pct: Math.round((100 * p.done) / p.total) });
  else if (run?.status === 'stopped') text = s('stopped');
  else if (run?.status === 'done' || run?.status === 'running') {
    const r = (c.kept.runs || []).filter((x) => !x.refused).at(-1);
    if (r && run.args.done.includes(r.method) && r.n === run.args.n)
      text = s('doneRun', { method: name(r.method), n: r.n, ms: fmt(r.ms, 0), mib: fmt(r.mib, 0), workers: r.workers });
  }
  setText(v.status, text);
}

// One measuring request at a time: the latest wins, Stop terminates the workers.
function runner(c) {
  if (!c.ui.runner) {
    c.ui.runner = recordedRun({
      job: (run, onProgress, live) =>
        measureRuns(c.engine, (c.kept.runs ||= []), run.args, { onProgress, measured: () => redraw(c), live }),
      draw: (progressOnly) => (progressOnly ? drawRunStatus(c, c.step('cost')) : redraw(c)),
    });
    c.onLeave(() => c.ui.runner.run.dispose());
  }
  return c.ui.runner;
}

// The runs' status (in the cost step, shown or not), and the cost step when it is on screen.
function redraw(c) {
  drawRunStatus(c, c.step('cost'));
  c.ui.redrawCost();
}

function startRuns(c, methods) {
  const { longN: n, longWindow: w, longWorkers: workers, seed } = c.state;
  c.kept.run = { args: { methods, n, w, workers, seed, done: [] }, status: 'running', progress: null };
  runner(c).request(c.kept.run);
}

// Runs still going when the chapter was mounted again (a language switch) go on with the
// methods they had left, once the step is drawn.
export function resumeRuns(c) {
  const run = c.kept.run;
  if (run?.status !== 'running' || c.ui.runner) return;
  runner(c);
  requestAnimationFrame(() => {
    if (c.kept.run === run && !c.ui.runner.run.running) c.ui.runner.request(run);
  });
}
