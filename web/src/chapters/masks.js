// Chapter 3: masks. Key padding, causal, a custom mask drawn by clicking cells, the fill value
// (−∞, −1e9, 0) and its leak, a reversed causal mask, a fully blocked row, and the two-token
// check. The mask set here is the shared one: the pipeline shows the same example with it.
// Every number comes from engine.attend; this file only decides what to flag and says why.

import { PRESETS, PRESET_IDS, MAX_TOKENS, presetPatch, paddingPatch, runExample, toGrid, rowOf } from '../example.js';
import { fmt } from '../format.js';
import { h, rebuildOn } from '../views/dom.js';
import { createStepper, stepSection } from '../views/stepper.js';

const STEPS = [
  { id: 'padding', title: { en: 'Padding', zh: '填充掩码' } },
  { id: 'causal', title: { en: 'Causal', zh: '因果掩码' } },
  { id: 'custom', title: { en: 'Draw a mask', zh: '自己画掩码' } },
  { id: 'blocked', title: { en: 'A blocked row', zh: '整行屏蔽' } },
  { id: 'two-token', title: { en: 'Two-token check', zh: '两词自检' } },
];

const FILLS = ['neg-inf', 'large-negative', 'zero'];

const strings = {
  en: {
    intro: 'A mask says which Keys each Query may look at: 1 = allowed, 0 = blocked. Before softmax, every blocked score is overwritten with a fill value, so that softmax gives it nothing. The mask you set here is the same one the pipeline chapter uses, on the same example.',
    example: 'The example',
    preset: 'Example',
    'preset.cat-fish': 'Translation: The cat eats fish → 猫 吃 鱼 (cross)',
    'preset.cat-chase': 'Self-attention: 猫 追 老鼠',
    'preset.random': 'Random vectors, 4 tokens (self)',
    'preset.hand-check': 'Typed scores: 猫 over The cat eats fish',
    fill: 'Fill value for blocked scores',
    'fill.neg-inf': '−∞',
    'fill.large-negative': '−1e9',
    'fill.zero': '0 (the bug)',
    'fillAbout.neg-inf': '−∞: exp(−∞) is exactly 0, so a blocked key gets exactly zero weight. PyTorch code writes masked_fill(mask == 0, float(\'-inf\')).',
    'fillAbout.large-negative': '−1e9: exp(−1e9 − max) underflows to 0 in float32, so a blocked key also gets zero weight — except in a row where every key is blocked (see step 4).',
    'fillAbout.zero': '0 is an ordinary score, not a block. Blocked keys keep their share of the weight and their Values leak into the output. Nothing crashes and the loss does not blow up; the model is just quietly worse.',
    stable: 'Stable softmax (subtract the row max first)',
    mapMask: 'Mask (1 = may attend, 0 = blocked)',
    mapMaskClick: 'Mask — click a cell to block or allow it',
    mapMasked: 'Masked scores',
    mapWeights: 'Attention weights',
    rowsCols: 'rows: queries · columns: keys',
    errEngine: 'The engine refused this example: {msg}',

    'h.padding': 'Padding: keys that are not really there',
    'p.padding': 'Sequences in a batch have different lengths, so the short ones are filled up with padding tokens. No query should read them. Mark a key as padding and its whole column is blocked. Then switch the fill to 0 and watch the padded column come back to life.',
    padKeys: 'Padding keys',
    padOf: 'Mark “{tok}” as padding',
    padNone: 'No key is marked as padding yet: press one of the key buttons.',
    leak: 'Leak: {n} blocked cells still receive weight (up to {max}). They are outlined in red in the weights; their Values are mixed into the output.',
    noLeak: 'Every blocked cell has weight exactly 0.',

    'h.causal': 'Causal: no peeking at the future',
    'p.causal': 'A model that writes text one token at a time must not read the tokens it has not written yet. The causal mask lets query i see keys 1…i only, so everything above the diagonal of the weight matrix is 0.',
    'p.reverse': 'Now flip the comparison, a one-character bug. Shapes and memory stay the same and nothing errors, but each query now sees the future instead of the past: the cells above the diagonal get weight.',
    causal: 'Causal mask (query i sees keys 1…i)',
    reverse: 'Reversed causal mask (the bug: query i sees keys i…n)',
    crossHint: 'This example is cross-attention (Chinese queries, English keys), where “earlier” and “later” do not line up. A causal mask belongs to a sequence attending to itself: try 猫 追 老鼠 or the random example.',
    futureLeak: 'Future leak: {n} cells above the diagonal get weight (outlined in red). During training the model would learn to copy the answer from the future.',
    upperZero: 'Every cell above the diagonal has weight exactly 0: no query reads the future.',
    noCausal: 'Switch on the causal mask, then the reversed one.',
    toSelf: 'Use 猫 追 老鼠 with a causal mask',
    fillLeak: 'The causal mask is on, but a 0 fill does not block anything: see the fill choice above.',

    'h.custom': 'Draw your own mask',
    'p.custom': 'Click a cell of the mask (or move with the arrow keys and press Enter or Space) to block or allow that query–key pair. The weights follow at once: the blocked weight is shared out among the keys still allowed in that row.',
    clearCustom: 'Allow every cell again',
    alsoBlocked: '“{q}” → “{k}” is still blocked by the padding or causal mask.',

    'h.blocked': 'A row with nowhere to look',
    'p.blocked': 'What if one query may attend to nothing at all? Block every key of its row and compare what three implementations return for it.',
    blockRow: 'Query',
    blockIt: 'Block every key for this query',
    unblockIt: 'Allow this row again',
    notBlocked: 'No query row is fully blocked yet. Choose a query and press the button.',
    colCase: 'Fill and softmax',
    colWeights: 'Weights of “{q}”',
    colOutput: 'Output of “{q}”',
    colRows: 'fullyMaskedRows',
    colVerdict: 'What it means',
    'case.neg-inf': '−∞, stable softmax',
    'case.large-negative': '−1e9, stable softmax',
    'case.naive': '−∞, naive softmax',
    'verdict.zero': 'Zero weights and a zero output: the engine detects the empty row and reports it in fullyMaskedRows, so the page can say so instead of guessing.',
    'verdict.uniform': 'Every score in the row is −1e9, so softmax cannot tell them apart: equal weights, and the output is the plain average of all Values — including the ones you meant to hide.',
    'verdict.nan': 'exp(−∞) = 0 for every key, then 0 / 0 = NaN. A NaN spreads into every later layer and into the loss.',
    'verdict.other': 'Neither zero, uniform nor NaN.',
    'verdict.nanOther': 'NaN appears.',
    rowsNone: 'none',

    'h.two-token': 'The two-token check',
    'p.two-token': 'A quick test for any attention code: keep just two tokens, mask one, and the output must equal the other token’s Value exactly — the masked token may not contribute anything. If this fails, look at the mask (or the axes) before anything fancier. It uses the first query and the first two keys of the example, with the fill and softmax chosen above.',
    twoMask: 'Mask',
    twoTooFew: 'This check needs at least two keys; the example has only one.',
    twoWeights: 'weights (engine)',
    twoOutput: 'output (engine)',
    twoValue: 'Value of “{tok}”',
    twoDiff: 'largest difference',
    twoPass: 'Pass: the output equals the Value of “{tok}”.',
    twoFail: 'Fail: the output differs from the Value of “{tok}” by up to {d}. The masked token leaks in.',
    twoNan: 'Fail: the output contains NaN.',
    twoCheckNote: 'The difference is a check computed on the page from the engine’s two vectors.',
  },
  zh: {
    intro: '掩码规定每个 Query 可以看哪些 Key：1 表示允许，0 表示屏蔽。在 softmax 之前，每个被屏蔽的分数都会被换成一个替换值，让 softmax 不给它分权重。这里设的掩码就是“一步一步看注意力”那一章用的掩码，作用在同一个例子上。',
    example: '示例',
    preset: '例子',
    'preset.cat-fish': '翻译：The cat eats fish → 猫 吃 鱼（交叉注意力）',
    'preset.cat-chase': '自注意力：猫 追 老鼠',
    'preset.random': '随机向量，4 个词（自注意力）',
    'preset.hand-check': '直接输入分数：“猫”对 The cat eats fish',
    fill: '被屏蔽分数的替换值',
    'fill.neg-inf': '−∞',
    'fill.large-negative': '−1e9',
    'fill.zero': '0（错误写法）',
    'fillAbout.neg-inf': '−∞：exp(−∞) 恰好等于 0，被屏蔽的 Key 权重严格为零。PyTorch 里常写 masked_fill(mask == 0, float(\'-inf\'))。',
    'fillAbout.large-negative': '−1e9：在 float32 里 exp(−1e9 − 最大值) 会下溢成 0，所以被屏蔽的 Key 同样是零权重——除非整行的 Key 全被屏蔽（见第 4 步）。',
    'fillAbout.zero': '0 只是个普通分数，根本挡不住。被屏蔽的 Key 照样分到权重，它们的 Value 混进了输出。程序不报错，loss 也不爆炸，模型只是悄悄地变差。',
    stable: '稳定的 softmax（先减去每行最大值）',
    mapMask: '掩码（1 = 可以看，0 = 屏蔽）',
    mapMaskClick: '掩码——点击格子来屏蔽或放开',
    mapMasked: '掩码处理后的分数',
    mapWeights: '注意力权重',
    rowsCols: '行：Query · 列：Key',
    errEngine: '引擎拒绝了这个例子：{msg}',

    'h.padding': '填充掩码：并不存在的词',
    'p.padding': '一个批次里的序列长短不一，短的要用填充符补齐。任何 Query 都不该读到它们。把某个 Key 标成填充，它整列就被屏蔽了。然后把替换值切换成 0，看看那一列是怎么“复活”的。',
    padKeys: '填充位',
    padOf: '把“{tok}”标为填充',
    padNone: '还没有标记任何填充位：点一下上面某个 Key 的按钮。',
    leak: '泄漏：有 {n} 个被屏蔽的格子仍然分到了权重（最多 {max}），已在权重图中用红框标出；它们的 Value 混进了输出。',
    noLeak: '所有被屏蔽格子的权重都严格为 0。',

    'h.causal': '因果掩码：不许偷看未来',
    'p.causal': '逐词生成文本的模型，不能读到自己还没写出来的词。因果掩码只让第 i 个 Query 看第 1 到第 i 个 Key，于是权重矩阵对角线以上全是 0。',
    'p.reverse': '现在把比较符号写反——只差一个字符的 bug。形状、显存都不变，也不报错，可每个 Query 看到的变成了未来而不是过去：对角线以上的格子分到了权重。',
    causal: '因果掩码（第 i 个 Query 只看第 1…i 个 Key）',
    reverse: '写反的因果掩码（bug：第 i 个 Query 看第 i…n 个 Key）',
    crossHint: '这个例子是交叉注意力（中文 Query 对英文 Key），两边的“先后”对不上。因果掩码用在序列对自身做注意力的场合：试试“猫 追 老鼠”或随机例子。',
    futureLeak: '未来信息泄漏：对角线以上有 {n} 个格子分到了权重（红框标出）。训练时模型会学会直接从“未来”抄答案。',
    upperZero: '对角线以上每个格子的权重都严格为 0：没有 Query 能读到未来。',
    noCausal: '先打开因果掩码，再试试写反的版本。',
    toSelf: '换成“猫 追 老鼠”并打开因果掩码',
    fillLeak: '因果掩码虽然开着，可替换值 0 什么也挡不住：看看上面的替换值选项。',

    'h.custom': '自己画一个掩码',
    'p.custom': '点击掩码里的格子（或用方向键移动，按回车或空格），就能屏蔽或放开这一对 Query–Key。权重随即更新：被屏蔽的那份权重，会分给这一行里仍然允许的 Key。',
    clearCustom: '全部重新允许',
    alsoBlocked: '“{q}” → “{k}” 仍被填充掩码或因果掩码挡着。',

    'h.blocked': '无处可看的一行',
    'p.blocked': '如果某个 Query 一个 Key 都不能看，会怎样？把它这一行的 Key 全部屏蔽，比较三种实现给出的结果。',
    blockRow: 'Query',
    blockIt: '屏蔽这个 Query 的所有 Key',
    unblockIt: '重新放开这一行',
    notBlocked: '目前还没有哪一行被整行屏蔽。选一个 Query，再点按钮。',
    colCase: '替换值与 softmax',
    colWeights: '“{q}”的权重',
    colOutput: '“{q}”的输出',
    colRows: 'fullyMaskedRows',
    colVerdict: '这意味着什么',
    'case.neg-inf': '−∞，稳定 softmax',
    'case.large-negative': '−1e9，稳定 softmax',
    'case.naive': '−∞，朴素 softmax',
    'verdict.zero': '权重全为零，输出也为零：引擎发现这一行无处可看，并在 fullyMaskedRows 里报告出来，页面就能如实告诉你，而不是瞎猜。',
    'verdict.uniform': '这一行的分数全是 −1e9，softmax 分不出高下：权重完全平均，输出就是所有 Value 的简单平均——包括你本想藏起来的那些。',
    'verdict.nan': '每个 Key 的 exp(−∞) 都是 0，接着 0 / 0 = NaN。NaN 会一路传进后面的每一层，直到 loss。',
    'verdict.other': '既不是零，也不是平均，也不是 NaN。',
    'verdict.nanOther': '出现了 NaN。',
    rowsNone: '无',

    'h.two-token': '两个词的自检',
    'p.two-token': '检验注意力代码的一个小测试：只留两个词，屏蔽其中一个，输出就必须和另一个词的 Value 一模一样——被屏蔽的词一点都不能掺进来。这关都过不了，先查掩码（或者维度），别急着怀疑更高深的东西。这里用例子的第一个 Query 和前两个 Key，替换值和 softmax 用上面选的。',
    twoMask: '屏蔽',
    twoTooFew: '这个检查至少需要两个 Key，而这个例子只有一个。',
    twoWeights: '权重（引擎）',
    twoOutput: '输出（引擎）',
    twoValue: '“{tok}”的 Value',
    twoDiff: '最大差值',
    twoPass: '通过：输出与“{tok}”的 Value 完全相同。',
    twoFail: '未通过：输出与“{tok}”的 Value 最多相差 {d}，被屏蔽的词漏了进来。',
    twoNan: '未通过：输出里有 NaN。',
    twoCheckNote: '差值是页面根据引擎给出的两个向量算出来的核对值。',
  },
};

