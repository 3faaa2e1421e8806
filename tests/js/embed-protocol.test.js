// The messages embed.html accepts from its parent page (web/src/embed-protocol.js): a whole,
// valid message gives a patch; anything else, however it is malformed, gives null.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { chapters, loadChapter } from '../../web/src/chapters/index.js';
import { buildSchema } from '../../web/src/hosts/state.js';
import { EXAMPLE_SHAPE } from '../../web/src/lesson/example.js';
import { readMessage, resizerId, resizerMessage, canvasResize } from '../../web/src/hosts/embed-protocol.js';

const schema = buildSchema(chapters, EXAMPLE_SHAPE);
const loaded = new Map();
const stepsOf = (lesson) => loaded.get(lesson) ?? null;
const read = (data, lesson = 'masks') => readMessage(data, { schema, lesson, stepsOf });
const set = (state) => ({ source: 'attention-lab-host', type: 'set', state });

before(async () => {
  for (const id of ['masks', 'softmax'])
    loaded.set(
      id,
      (await loadChapter(id)).steps.map((s) => s.id),
    );
});

test('valid messages: set a stage, other fields, another lesson and its stage; get', () => {
  assert.deepEqual(read(set({ stage: 'causal' })), { patch: { stage: 'causal' } });
  assert.deepEqual(read(set({ fill: 'zero', causal: true, keyPadding: [false, true] })), {
    patch: { fill: 'zero', causal: true, keyPadding: [false, true] },
  });
  assert.deepEqual(read(set({ lesson: 'softmax', stage: 'temperature' })), {
    patch: { lesson: 'softmax', stage: 'temperature' },
  });
  assert.deepEqual(read({ source: 'attention-lab-host', type: 'get' }), { get: true });
  // A lesson whose chapter has not loaded: the stage is put right on arrival, as for a link.
  assert.deepEqual(read(set({ lesson: 'long', stage: 'anything' })), { patch: { lesson: 'long', stage: 'anything' } });
});

test('hostile or malformed messages are ignored whole', () => {
  const big = {};
  for (let k = 0; k < 100; k++) big[`f${k}`] = 1;
  const polluted = JSON.parse('{"source":"attention-lab-host","type":"set","state":{"__proto__":{"stage":"causal"}}}');
  const bad = [
    undefined,
    null,
    0,
    'set',
    ['attention-lab-host'],
    () => 1,
    new Date(),
    {},
    { type: 'set', state: { stage: 'causal' } }, // no source
    { source: 'attention-lab', type: 'set', state: { stage: 'causal' } }, // the frame's own source
    { source: 'attention-lab-host', type: 'eval', state: { stage: 'causal' } }, // unknown type
    { source: 'attention-lab-host', type: 'set', state: { stage: 'causal' }, extra: 1 }, // unknown key
    { source: 'attention-lab-host', type: 'get', state: {} },
    set(null),
    set([]),
    set('stage=causal'),
    set({}),
    set(big),
    polluted,
    set({ stage: 'weights' }), // not a step of masks
    set({ lesson: 'softmax', stage: 'padding' }), // not a step of softmax
    set({ lesson: 'nope' }),
    set({ lesson: 'masks', nope: 1 }),
    set({ fill: 'minus-infinity' }),
    set({ seed: -1 }),
    set({ seed: 1.5 }),
    set({ seed: '42' }),
    set({ seed: 1e300 }),
    set({ temperature: NaN }),
    set({ temperature: Infinity }),
    set({ causal: 'yes' }),
    set({ hide: 'inputs' }),
    set({ hide: [{}] }),
    set({ keyPadding: { 0: true } }),
    set({ queryTokens: ['a'.repeat(500)] }),
    set({ queryTokens: Array(1000).fill('a') }),
    set({ queryTokens: ['a\u0000b'] }),
    set({ stage: 'x'.repeat(1000) }),
    set({ Q: [[1, 2], [3]] }),
    set({ Q: [[[1]]] }),
    set({ stage: { toString: () => 'causal' } }),
    set({ constructor: 1 }),
    set({ toString: 'x' }),
    set({ hasOwnProperty: 1 }),
  ];
  for (const m of bad) assert.equal(read(m), null, JSON.stringify(m)?.slice(0, 120));
  assert.equal({}.stage, undefined, 'nothing reached Object.prototype');
});

test('iframe-resizer: only its parent script’s first message (the frame id and its settings) is an introduction', () => {
  const init = '[iFrameSizer]lab-1:8:false:false:32:true:true:null:bodyOffset:null:null:0:false:parent:scroll:true';
  assert.equal(resizerId(init), 'lab-1');
  for (const other of [
    '[iFrameSizer]resize',
    '[iFrameSizer]reset',
    '[iFrameSizer]message:{"a":1}',
    '[iFrameSizer]pageInfo:{"x":1}',
    '[iFrameSizer]a b:8:false:false:32:true:true:null:bodyOffset:null:null:0',
    `[iFrameSizer]${'x'.repeat(3000)}:8:false:false:32:true:true:null:bodyOffset:null:null:0`,
    'iFrameSizer]lab-1:8:false:false:32:true:true:null:bodyOffset:null:null:0',
    { source: '[iFrameSizer]lab-1:8:false:false:32:true:true:null:bodyOffset:null:null:0' },
    null,
  ])
    assert.equal(resizerId(other), null, String(other).slice(0, 40));
  assert.equal(resizerMessage('lab-1', 640, 900, 'init'), '[iFrameSizer]lab-1:640:900:init');
  assert.deepEqual(JSON.parse(canvasResize(640)), { subject: 'lti.frameResize', height: 640 });
});
