// Every string the position chapter shows, in English and Chinese.

export default {
  en: {
    intro:
      'Attention compares every token with every other one, and nothing in that comparison says where a token stands. Swap the words of a sentence and each token still meets the same partners: the numbers only move. Word order has to be added to the vectors, or to Q and K. This chapter shows the problem and three ways to fix it: sinusoidal encodings, learned encodings and RoPE.',
    errEngine: 'The engine could not compute this: {msg}',
    errInt: 'Please type a whole number from {min} to {max}.',
    sentenceA: 'Sentence A',
    sentenceB: 'Sentence B',
    addPE: 'Add sinusoidal position encodings to the token vectors',
    'shuffle.about':
      'Both sentences go through the same attention layer: each word carries its own vector (drawn from its text), and W_q, W_k, W_v are the same for both. d_model = 8.',
    'shuffle.question.off':
      'Without positions, are the scores of sentence B just the scores of sentence A put in another order?',
    'shuffle.question.on':
      'With sinusoidal encodings added, are the scores of sentence B just the scores of sentence A put in another order?',
    'opt.same': 'yes, the same numbers, reordered',
    'opt.differ': 'no, some numbers change',
    'shuffle.right.same':
      'Every score of B is a score of A, moved by the permutation below (largest difference {diff}).',
    'shuffle.right.differ':
      'The scores differ by up to {diff} from A’s reordered: the same words at other positions get other vectors.',
    'shuffle.wrong.same':
      'Every score of B is a score of A, moved by the permutation below (largest difference {diff}). Without positions a word’s vector is the same wherever it stands.',
    'shuffle.wrong.differ':
      'The scores differ by up to {diff} from A’s reordered: the encoding added to a word depends on its position.',
    notPermutation: 'Sentence B is not a reordering of sentence A, so there is no permutation to compare with.',
    permLine: 'B’s word i is A’s word perm(i): {list}.',
    verdictSame:
      'Scores: a permutation of A’s (largest difference {diff}). Outputs: A’s rows permuted (largest difference {out}).',
    verdictDiffer: 'Scores: not a permutation of A’s (they differ by up to {diff}). Outputs differ by up to {out}.',
    mapScoresA: 'Scaled scores, A',
    mapScoresB: 'Scaled scores, B',
    mapOutA: 'Output, A',
    mapOutB: 'Output, B',
    n: 'Positions n',
    d: 'Dimensions d',
    'sin.about':
      'PE[p, 2i] = sin(p / 10000^(2i/d)) and PE[p, 2i+1] = cos(p / 10000^(2i/d)). Each pair of columns is a wave with its own wavelength, from 2π in the first pair to 2π·10000^((d−2)/d) in the last. A position is the set of phases of all the waves, like the hands of a clock, and a shift by k positions turns each pair by a fixed angle, whatever the start.',
    mapSin: 'Sinusoidal encodings (n = {n}, d = {d})',
    'rope.about':
      'RoPE does not add anything to the token vectors. It rotates each pair of numbers of q and of k by an angle proportional to the position: q at position m by m·θ_i, k at position n by n·θ_i. The dot product of two rotated vectors depends only on the difference of their angles, so q_m · k_n depends only on m − n.',
    ropeD: 'Dimensions of q and k',
    m1: 'm (first pair)',
    n1: 'n (first pair)',
    m2: 'm (second pair)',
    n2: 'n (second pair)',
    pairLine: 'q_{m} · k_{n} = {v}   (m − n = {o})',
    pairsSame: 'Same offset, same number (difference {diff}).',
    pairsDiffer: 'Different offsets: m − n = {o1} and {o2}.',
    hideTable: 'Hide table',
    chartCaption: 'q_m · k_n against m − n, for three fixed n',
    xLabel: 'm − n',
    yLabel: 'q_m · k_n',
    seriesN: 'n = {n}',
    chartNote:
      'Each series fixes n and moves m (n = 7 is drawn as a line). Wherever two series have the same m − n they give the same number: the points of n = 0 and n = 15 sit on the line of n = 7.',
    'learned.about':
      'A learned position table is a matrix P of shape (max_len, d_model), one row per position, trained with the rest of the model and added to the token vectors just like the sinusoidal table. Before training it holds small random numbers, such as the ones below drawn by the engine with standard deviation 0.02; training shapes it into whatever helps the task. BERT and GPT-2 use learned positions. Their limit: a position beyond max_len has no row, whereas sinusoidal encodings and RoPE can be computed for any position.',
    mapLearned: 'A learned table before training (max_len = {n}, d = {d})',
    'learned.compare':
      'Sinusoidal: fixed formula, no parameters, any position. Learned: max_len × d_model parameters, only positions seen in training. RoPE: no parameters, acts on Q and K, so the score sees the offset m − n directly.',
  },
  zh: {
    intro:
      '注意力让每个词和其他每个词比较，可这种比较里没有任何信息说明一个词在哪个位置。把一句话里的词调换顺序，每个词和哪些词比较都没有变，数值只是换了位置。语序必须另外加进向量里，或者加到 Q 和 K 上。本章先展示这个问题，再看三种补救办法：正弦位置编码、可学习的位置编码和旋转位置编码（RoPE）。',
    errEngine: '引擎无法处理：{msg}',
    errInt: '请输入 {min} 到 {max} 之间的整数。',
    sentenceA: '句子 A',
    sentenceB: '句子 B',
    addPE: '在词向量上加上正弦位置编码',
    'shuffle.about':
      '两句话经过同一个注意力层：每个词自带向量（根据词本身生成），两句话用的 W_q、W_k、W_v 也完全相同。d_model = 8。',
    'shuffle.question.off': '不加位置信息时，句子 B 的分数是不是只是把句子 A 的分数换了个顺序？',
    'shuffle.question.on': '加上正弦位置编码后，句子 B 的分数是不是只是把句子 A 的分数换了个顺序？',
    'opt.same': '是，数值相同，只是顺序变了',
    'opt.differ': '不是，有些数值变了',
    'shuffle.right.same': 'B 的每个分数都是 A 的某个分数，按下面的排列移了位置（最大差值 {diff}）。',
    'shuffle.right.differ': '与重新排列后的 A 相比，分数最多相差 {diff}：同一个词换了位置，向量也就不同了。',
    'shuffle.wrong.same':
      'B 的每个分数都是 A 的某个分数，按下面的排列移了位置（最大差值 {diff}）。没有位置信息时，一个词无论在哪里，向量都一样。',
    'shuffle.wrong.differ': '与重新排列后的 A 相比，分数最多相差 {diff}：加到词向量上的编码取决于词所在的位置。',
    notPermutation: '句子 B 不是句子 A 调换顺序得到的，没有可以比较的排列。',
    permLine: 'B 的第 i 个词是 A 的第 perm(i) 个词：{list}。',
    verdictSame: '分数：正是 A 的分数的一个排列（最大差值 {diff}）。输出：A 的各行换了顺序（最大差值 {out}）。',
    verdictDiffer: '分数：不再是 A 的分数的排列（最多相差 {diff}）。输出最多相差 {out}。',
    mapScoresA: '缩放后的分数：A',
    mapScoresB: '缩放后的分数：B',
    mapOutA: '输出：A',
    mapOutB: '输出：B',
    n: '位置数 n',
    d: '维度 d',
    'sin.about':
      'PE[p, 2i] = sin(p / 10000^(2i/d))，PE[p, 2i+1] = cos(p / 10000^(2i/d))。每两列是一个波，各有自己的波长，从第一对的 2π 一直到最后一对的 2π·10000^((d−2)/d)。一个位置就是所有波的相位组合，好比钟表上的几根指针；位置平移 k，每一对都转过一个固定的角度，与起点无关。',
    mapSin: '正弦位置编码（n = {n}，d = {d}）',
    'rope.about':
      'RoPE 不往词向量上加任何东西，而是把 q 和 k 的每一对数旋转一个与位置成正比的角度：位置 m 的 q 转 m·θ_i，位置 n 的 k 转 n·θ_i。两个旋转后的向量做点积，结果只取决于两者的角度差，所以 q_m · k_n 只取决于 m − n。',
    ropeD: 'q 和 k 的维度',
    m1: 'm（第一组）',
    n1: 'n（第一组）',
    m2: 'm（第二组）',
    n2: 'n（第二组）',
    pairLine: 'q_{m} · k_{n} = {v}（m − n = {o}）',
    pairsSame: '偏移相同，结果相同（差值 {diff}）。',
    pairsDiffer: '偏移不同：m − n 分别为 {o1} 和 {o2}。',
    hideTable: '隐藏表格',
    chartCaption: 'q_m · k_n 随 m − n 的变化（三个固定的 n）',
    xLabel: 'm − n',
    yLabel: 'q_m · k_n',
    seriesN: 'n = {n}',
    chartNote:
      '每组数据固定 n、改变 m（n = 7 画成折线）。只要 m − n 相同，数值就相同：n = 0 和 n = 15 的点都正好落在 n = 7 的折线上。',
    'learned.about':
      '可学习的位置编码是一个形状为 (max_len, d_model) 的矩阵 P，每个位置一行，和模型其余部分一起训练，再像正弦编码一样加到词向量上。训练之前它只是一些很小的随机数，比如下面这些由引擎按标准差 0.02 抽取的数；训练会把它塑造成对任务有用的样子。BERT 和 GPT-2 用的就是可学习的位置编码。它的局限是：超过 max_len 的位置没有对应的行，而正弦编码和 RoPE 对任何位置都能算出来。',
    mapLearned: '训练前的可学习位置表（max_len = {n}，d = {d}）',
    'learned.compare':
      '正弦编码：固定公式，没有参数，任何位置都能算。可学习编码：max_len × d_model 个参数，只认识训练中见过的位置。RoPE：没有参数，作用在 Q 和 K 上，分数直接感知偏移 m − n。',
  },
};
