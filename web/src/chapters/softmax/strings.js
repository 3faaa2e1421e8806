// Every string the softmax chapter shows, in English and Chinese: { en: { key: text }, zh: { ... } }.
// {name} in a text is filled in by the chapter (i18n.js lookup).

export default {
  en: {
    intro:
      'Scores can be any real numbers. Softmax turns a row of them into weights that are non-negative and add up to 1. This chapter is about that one step: how it breaks, how to keep it from breaking, and how to make it sharper or softer.',
    scores: 'Scores (comma-separated)',
    scoresHint:
      'The default row is made up: an article on attention invented these scores for The, cat, eats, fish while writing 猫. They are not this page’s vectors: the Pipeline chapter’s translation example computes other scores for 猫.',
    errCount: 'Type between 1 and {max} numbers, separated by commas.',
    errNumber: 'Item {k} is not a number.',
    reset: 'Back to 2.6, 1.2, 6.1, 2.0',
    errEngine: 'The engine could not process these scores: {msg}',

    'h.overflow': 'Overflow: why we subtract the max',
    'p.overflow1':
      'In float32, exp(x) overflows to +∞ once x passes about 88.72. The textbook formula then divides ∞ by ∞ and gets NaN (not a number), or divides a finite number by ∞ and gets 0.',
    'p.overflow2':
      'Adding the same number to every score does not change softmax, so the stable version first subtracts the row’s largest score: the biggest exponential becomes e⁰ = 1 and nothing can overflow. Push the scores up with the slider and watch the naive column break while the stable one does not move.',
    shift: 'Add to every score',
    colScore: 'score',
    colStable: 'stable softmax',
    colNaive: 'naive softmax',
    entropy: 'entropy',
    overflowFlag: 'exp overflows',
    underflowFlag: 'exp underflows to 0',
    naiveUnderflow:
      'Every exponential underflowed to 0 (every score is below about −104), so the naive formula divided 0 by 0.',
    naiveSubnormal:
      'Some exponentials are so small that float32 keeps only a few digits of them (subnormal) or rounds them to 0.',
    naiveBroken: 'The naive softmax broke: {n} of {m} weights are NaN.',
    naiveOthers: 'The finite ones (marked ≠) are wrong too.',
    stableSame: 'The stable column still shows the weights of the unshifted scores (checked to 4 decimals).',
    naiveZeros: 'The naive softmax is wrong: {n} of {m} weights differ from the stable ones by more than 0.0001.',
    naiveOk: 'Both agree here: no score is large enough to overflow. Keep pushing.',
    driftNote:
      'Push the other way and the naive exponentials shrink instead. Once a score is below about −87.3, its exponential falls into float32’s subnormal range and loses digits, so the naive weights drift. Once even the largest score is below about −104, every exponential underflows to exactly 0 and the naive formula computes 0 / 0 = NaN: the slider’s −120 stop shows it. The stable column never changes.',
    mathNaive: 'naive:',
    mathStable: 'stable:',

    'h.temperature': 'Temperature: sharper or softer',
    'p.temperature':
      'Divide every score by a temperature T before softmax. T < 1 stretches the gaps between scores, and the weights crowd onto the top score; T > 1 shrinks the gaps, and the weights move toward uniform. The entropy −Σ w ln w (in nats, as in step 4 of the pipeline) measures the spread: 0 when one key takes everything, ln n when all n keys get the same.',
    'p.temperature2':
      'The √d_k in scaled dot-product attention is exactly such a temperature, chosen automatically from the size of the vectors (see the √d_k chapter). This T is the same one the pipeline uses.',
    temperature: 'Temperature T',
    'cooler.q': 'Lower T from 1 to 0.1. What happens to the largest weight?',
    'cooler.up': 'it grows toward 1',
    'cooler.same': 'it stays the same',
    'cooler.down': 'it shrinks toward an even share',
    'cooler.up.why':
      'Dividing by 0.1 makes every gap between the scores ten times wider, so the top score takes even more.',
    'cooler.same.why':
      'There is nothing to sharpen here: either all the scores are equal, or the top one already has all the weight in float32.',
    'cooler.down.why': 'A lower T can only move weight toward the top scores; see the engine’s numbers below.',
    'cooler.reveal': 'The engine: {k} gets {w1} at T = 1 and {w01} at T = 0.1.',
    weightsAt: 'Weights at T = {T}',
    entropyLine: 'Entropy {h} nats; an even split over {n} keys would give {hmax} (both from the engine).',

    'h.budget': 'A budget that always sums to 1',
    'p.budget':
      'Think of softmax as sharing out a budget of exactly 1 among the keys. A key can only gain share by taking it from the others: raise one score and every other weight shrinks. High scores take the bulk and low scores keep a sliver. In exact arithmetic that sliver is never zero, but float32 has a floor: once a score is more than about 104 below the top after dividing by T, its exponential underflows and its weight is exactly 0. At T = 0.1 a gap of 10.4 in the scores is enough; try it with the buttons.',
    nudge: 'Nudge a score',
    raise: 'Raise {k} by 1',
    lower: 'Lower {k} by 1',
    budgetBar: 'Softmax weights as shares of 1 (T = {T})',
    sumCheck: 'Check: the shares add up to {sum}. (Added on the page from the engine’s weights.)',

    'h.hard-soft': 'Hard, soft, and Gumbel-softmax in between',
    'p.hard':
      'Hard attention picks one position: a one-hot vector at the highest score. That is what an ordinary lookup does, but it has no useful gradient — nudge a score and nothing changes, until the top swaps and everything jumps.',
    'p.soft':
      'Soft attention (softmax) blends every position and is differentiable everywhere, which is why it became the standard.',
    'p.gumbel':
      'Gumbel-softmax sits in between: add random Gumbel noise to the scores and take a softmax at a temperature τ. With a small τ each draw is almost one-hot, yet it is still a softmax, so gradients flow. Across many draws each position wins about as often as its softmax weight at temperature 1, whatever τ is: τ changes how sharp a draw is, not which position is largest. Draw again to see different samples from the same seeded generator.',
    'gumbel.sameT': 'The soft row below is that softmax at T = 1, so it is what the winners follow over many draws.',
    'gumbel.otherT':
      'The soft row below uses the shared temperature T = {T} (step 3), so it is not what the winners follow: set T = 1 to compare like with like.',
    tau: 'Gumbel temperature τ',
    seed: 'seed {seed}',
    redraw: 'Draw again',
    softRow: 'soft (softmax)',
    hardRow: 'hard (argmax)',
    gumbelRow: 'Gumbel sample {k}',
    picks: 'picks {k}',
    segmentKey: 'Key: the pattern and colour of each word',
    freqRegion: 'How often each key wins',
    freqTitle: 'Winners of {n} Gumbel draws (seed {seed})',
    freqWeights: 'softmax weight at T = 1',
    freqShares: 'share of the {n} draws won',
    colKey: 'key',
    colWins: 'wins (of {n})',
    colShare: 'share won',
    freqNote:
      'Each key wins about as often as its softmax weight at T = 1, whatever τ is. Over {n} draws the shares are off by at most {gap}: sampling noise, which shrinks as the draws grow.',

    'h.hand-check': 'By hand first: work out a softmax',
    'p.hand1':
      'A widely shared explanation of attention makes up the scores [2.6, 1.2, 6.1, 2] for the source words The, cat, eats, fish while writing 猫, and prints the weights [0.2, 0.06, 0.1, 0.1]. Those add up to 0.46, so they cannot be a softmax. (The scores are that article’s invention, not this page’s vectors: with them 猫 would look mostly at “eats”.)',
    'p.hand2':
      'Work it out yourself: take the exponential of each score, add them up, divide each by the sum. Type your weights below and the engine will check them (plain softmax of the scores above, T = 1).',
    guessFor: 'weight {k}',
    check: 'Check',
    handBars: 'The scores s to turn into weights by hand',
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
    intro:
      '分数可以是任意实数。softmax 把一行分数变成一组非负、加起来等于 1 的权重。本章只讲这一步：它在什么情况下会算错，怎样避免，以及怎样让权重更尖锐或更平缓。',
    scores: '分数（用逗号分隔）',
    scoresHint:
      '默认这行分数是编出来的：一篇讲注意力的文章为生成“猫”时的 The、cat、eats、fish 随手给了这几个分数。它们并非本页的向量算出来的；“注意力流水线”一章的翻译示例给“猫”算出的是另一组分数。',
    errCount: '请输入 1 到 {max} 个数，用逗号分隔。',
    errNumber: '第 {k} 项不是数字。',
    reset: '恢复为 2.6, 1.2, 6.1, 2.0',
    errEngine: '引擎无法处理这些分数：{msg}',

    'h.overflow': '溢出：为什么要先减去最大值',
    'p.overflow1':
      '在 float32 里，x 一旦超过约 88.72，exp(x) 就溢出成 +∞。课本上的公式接着拿 ∞ 除以 ∞，得到 NaN（非数）；或者拿有限数除以 ∞，得到 0。',
    'p.overflow2':
      '给每个分数加上同一个数，softmax 的结果不变。所以稳定版先减去这一行的最大分数：最大的指数项变成 e⁰ = 1，哪一项都不会溢出。拖动滑块把分数整体抬高，看朴素那一列崩掉，稳定那一列纹丝不动。',
    shift: '每个分数都加上',
    colScore: '分数',
    colStable: '稳定 softmax',
    colNaive: '朴素 softmax',
    entropy: '熵',
    overflowFlag: 'exp 溢出',
    underflowFlag: 'exp 下溢为 0',
    naiveUnderflow: '所有指数项都下溢成了 0（每个分数都低于约 −104），朴素公式于是算了 0 除以 0。',
    naiveSubnormal: '有些指数项小到 float32 只能保留几位有效数字（次正规数），甚至被舍入成 0。',
    naiveBroken: '朴素 softmax 算崩了：{m} 个权重里有 {n} 个是 NaN。',
    naiveOthers: '剩下那些有限值（标有 ≠）也是错的。',
    stableSame: '稳定版那一列仍是平移之前的权重（核对到小数点后 4 位）。',
    naiveZeros: '朴素 softmax 算错了：{m} 个权重里有 {n} 个与稳定版相差超过 0.0001。',
    naiveOk: '目前两者一致：还没有哪个分数大到会溢出。继续往上推。',
    driftNote:
      '往负方向推，朴素版的指数项反而会越来越小。分数一旦低于约 −87.3，它的指数就落进 float32 的次正规数范围，有效数字越来越少，朴素版的权重开始跑偏；等到连最大的分数都低于约 −104，所有指数项都下溢成 0，朴素公式算的是 0 / 0 = NaN。把滑块拖到 −120 就能看到。稳定版那一列始终不变。',
    mathNaive: '朴素：',
    mathStable: '稳定：',

    'h.temperature': '温度：更尖锐还是更平缓',
    'p.temperature':
      'softmax 之前把每个分数都除以温度 T。T < 1 拉大分数之间的差距，权重向最高分集中；T > 1 缩小差距，权重趋于均匀。熵 −Σ w ln w（单位为奈特，见“注意力流水线”第 4 步）衡量权重摊开的程度：一个 Key 拿走全部时为 0，n 个 Key 平分时为 ln n。',
    'p.temperature2':
      '缩放点积注意力里的 √d_k 正是这样一个温度，只不过它按向量的维度自动设定（见“为什么要除以 √d_k”一章）。这里的 T 和“注意力流水线”一章用的是同一个。',
    temperature: '温度 T',
    'cooler.q': '把 T 从 1 降到 0.1，最大的那个权重会怎样？',
    'cooler.up': '变大，趋近 1',
    'cooler.same': '不变',
    'cooler.down': '变小，趋于平分',
    'cooler.up.why': '除以 0.1，分数之间的差距都放大到 10 倍，最高分拿走的份额就更多了。',
    'cooler.same.why': '这里没有什么可以变得更尖锐：要么所有分数都相等，要么在 float32 里最高分已经拿走了全部权重。',
    'cooler.down.why': '降低 T 只会把权重推向最高的分数，请看下面引擎算出的数。',
    'cooler.reveal': '引擎算出：{k} 在 T = 1 时得到 {w1}，在 T = 0.1 时得到 {w01}。',
    weightsAt: 'T = {T} 时的权重',
    entropyLine: '熵为 {h} 奈特；{n} 个 Key 平分时是 {hmax}（两者都由引擎算出）。',

    'h.budget': '永远加起来等于 1 的预算',
    'p.budget':
      '可以把 softmax 看成在各个 Key 之间分一笔总额恰好为 1 的预算。某个 Key 想多分，只能从别人那里拿：抬高一个分数，其余所有权重都会变小。高分拿走大头，低分只剩一点点。按精确的算术，这一点点永远不会是零；但 float32 有下限：除以 T 之后，一个分数一旦比最高分低出约 104 以上，它的指数就会下溢，权重恰好为 0。T = 0.1 时，分数相差 10.4 就够了，可以用下面的按钮试试。',
    nudge: '微调分数',
    raise: '把 {k} 加 1',
    lower: '把 {k} 减 1',
    budgetBar: 'softmax 权重在总额 1 中的份额（T = {T}）',
    sumCheck: '核对：各份额加起来是 {sum}。（由页面把引擎给出的权重相加得到。）',

    'h.hard-soft': '硬注意力、软注意力，以及介于两者之间的 Gumbel-softmax',
    'p.hard':
      '硬注意力只挑一个位置：在最高分处取 1 的独热向量。这就是普通查找的做法，可它没有可用的梯度——稍微改动分数，结果纹丝不动；等到第一名易主，结果又一下子跳过去。',
    'p.soft': '软注意力（softmax）把所有位置按权重混合，处处可导，所以成了主流。',
    'p.gumbel':
      'Gumbel-softmax 介于两者之间：给分数加上随机的 Gumbel 噪声，再以温度 τ 做 softmax。τ 很小时每次抽样都接近独热，但它本质上仍是 softmax，梯度照样能传。抽很多次的话，不管 τ 取多少，每个位置胜出的频率都大约等于它在温度为 1 时的 softmax 权重：τ 只改变每次抽样有多尖锐，不改变哪个位置最大。点“再抽一次”，看看同一个带种子的随机数生成器给出的其他样本。',
    'gumbel.sameT': '下面“软”那一行正是 T = 1 时的 softmax：抽样次数多了，各位置胜出的频率就会接近它。',
    'gumbel.otherT':
      '下面“软”那一行用的是共享的温度 T = {T}（见第 3 步），并不是胜出频率所对应的分布；把 T 调回 1，才是在同一个基准上比较。',
    tau: 'Gumbel 温度 τ',
    seed: '随机种子 {seed}',
    redraw: '再抽一次',
    softRow: '软（softmax）',
    hardRow: '硬（argmax）',
    gumbelRow: 'Gumbel 样本 {k}',
    picks: '选中 {k}',
    segmentKey: '图例：每个词的花纹和颜色',
    freqRegion: '每个位置胜出的频率',
    freqTitle: '{n} 次 Gumbel 抽样中的胜出者（随机种子 {seed}）',
    freqWeights: 'T = 1 时的 softmax 权重',
    freqShares: '在 {n} 次抽样中胜出的比例',
    colKey: '位置',
    colWins: '胜出次数（共 {n} 次）',
    colShare: '胜出比例',
    freqNote:
      '不管 τ 取多少，每个位置胜出的频率都接近它在 T = 1 时的 softmax 权重。{n} 次抽样下，两者最多相差 {gap}：这是抽样误差，抽得越多就越小。',

    'h.hand-check': '先动手：自己算一次 softmax',
    'p.hand1':
      '一篇流传很广的注意力讲解里，为生成“猫”时的源句 The、cat、eats、fish 编了一组分数 [2.6, 1.2, 6.1, 2]，给出的权重却是 [0.2, 0.06, 0.1, 0.1]。这组数加起来只有 0.46，不可能是 softmax 的结果。（这组分数是那篇文章自己编的，并非本页的向量算出来的：按它，“猫”主要会看向 eats。）',
    'p.hand2':
      '自己算一遍：对每个分数取指数，全部加起来，再用每一项除以总和。把你的权重填在下面，引擎会帮你核对（对上面这行分数做普通 softmax，T = 1）。',
    guessFor: '权重 {k}',
    check: '核对',
    handBars: '要亲手变成权重的分数 s',
    usePrinted: '试试文章给出的权重',
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
