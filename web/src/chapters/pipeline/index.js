// Chapter 2: the pipeline, step by step.
// score QKᵀ -> scale by 1/√d_k -> mask -> softmax -> weights × V, on the current example.
// Every number shown comes from engine.attend (through example.js); this file only lays out,
// labels and links what the engine returned.

import { max } from 'd3-array';
import {
  PRESETS,
  PRESET_IDS,
  MAX_TOKENS,
  MAX_TOKEN_CHARS,
  MAX_DK,
  presetPatch,
  paddingPatch,
  resizeGrid,
  runExample,
  rowOf,
} from '../../lesson/example.js';
import { h, setText, rebuildOn } from '../../views/dom.js';
import { field, showError, syncInput, intInput, splitTokens } from '../../views/controls.js';
import { fmt, parseNumber } from '../../text/format.js';
import { heatmapStrings } from '../../text/i18n.js';
import { createHeatmap } from '../../views/heatmap.js';
import { createBars } from '../../views/bars.js';
import { renderFormula } from '../../views/formula.js';
import strings from './strings.js';
import meta from './meta.js';
import { handCheckLink } from '../softmax/meta.js';
import { generalTex, liveTex } from './tex.js';
import { maskedStep, weightsStep, blockedNote, textOf } from './text.js';
import { rowKind } from '../../lesson/rows.js';
import { createPredict } from '../kit/predict.js';
import { WEIGHT } from '../../views/palette.js';

const STEPS = [
  { id: 'scores', title: { en: 'Scores', zh: '分数' } },
  { id: 'scaled', title: { en: 'Scale', zh: '缩放' } },
  { id: 'masked', title: { en: 'Mask', zh: '掩码' } },
  { id: 'weights', title: { en: 'Softmax', zh: 'Softmax' } },
  { id: 'output', title: { en: 'Weighted sum', zh: '加权求和' } },
];

const GRID_CELL_LIMIT = 256; // typed grids larger than this are not offered for typing

// ---- the chapter ---------------------------------------------------------------------------

export default {
  ...meta,
  prefix: 'pl',
  strings,
  // The steps share one stage area (its heatmaps keep their focus and table toggles from step
  // to step), so they build no sections of their own.
  steps: STEPS,
  // The current example through engine.attend: { inputs, args, result } (example.js).
  compute: (c) => runExample(c.engine, c.state),
  panel: { build: buildInputs, draw: syncInputs },
  after: { build: buildStage, draw: drawStage },
  leave(c) {
    for (const { hm } of Object.values(c.ui.heatmaps || {})) hm.destroy();
  },
};

// ---- inputs -------------------------------------------------------------------------------

