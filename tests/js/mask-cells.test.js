// What the Masks chapter reads off a result (web/src/chapters/masks/cells.js), on small
// hand-made results: the 0-fill leak, the future leak, and the custom mask grid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  at,
  leakedCells,
  futureCells,
  maxWeightOf,
  customGrid,
  customPatch,
} from '../../web/src/chapters/masks/cells.js';

const mat = (rows, cols, data) => ({ rows, cols, data: Float32Array.from(data) });

test('leakedCells: blocked cells with weight above 0 or NaN; maxWeightOf their largest weight', () => {
  const result = {
    mask: mat(2, 3, [1, 0, 0, 1, 1, 0]),
    weights: mat(2, 3, [0.5, 0.3, 0, 0.25, 0.25, NaN]),
  };
  assert.equal(at(result.weights, 1, 0), 0.25);
  const cells = leakedCells(result);
  assert.deepEqual(cells, [
    [0, 1],
    [1, 2],
  ]);
  assert.ok(
    Math.abs(
      maxWeightOf(result, [
        [0, 1],
        [1, 0],
      ]) - 0.3,
    ) < 1e-7,
  );
  assert.ok(Number.isNaN(maxWeightOf(result, cells)), 'a NaN weight shows as NaN');
  assert.deepEqual(leakedCells({ mask: mat(1, 2, [0, 1]), weights: mat(1, 2, [0, 1]) }), []);
  assert.equal(maxWeightOf(result, []), 0);
});

test('futureCells: weight above the diagonal (a key after its query)', () => {
  const weights = mat(3, 3, [1, 0, 0, 0.5, 0.5, 0, 0.2, 0.3, 0.5]);
  assert.deepEqual(futureCells({ weights }), []);
  const leaky = mat(3, 3, [0.9, 0.1, 0, 0.5, 0.5, 0, 0.2, 0.3, 0.5]);
  assert.deepEqual(futureCells({ weights: leaky }), [[0, 1]]);
  // A cross-attention shape: 2 queries, 4 keys.
  assert.deepEqual(futureCells({ weights: mat(2, 4, [1, 0, 0, NaN, 0, 1, 0, 0]) }), [[0, 3]]);
});

test("customGrid: the state's grid when it fits (a copy), else all ones; customPatch: all ones -> []", () => {
  const state = {
    customMask: [
      [1, 0],
      [1, 1],
    ],
  };
  const g = customGrid(state, 2, 2);
  assert.deepEqual(g, [
    [1, 0],
    [1, 1],
  ]);
  g[0][0] = 0;
  assert.deepEqual(
    state.customMask,
    [
      [1, 0],
      [1, 1],
    ],
    'the state is not changed',
  );
  assert.deepEqual(customGrid(state, 3, 2), [
    [1, 1],
    [1, 1],
    [1, 1],
  ]);
  assert.deepEqual(
    customPatch([
      [1, 1],
      [1, 1],
    ]),
    { customMask: [] },
  );
  assert.deepEqual(customPatch([[1, 0]]), { customMask: [[1, 0]] });
});
