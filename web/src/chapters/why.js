// Chapter 1: why attention. The fixed-vector bottleneck of encoder–decoder RNNs, attention as
// a soft lookup (Query asks, Key labels, Value holds the content), self vs cross attention,
// and a short timeline. The live parts run engine.attend on the shared presets' vectors.

import { PRESETS, toMatrix, rowOf } from '../example.js';
import { h } from '../views/dom.js';
import { createStepper, stepSection } from '../views/stepper.js';

const STEPS = [
  { id: 'bottleneck', title: { en: 'The bottleneck', zh: '瓶颈' } },
  { id: 'lookup', title: { en: 'A soft lookup', zh: '软查找' } },
  { id: 'self-cross', title: { en: 'Self and cross', zh: '自注意力与交叉注意力' } },
  { id: 'timeline', title: { en: 'Timeline', zh: '发展脉络' } },
];

const strings = {
  en: {
    intro: 'Before the formulas, the problem. Attention was invented to fix one specific weakness of the translation models of 2014, and the fix turned out to be general enough to build every large language model since.',

    'h.bottleneck': 'A whole sentence through one vector',
    'p.bottleneck1': 'Early neural translation used two recurrent networks. The encoder reads the source sentence word by word and ends with a single context vector of fixed length. The decoder then has to write the whole translation from that one vector.',
    'p.bottleneck2': 'A vector of fixed size holds a fixed amount of information. The longer the sentence, the more the first words fade from it, and translations of long sentences start dropping content — the earlier the word, the likelier it is lost. LSTMs eased the vanishing gradient, but they could not lift this limit: it is built into the design.',
    'p.bottleneck3': 'The way out is simple to say: instead of one summary, let the decoder look back at every encoder state at every step, and take more from the states it needs right now.',
    view: 'Diagram',
    without: 'Without attention',
    with: 'With attention',
    target: 'Word being written',
    diagramWithout: 'Encoder–decoder without attention: the encoder states of The, cat, eats, fish are folded into one context vector c, and the decoder writes 猫 吃 鱼 from c alone.',
    diagramWith: 'Encoder–decoder with attention: while writing “{t}”, the decoder reads every encoder state; line widths are the engine’s weights: {list}.',
    context: 'c',
    encoder: 'encoder',
    decoder: 'decoder',
    captionWith: 'Line width = the weight the engine computes for “{t}” over the English words (the translation example of the next chapter). The decoder chooses again for every word it writes.',
    captionWithout: 'Everything the decoder knows about the source has to pass through c.',

    'h.lookup': 'A soft, differentiable lookup',
    'p.shelf': 'Think of each token as a book on a shelf. The Key is the label on its spine, the Value is the text inside, and the Query is the question on your mind. An ordinary lookup matches the question against the labels and hands you exactly one book.',
    'p.soft': 'Attention compares the question with every label, turns the match scores into weights that are non-negative and add up to 1, and hands you a blend of all the books, mostly the relevant ones. The blend changes smoothly when the scores change, so gradients flow through it and the model can learn where to look.',
    'p.exam': 'Or think of an exam. Your lecture notes are the encoder’s hidden states. For each question you follow its keywords to the right pages, read those closely, skim the rest, and put the answer together from several places. A recurrent model without attention answers every question from the last page of its notes.',
    tryIt: 'Try it: 猫 追 老鼠',
    tryIntro: 'In the sentence 猫 追 老鼠 (“the cat chases the mouse”) each word has a hand-made Key and Value with four features: does the action, is an action, receives the action, is an animal. Pick a question; the engine scores it against the three Keys, applies softmax and mixes the Values.',
    question: 'Question (Query)',
    qAsk: 'asked by {tok}: “{note}”',
    softBars: 'Soft attention: weights of “{note}”',
    hardBars: 'Hard lookup: one-hot at the highest score',
    landsOn: 'Most of the weight lands on {k} ({w}). The answer is a blend of the Values, led by {k}’s:',
    outputIs: 'output',
    hardNote: 'A hard lookup takes only the top Key. Its answer jumps from one book to another when the scores cross, so it has no useful gradient; the soft blend moves smoothly.',

    'h.self-cross': 'Self-attention and cross-attention',
    'p.cross': 'Where do Q, K and V come from? In cross-attention the Queries come from one sequence and the Keys and Values from another. In translation the decoder asks (猫 吃 鱼) and the encoder’s states answer (The cat eats fish): one row per target word, one column per source word — a {shape} weight matrix here, computed by the engine.',
    'p.self': 'In self-attention all three come from the same sequence, each through its own learned projection. Every token can then reach every other token in one step, however far apart: in 那只被主人遗弃的猫终于找到了新家 (“the cat abandoned by its owner finally found a new home”), 猫 can connect with 遗弃 directly, instead of passing the message along word by word as a recurrent network must. Here 猫 追 老鼠 attends to itself: a {shape} matrix.',
    'p.both': 'A Transformer decoder uses both: self-attention over the words it has written so far (with a causal mask — see the Masks chapter) and cross-attention into the encoder.',
    crossMap: 'Cross-attention weights (rows: 猫 吃 鱼, columns: The cat eats fish)',
    selfMap: 'Self-attention weights (rows and columns: 猫 追 老鼠)',

    'h.timeline': 'How we got here',
    'p.timeline': 'Each step kept the idea of the one before and fixed one of its costs.',
    't1.when': '2014', 't1.what': 'Sequence to sequence',
    't1.body': 'An encoder RNN reads the source, a decoder RNN writes the target; everything passes through one fixed context vector (Sutskever, Vinyals & Le; Cho et al.).',
    't2.when': '2014', 't2.what': 'Additive attention (Bahdanau)',
    't2.body': 'At each output step a small network scores every encoder state: vᵀ tanh(W_q q + W_k k). Query and key may have different sizes; the price is a separate network evaluation per pair, which is slow and hard to parallelise.',
    't3.when': '2015', 't3.what': 'Multiplicative attention (Luong)',
    't3.body': 'The score becomes a dot product qᵀk (or qᵀWk): one matrix product scores all pairs at once, fast and parallel, but q and k must have the same size.',
    't4.when': '2017', 't4.what': 'Scaled dot-product',
    't4.body': 'Divide by √d_k. For random vectors the dot product’s variance grows with d_k (std 8 at d_k = 64); scaling brings it back to about 1, so softmax does not saturate and the gradients survive.',
    't5.when': '2017', 't5.what': 'Multi-head attention',
    't5.body': 'Several attentions in parallel, each with its own projections and its own pattern: d_model = 768 split into 12 heads of 64 costs about as much as one big head. The heads are concatenated and mixed by one more linear layer.',
    't6.when': '2017', 't6.what': 'Self-attention and the Transformer',
    't6.body': 'Recurrence dropped altogether: stacks of self-attention and feed-forward layers, with cross-attention from decoder to encoder. Every pair of positions is one step apart and the whole sequence is processed in parallel; the cost is O(n²) in the sequence length (Vaswani et al., “Attention Is All You Need”).',
    errEngine: 'The engine refused this example: {msg}',
  },
  zh: {
    intro: '先讲问题，再讲公式。注意力最初是为了补上 2014 年前后翻译模型的一个具体短板而提出的；没想到这个补丁足够通用，后来所有的大语言模型都建立在它之上。',

    'h.bottleneck': '整句话挤过一个向量',
    'p.bottleneck1': '早期的神经机器翻译由两个循环神经网络组成。编码器一个词一个词地读完源句，最后只留下一个长度固定的上下文向量；解码器则要凭这一个向量写出整句译文。',
    'p.bottleneck2': '长度固定的向量，能装的信息也有上限。句子越长，开头的词在向量里褪色得越厉害；长句的译文开始丢内容，而且越靠前的词越容易丢。LSTM 缓解了梯度消失，却抬不高这个上限——它是结构本身带来的。',
    'p.bottleneck3': '出路说起来很简单：别只给一个摘要，让解码器每写一个词都回头看一遍编码器的所有隐状态，眼下需要哪一部分，就从哪里多取一点。',
    view: '示意图',
    without: '没有注意力',
    with: '有注意力',
    target: '正在写的词',
    diagramWithout: '没有注意力的编码器–解码器：The、cat、eats、fish 的编码器状态被折叠进一个上下文向量 c，解码器只凭 c 写出“猫 吃 鱼”。',
    diagramWith: '有注意力的编码器–解码器：写“{t}”时，解码器读取每一个编码器状态；连线粗细是引擎算出的权重：{list}。',
    context: 'c',
    encoder: '编码器',
    decoder: '解码器',
    captionWith: '连线粗细 = 引擎为“{t}”在各个英文词上算出的权重（下一章翻译例子里的向量）。解码器每写一个词，都会重新分配一次。',
    captionWithout: '解码器对源句的全部了解，都得先挤过 c 这一个向量。',

    'h.lookup': '一次软性的、可微的查找',
    'p.shelf': '把每个词想成书架上的一本书：Key 是书脊上的标签，Value 是书里的正文，Query 是你心里正琢磨的问题。普通的查找拿问题去对标签，只递给你一本书。',
    'p.soft': '注意力则拿问题和每一个标签都比一比，把匹配分数变成一组非负、加起来等于 1 的权重，然后递给你所有书按权重混合出的内容——相关的书占大头。分数一变，混合结果就平滑地跟着变，梯度可以顺着传回去，模型也就学得会“该看哪里”。',
    'p.exam': '也可以想想考试。课上记的笔记就是编码器的各个隐状态。每道题你都会顺着题目里的关键词翻到相关的几页，细读这些，略过其余，再从几处内容里拼出答案。没有注意力的循环网络，相当于每道题都只看笔记的最后一页。',
    tryIt: '动手试试：猫 追 老鼠',
    tryIntro: '在“猫 追 老鼠”这句话里，每个词都有一个手工设计的 Key 和 Value，包含四个特征：施事（发出动作）、动作、受事（承受动作）、动物。选一个问题，引擎会拿它去和三个 Key 打分、做 softmax，再把 Value 混合起来。',
    question: '问题（Query）',
    qAsk: '由“{tok}”提出：“{note}”',
    softBars: '软注意力：“{note}”的权重',
    hardBars: '硬查找：只取最高分，独热向量',
    landsOn: '大部分权重落在“{k}”上（{w}）。答案是各个 Value 的混合，以“{k}”的 Value 为主：',
    outputIs: '输出',
    hardNote: '硬查找只取得分最高的那个 Key。分数一旦交叉，答案就从一本书跳到另一本，没有可用的梯度；软混合则是平滑变化的。',

    'h.self-cross': '自注意力与交叉注意力',
    'p.cross': 'Q、K、V 从哪儿来？交叉注意力里，Query 来自一个序列，Key 和 Value 来自另一个。翻译时解码器提问（猫 吃 鱼），编码器的隐状态作答（The cat eats fish）：每个目标词一行，每个源词一列——这里引擎算出的是一个 {shape} 的权重矩阵。',
    'p.self': '自注意力里三者都来自同一个序列，只是各自经过一个可学习的投影。这样每个词一步就能连到任何一个词，不管隔得多远：在“那只被主人遗弃的猫终于找到了新家”里，“猫”可以直接连上“遗弃”，不必像循环网络那样一个词一个词地往下传。这里“猫 追 老鼠”对自己做注意力：一个 {shape} 的矩阵。',
    'p.both': 'Transformer 的解码器两种都用：先对自己已经写出的词做自注意力（配合因果掩码，见“掩码”一章），再对编码器做交叉注意力。',
    crossMap: '交叉注意力权重（行：猫 吃 鱼，列：The cat eats fish）',
    selfMap: '自注意力权重（行和列：猫 追 老鼠）',

    'h.timeline': '一路走来',
    'p.timeline': '每一步都保留了上一步的思路，同时解决了它的一项代价。',
    't1.when': '2014', 't1.what': '序列到序列（Seq2Seq）',
    't1.body': '编码器 RNN 读源句，解码器 RNN 写目标句；所有信息都要经过一个固定的上下文向量（Sutskever、Vinyals 与 Le；Cho 等人）。',
    't2.when': '2014', 't2.what': '加性注意力（Bahdanau）',
    't2.body': '每写一个输出词，就用一个小网络给每个编码器状态打分：vᵀ tanh(W_q q + W_k k)。Query 和 Key 维度可以不同；代价是每一对都要过一次网络，慢，也不好并行。',
    't3.when': '2015', 't3.what': '乘性注意力（Luong）',
    't3.body': '打分改成点积 qᵀk（或 qᵀWk）：一次矩阵乘法就给所有配对打完分，又快又能并行，但要求 q、k 维度相同。',
    't4.when': '2017', 't4.what': '缩放点积',
    't4.body': '再除以 √d_k。随机向量的点积方差随 d_k 增长（d_k = 64 时标准差是 8）；缩放后方差回到 1 左右，softmax 不会饱和，梯度也就保住了。',
    't5.when': '2017', 't5.what': '多头注意力',
    't5.body': '几组注意力并行，各有各的投影、各学各的模式：把 d_model = 768 拆成 12 个 64 维的头，计算量和一个大头差不多。各头的结果拼接起来，再经一个线性层融合。',
    't6.when': '2017', 't6.what': '自注意力与 Transformer',
    't6.body': '彻底去掉循环：层层堆叠自注意力和前馈网络，解码器再通过交叉注意力读编码器。任意两个位置之间只隔一步，整句可以并行处理；代价是随序列长度 O(n²) 增长的计算量（Vaswani 等人，《Attention Is All You Need》）。',
    errEngine: '引擎拒绝了这个例子：{msg}',
  },
};