let ui = null; // DOM handles of the chapter on screen

export default {
  id: 'masks',
  title: { en: 'Masks', zh: '掩码' },
  strings,
  steps: STEPS,
  state: {
    blockRow: { type: 'int', default: 0, min: 0, max: MAX_TOKENS - 1 }, // query row for step 4
    twoMasked: { type: 'int', default: 1, min: 0, max: 1 },             // two-token check: which key is masked
  },

  enter(root, ctx) {
    const { s, lang } = ctx;
    ui = { last: null, maps: {} };
    root.append(h('h2', { text: this.title[lang] }), h('p', { class: 'lead', text: s('intro') }));
    buildPanel(root, ctx);
    ui.stepper = createStepper(ctx, STEPS);
    root.append(ui.stepper.el);
    ui.sections = {
      padding: buildPadding(ctx),
      causal: buildCausal(ctx),
      custom: buildCustom(ctx),
      blocked: buildBlocked(ctx),
      'two-token': buildTwoToken(ctx),
    };
    for (const sec of Object.values(ui.sections)) root.append(sec.el);
    ui.mapsBox = h('div', { class: 'maps' });
    root.append(ui.mapsBox);
  },

  update(ctx) {
    const stage = ctx.state.stage;
    ui.stepper.sync(stage);
    syncPanel(ctx);
    for (const [id, sec] of Object.entries(ui.sections)) sec.el.hidden = id !== stage;
    let run;
    try {
      run = runExample(ctx.engine, ctx.state);
    } catch (e) {
      // Keep the last valid picture; say what the engine refused.
      ui.error.textContent = ctx.s('errEngine', { msg: e.message });
      return;
    }
    ui.error.textContent = '';
    ui.last = run;
    const flags = ui.sections[stage].draw(ctx, run) || {};
    // The two-token check has its own tiny example; the big maps would only distract there.
    ui.mapsBox.hidden = stage === 'two-token';
    drawMaps(ctx, run, stage, flags);
  },

  leave() {
    ui = null;
  },
};

