// The real-model lesson's tokens (web/src/chapters/model/tokens.js): the shipped model's
// tokenizer against the ids its training script's own encoder gave (tests/golden/tiny_tokenizer.json),
// GPT-2's BPE (js-tiktoken's ranks) against ids GPT-2 is known to give, and the display of tokens
// that cut a character: its bytes grouped under it, never "�".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import gpt2Ranks from 'js-tiktoken/ranks/gpt2';
import { bpeTokenizer, idTokenizer, pieces, tokenLabel, TokenError } from '../../web/src/chapters/model/tokens.js';

const read = (p) => JSON.parse(readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8'));
const golden = read('tests/golden/tiny_tokenizer.json');
const ranks = read('web/src/chapters/model/tiny/tiktoken.json');
const tiny = bpeTokenizer(ranks);
const gpt2 = bpeTokenizer(gpt2Ranks);

const utf8 = (s) => Array.from(new TextEncoder().encode(s));
const bytesOf = (tok, ids) => ids.flatMap((id) => Array.from(tok.bytes(id)));

test('the shipped tokenizer gives the ids of the training script, in both languages', () => {
  assert.equal(tiny.vocabSize, 512);
  for (const { text, ids } of golden.cases) assert.deepEqual(tiny.encode(text), ids, text);
  for (const { text, ids } of golden.cases) assert.deepEqual(bytesOf(tiny, ids), utf8(text), text);
});

test("GPT-2's BPE gives GPT-2's ids", () => {
  assert.equal(gpt2.vocabSize, 50257);
  assert.deepEqual(gpt2.encode('Hello world'), [15496, 995]);
  assert.deepEqual(gpt2.encode('<|endoftext|>'), [50256]);
  assert.equal(tokenLabel(gpt2, 995), '␣world');
  const text = '注意力 is all you need';
  assert.deepEqual(bytesOf(gpt2, gpt2.encode(text)), utf8(text));
});

test('a character cut across tokens is shown as its bytes, grouped under it', () => {
  // 象 is not in the shipped model's grammar: its three bytes stay three tokens
  const ids = tiny.encode('象');
  assert.equal(ids.length, 3);
  assert.deepEqual(pieces(tiny, ids), [
    {
      text: '象',
      tokens: [
        { id: ids[0], i: 0, bytes: 'E8' },
        { id: ids[1], i: 1, bytes: 'B1' },
        { id: ids[2], i: 2, bytes: 'A1' },
      ],
    },
  ]);
  assert.equal(tokenLabel(tiny, ids[0]), '<E8>');

  // GPT-2 cuts Chinese inside and across characters: every group's text is whole characters,
  // the groups make up the sentence, and no "�" appears anywhere.
  for (const text of ['你好，世界', '注意力机制', '猫吃鱼 and the cat']) {
    const groups = pieces(gpt2, gpt2.encode(text));
    assert.equal(groups.map((g) => g.text).join(''), text);
    assert.ok(!JSON.stringify(groups).includes('\uFFFD'), text);
    assert.ok(
      groups.some((g) => g.tokens.length > 1 && g.tokens.every((t) => /^[0-9A-F]{2}( [0-9A-F]{2})*$/.test(t.bytes))),
      text,
    );
    assert.deepEqual(
      groups.flatMap((g) => g.tokens.map((t) => t.i)),
      gpt2.encode(text).map((_, i) => i),
    );
  }
});

test('whole tokens keep their text; special tokens are shown by name', () => {
  const ids = tiny.encode('Alice has a red book.');
  const groups = pieces(tiny, ids);
  assert.equal(groups.length, ids.length);
  assert.deepEqual(
    groups.map((g) => g.tokens[0].text),
    groups.map((g) => g.text),
  );
  assert.equal(groups.map((g) => g.text).join(''), 'Alice has a red book.');
  const eot = tiny.encode('<|endoftext|>');
  assert.deepEqual(eot, [ranks.special_tokens['<|endoftext|>']]);
  assert.equal(eot[0], 511);
  assert.equal(tokenLabel(tiny, eot[0]), '<|endoftext|>');
});

test('without a tokenizer the ids are typed; a bad one is refused by name', () => {
  const tok = idTokenizer(50);
  assert.deepEqual(tok.encode(' 3 14, 49 '), [3, 14, 49]);
  assert.deepEqual(tok.encode(''), []);
  assert.throws(
    () => tok.encode('3 50'),
    (e) => e instanceof TokenError && e.code === 'badId' && e.params.id === '50',
  );
  assert.throws(
    () => tok.encode('3 x'),
    (e) => e instanceof TokenError && e.params.id === 'x',
  );
  assert.equal(tokenLabel(tok, 7), '#7');
});
