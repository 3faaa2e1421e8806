// Attention and its parts (cpp/bindings/bindings.cpp): attend, multiHead, the softmax family,
// positions, linear and randomMatrix. attendCalls({ run, input, limits }) -> these methods of the
// engine (assembled in ../api.js): each checks its options, converts its arguments for the module
// and calls it through run.

import { arrayArg, checkOptions, reading, scalarArg, vectorArg } from '../args.js';
import { optionNames, scalarArgs } from '../choices.js';

// An attend() result as the module returns it, with fullyMaskedRows as a plain array.
// With stages: false only { output, entropy, fullyMaskedRows, overflow } are there.
export function attendResult(r) {
  const out =
    r.scores === undefined
      ? {}
      : {
          scores: r.scores,
          scaled: r.scaled,
          mask: r.mask,
          masked: r.masked,
          weights: r.weights,
        };
  out.output = r.output;
  out.entropy = r.entropy;
  out.fullyMaskedRows = Array.from(r.fullyMaskedRows);
  out.overflow = r.overflow;
  return out;
}

export function attendCalls({ run, input, limits }) {
  return {
    // The whole pipeline: score -> scale -> mask -> softmax -> weighted sum, every stage kept
    // (or, with stages: false, only { output, entropy, fullyMaskedRows }).
    attend(options) {
      const o = checkOptions('attend', options, optionNames('attend'));
      reading('query', () => input.checkNaiveSize(o.query, o.key));
      const args = {
        query: input.matrix('query', o.query),
        key: input.matrix('key', o.key),
        value: input.matrix('value', o.value),
        ...scalarArgs('attend', o),
        mask: input.mask(o.mask),
        keyPadding: input.keyPadding(o.keyPadding),
      };
      if (o.additive != null) {
        const a = checkOptions('additive', o.additive, optionNames('attend', 'additive'));
        args['additive.Wq'] = input.matrix('additive.Wq', a.Wq);
        args['additive.Wk'] = input.matrix('additive.Wk', a.Wk);
        args['additive.v'] = vectorArg('additive.v', a.v, input.sizeError);
      }
      if (o.general != null) {
        const g = checkOptions('general', o.general, optionNames('attend', 'general'));
        args['general.W'] = input.matrix('general.W', g.W);
      }
      return attendResult(run('attend', args));
    },

    // Multi-head attention with torch.nn.MultiheadAttention's conventions (batch_first, no dropout).
    // With stages: false each head is attend()'s stages: false result { output, entropy,
    // fullyMaskedRows, overflow }: no (n_q, n_k) copies.
    multiHead(options) {
      const o = checkOptions('multiHead', options, optionNames('multiHead'));
      const r = run('multiHead', {
        query: input.matrix('query', o.query),
        key: input.matrix('key', o.key),
        value: input.matrix('value', o.value),
        heads: scalarArg(o.heads),
        Wq: input.matrix('Wq', o.Wq),
        Wk: input.matrix('Wk', o.Wk),
        Wv: input.matrix('Wv', o.Wv),
        Wo: input.matrix('Wo', o.Wo),
        bq: input.optionalVector('bq', o.bq),
        bk: input.optionalVector('bk', o.bk),
        bv: input.optionalVector('bv', o.bv),
        bo: input.optionalVector('bo', o.bo),
        mask: input.mask(o.mask),
        causal: scalarArg(o.causal),
        keyPadding: input.keyPadding(o.keyPadding),
        stages: scalarArg(o.stages),
      });
      return { heads: r.heads.map(attendResult), concat: r.concat, output: r.output };
    },

    // Row softmax of scores / temperature, and each row's entropy. -Infinity = a blocked cell.
    // overflow: true when the naive softmax (stable: false) overflowed, as the lesson shows.
    softmax(options) {
      const o = checkOptions('softmax', options, optionNames('softmax'));
      const r = run('softmax', { scores: input.scoreMatrix(o.scores), ...scalarArgs('softmax', o) });
      return { weights: r.weights, entropy: r.entropy, overflow: r.overflow };
    },

    // J = diag(p) - p pᵀ for one row of weights p (an array of n numbers) -> (n, n).
    softmaxJacobian(p) {
      return run('softmaxJacobian', { p: vectorArg('p', p, input.sizeError).data }).matrix;
    },

    // One-hot at each row's argmax.
    hardAttention(options) {
      const o = checkOptions('hardAttention', options, optionNames('hardAttention'));
      return run('hardAttention', { scores: input.scoreMatrix(o.scores) }).matrix;
    },

    // softmax((scores + Gumbel noise) / tau), the noise drawn from seed.
    gumbelSoftmax(options) {
      const o = checkOptions('gumbelSoftmax', options, optionNames('gumbelSoftmax'));
      return run('gumbelSoftmax', { scores: input.scoreMatrix(o.scores), ...scalarArgs('gumbelSoftmax', o) }).matrix;
    },

    // Sinusoidal position encodings (n, d).
    sinusoidal(options) {
      const o = checkOptions('sinusoidal', options, optionNames('sinusoidal'));
      return run('sinusoidal', scalarArgs('sinusoidal', o)).matrix;
    },

    // RoPE: rotates pairs of columns of x; row r sits at position first + r.
    rope(options) {
      const o = checkOptions('rope', options, optionNames('rope'));
      return run('rope', { x: input.matrix('x', o.x), ...scalarArgs('rope', o) }).matrix;
    },

    // y = x Wᵀ + b (torch.nn.Linear): x (n, in), W (out, in), b (out) or omitted.
    linear(options) {
      const o = checkOptions('linear', options, optionNames('linear'));
      return run('linear', { x: input.matrix('x', o.x), W: input.matrix('W', o.W), b: input.optionalVector('b', o.b) })
        .matrix;
    },

    // (rows, cols) of N(0, 1) * scale from the engine's RNG: the same in every build. With
    // streams (one per row), row i is the first cols draws of stream streams[i].
    randomMatrix(options) {
      const o = checkOptions('randomMatrix', options, optionNames('randomMatrix'));
      return run('randomMatrix', {
        ...scalarArgs('randomMatrix', o),
        streams: o.streams == null ? undefined : arrayArg('streams', o.streams, limits.maxTokens, 'streams'),
      }).matrix;
    },
  };
}