// ---- helpers ----------------------------------------------------------------------------------

const at = (m, i, j) => m.data[i * m.cols + j];

// Cells the mask blocks but that still get weight (> 0 or NaN): the 0-fill leak.
function leakedCells(result) {
  const { mask, weights } = result;
  const cells = [];
  for (let i = 0; i < mask.rows; i++) {
    for (let j = 0; j < mask.cols; j++) {
      const w = at(weights, i, j);
      if (at(mask, i, j) === 0 && (w > 0 || Number.isNaN(w))) cells.push([i, j]);
    }
  }
  return cells;
}

// Cells above the diagonal (key after query) that get weight: the future leak.
function futureCells(result) {
  const { weights } = result;
  const cells = [];
  for (let i = 0; i < weights.rows; i++) {
    for (let j = i + 1; j < weights.cols; j++) {
      const w = at(weights, i, j);
      if (w > 0 || Number.isNaN(w)) cells.push([i, j]);
    }
  }
  return cells;
}

function maxWeightOf(result, cells) {
  let m = 0;
  for (const [i, j] of cells) m = Math.max(m, at(result.weights, i, j));
  return m;
}

// A vector as a row of cells; flagged (non-finite) cells marked.
function vectorRow(label, values, digits = 3) {
  return h('div', { class: 'vec-row' }, label ? h('span', { class: 'vec-label', text: label }) : null,
    h('span', { class: 'vec' }, ...Array.from(values, (v) => h('span', { class: Number.isFinite(v) ? 'vec-cell' : 'vec-cell flagged', text: fmt(v, digits) }))));
}

