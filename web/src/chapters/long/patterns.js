// Step 3 of the long-sequences chapter: sliding-window and strided masks on 32 tokens in tiles of
// 8, as the engine applies them (its flash trace: scores of −∞ where the mask blocks, tiles it
// skipped whole), with the cells attended and the tiles skipped counted.

import { h, isFocused, setText } from '../../views/dom.js';
import { createHeatmap } from '../../views/heatmap.js';
import { fmt } from '../../text/format.js';
import { heatmapStrings } from '../../text/i18n.js';
import { PATTERN_N } from './meta.js';
import { patternCounts } from './logic.js';

const NAMES = {
  full: 'pFull',
  causal: 'pCausal',
  window: 'pWindow',
  stride: 'pStride',
  'causal-window': 'pCausalWindow',
};

export function buildPatterns(c, v) {
  const { s } = c;
  v.pattern = h(
    'select',
    { id: 'long-pattern', onchange: (e) => c.set({ longPattern: e.target.value }) },
    ...Object.entries(NAMES).map(([p, key]) => h('option', { value: p, text: s(key) })),
  );
  v.width = h('input', {
    type: 'number',
    min: '0',
    max: String(PATTERN_N),
    step: '1',
    class: 'long-num',
    onchange: (e) => {
      const w = Number(e.target.value);
      if (Number.isInteger(w) && w >= 0 && w <= PATTERN_N) c.set({ longWidth: w });
    },
  });
  const box = h('div', { class: 'long-mask', 'data-figure': 'main' });
  v.heatmap = createHeatmap(box, { label: s('maskLabel'), strings: heatmapStrings(c.lang), digits: 0 });
  v.caption = h('p', { class: 'hint', 'aria-live': 'polite' });
  v.controls = h(
    'div',
    { class: 'controls' },
    h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('pattern') }), v.pattern),
    h('label', { class: 'long-field' }, h('span', { class: 'field-label', text: s('width') }), v.width),
  );
  return [
    h('div', {}, box, v.caption),
    h('p', { class: 'explain', text: s('p.patterns1') }),
    h('p', { class: 'explain', text: s('p.patterns2') }),
  ];
}

// Beside the mask: the pattern and its width.
export const patternControls = (c, v) => v.controls;

export function drawPatterns(c, data, v) {
  const { state, s } = c;
  v.pattern.value = state.longPattern;
  if (!isFocused(v.width)) v.width.value = String(state.longWidth);
  v.width.disabled = state.longPattern === 'full' || state.longPattern === 'causal';
  const p = patternCounts(data.pattern);
  const labels = Array.from({ length: PATTERN_N }, (_, k) => String(k));
  v.heatmap.update({
    matrix: p.allowed,
    rowLabels: labels,
    colLabels: labels,
    domain: [0, 1],
    blocked: p.allowed,
    caption: s('maskLabel'),
  });
  setText(
    v.caption,
    s('maskCaption', {
      allowed: p.count,
      cells: p.cells,
      pct: fmt((100 * p.count) / p.cells, 0),
      skipped: p.skipped,
      tiles: p.tiles,
    }),
  );
}