let ui = null; // DOM handles of the chapter on screen

export default {
  id: 'why',
  title: { en: 'Why attention', zh: '为什么需要注意力' },
  strings,
  steps: STEPS,
  state: {
    whyAttn: { type: 'bool', default: false },                 // bottleneck diagram: with attention
    whyTarget: { type: 'int', default: 0, min: 0, max: 2 },     // decoder word shown (猫 吃 鱼)
    whyQuery: { type: 'int', default: 1, min: 0, max: 2 },      // 猫 追 老鼠: whose question
  },

  enter(root, ctx) {
    const { s, lang } = ctx;
    ui = { sections: {} };
    const stepper = createStepper(ctx, STEPS);
    ui.stepper = stepper;
    ui.error = h('div', { class: 'field-error', role: 'alert' });
    root.append(h('h2', { text: this.title[lang] }), h('p', { class: 'lead', text: s('intro') }), stepper.el, ui.error);
    ui.sections.bottleneck = buildBottleneck(ctx);
    ui.sections.lookup = buildLookup(ctx);
    ui.sections['self-cross'] = buildSelfCross(ctx);
    ui.sections.timeline = buildTimeline(ctx);
    for (const sec of Object.values(ui.sections)) root.append(sec.el);
  },

  update(ctx) {
    const stage = ctx.state.stage;
    ui.stepper.sync(stage);
    for (const [id, sec] of Object.entries(ui.sections)) sec.el.hidden = id !== stage;
    try {
      ui.sections[stage].draw(ctx);
      ui.error.textContent = '';
    } catch (e) {
      ui.error.textContent = ctx.s('errEngine', { msg: e.message });
    }
  },

  leave() {
    ui = null;
  },
};

