// Chapter 4: softmax. Stable vs naive (float32 exp overflows past ~88.72), temperature,
// softmax as a budget that sums to 1, hard vs soft attention with Gumbel-softmax in between,
// and a check of a softmax worked out by hand. One row of scores, typed by the learner; every
// weight and entropy comes from the engine (softmax, hardAttention, gumbelSoftmax).

import { MAX_TOKENS, PRESETS, rowOf } from '../example.js';
import { parseList, nearestStop } from '../format.js';
import { h, field, showError, syncInput } from '../views/dom.js';
import { createStepper, stepSection } from '../views/stepper.js';
import { createStacked } from '../views/stacked-bar.js';

const STEPS = [
  { id: 'overflow', title: { en: 'Overflow', zh: '溢出' } },
  { id: 'temperature', title: { en: 'Temperature', zh: '温度' } },
  { id: 'budget', title: { en: 'A budget of 1', zh: '总额为 1 的预算' } },
  { id: 'hard-soft', title: { en: 'Hard and soft', zh: '硬与软' } },
  { id: 'hand-check', title: { en: 'Check by hand', zh: '手算核对' } },
];

// The row of the translation example while writing 猫, and the weights an article printed for it.
const DEFAULT_SCORES = PRESETS['hand-check'].scores[0];
const PRINTED = PRESETS['hand-check'].publishedGuess;
const EXP_OVERFLOW = 88.72;                 // ln(largest float32): exp of anything larger is +∞
const T_STOPS = [0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10];
const TAU_STOPS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 2, 5];
const GUMBEL_SAMPLES = 5;
const TOLERANCE = 0.005;                    // per weight, for the hand check
const SUM_TOLERANCE = 0.01;

