// The pipeline's stage: what every step of the chapter shows, drawn by each step's draw (./index.js)
// for that step. The steps share one stage, in three parts that each step's draw puts into its own
// section: the lead (the step's explanation and its general formula), the figures (the step's
// heatmaps) and the detail (the filled formula of the selected cell, a note on the selected row).
// Shared, so the heatmaps keep their focus and table toggles from step to step. Every number
// comes from the step's compute (engine.attend through lesson/example.js); nothing here calls the
// engine.

import { max } from 'd3-array';
import { PRESETS, rowOf } from '../../lesson/example.js';
import { h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { heatmapStrings } from '../../text/i18n.js';
import { createHeatmap } from '../../views/heatmap.js';
import { renderFormula } from '../../views/formula.js';
import { generalTex, liveTex } from './tex.js';
import { maskedStep, weightsStep, blockedNote, textOf } from './text.js';
import { rowKind } from '../../lesson/rows.js';
import { MOTION_MS, tween } from '../../views/motion.js';

// Which heatmaps each step shows, in order; the first is the step's main figure.
const LAYOUT = {
  scores: ['scores'],
  scaled: ['scaled', 'unscaledWeights', 'weights'], // the weights without and with the scale
  scaledTyped: ['scaled'], // typed scores: nothing is scaled
  masked: ['masked'],
  weights: ['weights', 'masked'], // the weights lead; the masked scores they came from beside them
  output: ['weights', 'values', 'output'],
};

// The heatmap whose selection drives the formula.
const SELECTED = { scores: 'scores', scaled: 'scaled', masked: 'masked', weights: 'weights', output: 'output' };

// The stage's parts, made once for the chapter instance (c.ui): the lead (explanation, general
// formula), the figures (the heatmaps) and the detail (the selected cell's formula, a note on the
// selected row, the arrow-key tip).
function stageOf(c) {
  const ui = c.ui;
  if (ui.mainMap) return ui;
  const { s } = c;
  ui.explain = h('p', { class: 'explain' });
  ui.general = h('div', { class: 'formula general' });
  ui.mainMap = h('div', { class: 'maps pl-main' }); // the step's main heatmap
  ui.moreMaps = h('div', { class: 'maps pl-more' }); // the others, under the figure and its controls
  ui.live = h('div', { class: 'formula live', 'aria-live': 'polite' });
  ui.note = h('p', { class: 'note' });
  ui.detail = h(
    'div',
    { class: 'pl-detail' },
    ui.live,
    ui.note,
    h('p', { class: 'hint keys-hint', 'data-group': 'stepper', text: s('keysHint') }),
  );
  ui.heatmaps = {};
  return ui;
}

// A step's places for the stage's parts, and its own hint on selecting a cell: each step's build
// puts them where its section has them, and its draw moves the parts in. -> { lead, figure, more }
// (the lead's place is a marker: the explanation goes in after it as the section's own child, so
// the shell can set it beside the figure; the figure is the main heatmap with, under it, the
// general formula, the hint and the detail, all in the shell's figure column; more: the step's
// other heatmaps, after the figure and its controls)
export function stageSlots(c, v) {
  stageOf(c);
  v.leadSlot = document.createComment('the lead: the explanation');
  v.selectHint = h('p', { class: 'hint', text: c.s('selectHint') });
  v.mapsSlot = h('div', { class: 'pl-slot' });
  v.generalSlot = h('div', { class: 'pl-slot' });
  v.detailSlot = h('div', { class: 'pl-slot' });
  v.moreSlot = h('div', { class: 'pl-slot' });
  return {
    lead: v.leadSlot,
    figure: h('div', { class: 'pl-figure' }, v.mapsSlot, v.generalSlot, v.selectHint, v.detailSlot),
    more: v.moreSlot,
  };
}

// The heatmaps are the instance's: destroyed (their motion with them) when the chapter leaves.
export function destroyStage(c) {
  c.ui.pull?.cancel();
  for (const { hm } of Object.values(c.ui.heatmaps || {})) hm.destroy();
}

// One heatmap per (name), created on first use and kept (so focus and table toggles persist).
function heatmap(c, name, kind, onSelect) {
  const ui = c.ui;
  if (!ui.heatmaps[name]) {
    const wrap = h('div', { class: `map map-${name}` });
    const title = h('h4', { class: 'map-title' });
    wrap.append(title);
    const hm = createHeatmap(wrap, {
      kind,
      onSelect,
      widthFrom: ui.mainMap,
      strings: heatmapStrings(c.lang),
    });
    ui.heatmaps[name] = { wrap, title, hm };
  }
  return ui.heatmaps[name];
}

// Draws the stage of step `stage` into that step's slots (v) from run = { inputs, args, result,
// unscaled? } (the scale step's compute adds unscaled: the example without the 1/√d_k).
// Returns the selected cell { row, col }.
export function drawStage(c, run, v, stage) {
  const ui = stageOf(c);
  const { s, state } = c;
  const { inputs, result, unscaled } = run;
  // Into this step's section, unless there already (the shell may have set the explanation in a
  // column beside the figure).
  if (!v.leadSlot.parentNode.contains(ui.explain)) v.leadSlot.after(ui.explain);
  if (ui.general.parentNode !== v.generalSlot) v.generalSlot.append(ui.general);
  if (ui.mainMap.parentNode !== v.mapsSlot) v.mapsSlot.append(ui.mainMap);
  if (ui.moreMaps.parentNode !== v.moreSlot) v.moreSlot.append(ui.moreMaps);
  if (ui.detail.parentNode !== v.detailSlot) v.detailSlot.append(ui.detail);
  const { queryTokens: qt, keyTokens: kt } = inputs;
  const nq = qt.length,
    nk = kt.length;
  const row = Math.min(state.selRow, nq - 1);
  const colMax = stage === 'output' ? result.output.cols - 1 : nk - 1;
  const col = state.selCol < 0 ? -1 : Math.min(state.selCol, colMax);

  setText(ui.explain, explainText(c, stage, inputs, result));
  renderFormula(ui.general, generalTex(s, stage, inputs, state));

  const select =
    (name) =>
    ({ row: r, col: k }) => {
      // Output rows and label clicks select a whole row; otherwise a cell.
      c.set({ selRow: r, selCol: name === 'output' || k === null ? -1 : k });
    };
  const features = PRESETS[state.preset].features?.[c.lang];
  const dims = Array.from({ length: result.output.cols }, (_, j) =>
    inputs.scoresTyped ? kt[j] : features && features.length === result.output.cols ? features[j] : `d${j + 1}`,
  );
  const mats = {
    scores: { m: result.scores, rows: qt, cols: kt, kind: 'diverging', title: s('matScores') },
    scaled: {
      m: result.scaled,
      rows: qt,
      cols: kt,
      kind: 'diverging',
      title: inputs.scoresTyped ? s('matScaledTyped') : s('matScaled'),
    },
    masked: { m: result.masked, rows: qt, cols: kt, kind: 'diverging', title: s('matMasked') },
    weights: {
      m: result.weights,
      rows: qt,
      cols: kt,
      kind: 'sequential',
      title: stage === 'scaled' ? s('matWeightsScaled') : s('matWeights'),
      domain: [0, 1],
    },
    values: { m: inputs.value, rows: kt, cols: dims, kind: 'diverging', title: s('matValues') },
    output: { m: result.output, rows: qt, cols: dims, kind: 'diverging', title: s('matOutput') },
  };
  if (unscaled)
    mats.unscaledWeights = {
      m: unscaled.weights,
      rows: qt,
      cols: kt,
      kind: 'sequential',
      title: s('matWeightsUnscaled'),
      domain: [0, 1],
    };
  const shown = LAYOUT[stage === 'scaled' && inputs.scoresTyped ? 'scaledTyped' : stage];
  const from = motionFrom(ui.led, stage, shown[0], mats, result);
  ui.led = { stage, look: lookSpec(mats[shown[0]], result, qt, kt) };
  const keep = new Set(shown);
  for (const [name, hm] of Object.entries(ui.heatmaps)) if (!keep.has(name)) hm.wrap.remove();
  for (const name of shown) {
    const spec = mats[name];
    const hm = heatmap(c, name, spec.kind, select(name));
    // In layout order, and in the DOM before it draws (moved only when out of place: a move
    // re-attaches the whole subtree, which the browser then styles and lays out again).
    const at = shown.indexOf(name);
    const [box, k] = at === 0 ? [ui.mainMap, 0] : [ui.moreMaps, at - 1];
    if (box.children[k] !== hm.wrap) box.insertBefore(hm.wrap, box.children[k] || null);
    // The step's main figure (chapters/kit/shell.js leads the step with it).
    if (at === 0) hm.wrap.dataset.figure = 'main';
    else hm.wrap.removeAttribute('data-figure');
    hm.wrap.removeAttribute('data-figure-auto');
    setText(hm.title, spec.title);
    const isQueryRows = spec.rows === qt;
    hm.hm.update({
      matrix: spec.m,
      rowLabels: spec.rows,
      colLabels: spec.cols,
      domain: spec.domain,
      caption: s('withAxes', { t: spec.title, axes: s('rowsCols') }),
      blocked: lookSpec(spec, result, qt, kt).blocked,
      from: from[name],
      stagger: name === 'output',
      selected:
        name === SELECTED[stage] && isQueryRows ? { row, col: name === 'output' ? null : col < 0 ? null : col } : null,
    });
  }

  // At the weighted sum the weights pull the value rows into the output: while the output fills
  // in, the highlight follows the row being filled (its weights, the value rows they mix), then
  // returns to the selected row. A second draw of the same result lets it run on.
  if (ui.pull?.running && ui.pull.result !== result) ui.pull.cancel();
  if (from.output) {
    const pull = tween(MOTION_MS, (t) =>
      linkHighlights(ui, stage, result, t < 1 ? Math.min(nq - 1, (t * nq) | 0) : row, col, t < 1),
    );
    ui.pull = Object.assign(pull, { result });
  } else if (!ui.pull?.running) linkHighlights(ui, stage, result, row, col);
  const lines = [].concat(liveTex(c.s, stage, inputs, result, row, col, state));
  while (ui.live.children.length < lines.length) ui.live.append(h('div', { class: 'formula-line' }));
  // A line this step does not use is hidden, not removed: it keeps its drawings for the steps that
  // use it (views/formula.js). Inline mode, so a long line breaks after = and + instead of running
  // off a narrow screen.
  [...ui.live.children].forEach((el, k) => {
    const unused = k >= lines.length;
    if (el.hidden !== unused) el.hidden = unused;
    if (!unused) renderFormula(el, lines[k], { display: false });
  });
  setText(ui.note, noteText(c, stage, run, row, col, unscaled));
  return { row, col };
}

// ---- motion between the steps ------------------------------------------------------------------

// How a heatmap of the stage is drawn: { matrix, kind, domain, blocked } (blocked: the mask, striped
// on the matrices of queries × keys).
function lookSpec(spec, result, qt, kt) {
  const blocked = spec.rows === qt && spec.cols === kt ? result.mask : null;
  return { matrix: spec.m, kind: spec.kind, domain: spec.domain, blocked };
}

// Where the heatmaps move from when the learner comes to `stage` from another step (led: the step
// drawn before and the look of the figure it led with): { name: from } for heatmap.update
// (views/heatmap.js). The step's main figure moves from the last step's: the scores scale, masked
// cells turn to −∞, and scores turning into weights pass through each row's exponentials before
// they are normalised; at the weighted sum the output fills in row by row from zero. Nothing moves
// within a step (an edit draws its numbers at once).
function motionFrom(led, stage, main, mats, result) {
  const from = {};
  if (!led || led.stage === stage) return from;
  const to = mats[main];
  if (!sameNumbers(led.look.matrix, to.m)) {
    from[main] =
      main === 'weights' && led.look.kind === 'diverging'
        ? [led.look, { matrix: rowExponentials(result.weights), kind: 'sequential', domain: [0, 1] }]
        : led.look;
  }
  if (stage === 'output') {
    const { rows, cols } = result.output;
    from.output = { matrix: { rows, cols, data: new Float32Array(rows * cols) }, domain: [-1, 1] };
  }
  return from;
}

const sameNumbers = (a, b) => a.rows === b.rows && a.cols === b.cols && a.data.every((x, k) => Object.is(x, b.data[k]));

// The picture half-way from scores to weights: each row of the engine's weights over the row's
// largest weight, which is e^(m_ij − max_k m_ik), the exponentials before the division by their
// sum (a row of zeros stays zero). Drawn only in between: the step ends on the engine's weights.
function rowExponentials(weights) {
  const { rows, cols } = weights;
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const w = weights.data.subarray(i * cols, (i + 1) * cols);
    const top = max(w);
    for (let j = 0; j < cols; j++) data[i * cols + j] = top > 0 ? w[j] / top : w[j];
  }
  return { rows, cols, data };
}

