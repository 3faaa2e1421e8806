// q·k as geometry (web/src/lesson/geometry.js and the caption of chapters/kit/geometry.js): the
// arrows read from a link, moved and snapped, the engine's scores, scaled scores and weights against
// a double-precision reference, and the caption's reading of them (which key wins, its length and
// angle, the key that is longer or closer and still loses) in both languages.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadEngine } from '../../web/src/engine.js';
import { GEO_START, GEO_LIMIT, arrowsOf, attendArrows, movedGrid, snapCoord } from '../../web/src/lesson/geometry.js';
import { geometryCaption } from '../../web/src/chapters/kit/geometry.js';
import { t } from '../../web/src/text/i18n.js';
import { dot, softmaxRef, mulberry32 } from './reference.js';

let engine;
before(async () => {
  engine = await loadEngine();
});

test('arrows from a link: missing rows and columns are the example, coordinates held within the plot', () => {
  assert.deepEqual(arrowsOf([]), GEO_START);
  assert.deepEqual(arrowsOf([[9, -0.25], [1]]), [[GEO_LIMIT, -0.25], [1, GEO_START[1][1]], ...GEO_START.slice(2)]);
  assert.deepEqual(arrowsOf([[-1e30, 1e30]])[0], [-GEO_LIMIT, GEO_LIMIT]);
});

test('a move snaps to the 0.1 grid, and the example again is the empty grid (a short link)', () => {
  assert.equal(snapCoord(1.26), 1.3);
  assert.equal(snapCoord(-0.04), 0);
  assert.equal(snapCoord(0.30000000000000004), 0.3);
  assert.equal(snapCoord(7), GEO_LIMIT);
  const moved = movedGrid(GEO_START, 2, [0.73, -1.88]);
  assert.deepEqual(moved[2], [0.7, -1.9]);
  assert.deepEqual(moved.slice(3), GEO_START.slice(3));
  assert.deepEqual(movedGrid(moved, 2, GEO_START[2]), []);
});

test('the engine scores the keys as q·k, q·k/√2 and their softmax (a double-precision reference, 200 pictures)', () => {
  const rand = mulberry32(20);
  const coord = () => Math.round((rand() * 2 - 1) * GEO_LIMIT * 10) / 10;
  for (let n = 0; n < 200; n++) {
    const arrows = arrowsOf(GEO_START.map(() => [coord(), coord()]));
    const r = attendArrows(engine, arrows);
    const [q, ...keys] = arrows;
    const scores = keys.map((k) => dot(q, k));
    const weights = softmaxRef(scores.map((s) => s / Math.SQRT2));
    keys.forEach((_, j) => {
      assert.ok(Math.abs(r.scores[j] - scores[j]) <= 1e-5 * (1 + Math.abs(scores[j])), `score ${j}`);
      assert.ok(Math.abs(r.scaled[j] - scores[j] / Math.SQRT2) <= 1e-5 * (1 + Math.abs(scores[j])), `scaled ${j}`);
      assert.ok(Math.abs(r.weights[j] - weights[j]) <= 1e-6, `weight ${j}`);
    });
    assert.deepEqual(r.arrows, arrows);
  }
});

const chapter = (lang) => ({ lang, t: (key, params) => t(lang, key, params) });
const captionOf = (lang, arrows) => {
  const geo = attendArrows(engine, arrows);
  const best = geo.weights.indexOf(Math.max(...geo.weights));
  return geometryCaption(chapter(lang), geo, best);
};

test('the caption: the example’s query picks “cat”, 7° away and 1.61 long, over the longer “fish” at 49°', () => {
  assert.equal(
    captionOf('en', GEO_START),
    'The query “猫” attends most to “cat” (weight 0.60): its projection onto q, 1.60, is the longest, ' +
      '|k| cos θ = 1.61 × cos 7°. “fish” is longer (1.79) but points 49° away from q, so its projection is only 1.16.',
  );
  assert.equal(
    captionOf('zh', GEO_START),
    'Query “猫”最关注“cat”（注意力权重 0.60）：它在 q 上的投影 1.60 最长，即 |k| cos θ = 1.61 × cos 7°。' +
      '“fish”更长（1.79），但和 q 的夹角有 49°，所以投影只有 1.16。',
  );
});

test('the caption: a key closer in direction but shorter, a winner both longest and closest, a zero query', () => {
  // cat shortened to 0.3 along q: fish wins; cat is closer (0°) and shorter.
  const closer = GEO_START.map((r) => r.slice());
  closer[2] = [0.4, 0.1];
  assert.match(
    captionOf('en', closer),
    /attends most to “fish”.*“cat” points closer to q \(0°\) but is shorter \(0\.41\)/,
  );
  // fish pulled in: cat is the longest and the closest.
  const both = GEO_START.map((r) => r.slice());
  both[4] = [0.2, 0.4];
  assert.match(captionOf('en', both), /“cat” is both the longest key and the closest to q in direction\.$/);
  assert.match(captionOf('zh', both), /“cat”既是最长的 Key，方向也离 q 最近。$/);
  const zero = GEO_START.map((r) => r.slice());
  zero[0] = [0, 0];
  assert.equal(
    captionOf('en', zero),
    'The query is the zero vector: every score is 0, so every key gets the same weight, 0.25.',
  );
});
