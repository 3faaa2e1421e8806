// The example on screen as code a learner can run: a NumPy script and a PyTorch script that
// print the weights and output the page shows. Pure: no DOM, no engine calls. The inputs are
// the engine's own float32 arguments, written with just enough digits to give back the same
// float32 values, and the scripts compute in float32 as the engine does.
//
//   attentionSpec({ args, queryTokens, keyTokens, scoresTyped })  -> spec  (example.js's runExample)
//   multiHeadSpec({ args, tokens })                              -> spec  (engine.multiHead's args)
//   blockSpec({ encoder, decoder, sourceTokens, targetTokens })  -> spec  (engine.transformerLayer's
//                                                                  args of an encoder and a decoder layer)
//   modelHeadSpec({ ids, tokens, head, file })                   -> spec  (one head of a GPT-2 checkpoint
//                                                                  on token ids: the script reads the
//                                                                  same model.safetensors and config.json)
//   exportCode(spec, 'numpy' | 'torch')                          -> the script's text
//
// Every script ends with show(name, x): the name on one line, then one line per row of numbers
// ("%.9g", "nan", "inf"), so tests/js/export.test.js can read them back.

import { FILL_SIGNS } from '../engine/choices.js';

export const LANGS = ['numpy', 'torch'];

// ---- numbers --------------------------------------------------------------------------------

// The shortest decimal that reads back as the same float32 (at most 9 significant digits).
export function float32Text(x) {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (Object.is(x, -0) || x === 0) return '0';
  const f = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const text = f.toPrecision(p);
    if (Math.fround(Number(text)) === f) return String(Number(text));
  }
  return String(f);
}

// An engine matrix { rows, cols, data } or a nested array as a nested array of float32 values.
function gridOf(m) {
  if (Array.isArray(m)) return m.map((row) => (Array.isArray(row) ? row : [row]).map(Math.fround));
  return Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
}

function vectorOf(x) {
  if (x == null) return undefined;
  return Array.isArray(x) ? x.map(Math.fround) : Array.from(x.data);
}

// A Python list literal of a grid, one row per line, indented to line up under `lead`.
function listText(grid, lead) {
  const pad = ' '.repeat(lead.length + 1);
  const rows = grid.map((row) => '[' + row.map(float32Text).join(', ') + ']');
  return '[' + rows.join(',\n' + pad) + ']';
}

function boolListText(grid) {
  return '[' + grid.map((row) => '[' + row.map((b) => (b ? 'True' : 'False')).join(', ') + ']').join(', ') + ']';
}

function flagsText(flags) {
  return '[' + flags.map((b) => (b ? 'True' : 'False')).join(', ') + ']';
}

const comment = (text) => '# ' + String(text).replace(/[\r\n]+/g, ' ');
const tokenList = (tokens) => tokens.map((t) => JSON.stringify(String(t)).slice(1, -1)).join(', ');

// ---- specs ----------------------------------------------------------------------------------

// A single-head example from the arguments of engine.attend (example.js's runExample gives
// them). scoresTyped: Q holds the typed scores (K = V = I), so the script starts from them.
export function attentionSpec({ args, queryTokens, keyTokens, scoresTyped = false }) {
  const query = gridOf(args.query);
  const key = gridOf(args.key);
  const nq = query.length,
    nk = key.length;
  const spec = {
    kind: 'attention',
    queryTokens: queryTokens || query.map((_, i) => `q${i + 1}`),
    keyTokens: keyTokens || key.map((_, j) => `k${j + 1}`),
    nq,
    nk,
    score: args.score ?? 'scaled-dot',
    causal: args.causal === true,
    reverseCausal: args.reverseCausal === true,
    mask: args.mask ? gridOf(args.mask).map((row) => row.map((x) => x !== 0)) : undefined,
    keyPadding: args.keyPadding && args.keyPadding.some(Boolean) ? args.keyPadding.map(Boolean) : undefined,
    fill: args.maskFill ?? 'neg-inf',
    temperature: args.temperature ?? 1,
    stable: args.stable ?? true,
  };
  if (scoresTyped) {
    spec.scores = query;
  } else {
    spec.Q = query;
    spec.K = key;
    spec.V = gridOf(args.value);
    if (spec.score === 'general') spec.W = gridOf(args.general.W);
    if (spec.score === 'additive') {
      spec.additive = { Wq: gridOf(args.additive.Wq), Wk: gridOf(args.additive.Wk), v: vectorOf(args.additive.v) };
    }
  }
  return spec;
}

// A multi-head layer (self- or cross-attention) from the arguments of engine.multiHead.
export function multiHeadSpec({ args, tokens, sourceTokens }) {
  const X = gridOf(args.query);
  const Y = gridOf(args.key);
  const Vin = gridOf(args.value);
  const self = args.key === args.query && args.value === args.query;
  return {
    kind: 'multihead',
    tokens: tokens || X.map((_, i) => `x${i + 1}`),
    sourceTokens: self ? undefined : sourceTokens || Y.map((_, j) => `y${j + 1}`),
    self,
    X,
    Y: self ? undefined : Y,
    Vin: self || args.value === args.key ? undefined : Vin,
    heads: args.heads,
    d: X[0].length,
    Wq: gridOf(args.Wq),
    Wk: gridOf(args.Wk),
    Wv: gridOf(args.Wv),
    Wo: gridOf(args.Wo),
    bq: vectorOf(args.bq),
    bk: vectorOf(args.bk),
    bv: vectorOf(args.bv),
    bo: vectorOf(args.bo),
    causal: args.causal === true,
    mask: args.mask ? gridOf(args.mask).map((row) => row.map((x) => x !== 0)) : undefined,
    keyPadding: args.keyPadding && args.keyPadding.some(Boolean) ? args.keyPadding.map(Boolean) : undefined,
  };
}