// engine.attend on a preset's own vectors (scaled dot product, no mask).
function attendPreset(engine, id) {
  const p = PRESETS[id];
  const nq = p.queryTokens.length, nk = p.keyTokens.length;
  return engine.attend({
    query: toMatrix(p.Q, nq, p.dk), key: toMatrix(p.K, nk, p.dk), value: toMatrix(p.V, nk, p.dk),
  });
}

// A step's section, headed by its h.<id> string.
const section = (id, ctx, ...children) => stepSection('why', id, ctx.s(`h.${id}`), ...children);

// A group of toggle buttons (aria-pressed), one per option.
function toggleGroup(labelText, options, onPick) {
  const buttons = options.map((o) => h('button', { type: 'button', class: 'btn toggle', 'aria-pressed': 'false', text: o.label, onclick: () => onPick(o.value) }));
  const el = h('div', { class: 'toggle-group', role: 'group', 'aria-label': labelText },
    h('span', { class: 'field-label', text: labelText }), ...buttons);
  return {
    el,
    sync(value) { buttons.forEach((b, k) => b.setAttribute('aria-pressed', String(options[k].value === value))); },
  };
}

// ---- 1. the bottleneck -----------------------------------------------------------------------

function buildBottleneck(ctx) {
  const { s } = ctx;
  const p = PRESETS['cat-fish'];
  const view = toggleGroup(s('view'), [{ value: false, label: s('without') }, { value: true, label: s('with') }],
    (v) => ctx.set({ whyAttn: v }));
  const target = toggleGroup(s('target'), p.queryTokens.map((t, k) => ({ value: k, label: t })),
    (k) => ctx.set({ whyTarget: k }));
  const svgBox = h('div', { class: 'why-diagram' });
  const caption = h('p', { class: 'hint' });
  const el = section('bottleneck', ctx,
    h('p', { class: 'explain', text: s('p.bottleneck1') }),
    h('p', { class: 'explain', text: s('p.bottleneck2') }),
    h('p', { class: 'explain', text: s('p.bottleneck3') }),
    h('div', { class: 'controls', 'data-group': 'inputs' }, view.el, target.el),
    h('figure', { class: 'why-figure' }, svgBox, h('figcaption', {}, caption)));

  function draw(ctx) {
    const { state, views } = ctx;
    view.sync(state.whyAttn);
    target.el.hidden = !state.whyAttn;
    target.sync(state.whyTarget);
    const t = p.queryTokens[state.whyTarget];
    if (!state.whyAttn) {
      svgBox.replaceChildren(diagram(p, null, 0, s));
      svgBox.firstChild.setAttribute('aria-label', s('diagramWithout'));
      caption.textContent = s('captionWithout');
      return;
    }
    const r = attendPreset(ctx.engine, 'cat-fish');
    const w = rowOf(r.weights, state.whyTarget);
    svgBox.replaceChildren(diagram(p, w, state.whyTarget, s, views.fmt));
    const list = w.map((x, j) => `${p.keyTokens[j]} ${views.fmt(x, 2)}`).join(', ');
    svgBox.firstChild.setAttribute('aria-label', s('diagramWith', { t, list }));
    caption.textContent = s('captionWith', { t });
  }
  return { el, draw };
}

