// The embedding table of the worked example: every token carries its own vectors.
// A preset's hand-made feature vectors belong to its words (猫 keeps its Query, Key and Value
// wherever it stands); any other word gets vectors drawn by the engine's seeded RNG, with a
// stream chosen by a hash of the word's text, so the same word always gets the same vectors.
// Pure: no DOM. The numbers of drawn vectors come from engine.randomMatrix.

// FNV-1a (32 bit) of the UTF-8 bytes of text: a stable, well-spread hash -> uint32.
export function tokenHash(text) {
  const bytes = new TextEncoder().encode(String(text));
  let h = 0x811c9dc5;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

// The RNG stream of (role, token): the hash of "role:token" (uint32), remembered (a new seed
// draws every token's vectors again, and hashing is a good part of that).
const STREAMS = new Map();
export function tokenStream(role, token) {
  const key = `${role}:${token}`;
  let s = STREAMS.get(key);
  if (s === undefined) {
    if (STREAMS.size >= 4096) STREAMS.clear();
    s = tokenHash(key);
    STREAMS.set(key, s);
  }
  return s;
}

// The drawn vectors of tokens for role, in one engine call: (tokens.length, d), row i from
// the stream of tokens[i], times scale.
export function drawnRows(engine, { tokens, role, d, seed, scale = 1 }) {
  const streams = tokens.map((t) => tokenStream(role, t));
  return engine.randomMatrix({ rows: tokens.length, cols: d, seed, streams, scale });
}

// The hand-made table of a preset: { q: Map(token -> vector), k: Map, v: Map }.
// A preset lists its tokens beside its rows (queryTokens with Q, keyTokens with K and V);
// a preset without vectors (random, typed scores) gives an empty table.
export function handMadeTable(preset) {
  const table = { q: new Map(), k: new Map(), v: new Map() };
  if (!preset) return table;
  const put = (role, tokens, rows) => {
    if (!rows) return;
    tokens.forEach((tok, i) => {
      if (rows[i] && !table[role].has(tok)) table[role].set(tok, rows[i].slice());
    });
  };
  put('q', preset.queryTokens, preset.Q);
  put('k', preset.keyTokens, preset.K);
  put('v', preset.keyTokens, preset.V);
  return table;
}

// A vector cut or zero-padded to d numbers.
function fit(vector, d) {
  return Array.from({ length: d }, (_, j) => (j < vector.length ? vector[j] : 0));
}

// One token's vector for a role: { vector: number[d], source: 'hand' | 'drawn' }.
// Drawn vectors are N(0, 1) from engine.randomMatrix({ seed, stream: tokenStream(role, token) });
// `round` (a number of decimals) rounds them, for a starting point the learner can edit.
export function tokenVector(engine, { table, token, role, d, seed, round }) {
  const hand = table && table[role] ? table[role].get(token) : undefined;
  if (hand) return { vector: fit(hand, d), source: 'hand' };
  return { vector: drawnVector(drawnRows(engine, { tokens: [token], role, d, seed }).data, round), source: 'drawn' };
}

function drawnVector(draws, round) {
  const vector = Array.from(draws);
  return round === undefined ? vector : vector.map((x) => Number(x.toFixed(round)));
}

// The vectors of a token list for one role: { grid: number[n][d], sources: ('hand'|'drawn')[n] },
// the drawn ones in one engine call.
export function embedTokens(engine, { table, tokens, role, d, seed, round }) {
  const hand = table && table[role];
  const sources = tokens.map((t) => (hand && hand.has(t) ? 'hand' : 'drawn'));
  const drawn = tokens.filter((_, i) => sources[i] === 'drawn');
  const draws = drawn.length ? drawnRows(engine, { tokens: drawn, role, d, seed }).data : null;
  let r = 0;
  const grid = tokens.map((t, i) =>
    sources[i] === 'hand' ? fit(hand.get(t), d) : drawnVector(draws.subarray(d * r, d * ++r), round),
  );
  return { grid, sources };
}
