// A course author's TypeScript against the engine's, the trainer's and the element's types
// (web/src/engine.d.ts, engine-train.d.ts, hosts/element.d.ts). Never run: `tsc -p tests/types`
// checks it in npm test. Every call the README documents appears once with the types it returns;
// each @ts-expect-error line is a mistake the types must refuse (tsc fails if one is accepted).

import { AttentionError, loadEngine, simdSupported, FLASH_BLOCK } from '../../web/src/engine.js';
import type { AttendStages, Engine, HeadScores, Matrix, MaskFill, Model, ModelRun } from '../../web/src/engine.js';
import { loadTrainEngine } from '../../web/src/engine-train.js';
import type { Seq2Seq, Task, Trainer } from '../../web/src/engine-train.js';
import type {
  AttentionLab,
  LabChangeDetail,
  LabProgress,
  PatchError,
  ProgressStatement,
} from '../../web/src/hosts/element.js';

const rows = (m: Matrix): number => m.rows;
const floats = (a: Float32Array): number => a.length;

export async function lessons(): Promise<number> {
  const simd: boolean = simdSupported();
  const engine: Engine = await loadEngine({ simd });
  const block: number = FLASH_BLOCK + engine.limits.maxFlashBlock + engine.limits.maxTokens;
  const fills: readonly MaskFill[] = engine.choices.maskFill;

  const X = [
    [1, 0],
    [0, 1],
  ];
  const r: AttendStages = engine.attend({ query: X, key: X, value: X, causal: true, keyPadding: [false, true] });
  rows(r.weights) + rows(r.scores) + floats(r.entropy) + r.fullyMaskedRows.length;
  const fast = engine.attend({ query: X, key: X, value: X, stages: false, maskFill: fills[0] });
  rows(fast.output);
  // @ts-expect-error stages: false keeps no weights
  fast.weights;
  engine.attend({
    query: { rows: 2, cols: 2, data: new Float32Array(4) },
    key: X,
    value: X,
    score: 'additive',
    additive: { Wq: X, Wk: X, v: [1, 1] },
  });
  engine.attend({ query: X, key: X, value: X, score: 'general', general: { W: X }, temperature: 0.5, stable: false });
  // @ts-expect-error not a score the engine has
  engine.attend({ query: X, key: X, value: X, score: 'cosine' });
  // @ts-expect-error value is required
  engine.attend({ query: X, key: X });
  // @ts-expect-error unknown option
  engine.attend({ query: X, key: X, value: X, foo: 1 });

  const bug = engine.attendWithBug({ query: X, key: X, value: X, bug: 'scale-by-d-model', dModel: 8 });
  const m = engine.monitor({ logits: bug.scaled, weights: bug.weights, mask: bug.mask });
  m.leaked.length + m.logitStd + m.nonFinite;
  // @ts-expect-error not one of the debugging lab's bugs
  engine.attendWithBug({ query: X, key: X, value: X, bug: 'off-by-one' });

  const f = engine.flashAttend({ query: X, key: X, value: X, window: 1, blockSize: 64, queryOffset: 0 });
  rows(f.output);
  const trace = engine.flashTrace({ query: X, key: X, value: X, causal: true });
  rows(trace.runningMax) + trace.blocks;

  const W = engine.randomMatrix({ rows: 2, cols: 2, seed: 1, stream: 2, scale: 0.5 });
  const mh = engine.multiHead({ query: X, key: X, value: X, heads: 1, Wq: W, Wk: W, Wv: W, Wo: W, bq: [0, 0] });
  rows(mh.heads[0].weights) + rows(mh.concat);
  const mhFast = engine.multiHead({ query: X, key: X, value: X, heads: 1, Wq: W, Wk: W, Wv: W, Wo: W, stages: false });
  // @ts-expect-error stages: false heads keep no weights
  mhFast.heads[0].weights;

  const v = engine.varianceExperiment({ dk: 64, samples: 2000, seed: 7 });
  const merged = engine.mergeVariance({ a: v, aSamples: 2000, b: v, bSamples: 2000 });
  merged.raw.std + merged.samples + v.histogram.rawCounts[0];
  const run = engine.varianceRun({ dk: 16, seed: 3 });
  run.step(100);
  const snap = run.snapshot();
  snap.scaled.variance + snap.histogram.scaledEdges.length;
  run.delete();
  const sample = engine.varianceSample({ dk: 4, seed: 7, sample: 0 });
  floats(sample.q) + sample.dot;
  // @ts-expect-error a run draws as it grows: no samples option
  engine.varianceRun({ samples: 10 });

  const probe = engine.queryProbe({ dk: 8, nKeys: 4, gumbelSamples: 2 });
  floats(probe.scaledWeights) + rows(probe.gumbel) + probe.rawEntropy;
  const sweep = engine.saturationSweep({ dks: [4, 16], trials: 10 });
  sweep.points[0].scaled.jacobianNorm + sweep.logN;

  const sm = engine.softmax({ scores: [2.6, 1.2, -Infinity], temperature: 2 });
  rows(sm.weights) + (sm.overflow ? 1 : 0);
  rows(engine.softmaxJacobian([0.7, 0.2, 0.1]));
  rows(engine.hardAttention({ scores: [[1, 2]] }));
  rows(engine.gumbelSoftmax({ scores: [[1, 2]], tau: 0.5, seed: 3 }));
  rows(engine.sinusoidal({ n: 8, d: 4 }));
  rows(engine.rope({ x: X, first: 3 }));
  rows(engine.linear({ x: X, W, b: [0, 1] }));
  // @ts-expect-error rows and cols are required
  engine.randomMatrix({ seed: 1 });

  const mem = engine.memory();
  try {
    engine.attend({ query: X, key: [[1, 2, 3]], value: X });
  } catch (e) {
    if (e instanceof AttentionError && e.code !== 'engine-stopped') return mem.usedBytes + block;
  }
  return engine.stopped ? 0 : mem.heapBytes;
}

