// The motion helper (web/src/views/motion.js) with a clock of the test's own: animation frames
// are run by hand at chosen times, prefers-reduced-motion is a flag, so nothing waits.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { MOTION_MS, ease, tween } from '../../web/src/views/motion.js';

let frames; // the callbacks waiting for the next animation frame: id -> callback
let reduce;
beforeEach(() => {
  frames = new Map();
  reduce = false;
  let next = 1;
  globalThis.window = { matchMedia: (q) => ({ matches: reduce && q.includes('reduce') }) };
  globalThis.requestAnimationFrame = (cb) => {
    frames.set(next, cb);
    return next++;
  };
  globalThis.cancelAnimationFrame = (id) => frames.delete(id);
});
afterEach(() => {
  delete globalThis.window;
  delete globalThis.requestAnimationFrame;
  delete globalThis.cancelAnimationFrame;
});

// Runs the waiting frames at time `now` (ms).
function frameAt(now) {
  const due = [...frames.values()];
  frames.clear();
  for (const cb of due) cb(now);
}

const element = () => ({ dataset: {} });

test('ease: 0 to 1, symmetric, never going back', () => {
  assert.equal(ease(0), 0);
  assert.equal(ease(1), 1);
  assert.equal(ease(0.5), 0.5);
  for (let k = 0; k < 100; k++) {
    const t = k / 100;
    assert.ok(ease(t + 0.01) >= ease(t), `ease grows at ${t}`);
    assert.ok(Math.abs(ease(t) + ease(1 - t) - 1) < 1e-12, `ease is symmetric at ${t}`);
  }
});

test('a tween at 60 frames per second: nothing in the change, then one picture a frame from about 0, ending on 1 after MOTION_MS', () => {
  const seen = [];
  const el = element();
  const run = tween(MOTION_MS, (t) => seen.push(t), { el });
  assert.deepEqual(seen, [], 'nothing is drawn in the change itself');
  assert.equal(el.dataset.motion, 'running');
  const dt = 1000 / 60;
  let k = 0;
  while (frames.size) frameAt(1000 + dt * k++);
  assert.ok(seen[0] > 0 && seen[0] < 0.01, `the first frame shows the motion just begun: ${seen[0]}`);
  assert.equal(seen.at(-1), 1);
  assert.equal(seen.filter((t) => t === 1).length, 1, 'the end is drawn once');
  for (let j = 1; j < seen.length; j++) assert.ok(seen[j] >= seen[j - 1], `t grows at frame ${j}`);
  // the end comes about MOTION_MS after the change (the first frame shows it one frame in)
  assert.ok(Math.abs(k - MOTION_MS / dt) <= 1, `${k} frames`);
  assert.equal(el.dataset.motion, 'done');
  assert.equal(run.running, false);
});

test('slow frames still show the motion: at least three pictures between the first and the last', () => {
  const seen = [];
  tween(MOTION_MS, (t) => seen.push(t));
  let now = 0;
  while (frames.size) frameAt((now += 250)); // four frames a second
  const between = seen.filter((t) => t > 0 && t < 1);
  assert.ok(between.length >= 3, `in between: ${between}`);
  assert.equal(seen.at(-1), 1);
});

test('cancel stops a tween where it is: no frame after, and the figure is done', () => {
  const seen = [];
  const el = element();
  const run = tween(MOTION_MS, (t) => seen.push(t), { el });
  frameAt(0);
  frameAt(16);
  run.cancel();
  const count = seen.length;
  frameAt(32);
  frameAt(1000);
  assert.equal(seen.length, count, 'nothing drawn after cancel');
  assert.ok(seen.at(-1) < 1);
  assert.equal(el.dataset.motion, 'done');
  assert.equal(run.running, false);
  run.cancel(); // a second cancel does nothing
  assert.equal(el.dataset.motion, 'done');
});

test('under prefers-reduced-motion, or with no animation frames, only the end is drawn, at once', () => {
  reduce = true;
  let seen = [];
  let el = element();
  const run = tween(MOTION_MS, (t) => seen.push(t), { el });
  assert.deepEqual(seen, [1]);
  assert.equal(frames.size, 0, 'no frame asked for');
  assert.equal(el.dataset.motion, 'done');
  assert.equal(run.running, false);
  reduce = false;
  delete globalThis.requestAnimationFrame; // Node: no frames
  seen = [];
  el = element();
  tween(MOTION_MS, (t) => seen.push(t), { el });
  assert.deepEqual(seen, [1]);
  assert.equal(el.dataset.motion, 'done');
});
