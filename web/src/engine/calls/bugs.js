// The debugging lab (cpp/bindings/bug_bindings.cpp): attendWithBug and monitor. bugCalls({ run,
// input }) -> these methods of the engine (assembled in ../api.js): each checks its options,
// converts its arguments for the module and calls it through run.

import { checkOptions, reading, scalarArg } from '../args.js';
import { optionNames } from '../choices.js';
import { attendResult } from './attend.js';

export function bugCalls({ run, input }) {
  return {
    // The running example (scaled dot, −∞ fill, stable softmax) with one bug of the debugging
    // lab in it, computed as the bugged code computes it: bug is one of engine.choices.bug;
    // dModel (for 'scale-by-d-model') is the width whose square root the bugged code divides
    // by. -> attend()'s result, every stage
    attendWithBug(options) {
      const o = checkOptions('attendWithBug', options, optionNames('attendWithBug'));
      reading('query', () => input.checkNaiveSize(o.query, o.key));
      return attendResult(
        run('attendWithBug', {
          query: input.matrix('query', o.query),
          key: input.matrix('key', o.key),
          value: input.matrix('value', o.value),
          mask: input.mask(o.mask),
          causal: scalarArg(o.causal),
          keyPadding: input.keyPadding(o.keyPadding),
          bug: scalarArg(o.bug),
          dModel: scalarArg(o.dModel),
        }),
      );
    },

    // What the debugging lab watches on an attention result, against the mask the code meant
    // to apply: logits = the scores softmax saw (attend's `scaled`), weights, mask (0/1), all
    // (n_q, n_k). -> { maxEntropy (ln of each row's allowed keys), rowSums, colSums, leaked
    // (weight on blocked keys), cells, logitMean, logitStd, logitMax (over the allowed cells),
    // nonFinite (weights that are NaN or infinite) }
    monitor(options) {
      const o = checkOptions('monitor', options, optionNames('monitor'));
      return run('monitor', {
        logits: input.matrix('logits', o.logits),
        weights: input.matrix('weights', o.weights),
        mask: input.matrix('mask', o.mask, { binary: true }),
      });
    },
  };
}
