// The playground's second mode: two RNN encoder–decoders (trainEngine.seq2seq, engine-train.js)
// train side by side in the training worker (../../workers/train-client.js), one without
// attention (the fixed-vector bottleneck) and one with it, on the same seed and batches. The page
// draws both loss curves, token accuracy against input length (Bahdanau et al. 2015, Fig. 2) and
// the attention model's alignment on the task's probe sentence (their Fig. 3) after each chunk of
// steps, and translates the learner's own sentence with both. The state in the hash (task,
// attention kind, seed and the step the run stopped at) replays the same run.

import { h, isFocused, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { createLineChart } from '../../views/line-chart.js';
import { dataTable, scrollRegion } from '../../views/table.js';
import { CHUNK, createTraining, drawReport } from '../kit/training.js';
import { createPredict } from '../kit/predict.js';
import { heatmapFigure, drawFigure } from '../kit/figures.js';
import { intInput, selectInput, splitTokens } from '../../views/controls.js';
import { BLUE, ORANGE } from '../../views/palette.js';
import strings from './strings.js';
import meta, { S2S_TASKS, S2S_ATTENTIONS } from './meta.js';
import { MAX_SEED } from '../../engine/choices.js';

const LEARNED = 0.95; // token accuracy at every length that counts as learned
const COLORS = { twin: ORANGE, main: BLUE }; // twin: no attention; main: with attention
const RUNS = ['twin', 'main'];

// The two runs: 'main' with the chosen attention, 'twin' the same model without it.
function runsOf(state) {
  const base = { kind: 'seq2seq', task: state.s2Task, seed: state.s2Seed };
  return { main: { ...base, attention: state.s2Attn }, twin: { ...base, attention: 'none' } };
}

const joined = (words) => words.join(' ');
// A line "label: words" whose words are English when the task's source is (translate): marked so,
// for screen readers and the page's language checks.
function wordsLine(c, key, words, english, className) {
  const [before, after = ''] = c.s(key, { tokens: '\u0000' }).split('\u0000');
  const span = h('span', { text: joined(words), ...(english ? { lang: 'en' } : {}) });
  return h('p', className ? { class: className } : {}, before, span, after);
}
// a decoded output up to its "</s>" (kept, as the alignment has a row for it)
const outputWords = (r) => r.predictionWords;

// ---- the session: the worker, the runs' history, play / pause -----------------------------------

const training = createTraining({
  stepField: 's2Step',
  learned: (r) => r.step > 0 && Math.min(...r.byLength.tokenAccuracy) >= LEARNED,
  clear: (ui) => {
    ui.own = null;
  },
  redraw,
});

const runName = (c, name) =>
  name === 'twin' ? c.s('runNone') : c.s('runAttn', { kind: c.s(`attention.${c.state.s2Attn}`) });

// ---- the panel -------------------------------------------------------------------------------------

function buildPanel(c, v) {
  const { s } = c;
  const set = (patch) => c.set({ ...patch, s2Step: 0 });
  v.task = selectInput(
    s('task'),
    S2S_TASKS.map((t) => ({ value: t, label: s(`task.${t}`) })),
    (x) => set({ s2Task: x }),
  );
  v.attn = selectInput(
    s('attention'),
    S2S_ATTENTIONS.map((a) => ({ value: a, label: s(`attention.${a}`) })),
    (x) => set({ s2Attn: x }),
  );
  v.seed = intInput(s('seed'), {
    min: 0,
    max: MAX_SEED,
    onValue: (x) => set({ s2Seed: x }),
    error: (min, max) => s('errInt', { min, max }),
  });
  v.rule = h('p', { class: 'about s2-rule' });
  training.buttons(c, v, 's2', runsOf);
  v.status = h('p', { class: 's2-status', 'aria-live': 'polite' });
  v.learned = h('div', { class: 's2-learned', 'aria-live': 'polite' });
  c.ui.panel = v;
  return h(
    'div',
    { class: 's2-panel', 'data-group': 'inputs' },
    h('div', { class: 'controls s2-controls' }, v.task.wrap, v.attn.wrap, v.seed.wrap),
    v.rule,
    h('div', { class: 's2-buttons' }, v.play, v.step, v.reset),
    v.status,
    v.learned,
  );
}

function drawPanel(c, data, v) {
  const { s, state } = c;
  v.task.sync(state.s2Task);
  v.attn.sync(state.s2Attn);
  v.seed.sync(state.s2Seed);
  setText(v.rule, s(`rule.${state.s2Task}`));
  const ui = c.ui;
  const main = ui.history && ui.history.main;
  const twin = ui.history && ui.history.twin;
  setText(v.play, ui.playing ? s('pause') : s('play'));
  v.play.setAttribute('aria-pressed', String(!!ui.playing));
  if (!main || !main.latest || !twin || !twin.latest) {
    setText(v.status, s('loading'));
  } else {
    const params = {
      step: main.step,
      none: fmt(twin.latest.evalAccuracy, 3),
      attn: fmt(main.latest.evalAccuracy, 3),
      speed: fmt(main.speed, 1),
    };
    setText(
      v.status,
      ui.playing && ui.until !== Infinity && ui.until > CHUNK + main.step
        ? s('replaying', { step: ui.until })
        : s(main.speed > 0 ? 'status' : 'statusIdle', params),
    );
  }
  v.learned.replaceChildren(
    ...RUNS.filter((n) => ui.history && ui.history[n] && ui.history[n].learnedAt !== null).map((n) =>
      h('p', { text: s('learned', { run: runName(c, n), step: ui.history[n].learnedAt }) }),
    ),
  );
}

// ---- step 1: the race --------------------------------------------------------------------------------

const GUESSES = ['none', 'attn', 'same'];

function buildRace(c, v) {
  const { s } = c;
  const strs = { showTable: c.t('showTable'), hideTable: s('hideTable') };
  v.predict = createPredict(c, {
    id: 'seq2seq/longest',
    question: s('longest.q'),
    options: GUESSES.map((g) => ({ value: g, label: s(`longest.${g}`) })),
  });
  v.lossBox = h('div', { class: 's2-chart s2-loss' });
  v.lengthBox = h('div', { class: 's2-chart s2-length' });
  v.lossCaption = s('lossChart', { n: CHUNK });
  v.lengthCaption = s('lengthChart');
  v.loss = createLineChart(v.lossBox, { label: v.lossCaption, xLabel: s('xStep'), yLabel: s('yLoss'), strings: strs });
  v.length = createLineChart(v.lengthBox, {
    label: v.lengthCaption,
    xLabel: s('xLength'),
    yLabel: s('yAcc'),
    strings: strs,
  });
  v.align = heatmapFigure(c, { kind: 'sequential', className: 's2-align' });
  v.align.title.textContent = c.s('alignTitle'); // its heading before the first report
  v.noAlign = h('p', { class: 'hint', text: s('noAlign') });
  v.probe = h('div', { class: 's2-probe' });
  return [
    h('p', { class: 'about lab-explain', text: s('raceAbout') }),
    v.predict.el,
    h('div', { class: 's2-charts', 'data-figure': 'main' }, v.lengthBox, v.lossBox),
    v.probe,
    h('p', { class: 'about lab-explain', text: s('alignAbout') }),
    v.noAlign,
    v.align.wrap,
  ];
}

function drawRace(c, data, v) {
  const { s } = c;
  const hist = c.ui.history || {};
  const ready = RUNS.every((n) => hist[n] && hist[n].latest);
  const loss = RUNS.filter((n) => hist[n] && hist[n].loss.length).map((n) => ({
    name: runName(c, n),
    color: COLORS[n],
    mark: 'line',
    points: hist[n].loss,
  }));
  v.lossBox.hidden = !loss.length;
  if (loss.length) v.loss.update({ series: loss, caption: v.lossCaption, digits: 3, grow: true });
  if (!ready) return;
  const byLength = (n) => hist[n].latest.byLength;
  v.length.update({
    series: RUNS.map((n) => ({
      name: runName(c, n),
      color: COLORS[n],
      mark: 'line',
      points: Array.from(byLength(n).lengths, (x, k) => ({ x, y: byLength(n).tokenAccuracy[k] })),
    })),
    caption: v.lengthCaption,
    yDomain: [0, 1],
    digits: 3,
  });
  // predict, then reveal: the longest length, as the engine measures it now
  const last = byLength('main').lengths.length - 1;
  const none = byLength('twin').tokenAccuracy[last],
    attn = byLength('main').tokenAccuracy[last];
  const answer = Math.abs(attn - none) < 0.05 ? 'same' : attn > none ? 'attn' : 'none';
  const why = s('longest.why', {
    n: byLength('main').lengths[last],
    none: fmt(none, 3),
    attn: fmt(attn, 3),
    step: hist.main.step,
  });
  v.predict.draw(answer, { right: why, wrong: why });
  const p = hist.main.latest.probe,
    q = hist.twin.latest.probe;
  v.probe.replaceChildren(
    wordsLine(c, 'probeSource', p.sourceWords, c.state.s2Task === 'translate'),
    h('p', { text: s('probeTarget', { tokens: joined(p.targetWords) }) }),
    h('p', { class: 's2-out-none', text: s('probeNone', { tokens: joined(outputWords(q)) }) }),
    h('p', { class: 's2-out-attn', text: s('probeAttn', { tokens: joined(outputWords(p)) }) }),
  );
  v.noAlign.hidden = !!p.alignment;
  v.align.wrap.hidden = !p.alignment;
  if (p.alignment) {
    drawFigure(v.align, {
      title: s('alignTitle'),
      matrix: p.alignment,
      rowLabels: outputWords(p).map((w, i) => `${i + 1}:${w}`),
      colLabels: p.sourceWords.map((w, j) => `${j + 1}:${w}`),
      domain: [0, 1],
    });
  }
}

// ---- step 2: your own sentence -------------------------------------------------------------------

function buildOwn(c, v) {
  const { s } = c;
  v.id = 's2-own-input';
  v.input = h('input', { type: 'text', class: 'wide', id: v.id, autocomplete: 'off', spellcheck: false });
  v.err = h('div', { class: 'field-error', role: 'alert', id: `${v.id}-e` });
  v.input.setAttribute('aria-describedby', `${v.id}-e`);
  v.words = h('p', { class: 'hint s2-words' });
  v.input.addEventListener('change', () => {
    const words = c.ui.words || [];
    const list = splitTokens(v.input.value);
    const ok = list.length >= 1 && list.length <= 24 && list.every((w) => words.includes(w));
    v.input.setAttribute('aria-invalid', String(!ok));
    v.err.textContent = ok ? '' : s('errOwn', { words: words.join(' ') });
    if (ok) c.set({ s2Input: list });
  });
  v.waiting = h('p', { class: 'hint' });
  v.out = h('div', { class: 's2-own-out', 'aria-live': 'polite' });
  // The step's figure: the alignment on the sentence, from the models as they are now (at step
  // 0 the untrained model's, said so in its title); aria-busy until the worker's first answer.
  v.fig = heatmapFigure(c, { kind: 'sequential', className: 's2-own' });
  v.fig.title.textContent = c.s('ownTitle'); // its heading before the sentence is translated
  v.fig.wrap.dataset.figure = 'main';
  v.fig.wrap.setAttribute('aria-busy', 'true');
  return [
    v.fig.wrap,
    h(
      'div',
      { class: 'controls', 'data-group': 'inputs' },
      h('div', { class: 'field' }, h('label', { for: v.id, text: s('ownLabel') }), v.input, v.err),
    ),
    v.words,
    v.waiting,
    v.out,
    h('p', { class: 'about lab-explain', text: s('ownAbout') }),
  ];
}

function drawOwn(c, data, v) {
  const { s, state } = c;
  const ui = c.ui;
  const main = ui.history && ui.history.main;
  if (!main || !main.latest) return;
  const probe = main.latest.probe;
  const vocabulary = main.latest.vocabulary;
  ui.words = vocabulary;
  setText(v.words, s('ownWords', { words: vocabulary.join(' ') }));
  // your words if they are the task's (a link or a task change may bring others), else the probe's
  const own = state.s2Input.length && state.s2Input.every((w) => vocabulary.includes(w));
  const words = own ? state.s2Input : probe.sourceWords;
  if (!isFocused(v.input) && v.input.getAttribute('aria-invalid') !== 'true') v.input.value = joined(words);
  const trained = main.step > 0;
  setText(v.waiting, trained ? '' : s('ownWaiting'));
  const key = JSON.stringify([ui.key, main.step, words]);
  const show = (r) => {
    const lines = [
      h('p', { class: 's2-own-none', text: s('ownNone', { tokens: joined(r.twin.predictionWords) }) }),
      h('p', { class: 's2-own-attn', text: s('ownAttn', { tokens: joined(r.main.predictionWords) }) }),
      r.main.targetWords
        ? h('p', { text: s('ownExpected', { tokens: joined(r.main.targetWords) }) })
        : h('p', { class: 'hint', text: s('ownNotSentence') }),
    ];
    v.out.replaceChildren(...lines);
    if (r.main.alignment) {
      // untrained, the decoder rarely says "</s>" and runs to the longest output: its first
      // (words + 1) rows are drawn, and the title says how many of how many
      const a = r.main.alignment;
      const rows = trained ? a.rows : Math.min(a.rows, r.main.sourceWords.length + 1);
      drawFigure(v.fig, {
        title: trained ? s('ownTitle') : s('ownTitleUntrained', { k: rows, n: a.rows }),
        matrix: rows === a.rows ? a : { rows, cols: a.cols, data: a.data.subarray(0, rows * a.cols) },
        rowLabels: r.main.predictionWords.slice(0, rows).map((w, i) => `${i + 1}:${w}`),
        colLabels: r.main.sourceWords.map((w, j) => `${j + 1}:${w}`),
        domain: [0, 1],
      });
      v.fig.wrap.dataset.step = String(main.step);
      v.fig.wrap.removeAttribute('aria-busy');
    }
  };
  if (ui.own && ui.own.key === key) {
    show(ui.own.result);
    return;
  }
  Promise.all([ui.client.inspect('main', words), ui.client.inspect('twin', words)]).then(
    ([a, b]) => {
      if (!a || !b || !c.ui.client) return;
      ui.own = { key, result: { main: a, twin: b } };
      if (c.state.stage === 'own') show(ui.own.result);
    },
    (e) => {
      v.err.textContent = e.message;
    },
  );
}

// ---- step 3: whole sentences, length by length -------------------------------------------------

function buildLengths(c, v) {
  // the step's figure, filled by the worker's first report (aria-busy until then)
  v.box = h('div', { class: 's2-lengths table-scroll', 'data-figure': 'main', 'aria-busy': 'true' }); // scrolls sideways on its own at 360 px
  return [v.box, h('p', { class: 'about lab-explain', text: c.s('lengthsAbout') })];
}

function drawLengths(c, data, v) {
  const { s } = c;
  const hist = c.ui.history || {};
  if (!RUNS.every((n) => hist[n] && hist[n].latest)) return;
  const a = hist.twin.latest.byLength,
    b = hist.main.latest.byLength;
  const caption = s('lengthsCaption', { step: hist.main.step });
  const rows = Array.from(a.lengths, (n, k) => [
    String(n),
    fmt(a.tokenAccuracy[k], 3),
    fmt(b.tokenAccuracy[k], 3),
    fmt(a.sequenceAccuracy[k], 3),
    fmt(b.sequenceAccuracy[k], 3),
  ]);
  const head = [s('xLength'), s('colTokensNone'), s('colTokensAttn'), s('colWholeNone'), s('colWholeAttn')];
  v.box.replaceChildren(dataTable({ caption, head, rows }));
  scrollRegion(v.box, caption);
  v.box.removeAttribute('aria-busy');
}

// ---- redrawing on a report (not a state change) -----------------------------------------------------

function redraw(c) {
  drawReport(c, STEPS, drawPanel);
}

const STEPS = [
  { id: 'race', title: { en: 'Side by side', zh: '并排训练' }, build: buildRace, draw: drawRace },
  { id: 'own', title: { en: 'Your sentence', zh: '你的句子' }, build: buildOwn, draw: drawOwn },
  { id: 'lengths', title: { en: 'Length by length', zh: '逐个长度' }, build: buildLengths, draw: drawLengths },
];

export default {
  ...meta,
  prefix: 's2',
  strings,
  panel: { build: buildPanel, draw: drawPanel },
  steps: STEPS,
  // The runs follow the state: a new configuration (or a link) starts them again.
  compute(c) {
    const ui = training.session(c);
    const key = JSON.stringify(runsOf(c.state));
    if (key !== ui.key) training.restart(c, runsOf(c.state));
    return {};
  },
};
