// The page state schema: hash parse/serialize round trip, malformed values, chapter fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildSchema,
  parseHash,
  serializeHash,
  defaults,
  validatePatch,
  checkSet,
  coreSchema,
} from '../../web/src/hosts/state.js';
import { EXAMPLE_SHAPE } from '../../web/src/lesson/example.js';
import playground from '../../web/src/chapters/playground/meta.js';

const chapters = [
  { id: 'why' },
  { id: 'pipeline', state: { selRow: { type: 'int', default: 0, min: 0, max: 31 } } },
  { id: 'softmax', state: { showNaive: { type: 'bool', default: false } } },
];
const schema = buildSchema(chapters, EXAMPLE_SHAPE);

test('an empty hash gives the defaults and no problems', () => {
  const { state, problems } = parseHash('', schema);
  assert.deepEqual(problems, []);
  assert.equal(state.lesson, 'why', 'the first chapter of the list (the page puts its start page first)');
  assert.equal(state.lang, 'en');
  assert.equal(state.seed, 42);
  assert.equal(state.dk, 4);
  assert.equal(state.fill, 'neg-inf');
  assert.deepEqual(state.queryTokens, []);
  assert.equal(state.selRow, 0);
  assert.equal(state.showNaive, false);
});

test('base overrides (the browser language) apply when the hash has no lang', () => {
  assert.equal(parseHash('#seed=3', schema, { lang: 'zh' }).state.lang, 'zh');
  assert.equal(parseHash('#lang=en', schema, { lang: 'zh' }).state.lang, 'en');
});

test('a hand-written hash is read field by field', () => {
  const { state, problems } = parseHash(
    '#lesson=softmax&lang=zh&stage=masked&preset=random&queryTokens=%E7%8C%AB,eats&keyTokens=a,b%2Cc&seed=7&dk=16' +
      '&inputMode=random&Q=1,-2.5;0.5,3e-2&keyPadding=0,1&causal=1&fill=zero&temperature=0.5&stable=0&hide=inputs,nav&showNaive=1',
    schema,
  );
  assert.deepEqual(problems, []);
  assert.equal(state.lesson, 'softmax');
  assert.equal(state.lang, 'zh');
  assert.equal(state.stage, 'masked');
  assert.equal(state.preset, 'random');
  assert.deepEqual(state.queryTokens, ['猫', 'eats']);
  assert.deepEqual(state.keyTokens, ['a', 'b,c']);
  assert.equal(state.seed, 7);
  assert.equal(state.dk, 16);
  assert.deepEqual(state.Q, [
    [1, -2.5],
    [0.5, 0.03],
  ]);
  assert.deepEqual(state.keyPadding, [false, true]);
  assert.equal(state.causal, true);
  assert.equal(state.fill, 'zero');
  assert.equal(state.temperature, 0.5);
  assert.equal(state.stable, false);
  assert.deepEqual(state.hide, ['inputs', 'nav']);
  assert.equal(state.showNaive, true);
});

