// The controls kit's pure part (web/src/views/controls.js): how typed tokens are split.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitTokens } from '../../web/src/views/controls.js';

test('splitTokens splits at ASCII and ideographic spaces, drops control characters and empty pieces', () => {
  assert.deepEqual(splitTokens('  the cat\tsat\n'), ['the', 'cat', 'sat']);
  assert.deepEqual(splitTokens('猫\u3000吃\u3000\u3000鱼'), ['猫', '吃', '鱼']);
  assert.deepEqual(splitTokens('a\u0000b\u007fc\u009bd'), ['a', 'b', 'c', 'd']);
  assert.deepEqual(splitTokens(' \u3000 '), []);
});
