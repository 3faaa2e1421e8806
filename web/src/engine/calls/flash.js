// Tiled and linear attention (cpp/bindings/flash_bindings.cpp): flashAttend, flashTrace,
// linearAttend and outputError. flashCalls({ run, input, limits }) -> these methods of the engine
// (assembled in ../api.js): each checks its options, converts its arguments for the module and
// calls it through run.

import { checkOptions } from '../args.js';
import { optionNames } from '../choices.js';
import { FLASH_OPTIONS, LINEAR_OPTIONS } from '../inputs.js';

// A flashAttend() result as the module returns it, with fullyMaskedRows as a plain array.
const flashResult = (r) => ({
  output: r.output,
  entropy: r.entropy,
  fullyMaskedRows: Array.from(r.fullyMaskedRows),
  tileBytes: r.tileBytes,
  packedBytes: r.packedBytes,
});

export function flashCalls({ run, input, limits }) {
  return {
    // Scaled-dot attention by tiles with an online softmax: the output of attend in O(n·d)
    // memory, up to limits.maxFlashTokens tokens. -> { output, entropy, fullyMaskedRows,
    // tileBytes, packedBytes } (the bytes of its tiles at the block size used, and of its packed
    // Kᵀ and V)
    flashAttend(options) {
      const o = checkOptions('flashAttend', options, FLASH_OPTIONS);
      return flashResult(run('flashAttend', input.flashArgs(o, 'maxFlashTokens')));
    },

    // flashAttend on up to limits.maxTraceTokens tokens, with the online softmax's running
    // max, rescale factor and sum after every key block ((blocks, n_q) tables).
    flashTrace(options) {
      const o = checkOptions('flashTrace', options, FLASH_OPTIONS);
      const r = run('flashTrace', input.flashArgs(o, 'maxTraceTokens'));
      return {
        blockSize: r.blockSize,
        blocks: r.blocks,
        scores: r.scores,
        blockMax: r.blockMax,
        runningMax: r.runningMax,
        rescale: r.rescale,
        runningSum: r.runningSum,
        skipped: r.skipped,
        ...flashResult(r),
      };
    },

    // Linear attention, φ(x) = elu(x) + 1: out_i = φ(q_i)ᵀ S / φ(q_i)ᵀ z with S = Σ φ(k_j) v_jᵀ and
    // z = Σ φ(k_j) (over j <= i with causal), up to limits.maxFlashTokens tokens. -> { output,
    // zeroRows, stateBytes, chunkBytes } (stateBytes: S and z; chunkBytes: one chunk's scratch)
    linearAttend(options) {
      const o = checkOptions('linearAttend', options, LINEAR_OPTIONS);
      const r = run('linearAttend', input.linearArgs(o));
      return {
        output: r.output,
        zeroRows: Array.from(r.zeroRows),
        stateBytes: r.stateBytes,
        chunkBytes: r.chunkBytes,
      };
    },

    // How far output is from reference (same shape), in double: { maxAbs, relative } with
    // relative = ‖output − reference‖ / ‖reference‖ (Frobenius norms).
    outputError(options) {
      const o = checkOptions('outputError', options, optionNames('outputError'));
      return run('outputError', input.outputErrorArgs(o));
    },
  };
}
