// Chapter 2: the pipeline, step by step.
// score QKᵀ -> scale by 1/√d_k -> mask -> softmax -> weights × V, on the current example.
// Every number shown comes from engine.attend (through example.js); this file only lays out,
// labels and links what the engine returned.

import { max } from 'd3-array';
import { PRESETS, PRESET_IDS, MAX_TOKENS, MAX_DK, presetPatch, paddingPatch, resizeGrid, runExample, rowOf } from '../example.js';
import { h, field, showError, syncInput, setText, rebuildOn } from '../views/dom.js';
import { createStepper } from '../views/stepper.js';

const STEPS = [
  { id: 'scores', title: { en: 'Scores', zh: '分数' } },
  { id: 'scaled', title: { en: 'Scale', zh: '缩放' } },
  { id: 'masked', title: { en: 'Mask', zh: '掩码' } },
  { id: 'weights', title: { en: 'Softmax', zh: 'Softmax' } },
  { id: 'output', title: { en: 'Weighted sum', zh: '加权求和' } },
];

const GRID_CELL_LIMIT = 256; // typed grids larger than this are not offered for typing
const VEC_MAX = 6; // entries of a vector written out in a formula (the table has them all)

const strings = {
  en: {
    intro: 'Attention is a soft lookup. Each query compares itself with every key, the comparisons become weights, and the weights blend the values. Walk through the five steps below; every number is computed live by the engine, and you can click any cell to see how it was made.',
    inputs: 'The example',
    preset: 'Example',
    'preset.cat-fish': 'Translation: The cat eats fish → 猫 吃 鱼',
    'preset.cat-chase': 'Self-attention: 猫 追 老鼠',
    'preset.random': 'Random vectors (seeded)',
    'preset.hand-check': 'Check a softmax by hand',
    'about.cat-fish': 'While writing the Chinese sentence, each word being generated (a query: 猫, 吃, 鱼) looks up the English words (the keys). The vectors are hand-made with four features — animal, action, food, function word — so you can read why 猫 finds “cat”, 吃 finds “eats” and 鱼 finds “fish”.',
    'about.cat-chase': 'Self-attention: every word of 猫 追 老鼠 is both a query and a key. The query of 追 asks “who chases?”, and the key of 猫 answers “I do it”. Features: does it, action, has it done, animal.',
    'about.random': 'Q, K and V drawn from the engine’s random generator (normal, mean 0, variance 1). The seed is part of the link, so anyone who opens it sees exactly these numbers.',
    'about.hand-check': 'An article on attention gives the scores [2.6, 1.2, 6.1, 2] for generating 猫 and prints the weights [0.2, 0.06, 0.1, 0.1]. Those cannot come from softmax: they add up to 0.46, not 1. Work the softmax out yourself; at step 4 a button takes your answer to the Softmax chapter’s check. (Here the scores are typed directly, so there is nothing to scale.)',
    queryTokens: 'Query tokens',
    keyTokens: 'Key / value tokens',
    tokensHint: 'separated by spaces',
    inputMode: 'Vectors',
    'mode.random': 'random (seeded)',
    'mode.typed': 'typed',
    seed: 'Seed',
    dk: 'd_k',
    editVectors: 'Edit the vectors Q, K, V',
    editScores: 'Edit the scores',
    gridTooLarge: 'This grid is too large to type into ({n} numbers). Use fewer tokens or a smaller d_k.',
    masks: 'Masks',
    masksHint: 'The Masks chapter goes deeper.',
    padding: 'padding',
    paddingOf: '{token} is padding',
    causal: 'Causal (a query sees only keys up to its own position)',
    errTokensEmpty: 'Type at least one token.',
    errTokensMany: 'At most {max} tokens here (you typed {n}).',
    errInt: 'A whole number from {min} to {max}, please.',
    errNumber: 'Please type a number.',
    errEngine: 'The engine refused these inputs: {msg}',
    keysHint: 'Tip: with the focus on a step, the ← and → keys move between steps.',
    'explain.scores': 'Each query asks a question; each key says what its token offers. Their dot product q·k measures how well the two match: large and positive when they point the same way, near zero when they are unrelated, negative when they disagree. One number per (query, key) pair gives the score matrix S = QKᵀ, with one row per query and one column per key.',
    'explain.scaled': 'A dot product adds up d_k products, so the more dimensions, the wider the scores spread: for random vectors their variance is about d_k. Dividing by √d_k brings the spread back to about 1, so the softmax in step 4 is not pushed into handing everything to one key.',
    'explain.scaled.typed': 'The scores were typed directly, so there is no d_k to divide by: the scaled scores are the typed ones.',
    'explain.masked': 'Some keys must not be looked at: padding added to make sequences the same length or, when generating text, words that come later. Their scores are replaced by −∞, so softmax gives them exactly zero weight. With no mask switched on, this step changes nothing.',
    'explain.weights': 'Softmax turns each row of scores into weights that are positive and add up to 1: a budget of attention that the query shares out among the keys. The engine subtracts the row’s largest score before taking exponentials; the weights come out the same, but exp can never overflow.',
    'explain.output': 'Each output row is a weighted average of the value vectors: the weights decide how much of each token’s content flows into the result. Select an output row to see its weights and the values it mixes.',
    matScores: 'Scores S = QKᵀ',
    matScaled: 'Scaled scores S / √d_k',
    matScaledTyped: 'Scores (typed, not scaled)',
    matMasked: 'Masked scores',
    matWeights: 'Attention weights',
    matValues: 'Values V',
    matOutput: 'Output = weights × V',
    rowsCols: 'rows: queries · columns: keys',
    selectHint: 'Click a cell, or move with the arrow keys and press Enter, to see its formula.',
    weightsOf: 'Weights of the query “{token}”',
    blocked: '“{k}” is masked for the query “{q}”, so its score is replaced by the fill value and it will get zero weight.',
    fullyMasked: 'Every key is masked for query “{token}”: the engine returns zero weights and a zero output for it.',
    landsOn: '“{q}” gives most attention to “{k}” ({w}).',
    mixes: 'Output row “{q}” mixes the values of: {list}.',
    andMore: 'and {n} more',
    guessTitle: 'Your softmax, by hand',
    guessHint: 'Worked out the weights for the scores [{scores}]? The Softmax chapter checks them against the engine’s and adds them up. (The article printed {printed}.)',
    guessGo: 'Check my weights in the Softmax chapter',
    entropy: 'entropy',
  },
  zh: {
    intro: '注意力是一种“软查找”：每个 Query 和所有 Key 逐一比较，比较结果变成权重，再用权重把 Value 调和在一起。跟着下面五步走一遍；每个数字都由引擎现场计算，点任何一个格子，都能看到它是怎么算出来的。',
    inputs: '示例',
    preset: '例子',
    'preset.cat-fish': '翻译：The cat eats fish → 猫 吃 鱼',
    'preset.cat-chase': '自注意力：猫 追 老鼠',
    'preset.random': '随机向量（固定种子）',
    'preset.hand-check': '手算一次 softmax',
    'about.cat-fish': '在写出中文句子时，每个正要生成的词（Query：猫、吃、鱼）都去查英文里的词（Key）。这些向量是手工设计的，有四个特征——动物、动作、食物、虚词——所以你能看懂为什么“猫”找到 cat，“吃”找到 eats，“鱼”找到 fish。',
    'about.cat-chase': '自注意力：“猫 追 老鼠”里每个词既是 Query 也是 Key。“追”的 Query 在问“谁在追？”，而“猫”的 Key 回答“动作是我发出的”。四个特征：施事、动作、受事、动物。',
    'about.random': 'Q、K、V 都取自引擎的随机数生成器（均值 0、方差 1 的正态分布）。种子写在链接里，谁打开这个链接，看到的都是一模一样的数字。',
    'about.hand-check': '有篇讲注意力的文章给出生成“猫”时的分数 [2.6, 1.2, 6.1, 2]，又写出权重 [0.2, 0.06, 0.1, 0.1]。这组权重不可能来自 softmax：它们加起来是 0.46，而不是 1。请自己算一遍 softmax；第 4 步有个按钮，带你到“Softmax”一章去核对答案。（这里的分数是直接输入的，所以没有缩放这一步。）',
    queryTokens: 'Query 词',
    keyTokens: 'Key / Value 词',
    tokensHint: '用空格分隔',
    inputMode: '向量来源',
    'mode.random': '随机（固定种子）',
    'mode.typed': '手动输入',
    seed: '随机种子',
    dk: 'd_k',
    editVectors: '编辑向量 Q、K、V',
    editScores: '编辑分数',
    gridTooLarge: '这个表格太大，不便手动输入（共 {n} 个数）。请减少词数或调小 d_k。',
    masks: '掩码',
    masksHint: '“掩码”一章会讲得更深入。',
    padding: '填充位',
    paddingOf: '{token} 是填充位',
    causal: '因果掩码（每个 Query 只能看到自己及之前位置的 Key）',
    errTokensEmpty: '请至少输入一个词。',
    errTokensMany: '这里最多 {max} 个词（你输入了 {n} 个）。',
    errInt: '请输入 {min} 到 {max} 之间的整数。',
    errNumber: '请输入一个数字。',
    errEngine: '引擎拒绝了这些输入：{msg}',
    keysHint: '提示：焦点在步骤按钮上时，可以用 ← 和 → 键切换步骤。',
    'explain.scores': '每个 Query 提出一个问题，每个 Key 说明自己的词能提供什么。两者的点积 q·k 衡量它们有多契合：方向一致时又大又正，互不相干时接近 0，意思相左时为负。每一对（Query, Key）得到一个分数，合起来就是分数矩阵 S = QKᵀ：每个 Query 一行，每个 Key 一列。',
    'explain.scaled': '点积是 d_k 个乘积相加，维度越多，分数就散得越开：随机向量的点积方差约等于 d_k。除以 √d_k，把分散程度拉回到 1 左右，免得第 4 步的 softmax 被推向“赢家通吃”，把注意力全给一个 Key。',
    'explain.scaled.typed': '这里的分数是直接输入的，没有 d_k 可除：缩放后的分数就是输入的分数。',
    'explain.masked': '有些 Key 不该被看到：为了对齐长度而补上的填充位，或者生成文本时还没轮到的后面的词。它们的分数被换成 −∞，softmax 之后权重恰好为 0。没有打开任何掩码时，这一步什么也不改变。',
    'explain.weights': 'softmax 把每一行分数变成全为正、加起来等于 1 的权重：就像一份注意力预算，由这个 Query 分给各个 Key。引擎在取指数之前先减去这一行的最大分数；权重不变，但 exp 再也不会溢出。',
    'explain.output': '每一行输出都是 Value 向量的加权平均：权重决定了每个词的内容有多少流进结果。选中一行输出，就能看到它的权重，以及它混合了哪些 Value。',
    matScores: '分数 S = QKᵀ',
    matScaled: '缩放后的分数 S / √d_k',
    matScaledTyped: '分数（直接输入，未缩放）',
    matMasked: '掩码处理后的分数',
    matWeights: '注意力权重',
    matValues: 'Value 矩阵 V',
    matOutput: '输出 = 权重 × V',
    rowsCols: '行：Query · 列：Key',
    selectHint: '点击一个格子，或用方向键移动、按回车选中，就能看到它的公式。',
    weightsOf: '“{token}”的注意力权重',
    blocked: '对 Query“{q}”来说，“{k}”被屏蔽了：它的分数被换成替换值，之后得到的权重为 0。',
    fullyMasked: 'Query“{token}”的所有 Key 都被屏蔽了：引擎给它的权重全为 0，输出也全为 0。',
    landsOn: '“{q}”把最多的注意力给了“{k}”（{w}）。',
    mixes: '输出行“{q}”混合了这些 Value：{list}。',
    andMore: '以及另外 {n} 个',
    guessTitle: '你手算的 softmax',
    guessHint: '算好分数 [{scores}] 的权重了吗？“Softmax”一章会拿它们和引擎的结果逐个比对，并把它们加起来。（文章里印的是 {printed}。）',
    guessGo: '到“Softmax”一章核对我的权重',
    entropy: '熵',
  },
};

