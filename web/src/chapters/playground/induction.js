// The attention playground's fourth step (./index.js): induction heads. Each head's previous-token
// and induction scores over training beside the loss, the step where an induction score first
// reached INDUCTION_MARK, and ablation: a click on a head zeroes its output and the worker reports
// loss and accuracy on the probe and the held-out batch with and without it (Olsson et al. 2022).

import { button, h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { createLineChart } from '../../views/line-chart.js';
import { AMBER, BLUE, BROWN, GREEN, GREY, NAN, ORANGE, WEIGHT } from '../../views/palette.js';
import { crossing, headName } from './logic.js';

const HEAD_COLORS = [BLUE, ORANGE, GREEN, BROWN, WEIGHT, NAN, AMBER, GREY];

export function inductionStep(training, redraw) {
  return {
    id: 'induction',
    title: { en: 'Induction heads', zh: '归纳头' },
    build: buildInduction,
    // beside the curves: the task that shows the phase change
    controls: (c, v) => h('div', { class: 'pg-induction-use' }, v.hint, v.use),
    draw: (c, data, v) => drawInduction(c, v, training, redraw),
  };
}

function buildInduction(c, v) {
  const { s } = c;
  const strs = { showTable: c.t('showTable'), hideTable: s('hideTable') };
  v.hint = h('p', { class: 'hint pg-induction-hint' });
  v.use = button('btn pg-use-induction', s('inductionUse'), () => c.set({ pgTask: 'random-induction', pgStep: 0 }));
  v.lossBox = h('div', { class: 'pg-chart pg-induction-loss' });
  v.scoresBox = h('div', { class: 'pg-chart pg-scores' });
  v.loss = createLineChart(v.lossBox, {
    label: s('inductionLoss'),
    xLabel: s('xStep'),
    yLabel: s('yLoss'),
    strings: strs,
  });
  v.scores = createLineChart(v.scoresBox, {
    label: s('scoresChart'),
    xLabel: s('xStep'),
    yLabel: s('yScore'),
    strings: strs,
  });
  v.crossed = h('p', { class: 'pg-crossed', 'aria-live': 'polite' });
  v.heads = h('div', { class: 'pg-ablate-heads', role: 'group', 'aria-label': s('ablateAbout') });
  v.ablateStatus = h('p', { class: 'pg-ablate-status', 'aria-live': 'polite' });
  v.table = h('div', { class: 'pg-ablate-table' });
  // the step's figure: the loss and every head's scores, from the worker's first report (step 0)
  // on (aria-busy until then)
  v.charts = h('div', { class: 'pg-charts', 'data-figure': 'main', 'aria-busy': 'true' }, v.lossBox, v.scoresBox);
  return [
    v.charts,
    h('p', { class: 'about lab-explain', text: s('inductionAbout') }),
    v.crossed,
    h('p', { class: 'about', text: s('ablateAbout') }),
    v.heads,
    v.ablateStatus,
    v.table,
  ];
}

function drawInduction(c, v, training, redraw) {
  const { s, state } = c;
  const ui = c.ui;
  const random = state.pgTask === 'random-induction';
  setText(v.hint, random ? '' : s('inductionHint'));
  v.use.hidden = random;
  const main = ui.history && ui.history.main;
  const heads = state.pgHeads;
  const count = state.pgLayers * heads;
  const cross = crossing(main, count);
  const mark = { xDomain: training.xDomain(c, ['main']), ...(cross ? { markX: cross.step } : {}) };
  v.lossBox.dataset.crossedAt = cross ? String(cross.step) : '';
  v.lossBox.hidden = !(main && main.loss.length);
  if (main && main.loss.length) {
    v.loss.update({
      series: [{ name: s('runMain'), color: BLUE, mark: 'line', points: main.loss }],
      caption: s('inductionLoss'),
      digits: 3,
      grow: true,
      ...mark,
    });
  }
  const series = [];
  for (let k = 0; k < count && main; k++) {
    const name = headName(k, heads);
    const color = HEAD_COLORS[k % HEAD_COLORS.length];
    if ((main.tracks[`ind.${k}`] || []).length)
      series.push({ name: s('seriesInduction', name), color, mark: 'line', points: main.tracks[`ind.${k}`] });
    if ((main.tracks[`prev.${k}`] || []).length)
      series.push({
        name: s('seriesPrevious', name),
        color,
        dash: '5 3',
        mark: 'line',
        points: main.tracks[`prev.${k}`],
      });
  }
  v.scoresBox.hidden = !series.length;
  if (series.length) {
    v.scores.update({ series, caption: s('scoresChart'), yDomain: [0, 1], digits: 3, grow: true, ...mark });
    v.charts.removeAttribute('aria-busy');
  }
  setText(v.crossed, cross ? s('crossed', { step: cross.step, ...headName(cross.k, heads) }) : s('notCrossed'));
  drawAblation(c, v, main, count, heads, redraw);
}

function drawAblation(c, v, main, count, heads, redraw) {
  const { s } = c;
  const ui = c.ui;
  const scores = main && main.latest && main.latest.scores;
  if (v.heads.dataset.built !== `${count}x${heads}:${c.lang}`) {
    v.heads.dataset.built = `${count}x${heads}:${c.lang}`;
    v.buttons = Array.from({ length: count }, (_, k) =>
      h('button', {
        type: 'button',
        class: 'btn pg-ablate',
        'data-head': String(k),
        'aria-pressed': 'false',
        onclick: () => toggleAblation(c, k, redraw),
      }),
    );
    v.heads.replaceChildren(...v.buttons);
  }
  const ablate = ui.ablate || [];
  v.buttons.forEach((b, k) => {
    b.setAttribute('aria-pressed', String(ablate.includes(k)));
    b.disabled = !scores;
    setText(
      b,
      s('ablateHead', {
        ...headName(k, heads),
        prev: scores ? fmt(scores.previousToken[k], 2) : '–',
        ind: scores ? fmt(scores.induction[k], 2) : '–',
      }),
    );
  });
  if (!main || main.step === 0) {
    setText(v.ablateStatus, s('ablateWaiting'));
    v.table.replaceChildren();
    return;
  }
  if (!ablate.length) {
    setText(v.ablateStatus, s('ablateNone'));
    v.table.replaceChildren();
    return;
  }
  // one question to the worker per model (the run's history at a step) and heads ablated
  const key = { run: main, step: main.step, heads: ablate.join(' ') };
  const same = (a) => a && a.run === key.run && a.step === key.step && a.heads === key.heads;
  if (ui.ablation && same(ui.ablation.key)) {
    setText(v.ablateStatus, '');
    ablationTable(c, v, ui.ablation.result, heads);
    return;
  }
  if (same(ui.ablationAsked)) return;
  ui.ablationAsked = key;
  const pairs = ablate.map((k) => [Math.floor(k / heads), k % heads]);
  ui.client.ablate('main', pairs).then(
    (r) => {
      if (!r || !c.ui.client) return;
      ui.ablation = { key, result: r };
      if (c.state.stage === 'induction') redraw(c);
    },
    (e) => {
      ui.error = e.message;
      redraw(c);
    },
  );
}

function toggleAblation(c, k, redraw) {
  const ui = c.ui;
  const now = ui.ablate || [];
  ui.ablate = now.includes(k) ? now.filter((x) => x !== k) : [...now, k].sort((a, b) => a - b);
  redraw(c);
}

function ablationTable(c, v, r, heads) {
  const { s } = c;
  const names = r.heads.map(([l, hd]) => `L${l + 1}H${hd + 1}`).join(', ');
  const row = (label, a, b) =>
    h('tr', {}, h('th', { scope: 'row', text: label }), h('td', { text: fmt(a, 3) }), h('td', { text: fmt(b, 3) }));
  v.table.replaceChildren(
    h(
      'table',
      { class: 'data pg-ablation' },
      h('caption', { text: s('ablateTable') }),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', text: s('ablateMeasure') }),
          h('th', { scope: 'col', text: s('ablateWhole') }),
          h('th', { scope: 'col', text: s('ablateAblated', { heads: names }) }),
        ),
      ),
      h(
        'tbody',
        {},
        row(s('ablateHeldLoss'), r.whole.heldOut.loss, r.heldOut.loss),
        row(s('ablateHeldAcc'), r.whole.heldOut.accuracy, r.heldOut.accuracy),
        row(s('ablateProbeLoss'), r.whole.probe.loss, r.probe.loss),
        row(s('ablateProbeAcc'), r.whole.probe.accuracy, r.probe.accuracy),
      ),
    ),
  );
}
