// The experiments (cpp/bindings/experiment_bindings.cpp, and varianceExperiment of bindings.cpp):
// the variance of dot products, one run in chunks, query probes and saturation sweeps.
// experimentCalls({ mod, calls, run, guarded, limits }) -> these methods of the engine (assembled
// in ../api.js): each checks its options, converts its arguments for the module and calls it
// through run.

import { arrayArg, checkOptions, fail, integerArg, reading, scalarArg } from '../args.js';
import { optionNames, scalarArgs } from '../choices.js';
import { varianceChunk } from '../inputs.js';

export function experimentCalls({ mod, calls, run, guarded, limits }) {
  return {
    // Histogram and moments of q·k and q·k/sqrt(d_k) for random N(0, 1) vectors.
    varianceExperiment(options) {
      const o = checkOptions('varianceExperiment', options, optionNames('varianceExperiment'));
      const r = run('varianceExperiment', scalarArgs('varianceExperiment', o));
      return { raw: r.raw, scaled: r.scaled, histogram: r.histogram };
    },

    // Two consecutive chunks of varianceExperiment combined: a (aSamples, 0 = none yet) then b.
    // -> { raw: { mean, variance, std }, scaled: {...}, histogram, samples }
    mergeVariance(options) {
      const o = checkOptions('mergeVariance', options, optionNames('mergeVariance'));
      return run('mergeVariance', {
        a: varianceChunk('a', o.a, limits.maxBins),
        aSamples: scalarArg(o.aSamples),
        b: varianceChunk('b', o.b, limits.maxBins),
        bSamples: scalarArg(o.bSamples),
      });
    },

    // ---- the variance experiment as a run that grows (C++ VarianceRun) ----------------------
    // varianceRun({ dk, seed, bins, firstSample }) -> { step(samples), snapshot(), delete() }.
    // step draws the next samples into the run; snapshot() -> { raw, scaled, histogram, samples }
    // (histogram: edges over ±4√d_k for rawCounts, scaledEdges over ±4 for scaledCounts);
    // delete() frees the run (later calls throw). The caller owns it and must delete it.
    varianceRun(options) {
      const o = checkOptions('varianceRun', options, optionNames('createVarianceRun'));
      const handle = run('createVarianceRun', scalarArgs('createVarianceRun', o)).run;
      let live = true;
      const alive = (what) => {
        if (!live) fail(`varianceRun.${what}: this run has been deleted`);
      };
      return {
        step(samples) {
          alive('step');
          const n = scalarArg(samples);
          const r = guarded('varianceRun.step', () => mod.varianceRunStep(handle, n));
          if (r.error !== undefined) fail(r.error);
        },
        snapshot() {
          alive('snapshot');
          const r = guarded('varianceRun.snapshot', () => mod.varianceRunSnapshot(handle));
          if (r.error !== undefined) fail(r.error);
          return r;
        },
        delete() {
          if (live && !calls.stopped) mod.varianceRunDelete(handle); // a stopped module's memory goes with it
          live = false;
        },
      };
    },

    // Sample `sample` of the variance experiment, drawn explicitly: the same q and k (and q·k)
    // the experiment uses for it. -> { q: Float32Array(dk), k: Float32Array(dk), dot }
    varianceSample(options) {
      const o = checkOptions('varianceSample', options, optionNames('varianceSample'));
      return run('varianceSample', scalarArgs('varianceSample', o));
    },

    // One query against nKeys random keys at d_k: raw and scaled scores and weights (at tau),
    // the hard one-hot and gumbelSamples Gumbel-softmax rows of the raw or scaled scores.
    queryProbe(options) {
      const o = checkOptions('queryProbe', options, optionNames('queryProbe'));
      return run('queryProbe', scalarArgs('queryProbe', o));
    },

    // Means over trials of the max weight, entropy and softmax Jacobian norm, raw vs scaled,
    // for each d_k in dks. -> { logN, points: [{ dk, raw: {...}, scaled: {...} }] }
    saturationSweep(options) {
      const o = checkOptions('saturationSweep', options, optionNames('saturationSweep'));
      const dks = arrayArg('dks', o.dks, limits.maxSweepDks, 'd_k values');
      return run('saturationSweep', {
        dks: reading('dks', () =>
          Array.from({ length: dks.length }, (_, i) => integerArg(`dks[${i}]`, dks[i], 1, limits.maxDim)),
        ),
        ...scalarArgs('saturationSweep', o),
      });
    },
  };
}
