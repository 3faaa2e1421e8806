// The embed code of the state on screen (web/src/hosts/embed-code.js): the element's attributes and
// the iframe's link hold every field that is not its default, escaped for HTML, and read back as
// the same state by the page's own hash reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chapters } from '../../web/src/chapters/index.js';
import { buildSchema, defaults, parseHash } from '../../web/src/hosts/state.js';
import { EXAMPLE_SHAPE } from '../../web/src/lesson/example.js';
import { embedCode } from '../../web/src/hosts/embed-code.js';

const schema = buildSchema(chapters, EXAMPLE_SHAPE);
const root = 'https://school.example/courses/nlp/lab/';
const unescape = (text) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
const attrs = (tag) => Object.fromEntries([...tag.matchAll(/ (\w+)="([^"]*)"/g)].map(([, k, v]) => [k, unescape(v)]));

test('the element and the iframe carry the lesson, step, language, hide flags and every changed field', () => {
  const state = {
    ...defaults(schema),
    lesson: 'masks',
    stage: 'causal',
    lang: 'zh',
    causal: true,
    temperature: 2,
    queryTokens: ['a"b', 'c&d', '<猫>'],
  };
  const code = embedCode(state, { schema, root, title: 'Attention Lab: "Masks"', hide: ['inputs', 'header', 'save'] });
  assert.equal(
    code.script,
    '<script type="module" src="https://school.example/courses/nlp/lab/attention-lab.js"></script>',
  );
  const el = attrs(code.element);
  assert.deepEqual(Object.keys(el), ['lesson', 'stage', 'lang', 'hide', 'state']);
  assert.deepEqual([el.lesson, el.stage, el.lang, el.hide], ['masks', 'causal', 'zh', 'inputs,save']);
  // the element reads its attributes as a link (element.js hashOf): the same state comes back
  const hash = `${el.state}&lesson=${el.lesson}&stage=${el.stage}&lang=${el.lang}&hide=${el.hide}`;
  const back = parseHash(hash, schema).state;
  assert.deepEqual(back, { ...state, hide: ['inputs', 'save'] });
  const frame = attrs(code.iframe);
  assert.equal(frame.title, 'Attention Lab: "Masks"');
  assert.ok(frame.src.startsWith(`${root}embed.html#`));
  assert.deepEqual(parseHash(new URL(frame.src).hash, schema).state, { ...state, hide: ['inputs', 'save'] });
  assert.doesNotMatch(code.element + code.iframe, /<猫>|"b|c&d/, 'nothing unescaped');
});