// An encoder layer and a decoder layer over its output, from the arguments of two
// engine.transformerLayer calls (lesson/block.js's runBlock gives them): the decoder's memory is
// the encoder's output, which the script computes itself. Residual and LayerNorm on, as torch's
// layers have them.
export function blockSpec({ encoder, decoder, sourceTokens, targetTokens }) {
  for (const a of [encoder, decoder]) {
    if (a.residual === false || a.layerNorm === false)
      throw new RangeError('blockSpec: the layers as torch defines them, with the residual and LayerNorm on');
  }
  const attention = (w) => ({
    Wq: gridOf(w.Wq),
    Wk: gridOf(w.Wk),
    Wv: gridOf(w.Wv),
    Wo: gridOf(w.Wo),
    bq: vectorOf(w.bq),
    bk: vectorOf(w.bk),
    bv: vectorOf(w.bv),
    bo: vectorOf(w.bo),
  });
  const layer = (a) => ({
    self: attention(a.selfAttention),
    cross: a.crossAttention ? attention(a.crossAttention) : undefined,
    ff: { W1: gridOf(a.ff.W1), b1: vectorOf(a.ff.b1), W2: gridOf(a.ff.W2), b2: vectorOf(a.ff.b2) },
    norms: a.norms.map((n) => ({ gamma: vectorOf(n.gamma), beta: vectorOf(n.beta) })),
  });
  const X = gridOf(encoder.x);
  const Y = gridOf(decoder.x);
  return {
    kind: 'block',
    sourceTokens: sourceTokens || X.map((_, i) => `x${i + 1}`),
    targetTokens: targetTokens || Y.map((_, i) => `y${i + 1}`),
    X,
    Y,
    d: X[0].length,
    heads: encoder.heads,
    hidden: gridOf(encoder.ff.W1).length,
    normFirst: encoder.normFirst === true,
    activation: encoder.activation ?? 'relu',
    eps: encoder.eps ?? 1e-5,
    encoder: layer(encoder),
    decoder: layer(decoder),
  };
}

// Rows whose every key is blocked (causal, reversed causal, explicit mask and padding together).
function fullyMaskedRows(spec, nq, nk) {
  const rows = [];
  for (let i = 0; i < nq; i++) {
    let any = false;
    for (let j = 0; j < nk; j++) {
      const ok =
        (!spec.mask || spec.mask[i][j]) &&
        (!spec.causal || j <= i) &&
        (!spec.reverseCausal || j >= i) &&
        (!spec.keyPadding || !spec.keyPadding[j]);
      any = any || ok;
    }
    if (!any) rows.push(i);
  }
  return rows;
}

const hasMask = (spec) => spec.causal || spec.reverseCausal || spec.mask !== undefined || spec.keyPadding !== undefined;

// ---- NumPy ----------------------------------------------------------------------------------

const SHOW_NUMPY = [
  'def show(name, x):',
  '    print(name)',
  '    for row in np.atleast_2d(x):',
  '        print("  ".join("%.9g" % v for v in row))',
];

const SHOW_TORCH = [
  'def show(name, x):',
  '    print(name)',
  '    for row in x.detach().reshape(-1, x.shape[-1]).tolist():',
  '        print("  ".join("%.9g" % v for v in row))',
];

function header(spec) {
  if (spec.kind === 'block') {
    return [
      comment(`A Transformer encoder layer over ${spec.sourceTokens.length} tokens (${tokenList(spec.sourceTokens)})`),
      comment(
        `and a decoder layer over ${spec.targetTokens.length} tokens (${tokenList(spec.targetTokens)}) that attends to its output:`,
      ),
      comment(
        `d_model = ${spec.d}, ${spec.heads} heads, a hidden layer of ${spec.hidden}, ${spec.activation}, ${spec.normFirst ? 'pre-norm' : 'post-norm'}.`,
      ),
    ];
  }
  if (spec.kind === 'multihead') {
    const src = spec.self
      ? 'self-attention'
      : `cross-attention over ${spec.sourceTokens.length} source tokens (${tokenList(spec.sourceTokens)})`;
    return [
      comment(`Multi-head ${src}: ${spec.tokens.length} tokens (${tokenList(spec.tokens)}),`),
      comment(`d_model = ${spec.d}, ${spec.heads} heads of d_k = ${spec.d / spec.heads}.`),
    ];
  }
  const what = spec.scores ? 'scores typed by hand' : `${spec.score} scores, d_k = ${spec.K[0].length}`;
  return [
    comment(`Attention on the example on screen: ${spec.nq} queries (${tokenList(spec.queryTokens)}),`),
    comment(`${spec.nk} keys (${tokenList(spec.keyTokens)}); ${what}.`),
  ];
}

