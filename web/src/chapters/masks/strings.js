// Every string the masks chapter shows, in English and Chinese: { en: { key: text }, zh: { ... } }.
// {name} in a text is filled in by the chapter (i18n.js lookup).

export default {
  en: {
    intro:
      'A mask says which Keys each Query may look at: 1 = allowed, 0 = blocked. Before softmax, every blocked score is overwritten with a fill value, so that softmax gives it nothing. The mask you set here is the same one the pipeline chapter uses, on the same example.',
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
    'fillAbout.neg-inf':
      "−∞: exp(−∞) is exactly 0, so a blocked key gets exactly zero weight. PyTorch code writes masked_fill(mask == 0, float('-inf')).",
    'fillAbout.large-negative':
      '−1e9: exp(−1e9 − max) underflows to 0 in float32, so a blocked key also gets zero weight — except in a row where every key is blocked (see step 4).',
    'fillAbout.zero':
      '0 is an ordinary score, not a block. A blocked key gets whatever weight a score of 0 earns in its row, which may be more or less than before, depending on its own score, and its Value leaks into the output. Nothing crashes and the loss does not blow up; the model is just quietly worse.',
    stable: 'Stable softmax (subtract the row max first)',
    mapMask: 'Mask (0 = blocked)',
    mapMaskClick: 'Mask: click a cell',
    mapMasked: 'Masked scores',
    mapWeights: 'Attention weights (striped: blocked by the mask)',
    rowsCols: 'rows: queries · columns: keys',
    withAxes: '{t} ({axes})',
    errEngine: 'The engine could not process this example: {msg}',

    'h.padding': 'Padding: keys that are not really there',
    'p.padding':
      'Sequences in a batch have different lengths, so the short ones are filled up with padding tokens. No query should read them. Mark a key as padding and its whole column is blocked. Then switch the fill to 0 and watch the padded column come back to life.',
    padKeys: 'Padding keys',
    padOf: 'Mark “{tok}” as padding',
    padNone: 'No key is marked as padding yet: press one of the key buttons.',
    leak: 'Leak: {n} blocked cells still receive weight (up to {max}). They are outlined in red in the weights; their Values are mixed into the output.',
    noLeak: 'Every blocked cell has weight exactly 0.',

    'h.causal': 'Causal: no peeking at the future',
    'p.causal':
      'A model that writes text one token at a time must not read the tokens it has not written yet. The causal mask lets query i see keys 1…i only, so everything above the diagonal of the weight matrix is 0.',
    'p.reverse':
      'Now flip the comparison, a one-character bug. Shapes and memory stay the same and nothing errors, but each query now sees the future instead of the past: the cells above the diagonal get weight.',
    causalMode: 'Causal mask',
    causalNone: 'No causal mask',
    causal: 'Causal mask (query i sees keys 1…i)',
    reverse: 'Reversed causal mask (the bug: query i sees keys i…n)',
    crossShown:
      'The chapter’s example is cross-attention (Chinese queries, English keys), where “earlier” and “later” do not line up: a causal mask belongs to a sequence attending to itself. This step shows 猫 追 老鼠, with the fill chosen here.',
    futureLeak:
      'Future leak: {n} cells above the diagonal get weight (outlined in red). During training the model would learn to copy the answer from the future.',
    upperZero: 'Every cell above the diagonal has weight exactly 0: no query reads the future.',
    level0: '0 blocked',
    level1: '1 allowed',
    bothCausal:
      'Both masks are on, and together they block every cell off the diagonal: each query sees only its own key, so every weight on the diagonal is 1 and the output is just each token’s own value. No future leaks, but nothing is attended to either: choose one of the two.',
    noCausal: 'Choose the causal mask, then the reversed one.',
    toSelf: 'Use 猫 追 老鼠 in every step',
    fillLeak: 'The causal mask is on, but a 0 fill does not block anything: see the fill choice above.',

    'h.custom': 'Draw your own mask',
    'p.custom':
      'Click a cell of the weights or of the mask (or move with the arrow keys and press Enter or Space) to block or allow that query–key pair. The weights follow at once: with the −∞ or −1e9 fill, the weights left in that row are rescaled in proportion, so they add up to 1 again. With the 0 fill nothing is really blocked (see above).',
    clearCustom: 'Allow every cell again',
    alsoBlocked: '“{q}” → “{k}” is still blocked by the padding or causal mask.',

    'h.blocked': 'A row with nowhere to look',
    'p.blocked':
      'What if one query may attend to nothing at all? Block every key of its row and compare what three implementations return for it.',
    blockRow: 'Query',
    blockIt: 'Block every key for this query',
    unblockIt: 'Allow this row again',
    notBlocked: 'No query row is fully blocked yet. Choose a query and press the button.',
    colCase: 'Fill and softmax',
    colWeights: 'Weights of “{q}”',
    colOutput: 'Output of “{q}”',
    colRows: 'Fully masked queries',
    colVerdict: 'What it means',
    'case.neg-inf': '−∞, stable softmax (this engine’s rule)',
    'case.large-negative': '−1e9, stable softmax',
    'case.naive': '−∞, naive softmax',
    'verdict.zero':
      'Zero weights and a zero output. That is this engine’s own rule for a row with nothing to look at: the stable formula itself would compute −∞ − (−∞) = NaN here, and torch.softmax does. All three rows list the query as fully masked, because the mask is the same; what differs is how each fill and softmax handle it.',
    'verdict.uniform':
      'Every score in the row is −1e9, so softmax cannot tell them apart: equal weights, and the output is the plain average of all Values — including the ones you meant to hide.',
    'verdict.nan':
      'exp(−∞) = 0 for every key, then 0 / 0 = NaN. A NaN spreads into every later layer and into the loss.',
    'verdict.other': 'Neither zero, uniform nor NaN.',
    'verdict.nanOther': 'NaN appears.',
    rowsNone: 'none',
    rowRef: '{k} ({q})',
    listSep: ', ',

    'h.two-token': 'The two-token check',
    'p.two-token':
      'A quick test for any attention code: keep just two tokens, mask one, and the output must equal the other token’s Value exactly — the masked token may not contribute anything. If this fails, look at the mask (or the axis softmax runs over) before anything fancier. It uses the first query and the first two keys of the example, with the fill and softmax chosen above.',
    twoMask: 'Mask',
    twoTooFew: 'This check needs at least two keys; the example has only one.',
    twoWeights: 'weights (engine, {q} → {k0}, {k1})',
    twoOutput: 'output (engine)',
    twoValue: 'Value of “{tok}”',
    twoValues: 'The Values of “{k0}” and “{k1}”; “{masked}” is masked as padding',
    twoDiff: 'largest difference',
    twoPass: 'Pass: the output equals the Value of “{tok}”.',
    twoFail: 'Fail: the output differs from the Value of “{tok}” by up to {d}. The masked token leaks in.',
    twoNan: 'Fail: the output contains NaN.',
    'twoPredict.q':
      '“{masked}” is masked and its score is filled with {fill}. Will the output be exactly the Value of “{tok}”?',
    'twoPredict.pass': 'yes, exactly',
    'twoPredict.fail': 'no, the masked token still leaks in',
    'twoPredict.pass.why':
      'With this fill the masked score’s exponential is exactly 0, so the masked token gets no weight at all.',
    'twoPredict.fail.why':
      'With this fill the masked token keeps part of the weight, so its Value leaks into the output (difference up to {d}).',
    twoCheckNote: 'The difference is a check worked out by the page from the engine’s two vectors.',
  },
  zh: {
    intro:
      '掩码规定每个 Query 可以看哪些 Key：1 表示允许，0 表示屏蔽。在 softmax 之前，每个被屏蔽的分数都会被换成一个替换值，让 softmax 不给它分权重。这里设置的掩码，和“注意力流水线”一章用的是同一个，作用在同一个示例上。',
    example: '示例',
    preset: '示例',
    'preset.cat-fish': '翻译：The cat eats fish → 猫 吃 鱼（交叉注意力）',
    'preset.cat-chase': '自注意力：猫 追 老鼠',
    'preset.random': '随机向量，4 个词（自注意力）',
    'preset.hand-check': '直接输入分数：“猫”对 The cat eats fish',
    fill: '被屏蔽分数的替换值',
    'fill.neg-inf': '−∞',
    'fill.large-negative': '−1e9',
    'fill.zero': '0（错误写法）',
    'fillAbout.neg-inf':
      "−∞：exp(−∞) 恰好等于 0，被屏蔽的 Key 权重恰好为 0。PyTorch 里常写 masked_fill(mask == 0, float('-inf'))。",
    'fillAbout.large-negative':
      '−1e9：在 float32 里 exp(−1e9 − 最大值) 会下溢成 0，所以被屏蔽的 Key 同样是零权重——除非整行的 Key 全被屏蔽（见第 4 步）。',
    'fillAbout.zero':
      '0 只是个普通分数，根本挡不住。被屏蔽的 Key 得到的是分数 0 在这一行里能换来的权重，比原来多还是少，要看它原来的分数；它的 Value 也照样混进输出。程序不报错，loss 也不爆炸，模型只是悄悄地变差。',
    stable: '稳定 softmax（先减去每行的最大值）',
    mapMask: '掩码（0 = 屏蔽）',
    mapMaskClick: '掩码：点击格子',
    mapMasked: '掩码处理后的分数',
    mapWeights: '注意力权重（斜纹：被掩码屏蔽）',
    rowsCols: '行：Query · 列：Key',
    withAxes: '{t}（{axes}）',
    errEngine: '引擎无法处理这个示例：{msg}',

    'h.padding': '填充掩码：并不存在的词',
    'p.padding':
      '一个批次里的序列长短不一，短的要用填充位（padding）补齐。任何 Query 都不该读到它们。把某个 Key 标为填充位，它整列就被屏蔽了。然后把替换值切换成 0，看看那一列是怎么“复活”的。',
    padKeys: '填充位',
    padOf: '把“{tok}”标为填充位',
    padNone: '还没有标记任何填充位：点一下上面某个 Key 的按钮。',
    leak: '泄漏：有 {n} 个被屏蔽的格子仍然分到了权重（最多 {max}），已在权重图中用红框标出；它们的 Value 混进了输出。',
    noLeak: '所有被屏蔽格子的权重都恰好为 0。',

    'h.causal': '因果掩码：不许偷看未来',
    'p.causal':
      '逐词生成文本的模型，不能读到自己还没写出来的词。因果掩码只让第 i 个 Query 看第 1 到第 i 个 Key，于是权重矩阵对角线以上全是 0。',
    'p.reverse':
      '现在把比较符号写反——只差一个字符的 bug。形状、显存都不变，也不报错，可每个 Query 看到的变成了未来而不是过去：对角线以上的格子分到了权重。',
    causalMode: '因果掩码',
    causalNone: '不加因果掩码',
    causal: '因果掩码（第 i 个 Query 只看第 1…i 个 Key）',
    reverse: '写反的因果掩码（bug：第 i 个 Query 看第 i…n 个 Key）',
    crossShown:
      '本章的示例是交叉注意力（中文 Query 对英文 Key），两边的“先后”对不上；因果掩码用在序列对自身做注意力的场合。所以这一步用“猫 追 老鼠”，替换值仍按这里的选择。',
    futureLeak: '未来信息泄漏：对角线以上有 {n} 个格子分到了权重（红框标出）。训练时模型会学会直接从“未来”抄答案。',
    upperZero: '对角线以上每个格子的权重都恰好为 0：没有 Query 能读到未来。',
    level0: '0 屏蔽',
    level1: '1 允许',
    bothCausal:
      '两个掩码同时打开，合起来挡住了对角线以外的所有格子：每个 Query 只看得到自己的 Key，对角线上的权重都是 1，输出就是每个词自己的 Value。没有泄漏未来，但也什么都没有关注到：请只选其中一个。',
    noCausal: '先选因果掩码，再试试写反的版本。',
    toSelf: '每一步都改用“猫 追 老鼠”',
    fillLeak: '因果掩码虽然开着，可替换值 0 什么也挡不住：看看上面的替换值选项。',

    'h.custom': '自己画一个掩码',
    'p.custom':
      '点击权重图或掩码里的格子（或用方向键移动，按回车或空格），就能屏蔽或放开这一对 Query–Key。权重随即更新：替换值为 −∞ 或 −1e9 时，这一行剩下的权重按原有比例放大，重新加起来等于 1。替换值为 0 时，其实什么也没挡住（见上文）。',
    clearCustom: '全部重新允许',
    alsoBlocked: '“{q}” → “{k}” 仍被填充位或因果掩码屏蔽着。',

    'h.blocked': '无处可看的一行',
    'p.blocked': '如果某个 Query 一个 Key 都不能看，会怎样？把它这一行的 Key 全部屏蔽，比较三种实现给出的结果。',
    blockRow: 'Query',
    blockIt: '屏蔽这个 Query 的所有 Key',
    unblockIt: '重新放开这一行',
    notBlocked: '目前还没有哪一行被整行屏蔽。选一个 Query，再点按钮。',
    colCase: '替换值与 softmax',
    colWeights: '“{q}”的权重',
    colOutput: '“{q}”的输出',
    colRows: '整行屏蔽的 Query',
    colVerdict: '这意味着什么',
    'case.neg-inf': '−∞，稳定 softmax（本引擎的规则）',
    'case.large-negative': '−1e9，稳定 softmax',
    'case.naive': '−∞，朴素 softmax',
    'verdict.zero':
      '权重全为 0，输出也全为 0。这是本引擎为“无处可看”的一行专门定的规则：照稳定 softmax 的公式直接算，这里会得到 −∞ − (−∞) = NaN，torch.softmax 就是这样。三行都把这个 Query 报告为整行屏蔽，因为掩码是同一个；不同的只是各种替换值和 softmax 怎样处理它。',
    'verdict.uniform':
      '这一行的分数全是 −1e9，softmax 分不出高下：权重完全平均，输出就是所有 Value 的简单平均——包括你本想藏起来的那些。',
    'verdict.nan': '每个 Key 的 exp(−∞) 都是 0，接着 0 / 0 = NaN（非数）。NaN 会一路传进后面的每一层，直到 loss。',
    'verdict.other': '既不是零，也不是平均，也不是 NaN。',
    'verdict.nanOther': '出现了 NaN。',
    rowsNone: '无',
    rowRef: '{k}（{q}）',
    listSep: '、',

    'h.two-token': '两个词的自检',
    'p.two-token':
      '检验注意力代码的一个小测试：只留两个词，屏蔽其中一个，输出就必须和另一个词的 Value 一模一样——被屏蔽的词一点都不能掺进来。这一关都过不了，就先查掩码，或者 softmax 作用的轴（dim），别急着怀疑更高深的东西。这里用示例的第一个 Query 和前两个 Key，替换值和 softmax 沿用上面的选择。',
    twoMask: '屏蔽',
    twoTooFew: '这个检查至少需要两个 Key，而这个示例只有一个。',
    twoWeights: '权重（引擎，{q} → {k0}、{k1}）',
    twoOutput: '输出（引擎）',
    twoValue: '“{tok}”的 Value',
    twoValues: '“{k0}”和“{k1}”的 Value；“{masked}”作为填充被屏蔽',
    twoDiff: '最大差值',
    twoPass: '通过：输出与“{tok}”的 Value 完全相同。',
    twoFail: '未通过：输出与“{tok}”的 Value 最多相差 {d}，被屏蔽的词漏了进来。',
    twoNan: '未通过：输出里有 NaN。',
    'twoPredict.q': '“{masked}”被屏蔽，它的分数填成 {fill}。输出会和“{tok}”的 Value 一模一样吗？',
    'twoPredict.pass': '会，完全一样',
    'twoPredict.fail': '不会，被屏蔽的词还是会漏进来',
    'twoPredict.pass.why': '用这个填充值，被屏蔽分数的指数恰好是 0，被屏蔽的词一点权重也分不到。',
    'twoPredict.fail.why': '用这个填充值，被屏蔽的词仍分到一部分权重，它的 Value 漏进了输出（最多相差 {d}）。',
    twoCheckNote: '差值是页面根据引擎给出的两个向量算出的核对值。',
  },
};
