// Lesson 11: from here to practice. The example on screen (the worked example of the pipeline,
// masks and softmax chapters, the multi-head chapter's layer and the Transformer block chapter's
// encoder and decoder layers) as a NumPy script and a PyTorch script that print the numbers
// shown here, with a copy button; then PyTorch's
// conventions for torch.nn.MultiheadAttention. The code comes from ../export.js; every number
// shown comes from the engine. The multi-head step shows a layer of its own (prTokens, prD, prH)
// as code; the multi-head chapter sends its layer here through a link, and this step's link
// opens the layer there.

import { button, h, setText } from '../../views/dom.js';
import { fmt } from '../../text/format.js';
import { runExample } from '../../lesson/example.js';
import { attentionSpec, multiHeadSpec, blockSpec, exportCode, LANGS } from '../../lesson/export.js';
import { runBlock, D_MODEL, HEADS, HIDDEN } from '../../lesson/block.js';
import { layerWeights, tokenMatrix } from '../../lesson/layer.js';
import { dims } from '../kit/figures.js';
import { dataTable, scrollTable } from '../../views/table.js';
import { createPredict } from '../kit/predict.js';
import strings from './strings.js';
import meta from './meta.js';
import { layerLink } from '../multihead/meta.js';

const DIGITS = 4;

// ---- the code box: language switch, code, copy button -------------------------------------------

// A code step's controls beside its code: the language and the copy button, then its own (extra).
const codeControls = (c, v) => [v.code.bar, ...(v.extra || [])];

function codeBox(c, name) {
  const { s } = c;
  const group = h('div', { class: 'pr-langs', role: 'radiogroup', 'aria-label': s('lang') });
  const radios = {};
  for (const lang of LANGS) {
    const input = h('input', {
      type: 'radio',
      name: `pr-lang-${name}`,
      value: lang,
      onchange: () => c.set({ prLang: lang }),
    });
    radios[lang] = input;
    group.append(h('label', { class: 'check' }, input, h('span', { text: s(`lang.${lang}`) })));
  }
  const code = h('code', { lang: 'en' });
  const pre = h('pre', { class: 'pr-code', tabindex: '0', role: 'region', 'aria-label': s('codeLabel') }, code);
  const status = h('p', { class: 'pr-status', 'aria-live': 'polite' });
  const copy = h('button', { type: 'button', class: 'btn pr-copy', text: s('copy') });
  copy.addEventListener('click', async () => {
    const text = code.textContent;
    try {
      if (!navigator.clipboard || !navigator.clipboard.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      status.dataset.state = 'copied';
      setText(status, s('copied'));
    } catch {
      // No clipboard access: select the code so the learner can copy it by hand.
      const range = document.createRange();
      range.selectNodeContents(code);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      pre.focus();
      status.dataset.state = 'selected';
      setText(status, s('copyFallback'));
    }
  });
  // the code is the step's figure; its language, the copy button and what copying did go beside
  // it (bar)
  return {
    wrap: h('div', { class: 'pr-box', 'data-code': name, 'data-figure': 'main' }, pre),
    bar: h('div', { class: 'pr-side' }, h('div', { class: 'controls pr-bar' }, group, copy), status),
    draw(lang, text) {
      for (const l of LANGS) radios[l].checked = l === lang;
      if (code.textContent !== text) {
        code.textContent = text;
        status.dataset.state = '';
        setText(status, '');
      }
    },
  };
}

const grid = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));

// A code step: its code box, then `about` and the parts before the settings it ran with, the parts
// after them, and the tables of what it prints.
function codeStep(c, v, name, before, after = []) {
  const { s } = c;
  v.code = codeBox(c, name);
  v.settings = h('ul', { class: 'pr-settings' });
  v.tables = h('div', { class: 'pr-tables' });
  return [
    v.code.wrap,
    h('p', { class: 'about lab-explain', text: s(`${name}.about`) }),
    ...before,
    h('h4', { text: s('settingsTitle') }),
    v.settings,
    ...after,
    h('h4', { text: s('printsTitle') }),
    v.tables,
  ];
}

// A code step drawn: its settings (lines of text), the code for `spec` in the chosen language,
// and the tables.
function drawCodeStep(c, v, spec, lines, tables) {
  v.settings.replaceChildren(...lines.map((t) => h('li', { text: t })));
  v.code.draw(c.state.prLang, exportCode(spec, c.state.prLang));
  v.tables.replaceChildren(...tables);
}

// The printed matrix m (one row per label, `columns` across) as a table.
const printed = (c, caption, columns, labels, m) =>
  scrollTable(
    caption,
    [c.s('corner'), ...columns],
    grid(m).map((row, i) => [labels[i], ...row.map((x) => fmt(x, DIGITS))]),
    [0],
  );

// ---- step 1: the worked example -----------------------------------------------------------------

