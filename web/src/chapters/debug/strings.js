// Every string the debugging chapter shows, in English and Chinese.

export default {
  en: {
    intro:
      'Attention code that runs is not attention code that works: most bugs give numbers of the right shape and no error. This chapter breaks one running example in seven common ways, side by side with the healthy result, and shows the monitors that catch each break. Every number is the engine’s: the bugs are computed as the bugged code computes them.',
    errEngine: 'The engine could not compute this: {msg}',
    example: 'The running example',
    exampleAbout:
      'A decoder’s self-attention: each token may look at itself and the tokens before it (a causal mask), and <pad> tokens are padding, never attended to. Each token’s q, k and v are drawn by the engine from its text, with unit-variance entries; the queries are then multiplied by σ.',
    tokens: 'Tokens (<pad> = padding)',
    dk: 'd_k (size of q and k)',
    heads: 'Heads h (d_model = h · d_k)',
    scale: 'Logit scale σ (queries × σ)',
    dModelLine: 'd_model = {h} × {dk} = {d}.',

    'predict.about':
      'Before the checklist, one question. The mask blocks a key by setting its score to −∞, so that exp(−∞) = 0. A common slip is to fill with 0 instead.',
    'predict.q': 'With the 0 fill, what weight will “{tok}” give the <pad> keys after it?',
    'predict.q.none': 'The example has no <pad> after a real token: add one to the tokens to ask this question.',
    'ans.zero': 'still exactly 0',
    'ans.leak': 'some weight, as if their score were 0',
    'ans.nan': 'NaN',
    'ans.all': 'nearly all of it',
    'predict.right':
      'With the 0 fill “{tok}” gives {w} of its weight to padding. A score of 0 is an ordinary score, and exp(0) = 1 is not 0.',
    'predict.wrong':
      'The engine says: with the 0 fill “{tok}” gives {w} of its weight to padding. A score of 0 is an ordinary score, and exp(0) = 1 is not 0.',
    mapHealthy: 'Healthy weights (fill −∞)',
    mapZero: 'Weights with the 0 fill',

    'check.about':
      'Switch on one bug at a time. The second heatmap is the example with that bug, computed as the bugged code computes it; the symptom below is read from the engine’s numbers.',
    bugs: 'Bugs',
    'bug.none': 'No bug',
    'bug.missing-scale': 'The scale is missing',
    'bug.zero-fill': 'Blocked scores filled with 0, not −∞',
    'bug.reversed-causal': 'The causal mask is reversed',
    'bug.wrong-axis': 'Softmax over the wrong axis',
    'bug.mask-after-softmax': 'The mask is applied after softmax',
    'bug.no-max-subtraction': 'No max subtraction in softmax',
    'bug.scale-by-d-model': 'Scaled by √d_model, not √d_k',
    'tip.missing-scale': '(raise d_k)',
    'tip.no-max-subtraction': '(raise σ)',
    'tip.scale-by-d-model': '(more heads)',
    codeLabel: 'The bug in code',
    mapBugged: 'Weights with the bug: {bug}',
    mapBuggedNone: 'Weights (no bug switched on)',
    symptom: 'Symptom',
    'sym.none':
      'Healthy: every row sums to 1, blocked keys get exactly 0, and the logits spread with a standard deviation of {std}.',
    'sym.missing.std':
      'The logits spread with a standard deviation of {sb} instead of {sh}: QKᵀ grows like √d_k when nothing divides it.',
    'sym.missing.sat':
      '{k} of {n} rows give more than 0.99 of their weight to one key (healthy: {kh}). Softmax is saturated in those rows: its gradient there is almost 0, and training stalls.',
    'sym.missing.sharper':
      'No row gives more than 0.99 of its weight to one key yet, but the rows are sharper than healthy: over the {n} rows with two keys or more, the mean entropy is {eb} instead of {eh}, and a row’s largest weight is {wb} instead of {wh} on average. Raise d_k and they saturate: softmax’s gradient goes to 0, and training stalls.',
    'sym.missing.one':
      'With d_k = 1, √d_k = 1: forgetting to divide by it changes nothing here. Raise d_k to see the bug.',
    'sym.missing.finite':
      'The largest logit is {max}. This softmax subtracts the row max, so the numbers stay finite; raise d_k further and code that also skips the max subtraction overflows past 88.72.',
    'sym.missing.nan':
      'The largest logit is {max}, past 88.72: this softmax subtracts the row max and stays finite, but code that also skips it gets exp(x) = ∞ and NaN.',
    'sym.zero.pad': '“{tok}” gives {w} of its weight to the <pad> keys after it. Healthy: exactly 0.',
    'sym.zero.nopad': 'No <pad> follows a real token, so no padding can leak here: add <pad> to the tokens.',
    'sym.zero.future':
      '“{tok}” gives {w} of its weight to the keys after it: the future leaks too. Healthy: exactly 0.',
    'sym.rev.future': '“{tok}” gives {w} of its weight to keys after it, above the diagonal. Healthy: exactly 0.',
    'sym.rev.self': '“{tok}” may only look at itself and what follows, so it gives {w} of its weight to itself.',
    'sym.axis':
      'Each column with an allowed key sums to 1 (column sums {cols}), and the rows do not (row sums {rows}).',
    'sym.after': 'The rows no longer sum to 1: {rows}.',
    'sym.after.first':
      '“{tok}” keeps only {w}: the weight the softmax gave to the future keys was thrown away, not moved to the keys it may see.',
    'sym.nomax.same':
      'No visible change: the largest logit is {max}, below 88.72, so exp does not overflow. Raise σ to 50 and look again.',
    'sym.nomax.zero':
      'Rows of zero weights: the largest logit is {max}, so each exponential still fits in float32, but their sum does not, and a finite number divided by ∞ is 0. The rows no longer add up to 1, and their outputs are 0. The healthy softmax subtracts the row max first and is unaffected.',
    'sym.nomax.nan':
      'NaN weights: {k} of {n}. The largest logit is {max}, past 88.72, so exp overflows to ∞ and ∞ / ∞ = NaN. The healthy softmax subtracts the row max first, and the same rows come out finite.',
    'sym.dmodel.std':
      'The scores are divided by √{dModel} instead of √{dk}: the logits spread with a standard deviation of {sb} instead of {sh}.',
    'sym.dmodel.flat':
      'The weights are too flat: “{tok}” has an entropy of {e}, close to the maximum ln n = {max} of an even spread (healthy: {eh}).',

    monBug: 'Bug switched on',
    'h.explanation': '4. Attention weights are not an explanation',
    'mon.about':
      'Two monitors worth keeping on any attention layer, for the bug switched on (here or in the checklist). The entropy −Σ w ln w of a row is at most ln n, reached when its n allowed keys share the weight evenly: a row near ln n no longer picks anything. The logits softmax sees should have a mean near 0 and a standard deviation near 1 when q and k have unit-variance entries (σ = 1).',
    monCaption: 'Per query: entropy against its maximum, and row sums ({bug})',
    'col.query': 'Query',
    'col.eh': 'Entropy, healthy',
    'col.eb': 'Entropy, with the bug',
    'col.max': 'Maximum ln n',
    'col.sh': 'Row sum, healthy',
    'col.sb': 'Row sum, with the bug',
    'col.leak': 'Weight on blocked keys, with the bug',
    'col.flag': 'Reading',
    'flag.uniform': 'near uniform',
    'flag.peaked': 'one key',
    'flag.sharp': 'nearly one key',
    'flag.one': 'one key allowed',
    'flag.nan': 'NaN',
    'flag.ok': '',
    logitCaption: 'The logits softmax sees, over the allowed cells',
    'col.what': 'Run',
    'col.mean': 'Mean',
    'col.std': 'Standard deviation',
    'col.maxLogit': 'Largest',
    'run.healthy': 'healthy',
    'run.bugged': 'with the bug',
    barsCaption: 'Entropy with the bug, per query (the maximum is ln n of each row)',
    'mon.uniform': 'Degraded: {k} of {n} rows are within 5 % of their maximum entropy ({rows}).',
    'mon.sharp':
      'Too sharp: {k} of {n} rows have less than a quarter of their maximum entropy ({rows}), where the healthy run spreads its weight: nearly all of it goes to one key. A softmax this close to one-hot passes almost no gradient back.',
    'mon.fine':
      'Neither monitor fires: no row is near uniform, and none nearly one-hot, beyond what the healthy run shows.',
    'mon.asHealthy':
      'Not degraded: {k} of {n} rows are near uniform ({rows}), exactly as in the healthy run: with so few keys to choose from, that is the example, not a bug.',
    'mon.std': 'Logit standard deviation {sb} with the bug, {sh} healthy.',

    'explain.about':
      'A heatmap of attention weights is tempting to read as “the model looked at this key because it matters”. Two constructions, computed by the engine, show why the weights alone do not explain an output.',
    'flat.h': 'A near-uniform row: the top key means nothing',
    'flat.about':
      'The query of “{tok}” drawn at {small} times its usual size: all its logits are close to 0, so the weights are close to even.',
    small: 'Query size',
    flatCaption: 'Weights of “{tok}” (query × {small})',
    'flat.line': 'The top key is “{top}” with {w}, but the entropy is {e} of a maximum {max}: the row is almost even.',
    drawsCaption: 'The top key for {n} other queries of the same size',
    'col.draw': 'Query',
    'col.top': 'Top key',
    'col.w': 'Its weight',
    'flat.draws': 'Queries of the same size put the top on {k} different keys: which key “wins” is noise.',
    'flat.mean': 'Its output {out} is close to the plain mean of the values {mean} (the output of a query of zeros).',
    'same.h': 'Same weights, different outputs',
    'same.about':
      'The same queries and keys with two sets of values. The second values are new for every key except the top key of “{tok}”, which keeps its value.',
    'same.yes': 'The two weight matrices are identical, entry for entry; the top key of “{tok}” is “{top}” in both.',
    'same.no': 'The two weight matrices differ.',
    'same.out':
      'Yet “{tok}” outputs {a} with the first values and {b} with the second. The weights tell where information came from, not what it was.',
    mapWeightsA: 'Weights, first values',
    mapWeightsB: 'Weights, second values',
    mapOutA: 'Output with the first values',
    mapOutB: 'Output with the second values',
    dims: 'dimension {j}',
  },
  zh: {
    intro:
      '能运行的注意力代码，不一定是对的：大多数错误不报错，输出的形状也对。本章把同一个示例按七种常见的方式弄坏，每一种都和正常结果并排比较，并给出能发现问题的监测量。所有数字都由引擎算出，每个错误的结果都照着出错代码的实际算法计算。',
    errEngine: '引擎无法处理：{msg}',
    example: '本章的示例',
    exampleAbout:
      '解码器中的自注意力：每个词只能看自己和前面的词（因果掩码），<pad> 是填充位（padding），任何 Query 都不应关注它。每个词的 q、k、v 由引擎根据词本身抽取，各分量方差为 1；之后再把 Query 乘以 σ。',
    tokens: '词（<pad> 表示填充位）',
    dk: 'd_k（q 和 k 的维数）',
    heads: '头数 h（d_model = h · d_k）',
    scale: 'logit 缩放 σ（Query 乘以 σ）',
    dModelLine: 'd_model = {h} × {dk} = {d}。',

    'predict.about':
      '在看清单之前，先回答一个问题。掩码屏蔽一个 Key 的做法是把它的分数设为 −∞，因为 exp(−∞) = 0。一个常见的失误是改用 0 来填充。',
    'predict.q': '用 0 填充时，“{tok}”会给它后面的 <pad> 分配多少权重？',
    'predict.q.none': '示例里没有跟在词后面的 <pad>，无法回答这个问题：请在词里加上一个 <pad>。',
    'ans.zero': '仍然恰好为 0',
    'ans.leak': '分到一些权重，就像它们的分数是 0 一样',
    'ans.nan': 'NaN（非数）',
    'ans.all': '几乎全部权重',
    'predict.right': '用 0 填充时，“{tok}”把 {w} 的权重给了填充位。分数 0 只是一个普通的分数，exp(0) = 1，并不是 0。',
    'predict.wrong':
      '引擎的结果是：用 0 填充时，“{tok}”把 {w} 的权重给了填充位。分数 0 只是一个普通的分数，exp(0) = 1，并不是 0。',
    mapHealthy: '正常的权重（用 −∞ 填充）',
    mapZero: '用 0 填充时的权重',

    'check.about':
      '每次只打开一个错误。第二张热力图是带上这个错误后的示例，照着出错代码的实际算法计算；下面列出的症状直接读自引擎算出的数字。',
    bugs: '错误清单',
    'bug.none': '没有错误',
    'bug.missing-scale': '漏掉了缩放',
    'bug.zero-fill': '被屏蔽的分数填 0 而不是 −∞',
    'bug.reversed-causal': '因果掩码方向反了',
    'bug.wrong-axis': 'softmax 作用在错误的轴（dim）上',
    'bug.mask-after-softmax': '在 softmax 之后才加掩码',
    'bug.no-max-subtraction': 'softmax 没有减去最大值',
    'bug.scale-by-d-model': '除以 √d_model 而不是 √d_k',
    'tip.missing-scale': '（调大 d_k）',
    'tip.no-max-subtraction': '（调大 σ）',
    'tip.scale-by-d-model': '（增加头数）',
    codeLabel: '代码中的错误',
    mapBugged: '带错误的权重：{bug}',
    mapBuggedNone: '权重（未打开任何错误）',
    symptom: '症状',
    'sym.none': '一切正常：每行之和为 1，被屏蔽的 Key 权重恰好为 0，logit 的标准差为 {std}。',
    'sym.missing.std': 'logit 的标准差是 {sb}，而不是 {sh}：不做除法时，QKᵀ 随 √d_k 增长。',
    'sym.missing.sat':
      '{n} 行中有 {k} 行把超过 0.99 的权重给了同一个 Key（正常时为 {kh} 行）。这些行的 softmax 已经饱和，梯度几乎为 0，训练会停滞。',
    'sym.missing.sharper':
      '还没有哪一行把超过 0.99 的权重给同一个 Key，但各行已经比正常时更尖锐：在 {n} 个至少有两个可见 Key 的行上，平均熵是 {eb}，而正常时是 {eh}；每行最大的权重平均为 {wb}，正常时为 {wh}。继续调大 d_k，它们就会饱和：softmax 的梯度趋于 0，训练会停滞。',
    'sym.missing.one': 'd_k = 1 时 √d_k = 1：漏掉这次除法在这里没有任何影响。调大 d_k 才能看到这个错误。',
    'sym.missing.finite':
      '最大的 logit 是 {max}。这里的 softmax 减去了每行的最大值，所以结果仍是有限数；继续调大 d_k，如果代码同时漏掉了减最大值，超过 88.72 就会溢出。',
    'sym.missing.nan':
      '最大的 logit 是 {max}，已超过 88.72：这里的 softmax 减去了每行的最大值，结果仍是有限数；但如果代码同时漏掉了这一步，exp(x) 会变成 ∞，结果是 NaN（非数）。',
    'sym.zero.pad': '“{tok}”把 {w} 的权重给了它后面的 <pad>。正常时恰好为 0。',
    'sym.zero.nopad': '示例里没有跟在词后面的 <pad>，所以看不到填充位的泄漏：请在词里加上 <pad>。',
    'sym.zero.future': '“{tok}”把 {w} 的权重给了它后面的词：未来的信息也泄漏了。正常时恰好为 0。',
    'sym.rev.future': '“{tok}”把 {w} 的权重给了它后面的词，也就是对角线以上的位置。正常时恰好为 0。',
    'sym.rev.self': '“{tok}”只能看自己和后面的词，于是它把 {w} 的权重给了自己。',
    'sym.axis': '每个含有可见 Key 的列之和为 1（列之和：{cols}），而各行之和不是 1（行之和：{rows}）。',
    'sym.after': '各行之和不再是 1：{rows}。',
    'sym.after.first': '“{tok}”只剩下 {w}：softmax 分给未来位置的权重被直接丢掉了，并没有转给它能看的 Key。',
    'sym.nomax.same': '看不出变化：最大的 logit 是 {max}，低于 88.72，exp 不会溢出。把 σ 调到 50 再看。',
    'sym.nomax.zero':
      '出现了整行为 0 的权重：最大的 logit 是 {max}，每个指数项单独都还在 float32 范围内，加起来却超出了，而有限数除以 ∞ 得 0。这些行加起来不再等于 1，输出也成了 0。正常的 softmax 先减去每行的最大值，不受影响。',
    'sym.nomax.nan':
      '{n} 个权重中有 {k} 个是 NaN（非数）：最大的 logit 是 {max}，超过了 88.72，exp 溢出为 ∞，而 ∞ / ∞ = NaN。正常的 softmax 先减去每行的最大值，同样的几行都能得到有限的结果。',
    'sym.dmodel.std': '分数除以的是 √{dModel}，而不是 √{dk}：logit 的标准差是 {sb}，而不是 {sh}。',
    'sym.dmodel.flat': '权重太平了：“{tok}”的熵是 {e}，接近完全平均分配时的最大值 ln n = {max}（正常时为 {eh}）。',

    monBug: '当前打开的错误',
    'h.explanation': '4. 注意力权重不等于解释',
    'mon.about':
      '这是任何注意力层都值得一直看着的两个监测量，针对当前打开的错误（可在这里或清单中切换）。一行的熵 −Σ w ln w 最大为 ln n，在 n 个可见 Key 平分权重时取到；熵接近 ln n 的行已经不再有所侧重。当 q 和 k 各分量方差为 1（σ = 1）时，softmax 收到的 logit 均值应接近 0，标准差应接近 1。',
    monCaption: '每个 Query 的熵与其最大值，以及行之和（{bug}）',
    'col.query': 'Query',
    'col.eh': '熵（正常）',
    'col.eb': '熵（有错误）',
    'col.max': '最大值 ln n',
    'col.sh': '行之和（正常）',
    'col.sb': '行之和（有错误）',
    'col.leak': '被屏蔽 Key 上的权重（有错误）',
    'col.flag': '判断',
    'flag.uniform': '接近均匀',
    'flag.peaked': '集中在一个 Key 上',
    'flag.sharp': '几乎集中在一个 Key 上',
    'flag.one': '只有一个可见 Key',
    'flag.nan': 'NaN（非数）',
    'flag.ok': '',
    logitCaption: 'softmax 收到的 logit（只统计可见位置）',
    'col.what': '计算',
    'col.mean': '均值',
    'col.std': '标准差',
    'col.maxLogit': '最大值',
    'run.healthy': '正常',
    'run.bugged': '有错误',
    barsCaption: '有错误时每个 Query 的熵（每行的最大值为 ln n）',
    'mon.uniform': '注意力已经退化：{n} 行中有 {k} 行的熵与最大值相差不到 5%（{rows}）。',
    'mon.sharp':
      '过于尖锐：{n} 行中有 {k} 行的熵不到其最大值的四分之一（{rows}），而健康的运行在这些行上分散了权重：几乎全部权重都给了一个 Key。这样接近 one-hot 的 softmax 几乎传不回梯度。',
    'mon.fine': '两个监测量都没有报警：除了健康的运行本来就有的，既没有接近均匀的行，也没有几乎集中在一个 Key 上的行。',
    'mon.asHealthy':
      '没有退化：{n} 行中有 {k} 行接近均匀（{rows}），与健康的运行完全一样：可选的 Key 太少，这是例子本身，不是 bug。',
    'mon.std': '有错误时 logit 的标准差为 {sb}，正常时为 {sh}。',

    'explain.about':
      '看到注意力权重的热力图，人们很容易理解成“模型看了这个 Key，因为它重要”。下面两个由引擎算出的构造说明，单凭权重并不能解释输出。',
    'flat.h': '接近均匀的一行：最大的 Key 没有意义',
    'flat.about': '把“{tok}”的 Query 缩小到原来的 {small} 倍：所有 logit 都接近 0，权重也就接近平均分配。',
    small: 'Query 的大小',
    flatCaption: '“{tok}”的权重（Query × {small}）',
    'flat.line': '权重最大的 Key 是“{top}”（{w}），但熵是 {e}，最大值是 {max}：这一行几乎是平均分配的。',
    drawsCaption: '同样大小的另外 {n} 个 Query 各自权重最大的 Key',
    'col.draw': 'Query',
    'col.top': '权重最大的 Key',
    'col.w': '它的权重',
    'flat.draws': '同样大小的 Query 把最大权重给了 {k} 个不同的 Key：哪个 Key “胜出”只是噪声。',
    'flat.mean': '它的输出 {out} 与各 Value 的简单平均 {mean}（全零 Query 的输出）很接近。',
    'same.h': '权重相同，输出不同',
    'same.about':
      'Query 和 Key 不变，用两组 Value 计算。第二组 Value 除了“{tok}”权重最大的那个 Key 以外都换成了新的，那个 Key 的 Value 保持不变。',
    'same.yes': '两个权重矩阵逐项完全相同；“{tok}”权重最大的 Key 在两次计算中都是“{top}”。',
    'same.no': '两个权重矩阵不同。',
    'same.out':
      '但“{tok}”用第一组 Value 的输出是 {a}，用第二组的输出是 {b}。权重只说明信息从哪里来，不说明信息是什么。',
    mapWeightsA: '权重（第一组 Value）',
    mapWeightsB: '权重（第二组 Value）',
    mapOutA: '用第一组 Value 的输出',
    mapOutB: '用第二组 Value 的输出',
    dims: '第 {j} 维',
  },
};