// The encoder–decoder diagram as SVG. weights = null: the fixed-vector version.
function diagram(p, weights, target, s, fmt) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  const W = 350, H = 250;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.classList.add('why-svg');
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  const defs = add('defs', {});
  const marker = document.createElementNS(NS, 'marker');
  for (const [k, v] of Object.entries({ id: 'why-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' })) marker.setAttribute(k, v);
  const tip = document.createElementNS(NS, 'path');
  tip.setAttribute('d', 'M0,0 L10,5 L0,10 z');
  tip.setAttribute('class', 'why-arrowhead');
  marker.append(tip);
  defs.append(marker);

  const bw = 64, bh = 34;
  const enc = p.keyTokens.map((_, j) => ({ x: 14 + j * 84, y: 190 }));
  const decX0 = weights ? 66 : 104;
  const dec = p.queryTokens.map((_, i) => ({ x: decX0 + i * 84, y: 28 }));
  const arrow = (x1, y1, x2, y2, cls, width = 1.5) =>
    add('line', { x1, y1, x2, y2, class: cls, 'stroke-width': width, 'marker-end': 'url(#why-arrow)' });

  add('text', { x: 6, y: enc[0].y - 10, class: 'why-side' }, s('encoder'));
  add('text', { x: 6, y: dec[0].y - 10, class: 'why-side' }, s('decoder'));
  // Recurrent links along each row.
  for (let j = 0; j + 1 < enc.length; j++) arrow(enc[j].x + bw, enc[j].y + bh / 2, enc[j + 1].x - 2, enc[j + 1].y + bh / 2, 'why-link');
  for (let i = 0; i + 1 < dec.length; i++) arrow(dec[i].x + bw, dec[i].y + bh / 2, dec[i + 1].x - 2, dec[i + 1].y + bh / 2, 'why-link');

  if (!weights) {
    // Everything funnels through c.
    const c = { x: 40, y: 112 };
    const last = enc[enc.length - 1];
    add('path', { d: `M${last.x + bw / 2},${last.y} C${last.x + bw / 2},${c.y + 60} ${c.x + 80},${c.y + 20} ${c.x + 44},${c.y + 17}`, class: 'why-link', fill: 'none', 'stroke-width': 1.5, 'marker-end': 'url(#why-arrow)' });
    add('rect', { x: c.x, y: c.y, width: 44, height: 34, rx: 17, class: 'why-context' });
    add('text', { x: c.x + 22, y: c.y + 22, class: 'why-ctext', 'text-anchor': 'middle' }, s('context'));
    add('path', { d: `M${c.x + 22},${c.y} C${c.x + 22},${c.y - 30} ${dec[0].x - 30},${dec[0].y + bh + 20} ${dec[0].x + 4},${dec[0].y + bh + 2}`, class: 'why-link', fill: 'none', 'stroke-width': 1.5, 'marker-end': 'url(#why-arrow)' });
  } else {
    // One line per encoder state into the decoder word being written; width from the weight.
    const d = dec[target];
    weights.forEach((w, j) => {
      const e = enc[j];
      add('line', { x1: e.x + bw / 2, y1: e.y, x2: d.x + bw / 2, y2: d.y + bh, class: 'why-attn', 'stroke-width': (0.5 + 9 * w).toFixed(2) });
      const mx = (e.x + bw / 2) * 0.6 + (d.x + bw / 2) * 0.4, my = e.y * 0.6 + (d.y + bh) * 0.4;
      add('text', { x: mx + 4, y: my, class: 'why-wlabel' }, fmt(w, 2));
    });
  }
  enc.forEach((e, j) => {
    add('rect', { x: e.x, y: e.y, width: bw, height: bh, rx: 6, class: 'why-enc' });
    add('text', { x: e.x + bw / 2, y: e.y + 22, 'text-anchor': 'middle', class: 'why-tok' }, p.keyTokens[j]);
  });
  dec.forEach((d, i) => {
    add('rect', { x: d.x, y: d.y, width: bw, height: bh, rx: 6, class: weights && i === target ? 'why-dec why-cur' : 'why-dec' });
    add('text', { x: d.x + bw / 2, y: d.y + 22, 'text-anchor': 'middle', class: 'why-tok' }, p.queryTokens[i]);
  });
  return svg;
}