const strings = {
  en: {
    intro: 'Scores can be any real numbers. Softmax turns a row of them into weights that are non-negative and add up to 1. This chapter is about that one step: how it breaks, how to keep it from breaking, and how to make it sharper or softer.',
    inputs: 'One row of scores',
    scores: 'Scores (comma-separated)',
    scoresHint: 'The default is the translation example: the scores of The, cat, eats, fish while writing 猫.',
    errCount: 'Type between 1 and {max} numbers, separated by commas.',
    errNumber: 'Item {k} is not a number.',
    reset: 'Back to 2.6, 1.2, 6.1, 2.0',
    errEngine: 'The engine refused these scores: {msg}',

    'h.overflow': 'Overflow: why we subtract the max',
    'p.overflow1': 'In float32, exp(x) overflows to +∞ once x passes about 88.72. The textbook formula then divides ∞ by ∞ and gets NaN (not a number), or divides a finite number by ∞ and gets 0.',
    'p.overflow2': 'Adding the same number to every score does not change softmax, so the stable version first subtracts the row’s largest score: the biggest exponential becomes e⁰ = 1 and nothing can overflow. Push the scores up with the slider and watch the naive column break while the stable one does not move.',
    shift: 'Add to every score',
    colScore: 'score',
    colStable: 'stable softmax',
    colNaive: 'naive softmax',
    entropy: 'entropy',
    overflowFlag: 'exp overflows',
    naiveBroken: 'The naive softmax broke: {n} of {m} weights are NaN.',
    naiveOthers: 'The finite ones (marked ≠) are wrong too.',
    stableSame: 'The stable column still shows the weights of the unshifted scores (checked to 4 decimals).',
    naiveZeros: 'The naive softmax is wrong: {n} of {m} weights differ from the stable ones by more than 0.0001.',
    naiveOk: 'Both agree here: no score is large enough to overflow. Keep pushing.',
    driftNote: 'Far below zero the naive exponentials shrink into float32’s tiny subnormal range and lose digits, so its weights drift too; the stable column never changes.',
    mathNaive: 'naive',
    mathStable: 'stable',

    'h.temperature': 'Temperature: sharper or softer',
    'p.temperature': 'Divide every score by a temperature T before softmax. T < 1 stretches the gaps between scores, and the weights crowd onto the top score; T > 1 shrinks the gaps, and the weights spread toward uniform. Entropy −Σ w log w measures the spread: 0 when one key takes everything, log n when all n keys get the same.',
    'p.temperature2': 'The √d_k in scaled dot-product attention is exactly such a temperature, chosen automatically from the size of the vectors (see the √d_k chapter). This T is the same one the pipeline uses.',
    temperature: 'Temperature T',
    weightsAt: 'Weights at T = {T}',
    entropyLine: 'Entropy {h} nats; an even split over {n} keys would give {hmax} (both from the engine).',

    'h.budget': 'A budget that always sums to 1',
    'p.budget': 'Think of softmax as sharing out a budget of exactly 1 among the keys. A key can only gain share by taking it from the others: raise one score and every other weight shrinks. High scores take the bulk, low scores keep a sliver but never exactly zero — only a mask gives a true zero.',
    nudge: 'Nudge a score',
    raise: 'Raise {k} by 1',
    lower: 'Lower {k} by 1',
    budgetBar: 'Softmax weights as shares of 1 (T = {T})',
    sumCheck: 'Check: the shares add up to {sum}. (Added on the page from the engine’s weights.)',

    'h.hard-soft': 'Hard, soft, and Gumbel-softmax in between',
    'p.hard': 'Hard attention picks one position: a one-hot vector at the highest score. That is what an ordinary lookup does, but it has no useful gradient — nudge a score and nothing changes, until the top swaps and everything jumps.',
    'p.soft': 'Soft attention (softmax) blends every position and is differentiable everywhere, which is why it became the standard.',
    'p.gumbel': 'Gumbel-softmax sits in between: add random Gumbel noise to the scores and take a softmax at a temperature τ. With a small τ each draw is almost one-hot, yet it is still a softmax, so gradients flow; across many draws, each position wins about as often as its softmax weight. Draw again to see different samples from the same seeded generator.',
    tau: 'Gumbel temperature τ',
    seed: 'seed {seed}',
    redraw: 'Draw again',
    softRow: 'soft (softmax)',
    hardRow: 'hard (argmax)',
    gumbelRow: 'Gumbel sample {k}',
    picks: 'picks {k}',

    'h.hand-check': 'Check your hand computation',
    'p.hand1': 'A widely shared explanation of attention gives the scores [2.6, 1.2, 6.1, 2] for the source words The, cat, eats, fish while writing 猫, and prints the weights [0.2, 0.06, 0.1, 0.1]. Those add up to 0.46, so they cannot be a softmax.',
    'p.hand2': 'Work it out yourself: take e to the power of each score, add them up, divide each by the sum. Type your weights below and the engine will check them (plain softmax of the scores above, T = 1).',
    guessFor: 'weight {k}',
    check: 'Check',
    usePrinted: 'Try the printed weights',
    clearGuess: 'Clear',
    errGuess: 'Please type a number.',
    errGuessCount: 'Type one weight for each of the {n} scores.',
    colYours: 'yours',
    colEngine: 'engine',
    colDiff: '|difference|',
    colOk: 'within 0.005?',
    yes: 'yes',
    no: 'no',
    right: 'Right: every weight is within 0.005 of the engine’s.',
    wrong: '{n} of {m} weights are off by more than 0.005: {list}.',
    sumOk: 'Your weights add up to {sum}: they sum to 1, as softmax weights must.',
    sumBad: 'Your weights add up to {sum}: the set does not sum to 1, so it cannot be the output of a softmax.',
    sumNote: 'The sum is computed on the page from your own numbers.',
  },
  zh: {
    intro: '分数可以是任意实数。softmax 把一行分数变成一组非负、加起来等于 1 的权重。这一章只讲这一步：它怎样算崩、怎样避免算崩，以及怎样让它更尖锐或更平缓。',
    inputs: '一行分数',
    scores: '分数（用逗号分隔）',
    scoresHint: '默认值来自翻译例子：生成“猫”时，The、cat、eats、fish 四个词的分数。',
    errCount: '请输入 1 到 {max} 个数，用逗号分隔。',
    errNumber: '第 {k} 项不是数字。',
    reset: '恢复为 2.6, 1.2, 6.1, 2.0',
    errEngine: '引擎拒绝了这些分数：{msg}',

    'h.overflow': '溢出：为什么要先减去最大值',
    'p.overflow1': '在 float32 里，x 一旦超过约 88.72，exp(x) 就溢出成 +∞。课本上的公式接着拿 ∞ 除以 ∞，得到 NaN（不是一个数）；或者拿有限数除以 ∞，得到 0。',
    'p.overflow2': '给每个分数加上同一个数，softmax 的结果不变。所以稳定版先减去这一行的最大分数：最大的指数项变成 e⁰ = 1，谁都不会溢出。拖动滑块把分数整体抬高，看朴素那一列崩掉，稳定那一列纹丝不动。',
    shift: '每个分数都加上',
    colScore: '分数',
    colStable: '稳定 softmax',
    colNaive: '朴素 softmax',
    entropy: '熵',
    overflowFlag: 'exp 溢出',
    naiveBroken: '朴素 softmax 算崩了：{m} 个权重里有 {n} 个是 NaN。',
    naiveOthers: '剩下那些有限值（标有 ≠）也是错的。',
    stableSame: '稳定版那一列仍是平移之前的权重（核对到小数点后 4 位）。',
    naiveZeros: '朴素 softmax 算错了：{m} 个权重里有 {n} 个与稳定版相差超过 0.0001。',
    naiveOk: '目前两者一致：还没有哪个分数大到会溢出。继续往上推。',
    driftNote: '往负方向推得很远时，朴素版的指数会缩进 float32 极小的次正规数范围，有效数字越来越少，权重也会跑偏；稳定版那一列始终不变。',
    mathNaive: '朴素',
    mathStable: '稳定',

    'h.temperature': '温度：更尖锐还是更平缓',
    'p.temperature': 'softmax 之前把每个分数都除以温度 T。T < 1 拉大分数之间的差距，权重向最高分集中；T > 1 缩小差距，权重向平均摊开。熵 −Σ w log w 衡量摊开的程度：一个 Key 拿走全部时为 0，n 个 Key 平分时为 log n。',
    'p.temperature2': '缩放点积注意力里的 √d_k 正是这样一个温度，只不过它按向量维度自动设定（见“为什么要除以 √d_k”一章）。这里的 T 和“一步一步看注意力”那一章用的是同一个。',
    temperature: '温度 T',
    weightsAt: 'T = {T} 时的权重',
    entropyLine: '熵为 {h} 奈特；{n} 个 Key 平分时是 {hmax}（两者都由引擎算出）。',

    'h.budget': '永远加起来等于 1 的预算',
    'p.budget': '可以把 softmax 看成在各个 Key 之间分一笔总额恰好为 1 的预算。某个 Key 想多分，只能从别人那里拿：抬高一个分数，其余所有权重都会变小。高分拿走大头，低分只剩一点点，但永远不会恰好是零——真正的零只有掩码才给得出。',
    nudge: '微调分数',
    raise: '把 {k} 加 1',
    lower: '把 {k} 减 1',
    budgetBar: 'softmax 权重在总额 1 中的份额（T = {T}）',
    sumCheck: '核对：各份额加起来是 {sum}。（页面把引擎给出的权重相加得到。）',

    'h.hard-soft': '硬注意力、软注意力，以及介于两者之间的 Gumbel-softmax',
    'p.hard': '硬注意力只挑一个位置：在最高分处取 1 的独热向量。这就是普通查找的做法，可它没有可用的梯度——稍微改动分数，结果纹丝不动；等到第一名易主，结果又一下子跳过去。',
    'p.soft': '软注意力（softmax）把所有位置按权重混合，处处可导，所以成了主流。',
    'p.gumbel': 'Gumbel-softmax 介于两者之间：给分数加上随机的 Gumbel 噪声，再以温度 τ 做 softmax。τ 很小时每次抽样都接近独热，但它本质上仍是 softmax，梯度照样能传；抽很多次的话，每个位置胜出的频率大约等于它的 softmax 权重。点“再抽一次”，看看同一个带种子的随机数生成器给出的其他样本。',
    tau: 'Gumbel 温度 τ',
    seed: '随机种子 {seed}',
    redraw: '再抽一次',
    softRow: '软（softmax）',
    hardRow: '硬（argmax）',
    gumbelRow: 'Gumbel 样本 {k}',
    picks: '选中 {k}',

    'h.hand-check': '核对你的手算',
    'p.hand1': '一篇流传很广的注意力讲解里，生成“猫”时给源句 The、cat、eats、fish 打的分是 [2.6, 1.2, 6.1, 2]，印出来的权重却是 [0.2, 0.06, 0.1, 0.1]。这组数加起来只有 0.46，不可能是 softmax 的结果。',
    'p.hand2': '自己算一遍：每个分数取 e 的幂，全部加起来，再用每一项除以总和。把你的权重填在下面，引擎会帮你核对（对上面这行分数做普通 softmax，T = 1）。',
    guessFor: '权重 {k}',
    check: '核对',
    usePrinted: '试试文章里印的权重',
    clearGuess: '清空',
    errGuess: '请输入一个数字。',
    errGuessCount: '请为这 {n} 个分数各填一个权重。',
    colYours: '你的',
    colEngine: '引擎',
    colDiff: '|差值|',
    colOk: '误差 ≤ 0.005？',
    yes: '是',
    no: '否',
    right: '答对了：每个权重与引擎的结果相差都不超过 0.005。',
    wrong: '{m} 个权重里有 {n} 个相差超过 0.005：{list}。',
    sumOk: '你的权重加起来是 {sum}：总和为 1，softmax 的权重本该如此。',
    sumBad: '你的权重加起来是 {sum}，总和不等于 1，所以不可能是 softmax 的输出。',
    sumNote: '总和是页面用你自己填的数加出来的。',
  },
};