// The attention scripts' start in a language (NUMPY, TORCH): its imports, the header, the inputs
// (lang.array writes a matrix) and the scores (lang.hidden: the additive score's tanh layer,
// lang.scale: the division by √d_k).
function attentionStart(spec, { imports, array, hidden, scale }) {
  const start = [...imports, '', ...header(spec), ''];
  if (spec.scores) return [...start, array('scores', spec.scores, '(n_q, n_k)')];
  const L = [
    ...start,
    array('Q', spec.Q, '(n_q, d_k)'),
    array('K', spec.K, '(n_k, d_k)'),
    array('V', spec.V, '(n_k, d_v)'),
    '',
  ];
  if (spec.score === 'general') {
    L.push(
      array('W', spec.W, '(d_q, d_k)'),
      'scores = (Q @ W) @ K.T                      # general score q W kᵀ: (n_q, n_k)',
    );
  } else if (spec.score === 'additive') {
    L.push(
      array('Wq', spec.additive.Wq, '(h, d_q)'),
      array('Wk', spec.additive.Wk, '(h, d_k)'),
      array('v', [spec.additive.v], '(1, h)'),
      hidden,
      'scores = hidden @ v[0]                       # additive score vᵀ tanh(Wq q + Wk k): (n_q, n_k)',
    );
  } else {
    L.push('scores = Q @ K.T                             # (n_q, n_k)');
    if (spec.score === 'scaled-dot') L.push(scale);
  }
  return L;
}

// The attention scripts' end: the output (unless the scores were typed) and what they print
// (show: the language's show()).
const attentionEnd = (spec, { show }) => [
  ...(spec.scores ? [] : ['output = weights @ V                          # (n_q, d_v)']),
  '',
  ...show,
  '',
  'show("weights", weights)',
  ...(spec.scores ? [] : ['show("output", output)']),
];

// Whether a row with every key blocked needs its weights set to zero (this engine's rule) after
// a softmax that subtracts the row max (-inf - -inf is NaN).
const zeroBlockedRows = (spec) =>
  spec.stable && spec.fill === 'neg-inf' && fullyMaskedRows(spec, spec.nq, spec.nk).length > 0;

