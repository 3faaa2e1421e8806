// The tokens a model sees: text -> ids through a byte-level BPE, and ids -> what to show for them.
// Pure: no DOM, no engine.
//
//   const tok = bpeTokenizer(ranks)     // ranks: js-tiktoken's file ({ pat_str, special_tokens,
//                                       //   bpe_ranks, explicit_n_vocab }): GPT-2's own
//                                       //   (js-tiktoken/ranks/gpt2) or the shipped model's
//                                       //   tiny/tokenizer.json
//   const tok = idTokenizer(vocabSize)  // no tokenizer known: the text is the ids, "12 7 33"
//   tok.encode(text) -> number[]        // refuses (TokenError) what it cannot read
//   tok.bytes(id) -> Uint8Array | null  // a token's bytes (null: no bytes, an id or a special)
//   tok.label(id) -> { text, bytes }    // one token as a label: its text, or its bytes in hex
//                                       //   when they are not whole UTF-8 characters
//   pieces(tok, ids) -> groups          // the sentence's tokens grouped under the characters
//                                       //   they make up (below)
//
// A Chinese character is three bytes in UTF-8, and a byte-level BPE often cuts it between two or
// three tokens. Such tokens are never decoded alone (that gives "�"): pieces() groups the
// tokens whose edges fall inside a character and shows each one as its bytes, under the text
// the group makes up.

import { Tiktoken } from 'js-tiktoken/lite';

export class TokenError extends Error {
  constructor(code, params) {
    super(code);
    this.name = 'TokenError';
    this.code = code;
    this.params = params;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

// Each token's bytes from the ranks file: lines of "<anything> <first rank> <base64> <base64> …".
function rankBytes(ranks) {
  const out = [];
  for (const line of ranks.bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, first, ...tokens] = line.split(' ');
    const offset = Number.parseInt(first, 10);
    tokens.forEach((b64, i) => {
      out[offset + i] = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    });
  }
  for (const [text, id] of Object.entries(ranks.special_tokens)) out[id] = encoder.encode(text);
  return out;
}

// Bytes as text when they are whole UTF-8 characters, else null.
function textOf(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');

export function bpeTokenizer(ranks) {
  const enc = new Tiktoken(ranks);
  const table = rankBytes(ranks);
  const vocabSize = ranks.explicit_n_vocab ?? table.length;
  const special = new Set(Object.values(ranks.special_tokens));
  return {
    kind: 'bpe',
    vocabSize,
    encode: (text) => enc.encode(text, 'all'),
    bytes: (id) => table[id] ?? null,
    special: (id) => special.has(id),
    label(id) {
      const bytes = table[id];
      if (!bytes) return { text: `#${id}`, bytes: null };
      return { text: textOf(bytes), bytes };
    },
  };
}

// When no tokenizer is known for a checkpoint: the learner types the ids themselves.
export function idTokenizer(vocabSize) {
  return {
    kind: 'ids',
    vocabSize,
    encode(text) {
      const parts = text.trim() === '' ? [] : text.trim().split(/[\s,]+/);
      return parts.map((p) => {
        const id = Number(p);
        if (!/^\d+$/.test(p) || id >= vocabSize) throw new TokenError('badId', { id: p, max: vocabSize - 1 });
        return id;
      });
    },
    bytes: () => null,
    special: () => false,
    label: (id) => ({ text: `#${id}`, bytes: null }),
  };
}

// The sentence's tokens for display, in groups: a group is one token whose bytes are whole
// characters ({ text, tokens: [{ id, text }] }), or the run of tokens that share a character
// ({ text, tokens: [{ id, bytes: 'E8 B1' }, { id, bytes: 'A1' }] }): text is what the group's
// bytes make up together (null if even they are not whole characters). Each token also carries
// its position in the sentence (i).
export function pieces(tok, ids) {
  const groups = [];
  let run = [];
  let runBytes = [];
  const close = () => {
    if (!run.length) return;
    const all = Uint8Array.from(runBytes.flatMap((b) => Array.from(b)));
    const text = textOf(all);
    if (run.length === 1 && text !== null) groups.push({ text, tokens: [{ ...run[0], text }] });
    else
      groups.push({
        text,
        tokens: run.map((t, k) => ({ ...t, bytes: hex(runBytes[k]) })),
      });
    run = [];
    runBytes = [];
  };
  ids.forEach((id, i) => {
    const bytes = tok.bytes(id);
    if (!bytes) {
      close();
      groups.push({ text: tok.label(id).text, tokens: [{ id, i, text: tok.label(id).text }] });
      return;
    }
    run.push({ id, i });
    runBytes.push(bytes);
    // The run ends where the next token starts a character: after this token's bytes, no
    // character is left open.
    const all = runBytes.flatMap((b) => Array.from(b));
    if (!openCharacter(all)) close();
  });
  close();
  return groups;
}

// True when the bytes end inside a UTF-8 character (its lead byte seen, not all its
// continuation bytes). A stray continuation byte closes nothing and opens nothing.
function openCharacter(bytes) {
  for (let k = bytes.length - 1, seen = 0; k >= 0 && k >= bytes.length - 4; k--, seen++) {
    const b = bytes[k];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return seen + 1 < need;
  }
  return false;
}

// One token as a short label (the next-token bars, a map's rows): its text with spaces and
// line breaks made visible, or its bytes as <E8 B1> when they are not whole characters.
export function tokenLabel(tok, id) {
  const { text, bytes } = tok.label(id);
  // bytes that are not whole characters, or a control character: shown as bytes
  if (text === null || (bytes && /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text))) return `<${hex(bytes)}>`;
  return visible(text);
}

export const visible = (text) => text.replace(/ /g, '␣').replace(/\n/g, '⏎').replace(/\t/g, '⇥');