// Shows or keeps back the figures part (the hand-check preset keeps the engine's weights back
// until the learner asks for them).
export function holdStage(c, v, hold) {
  const ui = c.ui;
  for (const el of [v.selectHint, ui.mainMap, ui.moreMaps, ui.live, ui.note]) if (el.hidden !== hold) el.hidden = hold;
}

// Linked highlighting: a weight lights up the score it came from; an output row lights up its
// weight row and the value rows it mixes (the keys with a weight above zero).
// (filling: the output row being filled in is marked too.)
function linkHighlights(ui, stage, result, row, col, filling = false) {
  const marks = {};
  if (stage === 'weights') {
    marks.masked = col >= 0 ? { cells: [[row, col]] } : { rows: [row] };
  } else if (stage === 'output') {
    const w = rowOf(result.weights, row);
    marks.weights = { rows: [row] };
    marks.values = { rows: w.map((x, j) => (x > 0 ? j : -1)).filter((j) => j >= 0) };
    if (filling) marks.output = { rows: [row] };
  }
  for (const [name, { hm }] of Object.entries(ui.heatmaps)) hm.highlight(marks[name] || {});
}

// ---- formulas --------------------------------------------------------------------------------

// The step's explanation; the mask and softmax steps say what the engine returned for the
// fill and softmax chosen (pipeline/text.js).
function explainText(c, stage, inputs, result) {
  const { s, state } = c;
  if (stage === 'masked') return textOf(s, c.lang, maskedStep(state, result, fmt));
  if (stage === 'weights') return textOf(s, c.lang, weightsStep(state, result, inputs.queryTokens));
  return stage === 'scaled' && inputs.scoresTyped ? s('explain.scaled.typed') : s(`explain.${stage}`);
}

