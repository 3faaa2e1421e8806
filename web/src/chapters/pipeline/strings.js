// Every string the pipeline chapter shows, in English and Chinese: { en: { key: text }, zh: { ... } }.
// {name} in a text is filled in by the chapter (i18n.js lookup).

export default {
  en: {
    intro:
      'Attention is a soft lookup. Each query compares itself with every key, the comparisons become weights, and the weights blend the values. Walk through the five steps below; every number is computed live by the engine, and you can click any cell to see how it was made.',
    inputs: 'The example',
    preset: 'Example',
    'preset.cat-fish': 'Translation: The cat eats fish → 猫 吃 鱼',
    'preset.cat-chase': 'Self-attention: 猫 追 老鼠',
    'preset.random': 'Random vectors (seeded)',
    'preset.hand-check': 'Check a softmax by hand',
    'about.cat-fish':
      'While writing the Chinese sentence, each word being generated (a query: 猫, 吃, 鱼) looks up the English words (the keys). The vectors are hand-made with four features — animal, action, food, function word — so you can read why 猫 finds “cat”, 吃 finds “eats” and 鱼 finds “fish”.',
    'about.cat-chase':
      'Self-attention: every word of 猫 追 老鼠 is both a query and a key. The query of 追 asks “who chases?”, and the key of 猫 answers “I do it”. Features: does it, action, has it done, animal.',
    'about.random':
      'Q, K and V drawn from the engine’s random generator (normal, mean 0, variance 1). The seed is part of the link, so anyone who opens it sees exactly these numbers.',
    'about.hand-check':
      'An article on attention makes up the scores [2.6, 1.2, 6.1, 2] for generating 猫 from The cat eats fish (they are its invention, not this page’s vectors, which send 猫 to “cat”) and prints the weights [0.2, 0.06, 0.1, 0.1]. Those cannot come from softmax: they add up to 0.46, not 1. Work the softmax out yourself; at step 4 a button takes your answer to the Softmax chapter’s check. (Here the scores are typed directly, so there is nothing to scale.)',
    queryTokens: 'Query tokens',
    keyTokens: 'Key / value tokens',
    tokensHint: 'separated by spaces',
    vectorsOfQueries: 'Query vectors:',
    vectorsOfKeys: 'Key and Value vectors:',
    'src.hand': 'hand-made',
    'src.drawn': 'drawn',
    'src.typed': 'typed',
    srcHint:
      'Each word carries its own vectors. The example’s words have hand-made ones; any other word gets vectors drawn by the engine’s random generator from its text and the seed, so the same word always gets the same numbers.',
    inputMode: 'Vectors',
    'mode.random': 'random (seeded)',
    'mode.typed': 'as given (editable)',
    seed: 'Seed',
    dk: 'd_k',
    editVectors: 'Edit the vectors Q, K, V',
    editScores: 'Edit the scores',
    gridTooLarge: '{name}: this grid is too large to type into ({n} numbers). Use fewer tokens or a smaller d_k.',
    masks: 'Masks',
    masksHint: 'The Masks chapter goes deeper.',
    padding: 'padding:',
    paddingOf: '{token} is padding',
    causal: 'Causal (a query sees only keys up to its own position)',
    errTokensEmpty: 'Type at least one token.',
    errTokensMany: 'At most {max} tokens here (you typed {n}).',
    errTokenLong: 'A token may have at most {max} characters.',
    errInt: 'A whole number from {min} to {max}, please.',
    errNumber: 'Please type a number.',
    cellError: '{name} {row}, {col}: {msg}',
    errEngine: 'The engine could not process these inputs: {msg}',
    keysHint: 'Tip: with the focus on a step, the ← and → keys move between steps.',
    geoTitle: 'q·k as geometry: the query of 猫 against The, cat, eats and fish, in two dimensions',
    geoLead:
      'Keep two features of the translation example, animal and food, and every vector is an arrow you can move. q·k = |q| |k| cos θ: the length of the key’s shadow on q (dashed) times the length of q, so a key scores high when it points the query’s way and is long. The scaled scores divide by √d_k = √2; softmax turns them into the weights.',
    'explain.scores':
      'Each query asks a question; each key says what its token offers. Their dot product q·k measures how well the two match: positive when they point the same way, near zero when they are unrelated, negative when they disagree. Unlike a cosine similarity it also grows with the lengths of the vectors. One number per (query, key) pair gives the score matrix S = QKᵀ, with one row per query and one column per key.',
    'explain.scaled':
      'A dot product adds up d_k products, so the more dimensions, the wider the scores can spread. If the components of q and k are independent with mean 0 and variance 1, which is roughly true of a freshly initialised model, q·k has mean 0 and variance d_k. Dividing by √d_k brings the variance back to 1, so the softmax in step 4 is not pushed into handing everything to one key. The hand-made example vectors are not random, so the argument does not describe them; they are divided by √d_k all the same, as in any Transformer.',
    'explain.scaled.typed':
      'The scores were typed directly, so there is no d_k to divide by: the scaled scores are the typed ones.',
    'explain.masked':
      'Some keys must not be looked at: padding that makes sequences the same length or, when generating text, the words not written yet. Before softmax their scores are replaced by a fill value (the Masks chapter compares the choices), here {fill}.',
    'masked.fill.neg-inf': 'exp(−∞) is exactly 0, so a blocked key adds nothing to its row.',
    'masked.fill.large-negative':
      'In float32, exp(−1e9 − max) underflows to 0, so a blocked key gets no weight as long as its row still has a key it may see.',
    'masked.fill.zero':
      '0 is an ordinary score, not a block: a blocked key gets whatever weight a score of 0 earns, and its Value leaks into the output.',
    'masked.none': 'No mask is switched on, so this step changes nothing.',
    'masked.count': 'Blocked cells here: {n}.',
    'masked.allZero': 'Every one of them gets weight exactly 0 in step 4.',
    'masked.someZero': '{k} of them get weight exactly 0 in step 4.',
    'masked.leak': '{k} of them still get weight in step 4 (up to {max}), so their Values leak into the output.',
    'masked.nan': '{k} of them get NaN weights in step 4.',
    'weights.stable':
      'Softmax turns each row of scores into weights that are non-negative and add up to 1: a budget of attention that the query shares out among the keys. Here the softmax is the stable one, so the engine subtracts the row’s largest score before taking exponentials: the weights come out the same, but exp cannot overflow.',
    'weights.naive':
      'Softmax turns each row of scores into weights that are non-negative and add up to 1: a budget of attention that the query shares out among the keys. Here the stable softmax is switched off, so the engine takes the exponentials of the scores as they are. While the scores are moderate the weights are the same. But exp overflows to ∞ once a score passes about 88.7, and ∞ / ∞ is NaN (not a number); if every score of a row is below about −104, every exponential underflows to 0, and 0 / 0 is NaN too. Exponentials that are each finite can still add up past float32’s largest number, and then every weight of the row is a finite number divided by ∞: exactly 0.',
    'weights.emptyZero':
      'Every key is blocked for {list}. A softmax over nothing has no answer (the stable formula would compute −∞ − (−∞) = NaN); this engine’s own rule gives such a row zero weights and a zero output.',
    'weights.emptyUniform':
      'Every key is blocked for {list}, but the fill {fill} is a finite number, so all the scores of such a row are equal: every key gets the same weight, and the output is the mean of all the Values, the blocked ones included.',
    'weights.emptyNan': 'Every key is blocked for {list}: every exponential is 0, and 0 / 0 = NaN.',
    'weights.emptyOther': 'Every key is blocked for {list}.',
    'weights.overflowNan':
      'The weights of {list} came out NaN: an exponential overflowed to ∞, or every exponential underflowed to 0.',
    'weights.overflowZero':
      'The weights of {list} came out all 0, so they no longer add up to 1: each exponential was finite, but their sum overflowed to ∞. The output of such a row is 0, not a mix of the Values.',
    'weights.entropy':
      'The entropy of a row, −Σ w ln w (in nats), measures how spread out it is: 0 when one key takes all the weight, ln n when all n keys share it equally.',
    'fullyMasked.zero':
      'Every key is masked for the query “{token}”. By this engine’s own rule it gets zero weights and a zero output; the stable formula alone would give NaN (−∞ − (−∞)).',
    'fullyMasked.uniform':
      'Every key is masked for the query “{token}”, but with the fill {fill} all its scores are equal: each key gets {w}, and the output is the mean of all the Values.',
    'fullyMasked.nan':
      'Every key is masked for the query “{token}”: every exponential is 0 and 0 / 0 = NaN, so its weights and its output are NaN.',
    'fullyMasked.other': 'Every key is masked for the query “{token}”.',
    'blocked.zero':
      '“{k}” is masked for the query “{q}”: its score is replaced by {fill}, and it gets weight exactly 0.',
    'blocked.leak':
      '“{k}” is masked for the query “{q}”, but its score is replaced by {fill}, an ordinary score: it still gets weight {w}.',
    'blocked.nan':
      '“{k}” is masked for the query “{q}”: its score is replaced by {fill}, and its weight comes out NaN.',
    queryNote: '{q} ({note})',
    mixItem: '{k} ({w})',
    quoted: '“{t}”',
    listSep: ', ',
    'tex.typed': 'typed',
    'tex.if': 'if query i may see key j',
    'tex.otherwise': 'otherwise',
    'explain.output':
      'Each output row is a weighted average of the value vectors: the weights decide how much of each token’s content flows into the result. Select an output row to see its weights and the values it mixes.',
    matScores: 'Scores S = QKᵀ',
    matScaled: 'Scaled scores S / √d_k',
    matScaledTyped: 'Scores (typed, not scaled)',
    matMasked: 'Masked scores',
    matWeights: 'Attention weights',
    matWeightsUnscaled: 'Weights without the scale: softmax(S)',
    matWeightsScaled: 'Weights with the scale: softmax(S / √d_k)',
    scaleChanges:
      'Without the scale, “{q}” puts {raw} of its attention on “{k}”; with it, {scaled}. The entropy of the row goes from {hRaw} to {hScaled} nats.',
    crossCausal:
      'This example is cross-attention: the queries come from the sentence being written and the keys from the other sentence, so “earlier” and “later” do not line up between them. A causal mask here blocks keys by position number alone, which means nothing (the Masks chapter explains). It belongs to a sequence attending to itself, such as 猫 追 老鼠 or the random example.',
    matValues: 'Values V',
    matOutput: 'Output = weights × V',
    rowsCols: 'rows: queries · columns: keys',
    withAxes: '{t} ({axes})',
    selectHint: 'Click a cell, or move with the arrow keys and press Enter, to see its formula.',
    weightsOf: 'Weights of the query “{token}”',
    landsOn: '“{q}” gives most attention to “{k}” ({w}); the entropy of this row is {h} nats.',
    evenly:
      '“{q}” spreads its attention evenly over the keys ({w} each); the entropy of this row is {h} nats, the largest possible.',
    mixes: 'Output row “{q}” mixes the values of: {list}.',
    andMore: 'and {n} more',
    guessTitle: 'Your softmax, by hand',
    guessHint:
      'Worked out the weights for the scores [{scores}]? The Softmax chapter checks them against the engine’s and adds them up. (The article printed {printed}.)',
    guessGo: 'Check my weights in the Softmax chapter',
    guessShow: 'Show the engine’s weights here',
    'predictTop.q': 'After scaling and softmax, how large will the biggest weight in the row of {q} be?',
    'predictTop.low': 'below 0.5: the weight is shared',
    'predictTop.mid': 'between 0.5 and 0.9',
    'predictTop.high': 'above 0.9: almost all on one key',
    'predictTop.right': '{k} takes {w}.',
    'predictTop.wrong':
      'The engine gives {k} {w}. Softmax depends only on the gaps between the scaled scores: a gap of 2 already means e² ≈ 7.4 times the weight.',
    'predictTop.reveal': 'The engine’s weights for {q} (steps 2 and 4 show them all): {list}.',
  },
  zh: {
    intro:
      '注意力是一种“软查找”：每个 Query 和所有 Key 逐一比较，比较结果变成权重，再用这些权重把 Value 加权混合起来。跟着下面五步走一遍：每个数字都由引擎现场计算，点任何一个格子，都能看到它是怎么算出来的。',
    inputs: '示例',
    preset: '示例',
    'preset.cat-fish': '翻译：The cat eats fish → 猫 吃 鱼',
    'preset.cat-chase': '自注意力：猫 追 老鼠',
    'preset.random': '随机向量（固定种子）',
    'preset.hand-check': '手算一次 softmax',
    'about.cat-fish':
      '生成中文句子时，每个待生成的词（Query：猫、吃、鱼）都要去查英文句子里的词（Key）。这些向量是手工设计的，有四个特征：动物、动作、食物、虚词。所以能看出为什么“猫”会找到 cat，“吃”找到 eats，“鱼”找到 fish。',
    'about.cat-chase':
      '自注意力：“猫 追 老鼠”里每个词既是 Query 也是 Key。“追”的 Query 在问“谁在追？”，而“猫”的 Key 回答“动作是我发出的”。四个特征：施事、动作、受事、动物。',
    'about.random':
      'Q、K、V 都取自引擎的随机数生成器（均值 0、方差 1 的正态分布）。种子写在链接里，谁打开这个链接，看到的都是一模一样的数字。',
    'about.hand-check':
      '一篇讲注意力的文章为从 The cat eats fish 生成“猫”编了一组分数 [2.6, 1.2, 6.1, 2]（这是它自己编的，并非本页的向量算出来的；本页的向量让“猫”对准 cat），又列出权重 [0.2, 0.06, 0.1, 0.1]。这组权重不可能来自 softmax：它们加起来是 0.46，而不是 1。请自己算一遍 softmax；第 4 步有个按钮，会带你到“Softmax”一章核对答案。（这里的分数是直接输入的，所以没有缩放这一步。）',
    queryTokens: 'Query 词',
    keyTokens: 'Key / Value 词',
    tokensHint: '用空格分隔',
    vectorsOfQueries: 'Query 向量：',
    vectorsOfKeys: 'Key 与 Value 向量：',
    'src.hand': '手工设定',
    'src.drawn': '随机生成',
    'src.typed': '手动输入',
    srcHint:
      '每个词自带向量。示例里的词用手工设定的向量；其他词的向量由引擎的随机数生成器根据词本身和种子生成，同一个词总是得到同样的数。',
    inputMode: '向量来源',
    'mode.random': '随机（固定种子）',
    'mode.typed': '按给定数值（可编辑）',
    seed: '随机种子',
    dk: 'd_k',
    editVectors: '编辑向量 Q、K、V',
    editScores: '编辑分数',
    gridTooLarge: '{name}：这个表格太大，不便手动输入（共 {n} 个数）。请减少词数或调小 d_k。',
    masks: '掩码',
    masksHint: '“掩码”一章会讲得更深入。',
    padding: '填充位：',
    paddingOf: '{token} 是填充位',
    causal: '因果掩码（每个 Query 只能看到自己及之前位置的 Key）',
    errTokensEmpty: '请至少输入一个词。',
    errTokensMany: '这里最多 {max} 个词（你输入了 {n} 个）。',
    errTokenLong: '每个词最多 {max} 个字符。',
    errInt: '请输入 {min} 到 {max} 之间的整数。',
    errNumber: '请输入一个数字。',
    cellError: '{name} 的“{row}”行第 {col} 列：{msg}',
    errEngine: '引擎无法处理这些输入：{msg}',
    keysHint: '提示：焦点在步骤按钮上时，可以用 ← 和 → 键切换步骤。',
    geoTitle: '从几何上看 q·k：“猫”的 Query 对 The、cat、eats、fish 四个 Key，画在二维平面上',
    geoLead:
      '只保留翻译示例里“动物”和“食物”两个特征，每个向量就成了一支可以拖动的箭头。q·k = |q| |k| cos θ：Key 在 q 上投影（虚线）的长度，乘以 q 的长度。所以方向越接近 q、长度越长的 Key，分数越高。缩放后的分数要除以 √d_k = √2，softmax 再把它们变成注意力权重。',
    'explain.scores':
      '每个 Query 提出一个问题，每个 Key 说明自己的词能提供什么。两者的点积 q·k 衡量它们有多契合：方向一致时为正，互不相干时接近 0，意思相左时为负。它和余弦相似度不同：向量越长，点积的绝对值也越大。每一对（Query, Key）得到一个分数，合起来就是分数矩阵 S = QKᵀ：每个 Query 一行，每个 Key 一列。',
    'explain.scaled':
      '点积是 d_k 个乘积相加，维度越多，分数就可能散得越开。假设 q、k 的各个分量相互独立、均值为 0、方差为 1（模型刚初始化时大致如此），q·k 的均值就是 0，方差就是 d_k。除以 √d_k，方差回到 1，免得第 4 步的 softmax 被推向“赢家通吃”，把注意力全给一个 Key。手工设计的示例向量并不是随机的，上面的推理并不适用于它们；不过和任何 Transformer 一样，它们照样要除以 √d_k。',
    'explain.scaled.typed': '这里的分数是直接输入的，没有 d_k 可除：缩放后的分数就是输入的分数。',
    'explain.masked':
      '有些 Key 不该被看到：为了对齐长度而补上的填充位（padding），或者生成文本时尚未生成的后续词。在 softmax 之前，它们的分数会被换成一个替换值（“掩码”一章比较了几种选择），这里是 {fill}。',
    'masked.fill.neg-inf': 'exp(−∞) 恰好等于 0，所以被屏蔽的 Key 对这一行毫无贡献。',
    'masked.fill.large-negative':
      '在 float32 里，exp(−1e9 − 最大值) 会下溢成 0，所以只要这一行还有允许看的 Key，被屏蔽的 Key 就分不到权重。',
    'masked.fill.zero':
      '0 只是个普通分数，根本挡不住：被屏蔽的 Key 照样分到分数 0 能换来的权重，它的 Value 也混进了输出。',
    'masked.none': '没有打开任何掩码，这一步什么也不改变。',
    'masked.count': '这里共有 {n} 个格子被屏蔽。',
    'masked.allZero': '它们在第 4 步得到的权重都恰好为 0。',
    'masked.someZero': '其中 {k} 个在第 4 步得到的权重恰好为 0。',
    'masked.leak': '其中 {k} 个在第 4 步仍分到了权重（最多 {max}），它们的 Value 混进了输出。',
    'masked.nan': '其中 {k} 个在第 4 步得到的权重是 NaN（非数）。',
    'weights.stable':
      'softmax 把每一行分数变成非负、加起来等于 1 的权重：就像一份注意力预算，由这个 Query 分给各个 Key。这里用的是稳定 softmax，所以引擎在取指数之前先减去这一行的最大分数：权重不变，但 exp 不会溢出。',
    'weights.naive':
      'softmax 把每一行分数变成非负、加起来等于 1 的权重：就像一份注意力预算，由这个 Query 分给各个 Key。这里关掉了稳定 softmax，所以引擎直接对分数取指数。分数不大时权重一样。可只要有分数超过约 88.7，exp 就会溢出成 ∞，∞ / ∞ 得 NaN（非数）；一行的分数若全都低于约 −104，所有指数项都会下溢成 0，0 / 0 也是 NaN。还有一种情况：每个指数项单独看都没溢出，加起来却超过了 float32 能表示的最大数，这时整行权重都是有限数除以 ∞，结果正好是 0。',
    'weights.emptyZero':
      '{list}的所有 Key 都被屏蔽了。对一个 Key 都没有的行做 softmax，本来就没有答案（照稳定公式算，是 −∞ − (−∞) = NaN）；本引擎的规则是让这样的一行权重全为 0，输出也全为 0。',
    'weights.emptyUniform':
      '{list}的所有 Key 都被屏蔽了，但替换值 {fill} 是个有限的数，这样一行的分数全都相等：每个 Key 分到同样的权重，输出就是所有 Value 的平均，连被屏蔽的也算在内。',
    'weights.emptyNan': '{list}的所有 Key 都被屏蔽了：每个指数项都是 0，而 0 / 0 = NaN。',
    'weights.emptyOther': '{list}的所有 Key 都被屏蔽了。',
    'weights.overflowNan': '{list}的权重算出了 NaN：有指数项溢出成了 ∞，或者所有指数项都下溢成了 0。',
    'weights.overflowZero':
      '{list}的权重全是 0，加起来不再等于 1：每个指数项都是有限数，它们的和却溢出成了 ∞。这样一行的输出是 0，而不是各个 Value 的混合。',
    'weights.entropy':
      '一行权重的熵 −Σ w ln w（单位为奈特）衡量权重摊得有多开：一个 Key 拿走全部权重时为 0，n 个 Key 平分时为 ln n。',
    'fullyMasked.zero':
      'Query“{token}”的所有 Key 都被屏蔽了。按本引擎的规则，它的权重全为 0，输出也全为 0；单靠稳定 softmax 的公式，只会得到 NaN（−∞ − (−∞)）。',
    'fullyMasked.uniform':
      'Query“{token}”的所有 Key 都被屏蔽了，但替换值为 {fill} 时，它的分数全都相等：每个 Key 分到 {w}，输出就是所有 Value 的平均。',
    'fullyMasked.nan':
      'Query“{token}”的所有 Key 都被屏蔽了：每个指数项都是 0，0 / 0 = NaN，所以它的权重和输出都是 NaN。',
    'fullyMasked.other': 'Query“{token}”的所有 Key 都被屏蔽了。',
    'blocked.zero': '对 Query“{q}”来说，“{k}”被屏蔽了：它的分数被换成 {fill}，权重恰好为 0。',
    'blocked.leak':
      '对 Query“{q}”来说，“{k}”被屏蔽了，但它的分数被换成 {fill}，这只是个普通分数：它仍分到了 {w} 的权重。',
    'blocked.nan': '对 Query“{q}”来说，“{k}”被屏蔽了：它的分数被换成 {fill}，权重算出来是 NaN。',
    queryNote: '{q}（{note}）',
    mixItem: '{k}（{w}）',
    quoted: '“{t}”',
    listSep: '、',
    'tex.typed': '直接输入',
    'tex.if': '若 Query i 可以看 Key j',
    'tex.otherwise': '否则',
    'explain.output':
      '每一行输出都是 Value 向量的加权平均：权重决定了每个词的内容有多少流进结果。选中一行输出，就能看到它的权重，以及它混合了哪些 Value。',
    matScores: '分数 S = QKᵀ',
    matScaled: '缩放后的分数 S / √d_k',
    matScaledTyped: '分数（直接输入，未缩放）',
    matMasked: '掩码处理后的分数',
    matWeights: '注意力权重',
    matWeightsUnscaled: '不缩放时的权重：softmax(S)',
    matWeightsScaled: '缩放后的权重：softmax(S / √d_k)',
    scaleChanges:
      '不缩放时，“{q}”把 {raw} 的注意力给了“{k}”；缩放后是 {scaled}。这一行的熵从 {hRaw} 奈特变为 {hScaled} 奈特。',
    crossCausal:
      '这个示例是交叉注意力：Query 来自正在生成的句子，Key 来自另一个句子，两边的“先后”对不上。在这里加因果掩码，只是按位置序号挡掉 Key，没有任何意义（“掩码”一章有解释）。因果掩码用在序列对自身做注意力的场合，比如“猫 追 老鼠”或随机示例。',
    matValues: 'Value 矩阵 V',
    matOutput: '输出 = 权重 × V',
    rowsCols: '行：Query · 列：Key',
    withAxes: '{t}（{axes}）',
    selectHint: '点击一个格子，或用方向键移动、按回车选中，就能看到它的公式。',
    weightsOf: '“{token}”的注意力权重',
    landsOn: '“{q}”把最多的注意力给了“{k}”（{w}）；这一行的熵是 {h} 奈特。',
    evenly: '“{q}”把注意力平均分给了各个 Key（各 {w}）；这一行的熵是 {h} 奈特，已是最大值。',
    mixes: '输出行“{q}”混合了这些 Value：{list}。',
    andMore: '以及另外 {n} 个',
    guessTitle: '你手算的 softmax',
    guessHint:
      '算好分数 [{scores}] 的权重了吗？“Softmax”一章会拿它们和引擎的结果逐个比对，并把它们加起来。（文章里给出的是 {printed}。）',
    guessGo: '到“Softmax”一章核对我的权重',
    guessShow: '在这里显示引擎算出的权重',
    'predictTop.q': '经过缩放和 softmax 之后，“{q}”这一行里最大的权重会有多大？',
    'predictTop.low': '小于 0.5：权重比较分散',
    'predictTop.mid': '在 0.5 和 0.9 之间',
    'predictTop.high': '大于 0.9：几乎全落在一个 Key 上',
    'predictTop.right': '“{k}”拿到 {w}。',
    'predictTop.wrong': '引擎给“{k}”的权重是 {w}。softmax 只看缩放后分数之间的差：差 2，权重就差 e² ≈ 7.4 倍。',
    'predictTop.reveal': '引擎算出“{q}”这一行的权重（第 2 步和第 4 步会全部画出来）：{list}。',
  },
};