function buildExample(c, v) {
  const { s } = c;
  v.reset = button('btn', s('reset'), () =>
    c.set({
      causal: false,
      keyPadding: [],
      customMask: [],
      reverseCausal: false,
      fill: 'neg-inf',
      temperature: 1,
      stable: true,
    }),
  );
  v.links = h('p', { class: 'lab-explain' });
  for (const lesson of ['pipeline', 'masks', 'softmax']) {
    v.links.append(
      button('linklike', s(`goto.${lesson}`), () => c.set({ lesson, stage: '' })),
      ' ',
    );
  }
  v.rule = h('p', { class: 'lab-explain pr-rule' });
  // Before the printed numbers: which of them does softmax(dim=-1) make add up to 1?
  v.sums = h('p', { class: 'msg info pr-sums' });
  v.predict = createPredict(c, {
    id: 'practice/softmax-axis',
    question: s('axis.q'),
    reveal: v.sums,
    options: ['rows', 'cols', 'all'].map((value) => ({ value, label: s(`axis.${value}`) })),
  });
  v.extra = [h('div', { class: 'controls' }, v.reset)];
  return codeStep(c, v, 'example', [v.rule, v.predict.el, v.sums], [v.links]);
}

// Which sums of the engine's weights are 1: each query's row (softmax over the last axis), each
// key's column, or only the whole matrix. Rows of a query with every key blocked are left out.
function axisAnswer(c, p) {
  const w = grid(p.result.weights);
  const blocked = new Set(p.result.fullyMaskedRows);
  const one = (x) => Math.abs(x - 1) <= 1e-4;
  const rowSums = w.map((r) => r.reduce((a, b) => a + b, 0));
  const colSums = w[0].map((_, j) => w.reduce((a, r) => a + r[j], 0));
  const answer = rowSums.every((x, i) => blocked.has(i) || one(x)) ? 'rows' : colSums.every(one) ? 'cols' : 'all';
  const sep = c.s('keySep');
  return { answer, rows: rowSums.map((x) => fmt(x, 4)).join(sep), cols: colSums.map((x) => fmt(x, 4)).join(sep) };
}

function computeExample(c) {
  const { inputs, args, result } = runExample(c.engine, c.state);
  const spec = attentionSpec({
    args,
    queryTokens: inputs.queryTokens,
    keyTokens: inputs.keyTokens,
    scoresTyped: inputs.scoresTyped,
  });
  return { inputs, args, result, spec };
}

function settingLines(c, p) {
  const { s, state } = c;
  const { spec } = p;
  const lines = [
    s('set.preset', { name: s(`preset.${state.preset}`) }),
    s('set.tokens', { q: spec.queryTokens.join(' '), k: spec.keyTokens.join(' ') }),
  ];
  lines.push(spec.scores ? s('set.typed') : s(`set.score.${spec.score}`, { dk: spec.K[0].length }));
  lines.push(s(spec.causal ? 'set.causal.on' : 'set.causal.off'));
  const pad = spec.keyPadding ? spec.keyTokens.filter((_, j) => spec.keyPadding[j]) : [];
  lines.push(pad.length ? s('set.padding', { keys: pad.join(s('keySep')) }) : s('set.padding.none'));
  if (spec.reverseCausal) lines.push(s('set.mask.reversed'));
  else if (spec.mask) lines.push(s('set.mask'));
  lines.push(s(`set.fill.${spec.fill}`));
  lines.push(s('set.temperature', { t: String(spec.temperature) }));
  lines.push(s(spec.stable ? 'set.stable.on' : 'set.stable.off'));
  return lines;
}

// What the engine returned for a query whose every key is blocked, in words ('' when none is):
// zeros (this engine's rule for −∞ with the stable softmax), NaN (0 / 0) or equal weights.
function ruleText(c, p) {
  const i = p.result.fullyMaskedRows[0];
  if (i === undefined) return '';
  const w = p.result.weights;
  const row = Array.from(w.data.subarray(i * w.cols, (i + 1) * w.cols));
  if (row.some(Number.isNaN)) return c.s('rule.nan');
  if (row.every((x) => x === 0)) return c.s(`rule.zero.${c.state.prLang}`);
  return c.s('rule.even', { fill: c.s(`fillName.${p.spec.fill}`) });
}

function drawExample(c, p, v) {
  const { s } = c;
  const axis = axisAnswer(c, p);
  v.predict.draw(axis.answer, { right: s(`axis.${axis.answer}.why`), wrong: s(`axis.${axis.answer}.why`) });
  setText(v.sums, s('axis.sums', axis));
  setText(v.rule, ruleText(c, p));
  v.rule.hidden = v.rule.textContent === '';
  const { queryTokens, keyTokens } = p.inputs;
  const { output, weights } = p.result;
  drawCodeStep(c, v, p.spec, settingLines(c, p), [
    printed(c, s('tableWeights'), keyTokens, queryTokens, weights),
    ...(p.inputs.scoresTyped ? [] : [printed(c, s('tableOutput'), dims(output.cols), queryTokens, output)]),
  ]);
}

// ---- step 2: the multi-head layer ---------------------------------------------------------------