// ---- helpers --------------------------------------------------------------------------------

function splitTokens(text) {
  return text.trim().split(/\s+/).filter(Boolean);
}

// ---- the chapter ---------------------------------------------------------------------------

let ui = null; // DOM handles of the chapter on screen

export default {
  id: 'pipeline',
  title: { en: 'The pipeline, step by step', zh: '一步一步看注意力' },
  strings,
  steps: STEPS,
  state: {
    selRow: { type: 'int', default: 0, min: 0, max: MAX_TOKENS - 1 },   // selected query row
    selCol: { type: 'int', default: 0, min: -1, max: MAX_DK - 1 },      // selected column, -1 = whole row
  },

  enter(root, ctx) {
    const { s, lang } = ctx;
    ui = { ctx, last: null };
    root.append(
      h('h2', { text: this.title[lang] }),
      h('p', { class: 'lead', text: s('intro') }),
    );
    buildInputs(root, ctx);
    ui.stepper = createStepper(ctx, STEPS);
    root.append(ui.stepper.el, h('p', { class: 'hint keys-hint', text: s('keysHint') }));
    ui.stage = h('section', { class: 'stage', 'aria-live': 'off' });
    root.append(ui.stage);
    buildStage(ctx);
  },

  update(ctx) {
    let run;
    try {
      run = runExample(ctx.engine, ctx.state);
    } catch (e) {
      // Keep the last valid picture on screen; say what the engine refused.
      ui.engineError.textContent = ctx.s('errEngine', { msg: e.message });
      return;
    }
    ui.engineError.textContent = '';
    ui.last = run;
    syncInputs(ctx, run);
    ui.stepper.sync(ctx.state.stage);
    drawStage(ctx, run);
  },

  leave() {
    for (const { hm } of Object.values(ui.heatmaps)) hm.destroy();
    ui = null;
  },
};

