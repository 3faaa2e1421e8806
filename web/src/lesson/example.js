// The worked example shared by the pipeline, masks and softmax chapters: the presets
// (authored inputs), and building Q, K, V for the current state and running the engine on
// them. Pure: no DOM. Every result comes from the engine; this file only prepares inputs.

import { embedTokens, handMadeTable } from './embeddings.js';

export const MAX_TOKENS = 32; // tokens per side on the page
export const MAX_TOKEN_CHARS = 32; // characters per token (longer ones are cut, with a notice)
export const MAX_DK = 64;

// Presets. Vectors are authored by hand so the attention lands where the lesson says.
// Features (d_k = 4): the meaning of each column is given in `features`.
export const PRESETS = {
  // Cross-attention: the decoder's queries 猫/吃/鱼 look up the encoder's keys The/cat/eats/fish.
  'cat-fish': {
    kind: 'cross',
    features: { en: ['animal', 'action', 'food', 'function word'], zh: ['动物', '动作', '食物', '虚词'] },
    queryTokens: ['猫', '吃', '鱼'],
    keyTokens: ['The', 'cat', 'eats', 'fish'],
    dk: 4,
    // Q: (3, 4)  what each Chinese word being generated is looking for
    Q: [
      [4, 0.4, 0, -1],
      [0, 4, 1, -1],
      [1, 0, 4, -1],
    ],
    // K: (4, 4)  what each English word offers
    K: [
      [0.1, 0, 0.1, 1],
      [1, 0.1, 0.2, 0],
      [0.1, 1, 0.3, 0],
      [0.5, 0, 1, 0],
    ],
    // V: (4, 4)  the content each English word hands over
    V: [
      [0, 0, 0, 1],
      [1, 0, 0.1, 0],
      [0, 1, 0.2, 0],
      [0.6, 0, 1, 0],
    ],
  },
  // Self-attention over 猫 追 老鼠: the query of 追 asks "who chases?" and finds 猫.
  'cat-chase': {
    kind: 'self',
    features: { en: ['does it', 'action', 'has it done', 'animal'], zh: ['施事', '动作', '受事', '动物'] },
    queryTokens: ['猫', '追', '老鼠'],
    keyTokens: ['猫', '追', '老鼠'],
    queryNotes: {
      en: ['what do I do?', 'who chases?', 'who is after me?'],
      zh: ['我做了什么？', '谁在追？', '谁在追我？'],
    },
    dk: 4,
    Q: [
      [0, 3, 0, 0],
      [3, 0, 0.5, 0.5],
      [2.5, 0.5, 0, 0],
    ],
    K: [
      [1, 0, 0, 1],
      [0, 1, 0, 0],
      [0, 0, 1, 1],
    ],
    V: [
      [1, 0, 0, 1],
      [0, 1, 0, 0],
      [0, 0, 1, 1],
    ],
  },
  // Q, K, V drawn from the engine's seeded RNG: N(0, 1) entries.
  random: {
    kind: 'self',
    queryTokens: ['the', 'cat', 'sat', 'down'],
    keyTokens: ['the', 'cat', 'sat', 'down'],
    dk: 4,
    random: true,
  },
  // Scores typed by hand (the overview article's example for generating 猫); the learner
  // checks a softmax computed by hand. The article printed [0.2, 0.06, 0.1, 0.1]: no sum of 1.
  'hand-check': {
    kind: 'cross',
    queryTokens: ['猫'],
    keyTokens: ['The', 'cat', 'eats', 'fish'],
    dk: 4,
    scores: [[2.6, 1.2, 6.1, 2.0]],
    publishedGuess: [0.2, 0.06, 0.1, 0.1],
  },
};
export const PRESET_IDS = Object.keys(PRESETS);

// What the page's state schema takes of the example (hosts/state.js coreSchema): its presets
// and its limits.
export const EXAMPLE_SHAPE = Object.freeze({
  presets: PRESET_IDS,
  maxTokens: MAX_TOKENS,
  maxTokenChars: MAX_TOKEN_CHARS,
  maxDk: MAX_DK,
});

// The state a preset starts from: the fields to set when the learner picks it.
// Empty lists/grids mean "the preset's own data", so a link stays short.
export function presetPatch(id) {
  const p = PRESETS[id];
  return {
    preset: id,
    queryTokens: [],
    keyTokens: [],
    dk: p.dk,
    inputMode: p.random ? 'random' : 'typed',
    Q: [],
    K: [],
    V: [],
    scores: [],
    keyPadding: [],
    causal: false,
    customMask: [],
    reverseCausal: false,
  };
}

// Tokens in use: the learner's, else the preset's.
function tokensOf(state) {
  const p = PRESETS[state.preset];
  const queryTokens = state.queryTokens.length ? state.queryTokens : p.queryTokens;
  const keyTokens = state.keyTokens.length ? state.keyTokens : p.keyTokens;
  return { queryTokens, keyTokens };
}

// A nested-array grid cut or zero-padded to (rows, cols).
export function resizeGrid(grid, rows, cols) {
  const out = [];
  for (let i = 0; i < rows; i++) {
    const src = grid[i] || [];
    const row = [];
    for (let j = 0; j < cols; j++) row.push(j < src.length ? src[j] : 0);
    out.push(row);
  }
  return out;
}