const numpyArray = (name, grid, shape) =>
  `${name} = np.array(${listText(grid, `${name} = np.array(`)}, dtype=np.float32)  # ${shape}`;

// How the NumPy attention script spells what it shares with the PyTorch one.
const NUMPY = {
  imports: ['import numpy as np'],
  array: numpyArray,
  hidden: 'hidden = np.tanh((Q @ Wq.T)[:, None, :] + (K @ Wk.T)[None, :, :])  # (n_q, n_k, h)',
  scale: 'scores = scores / np.sqrt(np.float32(K.shape[1]))  # divide by √d_k',
  show: SHOW_NUMPY,
};

function numpyAttention(spec) {
  const L = attentionStart(spec, NUMPY);
  if (spec.temperature !== 1) L.push(`scores = scores / np.float32(${float32Text(spec.temperature)})  # temperature T`);
  if (hasMask(spec)) {
    L.push('', 'allowed = np.ones(scores.shape, dtype=bool)  # True = the query may attend to the key');
    if (spec.mask) L.push(`allowed &= np.array(${boolListText(spec.mask)})  # the explicit mask`);
    if (spec.causal) L.push('allowed &= np.tril(np.ones(scores.shape, dtype=bool))  # causal: key j <= query i');
    if (spec.reverseCausal)
      L.push('allowed &= np.triu(np.ones(scores.shape, dtype=bool))  # reversed causal (the bug): key j >= query i');
    if (spec.keyPadding) L.push(`allowed &= ~np.array(${flagsText(spec.keyPadding)})[None, :]  # padding keys`);
    L.push(
      `scores = np.where(allowed, scores, np.float32(${FILL_SIGNS[spec.fill].numpy}))  # blocked scores get the fill`,
    );
  }
  L.push('', '# softmax along each row (axis=-1)');
  if (spec.stable) L.push('scores = scores - scores.max(axis=-1, keepdims=True)  # subtract the row max (stable)');
  else L.push('# no max subtraction (the naive softmax): exp can overflow to inf');
  L.push('e = np.exp(scores)', 'weights = e / e.sum(axis=-1, keepdims=True)  # (n_q, n_k)');
  if (zeroBlockedRows(spec)) {
    L.push(
      '# A row with every key blocked is NaN here (-inf - -inf); this engine gives it zero weights.',
      'weights[~allowed.any(axis=-1)] = 0',
    );
  }
  return [...L, ...attentionEnd(spec, NUMPY)].join('\n') + '\n';
}

// The multi-head scripts' inputs (X, and Y and Z when the keys and values have their own) and
// weights: `array` writes a matrix in the script's language, `note` says the weights' layout.
const multiHeadInputs = (spec, array, note) => [
  array('X', spec.X, '(n, d_model)'),
  ...(spec.self ? [] : [array('Y', spec.Y, '(m, d_model)')]),
  ...(spec.Vin ? [array('Z', spec.Vin, '(m, d_model)')] : []),
  note,
  ...['Wq', 'Wk', 'Wv', 'Wo'].map((w) => array(w, spec[w], '(d_model, d_model)')),
];

function numpyMultiHead(spec) {
  const note = "# weights in torch.nn.Linear's layout (out, in): y = x Wᵀ + b";
  const L = ['import numpy as np', '', ...header(spec), '', ...multiHeadInputs(spec, numpyArray, note)];
  for (const b of ['bq', 'bk', 'bv', 'bo']) if (spec[b]) L.push(numpyArray(b, [spec[b]], '(1, d_model)'));
  const src = spec.self ? 'X' : 'Y';
  const vsrc = spec.Vin ? 'Z' : src;
  const plus = (b) => (spec[b] ? ` + ${b}` : '');
  L.push(
    `h = ${spec.heads}`,
    'd_k = X.shape[1] // h',
    '',
    `Q = X @ Wq.T${plus('bq')}`,
    `K = ${src} @ Wk.T${plus('bk')}`,
    `V = ${vsrc} @ Wv.T${plus('bv')}`,
  );
  const nq = spec.X.length,
    nk = (spec.Y || spec.X).length;
  if (hasMask(spec)) {
    L.push('allowed = np.ones((Q.shape[0], K.shape[0]), dtype=bool)  # True = may attend');
    if (spec.mask) L.push(`allowed &= np.array(${boolListText(spec.mask)})  # the explicit mask`);
    if (spec.causal) L.push('allowed &= np.tril(np.ones(allowed.shape, dtype=bool))  # causal');
    if (spec.keyPadding) L.push(`allowed &= ~np.array(${flagsText(spec.keyPadding)})[None, :]  # padding keys`);
  }
  L.push(
    'heads = []',
    'for i in range(h):',
    '    cols = slice(i * d_k, (i + 1) * d_k)  # head i sees its own d_k columns',
    '    scores = Q[:, cols] @ K[:, cols].T / np.sqrt(np.float32(d_k))',
  );
  if (hasMask(spec)) L.push('    scores = np.where(allowed, scores, np.float32(-np.inf))');
  L.push(
    '    scores = scores - scores.max(axis=-1, keepdims=True)',
    '    e = np.exp(scores)',
    '    w = e / e.sum(axis=-1, keepdims=True)',
  );
  if (hasMask(spec) && fullyMaskedRows(spec, nq, nk).length)
    L.push('    w[~allowed.any(axis=-1)] = 0  # this engine: a fully blocked row attends to nothing');
  L.push(
    '    heads.append((w, w @ V[:, cols]))',
    '',
    'concat = np.concatenate([out for _, out in heads], axis=1)  # (n, d_model)',
    `output = concat @ Wo.T${plus('bo')}`,
    '',
    ...SHOW_NUMPY,
    '',
    'for i, (w, _) in enumerate(heads):',
    '    show("head %d weights" % (i + 1), w)',
    'show("output", output)',
  );
  return L.join('\n') + '\n';
}

// ---- PyTorch --------------------------------------------------------------------------------

const TORCH_IMPORTS = ['import math', 'import torch', 'import torch.nn.functional as F'];

const torchTensor = (name, grid, shape) =>
  `${name} = torch.tensor(${listText(grid, `${name} = torch.tensor(`)}, dtype=torch.float32)  # ${shape}`;

// How the PyTorch attention script spells what it shares with the NumPy one.
const TORCH = {
  imports: TORCH_IMPORTS,
  array: torchTensor,
  hidden: 'hidden = torch.tanh(F.linear(Q, Wq)[:, None, :] + F.linear(K, Wk)[None, :, :])  # (n_q, n_k, h)',
  scale: 'scores = scores / math.sqrt(K.shape[-1])     # divide by √d_k',
  show: SHOW_TORCH,
};

function torchAttention(spec) {
  const L = attentionStart(spec, TORCH);
  if (spec.temperature !== 1) L.push(`scores = scores / ${float32Text(spec.temperature)}  # temperature T`);
  if (hasMask(spec)) {
    L.push('', 'blocked = torch.zeros(scores.shape, dtype=torch.bool)  # True = the key is hidden from the query');
    if (spec.mask) L.push(`blocked |= ~torch.tensor(${boolListText(spec.mask)})  # the explicit mask`);
    if (spec.causal)
      L.push('blocked |= torch.ones(scores.shape, dtype=torch.bool).triu(1)  # causal: no key after the query');
    if (spec.reverseCausal)
      L.push(
        'blocked |= torch.ones(scores.shape, dtype=torch.bool).tril(-1)  # reversed causal (the bug): no key before the query',
      );
    if (spec.keyPadding) L.push(`blocked |= torch.tensor(${flagsText(spec.keyPadding)})[None, :]  # padding keys`);
    L.push(`scores = scores.masked_fill(blocked, ${FILL_SIGNS[spec.fill].torch})  # blocked scores get the fill`);
  }
  L.push('');
  if (spec.stable) {
    L.push('weights = F.softmax(scores, dim=-1)           # along each row; subtracts the row max inside');
  } else {
    L.push(
      '# the naive softmax, no max subtraction (F.softmax always subtracts it): exp can overflow',
      'e = torch.exp(scores)',
      'weights = e / e.sum(dim=-1, keepdim=True)',
    );
  }
  if (zeroBlockedRows(spec)) {
    L.push(
      '# F.softmax gives NaN for a row with every key blocked; this engine gives it zero weights.',
      'weights = weights.masked_fill(blocked.all(dim=-1, keepdim=True), 0.0)',
    );
  }
  return [...L, ...attentionEnd(spec, TORCH)].join('\n') + '\n';
}

function torchMultiHead(spec) {
  const note = '# weights in (out, in) layout, as torch.nn.Linear keeps them: y = x Wᵀ + b';
  const L = ['import torch', '', ...header(spec), '', ...multiHeadInputs(spec, torchTensor, note)];
  const bias = ['bq', 'bk', 'bv', 'bo'].some((b) => spec[b]);
  for (const b of ['bq', 'bk', 'bv', 'bo'])
    if (spec[b])
      L.push(`${b} = torch.tensor([${spec[b].map(float32Text).join(', ')}], dtype=torch.float32)  # (d_model,)`);
  const zeros = 'torch.zeros(X.shape[1])';
  const bv = (b) => (spec[b] ? b : zeros);
  L.push(
    '',
    `mha = torch.nn.MultiheadAttention(embed_dim=X.shape[1], num_heads=${spec.heads}, bias=${bias ? 'True' : 'False'}, batch_first=True)`,
    'mha.eval()  # no dropout',
    'with torch.no_grad():',
    '    mha.in_proj_weight.copy_(torch.cat([Wq, Wk, Wv]))  # W_q, W_k, W_v stacked: (3 d_model, d_model)',
    '    mha.out_proj.weight.copy_(Wo)',
  );
  if (bias) {
    L.push(
      `    mha.in_proj_bias.copy_(torch.cat([${bv('bq')}, ${bv('bk')}, ${bv('bv')}]))`,
      `    mha.out_proj.bias.copy_(${bv('bo')})`,
    );
  }
  const nq = spec.X.length,
    nk = (spec.Y || spec.X).length;
  const extra = [];
  if (spec.mask || spec.causal) {
    L.push(
      '',
      'attn_mask = torch.zeros((X.shape[0], ' +
        (spec.self ? 'X' : 'Y') +
        '.shape[0]), dtype=torch.bool)  # True = blocked',
    );
    if (spec.mask) L.push(`attn_mask |= ~torch.tensor(${boolListText(spec.mask)})  # the explicit mask`);
    if (spec.causal) L.push('attn_mask |= torch.ones(attn_mask.shape, dtype=torch.bool).triu(1)  # causal');
    extra.push('attn_mask=attn_mask');
  }
  if (spec.keyPadding) {
    L.push(`key_padding_mask = torch.tensor([${flagsText(spec.keyPadding)}])  # (batch, m): True = padding`);
    extra.push('key_padding_mask=key_padding_mask');
  }
  const src = spec.self ? 'X' : 'Y';
  const vsrc = spec.Vin ? 'Z' : src;
  L.push(
    '',
    '# batch_first=True: inputs are (batch, tokens, d_model); here the batch holds one sequence.',
    '# average_attn_weights=False keeps one (n, m) weight matrix per head.',
    `output, weights = mha(X[None], ${src}[None], ${vsrc}[None], need_weights=True, average_attn_weights=False${extra.map((e) => ', ' + e).join('')})`,
    'output, weights = output[0], weights[0]  # (n, d_model), (heads, n, m)',
  );
  if ((spec.mask || spec.causal || spec.keyPadding) && fullyMaskedRows(spec, nq, nk).length) {
    L.push(
      '# torch gives NaN for a row with every key blocked; this engine gives it zero weights,',
      '# so that row of concat is 0 and its output is the output bias.',
      'weights = torch.nan_to_num(weights)',
      `output = torch.where(output.isnan(), ${bias ? 'mha.out_proj.bias.expand_as(output)' : 'torch.zeros_like(output)'}, output)`,
    );
  }
  L.push(
    '',
    ...SHOW_TORCH,
    '',
    'for i in range(weights.shape[0]):',
    '    show("head %d weights" % (i + 1), weights[i])',
    'show("output", output)',
  );
  return L.join('\n') + '\n';
}

// ---- the Transformer block (both languages) -------------------------------------------------

// Every input of the block as `name = <array>` lines (make(name, grid, shape, vector) writes one),
// named enc_self_Wq, dec_cross_Wo, enc_W1, dec_gamma3, ...; biases only when given.
function blockInputs(spec, make) {
  const L = [
    make('X', spec.X, '(n, d_model): the source tokens, embedding + position'),
    make('Y', spec.Y, '(m, d_model): the target tokens, embedding + position'),
    "# weights in torch.nn.Linear's layout (out, in): y = x Wᵀ + b",
  ];
  for (const [prefix, layer] of [
    ['enc', spec.encoder],
    ['dec', spec.decoder],
  ]) {
    for (const part of ['self', 'cross']) {
      const w = layer[part];
      if (!w) continue;
      for (const k of ['Wq', 'Wk', 'Wv', 'Wo']) L.push(make(`${prefix}_${part}_${k}`, w[k], '(d_model, d_model)'));
      for (const k of ['bq', 'bk', 'bv', 'bo'])
        if (w[k]) L.push(make(`${prefix}_${part}_${k}`, w[k], '(d_model,)', true));
    }
    L.push(
      make(`${prefix}_W1`, layer.ff.W1, '(hidden, d_model)'),
      make(`${prefix}_W2`, layer.ff.W2, '(d_model, hidden)'),
    );
    if (layer.ff.b1) L.push(make(`${prefix}_b1`, layer.ff.b1, '(hidden,)', true));
    if (layer.ff.b2) L.push(make(`${prefix}_b2`, layer.ff.b2, '(d_model,)', true));
    layer.norms.forEach((n, k) => {
      L.push(make(`${prefix}_gamma${k + 1}`, n.gamma, '(d_model,)', true));
      L.push(make(`${prefix}_beta${k + 1}`, n.beta, '(d_model,)', true));
    });
  }
  return L;
}

const vectorText = (v) => '[' + v.map(float32Text).join(', ') + ']';

function numpyBlock(spec) {
  const f32 = (name, grid, shape, vector = false) =>
    vector
      ? `${name} = np.array(${vectorText(grid)}, dtype=np.float32)  # ${shape}`
      : `${name} = np.array(${listText(grid, `${name} = np.array(`)}, dtype=np.float32)  # ${shape}`;
  const L = ['import math', 'import numpy as np', '', ...header(spec), '', ...blockInputs(spec, f32), ''];
  const names = (prefix, part) => {
    const w = spec[prefix === 'enc' ? 'encoder' : 'decoder'][part];
    const keys = ['Wq', 'Wk', 'Wv', 'Wo', ...['bq', 'bk', 'bv', 'bo'].filter((k) => w[k])];
    return `dict(${keys.map((k) => `${k}=${prefix}_${part}_${k}`).join(', ')})`;
  };
  const ff = (prefix) => {
    const layer = spec[prefix === 'enc' ? 'encoder' : 'decoder'];
    const keys = ['W1', 'W2', ...['b1', 'b2'].filter((k) => layer.ff[k])];
    return `dict(${keys.map((k) => `${k}=${prefix}_${k}`).join(', ')})`;
  };
  const norms = (prefix, count) =>
    '[' +
    Array.from({ length: count }, (_, k) => `dict(gamma=${prefix}_gamma${k + 1}, beta=${prefix}_beta${k + 1})`).join(
      ', ',
    ) +
    ']';
  const act =
    spec.activation === 'gelu'
      ? [
          "    # exact GELU, x Φ(x) (torch's default), through math.erf",
          '    hidden = (0.5 * hidden * (1 + np.vectorize(math.erf)(hidden / math.sqrt(2)))).astype(np.float32)',
        ]
      : ['    hidden = np.maximum(hidden, np.float32(0))  # ReLU'];
  L.push(
    `heads = ${spec.heads}`,
    `eps = np.float32(${float32Text(spec.eps)})  # LayerNorm's epsilon`,
    '',
    'def linear(x, W, b=None):',
    '    return x @ W.T if b is None else x @ W.T + b',
    '',
    '# multi-head attention of the rows of x over the rows of source (self-attention: source is x)',
    'def multi_head(x, source, w, causal=False):',
    '    Q = linear(x, w["Wq"], w.get("bq"))',
    '    K = linear(source, w["Wk"], w.get("bk"))',
    '    V = linear(source, w["Wv"], w.get("bv"))',
    '    d_k = x.shape[1] // heads',
    '    outs = []',
    '    for i in range(heads):',
    '        cols = slice(i * d_k, (i + 1) * d_k)  # head i sees its own d_k columns',
    '        scores = Q[:, cols] @ K[:, cols].T / np.sqrt(np.float32(d_k))',
    '        if causal:  # no key after the query',
    '            scores = np.where(np.tril(np.ones(scores.shape, dtype=bool)), scores, np.float32(-np.inf))',
    '        scores = scores - scores.max(axis=-1, keepdims=True)',
    '        e = np.exp(scores)',
    '        outs.append((e / e.sum(axis=-1, keepdims=True)) @ V[:, cols])',
    '    return linear(np.concatenate(outs, axis=1), w["Wo"], w.get("bo"))',
    '',
    '# LayerNorm over each row: mean 0, variance 1 (the biased variance, as torch), then gamma and beta',
    'def layer_norm(x, n):',
    '    mean = x.mean(axis=-1, keepdims=True)',
    '    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)',
    '    return (x - mean) / np.sqrt(var + eps) * n["gamma"] + n["beta"]',
    '',
    'def feed_forward(x, w):',
    '    hidden = linear(x, w["W1"], w.get("b1"))',
    ...act,
    '    return linear(hidden, w["W2"], w.get("b2"))',
    '',
  );
  if (spec.normFirst) {
    L.push('# pre-norm: x + f(LayerNorm(x))', 'def sublayer(x, f, n):', '    return x + f(layer_norm(x, n))');
  } else {
    L.push(
      "# post-norm (torch's default, the original paper): LayerNorm(x + f(x))",
      'def sublayer(x, f, n):',
      '    return layer_norm(x + f(x), n)',
    );
  }
  L.push(
    '',
    'def encoder_layer(x, w):',
    '    x = sublayer(x, lambda h: multi_head(h, h, w["self"]), w["norms"][0])',
    '    return sublayer(x, lambda h: feed_forward(h, w["ff"]), w["norms"][1])',
    '',
    'def decoder_layer(y, memory, w):',
    '    y = sublayer(y, lambda h: multi_head(h, h, w["self"], causal=True), w["norms"][0])',
    '    y = sublayer(y, lambda h: multi_head(h, memory, w["cross"]), w["norms"][1])  # Q from y, K and V from memory',
    '    return sublayer(y, lambda h: feed_forward(h, w["ff"]), w["norms"][2])',
    '',
    `encoder = dict(self=${names('enc', 'self')},`,
    `               ff=${ff('enc')}, norms=${norms('enc', 2)})`,
    `decoder = dict(self=${names('dec', 'self')},`,
    `               cross=${names('dec', 'cross')},`,
    `               ff=${ff('dec')}, norms=${norms('dec', 3)})`,
    '',
    'memory = encoder_layer(X, encoder)          # (n, d_model)',
    'output = decoder_layer(Y, memory, decoder)  # (m, d_model)',
    '',
    ...SHOW_NUMPY,
    '',
    'show("encoder output", memory)',
    'show("decoder output", output)',
  );
  return L.join('\n') + '\n';
}

function torchBlock(spec) {
  const t = (name, grid, shape, vector = false) =>
    vector
      ? `${name} = torch.tensor(${vectorText(grid)})  # ${shape}`
      : `${name} = torch.tensor(${listText(grid, `${name} = torch.tensor(`)})  # ${shape}`;
  const L = ['import torch', '', ...header(spec), '', ...blockInputs(spec, t), ''];
  const biasOf = (prefix, part, k) => {
    const w = spec[prefix === 'enc' ? 'encoder' : 'decoder'][part];
    return w[k] ? `${prefix}_${part}_${k}` : 'zero';
  };
  const setAttention = (module, prefix, part) => [
    `    ${module}.in_proj_weight.copy_(torch.cat([${['Wq', 'Wk', 'Wv'].map((k) => `${prefix}_${part}_${k}`).join(', ')}]))`,
    `    ${module}.in_proj_bias.copy_(torch.cat([${['bq', 'bk', 'bv'].map((k) => biasOf(prefix, part, k)).join(', ')}]))`,
    `    ${module}.out_proj.weight.copy_(${prefix}_${part}_Wo)`,
    `    ${module}.out_proj.bias.copy_(${biasOf(prefix, part, 'bo')})`,
  ];
  const setRest = (module, prefix, layer, count) => {
    const out = [
      `    ${module}.linear1.weight.copy_(${prefix}_W1)`,
      layer.ff.b1 ? `    ${module}.linear1.bias.copy_(${prefix}_b1)` : `    ${module}.linear1.bias.zero_()`,
      `    ${module}.linear2.weight.copy_(${prefix}_W2)`,
      layer.ff.b2 ? `    ${module}.linear2.bias.copy_(${prefix}_b2)` : `    ${module}.linear2.bias.zero_()`,
    ];
    for (let k = 1; k <= count; k++)
      out.push(
        `    ${module}.norm${k}.weight.copy_(${prefix}_gamma${k})`,
        `    ${module}.norm${k}.bias.copy_(${prefix}_beta${k})`,
      );
    return out;
  };
  L.push(
    `options = dict(d_model=${spec.d}, nhead=${spec.heads}, dim_feedforward=${spec.hidden}, dropout=0.0, activation="${spec.activation}",`,
    `               layer_norm_eps=${float32Text(spec.eps)}, batch_first=True, norm_first=${spec.normFirst ? 'True' : 'False'})`,
    'encoder = torch.nn.TransformerEncoderLayer(**options)',
    'decoder = torch.nn.TransformerDecoderLayer(**options)',
    'encoder.eval()',
    'decoder.eval()',
    `zero = torch.zeros(${spec.d})`,
    'with torch.no_grad():',
    ...setAttention('encoder.self_attn', 'enc', 'self'),
    ...setRest('encoder', 'enc', spec.encoder, 2),
    ...setAttention('decoder.self_attn', 'dec', 'self'),
    ...setAttention('decoder.multihead_attn', 'dec', 'cross'),
    ...setRest('decoder', 'dec', spec.decoder, 3),
    '',
    '# batch_first=True: inputs are (batch, tokens, d_model); here the batch holds one sequence.',
    'memory = encoder(X[None])[0]  # (n, d_model)',
    'causal = torch.ones(Y.shape[0], Y.shape[0], dtype=torch.bool).triu(1)  # True = blocked: no key after the query',
    'output = decoder(Y[None], memory[None], tgt_mask=causal)[0]  # (m, d_model)',
    '',
    ...SHOW_TORCH,
    '',
    'show("encoder output", memory)',
    'show("decoder output", output)',
  );
  return L.join('\n') + '\n';
}

// ---- one head of a GPT-2 checkpoint ----------------------------------------------------------------

// One head of a GPT-2-family model (the real-model lesson's model.run with head: [layer, head]):
// the script reads the checkpoint itself (safetensors by hand: an 8-byte header length, a JSON
// header, raw little-endian F32 / F16 / BF16 data), runs the blocks before the head's layer in
// float32 and prints the head's five stages.
export function modelHeadSpec({ ids, tokens, head, file = 'model.safetensors' }) {
  return { kind: 'gpt2-head', ids: [...ids], tokens: tokens || ids.map(String), layer: head[0], head: head[1], file };
}

function gpt2Head(spec, lang) {
  const np = lang === 'numpy';
  const T = np
    ? {
        tensor: '    return np.asarray(x)',
        ln: [
          'def layer_norm(x, p):',
          '    mu = x.mean(-1, keepdims=True)',
          '    var = ((x - mu) ** 2).mean(-1, keepdims=True)',
          '    return (x - mu) / np.sqrt(var + EPS) * w[p + ".weight"] + w[p + ".bias"]',
        ],
        gelu: [
          'def gelu(x):',
          '    return 0.5 * x * (1 + np.tanh(np.float32(math.sqrt(2 / math.pi)) * (x + np.float32(0.044715) * x ** 3)))',
        ],
        softmax: [
          'def softmax(x):',
          '    e = np.exp(x - x.max(-1, keepdims=True))',
          '    return e / e.sum(-1, keepdims=True)',
        ],
        split: 'q, k, v = np.split(qkv, 3, axis=-1)',
        heads: 'heads = lambda t: t.reshape(n, H, dh).transpose(1, 0, 2)  # (heads, n, d_head)',
        kT: 'k.transpose(0, 2, 1)',
        mask: 'np.triu(np.ones((n, n), dtype=bool), 1)',
        fill: 'np.where(future, np.float32(-np.inf), scaled)',
        merge: 'out.transpose(1, 0, 2).reshape(n, d)',
        imports: ['import json', 'import math', 'import os', 'import struct', '', 'import numpy as np'],
        show: SHOW_NUMPY,
      }
    : {
        tensor: '    return torch.from_numpy(x.copy())',
        ln: ['def layer_norm(x, p):', '    return F.layer_norm(x, (d,), w[p + ".weight"], w[p + ".bias"], EPS)'],
        gelu: ['def gelu(x):', '    return F.gelu(x, approximate="tanh")'],
        softmax: ['def softmax(x):', '    return torch.softmax(x, dim=-1)'],
        split: 'q, k, v = qkv.split(d, dim=-1)',
        heads: 'heads = lambda t: t.reshape(n, H, dh).transpose(0, 1)  # (heads, n, d_head)',
        kT: 'k.transpose(-1, -2)',
        mask: 'torch.ones(n, n, dtype=torch.bool).triu(1)',
        fill: 'scaled.masked_fill(future, float("-inf"))',
        merge: 'out.transpose(0, 1).reshape(n, d)',
        imports: [
          'import json',
          'import math',
          'import os',
          'import struct',
          '',
          'import numpy as np',
          'import torch',
          'import torch.nn.functional as F',
        ],
        show: SHOW_TORCH,
      };
  return [
    comment(
      `Layer ${spec.layer}, head ${spec.head} of a GPT-2 on ${spec.ids.length} tokens (${tokenList(spec.tokens)}).`,
    ),
    comment(`It reads ${spec.file} and the config.json beside it, the files the page read.`),
    ...T.imports,
    '',
    `PATH = ${JSON.stringify(spec.file)}`,
    `ids = [${spec.ids.join(', ')}]`,
    `LAYER, HEAD = ${spec.layer}, ${spec.head}`,
    '',
    ...T.show,
    '',
    '',
    'def read_safetensors(path):',
    '    with open(path, "rb") as f:',
    '        size = struct.unpack("<Q", f.read(8))[0]',
    '        header = json.loads(f.read(size))',
    '        data = f.read()',
    '    out = {}',
    '    for name, t in header.items():',
    '        if name == "__metadata__":',
    '            continue',
    '        a, b = t["data_offsets"]',
    '        if t["dtype"] == "BF16":',
    '            x = (np.frombuffer(data[a:b], dtype="<u2").astype(np.uint32) << 16).view(np.float32)',
    '        else:',
    '            x = np.frombuffer(data[a:b], dtype={"F32": "<f4", "F16": "<f2"}[t["dtype"]]).astype(np.float32)',
    '        out[name.removeprefix("transformer.")] = tensor(x.reshape(t["shape"]))',
    '    return out',
    '',
    '',
    'def tensor(x):',
    T.tensor,
    '',
    '',
    'w = read_safetensors(PATH)',
    'with open(os.path.join(os.path.dirname(PATH), "config.json")) as f:',
    '    config = json.load(f)',
    'd, H = config["n_embd"], config["n_head"]',
    'dh, n = d // H, len(ids)',
    'EPS = config.get("layer_norm_epsilon", 1e-5)',
    '',
    '',
    ...T.ln,
    '',
    '',
    ...T.gelu,
    '',
    '',
    ...T.softmax,
    '',
    '',
    'x = w["wte.weight"][ids] + w["wpe.weight"][:n]  # (n, d): token + position',
    'for layer in range(LAYER + 1):',
    '    p = f"h.{layer}."',
    '    qkv = layer_norm(x, p + "ln_1") @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]  # Conv1D: (in, out)',
    `    ${T.split}`,
    `    ${T.heads}`,
    '    q, k, v = heads(q), heads(k), heads(v)',
    `    scores = q @ ${T.kT}  # (heads, n, n)`,
    '    scaled = scores / math.sqrt(dh)',
    `    future = ${T.mask}`,
    `    masked = ${T.fill}`,
    '    weights = softmax(masked)',
    '    out = weights @ v  # (heads, n, d_head)',
    '    if layer == LAYER:',
    '        for name, m in [("scores", scores), ("scaled", scaled), ("masked", masked), ("weights", weights), ("output", out)]:',
    '            show(name, m[HEAD])',
    '        break',
    `    x = x + ${T.merge} @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]`,
    '    hidden = gelu(layer_norm(x, p + "ln_2") @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"])',
    '    x = x + hidden @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]',
    '',
  ].join('\n');
}

// ---- entry point ----------------------------------------------------------------------------

export function exportCode(spec, lang) {
  if (!LANGS.includes(lang)) throw new RangeError(`lang: expected 'numpy' or 'torch', got ${lang}`);
  if (spec.kind === 'multihead') return lang === 'numpy' ? numpyMultiHead(spec) : torchMultiHead(spec);
  if (spec.kind === 'block') return lang === 'numpy' ? numpyBlock(spec) : torchBlock(spec);
  if (spec.kind === 'gpt2-head') return gpt2Head(spec, lang);
  return lang === 'numpy' ? numpyAttention(spec) : torchAttention(spec);
}