// ---- inputs -------------------------------------------------------------------------------

function buildInputs(root, ctx) {
  const { s } = ctx;
  const panel = h('section', { class: 'panel inputs', 'data-group': 'inputs', 'aria-labelledby': 'pl-inputs-h' });
  panel.append(h('h3', { id: 'pl-inputs-h', class: 'panel-title', text: s('inputs') }));

  const presetSel = h('select', { onchange: (e) => ctx.set({ ...presetPatch(e.target.value), selRow: 0, selCol: 0 }) },
    ...PRESET_IDS.map((id) => h('option', { value: id, text: s(`preset.${id}`) })));
  const preset = field(s('preset'), presetSel);
  ui.about = h('p', { class: 'about' });

  const qTok = field(s('queryTokens'), h('input', { type: 'text', class: 'wide', autocomplete: 'off', spellcheck: false }), s('tokensHint'));
  const kTok = field(s('keyTokens'), h('input', { type: 'text', class: 'wide', autocomplete: 'off', spellcheck: false }), s('tokensHint'));
  const onTokens = (f, name) => () => {
    const list = splitTokens(f.input.value);
    if (list.length === 0) return showError(f, s('errTokensEmpty'));
    if (list.length > MAX_TOKENS) return showError(f, s('errTokensMany', { max: MAX_TOKENS, n: list.length }));
    showError(f, '');
    ctx.set({ [name]: list, selRow: 0, selCol: 0 });
  };
  qTok.input.addEventListener('change', onTokens(qTok, 'queryTokens'));
  kTok.input.addEventListener('change', onTokens(kTok, 'keyTokens'));

  // Switching to typed starts from the numbers on screen (example.js rounds seeded draws).
  const modeSel = h('select', { onchange: (e) => ctx.set({ inputMode: e.target.value }) },
    h('option', { value: 'random', text: s('mode.random') }), h('option', { value: 'typed', text: s('mode.typed') }));
  const mode = field(s('inputMode'), modeSel);

  const intField = (label, name, min, max) => {
    const f = field(label, h('input', { type: 'number', min: String(min), max: String(max), step: '1', inputmode: 'numeric' }));
    f.input.addEventListener('change', () => {
      const x = Number(f.input.value.trim());
      if (f.input.value.trim() === '' || !Number.isInteger(x) || x < min || x > max) {
        return showError(f, s('errInt', { min, max }));
      }
      showError(f, '');
      ctx.set({ [name]: x });
    });
    return f;
  };
  const seed = intField(s('seed'), 'seed', 0, 2 ** 32 - 1);
  const dk = intField(s('dk'), 'dk', 1, MAX_DK);

  ui.gridBox = h('details', { class: 'grids' });
  ui.gridSummary = h('summary');
  ui.gridBody = h('div', { class: 'grid-body' });
  ui.gridError = h('div', { class: 'field-error', role: 'alert' });
  ui.gridBox.append(ui.gridSummary, ui.gridError, ui.gridBody);

  ui.masks = h('fieldset', { class: 'masks' });
  ui.masks.append(h('legend', { text: s('masks') }));
  ui.padBox = h('div', { class: 'pad-box' });
  const causal = h('input', { type: 'checkbox', onchange: (e) => ctx.set({ causal: e.target.checked }) });
  ui.masks.append(ui.padBox, h('label', { class: 'check' }, causal, h('span', { text: s('causal') })),
    h('p', { class: 'hint', text: s('masksHint') }));

  ui.engineError = h('div', { class: 'field-error engine-error', role: 'alert' });

  panel.append(
    h('div', { class: 'controls' }, preset.wrap, mode.wrap, seed.wrap, dk.wrap),
    ui.about,
    h('div', { class: 'controls' }, qTok.wrap, kTok.wrap),
    ui.gridBox,
    ui.masks,
    ui.engineError,
  );
  root.append(panel);
  Object.assign(ui, { presetSel, modeSel, mode, seed, dk, qTok, kTok, causal });
}

