// The block chapter's attention steps: the encoder's self-attention, the decoder's masked
// self-attention and its cross-attention to the encoder, each head's weights as one heatmap
// (the heads at one size).

import { h, setText } from '../../views/dom.js';
import { heatmapFigure, drawFigure } from '../kit/figures.js';
import { D_MODEL, HEADS } from './logic.js';
import { check, layout } from './parts.js';

// One heatmap per head, all drawn as the step's figure (at one size, not the first one large and
// the others small): head 1 leads the step (beside its controls), the others follow. -> [the box
// of head 1, the box of the others]
const headMaps = (c, v, prefix) => {
  const boxes = [h('div', { class: 'maps bl-maps' }), h('div', { class: 'maps bl-maps' })];
  v.figs = Array.from({ length: HEADS }, (_, k) => {
    const fig = heatmapFigure(c, { kind: 'sequential', className: `map-bl-${prefix}-${k + 1}` });
    fig.wrap.dataset.figure = 'main';
    boxes[Math.min(k, 1)].append(fig.wrap);
    return fig;
  });
  return boxes;
};

// Each head's weights in its map (title(k) for head k = 1, 2, …).
const drawHeads = (v, heads, title, rowLabels, colLabels) =>
  heads.forEach((hd, k) =>
    drawFigure(v.figs[k], { title: title(k + 1), matrix: hd.weights, rowLabels, colLabels, domain: [0, 1] }),
  );

// ---- step: encoder self-attention -------------------------------------------------------------------

export function buildSelf(c, v) {
  const { s } = c;
  v.formula = h('p', { class: 'formula bl-formula' });
  const [first, others] = headMaps(c, v, 'self');
  return layout(
    v,
    first,
    s('self.lead'),
    [],
    others,
    v.formula,
    h('p', { class: 'lab-explain', text: s('self.more') }),
  );
}

export function drawSelf(c, p, v) {
  const { s, state } = c;
  drawHeads(v, p.encoder.selfAttention.heads, (k) => s('mapSelf', { k }), state.blSource, state.blSource);
  setText(v.formula, s('self.formula', { n: state.blSource.length, d: D_MODEL, h: HEADS, dh: D_MODEL / HEADS }));
}

// ---- step: masked self-attention (decoder) ------------------------------------------------------

export function buildMasked(c, v) {
  const [first, others] = headMaps(c, v, 'masked');
  return layout(v, first, c.s('masked.lead'), [], others, h('p', { class: 'lab-explain', text: c.s('masked.more') }));
}

export function drawMasked(c, p, v) {
  const { s, state } = c;
  drawHeads(v, p.decoder.selfAttention.heads, (k) => s('mapMasked', { k }), state.blTarget, state.blTarget);
}

// ---- step: cross-attention ---------------------------------------------------------------------

export function buildCross(c, v) {
  const { s } = c;
  v.aligned = check(c, 'blAligned', s('aligned'));
  v.note = h('p', { class: 'bl-verdict', 'aria-live': 'polite' });
  v.lead = h('p', { class: 'about lab-explain' }); // its shape (n_q × n_k) follows the sentences
  const [first, others] = headMaps(c, v, 'cross');
  return layout(
    v,
    first,
    v.lead,
    [v.aligned.wrap],
    others,
    v.note,
    h('p', { class: 'lab-explain', text: s('cross.more') }),
  );
}

export function drawCross(c, p, v) {
  const { s, state } = c;
  v.aligned.input.checked = state.blAligned;
  setText(v.lead, s('cross.lead', { nq: state.blTarget.length, nk: state.blSource.length }));
  drawHeads(v, p.decoder.crossAttention.heads, (k) => s('mapCross', { k }), state.blTarget, state.blSource);
  setText(
    v.note,
    s(state.blAligned ? 'cross.handSet' : 'cross.drawn', { nq: state.blTarget.length, nk: state.blSource.length }),
  );
}
