// Every string the why chapter shows, in English and Chinese: { en: { key: text }, zh: { ... } }.
// {name} in a text is filled in by the chapter (i18n.js lookup).

export default {
  en: {
    intro:
      'Before the formulas, the problem. Attention was invented to fix one specific weakness of the translation models of 2014, and the fix turned out to be general enough to become the core of the Transformer, the architecture most of today’s large language models are built on.',

    'h.bottleneck': 'A whole sentence through one vector',
    'p.trainIt':
      'This is a claim you can test: the encoder–decoder playground trains one model without attention and one with it, side by side, and plots how many words each gets right against the input’s length.',
    trainIt: 'Train both and see',
    'p.bottleneck1':
      'Early neural translation used two recurrent networks. The encoder reads the source sentence word by word and ends with a single context vector of fixed length. The decoder then has to write the whole translation from that one vector.',
    'p.bottleneck2':
      'A vector of fixed size holds a fixed amount of information. The longer the sentence, the more the first words fade from it, and translations of long sentences start dropping content — the earlier the word, the likelier it is lost. LSTMs eased the vanishing gradient, but they could not lift this limit: it is built into the design.',
    'p.bottleneck3':
      'The way out is simple to say: instead of one summary, let the decoder look back at every encoder state at every step, and take more from the states it needs right now.',
    view: 'Diagram',
    without: 'Without attention',
    with: 'With attention',
    target: 'Word being written',
    diagramWithout:
      'Encoder–decoder without attention: the encoder states of The, cat, eats, fish are folded into one context vector c, and the decoder writes 猫 吃 鱼 from c alone.',
    diagramWith:
      'Encoder–decoder with attention: while writing “{t}”, the decoder reads every encoder state; line widths are the engine’s weights: {list}.',
    context: 'c',
    encoder: 'encoder',
    decoder: 'decoder',
    captionWith:
      'Line width = the weight the engine computes for “{t}” over the English words (the translation example of the next chapter). The decoder chooses again for every word it writes.',
    captionWithout: 'Everything the decoder knows about the source has to pass through c.',

    'h.lookup': 'A soft, differentiable lookup',
    'p.shelf':
      'Think of each token as a book on a shelf. The Key is the label on its spine, the Value is the text inside, and the Query is the question on your mind. An ordinary lookup matches the question against the labels and hands you exactly one book.',
    'p.soft':
      'Attention compares the question with every label, turns the match scores into weights that are non-negative and add up to 1, and hands you a blend of all the books, mostly the relevant ones. The blend changes smoothly when the scores change, so gradients flow through it and the model can learn where to look.',
    'p.exam':
      'Or think of an exam. Your lecture notes are the encoder’s hidden states. For each question you follow its keywords to the right pages, read those closely, skim the rest, and put the answer together from several places. A recurrent model without attention answers every question from the last page of its notes.',
    tryIt: 'Try it: 猫 追 老鼠',
    tryIntro:
      'In the sentence 猫 追 老鼠 (“the cat chases the mouse”) each word has a hand-made Key and Value with four features: does the action, is an action, receives the action, is an animal. Pick a question; the engine scores it against the three Keys, applies softmax and mixes the Values.',
    question: 'Question (Query)',
    qAsk: 'asked by {tok}: “{note}”',
    'predict.q': 'When {tok} asks “{note}”, which word will get the largest weight?',
    'predict.right': '{k} gets {w}: its Key matches the question best.',
    'predict.wrong': 'The engine gives the largest weight, {w}, to {k}: its Key matches the question best.',
    softBars: 'Soft attention: weights of “{note}”',
    hardBars: 'Hard lookup: one-hot at the highest score',
    vecMap: 'The question q of {tok} and the three Keys k, feature by feature',
    landsOn: 'Most of the weight lands on {k} ({w}). The answer is a blend of the Values, led by {k}’s:',
    outputIs: 'output',
    hardNote:
      'A hard lookup takes only the top Key. Its answer jumps from one book to another the moment two scores swap places, so it has no useful gradient; the soft blend moves smoothly.',

    'h.self-cross': 'Self-attention and cross-attention',
    'p.cross':
      'Where do Q, K and V come from? In cross-attention the Queries come from one sequence and the Keys and Values from another. In translation the decoder asks (猫 吃 鱼) and the encoder’s states answer (The cat eats fish): one row per target word, one column per source word — a {shape} weight matrix here, computed by the engine.',
    'p.self':
      'In self-attention all three come from the same sequence, each through its own learned projection. Every token can then reach every other token in one step, however far apart: in 那只被主人遗弃的猫终于找到了新家 (“the cat abandoned by its owner finally found a new home”), 猫 can connect with 遗弃 directly, instead of passing the message along word by word as a recurrent network must. Here 猫 追 老鼠 attends to itself: a {shape} matrix.',
    'p.both':
      'A Transformer decoder uses both: self-attention over the words it has written so far (with a causal mask — see the Masks chapter) and cross-attention into the encoder.',
    crossMap: 'Cross-attention weights (rows: 猫 吃 鱼, columns: The cat eats fish)',
    selfMap: 'Self-attention weights (rows and columns: 猫 追 老鼠)',

    'h.timeline': 'How we got here',
    'p.timeline': 'Each step kept the idea of the one before and made up for one of its shortcomings.',
    't1.when': '2014',
    't1.what': 'Sequence to sequence',
    't1.body':
      'An encoder RNN reads the source, a decoder RNN writes the target; everything passes through one fixed context vector (Sutskever, Vinyals & Le; Cho et al.).',
    't2.when': '2014',
    't2.what': 'Additive attention (Bahdanau)',
    't2.body':
      'At each output step a small network scores every encoder state: vᵀ tanh(W_q q + W_k k). Query and key may have different sizes. W_q q and W_k k are computed only once each; the cost lies in combining them: every (query, key) pair needs its own tanh over the h hidden units, n_q·n_k·h evaluations in all, and computing a batch at once holds an n_q × n_k × h array in memory, where dot-product scores are a single matrix product.',
    't3.when': '2015',
    't3.what': 'Multiplicative attention (Luong)',
    't3.body':
      'The score becomes a dot product qᵀk: one matrix product scores all pairs at once, fast and parallel, but q and k must have the same size. The general form qᵀWk puts a learned matrix W of shape (d_q, d_k) in between, so q and k may differ in size and the scores are still matrix products.',
    't4.when': '2017',
    't4.what': 'Scaled dot-product',
    't4.body':
      'Divide by √d_k. If the components of q and k are independent with mean 0 and variance 1, which is roughly true of a freshly initialised model, the dot product has variance d_k (std 8 at d_k = 64). Dividing by √d_k brings the variance back to 1, so softmax does not saturate and the gradients survive.',
    't5.when': '2017',
    't5.what': 'Multi-head attention',
    't5.body':
      'Several attentions in parallel, each with its own projections and its own pattern: d_model = 768 split into 12 heads of 64 costs about as much as one single-head attention of width 768. The heads are concatenated and mixed by one more linear layer.',
    't6.when': '2017',
    't6.what': 'Self-attention and the Transformer',
    't6.body':
      'Recurrence dropped altogether: stacks of self-attention and feed-forward layers, with cross-attention from decoder to encoder. Every pair of positions is one step apart, and in training the whole sequence is processed in parallel (generating text still writes one token after another); the cost is O(n²) time and memory in the sequence length (Vaswani et al., “Attention Is All You Need”).',
    errEngine: 'The engine could not process this example: {msg}',
  },
  zh: {
    intro:
      '先讲问题，再讲公式。注意力最初是为了补上 2014 年前后翻译模型的一个具体短板而提出的。没想到这个办法足够通用，后来成了 Transformer 的核心，而今天的大语言模型大多建立在 Transformer 之上。',

    'h.bottleneck': '整句话挤过一个向量',
    'p.trainIt':
      '这个说法可以亲手检验：编码器–解码器训练场并排训练一个没有注意力和一个有注意力的模型，画出各自写对的词随输入长度的变化。',
    trainIt: '训练两个模型看看',
    'p.bottleneck1':
      '早期的神经机器翻译由两个循环神经网络组成。编码器一个词一个词地读完源句，最后只留下一个长度固定的上下文向量；解码器则要凭这一个向量写出整句译文。',
    'p.bottleneck2':
      '长度固定的向量，能装的信息也有上限。句子越长，开头那些词的信息在向量里就被冲淡得越厉害；长句的译文开始丢内容，而且越靠前的词越容易丢。LSTM 缓解了梯度消失，却抬不高这个上限：它是结构本身带来的。',
    'p.bottleneck3':
      '出路说起来很简单：别只给一个摘要，让解码器每写一个词都回头看一遍编码器的所有隐状态，眼下需要哪一部分，就从哪里多取一点。',
    view: '示意图',
    without: '没有注意力',
    with: '有注意力',
    target: '正在写的词',
    diagramWithout:
      '没有注意力的编码器-解码器：The、cat、eats、fish 的编码器状态被压缩成一个上下文向量 c，解码器只凭 c 写出“猫 吃 鱼”。',
    diagramWith: '有注意力的编码器-解码器：写“{t}”时，解码器会读取每一个编码器状态；连线粗细是引擎算出的权重：{list}。',
    context: 'c',
    encoder: '编码器',
    decoder: '解码器',
    captionWith:
      '连线粗细 = 引擎为“{t}”在各个英文词上算出的权重（用的是下一章翻译示例里的向量）。解码器每写一个词，都会重新分配一次权重。',
    captionWithout: '解码器对源句的全部了解，都得先挤过 c 这一个向量。',

    'h.lookup': '一次软性的、可微的查找',
    'p.shelf':
      '把每个词想成书架上的一本书：Key（键）是书脊上的标签，Value（值）是书里的正文，Query（查询）是你心里正琢磨的问题。普通的查找拿问题去对标签，只递给你一本书。',
    'p.soft':
      '注意力则拿问题和每一个标签都比一比，把匹配分数变成一组非负、加起来等于 1 的权重，然后递给你所有书按权重混合出的内容，其中主要来自相关的那几本。分数一变，混合结果就平滑地跟着变，梯度可以顺着传回去，模型也就能学会“该看哪里”。',
    'p.exam':
      '也可以想想考试。课上记的笔记就是编码器的各个隐状态。每道题你都会顺着题目里的关键词翻到相关的几页，细读这些，略过其余，再从几处内容里拼出答案。没有注意力的循环网络，相当于每道题都只看笔记的最后一页。',
    tryIt: '动手试试：猫 追 老鼠',
    tryIntro:
      '在“猫 追 老鼠”这句话里，每个词都有一个手工设计的 Key 和 Value，包含四个特征：施事（发出动作）、动作、受事（承受动作）、动物。选一个问题，引擎会拿它和三个 Key 逐一打分、做 softmax，再把 Value 混合起来。',
    question: '问题（Query）',
    qAsk: '由“{tok}”提出：“{note}”',
    'predict.q': '“{tok}”问“{note}”时，哪个词的权重最大？',
    'predict.right': '“{k}”得到 {w}：它的 Key 和这个问题最匹配。',
    'predict.wrong': '引擎把最大的权重 {w} 给了“{k}”：它的 Key 和这个问题最匹配。',
    softBars: '软注意力：“{note}”的权重',
    hardBars: '硬查找：只取最高分（独热向量）',
    vecMap: '“{tok}”的问题 q 和三个 Key k，逐个特征对照',
    landsOn: '大部分权重落在“{k}”上（{w}）。答案是各个 Value 的混合，以“{k}”的 Value 为主：',
    outputIs: '输出',
    hardNote:
      '硬查找只取得分最高的那个 Key。分数高低一旦互换，答案就从一本书跳到另一本，没有可用的梯度；软混合则是平滑变化的。',

    'h.self-cross': '自注意力与交叉注意力',
    'p.cross':
      'Q、K、V 从哪儿来？在交叉注意力中，Query 来自一个序列，Key 和 Value 来自另一个。翻译时解码器提问（猫 吃 鱼），编码器的隐状态作答（The cat eats fish）：每个目标词一行，每个源词一列。这里引擎算出的是一个 {shape} 的权重矩阵。',
    'p.self':
      '自注意力里三者都来自同一个序列，只是各自经过一个可学习的投影。这样每个词一步就能连到任何一个词，不管隔得多远：在“那只被主人遗弃的猫终于找到了新家”里，“猫”可以直接连上“遗弃”，不必像循环网络那样一个词一个词地往下传。这里“猫 追 老鼠”对自己做注意力：一个 {shape} 的矩阵。',
    'p.both':
      'Transformer 的解码器两种都用：先对自己已经写出的词做自注意力（配合因果掩码，见“掩码”一章），再对编码器做交叉注意力。',
    crossMap: '交叉注意力权重（行：猫 吃 鱼，列：The cat eats fish）',
    selfMap: '自注意力权重（行和列：猫 追 老鼠）',

    'h.timeline': '一路走来',
    'p.timeline': '每一步都保留了上一步的思路，同时弥补了它的一处不足。',
    't1.when': '2014',
    't1.what': '序列到序列（Seq2Seq）',
    't1.body':
      '编码器 RNN 读源句，解码器 RNN 写目标句；所有信息都要经过一个固定的上下文向量（Sutskever、Vinyals 与 Le；Cho 等人）。',
    't2.when': '2014',
    't2.what': '加性注意力（Bahdanau）',
    't2.body':
      '每写一个输出词，就用一个小网络给每个编码器状态打分：vᵀ tanh(W_q q + W_k k)。Query 和 Key 的维度可以不同。W_q q 和 W_k k 各自只需算一次，开销在于把两者组合起来：每一对（Query, Key）都要在 h 个隐藏单元上各算一次 tanh，共 n_q·n_k·h 次；成批计算时，内存里还要放下一个 n_q × n_k × h 的数组。点积打分则只是一次矩阵乘法。',
    't3.when': '2015',
    't3.what': '乘性注意力（Luong）',
    't3.body':
      '打分改成点积 qᵀk：一次矩阵乘法就给所有配对打完分，又快又能并行，但要求 q、k 维度相同。一般形式 qᵀWk 在中间加一个可学习的矩阵 W，形状为 (d_q, d_k)，这样 q、k 的维度可以不同，打分仍然只是矩阵乘法。',
    't4.when': '2017',
    't4.what': '缩放点积注意力',
    't4.body':
      '再除以 √d_k。假设 q、k 的各个分量相互独立、均值为 0、方差为 1（模型刚初始化时大致如此），点积的方差就是 d_k（d_k = 64 时标准差为 8）。除以 √d_k 后方差回到 1，softmax 不会饱和，梯度也就保住了。',
    't5.when': '2017',
    't5.what': '多头注意力',
    't5.body':
      '几组注意力并行，各有各的投影、各学各的模式：把 d_model = 768 拆成 12 个 64 维的头，计算量与一个 768 维的单头注意力相当。各头的结果拼接起来，再经一个线性层融合。',
    't6.when': '2017',
    't6.what': '自注意力与 Transformer',
    't6.body':
      '彻底去掉循环：层层堆叠自注意力和前馈网络，解码器再通过交叉注意力读取编码器。任意两个位置之间只隔一步；训练时整句可以并行处理（生成文本时仍要一个词接一个词地写）。代价是计算量和显存都随序列长度按 O(n²) 增长（Vaswani 等人，《Attention Is All You Need》）。',
    errEngine: '引擎无法处理这个示例：{msg}',
  },
};