// Puts the state's values into the input controls (without touching a field being edited
// with an error in it).
function syncInputs(ctx, run) {
  const st = ctx.state;
  const p = PRESETS[st.preset];
  const { s } = ctx;
  ui.presetSel.value = st.preset;
  setText(ui.about, s(`about.${st.preset}`));
  const typedScores = !!p.scores;
  ui.mode.wrap.hidden = typedScores;
  ui.modeSel.value = st.inputMode;
  ui.seed.wrap.hidden = typedScores || st.inputMode !== 'random';
  ui.dk.wrap.hidden = typedScores;
  syncInput(ui.seed, String(st.seed));
  syncInput(ui.dk, String(st.dk));
  const { queryTokens, keyTokens } = run.inputs;
  syncInput(ui.qTok, queryTokens.join(' '));
  syncInput(ui.kTok, keyTokens.join(' '));
  ui.causal.checked = st.causal;

  // Padding flags, one per key.
  rebuildOn(ui.padBox, keyTokens.join('\u0001'), () => [
    h('span', { class: 'field-label', text: s('padding') + ':' }),
    ...keyTokens.map((tok, j) => {
      const box = h('input', { type: 'checkbox', 'aria-label': s('paddingOf', { token: tok }),
        onchange: () => ctx.set(paddingPatch(ctx.state, keyTokens.length, j, box.checked)) });
      return h('label', { class: 'check pad' }, box, h('span', { text: tok }));
    }),
  ]);
  [...ui.padBox.querySelectorAll('input')].forEach((b, j) => { b.checked = st.keyPadding[j] === true; });

  // Typed grids.
  const typed = typedScores || st.inputMode === 'typed';
  if (ui.gridBox.hidden !== !typed) ui.gridBox.hidden = !typed;
  if (typed) syncGrids(ctx, run);
}

