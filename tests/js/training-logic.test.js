// The training chapters' pure logic in Node: the pace (chapters/kit/pace.js) against the engine's
// own runs and a step-by-step integration of its rate, the step axis's horizon, and the
// playground's and the encoder–decoder's logic.js (runs, "learned", the answers, the verdict of
// "what happens without the scale").
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadTrainEngine } from '../../web/src/engine-train.js';
import {
  SPEEDS,
  DEFAULT_SPEED,
  MAX_FRAME,
  stepsPerSecond,
  secondsBetween,
  advance,
  horizon,
} from '../../web/src/chapters/kit/pace.js';
import * as pg from '../../web/src/chapters/playground/logic.js';
import * as s2 from '../../web/src/chapters/seq2seq/logic.js';
import playground, { NO_SCALE } from '../../web/src/chapters/playground/meta.js';
import seq2seq from '../../web/src/chapters/seq2seq/meta.js';

let engine;
before(async () => {
  engine = await loadTrainEngine({ simd: true });
});

const defaults = (meta) => Object.fromEntries(Object.entries(meta.state).map(([k, spec]) => [k, spec.default]));

test('the pace: frames of an animation add up to the schedule, a long frame counts as MAX_FRAME, fast has none', () => {
  for (const speed of ['slow', 'medium']) {
    // 60 frames a second from step 0 for 20 s, against the rate integrated in steps of 1 ms
    let budget = 0;
    for (let k = 0; k < 1200; k++) budget = advance(speed, budget, 1 / 60);
    let s = 0;
    for (let k = 0; k < 20000; k++) s += stepsPerSecond(speed, s) / 1000;
    assert.ok(Math.abs(budget - s) < 0.01 * s, `${speed}: ${budget} steps by frames, ${s} by the rate`);
    assert.ok(Math.abs(secondsBetween(speed, 0, budget) - 20) < 1e-6, speed);
    // a tab in the background: its one long frame is one short one
    assert.equal(advance(speed, 50, 30), advance(speed, 50, MAX_FRAME));
    assert.equal(advance(speed, 50, -1), 50);
  }
  assert.ok(secondsBetween('medium', 0, 500) < secondsBetween('slow', 0, 500) / 3.9);
  assert.equal(stepsPerSecond('fast', 0), Infinity);
  assert.equal(advance('fast', 0, 0.016), Infinity);
  assert.equal(secondsBetween('fast', 0, 1e6), 0);
  assert.ok(SPEEDS.includes(DEFAULT_SPEED) && DEFAULT_SPEED !== 'fast');
  assert.equal(playground.state.pgSpeed.default, DEFAULT_SPEED);
  assert.equal(seq2seq.state.s2Speed.default, DEFAULT_SPEED);
});

// The tasks at the playground's defaults: the step the engine learns them at, and the
// schedule's seconds to that step at the default speed (the real wall time is longer by the
// training itself: bench/training_pace_bench.mjs measures it in Chromium).
test('at the default speed each default task takes at least 15 s of schedule to be learned', () => {
  const state = defaults(playground);
  for (const task of ['previous-token', 'reverse', 'induction']) {
    const t = engine.trainer(pg.configOf({ ...state, pgTask: task }));
    let at = null;
    try {
      for (let k = 0; k < 100 && at === null; k++) {
        const r = t.step(10);
        if (t.evaluate().accuracy >= pg.learnedAccuracy(task)) at = r.step;
      }
    } finally {
      t.delete();
    }
    assert.ok(at !== null, `${task} learned within 1,000 steps`);
    const seconds = secondsBetween(DEFAULT_SPEED, 0, at);
    assert.ok(seconds >= 15, `${task}: learned at step ${at}, ${seconds.toFixed(1)} s at ${DEFAULT_SPEED}`);
  }
});

test('the step axis: a horizon of 100, 200, 500, 1,000 … that holds the run and keeps its start wide', () => {
  assert.equal(horizon(0), 100);
  assert.equal(horizon(100), 100);
  assert.equal(horizon(101), 200);
  assert.equal(horizon(201), 500);
  assert.equal(horizon(9999), 10000);
  let notches = 0;
  for (let step = 0; step <= 100000; step += 10) {
    const h = horizon(step);
    assert.ok(h >= step, `${step} fits in ${h}`);
    assert.ok(step <= 100 || step / h >= 0.4, `${step} fills at least 40 % of ${h}`);
    if (h !== horizon(step - 10)) notches++;
  }
  assert.equal(notches, 9); // 200, 500, 1,000, 2,000, 5,000, 10,000, 20,000, 50,000, 100,000
});