let ui = null; // DOM handles of the chapter on screen

export default {
  id: 'softmax',
  title: { en: 'Softmax', zh: 'Softmax' },
  strings,
  steps: STEPS,
  state: {
    smScores: { type: 'list', item: 'float', default: DEFAULT_SCORES, maxItems: MAX_TOKENS }, // the row of scores
    smShift: { type: 'float', default: 0, min: -120, max: 120 },                             // added to every score (overflow step)
    gumbelTau: { type: 'float', default: 0.5, min: 0.01, max: 100 },
    gumbelSeed: { type: 'int', default: 1, min: 0, max: 2 ** 32 - 1 },                      // its own, so drawing does not reseed the random example
    smGuess: { type: 'list', item: 'float', default: [], maxItems: MAX_TOKENS },             // the learner's hand-computed weights
  },

  enter(root, ctx) {
    const { s, lang } = ctx;
    ui = { sections: {} };
    root.append(h('h2', { text: this.title[lang] }), h('p', { class: 'lead', text: s('intro') }));
    buildPanel(root, ctx);
    ui.stepper = createStepper(ctx, STEPS);
    root.append(ui.stepper.el);
    ui.sections = {
      overflow: buildOverflow(ctx),
      temperature: buildTemperature(ctx),
      budget: buildBudget(ctx),
      'hard-soft': buildHardSoft(ctx),
      'hand-check': buildHandCheck(ctx),
    };
    for (const sec of Object.values(ui.sections)) root.append(sec.el);
  },

  update(ctx) {
    const stage = ctx.state.stage;
    ui.stepper.sync(stage);
    syncPanel(ctx);
    for (const [id, sec] of Object.entries(ui.sections)) sec.el.hidden = id !== stage;
    try {
      ui.sections[stage].draw(ctx, ctx.state.smScores);
      ui.error.textContent = '';
    } catch (e) {
      // Keep what is on screen; say what the engine refused.
      ui.error.textContent = ctx.s('errEngine', { msg: e.message });
    }
  },

  leave() {
    ui = null;
  },
};

