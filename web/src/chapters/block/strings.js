// Every string the block chapter shows, in English and Chinese.

export default {
  en: {
    intro:
      'A Transformer layer is more than attention: self-attention, a residual sum, LayerNorm and a feed-forward network, and in the decoder a masked self-attention and cross-attention to the encoder. Every number of one encoder layer and one decoder layer, on “The cat eats fish” → “猫 吃 鱼”, computed live.',
    errEngine: 'The engine could not compute this: {msg}',
    example: 'The sentences',
    source: 'Encoder tokens (English)',
    target: 'Decoder tokens (Chinese)',
    diagram: 'The block: each box is a step',
    'side.encoder': 'Encoder layer',
    'side.decoder': 'Decoder layer',
    'box.self': 'Self-attention',
    'box.norm': 'Add & Norm',
    'box.ff': 'Feed-forward',
    'box.masked': 'Masked self-attention',
    'box.cross': 'Cross-attention',
    'box.stack': '× N layers',
    'box.parallel': 'vs an RNN',
    'self.lead':
      'The encoder’s first stage is multi-head self-attention over the English tokens: every token is a query and every token a key. Each map is one head’s weights; each row sums to 1.',
    'self.formula':
      'x: {n} tokens × d_model = {d} (embedding + position). Q = x W_qᵀ, K = x W_kᵀ, V = x W_vᵀ, split into {h} heads of d_head = {dh}; each head softmax(Q Kᵀ / √{dh}) V; the heads side by side, times W_oᵀ.',
    'self.more':
      'The weights of this layer are drawn from the seed, not trained: the maps show how the numbers flow, not what a trained model has learned. The heads’ outputs, concatenated and projected by W_o, give one vector of size d_model per token, the same shape as x: that is what lets the next stage add them.',
    mapSelf: 'Head {k}: self-attention weights',
    residual: 'Residual connection (x + attention)',
    layerNorm: 'LayerNorm',
    'norm.lead':
      'The attention output is added to its own input, x + Attention(x), and LayerNorm rescales each token’s row to mean 0 and standard deviation 1 (then γ and β). The map compares each output row with each input token: 1 = same direction.',
    'norm.question': 'Turn the residual connection off. Will each output row still be closest to its own input token?',
    'opt.own': 'yes, every row keeps its token',
    'opt.lost': 'no, some rows lose their token',
    'norm.right':
      'With the residual {on} of {n} rows are closest to their own token; without it {off}. Attention mixes the tokens; the residual keeps each one’s own vector in the sum.',
    'norm.wrong':
      'With the residual {on} of {n} rows are closest to their own token; without it {off}. Without x in the sum, what is left is a weighted mix of every token’s values.',
    'norm.verdict': 'Now: {own} of {n} output rows are closest to their own input token.',
    'norm.table': 'Each token’s row before LayerNorm (the sum) and after it',
    token: 'Token',
    meanBefore: 'mean before',
    stdBefore: 'std before',
    meanAfter: 'mean after',
    stdAfter: 'std after',
    'norm.more':
      'LayerNorm works on each token separately, over its d_model features, so a long sentence and a short one are normalised the same way. In the table, the mean and std before are the engine’s own (layerNorm reports them); after, every row has mean 0 and std close to 1 (eps = 1e-5 keeps the division finite).',
    mapSim: 'Cosine similarity: output row (′) against each input token',
    activation: 'Activation',
    'ff.lead':
      'The feed-forward network acts on each token on its own: a Linear layer up to a hidden layer of 4 × d_model = 32, an activation, and a Linear layer back to d_model. The map is the hidden layer after the activation.',
    'ff.note': '{zeros} of {cells} hidden values are exactly 0 ({hidden} hidden units per token, d_model = {d}).',
    'ff.more':
      'Attention moves information between tokens; the feed-forward network transforms what each token holds, with no look at the others. ReLU sets every negative value to 0; GELU (the exact x·Φ(x), torch’s default) lets small negative values through, so it has fewer exact zeros.',
    mapFf: 'Hidden layer ({hidden} units) after the activation',
    'masked.lead':
      'The decoder starts with self-attention over the Chinese tokens, with the causal mask of the masks chapter: token i sees tokens 1 to i only, so while translating it cannot look at words it has not written yet.',
    'masked.more':
      'The upper triangle is exactly 0: those keys are blocked before the softmax. The first token can only attend to itself, so its row is a single 1. After this stage come the residual and LayerNorm, as in the encoder.',
    mapMasked: 'Head {k}: masked self-attention weights',
    aligned: 'Hand-set alignment (猫 → cat, 吃 → eats, 鱼 → fish)',
    'cross.lead':
      'Cross-attention takes its queries from the decoder and its keys and values from the encoder’s output: a ({nq} × {nk}) map, Chinese rows over English columns. Here each Chinese word gathers what it needs from the English sentence.',
    'cross.handSet':
      'Hand-set: head 1’s W_q and W_k pair each Chinese word with its English word, the way a trained model’s alignment looks; head 2 is set to 0 and spreads its weight evenly. The weights are {nq} × {nk}: n_q ≠ n_k.',
    'cross.drawn':
      'Weights drawn from the seed, untrained: the alignment is arbitrary. Tick the hand-set alignment to see what a learned one looks like. The weights are {nq} × {nk}: n_q ≠ n_k.',
    'cross.more':
      'This is the same shape as the pipeline chapter’s translation preset. Nothing is masked here: the whole source sentence is known while translating. After cross-attention: the residual, LayerNorm, the feed-forward network and a last residual and LayerNorm.',
    mapCross: 'Head {k}: cross-attention weights (decoder × encoder)',
    layers: 'Layers stacked',
    normFirst: 'Pre-norm (LayerNorm before each sub-layer)',
    'stack.lead':
      'A Transformer stacks the same kind of layer many times. Here the encoder layer runs 1 to 6 times with the same weights, and the chart shows the mean length of the tokens’ rows after each, with and without LayerNorm.',
    'stack.chart': 'Mean row length after each layer',
    'stack.x': 'layers',
    'stack.y': 'mean |row|',
    hideTable: 'Hide table',
    'stack.with': 'with LayerNorm',
    'stack.without': 'without LayerNorm',
    'stack.note': 'After {layers} layers: {on} with LayerNorm, {off} without (the input rows: {start}).',
    'stack.more':
      'Without LayerNorm every residual adds another vector to the sum, and the rows grow from layer to layer: deep stacks drift out of the range the next layer was made for. Post-norm (torch’s default, the original paper) normalises after each sum; pre-norm normalises each sub-layer’s input and leaves the sum alone, which trains more easily in deep stacks but lets the rows grow.',
    measure: 'Measure both on 8 to 512 tokens',
    replay: 'Run the GRU again',
    'parallel.lead':
      'An RNN reads a sentence one token after another: its state at token t needs its state at t − 1, so n tokens take n dependent steps. The map is a GRU’s hidden states over the English tokens, drawn as the engine computes them: each row only after the one above. The attention layer computes every row in one pass.',
    'parallel.table': 'On {n} tokens',
    'col.sequential': 'sequential steps',
    'col.path': 'path from the first token to the last',
    'row.attention': 'Attention layer',
    'row.rnn': 'RNN (GRU)',
    'parallel.timed':
      'Measured in this browser, one thread: the fastest of 11 runs after a warm-up (ms per call), d_model = 8',
    'parallel.verdict':
      'Here the GRU was faster at {rnnFaster} of {lengths} lengths; at n = {n} the attention layer took {ratio}× the GRU’s time. The GRU’s arithmetic grows as n · d² and attention’s as n² · d, so with d_model = 8 on one thread the RNN does less work. What attention wins is in the first table: one sequential step and a path of length 1, which pays off only on hardware that computes the n rows at the same time.',
    'col.attention': 'attention layer (ms)',
    'col.rnn': 'GRU (ms)',
    'col.steps': 'GRU steps',
    mapRnn: 'GRU hidden states, one step per token',
    'parallel.more':
      'In attention the first and the last token are one step apart: the last query looks at the first key directly. In the RNN the first token’s information has to pass through every state in between. On one thread the attention layer does more arithmetic (n² scores against the GRU’s n · d² products), so the GRU can be faster there, as the measured table may well show; but none of attention’s work waits for a previous token, which is why it spreads over a GPU’s thousands of cores and the RNN does not. The times are this engine’s own, measured on this page’s one thread when you press the button.',
  },
  zh: {
    intro:
      'Transformer 层不只是注意力：还有残差相加、LayerNorm 和前馈网络；解码器里还有掩码自注意力和对编码器的交叉注意力。本章在“The cat eats fish” → “猫 吃 鱼”上实时算出一个编码器层和一个解码器层的每一个数。',
    errEngine: '引擎无法计算：{msg}',
    example: '句子',
    source: '编码器的词（英文）',
    target: '解码器的词（中文）',
    diagram: '模块结构：每个方框是一步',
    'side.encoder': '编码器层',
    'side.decoder': '解码器层',
    'box.self': '自注意力',
    'box.norm': '残差与归一化',
    'box.ff': '前馈网络',
    'box.masked': '掩码自注意力',
    'box.cross': '交叉注意力',
    'box.stack': '× N 层',
    'box.parallel': '对比 RNN',
    'self.lead': '编码器的第一步是英文词上的多头自注意力：每个词既是查询，也是键。每张图是一个头的权重，每行之和为 1。',
    'self.formula':
      'x：{n} 个词 × d_model = {d}（词向量 + 位置编码）。Q = x W_qᵀ，K = x W_kᵀ，V = x W_vᵀ，分成 {h} 个头，每头 d_head = {dh}；每个头算 softmax(Q Kᵀ / √{dh}) V；各头并排拼接，再乘 W_oᵀ。',
    'self.more':
      '这一层的权重由随机种子生成，没有训练过：图里看的是数字怎样流动，而不是训练好的模型学到了什么。各头的输出拼接后经 W_o 投影，每个词得到一个 d_model 维的向量，和 x 形状相同：所以下一步才能把它们相加。',
    mapSelf: '第 {k} 个头：自注意力权重',
    residual: '残差连接（x + 注意力）',
    layerNorm: '层归一化（LayerNorm）',
    'norm.lead':
      '注意力的输出加回它自己的输入，x + Attention(x)，然后 LayerNorm 把每个词的那一行缩放到均值 0、标准差 1（再乘 γ、加 β）。图中比较每个输出行与每个输入词：1 表示方向相同。',
    'norm.question': '关掉残差连接。每个输出行还会最接近它自己的输入词吗？',
    'opt.own': '会，每一行都保住自己的词',
    'opt.lost': '不会，有些行丢了自己的词',
    'norm.right':
      '有残差时，{n} 行中有 {on} 行最接近自己的词；没有残差时是 {off} 行。注意力把各个词混在一起，残差把每个词自己的向量留在和里。',
    'norm.wrong':
      '有残差时，{n} 行中有 {on} 行最接近自己的词；没有残差时是 {off} 行。和里没有了 x，剩下的只是所有词的值向量的加权混合。',
    'norm.verdict': '当前：{n} 个输出行中有 {own} 行最接近自己的输入词。',
    'norm.table': '每个词的那一行：LayerNorm 之前（相加之和）与之后',
    token: '词',
    meanBefore: '之前的均值',
    stdBefore: '之前的标准差',
    meanAfter: '之后的均值',
    stdAfter: '之后的标准差',
    'norm.more':
      'LayerNorm 对每个词单独进行，在它的 d_model 个特征上归一化，所以长句和短句的归一化方式相同。表中“之前”的均值和标准差是引擎自己给出的（layerNorm 会报告它们）；“之后”每一行的均值都是 0，标准差接近 1（eps = 1e-5 保证除法有限）。',
    mapSim: '余弦相似度：输出行（′）与每个输入词',
    activation: '激活函数',
    'ff.lead':
      '前馈网络对每个词单独作用：一个线性层升到 4 × d_model = 32 维的隐藏层，一个激活函数，再一个线性层回到 d_model。图中是激活之后的隐藏层。',
    'ff.note': '{cells} 个隐藏值中有 {zeros} 个恰好为 0（每个词 {hidden} 个隐藏单元，d_model = {d}）。',
    'ff.more':
      '注意力在词与词之间传递信息；前馈网络则变换每个词自己携带的内容，不看其他词。ReLU 把所有负值变成 0；GELU（精确的 x·Φ(x)，torch 的默认）让较小的负值通过，所以恰好为 0 的值更少。',
    mapFf: '激活之后的隐藏层（{hidden} 个单元）',
    'masked.lead':
      '解码器先在中文词上做自注意力，并带上掩码一章的因果掩码：第 i 个词只能看第 1 到第 i 个词，所以翻译时看不到还没写出的词。',
    'masked.more':
      '上三角恰好为 0：这些键在 softmax 之前就被屏蔽了。第一个词只能关注它自己，所以它那一行只有一个 1。这一步之后同样是残差和 LayerNorm。',
    mapMasked: '第 {k} 个头：掩码自注意力权重',
    aligned: '手工设定的对齐（猫 → cat，吃 → eats，鱼 → fish）',
    'cross.lead':
      '交叉注意力的查询来自解码器，键和值来自编码器的输出：一张 ({nq} × {nk}) 的图，行是中文词，列是英文词。每个中文词从英文句子里取它需要的信息。',
    'cross.handSet':
      '手工设定：第 1 个头的 W_q 和 W_k 把每个中文词和它对应的英文词配成一对，就像训练好的模型的对齐；第 2 个头设为 0，把权重平均分开。权重是 {nq} × {nk}：n_q ≠ n_k。',
    'cross.drawn':
      '权重由随机种子生成，没有训练：对齐是任意的。勾选手工设定的对齐，看看学到的对齐是什么样子。权重是 {nq} × {nk}：n_q ≠ n_k。',
    'cross.more':
      '这与流程一章的翻译预设形状相同。这里不加掩码：翻译时整个源句都是已知的。交叉注意力之后是残差、LayerNorm、前馈网络，最后再一次残差和 LayerNorm。',
    mapCross: '第 {k} 个头：交叉注意力权重（解码器 × 编码器）',
    layers: '堆叠的层数',
    normFirst: '前置归一化（每个子层之前做 LayerNorm）',
    'stack.lead':
      'Transformer 把同一种层堆叠很多次。这里让编码器层用同样的权重运行 1 到 6 次，图中是每层之后各词向量的平均长度，分别在有和没有 LayerNorm 时。',
    'stack.chart': '每层之后的平均行长度',
    'stack.x': '层数',
    'stack.y': '平均 |行|',
    hideTable: '隐藏表格',
    'stack.with': '有 LayerNorm',
    'stack.without': '没有 LayerNorm',
    'stack.note': '{layers} 层之后：有 LayerNorm 为 {on}，没有为 {off}（输入的行：{start}）。',
    'stack.more':
      '没有 LayerNorm 时，每个残差都往和里再加一个向量，行向量一层比一层长：深的堆叠会偏离下一层所适应的数值范围。后置归一化（torch 的默认，原论文的做法）在每次相加之后归一化；前置归一化对每个子层的输入做归一化，不动相加之和，在很深的堆叠中更容易训练，但行向量会变长。',
    measure: '在 8 到 512 个词上测量两者',
    replay: '再运行一次 GRU',
    'parallel.lead':
      'RNN 一个词接一个词地读句子：它在第 t 个词的状态需要第 t − 1 个词的状态，所以 n 个词要 n 个相互依赖的步骤。图中是 GRU 在英文词上的隐藏状态，按引擎计算的顺序画出：每一行都在上一行之后才算出来。注意力层一次就算出所有行。',
    'parallel.table': '在 {n} 个词上',
    'col.sequential': '串行步骤数',
    'col.path': '从第一个词到最后一个词的路径长度',
    'row.attention': '注意力层',
    'row.rnn': 'RNN（GRU）',
    'parallel.timed': '在本浏览器的单个线程上测量：预热后 11 次运行中最快的一次（每次调用的毫秒数），d_model = 8',
    'parallel.verdict':
      '这里 GRU 在 {lengths} 个长度中有 {rnnFaster} 个更快；在 n = {n} 时，注意力层用时是 GRU 的 {ratio} 倍。GRU 的运算量按 n · d² 增长，注意力按 n² · d 增长，所以 d_model = 8 时在单线程上 RNN 的工作更少。注意力赢在第一张表：只有一个串行步骤、路径长度为 1，这只有在能同时计算 n 行的硬件上才划算。',
    'col.attention': '注意力层（毫秒）',
    'col.rnn': 'GRU（毫秒）',
    'col.steps': 'GRU 步骤数',
    mapRnn: 'GRU 隐藏状态，每个词一步',
    'parallel.more':
      '在注意力中，第一个词和最后一个词只隔一步：最后一个查询直接看第一个键。在 RNN 中，第一个词的信息必须经过中间的每一个状态。在单线程上注意力层的运算更多（n² 个分数，GRU 是 n · d² 次乘法），所以在这里 GRU 可能更快，测得的表格很可能正是如此；但注意力没有一步需要等前一个词，所以它能分散到 GPU 的成千上万个核上，而 RNN 不能。这些时间是本引擎自己的，在你按下按钮时于本页的单个线程上测得。',
  },
};