function buildInputs(c) {
  const { s, ui } = c;
  const panel = h('section', { class: 'panel inputs', 'data-group': 'inputs', 'aria-labelledby': 'pl-inputs-h' });
  panel.append(h('h3', { id: 'pl-inputs-h', class: 'panel-title', text: s('inputs') }));

  const presetSel = h(
    'select',
    { onchange: (e) => c.set({ ...presetPatch(e.target.value), selRow: 0, selCol: 0 }) },
    ...PRESET_IDS.map((id) => h('option', { value: id, text: s(`preset.${id}`) })),
  );
  const preset = field(s('preset'), presetSel);
  ui.about = h('p', { class: 'about' });

  const qTok = field(
    s('queryTokens'),
    h('input', { type: 'text', class: 'wide', autocomplete: 'off', spellcheck: false }),
    s('tokensHint'),
  );
  const kTok = field(
    s('keyTokens'),
    h('input', { type: 'text', class: 'wide', autocomplete: 'off', spellcheck: false }),
    s('tokensHint'),
  );
  const onTokens = (f, name) => () => {
    const list = splitTokens(f.input.value);
    if (list.length === 0) return showError(f, s('errTokensEmpty'));
    if (list.length > MAX_TOKENS) return showError(f, s('errTokensMany', { max: MAX_TOKENS, n: list.length }));
    if (list.some((t) => [...t].length > MAX_TOKEN_CHARS))
      return showError(f, s('errTokenLong', { max: MAX_TOKEN_CHARS }));
    showError(f, '');
    c.set({ [name]: list, selRow: 0, selCol: 0 });
  };
  qTok.input.addEventListener('change', onTokens(qTok, 'queryTokens'));
  kTok.input.addEventListener('change', onTokens(kTok, 'keyTokens'));

  // Switching to typed starts from the numbers on screen (example.js rounds seeded draws).
  const modeSel = h(
    'select',
    { onchange: (e) => c.set({ inputMode: e.target.value }) },
    h('option', { value: 'random', text: s('mode.random') }),
    h('option', { value: 'typed', text: s('mode.typed') }),
  );
  const mode = field(s('inputMode'), modeSel);

  const intField = (label, name, min, max) =>
    intInput(label, { min, max, onValue: (x) => c.set({ [name]: x }), error: () => s('errInt', { min, max }) });
  const seed = intField(s('seed'), 'seed', 0, 2 ** 32 - 1);
  const dk = intField(s('dk'), 'dk', 1, MAX_DK);

  ui.sources = h('div', { class: 'token-sources', 'aria-live': 'polite' });

  ui.gridBox = h('details', { class: 'grids' });
  ui.gridSummary = h('summary');
  ui.gridBody = h('div', { class: 'grid-body' });
  ui.gridError = h('div', { class: 'field-error', role: 'alert' });
  ui.gridBox.append(ui.gridSummary, ui.gridError, ui.gridBody);

  ui.masks = h('fieldset', { class: 'masks' });
  ui.masks.append(h('legend', { text: s('masks') }));
  ui.padBox = h('div', { class: 'pad-box' });
  const causal = h('input', { type: 'checkbox', onchange: (e) => c.set({ causal: e.target.checked }) });
  // A causal mask on a cross-attention example (queries and keys from two sentences) is flagged.
  ui.crossCausal = h('p', { class: 'msg bad pl-cross-causal', role: 'status' });
  ui.masks.append(
    ui.padBox,
    h('label', { class: 'check' }, causal, h('span', { text: s('causal') })),
    ui.crossCausal,
    h('p', { class: 'hint', text: s('masksHint') }),
  );

  panel.append(
    h('div', { class: 'controls' }, preset.wrap, mode.wrap, seed.wrap, dk.wrap),
    ui.about,
    h('div', { class: 'controls' }, qTok.wrap, kTok.wrap),
    ui.sources,
    ui.gridBox,
    ui.masks,
  );
  Object.assign(ui, { presetSel, modeSel, mode, seed, dk, qTok, kTok, causal });
  return panel;
}

// Puts the state's values into the input controls (without touching a field being edited
// with an error in it).
function syncInputs(c, run) {
  const ui = c.ui;
  const st = c.state;
  const p = PRESETS[st.preset];
  const { s } = c;
  ui.presetSel.value = st.preset;
  setText(ui.about, s(`about.${st.preset}`));
  const typedScores = !!p.scores;
  ui.mode.wrap.hidden = typedScores;
  ui.modeSel.value = st.inputMode;
  ui.seed.wrap.hidden = typedScores || st.inputMode !== 'random';
  ui.dk.wrap.hidden = typedScores;
  ui.seed.sync(st.seed);
  ui.dk.sync(st.dk);
  const { queryTokens, keyTokens } = run.inputs;
  syncInput(ui.qTok, queryTokens.join(' '));
  syncInput(ui.kTok, keyTokens.join(' '));
  ui.causal.checked = st.causal;
  const crossCausal = st.causal && p.kind === 'cross';
  if (ui.crossCausal.hidden !== !crossCausal) ui.crossCausal.hidden = !crossCausal;
  setText(ui.crossCausal, crossCausal ? s('crossCausal') : '');
  syncSources(c, run);

  // Padding flags, one per key.
  rebuildOn(ui.padBox, keyTokens.join('\u0001'), () => [
    h('span', { class: 'field-label', text: s('padding') }),
    ...keyTokens.map((tok, j) => {
      const box = h('input', {
        type: 'checkbox',
        'aria-label': s('paddingOf', { token: tok }),
        onchange: () => c.set(paddingPatch(c.state, keyTokens.length, j, box.checked)),
      });
      return h('label', { class: 'check pad' }, box, h('span', { text: tok }));
    }),
  ]);
  [...ui.padBox.querySelectorAll('input')].forEach((b, j) => {
    b.checked = st.keyPadding[j] === true;
  });

  // Typed grids.
  const typed = typedScores || st.inputMode === 'typed';
  if (ui.gridBox.hidden !== !typed) ui.gridBox.hidden = !typed;
  if (typed) syncGrids(c, run);
}