// ---- helpers ----------------------------------------------------------------------------------

const labelsOf = (n) => Array.from({ length: n }, (_, k) => `s${k + 1}`);

// A step's section, headed by its h.<id> string.
const section = (id, ctx, ...children) => stepSection('sm', id, ctx.s(`h.${id}`), ...children);

function setMsg(el, cls, text) {
  el.className = `msg ${cls}`;
  el.textContent = text;
}

// A labelled range slider over `stops` (or a plain numeric range): { wrap, input, out }.
function slider(id, labelText, { min, max, step, onInput }) {
  const input = h('input', { type: 'range', id, min: String(min), max: String(max), step: String(step) });
  const out = h('output', { for: id });
  input.addEventListener('input', () => onInput(Number(input.value)));
  const wrap = h('div', { class: 'field' }, h('label', { for: id, text: labelText }), h('div', { class: 'sm-range' }, input, out));
  return { wrap, input, out };
}

// ---- the scores panel ------------------------------------------------------------------------------

function buildPanel(root, ctx) {
  const { s } = ctx;
  const f = field(s('scores'), h('input', { type: 'text', class: 'wide', inputmode: 'decimal', autocomplete: 'off', spellcheck: false }), s('scoresHint'));
  f.input.addEventListener('change', () => {
    const r = parseList(f.input.value, { min: 1, max: MAX_TOKENS });
    if (r.error === 'count') return showError(f, s('errCount', { max: MAX_TOKENS }));
    if (r.error) return showError(f, s('errNumber', { k: r.at + 1 }));
    showError(f, '');
    ctx.set({ smScores: r.values, smGuess: [] });
  });
  const reset = h('button', { type: 'button', class: 'btn', text: s('reset'), onclick: () => { showError(f, ''); ctx.set({ smScores: DEFAULT_SCORES, smGuess: [] }); } });
  ui.error = h('div', { class: 'field-error', role: 'alert' });
  root.append(h('section', { class: 'panel', 'data-group': 'inputs', 'aria-labelledby': 'sm-panel-h' },
    h('h3', { class: 'panel-title', id: 'sm-panel-h', text: s('inputs') }),
    h('div', { class: 'controls sm-scores-row' }, f.wrap, reset),
    ui.error));
  ui.scores = f;
}