// ---- 2. the soft lookup ----------------------------------------------------------------------

function buildLookup(ctx) {
  const { s, lang } = ctx;
  const p = PRESETS['cat-chase'];
  const notes = p.queryNotes[lang];
  const pick = h('div', { class: 'radio-list', role: 'radiogroup', 'aria-label': s('question') });
  const radios = p.queryTokens.map((tok, i) => {
    const input = h('input', { type: 'radio', name: 'why-query', value: String(i), onchange: () => ctx.set({ whyQuery: i }) });
    pick.append(h('label', { class: 'check' }, input, h('span', { text: s('qAsk', { tok, note: notes[i] }) })));
    return input;
  });
  const barsBox = h('div', { class: 'why-bars' });
  const softTitle = h('h4', { class: 'map-title' });
  const hardTitle = h('h4', { class: 'map-title', text: s('hardBars') });
  const softBox = h('div', {}, softTitle);
  const hardBox = h('div', {}, hardTitle);
  barsBox.append(softBox, hardBox);
  const soft = ctx.views.createBars(softBox, { color: '#3b528b' });
  const hard = ctx.views.createBars(hardBox, { color: '#8a5a00' });
  const note = h('p', { class: 'note', 'aria-live': 'polite' });
  const out = h('div', { class: 'why-output' });
  const el = section('lookup', ctx,
    h('p', { class: 'explain', text: s('p.shelf') }),
    h('p', { class: 'explain', text: s('p.soft') }),
    h('p', { class: 'explain', text: s('p.exam') }),
    h('h4', { class: 'map-title', text: s('tryIt') }),
    h('p', { class: 'explain', text: s('tryIntro') }),
    h('fieldset', { class: 'why-pick', 'data-group': 'inputs' }, h('legend', { text: s('question') }), pick),
    barsBox, note, out,
    h('p', { class: 'hint', text: s('hardNote') }));

  function draw(ctx) {
    const { state, views, engine } = ctx;
    const i = state.whyQuery;
    radios.forEach((r, k) => { r.checked = k === i; });
    const r = attendPreset(engine, 'cat-chase');
    const w = rowOf(r.weights, i);
    softTitle.textContent = s('softBars', { note: notes[i] });
    soft.update({ values: w, labels: p.keyTokens, domain: [0, 1], caption: softTitle.textContent, digits: 3 });
    // Hard lookup: the engine's one-hot at the argmax of this query's scaled scores.
    const oneHot = engine.hardAttention({ scores: [rowOf(r.scaled, i)] });
    hard.update({ values: rowOf(oneHot, 0), labels: p.keyTokens, domain: [0, 1], caption: s('hardBars'), digits: 0 });
    const best = w.indexOf(Math.max(...w));
    note.textContent = s('landsOn', { k: p.keyTokens[best], w: views.fmt(w[best], 3) });
    const feats = p.features[lang];
    out.replaceChildren(h('table', { class: 'data-table' },
      h('caption', { text: `${s('outputIs')} = Σ w · V` }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: '' }), ...feats.map((f) => h('th', { scope: 'col', text: f })))),
      h('tbody', {}, h('tr', {}, h('th', { scope: 'row', text: s('outputIs') }), ...rowOf(r.output, i).map((x) => h('td', { text: views.fmt(x, 3) }))))));
  }
  return { el, draw };
}

