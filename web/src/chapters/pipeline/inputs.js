// The pipeline chapter's controls. Beside the figure (the chapter's control groups, ./index.js):
// the example (preset, query and key tokens) on every step, d_k and the seed on the score and
// scale steps, the masks on the steps they act on. In the settings (the panel): whether the vectors
// are drawn or typed, what the example is, where each token's vectors come from, and the grid
// editor for typed Q, K, V (or typed scores). One sync for all of them (syncInputs, the panel's
// draw); the handles live in c.ui.

import {
  PRESETS,
  PRESET_IDS,
  MAX_TOKENS,
  MAX_TOKEN_CHARS,
  MAX_DK,
  presetPatch,
  paddingPatch,
  resizeGrid,
} from '../../lesson/example.js';
import { h, setText, rebuildOn } from '../../views/dom.js';
import { field, showError, syncInput, intInput, splitTokens } from '../../views/controls.js';
import { parseNumber } from '../../text/format.js';
import { MAX_SEED } from '../../engine/choices.js';

const GRID_CELL_LIMIT = 256; // typed grids larger than this are not offered for typing

// The example: which one, and its query and key tokens (on every step).
export function buildExample(c) {
  const { s, ui } = c;
  ui.presetSel = h(
    'select',
    { onchange: (e) => c.set({ ...presetPatch(e.target.value), selRow: 0, selCol: 0 }) },
    ...PRESET_IDS.map((id) => h('option', { value: id, text: s(`preset.${id}`) })),
  );
  const preset = field(s('preset'), ui.presetSel);
  const tokens = (label) =>
    field(label, h('input', { type: 'text', class: 'wide', autocomplete: 'off', spellcheck: false }), s('tokensHint'));
  ui.qTok = tokens(s('queryTokens'));
  ui.kTok = tokens(s('keyTokens'));
  const onTokens = (f, name) => () => {
    const list = splitTokens(f.input.value);
    if (list.length === 0) return showError(f, s('errTokensEmpty'));
    if (list.length > MAX_TOKENS) return showError(f, s('errTokensMany', { max: MAX_TOKENS, n: list.length }));
    if (list.some((t) => [...t].length > MAX_TOKEN_CHARS))
      return showError(f, s('errTokenLong', { max: MAX_TOKEN_CHARS }));
    showError(f, '');
    c.set({ [name]: list, selRow: 0, selCol: 0 });
  };
  ui.qTok.input.addEventListener('change', onTokens(ui.qTok, 'queryTokens'));
  ui.kTok.input.addEventListener('change', onTokens(ui.kTok, 'keyTokens'));
  return h('div', { class: 'controls pl-example' }, preset.wrap, ui.qTok.wrap, ui.kTok.wrap);
}

// d_k and the seed of the drawn vectors (the score and scale steps).
export function buildSizes(c) {
  const { s, ui } = c;
  const intField = (label, name, min, max) =>
    intInput(label, { min, max, onValue: (x) => c.set({ [name]: x }), error: () => s('errInt', { min, max }) });
  ui.dk = intField(s('dk'), 'dk', 1, MAX_DK);
  ui.seed = intField(s('seed'), 'seed', 0, MAX_SEED);
  return h('div', { class: 'controls pl-sizes' }, ui.dk.wrap, ui.seed.wrap);
}

// Padding keys and the causal mask (the steps from the mask on).
export function buildMasks(c) {
  const { s, ui } = c;
  ui.masks = h('fieldset', { class: 'masks' });
  ui.masks.append(h('legend', { text: s('masks') }));
  ui.padBox = h('div', { class: 'pad-box' });
  ui.causal = h('input', { type: 'checkbox', onchange: (e) => c.set({ causal: e.target.checked }) });
  // A causal mask on a cross-attention example (queries and keys from two sentences) is flagged.
  ui.crossCausal = h('p', { class: 'msg bad pl-cross-causal', role: 'status' });
  ui.masks.append(
    ui.padBox,
    h('label', { class: 'check' }, ui.causal, h('span', { text: s('causal') })),
    ui.crossCausal,
    h('p', { class: 'hint', text: s('masksHint') }),
  );
  return ui.masks;
}

// The settings: drawn or typed vectors, what the example is, where each token's vectors come
// from, and the grids of typed numbers.
export function buildInputs(c) {
  const { s, ui } = c;
  const panel = h('section', { class: 'panel inputs', 'data-group': 'inputs', 'aria-labelledby': 'pl-inputs-h' });
  panel.append(h('h3', { id: 'pl-inputs-h', class: 'panel-title', text: s('inputs') }));
  // Switching to typed starts from the numbers on screen (example.js rounds seeded draws).
  ui.modeSel = h(
    'select',
    { onchange: (e) => c.set({ inputMode: e.target.value }) },
    h('option', { value: 'random', text: s('mode.random') }),
    h('option', { value: 'typed', text: s('mode.typed') }),
  );
  ui.mode = field(s('inputMode'), ui.modeSel);
  ui.about = h('p', { class: 'about' });
  ui.sources = h('div', { class: 'token-sources', 'aria-live': 'polite' });
  ui.gridBox = h('details', { class: 'grids' });
  ui.gridSummary = h('summary');
  ui.gridBody = h('div', { class: 'grid-body' });
  ui.gridError = h('div', { class: 'field-error', role: 'alert' });
  ui.gridBox.append(ui.gridSummary, ui.gridError, ui.gridBody);
  panel.append(h('div', { class: 'controls' }, ui.mode.wrap), ui.about, ui.sources, ui.gridBox);
  return panel;
}

// Puts the state's values into the input controls (without touching a field being edited
// with an error in it).
export function syncInputs(c, run) {
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