function syncPanel(ctx) {
  syncInput(ui.scores, ctx.state.smScores.join(', '));
}

// ---- 1. overflow: stable vs naive -----------------------------------------------------------------

function buildOverflow(ctx) {
  const { s } = ctx;
  const sl = slider('sm-shift', s('shift'), { min: -120, max: 120, step: 1, onInput: (v) => ctx.set({ smShift: v }) });
  const formula = h('div', { class: 'formula' });
  const table = h('div', { class: 'compare-scroll' });
  const note = h('p', { class: 'msg info', 'aria-live': 'polite' });
  const el = section('overflow', ctx, h('p', { class: 'explain', text: s('p.overflow1') }), h('p', { class: 'explain', text: s('p.overflow2') }),
    formula, h('div', { class: 'controls', 'data-group': 'inputs' }, sl.wrap), table, note, h('p', { class: 'hint', text: s('driftNote') }));

  function draw(ctx, scores) {
    const { engine, views, state } = ctx;
    sl.input.value = String(state.smShift);
    sl.out.textContent = (state.smShift > 0 ? '+' : '') + views.fmt(state.smShift, 0);
    views.renderFormula(formula, `\\begin{aligned} &\\text{${s('mathNaive')}: } & w_i &= \\frac{e^{s_i}}{\\sum_j e^{s_j}} \\\\[4pt] &\\text{${s('mathStable')}: } & w_i &= \\frac{e^{s_i - \\max_k s_k}}{\\sum_j e^{s_j - \\max_k s_k}} \\end{aligned}`);
    const shifted = scores.map((x) => x + state.smShift); // the inputs, moved by the slider
    const stable = engine.softmax({ scores: [shifted], stable: true });
    const naive = engine.softmax({ scores: [shifted], stable: false });
    const ws = rowOf(stable.weights, 0), wn = rowOf(naive.weights, 0);
    const labels = labelsOf(scores.length);
    const cell = (x, digits, wrong = false) => h('td', { class: Number.isFinite(x) && !wrong ? '' : 'flagged', text: views.fmt(x, digits) + (wrong && Number.isFinite(x) ? ' ≠' : '') });
    const body = shifted.map((x, k) => h('tr', {},
      h('th', { scope: 'row', text: labels[k] }),
      h('td', { class: x > EXP_OVERFLOW ? 'flagged' : '' }, views.fmt(x, 2), x > EXP_OVERFLOW ? h('span', { class: 'flag-mark', text: ` ⚠ ${s('overflowFlag')}` }) : null),
      cell(ws[k], 4), cell(wn[k], 4, !(Math.abs(wn[k] - ws[k]) <= 1e-4))));
    body.push(h('tr', { class: 'entropy-row' }, h('th', { scope: 'row', text: s('entropy') }), h('td', { text: '' }),
      cell(stable.entropy[0], 4), cell(naive.entropy[0], 4)));
    table.replaceChildren(h('table', { class: 'data-table sm-overflow-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: '' }), h('th', { scope: 'col', text: s('colScore') }),
        h('th', { scope: 'col', text: s('colStable') }), h('th', { scope: 'col', text: s('colNaive') }))),
      h('tbody', {}, ...body)));
    const nans = wn.filter((x) => !Number.isFinite(x)).length;
    const off = wn.filter((x, k) => Number.isFinite(x) && Math.abs(x - ws[k]) > 1e-4).length;
    // Does the stable column still match the unshifted scores? (a check, to 4 decimals)
    const base = rowOf(engine.softmax({ scores: [scores], stable: true }).weights, 0);
    const same = base.every((x, k) => Math.abs(x - ws[k]) <= 1e-4);
    const join = ctx.lang === 'zh' ? '' : ' ';
    if (nans) setMsg(note, 'bad', [s('naiveBroken', { n: nans, m: wn.length }), off ? s('naiveOthers') : '', same ? s('stableSame') : ''].filter(Boolean).join(join));
    else if (off) setMsg(note, 'bad', s('naiveZeros', { n: off, m: wn.length }));
    else setMsg(note, 'info', s('naiveOk'));
    note.dataset.broken = String(nans > 0);
  }
  return { el, draw };
}