function buildMultiHead(c, v) {
  const { s } = c;
  v.link = button('linklike', s('goto.multihead'), () =>
    c.set(layerLink({ tokens: c.state.prTokens, d: c.state.prD, heads: c.state.prH })),
  );
  return codeStep(c, v, 'multihead', [h('p', { class: 'lab-explain' }, v.link)]);
}

function computeMultiHead(c) {
  const { state, engine } = c;
  const d = state.prD;
  const tokens = state.prTokens;
  const X = tokenMatrix(engine, tokens, d, state.seed);
  const W = layerWeights(engine, d, state.seed);
  const args = { query: X, key: X, value: X, heads: state.prH, ...W };
  const result = engine.multiHead(args);
  return { tokens, d, heads: state.prH, result, spec: multiHeadSpec({ args, tokens }) };
}

function drawMultiHead(c, p, v) {
  const { s } = c;
  const settings = [
    s('mh.tokens', { tokens: p.tokens.join(' ') }),
    s('mh.sizes', { d: p.d, h: p.heads, dk: p.d / p.heads }),
    s('mh.seed', { seed: c.state.seed }),
  ];
  drawCodeStep(c, v, p.spec, settings, [
    ...p.result.heads.map((head, i) => printed(c, s('tableHead', { i: i + 1 }), p.tokens, p.tokens, head.weights)),
    printed(c, s('tableOutput'), dims(p.d), p.tokens, p.result.output),
  ]);
}

// ---- step 3: the Transformer block --------------------------------------------------------------

function buildBlock(c, v) {
  const { s } = c;
  v.switched = h('p', { class: 'msg info pr-switched' });
  v.link = button('linklike', s('goto.block'), () => c.set({ lesson: 'block', stage: 'self' }));
  return codeStep(c, v, 'block', [h('p', { class: 'lab-explain' }, v.link), v.switched]);
}

// The block chapter's layers (its sentences, seed, norm placement, activation and cross-attention
// preset) with the residual and LayerNorm on: torch's layers have no switch for them.
function computeBlock(c) {
  const { state, engine } = c;
  const r = runBlock(engine, state, { blResidual: true, blNorm: true });
  const spec = blockSpec({ ...r.args, sourceTokens: state.blSource, targetTokens: state.blTarget });
  return { r, spec, switched: !state.blResidual || !state.blNorm };
}

function drawBlock(c, p, v) {
  const { s, state } = c;
  setText(v.switched, p.switched ? s('bl.switched') : '');
  v.switched.hidden = !p.switched;
  const settings = [
    s('bl.tokens', { source: state.blSource.join(' '), target: state.blTarget.join(' ') }),
    s('bl.sizes', {
      d: D_MODEL,
      h: HEADS,
      hidden: HIDDEN,
      act: state.blAct === 'gelu' ? 'GELU' : 'ReLU',
      norm: s(state.blNormFirst ? 'bl.pre' : 'bl.post'),
    }),
    s(state.blAligned ? 'bl.aligned' : 'bl.drawn'),
    s('bl.seed', { seed: state.seed }),
  ];
  drawCodeStep(c, v, p.spec, settings, [
    printed(c, s('tableEncoder'), dims(D_MODEL), state.blSource, p.r.encoder.output),
    printed(c, s('tableDecoder'), dims(D_MODEL), state.blTarget, p.r.decoder.output),
  ]);
}

// ---- step 4: PyTorch's conventions --------------------------------------------------------------

function buildConventions(c) {
  const { s } = c;
  const rows = ['batch', 'weights', 'stacked', 'needWeights', 'average', 'mask', 'padding', 'scale'].map((k) => [
    s(`conv.${k}.page`),
    s(`conv.${k}.torch`),
  ]);
  return [
    h('p', { class: 'about lab-explain', text: s('conventions.about') }),
    h(
      'div',
      { class: 'pr-conv-wrap' },
      dataTable({
        caption: s('conv.caption'),
        head: [s('conv.colPage'), s('conv.colTorch')],
        rows,
        className: 'data-table pr-conv',
      }),
    ),
    h('p', { class: 'lab-explain', text: s('conventions.check') }),
  ];
}

// ---- the chapter ----------------------------------------------------------------------------------

const STEPS = [
  {
    id: 'example',
    title: { en: 'The example as code', zh: '示例写成代码' },
    build: buildExample,
    controls: codeControls,
    draw: drawExample,
    compute: computeExample,
  },
  {
    id: 'multihead',
    title: { en: 'Multi-head in PyTorch', zh: 'PyTorch 中的多头注意力' },
    build: buildMultiHead,
    controls: codeControls,
    draw: drawMultiHead,
    compute: computeMultiHead,
  },
  {
    id: 'block',
    title: { en: 'The Transformer block in PyTorch', zh: 'PyTorch 中的 Transformer 模块' },
    build: buildBlock,
    controls: codeControls,
    draw: drawBlock,
    compute: computeBlock,
  },
  { id: 'conventions', title: { en: 'PyTorch’s conventions', zh: 'PyTorch 的约定' }, build: buildConventions },
];

export default {
  ...meta,
  prefix: 'pr',
  strings,
  steps: STEPS,
};