test('the playground: its runs, the twin of each comparison, the task words and "learned"', () => {
  const state = defaults(playground);
  assert.deepEqual(Object.keys(pg.runsOf(state)), ['main']);
  const scale = pg.runsOf({ ...state, pgCompare: 'scale' });
  assert.deepEqual({ ...scale.twin, scale: !scale.twin.scale }, scale.main);
  const pos = pg.runsOf({ ...state, pgCompare: 'position', pgPos: 'none' });
  assert.equal(pos.twin.position, 'learned');
  // every field the runs are made of, and nothing else, starts them again
  for (const field of Object.keys(playground.state)) {
    const spec = playground.state[field];
    const other = spec.values
      ? spec.values.find((x) => x !== spec.default)
      : spec.type === 'bool'
        ? !spec.default
        : spec.max !== spec.default
          ? spec.max
          : spec.min;
    if (other === undefined) continue;
    const changes =
      JSON.stringify(pg.runsOf({ ...state, pgCompare: 'scale', [field]: other })) !==
      JSON.stringify(pg.runsOf({ ...state, pgCompare: 'scale' }));
    assert.equal(pg.RUN_FIELDS.includes(field), changes || field === 'pgCompare', field);
  }
  assert.equal(pg.tokensText('reverse', [3, 10, -1]), '3 | ·');
  assert.equal(pg.tokensText('previous-token', [3, 10]), '3 10');
  assert.equal(pg.untrainedAnswer(0.06, 16), 'chance');
  assert.equal(pg.untrainedAnswer(0.45, 16), 'half');
  assert.equal(pg.untrainedAnswer(0.9, 16), 'all');
  assert.equal(pg.learnedAccuracy('previous-token'), 0.99);
  assert.ok(pg.learnedAccuracy('random-induction') < 0.95);
});

test('what happens without the scale: the numbers the verdict reads, from both runs at their steps', () => {
  const curve = (ys, accs, learnedAt = null) => ({
    loss: ys.map((y, k) => ({ x: (k + 1) * 100, y })),
    acc: accs.map((y, k) => ({ x: (k + 1) * 100, y })),
    learnedAt,
  });
  const scaled = curve([0.1, 0.01, 0.005], [0.99, 1, 1], 20);
  const unscaled = curve([2.2, 2.1, 1.8], [0.4, 0.45, 0.55]);
  assert.deepEqual(pg.noScaleNumbers(scaled, unscaled, 100, 300), {
    scaled: { from: 0.1, to: 0.005, acc: 1 },
    unscaled: { from: 2.2, to: 1.8, acc: 0.55 },
    learnedAt: 20,
  });
  assert.equal(pg.noScaleNumbers(scaled, curve([2.2, 2.1], [0.4, 0.45]), 100, 300), null); // not there yet
  const state = defaults(playground);
  assert.equal(pg.isNoScale(state), false);
  assert.equal(pg.isNoScale({ ...state, ...NO_SCALE }), true);
  assert.equal(pg.isNoScale({ ...state, ...NO_SCALE, pgSeed: 2 }), false);
});

test('the induction mark: the first step a head crossed it, and which head', () => {
  const hist = { marks: { induction: 540 }, tracks: { 'ind.0': [{ x: 540, y: 0.1 }], 'ind.3': [{ x: 540, y: 0.45 }] } };
  assert.deepEqual(pg.crossing(hist, 4), { step: 540, k: 3 });
  assert.equal(pg.crossing({ marks: {}, tracks: {} }, 4), null);
  assert.deepEqual(pg.headName(3, 2), { l: 2, h: 2 });
});

test('the encoder–decoder: the two runs, "learned" at every length, the longest inputs, your sentence', () => {
  const state = defaults(seq2seq);
  const runs = s2.runsOf(state);
  assert.equal(runs.twin.attention, 'none');
  assert.equal(runs.main.attention, state.s2Attn);
  assert.deepEqual({ ...runs.main, attention: 'none' }, runs.twin);
  const byLength = (acc) => ({ lengths: [2, 3, 24], tokenAccuracy: acc });
  assert.equal(s2.isLearned({ step: 10, byLength: byLength([1, 0.96, 0.95]) }), true);
  assert.equal(s2.isLearned({ step: 10, byLength: byLength([1, 1, 0.94]) }), false);
  assert.equal(s2.isLearned({ step: 0, byLength: byLength([1, 1, 1]) }), false);
  assert.equal(s2.longestAnswer(byLength([1, 1, 0.9]), byLength([1, 1, 0.3])).answer, 'attn');
  assert.equal(s2.longestAnswer(byLength([1, 1, 0.32]), byLength([1, 1, 0.3])).answer, 'same');
  assert.deepEqual(s2.longestAnswer(byLength([1, 1, 0.2]), byLength([1, 1, 0.6])), {
    length: 24,
    attn: 0.2,
    none: 0.6,
    answer: 'none',
  });
  assert.equal(s2.isOwnSentence(['the', 'cat'], ['the', 'cat', 'dog']), true);
  assert.equal(s2.isOwnSentence(['the', 'cow'], ['the', 'cat']), false);
  assert.equal(s2.isOwnSentence([], ['the']), false);
});