test('serialize then parse gives the same state back', () => {
  const s = defaults(schema);
  Object.assign(s, {
    lesson: 'softmax',
    lang: 'zh',
    stage: 'weights',
    preset: 'cat-chase',
    queryTokens: ['谁 在', 'a&b', '=#%'],
    keyTokens: ['x,y'],
    seed: 4294967295,
    dk: 64,
    inputMode: 'random',
    K: [
      [0.1, -0.2],
      [1e-7, 3],
    ],
    scores: [[2.6, 1.2, 6.1, 2]],
    keyPadding: [true, false, true],
    causal: true,
    customMask: [
      [1, 0],
      [0, 1],
    ],
    reverseCausal: true,
    fill: 'large-negative',
    temperature: 2.5,
    stable: false,
    hide: ['inputs'],
    selRow: 31,
    showNaive: true,
  });
  const hash = serializeHash(s, schema);
  assert.ok(!/[\s#]/.test(hash), hash);
  const back = parseHash('#' + hash, schema);
  assert.deepEqual(back.problems, []);
  assert.deepEqual(back.state, s);
});

test('only non-default fields are written (plus lesson and lang)', () => {
  const s = { ...defaults(schema), seed: 9 };
  assert.equal(serializeHash(s, schema), 'lesson=why&lang=en&seed=9');
  assert.equal(serializeHash(defaults(schema), schema), 'lesson=why&lang=en');
});

test('malformed values fall back to defaults and are all reported', () => {
  const { state, problems } = parseHash(
    '#seed=abc&dk=0&lang=fr&preset=nope&causal=maybe&Q=1,2;3&temperature=-1&keyPadding=1,x&bogus=1&lesson=masks' +
      '&K=1,a&queryTokens=a,,b&selRow=99&dk=1.5&V=' +
      Array(40).fill('1').join(';'),
    schema,
  );
  const keys = problems.map((p) => p.key).sort();
  assert.deepEqual(
    keys,
    [
      'K',
      'Q',
      'V',
      'bogus',
      'causal',
      'dk',
      'dk',
      'keyPadding',
      'lang',
      'lesson',
      'preset',
      'queryTokens',
      'seed',
      'selRow',
      'temperature',
    ].sort(),
  );
  const d = defaults(schema);
  for (const k of [
    'seed',
    'dk',
    'lang',
    'preset',
    'causal',
    'Q',
    'K',
    'V',
    'temperature',
    'keyPadding',
    'queryTokens',
    'selRow',
    'lesson',
  ]) {
    assert.deepEqual(state[k], d[k], k);
  }
  assert.equal(problems.find((p) => p.key === 'dk').value, '0');
  assert.deepEqual(problems.find((p) => p.key === 'dk').reason, { code: 'outside', params: { min: 1, max: 64 } });
  assert.equal(problems.find((p) => p.key === 'bogus').reason.code, 'unknownField');
  assert.ok(problems.every((p) => !p.kept));
});

test('garbage never throws', () => {
  for (const h of [
    '#%',
    '#=&=&',
    '#seed=%E0%A4%A',
    '#&&&',
    '#Q=;;',
    '#queryTokens=%ZZ',
    '#matrix',
    '#__proto__=1',
    '#constructor=x',
  ]) {
    const r = parseHash(h, schema);
    assert.equal(typeof r.state, 'object');
    assert.ok(Array.isArray(r.problems));
    assert.equal(r.state.seed, 42);
  }
  assert.ok(parseHash('#Q=;;', schema).problems.length > 0);
});

test('tokens in a link are cut to 32 of 32 characters each, and the cut is reported', () => {
  const many = Array.from({ length: 33 }, (_, i) => `t${i}`).join(',');
  const r = parseHash('#queryTokens=' + many, schema);
  assert.deepEqual(
    r.problems.map((p) => [p.key, p.reason.code, p.kept]),
    [['queryTokens', 'keptFirst', true]],
  );
  assert.deepEqual(
    r.state.queryTokens,
    Array.from({ length: 32 }, (_, i) => `t${i}`),
  );
  const ok = Array.from({ length: 32 }, (_, i) => `t${i}`).join(',');
  assert.deepEqual(parseHash('#queryTokens=' + ok, schema).problems, []);

  // A 100,000-character token: cut to 32 characters (not freezing the page with it).
  const long = parseHash('#keyTokens=a,' + 'x'.repeat(100000), schema);
  assert.deepEqual(long.state.keyTokens, ['a', 'x'.repeat(32)]);
  assert.equal(long.problems[0].reason.code, 'cutItems');
  // Characters, not UTF-16 units: 40 猫 become 32 猫.
  const cats = parseHash('#keyTokens=' + encodeURIComponent('猫'.repeat(40)), schema);
  assert.equal(cats.state.keyTokens[0], '猫'.repeat(32));
  // A NUL or other control character is removed (it never reaches a formula).
  const nul = parseHash('#queryTokens=a%00b,c%0Ad', schema);
  assert.deepEqual(nul.state.queryTokens, ['ab', 'cd']);
  assert.equal(nul.problems[0].reason.code, 'controlChars');
  assert.equal(parseHash('#queryTokens=%00', schema).problems[0].reason.code, 'emptyItem');
  assert.equal(parseHash('#stage=a%00', schema).problems[0].reason.code, 'controlChars');
});

test('a megabyte value is refused before it is parsed', () => {
  // (bench/responsiveness.mjs prints how long the refusal takes)
  for (const key of ['Q', 'seed', 'queryTokens', 'stage', 'keyPadding']) {
    const r = parseHash(`#${key}=` + '1,'.repeat(500000), schema);
    assert.deepEqual(
      r.problems.map((p) => [p.key, p.reason.code]),
      [[key, 'tooLong']],
      key,
    );
  }
  // The largest legal matrix still parses.
  const big = Array.from({ length: 32 }, () => Array(64).fill('-0.123456789').join(',')).join(';');
  assert.deepEqual(parseHash('#Q=' + big, schema).problems, []);
});

test('validatePatch refuses values the schema does not allow', () => {
  assert.deepEqual(validatePatch({ seed: 5, queryTokens: ['a', 'b'], Q: [[1, 2]] }, schema), {
    ok: true,
    patch: { seed: 5, queryTokens: ['a', 'b'], Q: [[1, 2]] },
  });
  assert.deepEqual(validatePatch({ dk: 0 }, schema), {
    ok: false,
    errors: [{ key: 'dk', code: 'outside', params: { min: 1, max: 64 } }],
  });
  assert.equal(validatePatch({ queryTokens: ['x'.repeat(33)] }, schema).errors[0].code, 'cutItems');
  assert.equal(validatePatch({ queryTokens: ['a\u0000'] }, schema).errors[0].code, 'controlChars');
  assert.equal(validatePatch({ __proto__: 1 }, schema).ok, true); // an object literal's __proto__ is no field
  assert.equal(validatePatch(JSON.parse('{"__proto__": 1}'), schema).ok, false);
  assert.equal(validatePatch({ Q: [[1, NaN]] }, schema).ok, false);
  assert.equal(validatePatch({ queryTokens: [] }, schema).ok, true);
  assert.equal(validatePatch({ nope: 1 }, schema).ok, false);
  assert.equal(validatePatch({ fill: 'minus-one' }, schema).ok, false);
});

test("a chapter may not redefine a core field or another chapter's field", () => {
  const seed = { type: 'int', default: 1, min: 0, max: 2 };
  assert.throws(() => buildSchema([{ id: 'a', state: { seed } }], EXAMPLE_SHAPE), /seed/);
  const flag = { type: 'bool', default: false };
  assert.throws(
    () =>
      buildSchema(
        [
          { id: 'a', state: { x: flag } },
          { id: 'b', state: { x: flag } },
        ],
        EXAMPLE_SHAPE,
      ),
    /"x" of chapter "b"/,
  );
  assert.doesNotThrow(() =>
    buildSchema(
      [
        { id: 'a', state: { x: flag } },
        { id: 'b', state: { y: flag } },
      ],
      EXAMPLE_SHAPE,
    ),
  );
});

// The schema knows no lesson: the worked example's presets and limits are what its caller gives.
test('the schema is built from the example it is given: its presets, token and d_k limits', () => {
  const example = { presets: ['b', 'a'], maxTokens: 3, maxTokenChars: 4, maxDk: 5 };
  const small = buildSchema(
    [{ id: 'x', state: { words: { type: 'list', item: 'string', default: [], maxItems: 2 } } }],
    example,
  );
  const { state, problems } = parseHash('#queryTokens=a,b,c,d&keyTokens=abcdefg&dk=6&Q=1;2;3;4&words=abcdef', small);
  assert.equal(state.preset, 'b', 'the first preset by default');
  assert.deepEqual(parseHash('#preset=a', small).state.preset, 'a');
  assert.equal(parseHash('#preset=cat-fish', small).problems[0].reason.code, 'notOneOf');
  assert.deepEqual(state.queryTokens, ['a', 'b', 'c'], 'at most 3 tokens');
  assert.deepEqual(state.keyTokens, ['abcd'], 'tokens of at most 4 characters');
  assert.deepEqual(state.words, ['abcd'], "a chapter's tokens too");
  assert.equal(state.dk, 4);
  assert.deepEqual(state.Q, []);
  assert.deepEqual(
    problems.map((p) => [p.key, p.reason.code, p.reason.params.max]),
    [
      ['queryTokens', 'keptFirst', 3],
      ['keyTokens', 'cutItems', 4],
      ['dk', 'outside', 5],
      ['Q', 'tooManyRows', 3],
      ['words', 'cutItems', 4],
    ],
  );
  assert.deepEqual(coreSchema(example).lesson.values, ['start'], 'building a schema changes no other one');
});

test('language: Chinese browsers default to zh, others to en; schema reasons read in Chinese', async () => {
  const { reason, t } = await import('../../web/src/text/i18n.js');
  const { detectLang } = await import('../../web/src/hosts/visit.js');
  assert.equal(detectLang(['zh-CN', 'en']), 'zh');
  assert.equal(detectLang(['zh-TW']), 'zh');
  assert.equal(detectLang(['en-GB', 'zh-CN']), 'en');
  assert.equal(detectLang(['fr-FR', 'zh-CN']), 'zh');
  assert.equal(detectLang(['fr-FR']), 'en');
  assert.equal(detectLang(undefined), 'en');
  assert.equal(reason('zh', { code: 'outside', params: { min: 1, max: 64 } }), '超出 1 到 64 的范围');
  assert.equal(reason('zh', { code: 'tooManyRows', params: { max: 32 } }), '超过 32 行');
  assert.equal(reason('en', { code: 'notInteger', params: {} }), 'not an integer');
  assert.equal(reason('en', { code: 'outside', params: { min: 1, max: 64 } }), 'outside 1..64');
  // Every reason the schema produces for a bad hash has a Chinese reading (not the code).
  const { problems } = parseHash(
    '#seed=x&dk=0&lang=fr&causal=2&Q=1;1,2&K=a&keyPadding=2&queryTokens=a,,b&bogus=1' +
      '&V=' +
      Array(40).fill('1').join(';') +
      '&scores=' +
      Array(40).fill('1').join(',') +
      '&stage=%00&keyTokens=' +
      'y'.repeat(40) +
      '&temperature=q&hide=' +
      Array(20).fill('a').join(',') +
      '&customMask=%ZZ&seed=' +
      '9'.repeat(2000),
    schema,
  );
  assert.ok(problems.length >= 16);
  for (const p of problems) assert.match(reason('zh', p.reason), /[\u4e00-\u9fff]/, p.reason.code);
  assert.notEqual(t('zh', 'badHash'), t('en', 'badHash'));
});

// issue item 12: a value of another JS type is refused by its field, not formatted into
// something that passes; set(null) and other non-objects get the schema's error; what comes
// back is what was checked, copied (the caller's arrays can change afterwards).
test("validatePatch checks each value's JS type and returns exactly what it checked", () => {
  const bad = (patch, key, code) => {
    const r = validatePatch(patch, schema, true);
    assert.equal(r.ok, false, `${key} ${code}`);
    assert.equal(r.errors[0].key, key);
    assert.equal(r.errors[0].code, code);
  };
  bad({ causal: 'false' }, 'causal', 'notBool');
  bad({ causal: 0 }, 'causal', 'notBool');
  bad({ seed: '7' }, 'seed', 'notInteger');
  bad({ dk: [4] }, 'dk', 'notInteger');
  bad({ queryTokens: 'a,b' }, 'queryTokens', 'notList');
  bad({ queryTokens: [1, 2] }, 'queryTokens', 'itemsStrings');
  bad({ Q: [1, 2] }, 'Q', 'notMatrix');
  bad({ Q: [['1', 2]] }, 'Q', 'notAllNumbers');
  bad({ fill: 3 }, 'fill', 'notOneOf');
  for (const x of [null, undefined, 3, 'causal', [1], () => {}]) bad(x, '', 'notObject');
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  bad(revoked.proxy, '', 'notObject');
  const tokens = ['a', 'b'];
  const r = validatePatch({ queryTokens: tokens, causal: true, seed: 7 }, schema, true);
  assert.deepEqual(r, { ok: true, patch: { queryTokens: ['a', 'b'], causal: true, seed: 7 } });
  tokens.push('c');
  assert.deepEqual(r.patch.queryTokens, ['a', 'b'], 'a copy');
});

// issue item 14: numbers past float32 in a link are refused by their field, with a reason
test('numbers past float32 are refused at the schema, in a link and in set()', () => {
  const { state, problems } = parseHash('#lesson=pipeline&Q=1e300,1;2,3', schema);
  assert.deepEqual(problems, [{ key: 'Q', value: '1e300,1;2,3', reason: { code: 'pastFloat32', params: {} } }]);
  assert.deepEqual(state.Q, defaults(schema).Q, 'the default is kept');
  assert.equal(parseHash('#Q=-3.5e38,1', schema).problems[0].reason.code, 'pastFloat32');
  assert.deepEqual(parseHash('#Q=3.4e38,1', schema).problems, []);
  const r = validatePatch({ Q: [[1e39, 1]] }, schema);
  assert.equal(r.errors[0].code, 'pastFloat32');
});

// issue item 10: a link may ask the playground to replay at most 10,000 steps (the link
// asked for 100,000: hours at that size); the notice names the field and its range
test('a replay link is capped at 10,000 steps, with a notice', () => {
  const real = buildSchema([playground], EXAMPLE_SHAPE);
  const { state, problems } = parseHash('#lesson=playground&pgStep=100000&pgD=128&pgHeads=4', real);
  assert.deepEqual(problems, [
    { key: 'pgStep', value: '100000', reason: { code: 'outside', params: { min: 0, max: 10000 } } },
  ]);
  assert.equal(state.pgStep, 0);
  assert.equal(parseHash('#lesson=playground&pgStep=10000', real).state.pgStep, 10000);
});

// issue item 12: the public set() (checkSet, what hosts/host.js runs for the element and the
// page) answers every bad call with the schema's error and a message naming the field, never a
// TypeError, and what it hands on to be stored is exactly what it checked: read once, copied.
test('the public set() refuses wrong JS types with a message and never throws', () => {
  const cases = [
    [{ causal: 'false' }, 'causal', "causal: not 0 or 1, got 'false'"],
    [{ seed: '7' }, 'seed', "seed: not an integer, got '7'"],
    [{ dk: [4] }, 'dk', 'dk: not an integer, got an array'],
    [{ queryTokens: 'a,b' }, 'queryTokens', "queryTokens: not a list, got 'a,b'"],
    [{ keyPadding: [1, 0] }, 'keyPadding', 'keyPadding: items must be 0 or 1, got an array'],
    [{ Q: [1, 2] }, 'Q', 'Q: not a list of rows, got an array'],
    [null, '', 'set(): expected an object of fields to set, got null'],
    [undefined, '', 'set(): expected an object of fields to set, got undefined'],
    ['causal=1', '', 'set(): expected an object of fields to set, got string'],
  ];
  for (const [patch, key, message] of cases) {
    let r;
    assert.doesNotThrow(() => (r = checkSet(patch, schema)), JSON.stringify(patch));
    assert.equal(r.ok, false);
    assert.equal(r.errors[0].key, key);
    assert.equal(r.errors[0].message, message);
  }
  assert.match(checkSet({ causal: 'false' }, schema, 'zh').errors[0].message, /^causal: 应为 0 或 1/);
  // Not strict (the chapters' own controls), a string for a list is refused, not a TypeError.
  for (const patch of [{ queryTokens: 'a,b' }, { Q: 5 }, { keyPadding: 'x' }, { Q: [[1], 2] }]) {
    let r;
    assert.doesNotThrow(() => (r = validatePatch(patch, schema)), JSON.stringify(patch));
    assert.equal(r.ok, false, JSON.stringify(patch));
  }
});

test('the public set() stores what it checked: each value read once, lists copied', () => {
  let reads = 0;
  const patch = {
    get seed() {
      reads++;
      return reads === 1 ? 7 : 'seven'; // honest once, then a lie
    },
    queryTokens: ['a', 'b'],
  };
  const r = checkSet(patch, schema);
  assert.deepEqual(r, { ok: true, patch: { seed: 7, queryTokens: ['a', 'b'] } });
  assert.equal(reads, 1);
  patch.queryTokens.push('c');
  assert.deepEqual(r.patch.queryTokens, ['a', 'b']);
  const proxy = new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('no keys');
      },
    },
  );
  assert.equal(checkSet(proxy, schema).errors[0].code, 'notObject');
  assert.deepEqual(checkSet({ causal: true, seed: 9 }, schema).patch, { causal: true, seed: 9 });
});
