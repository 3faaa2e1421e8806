// Lesson 13: the attention playground. A tiny attention-only transformer (../../engine-train.js)
// learns a toy task in a Web Worker (../kit/training.js, ../../workers/train-client.js); the page draws
// the loss and accuracy curves and every head's attention on the task's fixed probe sequence after
// each chunk of steps. A second model can train next to it with √d_k scaling or the positional
// encoding switched. The state in the hash (task, sizes, learning rate, seed, switches and the
// step the run stopped at) replays the same run: a seed fixes the weights and every batch. The
// induction-heads step is in ./induction.js.

import { h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { createLineChart } from '../../views/line-chart.js';
import { CHUNK, createTraining, drawReport } from '../kit/training.js';
import { createPredict } from '../kit/predict.js';
import { heatmapFigure, drawFigure } from '../kit/figures.js';
import { intInput, selectInput, splitTokens } from '../../views/controls.js';
import strings from './strings.js';
import { INDUCTION_MARK, buildInduction, drawInduction } from './induction.js';
import meta, { TASKS, POSITIONS, COMPARES, NO_SCALE, NO_SCALE_FROM, NO_SCALE_STEPS } from './meta.js';
import { BLUE, GREY, ORANGE } from '../../views/palette.js';
import { MAX_SEED } from '../../engine/choices.js';

const D_MODELS = [16, 32, 64, 128];
const RATES = [0.0003, 0.001, 0.003, 0.01, 0.03];
const LEARNED = 0.99; // held-out accuracy that counts as learned
const COLORS = { main: BLUE, twin: ORANGE };

// ---- the configuration of the runs ---------------------------------------------------------------

function configOf(state) {
  return {
    task: state.pgTask,
    layers: state.pgLayers,
    heads: state.pgHeads,
    dModel: state.pgD,
    learningRate: state.pgLr,
    seed: state.pgSeed,
    scale: state.pgScale,
    position: state.pgPos,
  };
}

// The twin of a run: the same with one switch flipped (or none).
function twinOf(config, compare) {
  if (compare === 'scale') return { ...config, scale: !config.scale };
  if (compare === 'position') return { ...config, position: config.position === 'none' ? 'learned' : 'none' };
  return null;
}

function runsOf(state) {
  const main = configOf(state);
  const twin = twinOf(main, state.pgCompare);
  return twin ? { main, twin } : { main };
}

// How a token reads: the separator of reverse and sort is |.
const tokenText = (task, x) => ((task === 'reverse' || task === 'sort') && x === 10 ? '|' : String(x));
const tokensText = (task, list) => Array.from(list, (x) => (x < 0 ? '·' : tokenText(task, x))).join(' ');

// ---- the session: the worker, the history of the runs, play / pause --------------------------------

// Every head's two scores as curves of the run: 'ind.<k>' and 'prev.<k>', k = layer * heads + head.
function scoreTracks(r) {
  const out = {};
  if (!r.scores) return out;
  r.scores.induction.forEach((y, k) => (out[`ind.${k}`] = y));
  r.scores.previousToken.forEach((y, k) => (out[`prev.${k}`] = y));
  return out;
}

const training = createTraining({
  stepField: 'pgStep',
  accuracy: (r) => r.evalAccuracy,
  learned: (r) => r.evalAccuracy >= LEARNED,
  clear: (ui) => {
    ui.inspected = null;
    ui.ablation = null;
    ui.ablate = [];
    ui.noScaleRun = false;
  },
  track: scoreTracks,
  marks: { induction: (r) => !!r.scores && Math.max(...r.scores.induction) >= INDUCTION_MARK },
  redraw,
});

// ---- the panel: settings and play / pause / step / reset ---------------------------------------------

function buildPanel(c, v) {
  const { s } = c;
  const set = (patch) => c.set({ ...patch, pgStep: 0 });
  v.task = selectInput(
    s('task'),
    TASKS.map((t) => ({ value: t, label: s(`task.${t}`) })),
    (x) => set({ pgTask: x }),
  );
  v.layers = selectInput(
    s('layers'),
    [1, 2].map((n) => ({ value: n, label: String(n) })),
    (x) => set({ pgLayers: Number(x) }),
  );
  v.heads = selectInput(
    s('heads'),
    [1, 2, 4].map((n) => ({ value: n, label: String(n) })),
    (x) => set({ pgHeads: Number(x) }),
  );
  v.d = selectInput(
    s('dModel'),
    D_MODELS.map((n) => ({ value: n, label: String(n) })),
    (x) => set({ pgD: Number(x) }),
  );
  v.lr = selectInput(
    s('learningRate'),
    RATES.map((n) => ({ value: n, label: String(n) })),
    (x) => set({ pgLr: Number(x) }),
  );
  v.seed = intInput(s('seed'), {
    min: 0,
    max: MAX_SEED,
    onValue: (x) => set({ pgSeed: x }),
    error: (min, max) => s('errInt', { min, max }),
  });
  v.pos = selectInput(
    s('position'),
    POSITIONS.map((p) => ({ value: p, label: s(`position.${p}`) })),
    (x) => set({ pgPos: x }),
  );
  v.scale = h('input', { type: 'checkbox', onchange: (e) => set({ pgScale: e.target.checked }) });
  v.rule = h('p', { class: 'about pg-rule' });
  training.buttons(c, v, 'pg', runsOf);
  v.status = h('p', { class: 'pg-status', 'aria-live': 'polite' });
  v.stopLearned = h('button', {
    type: 'button',
    class: 'btn pg-stop-learned',
    text: s('learnedStop'),
    onclick: () => training.pause(c),
  });
  v.learned = h('p', { class: 'pg-learned', 'aria-live': 'polite' });
  c.ui.panel = v;
  return h(
    'div',
    { class: 'pg-panel', 'data-group': 'inputs' },
    h(
      'div',
      { class: 'controls pg-controls' },
      v.task.wrap,
      v.layers.wrap,
      v.heads.wrap,
      v.d.wrap,
      v.lr.wrap,
      v.seed.wrap,
      v.pos.wrap,
    ),
    h('label', { class: 'check' }, v.scale, h('span', { text: s('scale') })),
    v.rule,
    h('div', { class: 'pg-buttons' }, v.play, v.step, v.reset),
    v.status,
    v.learned,
    v.stopLearned,
  );
}

function drawPanel(c, data, v) {
  const { s, state } = c;
  v.task.sync(state.pgTask);
  v.layers.sync(state.pgLayers);
  v.heads.sync(state.pgHeads);
  v.d.sync(state.pgD);
  v.lr.sync(state.pgLr);
  v.seed.sync(state.pgSeed);
  v.pos.sync(state.pgPos);
  v.scale.checked = state.pgScale;
  setText(v.rule, s(`rule.${state.pgTask}`));
  const ui = c.ui;
  const main = ui.history && ui.history.main;
  setText(v.play, ui.playing ? s('pause') : s('play'));
  v.play.setAttribute('aria-pressed', String(!!ui.playing));
  if (!main || !main.latest) {
    setText(v.status, s('loading'));
  } else {
    const r = main.latest;
    const params = {
      step: main.step,
      acc: fmt(r.evalAccuracy, 3),
      loss: fmt(r.evalLoss, 3),
      speed: fmt(main.speed, 1),
    };
    const toStep = { step: ui.until, done: main.step, pct: Math.floor((100 * main.step) / ui.until) };
    setText(
      v.status,
      ui.playing && ui.until !== Infinity && ui.until > CHUNK + main.step
        ? s(ui.noScaleRun ? 'noScaleRunning' : 'replaying', toStep)
        : s(main.speed > 0 ? 'status' : 'statusIdle', params),
    );
  }
  setText(
    v.learned,
    main && main.learnedAt !== null ? s('learned', { step: main.learnedAt, acc: fmt(LEARNED, 2) }) : '',
  );
  // learned while playing on: offer to stop there
  v.stopLearned.hidden = !(main && main.learnedAt !== null && ui.playing && ui.until === Infinity);
}

// ---- step 1: train and watch the heads ------------------------------------------------------------

function curves(c, v, names) {
  const { s } = c;
  const label = (name) => (name === 'main' ? s('runMain') : s('runTwin'));
  const hist = c.ui.history || {};
  const series = (key) =>
    names
      .filter((n) => hist[n] && hist[n][key].length)
      .map((n) => ({ name: label(n), color: COLORS[n], mark: 'line', points: hist[n][key] }));
  const loss = series('loss'),
    acc = series('acc');
  // One step axis for both charts, spanning at least one report (so the untrained model's first
  // point does not stand alone on a 0-1 axis).
  const steps = [...loss, ...acc].flatMap((se) => se.points.map((p) => p.x));
  const xDomain = [Math.min(0, ...steps), Math.max(CHUNK, ...steps)];
  v.lossBox.hidden = !loss.length; // the training loss has no point before the first steps
  if (loss.length) v.loss.update({ series: loss, caption: v.lossCaption, xDomain, digits: 3, grow: true });
  // the step where the held-out accuracy first reached LEARNED, marked on the accuracy curve
  const learnedAt = hist.main && hist.main.learnedAt;
  // Under the accuracy curves, a blind guess among the task's tokens.
  const vocab = vocabOf(c.state.pgTask);
  const guess = {
    name: s('chanceLine', { vocab }),
    color: GREY,
    dash: '2 3',
    mark: 'line',
    points: xDomain.map((x) => ({ x, y: 1 / vocab })),
  };
  if (acc.length)
    v.acc.update({
      series: [...acc, guess],
      caption: v.accCaption,
      xDomain,
      yDomain: [0, 1],
      digits: 3,
      grow: true,
      ...(learnedAt !== null && learnedAt !== undefined ? { markX: learnedAt } : {}),
    });
  v.accBox.dataset.learnedAt = learnedAt ?? '';
}

function buildCharts(c, v, lossCaption, accCaption) {
  const { s } = c;
  const strs = { showTable: c.t('showTable'), hideTable: s('hideTable') };
  v.lossBox = h('div', { class: 'pg-chart' });
  v.accBox = h('div', { class: 'pg-chart' });
  v.lossCaption = lossCaption;
  v.accCaption = accCaption;
  v.loss = createLineChart(v.lossBox, { label: lossCaption, xLabel: s('xStep'), yLabel: s('yLoss'), strings: strs });
  v.acc = createLineChart(v.accBox, { label: accCaption, xLabel: s('xStep'), yLabel: s('yAcc'), strings: strs });
  return h('div', { class: 'pg-charts' }, v.lossBox, v.accBox);
}

// One heatmap per head of a run's latest probe; each with a button to inspect it.
function drawHeads(c, box, run, withButtons) {
  const { s, state } = c;
  const r = run && run.latest;
  if (!r) return;
  const patterns = r.probe.patterns;
  const key = `${patterns.length}x${patterns[0].length}:${c.lang}`;
  if (box.dataset.built !== key) {
    box.dataset.built = key;
    box.replaceChildren();
    box.figs = [];
    patterns.forEach((layer, l) =>
      layer.forEach((_, hd) => {
        const fig = heatmapFigure(c, { kind: 'sequential', className: 'pg-head' });
        if (withButtons) {
          fig.wrap.append(
            h('button', {
              type: 'button',
              class: 'btn pg-inspect-head',
              text: s('inspectHead', { l: l + 1, h: hd + 1 }),
              onclick: () => c.set({ pgLayer: l + 1, pgHead: hd + 1, stage: 'inspect' }),
            }),
          );
        }
        box.figs.push({ l, hd, fig });
        box.append(fig.wrap);
      }),
    );
  }
  const labels = Array.from(r.probe.tokens, (x, i) => `${i}:${tokenText(state.pgTask, x)}`);
  for (const { l, hd, fig } of box.figs) {
    drawFigure(fig, {
      title: s('headTitle', { l: l + 1, h: hd + 1 }),
      matrix: patterns[l][hd],
      rowLabels: labels,
      colLabels: labels,
      domain: [0, 1],
    });
  }
}

function drawProbeLines(c, el, run) {
  const { s, state } = c;
  const r = run && run.latest;
  if (!r) return;
  el.replaceChildren(
    h('p', { text: s('probeLine', { tokens: tokensText(state.pgTask, r.probe.tokens) }) }),
    h('p', { text: s('targetLine', { tokens: tokensText(state.pgTask, r.probe.targets) }) }),
    h('p', { text: s('predLine', { tokens: tokensText(state.pgTask, r.probe.predictions) }) }),
  );
}

// Predict, then reveal: how often the untrained model is right. The answer is the engine's
// held-out accuracy of this configuration at step 0 (compute()), nearest of chance, a half, all.
const GUESSES = ['chance', 'half', 'all'];

function untrainedAnswer(acc, vocab) {
  const at = { chance: 1 / vocab, half: 0.5, all: 1 };
  return GUESSES.reduce((best, g) => (Math.abs(acc - at[g]) < Math.abs(acc - at[best]) ? g : best));
}

function buildTrain(c, v) {
  const { s } = c;
  v.predict = createPredict(c, {
    id: 'playground/untrained',
    question: '',
    options: GUESSES.map((g) => ({ value: g, label: s(`untrained.${g}`) })),
  });
  v.charts = buildCharts(c, v, s('lossChart', { n: CHUNK }), s('accChart'));
  v.probe = h('div', { class: 'pg-probe' });
  v.heads = h('div', { class: 'pg-heads maps' });
  return [v.predict.el, v.charts, h('p', { class: 'about lab-explain', text: s('headsAbout') }), v.probe, v.heads];
}

function drawTrain(c, data, v) {
  if (data) {
    const vocab = vocabOf(c.state.pgTask);
    const params = { acc: fmt(data.untrained.accuracy, 3), vocab, chance: fmt(1 / vocab, 3) };
    v.predict.ask(c.s('untrained.q', { task: c.s(`task.${c.state.pgTask}`) }));
    v.predict.draw(untrainedAnswer(data.untrained.accuracy, vocab), {
      right: c.s('untrained.why', params),
      wrong: c.s('untrained.why', params),
    });
  }
  curves(c, v, ['main']);
  drawProbeLines(c, v.probe, c.ui.history && c.ui.history.main);
  drawHeads(c, v.heads, c.ui.history && c.ui.history.main, true);
}

// ---- step 2: side by side ----------------------------------------------------------------------------

function buildCompare(c, v) {
  const { s } = c;
  v.compare = selectInput(
    s('compare'),
    COMPARES.map((x) => ({ value: x, label: s(`compare.${x}`) })),
    (x) => c.set({ pgCompare: x, pgStep: 0 }),
  );
  v.hint = h('p', { class: 'about' });
  v.charts = buildCharts(c, v, s('compareLoss'), s('compareAcc'));
  v.mainTitle = h('h4', { class: 'pg-run-title' });
  v.twinTitle = h('h4', { class: 'pg-run-title' });
  v.mainHeads = h('div', { class: 'pg-heads maps' });
  v.twinHeads = h('div', { class: 'pg-heads maps' });
  v.body = h(
    'div',
    { class: 'pg-side' },
    h('div', { class: 'pg-run' }, v.mainTitle, v.mainHeads),
    h('div', { class: 'pg-run' }, v.twinTitle, v.twinHeads),
  );
  v.noScale = h('button', {
    type: 'button',
    class: 'btn pg-no-scale',
    text: s('noScaleButton'),
    onclick: () => noScaleRun(c),
  });
  v.noScaleVerdict = h('p', { class: 'pg-no-scale-verdict', 'aria-live': 'polite' });
  const about = s('noScaleAbout', { d: NO_SCALE.pgD / NO_SCALE.pgHeads, lr: NO_SCALE.pgLr, steps: NO_SCALE_STEPS });
  // The step's figure: the curves of this run (and of its twin once a comparison is chosen),
  // from the worker's first report at step 0 on (aria-busy until then).
  v.charts.dataset.figure = 'main';
  v.charts.setAttribute('aria-busy', 'true');
  return [
    v.charts,
    h('div', { class: 'controls', 'data-group': 'inputs' }, v.compare.wrap),
    v.hint,
    v.noScaleVerdict,
    v.body,
    h('p', { class: 'about lab-explain', text: s('compareAbout') }),
    h('div', { class: 'pg-no-scale-box' }, h('p', { class: 'about', text: about }), v.noScale),
  ];
}

// "What happens without the scale": the preset (meta.js NO_SCALE), both runs from step 0 to
// NO_SCALE_STEPS, stopping there (the step then goes into the link, which replays the run).
function noScaleRun(c) {
  const ui = training.session(c);
  c.set({ ...NO_SCALE, pgStep: 0, stage: 'compare' });
  // a new configuration was restarted by compute(); the same one is started again from step 0
  if (!(ui.freshReset && ui.key === JSON.stringify(runsOf(c.state)))) training.restart(c, runsOf(c.state));
  training.runTo(c, NO_SCALE_STEPS);
  ui.noScaleRun = true;
  redraw(c);
}

// The mean of a loss curve's points after step `from` up to step `to`, and how much it climbed
// back up there: the sum of every rise from one point to the next. null until the curve reaches `to`.
function lossWindow(points, from, to) {
  const w = points.filter((p) => p.x > from && p.x <= to);
  if (!w.length || w[w.length - 1].x !== to) return null;
  let rise = 0;
  for (let i = 1; i < w.length; i++) rise += Math.max(0, w[i].y - w[i - 1].y);
  return { mean: w.reduce((a, p) => a + p.y, 0) / w.length, rise };
}

// The verdict of the preset's runs, when the state is the preset's (a link to it included).
function noScaleVerdict(c) {
  const { state, s } = c;
  const hist = c.ui.history || {};
  if (!Object.entries(NO_SCALE).every(([k, x]) => state[k] === x) || !hist.main || !hist.twin) return '';
  const scaled = lossWindow(hist.main.loss, NO_SCALE_FROM, NO_SCALE_STEPS);
  const unscaled = lossWindow(hist.twin.loss, NO_SCALE_FROM, NO_SCALE_STEPS);
  if (!scaled || !unscaled) return '';
  return s('noScaleVerdict', {
    from: NO_SCALE_FROM,
    to: NO_SCALE_STEPS,
    u: fmt(unscaled.mean, 3),
    ur: fmt(unscaled.rise, 3),
    s: fmt(scaled.mean, 3),
    sr: fmt(scaled.rise, 3),
  });
}

function drawCompare(c, data, v) {
  const { s, state } = c;
  v.compare.sync(state.pgCompare);
  const on = state.pgCompare !== 'none';
  setText(v.hint, on ? s(state.pgCompare === 'scale' ? 'compareScaleHint' : 'comparePositionHint') : s('compareNone'));
  // with no comparison chosen, this run alone: its curves and heads
  v.twinHeads.parentElement.hidden = !on;
  setText(v.noScaleVerdict, on ? noScaleVerdict(c) : '');
  // the captions name the runs drawn: this one alone, or both
  v.lossCaption = on ? s('compareLoss') : s('lossChart', { n: CHUNK });
  v.accCaption = on ? s('compareAcc') : s('accChart');
  const hist = c.ui.history || {};
  if (hist.main && hist.main.acc.length && (!on || (hist.twin && hist.twin.acc.length)))
    v.charts.removeAttribute('aria-busy');
  if (!on) {
    setText(v.mainTitle, s('runMain'));
    curves(c, v, ['main']);
    drawHeads(c, v.mainHeads, hist.main, false);
    return;
  }
  const twin = twinOf(configOf(state), state.pgCompare);
  const twinText =
    state.pgCompare === 'scale'
      ? twin.scale
        ? 'twinUnscaledBack'
        : 'twinScale'
      : twin.position === 'none'
        ? 'twinPosition'
        : 'twinPositionBack';
  setText(v.mainTitle, s('runMain'));
  setText(v.twinTitle, s('twinTitle', { run: s('runTwin'), what: s(twinText) }));
  curves(c, v, ['main', 'twin']);
  drawHeads(c, v.mainHeads, c.ui.history && c.ui.history.main, false);
  drawHeads(c, v.twinHeads, c.ui.history && c.ui.history.twin, false);
}

// ---- step 3: your own sequence -----------------------------------------------------------------------

function vocabOf(task) {
  return task === 'reverse' || task === 'sort' ? 11 : task === 'random-induction' ? 64 : 16;
}

function lengthOf(task) {
  return task === 'random-induction' ? 32 : 16;
}

function buildInspect(c, v) {
  const { s } = c;
  v.tokensId = 'pg-own-tokens';
  v.input = h('input', { type: 'text', class: 'wide', id: v.tokensId, autocomplete: 'off', spellcheck: false });
  v.err = h('div', { class: 'field-error', role: 'alert', id: `${v.tokensId}-e` });
  v.input.setAttribute('aria-describedby', `${v.tokensId}-e`);
  v.label = h('label', { for: v.tokensId });
  v.input.addEventListener('change', () => {
    const max = vocabOf(c.state.pgTask) - 1;
    const list = splitTokens(v.input.value.replace(/\|/g, ' 10 '));
    const n = lengthOf(c.state.pgTask);
    const ok = list.length >= 1 && list.length <= n && list.every((t) => /^\d+$/.test(t) && Number(t) <= max);
    v.input.setAttribute('aria-invalid', String(!ok));
    v.err.textContent = ok ? '' : n === 16 ? s('errTokens', { max }) : s('errTokensLength', { n, max });
    if (ok) c.set({ pgInput: list });
  });
  v.layer = selectInput(
    s('inspectLayer'),
    [1, 2].map((n) => ({ value: n, label: String(n) })),
    (x) => c.set({ pgLayer: Number(x) }),
  );
  v.head = selectInput(
    s('inspectHeadNo'),
    [1, 2, 3, 4].map((n) => ({ value: n, label: String(n) })),
    (x) => c.set({ pgHead: Number(x) }),
  );
  // The step's figure: the head on the tokens, from the model as it is now (at step 0 the
  // untrained model's, said so in its title); aria-busy until the worker's first answer.
  v.fig = heatmapFigure(c, { kind: 'sequential', className: 'pg-own' });
  v.fig.wrap.dataset.figure = 'main';
  v.fig.wrap.setAttribute('aria-busy', 'true');
  v.pred = h('p', { class: 'pg-pred', 'aria-live': 'polite' });
  v.waiting = h('p', { class: 'hint' });
  return [
    v.fig.wrap,
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('div', { class: 'field' }, v.label, v.input, v.err),
      v.layer.wrap,
      v.head.wrap,
    ),
    v.waiting,
    v.pred,
    h('p', { class: 'about lab-explain', text: s('inspectAbout') }),
  ];
}