// A marker per token: are its vectors hand-made, drawn from its text, or typed by the learner?
function syncSources(c, run) {
  const ui = c.ui;
  const { s } = c;
  const src = run.inputs.sources;
  ui.sources.hidden = !src;
  if (!src) return;
  const { queryTokens, keyTokens } = run.inputs;
  const line = (label, tokens, kinds) =>
    h(
      'p',
      { class: 'src-line' },
      h('span', { class: 'field-label', text: label }),
      ' ',
      ...tokens.flatMap((tok, i) => [
        h(
          'span',
          { class: `src-token src-${kinds[i]}` },
          h('span', { text: tok }),
          ' ',
          h('span', { class: 'src-badge', text: s(`src.${kinds[i]}`) }),
        ),
        ' ',
      ]),
    );
  rebuildOn(ui.sources, JSON.stringify([queryTokens, keyTokens, src, c.lang]), () => [
    line(s('vectorsOfQueries'), queryTokens, src.query),
    line(s('vectorsOfKeys'), keyTokens, src.key),
    h('p', { class: 'hint', text: s('srcHint') }),
  ]);
}

// Grids of number inputs for Q, K, V (or the typed scores).
function syncGrids(c, run) {
  const ui = c.ui;
  const { s } = c;
  const st = c.state;
  const p = PRESETS[st.preset];
  const { queryTokens, keyTokens } = run.inputs;
  const g = run.inputs.grids;
  const specs = p.scores
    ? [{ name: 'scores', rows: queryTokens, cols: keyTokens, grid: g.scores }]
    : [
        { name: 'Q', rows: queryTokens, cols: null, grid: g.Q },
        { name: 'K', rows: keyTokens, cols: null, grid: g.K },
        { name: 'V', rows: keyTokens, cols: null, grid: g.V },
      ];
  ui.gridSummary.textContent = p.scores ? s('editScores') : s('editVectors');
  const features = p.features ? p.features[c.lang] : null;
  const key = JSON.stringify([st.preset, specs.map((x) => [x.rows, x.grid]), st.dk, c.lang]);
  if (ui.gridBody.dataset.key === key) return;
  ui.gridBody.dataset.key = key;
  ui.gridError.textContent = '';
  const blocks = specs.map((g) => {
    const nCols = g.cols ? g.cols.length : st.dk;
    const grid = resizeGrid(g.grid, g.rows.length, nCols);
    if (g.rows.length * nCols > GRID_CELL_LIMIT) {
      return h('p', { class: 'hint', text: s('gridTooLarge', { name: g.name, n: g.rows.length * nCols }) });
    }
    const table = h('table', { class: 'grid-input' });
    table.append(h('caption', { text: g.name }));
    const head = h(
      'tr',
      {},
      h('td'),
      ...Array.from({ length: nCols }, (_, j) =>
        h('th', {
          scope: 'col',
          text: g.cols ? g.cols[j] : features && nCols === features.length ? features[j] : `d${j + 1}`,
        }),
      ),
    );
    table.append(h('thead', {}, head));
    const body = h('tbody');
    grid.forEach((row, i) => {
      body.append(
        h(
          'tr',
          {},
          h('th', { scope: 'row', text: g.rows[i] }),
          ...row.map((x, j) => {
            const inp = h('input', {
              type: 'text',
              inputmode: 'decimal',
              value: String(x),
              'aria-label': `${g.name} ${g.rows[i]}, ${j + 1}`,
            });
            inp.addEventListener('change', () => {
              const v = parseNumber(inp.value);
              if (Number.isNaN(v)) {
                inp.setAttribute('aria-invalid', 'true');
                ui.gridError.textContent = s('cellError', {
                  name: g.name,
                  row: g.rows[i],
                  col: j + 1,
                  msg: s('errNumber'),
                });
                return;
              }
              inp.setAttribute('aria-invalid', 'false');
              ui.gridError.textContent = '';
              const next = resizeGrid(g.grid, g.rows.length, nCols);
              next[i][j] = v;
              c.set({ [g.name]: next });
            });
            return h('td', {}, inp);
          }),
        ),
      );
    });
    table.append(body);
    return h('div', { class: 'grid-scroll' }, table);
  });
  ui.gridBody.replaceChildren(...blocks);
}

// ---- the stage ----------------------------------------------------------------------------------

