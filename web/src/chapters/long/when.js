// Step 4 of the long-sequences chapter: when each method is worth it. The step opens on the
// sweep's charts (the cost step's sweep, or the short one it starts when nothing was measured
// yet), then the thresholds in words and the learner's own single runs.

import { button, h, setText } from '../../views/dom.js';
import { dataTable } from '../../views/table.js';
import { fmt } from '../../text/format.js';
import { SWEEP_FROM } from './logic.js';
import { drawSweepCharts, followSweep, sweepCharts, sweepRunning } from './sweep.js';

export function buildWhen(c, v) {
  const { s } = c;
  v.mine = h('div', { class: 'long-mine' });
  v.sweep = sweepCharts(c);
  v.sweepNote = h('p', { class: 'hint long-when-sweep', role: 'status' });
  v.cancel = button('btn long-when-cancel', s('cancel'), () => c.ui.sweepRunner?.run.stop());
  v.figure = h('div', { class: 'long-when-figure', 'data-figure': 'main', 'aria-busy': 'true' }, v.sweep.sweepCharts);
  c.ui.drawWhenSweep = (progressOnly) => drawWhenSweep(c, v, progressOnly);
  return [
    h('div', {}, v.figure, h('div', { class: 'long-when-status' }, v.sweepNote, v.cancel)),
    h('p', { class: 'explain', text: s('p.when1') }),
    h('p', { class: 'explain', text: s('p.when2') }),
    h('p', { class: 'explain', text: s('p.when3') }),
    h('p', { class: 'explain', text: s('p.when4') }),
    v.mine,
  ];
}

function drawWhenSweep(c, v, progressOnly = false) {
  const { s } = c;
  const running = sweepRunning(c);
  v.cancel.disabled = !running;
  if (!progressOnly && drawSweepCharts(c, v.sweep)) v.figure.removeAttribute('aria-busy');
  const sw = c.kept.sweep;
  const measured = sw ? [...new Set(sw.points.filter((p) => !p.refused).map((p) => p.n))] : [];
  setText(
    v.sweepNote,
    running
      ? s('whenMeasuring', { from: SWEEP_FROM, to: sw.sizes.at(-1) })
      : measured.length
        ? s('whenSwept', { from: SWEEP_FROM, to: measured.at(-1) })
        : s('whenNone'),
  );
}

export function drawWhen(c, data, v) {
  const { s } = c;
  drawWhenSweep(c, v);
  followSweep(c, { drawing: true }); // opened with nothing measured: the short sweep
  const runs = (c.kept.runs || []).filter((r) => !r.refused);
  const sizes = [...new Set(runs.map((r) => r.n))].sort((a, b) => a - b);
  if (!sizes.length) {
    v.mine.replaceChildren(h('p', { class: 'hint', text: s('noneYet') }));
    return;
  }
  const cell = (n, m) => {
    const r = runs.filter((x) => x.n === n && x.method === m).at(-1);
    return r ? fmt(r.ms, 0) : '—';
  };
  v.mine.replaceChildren(
    h('p', { text: s('yourRuns') }),
    dataTable({
      caption: s('timeTitle', { n: sizes.join(', ') }),
      head: [
        s('colN'),
        s('naive'),
        s('flash'),
        s('windowed', { w: runs.filter((r) => r.method === 'window').at(-1)?.window ?? c.state.longWindow }),
      ],
      rows: sizes.map((n) => [String(n), cell(n, 'naive'), cell(n, 'flash'), cell(n, 'window')]),
    }),
  );
}