function drawInspect(c, data, v) {
  const { s, state } = c;
  const ui = c.ui;
  const max = vocabOf(state.pgTask) - 1;
  setText(v.label, s('inspectTokens', { max }));
  const tokens = state.pgInput.length ? state.pgInput.map(Number) : null;
  if (document.activeElement !== v.input && v.input.getAttribute('aria-invalid') !== 'true') {
    v.input.value = tokens ? tokensText(state.pgTask, tokens) : '';
  }
  v.layer.sync(Math.min(state.pgLayer, state.pgLayers));
  v.head.sync(Math.min(state.pgHead, state.pgHeads));
  for (const [sel, most] of [
    [v.layer.select, state.pgLayers],
    [v.head.select, state.pgHeads],
  ]) {
    for (const o of sel.options) o.disabled = Number(o.value) > most;
  }
  const main = ui.history && ui.history.main;
  if (!main || !main.latest) return; // the worker's first report (step 0) is on its way
  const trained = main.step > 0;
  setText(v.waiting, trained ? '' : s('inspectWaiting'));
  const l = Math.min(state.pgLayer, state.pgLayers) - 1,
    hd = Math.min(state.pgHead, state.pgHeads) - 1;
  const list =
    tokens && tokens.length <= lengthOf(state.pgTask) && tokens.every((x) => x <= max)
      ? tokens
      : Array.from(main.latest.probe.tokens);
  const key = JSON.stringify([ui.key, main.step, list]);
  const show = (r) => {
    const labels = Array.from(r.tokens, (x, i) => `${i}:${tokenText(state.pgTask, x)}`);
    drawFigure(v.fig, {
      title: s(trained ? 'inspectTitle' : 'inspectTitleUntrained', { l: l + 1, h: hd + 1 }),
      matrix: r.patterns[l][hd],
      rowLabels: labels,
      colLabels: labels,
      domain: [0, 1],
    });
    v.fig.wrap.dataset.step = String(main.step);
    v.fig.wrap.removeAttribute('aria-busy');
    setText(v.pred, s('predictions', { tokens: tokensText(state.pgTask, r.predictions) }));
  };
  if (ui.inspected && ui.inspected.key === key) {
    show(ui.inspected.result);
    return;
  }
  ui.client.inspect('main', list).then(
    (r) => {
      if (!r || !c.ui.client) return;
      ui.inspected = { key, result: r };
      if (c.state.stage === 'inspect') show(r);
    },
    (e) => {
      ui.error = e.message;
      redraw(c);
    },
  );
}