// A step's section, headed by its h.<id> string.
const section = (id, ctx, ...children) => stepSection('mk', id, ctx.s(`h.${id}`), ...children);

// A message line under a step's controls (class mk-note, so tests and styles can find it).
function msg(cls = 'info') {
  return h('p', { class: `msg ${cls} mk-note`, 'aria-live': 'polite' });
}

function setMsg(el, cls, text) {
  el.className = `msg ${cls} mk-note`;
  el.textContent = text;
}

// The custom mask grid for (nq, nk): the state's, else all ones.
function customGrid(state, nq, nk) {
  const c = state.customMask;
  if (c.length === nq && c.every((r) => r.length === nk)) return c.map((r) => r.slice());
  return Array.from({ length: nq }, () => Array(nk).fill(1));
}

// All ones -> [] so the link stays short and "no custom mask" stays the default.
function customPatch(grid) {
  return { customMask: grid.every((r) => r.every((x) => x !== 0)) ? [] : grid };
}

// ---- the example panel: preset, fill, stable -------------------------------------------------

function buildPanel(root, ctx) {
  const { s } = ctx;
  const presetSel = h('select', { id: 'mk-preset', onchange: (e) => ctx.set({ ...presetPatch(e.target.value), blockRow: 0 }) },
    ...PRESET_IDS.map((id) => h('option', { value: id, text: s(`preset.${id}`) })));
  const fillRadios = FILLS.map((f) => h('input', { type: 'radio', name: 'mk-fill', value: f, onchange: () => ctx.set({ fill: f }) }));
  const fillGroup = h('fieldset', { class: 'plain' }, h('legend', { text: s('fill') }),
    h('div', { class: 'radio-list row', role: 'radiogroup', 'aria-label': s('fill') },
      ...fillRadios.map((r, k) => h('label', { class: 'check' }, r, h('span', { text: s(`fill.${FILLS[k]}`) })))));
  const stable = h('input', { type: 'checkbox', onchange: (e) => ctx.set({ stable: e.target.checked }) });
  ui.fillAbout = h('p', { class: 'hint mk-fill-about' });
  ui.error = h('div', { class: 'field-error', role: 'alert' });
  const panel = h('section', { class: 'panel', 'data-group': 'inputs', 'aria-labelledby': 'mk-panel-h' },
    h('h3', { class: 'panel-title', id: 'mk-panel-h', text: s('example') }),
    h('div', { class: 'controls' },
      h('div', { class: 'field' }, h('label', { for: 'mk-preset', text: s('preset') }), presetSel),
      fillGroup,
      h('label', { class: 'check' }, stable, h('span', { text: s('stable') }))),
    ui.fillAbout, ui.error);
  root.append(panel);
  Object.assign(ui, { presetSel, fillRadios, stable });
}