// ---- 3. self vs cross ------------------------------------------------------------------------

function buildSelfCross(ctx) {
  const { s, views, t } = ctx;
  const pCross = PRESETS['cat-fish'], pSelf = PRESETS['cat-chase'];
  const pCrossText = h('p', { class: 'explain' });
  const pSelfText = h('p', { class: 'explain' });
  const maps = h('div', { class: 'maps' });
  const mk = (title) => {
    const wrap = h('div', { class: 'map' }, h('h4', { class: 'map-title', text: title }));
    maps.append(wrap);
    return views.createHeatmap(wrap, { kind: 'sequential', strings: { showTable: t('showTable'), showHeatmap: t('showHeatmap') } });
  };
  const el = section('self-cross', ctx, pCrossText, pSelfText, h('p', { class: 'explain', text: s('p.both') }), maps);
  const crossMap = mk(s('crossMap'));
  const selfMap = mk(s('selfMap'));

  function draw(ctx) {
    const cross = attendPreset(ctx.engine, 'cat-fish');
    const self = attendPreset(ctx.engine, 'cat-chase');
    pCrossText.textContent = s('p.cross', { shape: `${cross.weights.rows}\u00a0×\u00a0${cross.weights.cols}` });
    pSelfText.textContent = s('p.self', { shape: `${self.weights.rows}\u00a0×\u00a0${self.weights.cols}` });
    crossMap.update({ matrix: cross.weights, rowLabels: pCross.queryTokens, colLabels: pCross.keyTokens, domain: [0, 1], caption: s('crossMap') });
    selfMap.update({ matrix: self.weights, rowLabels: pSelf.queryTokens, colLabels: pSelf.keyTokens, domain: [0, 1], caption: s('selfMap') });
  }
  return { el, draw };
}

// ---- 4. timeline -----------------------------------------------------------------------------

function buildTimeline(ctx) {
  const { s } = ctx;
  const items = [1, 2, 3, 4, 5, 6].map((k) => h('li', { class: 'tl-item' },
    h('span', { class: 'tl-when', text: s(`t${k}.when`) }),
    h('div', { class: 'tl-card' }, h('h4', { class: 'tl-what', text: s(`t${k}.what`) }), h('p', { text: s(`t${k}.body`) }))));
  const el = section('timeline', ctx, h('p', { class: 'explain', text: s('p.timeline') }), h('ol', { class: 'timeline' }, ...items));
  return { el, draw() {} };
}
