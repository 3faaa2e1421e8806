// The block chapter's parallel against sequential: the GRU's hidden states appearing one after
// another as an RNN computes them, the sequential steps and path lengths of each, and (on request)
// the attention layer and the GRU timed at several lengths, kept in c.kept.

import { button, h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { dataTable } from '../../views/table.js';
import { heatmapFigure, drawFigure, dims } from '../kit/figures.js';
import { parallelVsSequential } from './logic.js';
import { RNN_LENGTHS } from './meta.js';
import { layout } from './parts.js';

export function buildParallel(c, v) {
  const { s } = c;
  v.fig = heatmapFigure(c, { className: 'map-bl-rnn' });
  v.measure = button('bl-measure', s('measure'), () => measure(c, v));
  v.replay = button('bl-replay', s('replay'), () => {
    v.rnn = null; // the states appear again, one after another
    c.redraw();
  });
  v.table = h('div', { class: 'bl-table', 'aria-live': 'polite' });
  v.verdict = h('p', { class: 'lab-explain bl-verdict bl-timed', 'aria-live': 'polite' });
  v.paths = h('div', { class: 'bl-table' });
  c.onLeave(() => clearTimeout(v.rnn?.timer));
  return layout(
    v,
    v.fig.wrap,
    s('parallel.lead'),
    [v.replay, v.measure],
    v.paths,
    v.table,
    v.verdict,
    h('p', { class: 'lab-explain', text: s('parallel.more') }),
  );
}

// The timed comparison, measured on request; kept (c.kept) when the chapter is mounted again.
function measure(c, v) {
  c.kept.parallel = parallelVsSequential(c.engine, c.state.seed, RNN_LENGTHS);
  drawMeasured(c, v);
}

function drawMeasured(c, v) {
  const rows = c.kept.parallel;
  if (!rows) return;
  v.table.replaceChildren(
    dataTable({
      caption: c.s('parallel.timed'),
      head: ['n', c.s('col.attention'), c.s('col.rnn'), c.s('col.steps')],
      rows: rows.map((r) => [String(r.n), fmt(r.attentionMs, 3), fmt(r.rnnMs, 3), String(r.rnnSteps)]),
    }),
  );
  const last = rows[rows.length - 1];
  setText(
    v.verdict,
    c.s('parallel.verdict', {
      rnnFaster: rows.filter((r) => r.rnnMs < r.attentionMs).length,
      lengths: rows.length,
      n: last.n,
      ratio: fmt(last.attentionMs / last.rnnMs, 1),
    }),
  );
}

// The GRU's hidden states appear one after another, as the RNN computes them (state t after
// state t - 1), every STATE_MS; with prefers-reduced-motion all at once. The figure's
// data-shown is the number of states drawn, data-done is set once the last one is.
const STATE_MS = 450;

// Draws the first k states (k = v.rnn.shown; `mark`: say so in data-shown / data-done).
function showStates(c, v, hidden, labels, k = v.rnn.shown, mark = true) {
  drawFigure(v.fig, {
    title: c.s('mapRnn'),
    matrix: { rows: k, cols: hidden.cols, data: hidden.data.subarray(0, k * hidden.cols) },
    rowLabels: labels.slice(0, k),
    colLabels: dims(hidden.cols),
    domain: [-1, 1], // a GRU's state stays in (−1, 1): the colours do not move as rows appear
  });
  if (!mark) return;
  v.fig.wrap.dataset.shown = String(k);
  if (k === hidden.rows) {
    v.fig.wrap.dataset.done = 'true';
    v.fig.wrap.style.minHeight = '';
  } else {
    delete v.fig.wrap.dataset.done;
  }
}

function drawStates(c, v, hidden, labels) {
  const key = `${labels.join('\u0000')}|${Array.from(hidden.data).join(',')}`;
  if (v.rnn?.key !== key) {
    clearTimeout(v.rnn?.timer);
    const still = !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    v.rnn = { key, shown: hidden.rows, timer: 0 };
    if (!still && hidden.rows > 1) {
      // the whole figure once, unmarked, so its final height is kept while the rows come in
      showStates(c, v, hidden, labels, hidden.rows, false);
      v.fig.wrap.style.minHeight = `${v.fig.wrap.offsetHeight}px`;
      v.rnn.shown = 1;
      const tick = () => {
        v.rnn.shown++;
        showStates(c, v, hidden, labels);
        if (v.rnn.shown < hidden.rows) v.rnn.timer = setTimeout(tick, STATE_MS);
      };
      v.rnn.timer = setTimeout(tick, STATE_MS);
    }
  }
  showStates(c, v, hidden, labels);
}

export function drawParallel(c, p, v) {
  const { s, state } = c;
  const n = state.blSource.length;
  const rnn = p.rnn;
  drawStates(
    c,
    v,
    rnn.hidden,
    state.blSource.map((t, i) => `h${i + 1} ${t}`),
  );
  if (!v.table.firstChild) drawMeasured(c, v);
  v.paths.replaceChildren(
    dataTable({
      caption: s('parallel.table', { n }),
      head: ['', s('col.sequential'), s('col.path')],
      rows: [
        [s('row.attention'), '1', '1'],
        [s('row.rnn'), String(rnn.steps), String(n)],
      ],
    }),
  );
}