// ---- redrawing on a report (not a state change) -----------------------------------------------------

function redraw(c) {
  drawReport(c, STEPS, drawPanel);
}

const STEPS = [
  { id: 'train', title: { en: 'Train', zh: '训练' }, build: buildTrain, draw: drawTrain },
  { id: 'compare', title: { en: 'Side by side', zh: '并排对比' }, build: buildCompare, draw: drawCompare },
  { id: 'inspect', title: { en: 'Your sequence', zh: '你的序列' }, build: buildInspect, draw: drawInspect },
  {
    id: 'induction',
    title: { en: 'Induction heads', zh: '归纳头' },
    build: buildInduction,
    draw: (c, data, v) => drawInduction(c, data, v, redraw),
  },
];

export default {
  ...meta,
  prefix: 'pg',
  strings,
  panel: { build: buildPanel, draw: drawPanel },
  steps: STEPS,
  // The runs follow the state: a new configuration (or a link) starts them again.
  compute(c) {
    const ui = training.session(c);
    const key = JSON.stringify(runsOf(c.state));
    if (key !== ui.key) training.restart(c, runsOf(c.state));
    // The untrained model of this configuration on the held-out batch (for the question), from
    // the page's own trainer engine (the training itself runs in the worker).
    const config = JSON.stringify(configOf(c.state));
    if (!ui.untrained || ui.untrained.config !== config) {
      const t = c.trainEngine.trainer(configOf(c.state));
      try {
        ui.untrained = { config, ...t.evaluate() };
      } finally {
        t.delete();
      }
    }
    return { untrained: ui.untrained };
  },
};
