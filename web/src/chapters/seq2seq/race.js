// The encoder–decoder playground's first step (./index.js): the race. Both models' tokens right
// against input length (Bahdanau et al. 2015, Fig. 2) and their loss curves lead, the training
// panel beside them; the probe sentence as each model writes it and the alignment of the model with
// attention (their Fig. 3) under them.

import { h } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { createLineChart } from '../../views/line-chart.js';
import { CHUNK, trainingText } from '../kit/training.js';
import { createPredict } from '../kit/predict.js';
import { heatmapFigure, drawFigure } from '../kit/figures.js';
import { BLUE, ORANGE } from '../../views/palette.js';
import { GUESSES, RUNS, longestAnswer, runName } from './logic.js';

const COLORS = { twin: ORANGE, main: BLUE };

// A line "label: words" whose words are English when the task's source is (translate): marked so,
// for screen readers and the page's language checks.
function wordsLine(c, key, words, english) {
  const [before, after = ''] = c.s(key, { tokens: '\u0000' }).split('\u0000');
  return h('p', {}, before, h('span', { text: words.join(' '), ...(english ? { lang: 'en' } : {}) }), after);
}

export function raceStep(training) {
  function build(c, v) {
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
    v.loss = createLineChart(v.lossBox, {
      label: v.lossCaption,
      xLabel: s('xStep'),
      yLabel: s('yLoss'),
      strings: strs,
    });
    v.length = createLineChart(v.lengthBox, {
      label: v.lengthCaption,
      xLabel: s('xLength'),
      yLabel: s('yAcc'),
      strings: strs,
    });
    v.align = heatmapFigure(c, { kind: 'sequential', className: 's2-align' });
    v.align.title.textContent = s('alignTitle'); // its heading before the first report
    v.noAlign = h('p', { class: 'hint', text: s('noAlign') });
    v.probe = h('div', { class: 's2-probe' });
    const charts = h('div', { class: 's2-charts', 'data-figure': 'main' }, v.lengthBox, v.lossBox);
    return [
      charts,
      h('p', { class: 'about lab-explain', text: s('raceAbout') }),
      v.predict.el,
      h('div', { class: 's2-race-below' }, v.probe, v.noAlign, v.align.wrap),
      h('p', { class: 'about lab-explain', text: s('alignAbout') }),
    ];
  }

  function draw(c, data, v) {
    const { s } = c;
    const hist = c.ui.history || {};
    const ready = RUNS.every((n) => hist[n] && hist[n].latest);
    const main = hist.main;
    const mark =
      main && main.learnedAt !== null ? { markX: main.learnedAt, markLabel: trainingText(c, 'learnedMark') } : {};
    const loss = RUNS.filter((n) => hist[n] && hist[n].loss.length).map((n) => ({
      name: runName(c, n),
      color: COLORS[n],
      mark: 'line',
      points: hist[n].loss,
    }));
    v.lossBox.hidden = !loss.length;
    if (loss.length)
      v.loss.update({
        series: loss,
        caption: v.lossCaption,
        xDomain: training.xDomain(c, RUNS),
        digits: 3,
        grow: true,
        ...mark,
      });
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
    const longest = longestAnswer(byLength('main'), byLength('twin'));
    const why = s('longest.why', {
      n: longest.length,
      none: fmt(longest.none, 3),
      attn: fmt(longest.attn, 3),
      step: main.step,
    });
    v.predict.draw(longest.answer, { right: why, wrong: why });
    const p = main.latest.probe,
      q = hist.twin.latest.probe;
    v.probe.replaceChildren(
      wordsLine(c, 'probeSource', p.sourceWords, c.state.s2Task === 'translate'),
      h('p', { text: s('probeTarget', { tokens: p.targetWords.join(' ') }) }),
      h('p', { class: 's2-out-none', text: s('probeNone', { tokens: q.predictionWords.join(' ') }) }),
      h('p', { class: 's2-out-attn', text: s('probeAttn', { tokens: p.predictionWords.join(' ') }) }),
    );
    v.noAlign.hidden = !!p.alignment;
    v.align.wrap.hidden = !p.alignment;
    if (p.alignment) {
      drawFigure(v.align, {
        title: s('alignTitle'),
        matrix: p.alignment,
        // a decoded output up to its "</s>" (kept, as the alignment has a row for it)
        rowLabels: p.predictionWords.map((w, i) => `${i + 1}:${w}`),
        colLabels: p.sourceWords.map((w, j) => `${j + 1}:${w}`),
        domain: [0, 1],
      });
    }
  }

  return { id: 'race', title: { en: 'Side by side', zh: '并排训练' }, build, draw };
}
