// The start page's strings, in English and Chinese. about.<chapter id> is a chapter's line on the
// path (a chapter without one shows the first sentence of its lead).

export default {
  en: {
    intro:
      'Attention is the step that lets a model decide, for each word it writes, which of the words it has read matter now. This tutorial builds it up one piece at a time, and every number you see is computed live by the engine in your browser. Take the chapters in order: each one uses what the one before explained.',
    errEngine: 'The engine could not draw this page: {msg}',
    geoTitle: 'Writing 猫 (“cat”), which English word should the model look at?',
    geoLead:
      'The query q asks, each key k offers. The score of a key is q·k: the length of its shadow on q (dashed) times the length of q. Softmax turns the scores into weights that sum to 1. Drag the arrows.',
    pathTitle: 'The path',
    begin: 'Begin: {n}. {title}',
    resume: 'Continue: {n}. {title}',
    review: 'Start again: {n}. {title}',
    progressNone:
      'Each chapter asks you to predict a result before the engine shows it. You have not answered any question yet.',
    progress: 'You have answered {done} of {total} questions; {right} of your answers were right.',
    privacy: 'Your answers are kept in this browser only (localStorage) and are never sent anywhere.',
    clear: 'Forget my answers',
    chapterProgress: '{done} of {total} answered',
    chapterDone: 'all {total} answered',
    chapterNone: 'no question yet',
    chapterNew: 'not started',
    'about.why': 'The problem attention solves: a fixed-size summary forgets; a lookup over every word does not.',
    'about.pipeline': 'Scores, scaling, masking, softmax and the weighted sum, one step at a time on a small example.',
    'about.masks': 'Padding, causal and hand-drawn masks, and what happens when the fill is not −∞.',
    'about.softmax':
      'Turning scores into weights: working it out by hand, overflow, temperature, hard and soft attention.',
    'about.scaling': 'Why the scores are divided by √d_k, measured on random vectors.',
    'about.score-functions': 'Four ways to compare a query with a key, and what each costs.',
    'about.multihead': 'Where Q, K and V come from, and why several heads see more than one.',
    'about.position': 'Attention cannot see word order by itself; position encodings and RoPE give it back.',
    'about.block':
      'The whole Transformer layer: residuals, LayerNorm, feed-forward and cross-attention, every number live.',
    'about.long': 'Long sequences: the n² cost, and how flash attention avoids storing it.',
    'about.debug':
      'Seven common attention bugs switched on one at a time, the symptom each leaves in the numbers, and the monitors that catch them.',
    'about.practice': 'The example on screen as NumPy and PyTorch code that prints the same numbers.',
    'about.playground': 'Train a tiny attention-only transformer in the browser and watch its heads learn.',
    'about.seq2seq':
      'Train two RNN encoder–decoders side by side, without and with attention, and watch the fixed vector fail on long inputs while the alignment forms.',
    'about.model':
      'Type a sentence and see every head of a real GPT-2 at work: its guess, one head stage by stage, the kinds of head, and what switching heads off does.',
  },
  zh: {
    intro:
      '模型每写一个词，都要判断它读过的那些词里，此刻哪些最要紧；注意力就是做这个判断的那一步。本教程一块一块地把它搭起来，你看到的每个数都由浏览器里的引擎现场算出。请按顺序阅读：每一章都会用到前一章讲过的内容。',
    errEngine: '引擎无法绘制本页：{msg}',
    geoTitle: '要写出“猫”，模型该看哪个英文词？',
    geoLead:
      'Query q 提出要找什么，每个 Key k 说明自己有什么。一个 Key 的分数是 q·k：它在 q 上的投影（虚线）的长度乘以 q 的长度。softmax 再把分数变成总和为 1 的注意力权重。拖动箭头试试。',
    pathTitle: '学习路线',
    begin: '开始：{n}. {title}',
    resume: '继续：{n}. {title}',
    review: '从头再来：{n}. {title}',
    progressNone: '每一章都会先请你猜一个结果，再让引擎揭晓答案。你还没有回答过任何问题。',
    progress: '你已回答 {total} 道题中的 {done} 道，其中答对 {right} 道。',
    privacy: '你的答题记录只保存在这个浏览器里（localStorage），不会发送到任何地方。',
    clear: '清除答题记录',
    chapterProgress: '已答 {done}/{total}',
    chapterDone: '{total} 道题全部答完',
    chapterNone: '暂无题目',
    chapterNew: '尚未开始',
    'about.why': '注意力要解决的问题：压缩成固定长度的摘要会遗忘，而在所有词上做一次查找不会。',
    'about.pipeline': '打分、缩放、掩码、softmax、加权求和，在一个小例子上一步一步算。',
    'about.masks': '填充掩码、因果掩码、自己画的掩码，以及填充值不是 −∞ 时会出什么事。',
    'about.softmax': '把分数变成权重：先亲手算一遍，再看溢出、温度、硬注意力和软注意力。',
    'about.scaling': '分数为什么要除以 √d_k：用随机向量实际测一测。',
    'about.score-functions': '比较 Query 和 Key 的四种打分方法，以及各自的计算代价。',
    'about.multihead': 'Q、K、V 从哪里来，以及为什么多个头比一个头看得更多。',
    'about.position': '注意力本身看不出词序；位置编码和 RoPE 把词序补回来。',
    'about.block': '完整的 Transformer 层：残差、LayerNorm、前馈网络和交叉注意力，每个数都实时计算。',
    'about.long': '长序列：n² 的代价，以及 flash attention 如何不必把它存下来。',
    'about.debug': '逐个打开七种常见的注意力错误，看每种错误在数字上留下的症状，以及能发现它们的监测量。',
    'about.practice': '把屏幕上的示例写成 NumPy 和 PyTorch 代码，打印出的数与页面一致。',
    'about.playground': '在浏览器里训练一个只有注意力层的小 Transformer，看它的各个头如何学会分工。',
    'about.seq2seq':
      '并排训练两个 RNN 编码器–解码器，一个没有注意力、一个有，看固定向量在长输入上失效，看对齐矩阵逐渐成形。',
    'about.model':
      '输入一句话，看一个真正的 GPT-2 的每一个头如何工作：它的猜测、一个头的各个阶段、头的类型，以及关掉一些头会怎样。',
  },
};
