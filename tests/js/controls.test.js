// The controls kit's pure part (web/src/views/controls.js): how typed tokens are split and refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitTokens, tokensProblem } from '../../web/src/views/controls.js';

test('splitTokens splits at ASCII and ideographic spaces, drops control characters and empty pieces', () => {
  assert.deepEqual(splitTokens('  the cat\tsat\n'), ['the', 'cat', 'sat']);
  assert.deepEqual(splitTokens('猫\u3000吃\u3000\u3000鱼'), ['猫', '吃', '鱼']);
  assert.deepEqual(splitTokens('a\u0000b\u007fc\u009bd'), ['a', 'b', 'c', 'd']);
  assert.deepEqual(splitTokens(' \u3000 '), []);
});

// Every token field refuses with its reason: none, too many, one too long (in characters, not
// UTF-16 units: '猫' is one); the numbers of the message are the field's own limits.
test('tokensProblem says why a list of tokens is refused, with the limits it broke', () => {
  assert.equal(tokensProblem(['the', 'cat'], 8, 32), null);
  assert.deepEqual(tokensProblem([], 8, 32), { key: 'tokensEmpty' });
  assert.deepEqual(tokensProblem(['a', 'b', 'c'], 2, 32), { key: 'tokensMany', params: { max: 2, n: 3 } });
  assert.deepEqual(tokensProblem(['ok', 'x'.repeat(65)], 8, 32), { key: 'tokenLong', params: { max: 32, n: 65 } });
  assert.equal(tokensProblem(['猫'.repeat(32)], 8, 32), null);
  assert.deepEqual(tokensProblem(['😀'.repeat(33)], 8, 32), { key: 'tokenLong', params: { max: 32, n: 33 } });
});
