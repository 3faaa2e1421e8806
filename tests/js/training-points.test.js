// The playground's loss curves keep their start: pushPoint (chapters/kit/training.js) never drops
// one of a curve's first 200 points, so a plateau and the phase change that ends it are drawn
// point by point however long the run; only the late part is thinned, the newest point is always
// kept, and a curve holds at most 400 points. (The numbers are written here, not imported: a
// changed constant must fail this test.)
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { pushPoint } from '../../web/src/chapters/kit/training.js';

const MAX_POINTS = 400; // a curve's points at most
const KEEP_EARLY = 200; // its first points, always kept
const CHUNK = 10; // steps between two reports (any spacing would do)

test('the first 200 points are all kept, the late ones thinned, the newest kept, at most 400', () => {
  const list = [];
  const reports = 5000; // 50,000 steps in chunks of 10
  for (let k = 1; k <= reports; k++) {
    pushPoint(list, { x: k * CHUNK, y: k });
    assert.ok(list.length <= MAX_POINTS, `${list.length} points after ${k} reports`);
    assert.equal(list[list.length - 1].x, k * CHUNK, 'the newest point is there');
  }
  // every one of the first KEEP_EARLY reports (steps 10 .. 2,000), in order, none skipped
  assert.deepEqual(
    list.slice(0, KEEP_EARLY).map((p) => p.x),
    Array.from({ length: KEEP_EARLY }, (_, i) => (i + 1) * CHUNK),
  );
  // the late part is in order and spread over the rest of the run
  const late = list.slice(KEEP_EARLY).map((p) => p.x);
  for (let i = 1; i < late.length; i++) assert.ok(late[i] > late[i - 1]);
  assert.ok(late[0] > KEEP_EARLY * CHUNK);
  assert.ok(late.length > (MAX_POINTS - KEEP_EARLY) / 2, `${late.length} late points`);
});

// The case the old thinning lost (it kept step 0, then step 2,280): a drop between steps 400 and
// 700 in a run of 3,000 steps is still there point by point.
test('a drop at steps 400 to 700 of a 3,000-step run keeps every point', () => {
  const list = [];
  for (let step = CHUNK; step <= 3000; step += CHUNK)
    pushPoint(list, { x: step, y: step < 400 ? 4.1 : step < 700 ? 2 : 0.1 });
  const xs = new Set(list.map((p) => p.x));
  for (let step = CHUNK; step <= 1000; step += CHUNK) assert.ok(xs.has(step), `step ${step} kept`);
});