function syncPanel(ctx) {
  const st = ctx.state;
  ui.presetSel.value = st.preset;
  ui.fillRadios.forEach((r) => { r.checked = r.value === st.fill; });
  ui.stable.checked = st.stable;
  ui.fillAbout.textContent = ctx.s(`fillAbout.${st.fill}`);
}

// ---- the heatmaps under every step -----------------------------------------------------------

function heatmap(ctx, name, opts) {
  if (!ui.maps[name]) {
    const title = h('h4', { class: 'map-title' });
    const wrap = h('div', { class: `map mk-map-${name}` }, title);
    const hm = ctx.views.createHeatmap(wrap, { ...opts, strings: { showTable: ctx.t('showTable'), showHeatmap: ctx.t('showHeatmap') } });
    ui.maps[name] = { wrap, title, hm };
  }
  return ui.maps[name];
}

// Mask, masked scores and weights; flags = { cells: [[i, j]] } are outlined on the weights.
function drawMaps(ctx, run, stage, flags) {
  const { s } = ctx;
  const { result, inputs } = run;
  const qt = inputs.queryTokens, kt = inputs.keyTokens;
  const mask = heatmap(ctx, 'mask', { kind: 'sequential', digits: 0, onSelect: ({ row, col }) => toggleCell(ctx, row, col) });
  const masked = heatmap(ctx, 'masked', { kind: 'diverging' });
  const weights = heatmap(ctx, 'weights', { kind: 'sequential' });
  if (!weights.wrap.parentNode) {
    // Appended once: moving a heatmap in the DOM would take the keyboard focus away from it.
    weights.wrap.classList.add('flagmap');
    masked.wrap.classList.add('flagmap');
    ui.mapsBox.append(mask.wrap, masked.wrap, weights.wrap);
  }
  const cap = (t) => `${t} (${s('rowsCols')})`;
  mask.title.textContent = stage === 'custom' ? s('mapMaskClick') : s('mapMask');
  mask.hm.update({ matrix: result.mask, rowLabels: qt, colLabels: kt, domain: [0, 1], caption: cap(s('mapMask')) });
  masked.title.textContent = s('mapMasked');
  masked.hm.update({ matrix: result.masked, rowLabels: qt, colLabels: kt, caption: cap(s('mapMasked')) });
  weights.title.textContent = s('mapWeights');
  weights.hm.update({ matrix: result.weights, rowLabels: qt, colLabels: kt, domain: [0, 1], caption: cap(s('mapWeights')) });
  weights.hm.highlight({ cells: flags.cells || [] });
  masked.hm.highlight({ cells: flags.cells || [] });
}