// ---- 2. temperature --------------------------------------------------------------------------------

function buildTemperature(ctx) {
  const { s } = ctx;
  const sl = slider('sm-temp', s('temperature'), { min: 0, max: T_STOPS.length - 1, step: 1, onInput: (k) => ctx.set({ temperature: T_STOPS[k] }) });
  const formula = h('div', { class: 'formula' });
  const barsBox = h('div', {});
  const title = h('h4', { class: 'map-title' });
  barsBox.append(title);
  const bars = ctx.views.createBars(barsBox, { color: '#3b528b' });
  const line = h('p', { class: 'note', 'aria-live': 'polite' });
  const el = section('temperature', ctx, h('p', { class: 'explain', text: s('p.temperature') }), h('p', { class: 'explain', text: s('p.temperature2') }),
    formula, h('div', { class: 'controls', 'data-group': 'inputs' }, sl.wrap), barsBox, line);

  function draw(ctx, scores) {
    const { engine, views, state } = ctx;
    const T = state.temperature;
    sl.input.value = String(nearestStop(T_STOPS, T));
    sl.out.textContent = `T = ${T}`;
    sl.input.setAttribute('aria-valuetext', sl.out.textContent); // the slider moves over stops, not over T itself
    views.renderFormula(formula, `w_i = \\frac{e^{s_i / T}}{\\sum_j e^{s_j / T}}, \\qquad T = ${T}`);
    const r = engine.softmax({ scores: [scores], temperature: T });
    const even = engine.softmax({ scores: [scores.map(() => 0)] }); // equal scores: the largest entropy
    title.textContent = s('weightsAt', { T });
    bars.update({ values: rowOf(r.weights, 0), labels: labelsOf(scores.length), domain: [0, 1], caption: title.textContent, digits: 3 });
    line.textContent = s('entropyLine', { h: views.fmt(r.entropy[0], 3), n: scores.length, hmax: views.fmt(even.entropy[0], 3) });
  }
  return { el, draw };
}

// ---- 3. the budget ---------------------------------------------------------------------------------

