// The Transformer block and the RNN encoder (cpp/bindings/block_bindings.cpp): layerNorm,
// feedForward, transformerLayer and gruEncoder. blockCalls({ run, input }) -> these methods of the
// engine (assembled in ../api.js): each checks its options, converts its arguments for the module
// and calls it through run.

import { arrayArg, checkOptions, flagsArg, reading, scalarArg, vectorArg } from '../args.js';
import { OPTIONS, optionNames } from '../choices.js';
import { attendResult } from './attend.js';

export function blockCalls({ run, input }) {
  return {
    // LayerNorm over each row of x (n, d): (x - mean) / sqrt(var + eps) * gamma + beta, as
    // torch.nn.LayerNorm. -> { output, mean, std } (mean and biased std of each input row)
    layerNorm(options) {
      const o = checkOptions('layerNorm', options, optionNames('layerNorm'));
      return run('layerNorm', {
        x: input.matrix('x', o.x),
        gamma: vectorArg('gamma', o.gamma, input.sizeError),
        beta: vectorArg('beta', o.beta, input.sizeError),
        eps: scalarArg(o.eps),
      });
    },

    // hidden = activation(x W1ᵀ + b1), output = hidden W2ᵀ + b2; activation 'relu' (default) or
    // 'gelu' (the exact erf form). -> { hidden, output }
    feedForward(options) {
      const o = checkOptions('feedForward', options, optionNames('feedForward'));
      return run('feedForward', {
        x: input.matrix('x', o.x),
        ...input.ffArgs('', o),
        activation: scalarArg(o.activation),
      });
    },

    // One encoder or decoder layer, as torch.nn.TransformerEncoderLayer / DecoderLayer
    // (batch_first, dropout 0, eval). -> { output, selfAttention, crossAttention (decoder), ff,
    // residuals, normed } (with stages: false only { output }); each attention as multiHead
    // returns it, ff as feedForward, normed[k] as layerNorm, residuals[k] = x + sub-layer k.
    transformerLayer(options) {
      const o = checkOptions('transformerLayer', options, optionNames('transformerLayer'));
      const args = {
        kind: scalarArg(o.kind),
        x: input.matrix('x', o.x),
        memory: input.optionalMatrix('memory', o.memory),
        heads: scalarArg(o.heads),
        ...input.attentionArgs('selfAttention', o.selfAttention),
        ...(o.crossAttention == null ? {} : input.attentionArgs('crossAttention', o.crossAttention)),
        ...input.ffArgs('ff.', checkOptions('ff', o.ff ?? {}, optionNames('transformerLayer', 'ff'))),
        normFirst: scalarArg(o.normFirst),
        activation: scalarArg(o.activation),
        eps: scalarArg(o.eps),
        causal: scalarArg(o.causal),
        keyPadding: input.keyPadding(o.keyPadding),
        memoryKeyPadding:
          o.memoryKeyPadding == null ? undefined : flagsArg('memoryKeyPadding', o.memoryKeyPadding, input.sizeError),
        residual: scalarArg(o.residual),
        layerNorm: scalarArg(o.layerNorm),
        stages: scalarArg(o.stages),
      };
      const norms =
        o.norms == null ? [] : arrayArg('norms', o.norms, OPTIONS.transformerLayer.norms.max, '{ gamma, beta }');
      args.norms = norms.length;
      reading('norms', () => {
        for (let k = 0; k < norms.length; k++) {
          const n = checkOptions(`norms[${k}]`, norms[k] ?? {}, ['gamma', 'beta']);
          args[`norms[${k}].gamma`] = vectorArg(`norms[${k}].gamma`, n.gamma, input.sizeError);
          args[`norms[${k}].beta`] = vectorArg(`norms[${k}].beta`, n.beta, input.sizeError);
        }
      });
      const r = run('transformerLayer', args);
      if (r.selfAttention === undefined) return { output: r.output };
      const attention = (a) => ({ heads: a.heads.map(attendResult), concat: a.concat, output: a.output });
      const out = { output: r.output, selfAttention: attention(r.selfAttention) };
      if (r.crossAttention !== undefined) out.crossAttention = attention(r.crossAttention);
      out.ff = r.ff;
      out.residuals = r.residuals;
      out.normed = r.normed;
      return out;
    },

    // A forward GRU over the rows of x (n, d_in), as torch.nn.GRU (one layer): Wih (3h, d_in),
    // Whh (3h, h), bih and bhh (3h) optional, h0 (h) or zeros. Each hidden state needs the one
    // before it: n dependent steps. -> { hidden (n, h), steps }
    gruEncoder(options) {
      const o = checkOptions('gruEncoder', options, optionNames('gruEncoder'));
      return run('gruEncoder', {
        x: input.matrix('x', o.x),
        Wih: input.matrix('Wih', o.Wih),
        Whh: input.matrix('Whh', o.Whh),
        bih: input.optionalVector('bih', o.bih),
        bhh: input.optionalVector('bhh', o.bhh),
        h0: input.optionalVector('h0', o.h0),
      });
    },
  };
}
