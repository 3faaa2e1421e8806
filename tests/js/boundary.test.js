// The engine's boundary with arrays that lie, getters that re-enter, and values at float32's
// edges, through the public API of both modules in both builds: a lying length is read once (or
// not at all) and never stops an engine; no caller code runs between a handle's lookup and the
// end of its call; finite input gives finite output or an AttentionError; tokens outside the
// vocabulary are refused; the live trainers and variance runs are capped with a clear error.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { AttentionError, loadEngine } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';

// fn throws an AttentionError whose message matches re
const throwsMessage = (fn, re) =>
  assert.throws(fn, (e) => {
    assert.ok(e instanceof AttentionError, `${e?.name}: ${e?.message}`);
    assert.match(e.message, re);
    return true;
  });

const ones = (n) => new Float32Array(n).fill(1);
const matrix = (rows, cols, data = ones(rows * cols)) => ({ rows, cols, data });

// Float32Arrays whose `length` says something else than their real size.
function lyingArrays() {
  const own = (real, said) => {
    const d = ones(real);
    Object.defineProperty(d, 'length', { value: said });
    return d;
  };
  class Subclass extends Float32Array {
    get length() {
      return 8;
    }
  }
  const honestThenHuge = () => {
    const d = ones(8);
    let reads = 0;
    Object.defineProperty(d, 'length', { get: () => (++reads <= 3 ? 8 : 2 ** 28) });
    return d;
  };
  return [
    ['an own length of 8 on 16 numbers', () => own(16, 8), 16],
    ['an own length of 16 on 8 numbers', () => own(8, 16), 8],
    ['a subclass whose getter says 8 of 16', () => new Subclass(16), 16],
    ['a getter honest three times, then 2^28', honestThenHuge, 8],
  ];
}

