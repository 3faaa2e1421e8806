// The block chapter's steps inside the layer beyond attention: + residual and LayerNorm (what
// each output row is most like, with and without the residual; the rows' mean and spread before
// and after LayerNorm) and the feed-forward network's hidden layer.

import { h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { dataTable } from '../../views/table.js';
import { heatmapFigure, drawFigure, dims } from '../kit/figures.js';
import { selectInput } from '../../views/controls.js';
import { createPredict } from '../kit/predict.js';
import { similarity, ownRowCount, rowMoments, HIDDEN, D_MODEL } from './logic.js';
import { check, layout } from './parts.js';

// ---- step: + residual, LayerNorm -----------------------------------------------------------------

export function buildNorm(c, v) {
  const { s } = c;
  v.residual = check(c, 'blResidual', s('residual'));
  v.norm = check(c, 'blNorm', s('layerNorm'));
  v.fig = heatmapFigure(c, { className: 'map-bl-sim' });
  v.reveal = h('div', { class: 'bl-reveal' });
  v.predict = createPredict(c, {
    id: 'block/residual',
    question: s('norm.question'),
    options: [
      { value: 'own', label: s('opt.own') },
      { value: 'lost', label: s('opt.lost') },
    ],
    reveal: v.reveal,
  });
  v.verdict = h('p', { class: 'bl-verdict', 'aria-live': 'polite' });
  v.table = h('div', { class: 'bl-table' });
  v.reveal.append(v.verdict);
  // the LayerNorm's own numbers (each row's mean and std before and after) beside the map
  return layout(
    v,
    v.fig.wrap,
    s('norm.lead'),
    [v.residual.wrap, v.norm.wrap],
    v.predict.el,
    v.reveal,
    v.table,
    h('p', { class: 'lab-explain', text: s('norm.more') }),
  );
}

export function drawNorm(c, p, v) {
  const { s, state } = c;
  v.residual.input.checked = state.blResidual;
  v.norm.input.checked = state.blNorm;
  const out = p.encoder.normFirst ? p.encoder.residuals[0] : p.encoder.normed[0].output;
  const sim = similarity(out, p.x);
  const own = ownRowCount(sim);
  const other = p.otherResidual;
  drawFigure(v.fig, {
    title: s('mapSim'),
    matrix: sim,
    rowLabels: state.blSource.map((t) => `${t}′`),
    colLabels: state.blSource,
    domain: [-1, 1],
  });
  const n = state.blSource.length;
  v.predict.draw(other.own === n ? 'own' : 'lost', {
    right: s('norm.right', { on: other.onOwn, off: other.offOwn, n }),
    wrong: s('norm.wrong', { on: other.onOwn, off: other.offOwn, n }),
  });
  setText(v.verdict, s('norm.verdict', { own, n }));
  // mean and std of each token's row: the sum before LayerNorm (the engine's), its output after
  const ln = p.encoder.normed[0];
  const after = rowMoments(ln.output);
  v.table.replaceChildren(
    dataTable({
      caption: s('norm.table'),
      head: [s('token'), s('meanBefore'), s('stdBefore'), s('meanAfter'), s('stdAfter')],
      rows: state.blSource.map((tok, i) => {
        const [m2, s2] = after[i];
        return [tok, fmt(ln.mean[i], 3), fmt(ln.std[i], 3), fmt(m2, 3), fmt(s2, 3)];
      }),
    }),
  );
}

// ---- step: feed-forward --------------------------------------------------------------------------

export function buildFf(c, v) {
  const { s } = c;
  v.act = selectInput(
    s('activation'),
    [
      { value: 'relu', label: 'ReLU' },
      { value: 'gelu', label: 'GELU' },
    ],
    (x) => c.set({ blAct: x }),
  );
  v.fig = heatmapFigure(c, { className: 'map-bl-ff' });
  v.note = h('p', { class: 'bl-verdict' });
  return layout(
    v,
    v.fig.wrap,
    s('ff.lead'),
    [v.act.wrap],
    v.note,
    h('p', { class: 'lab-explain', text: s('ff.more') }),
  );
}

export function drawFf(c, p, v) {
  const { s, state } = c;
  v.act.sync(state.blAct);
  const hid = p.encoder.ff.hidden;
  drawFigure(v.fig, {
    title: s('mapFf', { hidden: HIDDEN }),
    matrix: hid,
    rowLabels: state.blSource,
    colLabels: dims(HIDDEN),
  });
  const zeros = hid.data.filter((x) => x === 0).length;
  setText(v.note, s('ff.note', { zeros, cells: hid.data.length, hidden: HIDDEN, d: D_MODEL }));
}