// Grids of number inputs for Q, K, V (or the typed scores).
function syncGrids(ctx, run) {
  const { s } = ctx;
  const st = ctx.state;
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
  const features = p.features ? p.features[ctx.lang] : null;
  const key = JSON.stringify([st.preset, specs.map((x) => [x.rows, x.grid]), st.dk, ctx.lang]);
  if (ui.gridBody.dataset.key === key) return;
  ui.gridBody.dataset.key = key;
  ui.gridError.textContent = '';
  const blocks = specs.map((g) => {
    const nCols = g.cols ? g.cols.length : st.dk;
    const grid = resizeGrid(g.grid, g.rows.length, nCols);
    if (g.rows.length * nCols > GRID_CELL_LIMIT) {
      return h('p', { class: 'hint', text: `${g.name}: ` + s('gridTooLarge', { n: g.rows.length * nCols }) });
    }
    const table = h('table', { class: 'grid-input' });
    table.append(h('caption', { text: g.name }));
    const head = h('tr', {}, h('th', { scope: 'col', text: '' }),
      ...Array.from({ length: nCols }, (_, j) => h('th', { scope: 'col', text: g.cols ? g.cols[j] : (features && nCols === features.length ? features[j] : `d${j + 1}`) })));
    table.append(h('thead', {}, head));
    const body = h('tbody');
    grid.forEach((row, i) => {
      body.append(h('tr', {}, h('th', { scope: 'row', text: g.rows[i] }), ...row.map((x, j) => {
        const inp = h('input', { type: 'text', inputmode: 'decimal', value: String(x), 'aria-label': `${g.name} ${g.rows[i]}, ${j + 1}` });
        inp.addEventListener('change', () => {
          const v = ctx.views.parseNumber(inp.value);
          if (Number.isNaN(v)) {
            inp.setAttribute('aria-invalid', 'true');
            ui.gridError.textContent = `${g.name} ${g.rows[i]}, ${j + 1}: ${s('errNumber')}`;
            return;
          }
          inp.setAttribute('aria-invalid', 'false');
          ui.gridError.textContent = '';
          const next = resizeGrid(g.grid, g.rows.length, nCols);
          next[i][j] = v;
          ctx.set({ [g.name]: next });
        });
        return h('td', {}, inp);
      })));
    });
    table.append(body);
    return h('div', { class: 'grid-scroll' }, table);
  });
  ui.gridBody.replaceChildren(...blocks);
}

// ---- the stage ----------------------------------------------------------------------------------

// Builds the stage area: title, explanation, heatmaps (built lazily per stage), formula.
function buildStage(ctx) {
  const { s } = ctx;
  ui.stageTitle = h('h3', { class: 'stage-title', tabindex: '-1' });
  ui.explain = h('p', { class: 'explain' });
  ui.general = h('div', { class: 'formula general' });
  ui.maps = h('div', { class: 'maps' });
  ui.live = h('div', { class: 'formula live', 'aria-live': 'polite' });
  ui.note = h('p', { class: 'note' });
  ui.barsBox = h('div', { class: 'bars-box' });
  ui.guessBox = h('div', { class: 'guess-box' });
  ui.stage.append(ui.stageTitle, ui.explain, ui.general, h('p', { class: 'hint', text: s('selectHint') }), ui.maps, ui.live, ui.note, ui.barsBox, ui.guessBox);
  ui.heatmaps = {};
  ui.bars = null;
}