// Builds the stage area: title, explanation, heatmaps (built lazily per stage), formula.
function buildStage(c) {
  const { s, ui } = c;
  ui.stage = h('section', { class: 'stage', 'aria-live': 'off' });
  ui.stageTitle = h('h3', { class: 'stage-title', tabindex: '-1' });
  ui.explain = h('p', { class: 'explain' });
  ui.general = h('div', { class: 'formula general' });
  ui.maps = h('div', { class: 'maps' });
  ui.live = h('div', { class: 'formula live', 'aria-live': 'polite' });
  ui.note = h('p', { class: 'note' });
  ui.barsBox = h('div', { class: 'bars-box' });
  ui.guessBox = h('div', { class: 'guess-box' });
  // Step 1 asks what the top weight will be before step 2 shows it.
  ui.topReveal = h('p', { class: 'msg info pl-top-reveal' });
  ui.predict = createPredict(c, {
    id: 'pipeline/top-weight',
    question: '',
    reveal: ui.topReveal,
    options: ['low', 'mid', 'high'].map((value) => ({ value, label: s(`predictTop.${value}`) })),
  });
  ui.predictBox = h('div', { class: 'pl-predict' }, ui.predict.el, ui.topReveal);
  // The hand-check box comes before the maps: the learner works the weights out first.
  ui.selectHint = h('p', { class: 'hint', text: s('selectHint') });
  ui.stage.append(
    ui.stageTitle,
    ui.explain,
    ui.general,
    ui.guessBox,
    ui.selectHint,
    ui.maps,
    ui.live,
    ui.note,
    ui.predictBox,
    ui.barsBox,
  );
  ui.heatmaps = {};
  ui.bars = null;
  return [h('p', { class: 'hint keys-hint', 'data-group': 'stepper', text: s('keysHint') }), ui.stage];
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
      widthFrom: ui.maps,
      strings: heatmapStrings(c.lang),
    });
    ui.heatmaps[name] = { wrap, title, hm };
  }
  return ui.heatmaps[name];
}

// Which heatmaps each stage shows, in order.
const LAYOUT = {
  scores: ['scores'],
  scaled: ['scaled', 'unscaledWeights', 'weights'], // the weights without and with the scale
  scaledTyped: ['scaled'], // typed scores: nothing is scaled
  masked: ['masked'],
  weights: ['masked', 'weights'],
  output: ['weights', 'values', 'output'],
};

function drawStage(c, run) {
  const ui = c.ui;
  const { s, state } = c;
  const { inputs, result } = run;
  const stage = state.stage;
  const k = STEPS.findIndex((st) => st.id === stage);
  const { queryTokens: qt, keyTokens: kt } = inputs;
  const nq = qt.length,
    nk = kt.length;
  const row = Math.min(state.selRow, nq - 1);
  const colMax = stage === 'output' ? result.output.cols - 1 : nk - 1;
  const col = state.selCol < 0 ? -1 : Math.min(state.selCol, colMax);

  setText(ui.stageTitle, `${k + 1}. ${STEPS[k].title[c.lang]}`);
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
  const shown = LAYOUT[stage === 'scaled' && inputs.scoresTyped ? 'scaledTyped' : stage];
  // The same example through the engine without the 1/√d_k (score 'dot'): what the scale changes.
  const unscaled = shown.includes('unscaledWeights') ? c.engine.attend({ ...run.args, score: 'dot' }) : null;
  if (unscaled)
    mats.unscaledWeights = {
      m: unscaled.weights,
      rows: qt,
      cols: kt,
      kind: 'sequential',
      title: s('matWeightsUnscaled'),
      domain: [0, 1],
    };
  const keep = new Set(shown);
  for (const [name, hm] of Object.entries(ui.heatmaps)) if (!keep.has(name)) hm.wrap.remove();
  for (const name of shown) {
    const spec = mats[name];
    const hm = heatmap(c, name, spec.kind, select(name));
    // In layout order, and in the DOM before it draws (moved only when out of place: a move
    // re-attaches the whole subtree, which the browser then styles and lays out again).
    const at = shown.indexOf(name);
    if (ui.maps.children[at] !== hm.wrap) ui.maps.insertBefore(hm.wrap, ui.maps.children[at] || null);
    setText(hm.title, spec.title);
    const isQueryRows = spec.rows === qt;
    hm.hm.update({
      matrix: spec.m,
      rowLabels: spec.rows,
      colLabels: spec.cols,
      domain: spec.domain,
      caption: s('withAxes', { t: spec.title, axes: s('rowsCols') }),
      blocked: isQueryRows && spec.cols === kt ? result.mask : null,
      selected:
        name === stageMain(stage) && isQueryRows ? { row, col: name === 'output' ? null : col < 0 ? null : col } : null,
    });
  }

  linkHighlights(ui, stage, result, row, col);
  const lines = [].concat(liveTex(c.s, stage, inputs, result, row, col, state));
  while (ui.live.children.length < lines.length) ui.live.append(h('div', { class: 'formula-line' }));
  while (ui.live.children.length > lines.length) ui.live.lastChild.remove();
  // Inline mode, so a long line breaks after = and + instead of running off a narrow screen.
  lines.forEach((t, k) => renderFormula(ui.live.children[k], t, { display: false }));
  setText(ui.note, noteText(c, stage, run, row, col, unscaled));
  drawBars(c, stage, inputs, result, row);
  drawHandCheck(c, stage, inputs);
  drawPredict(c, stage, inputs, result, row);
  // The hand-check preset keeps the engine's weights back until the learner asks for them.
  const hold = !!PRESETS[state.preset].publishedGuess && stage === 'weights' && !ui.handShown;
  for (const el of [ui.selectHint, ui.maps, ui.live, ui.note, ui.barsBox]) if (el.hidden !== hold) el.hidden = hold;
}

