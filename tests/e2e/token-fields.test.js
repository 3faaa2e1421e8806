// Every chapter's token fields (views/controls.js tokensInput) say why they refuse what was typed:
// no tokens, too many, or a token longer than a token may be. The field is marked invalid, its
// message says so in the page's language, and nothing changes (the link, the figure); a valid
// list is taken and clears the message. (A token of 65 characters in the Transformer-block
// chapter was dropped without a word.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';

let lab;
before(async () => {
  lab = await start();
});
after(() => lab?.close());

// The chapters and steps that have token fields, and how many each step shows.
const FIELDS = [
  ['block', '', 2],
  ['position', 'shuffle', 2],
  ['multihead', 'projections', 2],
  ['multihead', 'roles', 1],
  ['debug', '', 1],
];

// Types `text` into the field (as a learner commits it: the change event) and reads back the field.
const commit = (page, id, text) =>
  page.evaluate(
    ([id, text]) => {
      const input = document.getElementById(id);
      input.value = text;
      input.dispatchEvent(new Event('change'));
      return {
        invalid: input.getAttribute('aria-invalid'),
        message: document.getElementById(`${id}-e`).textContent,
        hash: location.hash,
      };
    },
    [id, text],
  );

for (const [lesson, stage, count] of FIELDS) {
  test(`${lesson}${stage ? ` (${stage})` : ''}: each token field says why it refuses`, async () => {
    const page = await lab.open(`lesson=${lesson}${stage ? `&stage=${stage}` : ''}`);
    try {
      const ids = await page.$$eval('article.chapter input[id^="ti"]', (inputs) =>
        inputs.filter((i) => i.closest('section[hidden]') === null).map((i) => i.id),
      );
      assert.equal(ids.length, count, ids.join(' '));
      for (const id of ids) {
        const before = await page.evaluate(() => location.hash);
        const long = await commit(page, id, `cat ${'x'.repeat(33)}`);
        assert.deepEqual(long, {
          invalid: 'true',
          message: 'A token may have at most 32 characters (one has 33).',
          hash: before,
        });
        const none = await commit(page, id, '   ');
        assert.deepEqual(none, { invalid: 'true', message: 'Type at least one token.', hash: before });
        const many = await commit(page, id, 'a '.repeat(40));
        assert.equal(many.invalid, 'true');
        assert.match(many.message, /^At most \d+ tokens here \(you typed 40\)\.$/);
        assert.equal(many.hash, before);
        const ok = await commit(page, id, 'the cat');
        assert.equal(ok.invalid, 'false');
        assert.equal(ok.message, '');
      }
      assert.deepEqual(page.errors, []);
    } finally {
      await page.closeAll();
    }
  });
}

test('a token field speaks the page’s language', async () => {
  const page = await lab.open('lesson=block&lang=zh', { locale: 'zh-CN' });
  try {
    const id = await page.$eval('article.chapter input[id^="ti"]', (i) => i.id);
    const r = await commit(page, id, 'x'.repeat(40));
    assert.equal(r.message, '每个词最多 32 个字符（有一个词有 40 个）。');
  } finally {
    await page.closeAll();
  }
});