// One heatmap per (name), created on first use and kept (so focus and table toggles persist).
function heatmap(ctx, name, kind, onSelect) {
  if (!ui.heatmaps[name]) {
    const wrap = h('div', { class: `map map-${name}` });
    const title = h('h4', { class: 'map-title' });
    wrap.append(title);
    const hm = ctx.views.createHeatmap(wrap, {
      kind, onSelect, widthFrom: ui.maps,
      strings: { showTable: ctx.t('showTable'), showHeatmap: ctx.t('showHeatmap'), keys: ctx.t('heatmapKeys') },
    });
    ui.heatmaps[name] = { wrap, title, hm };
  }
  return ui.heatmaps[name];
}

// Which heatmaps each stage shows, in order.
const LAYOUT = {
  scores: ['scores'],
  scaled: ['scaled'],
  masked: ['masked'],
  weights: ['masked', 'weights'],
  output: ['weights', 'values', 'output'],
};

function drawStage(ctx, run) {
  const { s, views, state } = ctx;
  const { inputs, result } = run;
  const stage = state.stage;
  const k = STEPS.findIndex((st) => st.id === stage);
  const { queryTokens: qt, keyTokens: kt } = inputs;
  const nq = qt.length, nk = kt.length;
  const row = Math.min(state.selRow, nq - 1);
  const colMax = stage === 'output' ? result.output.cols - 1 : nk - 1;
  const col = state.selCol < 0 ? -1 : Math.min(state.selCol, colMax);

  setText(ui.stageTitle, `${k + 1}. ${STEPS[k].title[ctx.lang]}`);
  setText(ui.explain, stage === 'scaled' && inputs.scoresTyped ? s('explain.scaled.typed') : s(`explain.${stage}`));
  views.renderFormula(ui.general, generalTex(stage, inputs, state));

  const select = (name) => ({ row: r, col: c }) => {
    // Output rows and label clicks select a whole row; otherwise a cell.
    ctx.set({ selRow: r, selCol: name === 'output' || c === null ? -1 : c });
  };
  const features = PRESETS[state.preset].features?.[ctx.lang];
  const dims = Array.from({ length: result.output.cols }, (_, j) => (inputs.scoresTyped ? kt[j]
    : features && features.length === result.output.cols ? features[j] : `d${j + 1}`));
  const mats = {
    scores: { m: result.scores, rows: qt, cols: kt, kind: 'diverging', title: s('matScores') },
    scaled: { m: result.scaled, rows: qt, cols: kt, kind: 'diverging', title: inputs.scoresTyped ? s('matScaledTyped') : s('matScaled') },
    masked: { m: result.masked, rows: qt, cols: kt, kind: 'diverging', title: s('matMasked') },
    weights: { m: result.weights, rows: qt, cols: kt, kind: 'sequential', title: s('matWeights'), domain: [0, 1] },
    values: { m: inputs.value, rows: kt, cols: dims, kind: 'diverging', title: s('matValues') },
    output: { m: result.output, rows: qt, cols: dims, kind: 'diverging', title: s('matOutput') },
  };
  const shown = LAYOUT[stage];
  const keep = new Set(shown);
  for (const [name, hm] of Object.entries(ui.heatmaps)) if (!keep.has(name)) hm.wrap.remove();
  for (const name of shown) {
    const spec = mats[name];
    const hm = heatmap(ctx, name, spec.kind, select(name));
    // In layout order, and in the DOM before it draws (moved only when out of place: a move
    // re-attaches the whole subtree, which the browser then styles and lays out again).
    const at = shown.indexOf(name);
    if (ui.maps.children[at] !== hm.wrap) ui.maps.insertBefore(hm.wrap, ui.maps.children[at] || null);
    setText(hm.title, spec.title);
    const isQueryRows = spec.rows === qt;
    hm.hm.update({
      matrix: spec.m, rowLabels: spec.rows, colLabels: spec.cols, domain: spec.domain,
      caption: `${spec.title} (${s('rowsCols')})`,
      blocked: isQueryRows && spec.cols === kt ? result.mask : null,
      selected: name === stageMain(stage) && isQueryRows ? { row, col: name === 'output' ? null : col < 0 ? null : col } : null,
    });
  }

  linkHighlights(stage, result, row, col);
  const lines = [].concat(liveTex(ctx, stage, inputs, result, row, col));
  while (ui.live.children.length < lines.length) ui.live.append(h('div', { class: 'formula-line' }));
  while (ui.live.children.length > lines.length) ui.live.lastChild.remove();
  // Inline mode, so a long line breaks after = and + instead of running off a narrow screen.
  lines.forEach((t, k) => views.renderFormula(ui.live.children[k], t, { display: false }));
  setText(ui.note, noteText(ctx, stage, inputs, result, row, col));
  drawBars(ctx, stage, inputs, result, row);
  drawHandCheck(ctx, stage, inputs);
}