// Clicking a mask cell: allowed -> blocked in the custom mask; blocked -> allowed.
function toggleCell(ctx, i, j) {
  if (i === null || j === null || !ui.last) return;
  const { inputs, result } = ui.last;
  const nq = inputs.queryTokens.length, nk = inputs.keyTokens.length;
  const grid = customGrid(ctx.state, nq, nk);
  grid[i][j] = at(result.mask, i, j) === 0 ? 1 : 0;
  ctx.set(customPatch(grid));
  // Still blocked (by padding or causal)? Say so next to the mask.
  if (ui.last && grid[i][j] === 1 && at(ui.last.result.mask, i, j) === 0) {
    setMsg(ui.sections.custom.note, 'info', ctx.s('alsoBlocked', { q: inputs.queryTokens[i], k: inputs.keyTokens[j] }));
  }
}

// ---- 1. padding ------------------------------------------------------------------------------

function buildPadding(ctx) {
  const { s } = ctx;
  const pads = h('div', { class: 'pad-toggles', role: 'group', 'aria-label': s('padKeys') });
  const note = msg();
  const el = section('padding', ctx, h('p', { class: 'explain', text: s('p.padding') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, h('span', { class: 'field-label', text: s('padKeys') }), pads), note);

  function draw(ctx, run) {
    const st = ctx.state;
    const kt = run.inputs.keyTokens;
    rebuildOn(pads, kt.join('\u0001'), () => kt.map((tok, j) => h('button', {
      type: 'button', class: 'btn toggle pad-key', 'aria-pressed': 'false', 'aria-label': s('padOf', { tok }), 'data-key': String(j), text: tok,
      onclick: () => ctx.set(paddingPatch(ctx.state, kt.length, j, ctx.state.keyPadding[j] !== true)),
    })));
    [...pads.children].forEach((b, j) => b.setAttribute('aria-pressed', String(st.keyPadding[j] === true)));
    const anyPad = kt.some((_, j) => st.keyPadding[j] === true);
    const leaks = leakedCells(run.result);
    if (leaks.length) setMsg(note, 'bad', s('leak', { n: leaks.length, max: ctx.views.fmt(maxWeightOf(run.result, leaks), 3) }));
    else if (anyPad) setMsg(note, 'good', s('noLeak'));
    else setMsg(note, 'info', s('padNone'));
    return { cells: leaks };
  }
  return { el, draw };
}

// ---- 2. causal and reversed causal --------------------------------------------------------------

function buildCausal(ctx) {
  const { s } = ctx;
  const causal = h('input', { type: 'checkbox', onchange: (e) => ctx.set({ causal: e.target.checked }) });
  const reverse = h('input', { type: 'checkbox', onchange: (e) => ctx.set({ reverseCausal: e.target.checked }) });
  const crossText = h('span');
  const toSelf = h('button', { type: 'button', class: 'btn', text: s('toSelf'), onclick: () => ctx.set({ ...presetPatch('cat-chase'), causal: true }) });
  const crossHint = h('div', { class: 'msg info mk-cross-hint' }, crossText, ' ', toSelf);
  const note = msg();
  const el = section('causal', ctx, h('p', { class: 'explain', text: s('p.causal') }), h('p', { class: 'explain', text: s('p.reverse') }),
    h('div', { class: 'radio-list', 'data-group': 'inputs' },
      h('label', { class: 'check' }, causal, h('span', { text: s('causal') })),
      h('label', { class: 'check' }, reverse, h('span', { text: s('reverse') }))),
    crossHint, note);

  function draw(ctx, run) {
    const st = ctx.state;
    causal.checked = st.causal;
    reverse.checked = st.reverseCausal;
    crossHint.hidden = PRESETS[st.preset].kind !== 'cross';
    crossText.textContent = s('crossHint');
    const future = futureCells(run.result);
    const on = st.causal || st.reverseCausal;
    const join = ctx.lang === 'zh' ? '' : ' ';
    if (!on) setMsg(note, 'info', s('noCausal'));
    else if (future.length) setMsg(note, 'bad', s('futureLeak', { n: future.length }) + (st.reverseCausal ? '' : join + s('fillLeak')));
    else setMsg(note, 'good', s('upperZero'));
    return { cells: on ? future : [] };
  }
  return { el, draw };
}

// ---- 3. custom mask ------------------------------------------------------------------------------

function buildCustom(ctx) {
  const { s } = ctx;
  const note = msg();
  const leakNote = msg();
  const clear = h('button', { type: 'button', class: 'btn', text: s('clearCustom'), onclick: () => ctx.set({ customMask: [] }) });
  const el = section('custom', ctx, h('p', { class: 'explain', text: s('p.custom') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, clear), note, leakNote);
  function draw(ctx, run) {
    clear.disabled = ctx.state.customMask.length === 0;
    setMsg(note, 'info', ''); // a click may set it again right after this draw
    const leaks = leakedCells(run.result);
    if (leaks.length) setMsg(leakNote, 'bad', s('leak', { n: leaks.length, max: ctx.views.fmt(maxWeightOf(run.result, leaks), 3) }));
    else setMsg(leakNote, 'info', '');
    return { cells: leaks };
  }
  return { el, draw, note };
}

// ---- 4. a fully blocked row ------------------------------------------------------------------------

function buildBlocked(ctx) {
  const { s } = ctx;
  const rowSel = h('select', { id: 'mk-block-row', onchange: (e) => ctx.set({ blockRow: Number(e.target.value) }) });
  const block = h('button', { type: 'button', class: 'btn primary', text: s('blockIt'), onclick: () => setRow(ctx, 0) });
  const unblock = h('button', { type: 'button', class: 'btn', text: s('unblockIt'), onclick: () => setRow(ctx, 1) });
  const note = msg();
  const table = h('div', { class: 'compare-scroll' });
  const el = section('blocked', ctx, h('p', { class: 'explain', text: s('p.blocked') }),
    h('div', { class: 'controls', 'data-group': 'inputs' },
      h('div', { class: 'field' }, h('label', { for: 'mk-block-row', text: s('blockRow') }), rowSel), block, unblock),
    note, table);

  function setRow(ctx, value) {
    const { inputs } = ui.last;
    const nq = inputs.queryTokens.length, nk = inputs.keyTokens.length;
    const i = Math.min(ctx.state.blockRow, nq - 1);
    const grid = customGrid(ctx.state, nq, nk);
    grid[i] = Array(nk).fill(value);
    ctx.set(customPatch(grid));
  }

  function draw(ctx, run) {
    const st = ctx.state;
    const qt = run.inputs.queryTokens;
    rebuildOn(rowSel, qt.join('\u0001'), () => qt.map((q, i) => h('option', { value: String(i), text: q })));
    const chosen = Math.min(st.blockRow, qt.length - 1);
    rowSel.value = String(chosen);
    const full = run.result.fullyMaskedRows;
    if (!full.length) {
      setMsg(note, 'info', s('notBlocked'));
      table.replaceChildren();
      return { cells: [] };
    }
    setMsg(note, 'info', '');
    const i = full.includes(chosen) ? chosen : full[0];
    // The same example three times, changing only the fill and the softmax.
    const cases = [
      { id: 'neg-inf', maskFill: 'neg-inf', stable: true },
      { id: 'large-negative', maskFill: 'large-negative', stable: true },
      { id: 'naive', maskFill: 'neg-inf', stable: false },
    ];
    const head = ['colCase', 'colWeights', 'colOutput', 'colRows', 'colVerdict'].map((k) => s(k, { q: qt[i] }));
    const rows = cases.map((c) => {
      const r = ctx.engine.attend({ ...run.args, maskFill: c.maskFill, stable: c.stable });
      const w = rowOf(r.weights, i), o = rowOf(r.output, i);
      // data-label: the column name, shown before each cell when the table is stacked on a phone.
      return h('tr', { 'data-case': c.id },
        h('th', { scope: 'row', text: s(`case.${c.id}`) }),
        h('td', { 'data-label': head[1] }, vectorRow('', w, 3)),
        h('td', { 'data-label': head[2] }, vectorRow('', o, 3)),
        h('td', { 'data-label': head[3], text: r.fullyMaskedRows.length ? r.fullyMaskedRows.map((k) => `${k} (${qt[k]})`).join(', ') : s('rowsNone') }),
        h('td', { 'data-label': head[4], text: s(`verdict.${classify(w)}`) }));
    });
    table.replaceChildren(h('table', { class: 'compare' },
      h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, ...rows)));
    return { cells: [] };
  }
  return { el, draw };
}

// What a weight row of a fully blocked query looks like: 'nan', 'zero', 'uniform' or 'other'.
function classify(w) {
  if (w.some(Number.isNaN)) return w.every(Number.isNaN) ? 'nan' : 'nanOther';
  if (w.every((x) => x === 0)) return 'zero';
  if (w.every((x) => Math.abs(x - w[0]) <= 1e-6)) return 'uniform';
  return 'other';
}

// ---- 5. the two-token check -------------------------------------------------------------------------

function buildTwoToken(ctx) {
  const { s } = ctx;
  const radios = [0, 1].map((k) => h('input', { type: 'radio', name: 'mk-two', value: String(k), onchange: () => ctx.set({ twoMasked: k }) }));
  const labels = radios.map((r) => h('span'));
  const pick = h('div', { class: 'radio-list row', role: 'radiogroup', 'aria-label': s('twoMask') },
    ...radios.map((r, k) => h('label', { class: 'check' }, r, labels[k])));
  const vectors = h('div', { class: 'mk-two-vectors' });
  const verdict = msg();
  const el = section('two-token', ctx, h('p', { class: 'explain', text: s('p.two-token') }),
    h('fieldset', { class: 'plain', 'data-group': 'inputs' }, h('legend', { text: s('twoMask') }), pick),
    vectors, verdict, h('p', { class: 'hint', text: s('twoCheckNote') }));

  function draw(ctx, run) {
    const { views, engine } = ctx;
    const st = ctx.state;
    const { inputs } = run;
    const kt = inputs.keyTokens, qt = inputs.queryTokens;
    if (kt.length < 2) {
      vectors.replaceChildren();
      setMsg(verdict, 'info', s('twoTooFew'));
      return { cells: [] };
    }
    labels.forEach((l, k) => { l.textContent = kt[k]; });
    radios.forEach((r, k) => { r.checked = k === st.twoMasked; });
    const m = st.twoMasked, other = 1 - m;
    // One query, two keys, two values, one of them masked as padding.
    const take = (mat, n) => ({ rows: n, cols: mat.cols, data: mat.data.slice(0, n * mat.cols) });
    const r = engine.attend({
      query: take(inputs.query, 1), key: take(inputs.key, 2), value: take(inputs.value, 2), score: inputs.score,
      keyPadding: [m === 0, m === 1], maskFill: st.fill, stable: st.stable, temperature: st.temperature,
    });
    const out = rowOf(r.output, 0);
    const val = toGrid(inputs.value)[other];
    let d = 0;
    for (let k = 0; k < out.length; k++) d = Math.max(d, Math.abs(out[k] - val[k]));
    vectors.replaceChildren(
      vectorRow(`${s('twoWeights')} (${qt[0]} → ${kt[0]}, ${kt[1]})`, rowOf(r.weights, 0), 4),
      vectorRow(s('twoOutput'), out, 4),
      vectorRow(s('twoValue', { tok: kt[other] }), val, 4),
      vectorRow(s('twoDiff'), [d], 6));
    if (out.some(Number.isNaN)) setMsg(verdict, 'bad', s('twoNan'));
    else if (d <= 1e-6) setMsg(verdict, 'good', s('twoPass', { tok: kt[other] }));
    else setMsg(verdict, 'bad', s('twoFail', { tok: kt[other], d: views.fmt(d, 4) }));
    verdict.dataset.result = out.some(Number.isNaN) || d > 1e-6 ? 'fail' : 'pass';
    return { cells: [] };
  }
  return { el, draw };
}
