// Every string the real-model lesson shows, in English and Chinese.

export default {
  en: {
    intro:
      'Everything so far ran on small examples. Here the same engine runs a real language model: a GPT-2, the architecture of the models that made attention famous, on a sentence you type. The one that opens is small and ships with this page; you can load any GPT-2-family checkpoint of your own.',
    errEngine: 'The engine could not compute this: {msg}',

    // the model box
    'model.shipped':
      'The small GPT-2 that ships with this page: {layers} layers × {heads} heads, d_model {d}, {vocab} tokens, {params} parameters ({memory} in the engine). It learned from English and Chinese sentences of a small grammar.',
    'model.own':
      '{name}: {layers} layers × {heads} heads, d_model {d}, {vocab} tokens, {params} parameters ({memory} in the engine).',
    'model.loading': 'Reading the weights: {done} of {total}…',
    'model.starting': 'Loading the model…',
    'model.need': ' It needs {memory} of memory in the engine.',
    'model.needFile':
      'This link was made with a checkpoint of your own, “{name}”. Drop that file with its config.json here (or pick them) to see the same numbers.',
    cancel: 'Cancel',
    pick: 'Pick files…',
    useShipped: 'Back to the small model',
    dropHint:
      'Your own GPT-2-family model: drop its model.safetensors and config.json here, or pick both. It stays on your computer. GPT-2 small needs about 0.5 GB of memory.',
    'load.cancelled': 'Loading was cancelled.',
    'load.fetch': 'Could not download {url}.',
    'load.status': 'The server answered {status} for {url}.',
    'load.json': '{file} is not a JSON file.',
    'load.noModelFile': 'No .safetensors file among the files given.',
    'load.noConfig': 'The model’s config.json is needed too: drop or pick it with the .safetensors file.',
    'load.refused': 'The engine cannot use this file: {msg}',

    // the sentence
    sentence: 'Your sentence',
    tokensLabel: 'The tokens the model sees, with their ids',
    tokensCount:
      '{n} tokens. Click one to see the guess after it. A character cut between tokens is shown as its bytes, under the character.',
    tokensIds: '{n} tokens. This model comes without a tokenizer the page knows: type token ids, separated by spaces.',
    tokensCut: 'The sentence has {n} tokens; the model reads at most {max}, so the rest is left out.',
    errIds: '“{id}” is not a token id of this model (0 to {max}).',

    'wait.model': 'Give the lesson a model to run.',
    'wait.loading': 'The model is loading; its numbers come as soon as it is read.',
    'wait.empty': 'Type a sentence: the model needs at least one token.',
    'wait.running': 'The engine is running the model…',
    'wait.scores': 'The engine is measuring every head…',

    layer: 'Layer',
    head: 'Head',
    layerShort: 'L{l}',
    headShort: 'H{h}',
    headName: 'layer {l}, head {h}',

    // 1. the guess
    guessTitle: 'What comes after “{tok}” (token {i}): the model’s ten likeliest next tokens',
    'q.next': 'Alice has the red book; who is it given to next?',
    'a.next': 'The model gives “{w}” the most probability of the three ({p}).',
    'a.nextWhy':
      'Nothing in the model says who owns what. It learned that the name after “to” is usually the one mentioned once, and attention is how it finds that name again in your sentence.',
    'guess.about':
      'A language model reads the tokens so far and gives a probability to every token that could come next. The bars are the ten likeliest, computed by the engine from the weights; change a word and they move. The example ends with a space because the small model writes the space before a word as a token of its own: the name is the token after it.',
    'guess.about2':
      'The model sees tokens, not words: pieces of text from its tokenizer, each with an id. GPT-2 cuts text into bytes and merges frequent pairs; a Chinese character is three bytes, and a rare one stays split.',

    // 2. all heads
    'heads.title': 'Every head’s attention weights on your {n} tokens (rows: a token; columns: the tokens it reads)',
    'heads.pick': 'Click a head to open it.',
    'heads.open': 'Open {name} stage by stage',
    oneTitle: 'The weights of {name}',
    'heads.about':
      'Each small map is one head: the causal mask leaves the upper triangle empty, since a token may read only itself and the tokens before it. Heads of the same layer read the same input and still look at very different things.',

    // 3. stages
    stage: 'Stage',
    'stage.scores': 'scores q·k',
    'stage.scaled': 'scaled ÷ √d_h',
    'stage.masked': 'causal mask',
    'stage.weights': 'softmax weights',
    'stage.output': 'weighted sum of v',
    stageTitle: '{name}: {stage}',
    'stages.cell': 'The formula reads row {i} ({ti}) and the token it weighs most, {j} ({tj}).',
    'stages.about':
      'The five stages of the pipeline lesson, on a real head: the engine splits the layer’s fused projection into this head’s q, k and v, and then computes exactly what you computed by hand there. Only the sizes are real now.',

    // 4. kinds of head
    scoreSeed: 'Seed of the random tokens',
    errInt: 'Please type a whole number from {min} to {max}.',
    'q.layer': 'Which layer holds the strongest induction head?',
    'a.layer':
      'Layer {l}. An induction head needs a head before it that has moved each token’s previous token into it, so it cannot sit in the first layer.',
    'a.layerNone':
      'None yet: the highest induction score, {score} in layer {l}, is far from a head that reads the token after the earlier copy. This model has not learned the mechanism; in a model that has, it sits after the first layer, because it needs a head before it that has moved each token’s previous token into it.',
    'score.previousToken': 'Previous token: weight on i − 1',
    'score.induction': 'Induction: weight on the token after the earlier copy',
    'score.duplicateToken': 'Duplicate: weight on the earlier copy',
    'score.firstToken': 'First token (attention sink): weight on token 0',
    'score.entropy': 'Entropy, as a share of its maximum',
    'types.previousToken':
      'A previous-token head reads the token just before each token. On its own it is a bigram detector; its real use is to copy each token’s predecessor into the residual stream for the heads after it.',
    'types.induction':
      'An induction head finds where the current token appeared before and reads the token that followed it there, so “A B … A” predicts “B”. The scores come from random tokens said twice: only this mechanism can predict their second half.',
    'types.duplicateToken':
      'A duplicate-token head reads earlier copies of the current token: a way to notice that a name or word comes back.',
    'types.firstToken':
      'Many heads put most of their weight on the first token when they have nothing to look for. Softmax must give its weight somewhere, and the first token, seen by every row, becomes the sink.',
    'types.entropy':
      'Entropy near its maximum means a head spreads its weight evenly; near 0, it reads one token. The debugging lesson uses the same measure.',
    testTitle: 'The induction test: {name} on random tokens said twice',
    testLine:
      'In the second half (the last {n} rows) each token looks one step to the right of its earlier copy: that diagonal stripe is the induction score ({score}).',
    testLineNone:
      'In the second half (the last {n} rows) an induction head would look one step to the right of each token’s earlier copy, a diagonal stripe. This head’s score there is {score}: no stripe, so no induction head.',

    // 5. ablation
    'ablate.click': 'Click a head in the grid to switch it off; click again to switch it back on.',
    measure: 'Measure each of the {n} heads',
    stop: 'Stop',
    clearAblate: 'Switch every head back on',
    'pass.running': 'Measuring head {done} of {total}…',
    'pass.done':
      'Each of the {total} heads measured: the grid shows how much the guess loses when that head alone is off.',
    effectTitle: 'How much probability “{tok}” loses when one head is switched off',
    before: 'All heads on',
    after: 'With the heads switched off',
    afterNone: 'No head switched off yet',
    afterHeads: 'Without {heads}',
    compareCaption: 'The next-token probabilities with all heads and with the chosen heads switched off',
    'q.matters': 'Is the head with the most striking weights (the most peaked) the one this guess depends on most?',
    'a.yes': 'Yes',
    'a.no': 'No',
    'a.same':
      'This time, yes: {striking} has the most peaked weights (mean largest weight {peak}) and switching it off costs the guess the most ({drop}).',
    'a.notSame':
      'No: {striking} has the most peaked weights (mean largest weight {peak}) but switching it off costs the guess only {drop}; {most} matters most ({mostDrop}).',
    'a.mattersWhy':
      'A weight says where a head reads, not whether what it reads changes the answer: a head can stare at one token and pass on almost nothing (its v or its output projection small), or the layers after it can make up for it.',
    'ablate.about':
      'Switching a head off sets its output to zero before the layer’s output projection, as if it had never been there. The bars show what that does to the next-token probabilities.',
    'ablate.about2':
      'This is why attention maps are not explanations on their own. To learn what a head does, change it and measure the effect on what the model says.',

    // 6. monitors
    entropyTitle: 'Entropy of each row of {name}, as a share of its maximum ln(i + 1)',
    entropyLine:
      'Mean over the rows: {mean}. Near 1 the head spreads its weight evenly (degraded, in the debugging lesson’s words); near 0 it reads one token.',
    spreadTitle: 'Spread (standard deviation) of each head’s scaled scores',
    'debug.about':
      'The debugging lesson’s monitors work on a trained model too. Row entropy against its maximum tells a focused head from one that averages everything.',
    'debug.about2':
      'The scaled scores’ spread should be of order 1: much larger and softmax saturates (the gradient dies), much smaller and every head averages. Training kept these heads in that range.',
  },
  zh: {
    intro:
      '前面的例子都很小。这一章用同一个引擎运行一个真正的语言模型：GPT-2，正是让注意力机制出名的那类模型的结构，输入由你来写。打开时的模型很小，随本页一起提供；你也可以载入自己的任何 GPT-2 系列检查点。',
    errEngine: '引擎无法计算：{msg}',

    'model.shipped':
      '随本页提供的小型 GPT-2：{layers} 层 × {heads} 个头，d_model {d}，{vocab} 个词元，{params} 个参数（在引擎中占 {memory}）。它学习的是一个小语法生成的中英文句子。',
    'model.own':
      '{name}：{layers} 层 × {heads} 个头，d_model {d}，{vocab} 个词元，{params} 个参数（在引擎中占 {memory}）。',
    'model.loading': '正在读取权重：{done} / {total}……',
    'model.starting': '正在载入模型……',
    'model.need': '它在引擎中需要 {memory} 内存。',
    'model.needFile':
      '这个链接用的是你自己的检查点“{name}”。把这个文件和它的 config.json 拖到这里（或选择它们），就能看到同样的数字。',
    cancel: '取消',
    pick: '选择文件……',
    useShipped: '回到小模型',
    dropHint:
      '你自己的 GPT-2 系列模型：把它的 model.safetensors 和 config.json 拖到这里，或者一起选择。文件不会离开你的电脑。GPT-2 small 大约需要 0.5 GB 内存。',
    'load.cancelled': '已取消载入。',
    'load.fetch': '无法下载 {url}。',
    'load.status': '服务器对 {url} 的回应是 {status}。',
    'load.json': '{file} 不是 JSON 文件。',
    'load.noModelFile': '给出的文件里没有 .safetensors 文件。',
    'load.noConfig': '还需要模型的 config.json：请和 .safetensors 文件一起拖入或选择。',
    'load.refused': '引擎无法使用这个文件：{msg}',

    sentence: '你的句子',
    tokensLabel: '模型看到的词元及其编号',
    tokensCount: '共 {n} 个词元。点击一个词元，看模型在它之后的猜测。被切开的汉字显示为字节，列在这个字的下面。',
    tokensIds: '共 {n} 个词元。这个模型没有本页认识的分词器：请输入词元编号，用空格分开。',
    tokensCut: '这句话有 {n} 个词元；模型最多读 {max} 个，其余的被略去。',
    errIds: '“{id}”不是这个模型的词元编号（0 到 {max}）。',

    'wait.model': '请给本章一个模型。',
    'wait.loading': '模型正在载入；读完后数字马上出现。',
    'wait.empty': '请输入一句话：模型至少需要一个词元。',
    'wait.running': '引擎正在运行模型……',
    'wait.scores': '引擎正在测量每一个头……',

    layer: '层',
    head: '头',
    layerShort: 'L{l}',
    headShort: 'H{h}',
    headName: '第 {l} 层第 {h} 个头',

    guessTitle: '“{tok}”（第 {i} 个词元）之后是什么：模型最看好的十个词元',
    'q.next': '小明有那本红色的书，接下来他把书给了谁？',
    'a.next': '三个选项中，模型给“{w}”的概率最高（{p}）。',
    'a.nextWhy':
      '模型里没有写着谁拥有什么。它学到的是：“给了”后面的名字通常是只出现过一次的那个；注意力就是它在你的句子里重新找到这个名字的办法。',
    'guess.about':
      '语言模型读入到目前为止的词元，给每一个可能出现在下一个位置的词元一个概率。条形是概率最高的十个，由引擎根据权重算出；改一个词，它们就会变。',
    'guess.about2':
      '模型看到的是词元而不是词：分词器切出的文本片段，各有编号。GPT-2 把文本切成字节，再合并常见的字节对；一个汉字是三个字节，少见的字会保持切开。',

    'heads.title': '每一个头在你的 {n} 个词元上的注意力权重（行：一个词元；列：它读取的词元）',
    'heads.pick': '点击一个头，把它打开。',
    'heads.open': '逐阶段打开{name}',
    oneTitle: '{name}的权重',
    'heads.about':
      '每张小图是一个头：因果掩码让右上三角为空，因为一个词元只能读它自己和它前面的词元。同一层的头读的是同一个输入，看的却很不一样。',

    stage: '阶段',
    'stage.scores': '分数 q·k',
    'stage.scaled': '缩放 ÷ √d_h',
    'stage.masked': '因果掩码',
    'stage.weights': 'softmax 权重',
    'stage.output': 'v 的加权和',
    stageTitle: '{name}：{stage}',
    'stages.cell': '公式读的是第 {i} 行（{ti}）和它权重最大的词元，第 {j} 个（{tj}）。',
    'stages.about':
      '这是流水线一章的五个阶段，放在一个真实的头上：引擎把这一层合并在一起的投影拆成这个头的 q、k、v，然后做的正是你在那一章手算过的事。只是尺寸变成了真的。',

    scoreSeed: '随机词元的种子',
    errInt: '请输入 {min} 到 {max} 之间的整数。',
    'q.layer': '最强的归纳头在哪一层？',
    'a.layer': '第 {l} 层。归纳头需要它前面有一个头先把每个词元的前一个词元搬进来，所以它不可能在第一层。',
    'a.layerNone':
      '还没有：最高的归纳分数是第 {l} 层的 {score}，离“读取前一次出现之后那个词元”的头还很远。这个模型还没学会这个机制；在学会了的模型里，它出现在第一层之后，因为它需要前面有一个头先把每个词元的前一个词元搬进来。',
    'score.previousToken': '前一个词元：在 i − 1 上的权重',
    'score.induction': '归纳：在前一次出现之后那个词元上的权重',
    'score.duplicateToken': '重复：在前一次出现上的权重',
    'score.firstToken': '第一个词元（注意力汇点）：在第 0 个词元上的权重',
    'score.entropy': '熵，占其最大值的比例',
    'types.previousToken':
      '前一词元头读取每个词元紧挨着的前一个词元。单独看它只是个二元组探测器；它真正的用处，是把每个词元的前一个词元写进残差流，留给后面的头用。',
    'types.induction':
      '归纳头找到当前词元以前出现的位置，读取那里紧跟着的词元，于是“A B … A”就预测“B”。这些分数来自说了两遍的随机词元：只有这种机制能预测后一半。',
    'types.duplicateToken': '重复词元头读取当前词元更早的副本：这是注意到一个名字或词又出现了的一种办法。',
    'types.firstToken':
      '很多头在没什么可找的时候，会把大部分权重放在第一个词元上。softmax 总得把权重分给某处，而每一行都看得到的第一个词元就成了汇点。',
    'types.entropy': '熵接近最大值，说明一个头把权重平均分开；接近 0，说明它只读一个词元。调试一章用的是同一个量。',
    testTitle: '归纳测试：{name}在说了两遍的随机词元上',
    testLine: '在后一半（最后 {n} 行），每个词元都看向它前一次出现位置的右边一格：这条斜线就是归纳分数（{score}）。',
    testLineNone:
      '在后一半（最后 {n} 行），归纳头会看向每个词元前一次出现位置的右边一格，形成一条斜线。这个头在那里的分数是 {score}：没有斜线，所以它不是归纳头。',

    'ablate.click': '点击网格里的一个头就把它关掉；再点一次重新打开。',
    measure: '逐个测量这 {n} 个头',
    stop: '停止',
    clearAblate: '重新打开所有的头',
    'pass.running': '正在测量第 {done} / {total} 个头……',
    'pass.done': '{total} 个头都测量过了：网格显示只关掉这一个头时，猜测失去多少概率。',
    effectTitle: '只关掉一个头时，“{tok}”失去多少概率',
    before: '所有的头都打开',
    after: '关掉选中的头之后',
    afterNone: '还没有关掉任何头',
    afterHeads: '去掉{heads}',
    compareCaption: '所有的头都打开时、以及关掉选中的头之后的下一个词元概率',
    'q.matters': '权重最醒目（最集中）的那个头，是这个猜测最依赖的头吗？',
    'a.yes': '是',
    'a.no': '不是',
    'a.same': '这一次是：{striking}的权重最集中（每行最大权重的平均值 {peak}），关掉它让猜测损失最多（{drop}）。',
    'a.notSame':
      '不是：{striking}的权重最集中（每行最大权重的平均值 {peak}），关掉它只让猜测损失 {drop}；最重要的是{most}（{mostDrop}）。',
    'a.mattersWhy':
      '权重说明的是一个头在读哪里，而不是它读到的东西会不会改变答案：一个头可以死死盯着一个词元，却几乎什么也不传出去（它的 v 或输出投影很小），后面的层也可能替它补上。',
    'ablate.about':
      '关掉一个头，就是在这一层的输出投影之前把它的输出置零，好像它从来不存在。条形显示这对下一个词元的概率有什么影响。',
    'ablate.about2':
      '这就是为什么注意力图本身不是解释。要知道一个头做了什么，就去改变它，再测量模型说出的东西有什么变化。',

    entropyTitle: '{name}每一行的熵，占其最大值 ln(i + 1) 的比例',
    entropyLine: '各行平均：{mean}。接近 1，这个头把权重平均分开（调试一章所说的退化）；接近 0，它只读一个词元。',
    spreadTitle: '每个头缩放后分数的离散程度（标准差）',
    'debug.about': '调试一章的监测指标对训练好的模型同样适用。行熵与其最大值之比，能区分专注的头和什么都平均的头。',
    'debug.about2':
      '缩放后分数的标准差应该在 1 左右：大得多，softmax 就会饱和（梯度消失）；小得多，每个头都在做平均。训练让这些头保持在这个范围里。',
  },
};