// Step 1's question: after scaling and softmax, how large will the top weight of the selected
// row be? (Step 2 shows the weights.)
// The answer is the engine's weight (with the temperature, masks and fill on screen).
function drawPredict(c, stage, inputs, result, i) {
  const ui = c.ui;
  const { s } = c;
  if (ui.predictBox.hidden !== (stage !== 'scores')) ui.predictBox.hidden = stage !== 'scores';
  if (stage !== 'scores') return;
  const w = rowOf(result.weights, i);
  const top = max(w);
  const best = top === undefined ? -1 : w.indexOf(top);
  const band = !(top >= 0.5) ? 'low' : top > 0.9 ? 'high' : 'mid';
  const params = { q: inputs.queryTokens[i], k: best >= 0 ? inputs.keyTokens[best] : '—', w: fmt(top ?? NaN, 3) };
  ui.predict.ask(s('predictTop.q', params));
  ui.predict.draw(band, { right: s('predictTop.right', params), wrong: s('predictTop.wrong', params) });
  setText(
    ui.topReveal,
    s('predictTop.reveal', {
      q: params.q,
      list: inputs.keyTokens.map((k, j) => s('mixItem', { k, w: fmt(w[j], 3) })).join(s('listSep')),
    }),
  );
}

// The heatmap whose selection drives the formula.
function stageMain(stage) {
  return { scores: 'scores', scaled: 'scaled', masked: 'masked', weights: 'weights', output: 'output' }[stage];
}

// Linked highlighting: a weight lights up the score it came from; an output row lights up its
// weight row and the value rows it mixes (the keys with a weight above zero).
function linkHighlights(ui, stage, result, row, col) {
  const marks = {};
  if (stage === 'weights') {
    marks.masked = col >= 0 ? { cells: [[row, col]] } : { rows: [row] };
  } else if (stage === 'output') {
    const w = rowOf(result.weights, row);
    marks.weights = { rows: [row] };
    marks.values = { rows: w.map((x, j) => (x > 0 ? j : -1)).filter((j) => j >= 0) };
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

function drawBars(c, stage, inputs, result, i) {
  const ui = c.ui;
  if (stage !== 'weights') {
    if (ui.bars) {
      ui.bars.destroy();
      ui.bars = null;
    }
    return;
  }
  if (!ui.bars) ui.bars = createBars(ui.barsBox, { color: WEIGHT });
  const title = c.s('weightsOf', { token: inputs.queryTokens[i] });
  ui.bars.update({
    values: rowOf(result.weights, i),
    labels: inputs.keyTokens,
    domain: [0, 1],
    caption: title,
    digits: 3,
  });
}

// The hand-check preset: the learner works the softmax of the typed row out by hand; the
// Softmax chapter's "check by hand" step checks it. A button takes the row there.
function drawHandCheck(c, stage, inputs) {
  const ui = c.ui;
  const { s, state } = c;
  const p = PRESETS[state.preset];
  if (stage !== 'weights' || !p.publishedGuess) {
    ui.guessBox.replaceChildren();
    ui.guessBox.dataset.key = '';
    return;
  }
  const row = inputs.grids.scores[0];
  const key = row.join(',') + c.lang;
  if (ui.guessBox.dataset.key === key) return;
  ui.guessBox.dataset.key = key;
  const show = h('button', {
    type: 'button',
    class: 'btn hand-check-show',
    text: s('guessShow'),
    hidden: !!ui.handShown,
    onclick: () => {
      ui.handShown = true;
      c.redraw();
      show.hidden = true;
    },
  });
  ui.guessBox.replaceChildren(
    h('h4', { text: s('guessTitle') }),
    h('p', { class: 'hint', text: s('guessHint', { scores: row.join(', '), printed: p.publishedGuess.join(', ') }) }),
    h(
      'div',
      { class: 'controls' },
      h('button', {
        type: 'button',
        class: 'btn primary hand-check-go',
        text: s('guessGo'),
        onclick: () => c.set(handCheckLink(c.state, row)),
      }),
      show,
    ),
  );
}