function buildBudget(ctx) {
  const { s } = ctx;
  const nudges = h('div', { class: 'nudges', role: 'group', 'aria-label': s('nudge') });
  const title = h('h4', { class: 'map-title' });
  const box = h('div', {}, title);
  const stacked = createStacked(box, {});
  const check = h('p', { class: 'hint' });
  const el = section('budget', ctx, h('p', { class: 'explain', text: s('p.budget') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, h('span', { class: 'field-label', text: s('nudge') }), nudges), box, check);

  function draw(ctx, scores) {
    const { engine, views, state } = ctx;
    const labels = labelsOf(scores.length);
    const move = (k, d) => {
      const next = state.smScores.slice();
      next[k] = Number((next[k] + d).toFixed(6));
      ctx.set({ smScores: next, smGuess: [] });
    };
    if (nudges.dataset.n !== String(scores.length)) {
      nudges.dataset.n = String(scores.length);
      nudges.replaceChildren(...labels.map((l, k) => h('span', { class: 'nudge' },
        h('button', { type: 'button', class: 'btn', 'aria-label': s('lower', { k: l }), text: '−', onclick: () => move(k, -1) }),
        h('span', { class: 'nudge-label' }),
        h('button', { type: 'button', class: 'btn', 'aria-label': s('raise', { k: l }), text: '+', onclick: () => move(k, 1) }))));
    }
    [...nudges.querySelectorAll('.nudge-label')].forEach((el, k) => { el.textContent = `${labels[k]} = ${views.fmt(scores[k], 2)}`; });
    const r = engine.softmax({ scores: [scores], temperature: state.temperature });
    const w = rowOf(r.weights, 0);
    title.textContent = s('budgetBar', { T: state.temperature });
    stacked.update({ values: w, labels, caption: title.textContent, digits: 4 });
    const sum = w.reduce((a, b) => a + b, 0); // a check of the engine's output, not a result
    check.textContent = s('sumCheck', { sum: views.fmt(sum, 4) });
  }
  return { el, draw };
}

// ---- 4. hard, soft, Gumbel -------------------------------------------------------------------------

function buildHardSoft(ctx) {
  const { s } = ctx;
  const sl = slider('sm-tau', s('tau'), { min: 0, max: TAU_STOPS.length - 1, step: 1, onInput: (k) => ctx.set({ gumbelTau: TAU_STOPS[k] }) });
  const seedOut = h('span', { class: 'hint' });
  const redraw = h('button', { type: 'button', class: 'btn', text: s('redraw'), onclick: () => ctx.set({ gumbelSeed: (ctx.state.gumbelSeed + 1) % 2 ** 32 }) });
  const list = h('div', { class: 'gumbel-list' });
  const rows = [];
  const addRow = () => {
    const label = h('span', { class: 'gumbel-label' });
    const cellBox = h('div', {});
    const sb = createStacked(cellBox, {});
    list.append(h('div', { class: 'gumbel-row' }, label, cellBox));
    rows.push({ label, sb });
  };
  for (let k = 0; k < 2 + GUMBEL_SAMPLES; k++) addRow();
  const el = section('hard-soft', ctx, h('p', { class: 'explain', text: s('p.hard') }), h('p', { class: 'explain', text: s('p.soft') }),
    h('p', { class: 'explain', text: s('p.gumbel') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, sl.wrap, h('div', { class: 'field' }, h('span', { class: 'field-label', text: '\u00a0' }), h('div', { class: 'sm-range' }, redraw, seedOut))),
    list);

  function draw(ctx, scores) {
    const { engine, state } = ctx;
    const labels = labelsOf(scores.length);
    const tau = state.gumbelTau;
    sl.input.value = String(nearestStop(TAU_STOPS, tau));
    sl.out.textContent = `τ = ${tau}`;
    sl.input.setAttribute('aria-valuetext', sl.out.textContent);
    seedOut.textContent = s('seed', { seed: state.gumbelSeed });
    const soft = engine.softmax({ scores: [scores], temperature: state.temperature });
    const hard = engine.hardAttention({ scores: [scores] });
    const gumbel = engine.gumbelSoftmax({ scores: Array.from({ length: GUMBEL_SAMPLES }, () => scores), tau, seed: state.gumbelSeed });
    const show = (row, name, m, i) => {
      const w = rowOf(m, i);
      const top = w.indexOf(Math.max(...w));
      row.label.textContent = `${name} · ${s('picks', { k: labels[top] })}`;
      row.sb.update({ values: w, labels, caption: name, digits: 3 });
    };
    show(rows[0], s('softRow'), soft.weights, 0);
    show(rows[1], s('hardRow'), hard, 0);
    for (let k = 0; k < GUMBEL_SAMPLES; k++) show(rows[2 + k], s('gumbelRow', { k: k + 1 }), gumbel, k);
  }
  return { el, draw };
}

// ---- 5. the hand check -----------------------------------------------------------------------------

function buildHandCheck(ctx) {
  const { s } = ctx;
  const form = h('form', { class: 'guess-grid', novalidate: true });
  const formError = h('div', { class: 'field-error', role: 'alert' });
  const result = h('div', { class: 'sm-hand-result', 'aria-live': 'polite' });
  const printed = h('button', { type: 'button', class: 'btn', text: s('usePrinted'), onclick: () => ctx.set({ smGuess: PRINTED }) });
  const clear = h('button', { type: 'button', class: 'btn', text: s('clearGuess'), onclick: () => ctx.set({ smGuess: [] }) });
  const scoresLine = h('div', { class: 'formula' });
  let fields = [];
  const el = section('hand-check', ctx, h('p', { class: 'explain', text: s('p.hand1') }), h('p', { class: 'explain', text: s('p.hand2') }),
    scoresLine, form, formError, h('div', { class: 'controls' }, printed, clear), result);

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const values = fields.map((f) => ctx.views.parseNumber(f.input.value));
    let bad = false;
    fields.forEach((f, k) => {
      const ok = !Number.isNaN(values[k]);
      showError(f, ok ? '' : s('errGuess'));
      bad = bad || !ok;
    });
    if (bad) return;
    ctx.set({ smGuess: values });
  });

  function draw(ctx, scores) {
    const { engine, views, state } = ctx;
    const n = scores.length;
    const labels = labelsOf(n);
    views.renderFormula(scoresLine, `s = ${views.texVector(scores, 2)}`);
    printed.hidden = n !== PRINTED.length;
    if (form.dataset.n !== String(n)) {
      form.dataset.n = String(n);
      fields = labels.map((l) => field(s('guessFor', { k: l }), h('input', { type: 'text', inputmode: 'decimal', autocomplete: 'off' })));
      form.replaceChildren(...fields.map((f) => f.wrap), h('button', { type: 'submit', class: 'btn primary', text: s('check') }));
    }
    const guess = state.smGuess;
    fields.forEach((f, k) => syncInput(f, guess[k] !== undefined ? String(guess[k]) : ''));
    if (guess.length === 0) { result.replaceChildren(); formError.textContent = ''; return; }
    if (guess.length !== n) { result.replaceChildren(); formError.textContent = s('errGuessCount', { n }); return; }
    formError.textContent = '';
    const w = rowOf(engine.softmax({ scores: [scores], temperature: 1 }).weights, 0);
    const diffs = guess.map((g, k) => Math.abs(g - w[k])); // checks against the engine's weights
    const wrong = labels.filter((_, k) => !(diffs[k] <= TOLERANCE));
    const sum = guess.reduce((a, b) => a + b, 0);              // the learner's own numbers
    const sumOk = Math.abs(sum - 1) <= SUM_TOLERANCE;
    const table = h('table', { class: 'data-table sm-hand-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: '' }), ...['colYours', 'colEngine', 'colDiff', 'colOk'].map((k) => h('th', { scope: 'col', text: s(k) })))),
      h('tbody', {}, ...labels.map((l, k) => h('tr', {},
        h('th', { scope: 'row', text: l }),
        h('td', { text: views.fmt(guess[k], 4) }),
        h('td', { text: views.fmt(w[k], 4) }),
        h('td', { class: diffs[k] <= TOLERANCE ? '' : 'flagged', text: views.fmt(diffs[k], 4) }),
        h('td', { class: diffs[k] <= TOLERANCE ? '' : 'flagged', text: diffs[k] <= TOLERANCE ? `✓ ${s('yes')}` : `✗ ${s('no')}` })))));
    const verdict = h('p', { class: `msg ${wrong.length ? 'bad' : 'good'} sm-verdict`, text: wrong.length ? s('wrong', { n: wrong.length, m: n, list: wrong.join(', ') }) : s('right') });
    verdict.dataset.result = wrong.length ? 'wrong' : 'right';
    const sumMsg = h('p', { class: `msg ${sumOk ? 'good' : 'bad'} sm-sum`, text: s(sumOk ? 'sumOk' : 'sumBad', { sum: views.fmt(sum, 3) }) });
    sumMsg.dataset.result = sumOk ? 'ok' : 'bad';
    result.replaceChildren(verdict, sumMsg, h('div', { class: 'compare-scroll' }, table), h('p', { class: 'hint', text: s('sumNote') }));
  }
  return { el, draw };
}
