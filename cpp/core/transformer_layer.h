// One Transformer layer, encoder or decoder, as torch.nn.TransformerEncoderLayer and
// TransformerDecoderLayer compute it (batch_first, dropout 0, eval), composed from multi_head,
// feed_forward and layer_norm. Each sub-layer f is wrapped in a residual and a LayerNorm:
//     post-norm (norm_first = false, torch's default):  x = LN(x + f(x))
//     pre-norm  (norm_first = true):                    x = x + f(LN(x))
// encoder: f1 = self-attention, f2 = feed-forward
// decoder: f1 = masked self-attention, f2 = cross-attention (Q from x, K and V from memory),
//          f3 = feed-forward
// (Not torch's own file name: core/transformer.h is the playground's attention-only trainer.)
#pragma once

#include <vector>

#include "core/check.h"
#include "core/feed_forward.h"
#include "core/layer_norm.h"
#include "core/matrix.h"
#include "core/multihead.h"

namespace attn {

// The projections of one attention sub-layer (kdim = vdim = d_model, as in torch's layers).
struct AttentionWeights {
  Matrix wq, wk, wv, wo;  // (d_model, d_model) each
  Matrix bq, bk, bv, bo;  // (1, d_model) each, or empty for no bias
};

struct NormWeights {
  Matrix gamma, beta;  // (1, d_model) each
};

struct TransformerLayerArgs {
  LayerKind kind = LayerKind::Encoder;
  Matrix x;       // (n, d_model): the tokens of this layer
  Matrix memory;  // (m, d_model): the encoder's output (decoder only)
  int heads = 1;  // d_model % heads == 0
  AttentionWeights self_attention;
  AttentionWeights cross_attention;  // decoder only
  FeedForwardArgs ff;                // its weights and activation (its x is not read)
  std::vector<NormWeights> norms;    // one per sub-layer: 2 (encoder) or 3 (decoder)
  bool norm_first = false;
  double eps = 1e-5;
  bool causal = false;                   // the self-attention's causal mask
  std::vector<bool> key_padding;         // n flags (true = padding) or empty
  std::vector<bool> memory_key_padding;  // m flags, decoder only, or empty
  bool residual = true;                  // false: each sub-layer's output replaces its input
  bool layer_norm = true;                // false: each LayerNorm passes its input through
  bool stages = true;                    // false: only the output is kept
};

struct TransformerLayerResult {
  MultiHeadResult self_attention;   // as multi_head returns it, heads included
  MultiHeadResult cross_attention;  // decoder only
  FeedForwardResult ff;
  std::vector<Matrix> residuals;        // (n, d_model) each: x + f(...), in order
  std::vector<LayerNormResult> normed;  // each LayerNorm's output, mean and std, in order
  Matrix output;                        // (n, d_model)
  Error error;  // not empty when a stage would leave float32 (then nothing else is kept)
};

// The number of sub-layers (and so of norms and residuals) of a layer of this kind.
int sublayer_count(LayerKind kind);

// Empty when args are valid; otherwise a message naming the argument (e.g. "norms[1].gamma",
// "crossAttention.Wk") and what was expected.
Error check_transformer_layer(const TransformerLayerArgs& args);
// Requires check_transformer_layer(args) to be empty.
TransformerLayerResult transformer_layer(const TransformerLayerArgs& args);

// x + f      both (n, d_model); residual = false gives f alone.
Matrix add_residual(const Matrix& x, const Matrix& f, bool residual);

}  // namespace attn