for (const simd of [true, false]) {
  describe(`lessons engine (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadEngine({ simd });
    });

    // issue item 2: the data's real size is what the engine judges, and it is used once
    test('a Float32Array whose length lies is judged by its real size and never stops the engine', () => {
      for (const [what, make, real] of lyingArrays()) {
        const query = { rows: 2, cols: 4, data: make() };
        const args = { query, key: matrix(2, 4), value: matrix(2, 4) };
        if (real === 8) {
          const r = engine.attend(args);
          assert.equal(r.output.rows, 2, what);
        } else {
          throwsMessage(() => engine.attend(args), /^query: expected 8 numbers for 2 rows x 4 columns, got 16/);
        }
        assert.equal(engine.stopped, false, what);
      }
    });

    // A row on a resizable buffer, shrunk (or grown) by a getter after its length was read, is
    // read as it was then: each row is copied when its length is read. A row whose buffer changed
    // before its own length was read is judged by that length.
    test('a resizable row changed after its length was read is read as it was, not as zeros', () => {
      const rowsWith = (change) => {
        const ab = new ArrayBuffer(12, { maxByteLength: 4096 });
        new Float32Array(ab).set([7, 7, 7]);
        const rows = [new Float32Array(ab)];
        Object.defineProperty(rows, 1, {
          get() {
            ab.resize(change);
            return [4, 5, 6];
          },
        });
        rows.length = 2;
        return rows;
      };
      const ones = [
        [1, 1, 1],
        [1, 1, 1],
      ];
      const want = engine.linearAttend({
        query: ones,
        key: ones,
        value: [
          [7, 7, 7],
          [4, 5, 6],
        ],
      });
      for (const bytes of [0, 4, 24]) {
        assert.deepEqual(
          engine.linearAttend({ query: ones, key: ones, value: rowsWith(bytes) }),
          want,
          `${bytes} bytes`,
        );
      }
      const late = new ArrayBuffer(12, { maxByteLength: 4096 });
      const rows = [[1, 2, 3]];
      Object.defineProperty(rows, 1, {
        get() {
          late.resize(0); // this row's own buffer, before its length is read
          return new Float32Array(late);
        },
      });
      rows.length = 2;
      throwsMessage(
        () => engine.linearAttend({ query: ones, key: ones, value: rows }),
        /^value: row 1 has 0 numbers, expected 3$/,
      );
      assert.equal(engine.stopped, false);
    });

    // issue item 3: a length that changes on a second read costs nothing
    test('mergeVariance reads each histogram list once', () => {
      const v = engine.varianceExperiment({ dk: 4, samples: 100, seed: 1, bins: 4 });
      let reads = 0;
      const edges = Array.from(v.histogram.edges);
      const lying = new Proxy(edges, {
        get: (t, k) => (k === 'length' ? (++reads === 1 ? t.length : 1e9) : t[k]),
      });
      const chunk = { ...v, histogram: { ...v.histogram, edges: lying } };
      const merged = engine.mergeVariance({ a: v, aSamples: 100, b: chunk, bSamples: 100 });
      assert.equal(reads, 1, 'the length is read once');
      assert.deepEqual(
        merged,
        engine.mergeVariance({ a: v, aSamples: 100, b: v, bSamples: 100 }),
        'the same as the honest list',
      );
    });

    // issue item 4: flash attention refuses what attend refuses, and what only its sums overflow
    test('flashAttend and flashTrace refuse finite input whose arithmetic leaves float32', () => {
      const big = {
        query: matrix(1, 4, new Float32Array(4).fill(1e19)),
        key: matrix(1, 4, new Float32Array(4).fill(1e19)),
      };
      const args = { ...big, value: matrix(1, 1) };
      throwsMessage(() => engine.attend(args), /^query: q·k overflows float32 at query 0, key 0/);
      throwsMessage(() => engine.flashAttend(args), /^query: q·k overflows float32 at query 0, key 0/);
      throwsMessage(() => engine.flashTrace(args), /^query: q·k overflows float32 at query 0, key 0/);
      const values = { query: matrix(1, 2, new Float32Array(2)), key: matrix(2, 2, new Float32Array(4)) };
      const huge = { ...values, value: matrix(2, 2, new Float32Array(4).fill(3e38)) };
      throwsMessage(() => engine.flashAttend(huge), /^value: the tiled weighted sum overflows float32/);
      throwsMessage(() => engine.flashTrace(huge), /^value: the tiled weighted sum overflows float32/);
      const r = engine.flashAttend({ ...values, value: matrix(2, 2, new Float32Array(4).fill(1e38)) });
      for (const x of r.output.data) assert.ok(Number.isFinite(x));
    });

    // issue item 5
    test('monitor refuses finite weights whose sums pass float32', () => {
      const w = new Float32Array([0, 0, 3e38, 3e38]);
      throwsMessage(
        () => engine.monitor({ logits: matrix(2, 2), weights: matrix(2, 2, w), mask: matrix(2, 2) }),
        /^weights: row 1 sums to 6e\+38, past float32/,
      );
      const col = new Float32Array([0, -3e38, 0, -3e38]);
      throwsMessage(
        () => engine.monitor({ logits: matrix(2, 2), weights: matrix(2, 2, col), mask: matrix(2, 2) }),
        /^weights: column 1 sums to -6e\+38, past float32/,
      );
    });

    // issue item 8: a map of live runs, capped
    test('at most 1000 live variance runs, and the next is refused by name', () => {
      const runs = [];
      try {
        for (let i = 0; i < 1000; i++) runs.push(engine.varianceRun({ dk: 2, seed: i, bins: 4 }));
        throwsMessage(() => engine.varianceRun({ dk: 2, seed: 1, bins: 4 }), /^varianceRun: at most 1000 live runs/);
        runs[999].step(10); // the last one works
        assert.equal(runs[999].snapshot().samples, 10);
      } finally {
        for (const r of runs) r.delete();
      }
      engine.varianceRun({ dk: 2, seed: 1, bins: 4 }).delete(); // room again
    });
  });

  describe(`train engine (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let engine;
    before(async () => {
      engine = await loadTrainEngine({ simd });
    });
    const small = { dModel: 8, heads: 2, layers: 1, batch: 2 };

    // issue item 1: the getter deletes the trainer being written and makes another
    test('a getter that deletes the trainer mid-call cannot reach another trainer', () => {
      const other = engine.trainer(small);
      const before = other.parameters().embedding.data.slice();
      const t = engine.trainer(small);
      const e = t.parameters().embedding;
      let made = null;
      class Reentrant extends Float32Array {
        get length() {
          if (!made) {
            t.delete();
            made = engine.trainer(small);
          }
          return super.length;
        }
      }
      const data = new Reentrant(e.rows * e.cols).fill(0.25);
      let threw = null;
      try {
        t.setParameters({ embedding: { rows: e.rows, cols: e.cols, data } });
      } catch (err) {
        threw = err;
      }
      if (made) {
        // the getter ran: the call must say the trainer is gone, and touch nothing else
        assert.ok(threw instanceof AttentionError, String(threw));
        assert.match(threw.message, /^trainer\.setParameters: this trainer has been deleted/);
        assert.notDeepEqual(made.parameters().embedding.data, data.slice());
      } else {
        // the engine read the real length and never ran the getter
        assert.equal(threw, null);
        assert.deepEqual(t.parameters().embedding.data, new Float32Array(e.rows * e.cols).fill(0.25));
        t.delete();
      }
      assert.deepEqual(other.parameters().embedding.data, before, "another trainer's weights are unchanged");
      // a getter the engine does run (the matrix's data field): it runs before the lookup
      const u = engine.trainer(small);
      let second = null;
      const arg = {
        rows: e.rows,
        cols: e.cols,
        get data() {
          u.delete();
          second = engine.trainer(small);
          return new Float32Array(e.rows * e.cols).fill(0.5);
        },
      };
      throwsMessage(
        () => u.setParameters({ embedding: arg }),
        /^trainer\.setParameters: this trainer has been deleted/,
      );
      assert.notDeepEqual(second.parameters().embedding.data, new Float32Array(e.rows * e.cols).fill(0.5));
      assert.deepEqual(other.parameters().embedding.data, before, "another trainer's weights are unchanged");
      for (const x of [other, made, second]) x?.delete();
      assert.equal(engine.stopped, false);
    });

    // issue item 2, through the trainer
    test('setParameters judges a lying Float32Array by its real size', () => {
      const t = engine.trainer(small);
      try {
        const bo = t.parameters()['layers.0.bo'];
        for (const [what, make, real] of lyingArrays()) {
          const args = { 'layers.0.bo': { rows: 1, cols: 8, data: make() } };
          if (real === 8) t.setParameters(args);
          else throwsMessage(() => t.setParameters(args), /^layers\.0\.bo: expected/);
          assert.equal(engine.stopped, false, what);
        }
        assert.equal(bo.cols, 8);
      } finally {
        t.delete();
      }
    });

    // issue item 6
    test('weights that take training past float32 are refused and the weights kept', () => {
      for (const fill of [1e10, 1e20, 3e38]) {
        const t = engine.trainer(small);
        try {
          const e = t.parameters().embedding;
          const before = e.data.slice();
          throwsMessage(
            () =>
              t.setParameters({
                embedding: { rows: e.rows, cols: e.cols, data: new Float32Array(e.data.length).fill(fill) },
              }),
            /^embedding: with these values training leaves float32 .*nothing was changed$/,
          );
          assert.deepEqual(t.parameters().embedding.data, before);
          assert.ok(Number.isFinite(t.evaluate().loss));
          for (const loss of t.step(2).losses) assert.ok(Number.isFinite(loss));
        } finally {
          t.delete();
        }
      }
    });

    // issue item 7
    test('tokens and targets outside the vocabulary are refused, not wrapped modulo 2^32', () => {
      const t = engine.trainer(small);
      try {
        throwsMessage(() => t.run([2 ** 32 + 3]), /^tokens: entry 0 is 4294967299 \(expected a token from 0 to 15\)/);
        throwsMessage(() => t.run([16]), /^tokens: entry 0 is 16 \(expected a token from 0 to 15\)/);
        throwsMessage(() => t.run([-1]), /^tokens: entry 0 is -1/);
        assert.deepEqual(Array.from(t.run([3]).tokens), [3]);
        throwsMessage(
          () => t.gradients({ tokens: [1, 2], targets: [2 ** 32 - 1, 1] }),
          /^targets: entry 0 is 4294967295 \(expected -1 = none, or a token from 0 to 15\)/,
        );
        throwsMessage(() => t.stepOn({ tokens: [1, 2], targets: [-2, 1] }), /^targets: entry 0 is -2/);
        assert.ok(Number.isFinite(t.gradients({ tokens: [1, 2], targets: [-1, 1] }).loss));
      } finally {
        t.delete();
      }
    });

    // issue item 8: the 75th trainer of the largest size aborted the module at its first step
    test('at most 50 live trainers; the 51st is refused by name and the others keep working', () => {
      const largest = { layers: 2, heads: 4, dModel: 128, batch: 64 };
      const trainers = [];
      try {
        for (let i = 0; i < 50; i++) trainers.push(engine.trainer({ ...largest, seed: i + 1 }));
        throwsMessage(() => engine.trainer(largest), /^trainer: at most 50 live trainers at once/);
        throwsMessage(() => engine.trainer(small), /^trainer: at most 50 live trainers at once/);
        for (const t of [trainers[0], trainers[49]]) assert.ok(Number.isFinite(t.step(1).losses[0]));
        assert.equal(engine.stopped, false);
      } finally {
        for (const t of trainers) t.delete();
      }
      engine.trainer(small).delete(); // room again
    });
  });
}
