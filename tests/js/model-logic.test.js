// The real-model lesson's pure logic (web/src/chapters/model/logic.js) against numbers worked out
// here: the memory a checkpoint needs, the heads and positions read from a link, the guess before
// and after an ablation, the debugging lesson's monitors, the pass over every head and where the model
// comes from.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  ablatedHeads,
  toggleHead,
  chosenHead,
  positionOf,
  compareRows,
  likeliest,
  rowEntropy,
  scoreSpread,
  peak,
  headEffects,
  argmaxHead,
  parameterCount,
  memoryBytes,
  configOf,
  hostedFiles,
  sourceOf,
} from '../../web/src/chapters/model/logic.js';
import { randomCheckpoint, readSafetensors } from './gpt2-reference.js';

test('the memory a model needs is its weights in float32: every tensor of a checkpoint, counted', () => {
  const { bytes, config: json } = randomCheckpoint({ nLayer: 3, nHead: 2, nEmbd: 8, nPositions: 20, vocabSize: 70 });
  const w = readSafetensors(bytes);
  const count = Object.values(w).reduce((s, t) => s + t.data.length, 0);
  const config = configOf(json);
  assert.equal(parameterCount(config), count);
  assert.equal(memoryBytes(config), 4 * count);
  // GPT-2 small: 124,439,808 parameters (Radford et al.'s 124 M, the tied unembedding counted once)
  assert.equal(parameterCount({ nLayer: 12, nHead: 12, nEmbd: 768, nPositions: 1024, vocabSize: 50257 }), 124439808);
});

test('heads: the ablated list read against the model, toggled, the chosen head and position kept inside it', () => {
  const cfg = { nLayer: 3, nHead: 4 };
  assert.deepEqual(ablatedHeads(['2.1', '0.3', 'x', '3.0', '0.4', '2.1'], cfg), [
    [0, 3],
    [2, 1],
  ]);
  assert.deepEqual(toggleHead(['1.2'], 1, 2), []);
  assert.deepEqual(toggleHead(['1.2'], 0, 1), ['1.2', '0.1']);
  assert.deepEqual(chosenHead({ mdLayer: 9, mdHead: 1 }, cfg), [2, 1]);
  assert.equal(positionOf(-1, 5), 4);
  assert.equal(positionOf(7, 5), 4);
  assert.equal(positionOf(2, 5), 2);
});

const topK = (k, rows) => ({
  k,
  ids: Int32Array.from(rows.flat().map((x) => x[0])),
  probabilities: Float32Array.from(rows.flat().map((x) => x[1])),
});

test('the guess before and after an ablation, and the likeliest of a few options', () => {
  const before = topK(3, [
    [
      [5, 0.5],
      [7, 0.3],
      [1, 0.1],
    ],
  ]);
  const after = topK(3, [
    [
      [7, 0.6],
      [2, 0.2],
      [5, 0.1],
    ],
  ]);
  assert.deepEqual(
    compareRows(before, after, 0).map((r) => [r.id, r.before, r.after]),
    [
      [5, Math.fround(0.5), Math.fround(0.1)],
      [7, Math.fround(0.3), Math.fround(0.6)],
      [1, Math.fround(0.1), null],
    ],
  );
  assert.equal(likeliest(before, 0, [1, 7, 99]), 7);
  assert.equal(likeliest(before, 0, [99]), null);
});

test('monitors: row entropy against ln(i + 1), the scores’ spread over the causal cells, a head’s peak', () => {
  const w = { rows: 3, cols: 3, data: Float32Array.from([1, 0, 0, 0.5, 0.5, 0, 0.2, 0.3, 0.5]) };
  const { entropy, max } = rowEntropy(w);
  assert.ok(Math.abs(entropy[1] - Math.log(2)) < 1e-7);
  assert.ok(Math.abs(entropy[2] - -(0.2 * Math.log(0.2) + 0.3 * Math.log(0.3) + 0.5 * Math.log(0.5))) < 1e-6);
  assert.deepEqual(Array.from(max), [0, Math.log(2), Math.log(3)]);
  const s = { rows: 2, cols: 2, data: Float32Array.from([1, -Infinity, 3, 5]) }; // the causal cells 1, 3, 5
  const spread = scoreSpread(s);
  assert.equal(spread.mean, 3);
  assert.ok(Math.abs(spread.std - Math.sqrt(8 / 3)) < 1e-12);
  assert.ok(Math.abs(peak(w) - (0.5 + 0.5) / 2) < 1e-7);
});

test('every head one at a time: the guess’s drop, the peaks and spreads, the strongest head', () => {
  const ones = { rows: 2, cols: 2, data: Float32Array.from([1, 0, 0.5, 0.5]) };
  const sharp = { rows: 2, cols: 2, data: Float32Array.from([1, 0, 0.9, 0.1]) };
  const base = {
    topK: topK(2, [
      [
        [4, 0.9],
        [1, 0.1],
      ],
      [
        [4, 0.6],
        [1, 0.4],
      ],
    ]),
    attention: [[ones, sharp]],
  };
  const run = (p, scaled) => ({
    topK: topK(2, [
      [
        [4, 0.9],
        [1, 0.1],
      ],
      [
        [4, p],
        [1, 1 - p],
      ],
    ]),
    stages: { scaled },
  });
  const sc = { rows: 2, cols: 2, data: Float32Array.from([0, -Infinity, -1, 1]) };
  const eff = headEffects(base, [[run(0.5, sc), run(0.59, sc)]], 1);
  assert.equal(eff.guess.id, 4);
  assert.ok(Math.abs(eff.effect.data[0] - 0.1) < 1e-6 && Math.abs(eff.effect.data[1] - 0.01) < 1e-6);
  assert.deepEqual(argmaxHead(eff.effect), [0, 0]);
  assert.deepEqual(argmaxHead(eff.peaks), [0, 1]); // the sharper head is not the one that matters
  assert.ok(Math.abs(eff.spread.data[0] - Math.sqrt(2 / 3)) < 1e-6);
});

test('where the model comes from: the shipped one, a hosted one (its config.json beside it), a learner’s file', () => {
  assert.deepEqual(sourceOf({ mdModel: '', modelSrc: '' }), { kind: 'shipped' });
  assert.deepEqual(sourceOf({ mdModel: '', modelSrc: 'https://x.org/m/' }), {
    kind: 'hosted',
    url: 'https://x.org/m/',
  });
  assert.deepEqual(sourceOf({ mdModel: 'file:gpt2.safetensors', modelSrc: 'https://x.org/m/' }), {
    kind: 'file',
    name: 'gpt2.safetensors',
  });
  assert.deepEqual(hostedFiles('https://x.org/models/gpt2/model.safetensors'), {
    model: 'https://x.org/models/gpt2/model.safetensors',
    config: 'https://x.org/models/gpt2/config.json',
    tokenizer: 'https://x.org/models/gpt2/tiktoken.json',
  });
  assert.equal(
    hostedFiles('models/gpt2', 'https://school.org/lab/index.html').config,
    'https://school.org/lab/models/gpt2/config.json',
  );
});