// The heatmap whose selection drives the formula.
function stageMain(stage) {
  return { scores: 'scores', scaled: 'scaled', masked: 'masked', weights: 'weights', output: 'output' }[stage];
}

// Linked highlighting: a weight lights up the score it came from; an output row lights up its
// weight row and the value rows it mixes (the keys with a weight above zero).
function linkHighlights(stage, result, row, col) {
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

// TeX of a token (KaTeX \text, with TeX specials escaped).
function tok(t) {
  return '\\text{' + String(t).replace(/[\\{}$&#^_%~]/g, (c) => '\\' + (c === '\\' ? 'textbackslash ' : c)) + '}';
}

function generalTex(stage, inputs, state) {
  const T = state.temperature !== 1 ? 'T' : '';
  switch (stage) {
    case 'scores': return 'S = QK^{\\top},\\qquad s_{ij} = q_i \\cdot k_j = \\sum_{d=1}^{d_k} q_{i,d}\\,k_{j,d}';
    case 'scaled': return inputs.scoresTyped
      ? '\\tilde S = S' + (T ? ' / T' : '')
      : `\\tilde S = \\frac{QK^{\\top}}{\\sqrt{d_k}${T ? '\\,T' : ''}},\\qquad d_k = ${inputs.dk}` + (T ? `,\\ T = ${state.temperature}` : '');
    case 'masked': return 'm_{ij} = \\begin{cases} \\tilde s_{ij} & \\text{if query } i \\text{ may see key } j \\\\ ' +
      fillTex(state.fill) + ' & \\text{otherwise} \\end{cases}';
    case 'weights': return 'w_{ij} = \\frac{e^{\\,m_{ij} - \\max_k m_{ik}}}{\\sum_{k} e^{\\,m_{ik} - \\max_k m_{ik}}}';
    case 'output': return 'o_i = \\sum_{j} w_{ij}\\, v_j,\\qquad O = WV';
    default: return '';
  }
}

function fillTex(fill) {
  return { 'neg-inf': '-\\infty', 'large-negative': '-10^{9}', zero: '0' }[fill];
}

// The formula for the selected cell or row, filled with the engine's numbers.
function liveTex(ctx, stage, inputs, result, i, j) {
  const { tex } = ctx.views;
  // A vector that may break after a comma on a narrow screen.
  const vec = (v, digits) => ctx.views.texVector(v, digits, VEC_MAX).replaceAll(',\\ ', ',\\allowbreak\\ ');
  const qt = inputs.queryTokens, kt = inputs.keyTokens;
  const at = (m, r, c) => m.data[r * m.cols + c];
  const jj = j < 0 ? 0 : j;
  const sub = (a, b) => `_{${tok(a)},\\,${tok(b)}}`;
  switch (stage) {
    case 'scores': {
      if (inputs.scoresTyped) return `s${sub(qt[i], kt[jj])} = ${tex(at(result.scores, i, jj))}\\quad(\\text{typed})`;
      const q = rowOf(inputs.query, i), k = rowOf(inputs.key, jj);
      const terms = q.slice(0, 6).map((x, d) => `{${d ? paren(tex(x)) : tex(x)}\\times${paren(tex(k[d]))}}`);
      if (q.length > 6) terms.push('\\cdots');
      return `s${sub(qt[i], kt[jj])} = q_{${tok(qt[i])}}\\cdot k_{${tok(kt[jj])}} = ${terms.join(' + ')} = ${tex(at(result.scores, i, jj))}`;
    }
    case 'scaled': {
      const sc = at(result.scores, i, jj), scl = at(result.scaled, i, jj);
      const T = ctx.state.temperature !== 1 ? `\\,\\times ${ctx.state.temperature}` : '';
      if (inputs.scoresTyped) return `\\tilde s${sub(qt[i], kt[jj])} = ${tex(scl)}`;
      return `\\tilde s${sub(qt[i], kt[jj])} = \\dfrac{q_i\\cdot k_j}{\\sqrt{d_k}${T}} = \\dfrac{${tex(sc)}}{\\sqrt{${inputs.dk}}${T}} = ${tex(scl)}`;
    }
    case 'masked': {
      const allowed = at(result.mask, i, jj) !== 0;
      const v = at(result.masked, i, jj);
      return allowed
        ? `m${sub(qt[i], kt[jj])} = \\tilde s${sub(qt[i], kt[jj])} = ${tex(v)}`
        : `m${sub(qt[i], kt[jj])} = ${tex(v)}`;
    }
    case 'weights': {
      const m = rowOf(result.masked, i);
      const finite = m.filter((x) => !Number.isNaN(x));
      const top = max(finite);
      const w = at(result.weights, i, jj);
      const row = `w_{${tok(qt[i])}} = \\operatorname{softmax}(${vec(m, 2)}) = ${vec(rowOf(result.weights, i), 3)}`;
      const cell = `w${sub(qt[i], kt[jj])} = \\dfrac{e^{\\,${paren(tex(m[jj]))} - ${paren(tex(top))}}}{\\sum_k e^{\\,m_{ik} - ${paren(tex(top))}}} = ${tex(w, 3)}`;
      return j < 0 ? [row] : [cell, row];
    }
    case 'output': {
      const w = rowOf(result.weights, i);
      const terms = w.map((x, k) => ({ x, k })).filter(({ x }) => x !== 0).slice(0, 5)
        .map(({ x, k }) => `${tex(x, 2)}\\,v_{${tok(kt[k])}}`);
      if (w.filter((x) => x !== 0).length > 5) terms.push('\\cdots');
      return `o_{${tok(qt[i])}} = ${terms.join(' + ') || '0'} = ${vec(rowOf(result.output, i), 2)}`;
    }
    default: return '';
  }
}

// Negative numbers in parentheses inside products and sums.
function paren(t) {
  return t.startsWith('-') ? `(${t})` : t;
}

// A plain-language reading of the selected row.
function noteText(ctx, stage, inputs, result, i, j) {
  const { s, views } = ctx;
  const qt = inputs.queryTokens, kt = inputs.keyTokens;
  if (result.fullyMaskedRows.includes(i)) return s('fullyMasked', { token: qt[i] });
  if (stage === 'masked' && j >= 0 && result.mask.data[i * result.mask.cols + j] === 0) return s('blocked', { q: qt[i], k: kt[j] });
  const w = rowOf(result.weights, i);
  if (stage === 'weights') {
    const best = w.indexOf(max(w));
    const notes = PRESETS[ctx.state.preset].queryNotes;
    const q = notes && !ctx.state.queryTokens.length ? `${qt[i]} (${notes[ctx.lang][i]})` : qt[i];
    return best >= 0 ? s('landsOn', { q, k: kt[best], w: views.fmt(w[best], 2) }) + ` ${s('entropy')} = ${views.fmt(result.entropy[i], 3)}` : '';
  }
  if (stage === 'output') {
    // The keys with a weight above zero, largest first; at most 8 named.
    const mixed = w.map((x, j) => ({ x, j })).filter(({ x }) => x > 0).sort((a, b) => b.x - a.x);
    const list = mixed.slice(0, 8).map(({ x, j }) => `${kt[j]} (${views.fmt(x, 2)})`);
    if (mixed.length > 8) list.push(s('andMore', { n: mixed.length - 8 }));
    return s('mixes', { q: qt[i], list: list.join(', ') });
  }
  return '';
}

function drawBars(ctx, stage, inputs, result, i) {
  if (stage !== 'weights') {
    if (ui.bars) { ui.bars.destroy(); ui.bars = null; }
    return;
  }
  if (!ui.bars) ui.bars = ctx.views.createBars(ui.barsBox, { color: '#3b528b' });
  const title = ctx.s('weightsOf', { token: inputs.queryTokens[i] });
  ui.bars.update({ values: rowOf(result.weights, i), labels: inputs.keyTokens, domain: [0, 1], caption: title, digits: 3 });
}

// The hand-check preset: the learner works the softmax of the typed row out by hand; the
// Softmax chapter's "check by hand" step checks it. A button takes the row there.
function drawHandCheck(ctx, stage, inputs) {
  const { s, state } = ctx;
  const p = PRESETS[state.preset];
  if (stage !== 'weights' || !p.publishedGuess) { ui.guessBox.replaceChildren(); ui.guessBox.dataset.key = ''; return; }
  const row = inputs.grids.scores[0];
  const key = row.join(',') + ctx.lang;
  if (ui.guessBox.dataset.key === key) return;
  ui.guessBox.dataset.key = key;
  const same = row.length === state.smScores.length && row.every((x, j) => x === state.smScores[j]);
  ui.guessBox.replaceChildren(
    h('h4', { text: s('guessTitle') }),
    h('p', { class: 'hint', text: s('guessHint', { scores: row.join(', '), printed: p.publishedGuess.join(', ') }) }),
    h('button', { type: 'button', class: 'btn primary hand-check-go', text: s('guessGo'),
      // A new row of scores starts with no answer; the same row keeps the learner's.
      onclick: () => ctx.set({ lesson: 'softmax', stage: 'hand-check', smScores: row, ...(same ? {} : { smGuess: [] }) }) }));
}