// An engine matrix { rows, cols, data } from a nested-array grid.
export function toMatrix(grid, rows, cols) {
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) data[i * cols + j] = grid[i][j];
  return { rows, cols, data };
}

// Row i of an engine matrix as a plain array.
export function rowOf(m, i) {
  return Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
}

// A nested-array grid from an engine matrix (numbers as float32 values, unrounded).
export function toGrid(m) {
  return Array.from({ length: m.rows }, (_, i) => rowOf(m, i));
}

function identity(n) {
  const g = [];
  for (let i = 0; i < n; i++) g.push(Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  return g;
}

// The learner's clicked cells as an explicit (n_q, n_k) 0/1 mask, when they fit the example;
// undefined otherwise. (Causal, reversed causal and padding are the engine's own options.)
function explicitMask(state, nq, nk) {
  const custom = state.customMask;
  if (custom.length !== nq || !custom.every((r) => r.length === nk)) return undefined;
  return custom.map((row) => row.map((x) => (x !== 0 ? 1 : 0)));
}

// keyPadding cut or padded with false to n_k; undefined when no key is padding.
function keyPaddingOf(state, nk) {
  const flags = Array.from({ length: nk }, (_, j) => state.keyPadding[j] === true);
  return flags.some(Boolean) ? flags : undefined;
}

// The patch that marks key j of nk as padding (on) or not; no padding at all -> [] (a short link).
export function paddingPatch(state, nk, j, on) {
  const flags = Array.from({ length: nk }, (_, k) => state.keyPadding[k] === true);
  flags[j] = on;
  return { keyPadding: flags.some(Boolean) ? flags : [] };
}

// Q, K, V (engine matrices) for the state. Every token carries its vectors (embeddings.js):
// a preset's words keep their hand-made vectors wherever they stand, and any other word gets
// vectors drawn by the engine's RNG from its text and the seed. Random mode draws every
// token's vectors; typed mode uses the learner's grid, else the token vectors (drawn ones
// rounded to 2 decimals, a starting point to edit). `sources` says, per query and per key,
// where its vectors came from: 'hand', 'drawn' or 'typed' (the learner's grid).
// For the hand-check preset the typed scores become Q with K = V = I, and score = 'dot', so
// scores = the typed row and output = weights.
export function buildInputs(engine, state) {
  const p = PRESETS[state.preset];
  const { queryTokens, keyTokens } = tokensOf(state);
  const nq = queryTokens.length;
  const nk = keyTokens.length;
  if (p.scores) {
    const scores = resizeGrid(state.scores.length ? state.scores : p.scores, nq, nk);
    return {
      queryTokens,
      keyTokens,
      scoresTyped: true,
      score: 'dot',
      dk: nk,
      query: toMatrix(scores, nq, nk),
      key: toMatrix(identity(nk), nk, nk),
      value: toMatrix(identity(nk), nk, nk),
      grids: { scores },
      sources: null,
    };
  }
  const { grids, sources } = tokenGrids(engine, state, queryTokens, keyTokens);
  const dk = state.dk;
  return {
    queryTokens,
    keyTokens,
    scoresTyped: false,
    score: 'scaled-dot',
    dk,
    query: toMatrix(grids.Q, nq, dk),
    key: toMatrix(grids.K, nk, dk),
    value: toMatrix(grids.V, nk, dk),
    grids: state.inputMode === 'random' ? null : grids,
    sources,
  };
}

// The Q, K, V grids of the tokens, and where each row came from.
function tokenGrids(engine, state, queryTokens, keyTokens) {
  const random = state.inputMode === 'random';
  const table = random ? null : handMadeTable(PRESETS[state.preset]);
  const round = random ? undefined : 2;
  const d = state.dk;
  const seed = state.seed;
  const side = (name, tokens, role) => {
    const typed = !random && state[name].length > 0;
    if (typed) return { grid: resizeGrid(state[name], tokens.length, d), sources: tokens.map(() => 'typed') };
    return embedTokens(engine, { table, tokens, role, d, seed, round });
  };
  const Q = side('Q', queryTokens, 'q');
  const K = side('K', keyTokens, 'k');
  const V = side('V', keyTokens, 'v');
  return {
    grids: { Q: Q.grid, K: K.grid, V: V.grid },
    sources: { query: Q.sources, key: K.sources.map((src, j) => (src === V.sources[j] ? src : 'typed')) },
  };
}

// Runs engine.attend for the state. Returns { inputs, args, result }; throws the engine's
// AttentionError on bad input.
export function runExample(engine, state) {
  const inputs = buildInputs(engine, state);
  const nq = inputs.queryTokens.length;
  const nk = inputs.keyTokens.length;
  const args = {
    query: inputs.query,
    key: inputs.key,
    value: inputs.value,
    score: inputs.score,
    causal: state.causal,
    reverseCausal: state.reverseCausal,
    maskFill: state.fill,
    temperature: state.temperature,
    stable: state.stable,
  };
  const mask = explicitMask(state, nq, nk);
  if (mask) args.mask = mask;
  const keyPadding = keyPaddingOf(state, nk);
  if (keyPadding) args.keyPadding = keyPadding;
  const result = engine.attend(args);
  return { inputs, args, result };
}
