// The attention playground's figures (./index.js): the loss and accuracy curves of the runs on one
// step axis, every head's attention on the probe sequence, and the probe's lines.

import { h } from '../../views/dom.js';
import { createLineChart } from '../../views/line-chart.js';
import { heatmapFigure, drawFigure } from '../kit/figures.js';
import { trainingText } from '../kit/training.js';
import { BLUE, GREY, ORANGE } from '../../views/palette.js';
import { tokenText, tokensText, vocabOf } from './logic.js';

const COLORS = { main: BLUE, twin: ORANGE };

// The two charts, loss and held-out accuracy: a box each (v.lossBox, v.accBox), in v.charts.
export function buildCurves(c, v, lossCaption, accCaption) {
  const { s } = c;
  const strs = { showTable: c.t('showTable'), hideTable: s('hideTable') };
  v.lossBox = h('div', { class: 'pg-chart pg-loss' });
  v.accBox = h('div', { class: 'pg-chart pg-acc' });
  v.lossCaption = lossCaption;
  v.accCaption = accCaption;
  v.loss = createLineChart(v.lossBox, { label: lossCaption, xLabel: s('xStep'), yLabel: s('yLoss'), strings: strs });
  v.acc = createLineChart(v.accBox, { label: accCaption, xLabel: s('xStep'), yLabel: s('yAcc'), strings: strs });
  v.charts = h('div', { class: 'pg-charts' }, v.accBox, v.lossBox); // the accuracy from step 0, the loss from the first steps
  return v.charts;
}

// The runs' curves on the step axis xDomain, the step this run was learned at marked on both, and
// under the accuracy curves a blind guess among the task's tokens.
export function drawCurves(c, v, names, xDomain) {
  const { s } = c;
  const label = (name) => (name === 'main' ? s('runMain') : s('runTwin'));
  const hist = c.ui.history || {};
  const series = (key) =>
    names
      .filter((n) => hist[n] && hist[n][key].length)
      .map((n) => ({ name: label(n), color: COLORS[n], mark: 'line', points: hist[n][key] }));
  const loss = series('loss'),
    acc = series('acc');
  const learnedAt = hist.main ? hist.main.learnedAt : null;
  const mark = learnedAt !== null ? { markX: learnedAt, markLabel: trainingText(c, 'learnedMark') } : {};
  v.lossBox.hidden = !loss.length; // the training loss has no point before the first steps
  if (loss.length) v.loss.update({ series: loss, caption: v.lossCaption, xDomain, digits: 3, grow: true, ...mark });
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
      ...mark,
    });
  v.accBox.dataset.learnedAt = learnedAt ?? '';
}

// One heatmap per head of a run's latest probe.
export function drawHeads(c, box, run) {
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

// The probe, its targets and the run's output on it, one line each.
export function drawProbe(c, el, run) {
  const { s, state } = c;
  const r = run && run.latest;
  if (!r) return;
  el.replaceChildren(
    h('p', { text: s('probeLine', { tokens: tokensText(state.pgTask, r.probe.tokens) }) }),
    h('p', { text: s('targetLine', { tokens: tokensText(state.pgTask, r.probe.targets) }) }),
    h('p', { text: s('predLine', { tokens: tokensText(state.pgTask, r.probe.predictions) }) }),
  );
}
