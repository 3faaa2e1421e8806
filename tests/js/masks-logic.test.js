// The Masks chapter's logic (web/src/chapters/masks/logic.js), on small hand-made results and
// states: the 0-fill leak, the future leak, the custom mask grid, and the causal step's choice,
// example and verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  at,
  leakedCells,
  futureCells,
  maxWeightOf,
  customGrid,
  customPatch,
  causalMode,
  causalModePatch,
  causalStepState,
  causalVerdict,
} from '../../web/src/chapters/masks/logic.js';

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

test('the causal choice is one of none, causal, reversed: choosing one switches the other off', () => {
  assert.equal(causalMode({ causal: false, reverseCausal: false }), 'none');
  assert.equal(causalMode({ causal: true, reverseCausal: false }), 'causal');
  assert.equal(causalMode({ causal: false, reverseCausal: true }), 'reverse');
  assert.equal(causalMode({ causal: true, reverseCausal: true }), 'both');
  assert.deepEqual(causalModePatch('causal'), { causal: true, reverseCausal: false });
  assert.deepEqual(causalModePatch('reverse'), { causal: false, reverseCausal: true });
  assert.deepEqual(causalModePatch('none'), { causal: false, reverseCausal: false });
});

test('the causal step shows a sequence attending to itself, with the same causal choice and fill', () => {
  // The chapter's default example, 3 Chinese queries over 4 English keys, is cross-attention.
  const cross = {
    preset: 'cat-fish',
    queryTokens: [],
    keyTokens: ['a', 'b', 'c', 'd', 'e'],
    dk: 4,
    keyPadding: [false, true],
    customMask: [[1, 0, 1, 1]],
    causal: true,
    reverseCausal: false,
    fill: 'zero',
    stable: true,
  };
  const shown = causalStepState(cross);
  assert.equal(shown.preset, 'cat-chase');
  assert.deepEqual([shown.queryTokens, shown.keyTokens, shown.keyPadding, shown.customMask], [[], [], [], []]);
  assert.deepEqual([shown.causal, shown.reverseCausal, shown.fill, shown.stable], [true, false, 'zero', true]);
  assert.equal(cross.preset, 'cat-fish', 'the state is not changed');
  // A self-attention example is shown as it is.
  const self = { ...cross, preset: 'random', keyTokens: [] };
  assert.equal(causalStepState(self), self);
});

test('the causal verdict: a leak with the right mask blames the 0 fill; both masks at once are flagged', () => {
  assert.deepEqual(causalVerdict('none', 3, 'neg-inf'), { cls: 'info', keys: ['noCausal'] });
  assert.deepEqual(causalVerdict('causal', 0, 'neg-inf'), { cls: 'good', keys: ['upperZero'] });
  assert.deepEqual(causalVerdict('causal', 3, 'zero'), { cls: 'bad', keys: ['futureLeak', 'fillLeak'] });
  assert.deepEqual(causalVerdict('reverse', 3, 'neg-inf'), { cls: 'bad', keys: ['futureLeak'] });
  assert.deepEqual(causalVerdict('both', 0, 'neg-inf'), { cls: 'bad', keys: ['bothCausal'] });
});
