// The block chapter's stacked layers: the mean length of the rows after 1 … 6 encoder layers with
// the same weights, with and without LayerNorm, post-norm or pre-norm.

import { h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { createLineChart } from '../../views/line-chart.js';
import { numberSelect } from '../../views/controls.js';
import { BLUE, ORANGE } from '../../views/palette.js';
import { check, layout } from './parts.js';

export function buildStack(c, v) {
  const { s } = c;
  v.layers = numberSelect(s('layers'), [1, 2, 3, 4, 5, 6], (x) => c.set({ blLayers: x }));
  v.normFirst = check(c, 'blNormFirst', s('normFirst'));
  v.box = h('div', { class: 'bl-chart' });
  v.chart = createLineChart(v.box, {
    label: s('stack.chart'),
    xLabel: s('stack.x'),
    yLabel: s('stack.y'),
    strings: { showTable: c.t('showTable'), hideTable: s('hideTable') },
  });
  v.note = h('p', { class: 'bl-verdict' });
  return layout(
    v,
    v.box,
    s('stack.lead'),
    [v.layers.wrap, v.normFirst.wrap],
    v.note,
    h('p', { class: 'lab-explain', text: s('stack.more') }),
  );
}

export function drawStack(c, p, v) {
  const { s, state } = c;
  v.layers.sync(state.blLayers);
  v.normFirst.input.checked = state.blNormFirst;
  const series = [
    { name: s('stack.with'), color: BLUE, mark: 'line', points: p.stackOn.map((y, x) => ({ x, y })) },
    { name: s('stack.without'), color: ORANGE, mark: 'line', points: p.stackOff.map((y, x) => ({ x, y })) },
  ];
  v.chart.update({ series, caption: s('stack.chart'), digits: 3 });
  const last = state.blLayers;
  setText(
    v.note,
    s('stack.note', {
      layers: last,
      on: fmt(p.stackOn[last], 3),
      off: fmt(p.stackOff[last], 3),
      start: fmt(p.stackOn[0], 3),
    }),
  );
}