// A plain-language reading of the selected row (unscaled: the example without the 1/√d_k, on the scale step).
function noteText(c, stage, run, i, j, unscaled) {
  const { s } = c;
  const { inputs, result } = run;
  const qt = inputs.queryTokens,
    kt = inputs.keyTokens;
  const blocked = blockedNote(c.state, result, stage, i, j, qt, kt, fmt);
  if (blocked) return textOf(s, c.lang, blocked);
  const w = rowOf(result.weights, i);
  if (stage === 'scaled' && unscaled) {
    // The selected row's top key without and with the scale.
    const raw = rowOf(unscaled.weights, i);
    const best = raw.indexOf(max(raw));
    if (best < 0) return '';
    return s('scaleChanges', {
      q: qt[i],
      k: kt[best],
      raw: fmt(raw[best], 2),
      scaled: fmt(w[best], 2),
      hRaw: fmt(unscaled.entropy[i], 3),
      hScaled: fmt(result.entropy[i], 3),
    });
  }
  if (stage === 'weights') {
    const best = w.indexOf(max(w));
    const notes = PRESETS[c.state.preset].queryNotes;
    const q = notes && !c.state.queryTokens.length ? s('queryNote', { q: qt[i], note: notes[c.lang][i] }) : qt[i];
    return best >= 0
      ? s(rowKind(w) === 'uniform' ? 'evenly' : 'landsOn', {
          q,
          k: kt[best],
          w: fmt(w[best], 2),
          h: fmt(result.entropy[i], 3),
        })
      : '';
  }
  if (stage === 'output') {
    // The keys with a weight above zero, largest first; at most 8 named.
    const mixed = w
      .map((x, j) => ({ x, j }))
      .filter(({ x }) => x > 0)
      .sort((a, b) => b.x - a.x);
    const list = mixed.slice(0, 8).map(({ x, j }) => s('mixItem', { k: kt[j], w: fmt(x, 2) }));
    if (mixed.length > 8) list.push(s('andMore', { n: mixed.length - 8 }));
    return s('mixes', { q: qt[i], list: list.join(s('listSep')) });
  }
  return '';
}