export async function gpt2(file: File, config: { n_layer: number; n_head: number } & Record<string, unknown>) {
  const engine = await loadEngine();
  const controller = new AbortController();
  const model: Model = await engine.loadModel(file, {
    config: { n_embd: 768, n_positions: 1024, vocab_size: 50257, ...config },
    onProgress: ({ loaded, total }) => (total === null ? loaded : loaded / total),
    signal: controller.signal,
  });
  await engine.loadModel(await fetch('/gpt2/model.safetensors'), {
    config: await (await fetch('/gpt2/config.json')).json(),
  });
  const r: ModelRun = await model.run([464, 3797, 318], { topK: 5, head: [0, 3], ablate: [[1, 2]], ablation: 'mean' });
  r.topK.ids[0] + floats(r.topK.probabilities) + rows(r.attention[0][1]) + rows(r.residualNorms);
  if (r.stages) rows(r.stages.masked) + rows(r.stages.output);
  if (r.baseline) floats(r.baseline.probabilities) + r.baseline.topK.k;
  const s: HeadScores = model.headScores({ seed: 1, length: 50 });
  rows(s.induction) + rows(s.firstToken) + s.tokens.length + model.headScores({ tokens: [5, 7, 9] }).entropy.cols;
  model.config.nLayer + model.config.vocabSize + model.weightBytes;
  // @ts-expect-error the config is required
  engine.loadModel(file);
  // @ts-expect-error not an ablation of the engine
  model.run([1], { ablation: 'noise' });
  // @ts-expect-error headScores is not a promise
  await model.headScores().then(() => 0);
  model.delete();
  return (await engine.modelMemory()).maxBytes;
}

export async function playground(): Promise<number> {
  const trainEngine = await loadTrainEngine({ simd: false });
  const task: Task = trainEngine.choices.task[0];
  const t: Trainer = trainEngine.trainer({ task, layers: 1, heads: 2, dModel: 32, seed: 1, position: 'sinusoidal' });
  const s = t.step(10);
  floats(s.losses) + s.step + t.evaluate().accuracy;
  const p = t.probe();
  rows(p.patterns[0][1]) + p.targets.length + t.config.dModel + t.task.vocab;
  rows(t.run([3, 1, 4]).patterns[0][0]);
  const scores = t.headScores();
  floats(scores.induction) + floats(scores.previousToken) + scores.layers * scores.heads + p.loss;
  t.evaluate({ ablate: [[0, 1]] }).loss + t.probe({ ablate: [] }).accuracy;
  // @ts-expect-error an ablated head is a [layer, head] pair
  t.evaluate({ ablate: [1] });
  const params = t.parameters();
  t.setParameters({ embedding: params.embedding });
  const g = t.gradients({ tokens: [[1, 2]], targets: [[2, -1]] });
  rows(g.gradients['layers.0.Wq']) + g.loss;
  t.stepOn({ tokens: [[1, 2]], targets: [[2, -1]] }).step;
  // @ts-expect-error not a task of the trainer
  trainEngine.trainer({ task: 'copy' });
  // @ts-expect-error a batch needs targets
  t.gradients({ tokens: [[1, 2]] });
  t.delete();
  return trainEngine.limits.maxDModel + trainEngine.memory().usedBytes;
}

export async function encoderDecoder(): Promise<number> {
  const trainEngine = await loadTrainEngine();
  const m: Seq2Seq = trainEngine.seq2seq({
    task: 'translate',
    attention: trainEngine.choices.attention[1],
    hidden: 32,
  });
  floats(m.step(10).losses) + m.evaluate().accuracy;
  const r = m.evaluateByLength();
  floats(r.tokenAccuracy) + r.lengths.length;
  const p = m.probe();
  if (p.alignment) rows(p.alignment);
  p.targetWords.join(' ') + p.target.length;
  const own = m.translate('the cat that eats fish');
  own.predictionWords.length + (own.targetWords ? own.targetWords.length : 0);
  m.translate([0, 2]);
  const g = m.gradients({ source: [[0, 2]], target: [[2]] });
  rows(g.gradients['decoder.weight_hh']) + m.stepOn({ source: ['the cat'], target: [['猫']] }).step;
  // @ts-expect-error not an attention kind of the encoder–decoder
  trainEngine.seq2seq({ attention: 'scaled-dot' });
  m.delete();
  return trainEngine.limits.maxSeq2SeqLength + m.config.maxLength;
}

export function course(): void {
  const lab: AttentionLab = document.createElement('attention-lab');
  lab.setAttribute('lesson', 'masks');
  const errors: PatchError[] = lab.set({ stage: 'causal', fill: 'zero' });
  errors.map((e) => `${e.key}: ${e.code}`);
  lab.addEventListener('attention-lab-change', (e) => {
    const d: LabChangeDetail = e.detail;
    d.state.lang === 'zh' ? d.lesson : d.stage;
  });
  lab.addEventListener('attention-lab-progress', (e) => {
    const st: ProgressStatement = e.detail;
    const score = st.result?.score ? st.result.score.raw / st.result.score.max : 0;
    return st.verb.id.endsWith('/completed') ? score : st.object.id;
  });
  const kept: LabProgress | null = lab.progress;
  if (kept) lab.progress = kept;
  // @ts-expect-error progress is per lesson
  lab.progress = { masks: ['padding'] };
  const found = document.querySelector('attention-lab');
  if (found && found.state && found.engine) found.engine.memory();
  // @ts-expect-error the state is read-only
  lab.state = null;
  // @ts-expect-error lang is 'en' or 'zh'
  lab.set({ lang: 'fr' });
}
