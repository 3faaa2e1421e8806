// One encoder or decoder layer (torch.nn.TransformerEncoderLayer / DecoderLayer), stage by stage.
#include "core/transformer_layer.h"

#include <string>

namespace attn {

int sublayer_count(LayerKind kind) { return kind == LayerKind::Decoder ? 3 : 2; }

Matrix add_residual(const Matrix& x, const Matrix& f, bool residual) {
  if (!residual) return f;
  Matrix out(x.rows, x.cols);  // out: (n, d_model)
  for (std::size_t c = 0; c < out.data.size(); c++) out.data[c] = x.data[c] + f.data[c];
  return out;
}

// ---- the stages -----------------------------------------------------------------------------

// Multi-head attention of `query` (n, d_model) over `source` (n or m, d_model) with weights w.
static MultiHeadResult attention_stage(const TransformerLayerArgs& a, const AttentionWeights& w,
                                       const Matrix& query, const Matrix& source, bool causal,
                                       const std::vector<bool>& key_padding) {
  MultiHeadArgs m;
  m.query = query;
  m.key = source;
  m.value = source;
  m.heads = a.heads;
  m.wq = w.wq, m.wk = w.wk, m.wv = w.wv, m.wo = w.wo;
  m.bq = w.bq, m.bk = w.bk, m.bv = w.bv, m.bo = w.bo;
  m.causal = causal;
  m.key_padding = key_padding;
  m.stages = a.stages;
  return multi_head(m);
}

// LayerNorm number k of the layer (or its input unchanged when layer_norm is off).
static LayerNormResult norm_stage(const TransformerLayerArgs& a, int k, const Matrix& x) {
  const NormWeights& w = a.norms[k];
  LayerNormResult r = layer_norm(x, w.gamma, w.beta, a.eps);
  if (!r.error.empty()) r.error = "norms[" + std::to_string(k) + "]." + r.error;
  if (!a.layer_norm) {
    r.output = x;  // the switch: no normalisation (mean and std still describe x)
    r.error.clear();
  }
  return r;
}

static FeedForwardResult ff_stage(const TransformerLayerArgs& a, const Matrix& x) {
  FeedForwardArgs f = a.ff;
  f.x = x;
  FeedForwardResult r = feed_forward(f);
  if (!r.error.empty()) r.error = "ff." + r.error;
  return r;
}

// One sub-layer f with its residual and LayerNorm k: post-norm LN(x + f(x)), pre-norm x + f(LN(x)).
// Returns the new x; `error` is set when a stage leaves float32.
template <typename F>
static Matrix sublayer(const TransformerLayerArgs& a, TransformerLayerResult& r, int k,
                       const Matrix& x, F f) {
  if (a.norm_first) {
    r.normed.push_back(norm_stage(a, k, x));
    if (!r.normed.back().error.empty()) return r.error = r.normed.back().error, Matrix();
    Matrix out = f(r.normed.back().output);
    if (!r.error.empty()) return Matrix();
    r.residuals.push_back(add_residual(x, out, a.residual));
  } else {
    Matrix out = f(x);
    if (!r.error.empty()) return Matrix();
    r.residuals.push_back(add_residual(x, out, a.residual));
  }
  std::string where = first_non_finite(r.residuals.back());
  if (!where.empty()) {
    r.error = "x: x + sublayer " + std::to_string(k + 1) + " overflows float32 at " + where +
              " (expected the sum of the input and the sub-layer's output below 3.4e+38)";
    return Matrix();
  }
  if (a.norm_first) return r.residuals.back();
  r.normed.push_back(norm_stage(a, k, r.residuals.back()));
  if (!r.normed.back().error.empty()) return r.error = r.normed.back().error, Matrix();
  return r.normed.back().output;
}

TransformerLayerResult transformer_layer(const TransformerLayerArgs& a) {
  TransformerLayerResult r;
  const bool decoder = a.kind == LayerKind::Decoder;
  int k = 0;
  // 1. (masked) self-attention: Q, K and V from x      (n, d_model)
  Matrix x = sublayer(a, r, k++, a.x, [&](const Matrix& in) {
    r.self_attention = attention_stage(a, a.self_attention, in, in, a.causal, a.key_padding);
    if (!r.self_attention.error.empty()) r.error = "selfAttention: " + r.self_attention.error;
    return r.self_attention.output;
  });
  // 2. decoder: cross-attention, Q from x, K and V from the memory      (n, d_model)
  if (r.error.empty() && decoder) {
    x = sublayer(a, r, k++, x, [&](const Matrix& in) {
      r.cross_attention =
          attention_stage(a, a.cross_attention, in, a.memory, false, a.memory_key_padding);
      if (!r.cross_attention.error.empty()) r.error = "crossAttention: " + r.cross_attention.error;
      return r.cross_attention.output;
    });
  }
  // 3. feed-forward      (n, d_model)
  if (r.error.empty()) {
    x = sublayer(a, r, k++, x, [&](const Matrix& in) {
      r.ff = ff_stage(a, in);
      if (!r.ff.error.empty()) r.error = r.ff.error;
      return r.ff.output;
    });
  }
  if (!r.error.empty()) {
    Error e = r.error;
    r = TransformerLayerResult();
    r.error = e;
    return r;
  }
  r.output = std::move(x);
  if (!a.stages) {  // only the output
    Matrix out = std::move(r.output);
    r = TransformerLayerResult();
    r.output = std::move(out);
  }
  return r;
}

// ---- validation -----------------------------------------------------------------------------

static bool any_given(const AttentionWeights& w) {
  for (const Matrix* m : {&w.wq, &w.wk, &w.wv, &w.wo, &w.bq, &w.bk, &w.bv, &w.bo}) {
    if (given(*m)) return true;
  }
  return false;
}

// prefix "selfAttention." or "crossAttention."
static Error check_attention_weights(const std::string& prefix, const AttentionWeights& w,
                                     int d_model) {
  const char* names[] = {"Wq", "Wk", "Wv", "Wo"};
  const Matrix* weights[] = {&w.wq, &w.wk, &w.wv, &w.wo};
  for (int i = 0; i < 4; i++) {
    Error e = check_weight(prefix + names[i], *weights[i], d_model, d_model, "(d_model, d_model)");
    if (!e.empty()) return e;
  }
  const char* bias_names[] = {"bq", "bk", "bv", "bo"};
  const Matrix* biases[] = {&w.bq, &w.bk, &w.bv, &w.bo};
  for (int i = 0; i < 4; i++) {
    if (!given(*biases[i])) continue;
    Error e = check_weight(prefix + bias_names[i], *biases[i], 1, d_model, "(1, d_model)");
    if (!e.empty()) return e;
  }
  return {};
}

static Error check_padding(const char* name, const std::vector<bool>& flags, int count,
                           const char* what) {
  if (flags.empty() || flags.size() == static_cast<std::size_t>(count)) return {};
  return expected(name, std::to_string(count) + " flags (" + what + ")",
                  std::to_string(flags.size()));
}

Error check_transformer_layer(const TransformerLayerArgs& a) {
  Error e = kLayerKindOption.check(a.kind);
  if (e.empty()) e = check_matrix("x", a.x);
  if (e.empty()) e = check_number(kHeads, a.heads);
  if (!e.empty()) return e;
  const bool decoder = a.kind == LayerKind::Decoder;
  const int n = a.x.rows, d_model = a.x.cols;
  if (d_model % a.heads != 0) {
    return "heads: d_model = " + std::to_string(d_model) + " (columns of x) is not divisible by " +
           std::to_string(a.heads) + " heads";
  }
  // the memory: a decoder's only
  if (!decoder && given(a.memory)) {
    return "memory: expected no memory for kind 'encoder' (an encoder layer attends to its own "
           "tokens only; use kind 'decoder' for cross-attention)";
  }
  if (!decoder && any_given(a.cross_attention)) {
    return "crossAttention: expected no cross-attention weights for kind 'encoder' (only a "
           "decoder layer attends to a memory)";
  }
  if (!decoder && !a.memory_key_padding.empty()) {
    return "memoryKeyPadding: expected no memory padding for kind 'encoder' (it has no memory)";
  }
  if (decoder && !given(a.memory)) {
    return "memory: expected the encoder's output (m, d_model) for kind 'decoder', got none";
  }
  if (decoder) {
    e = check_matrix("memory", a.memory);
    if (e.empty()) e = check_shape("memory", a.memory, a.memory.rows, d_model, "(m, d_model)");
    if (!e.empty()) return e;
  }
  e = check_attention_weights("selfAttention.", a.self_attention, d_model);
  if (e.empty() && decoder)
    e = check_attention_weights("crossAttention.", a.cross_attention, d_model);
  if (e.empty()) e = check_feed_forward_weights("ff.", a.ff, d_model);
  if (!e.empty()) return e;
  const int norms = sublayer_count(a.kind);
  if (static_cast<int>(a.norms.size()) != norms) {
    return expected("norms",
                    std::to_string(norms) + " { gamma, beta } (one per sub-layer of " +
                        (decoder ? "a decoder" : "an encoder") + " layer)",
                    std::to_string(a.norms.size()));
  }
  for (int k = 0; k < norms; k++) {
    const std::string name = "norms[" + std::to_string(k) + "].";
    e = check_norm_weights(name + "gamma", a.norms[k].gamma, name + "beta", a.norms[k].beta,
                           d_model);
    if (!e.empty()) return e;
  }
  e = check_number(kEps, a.eps);
  if (e.empty()) e = check_padding("keyPadding", a.key_padding, n, "one per token of x, n");
  if (e.empty() && decoder) {
    e = check_padding("memoryKeyPadding", a.memory_key_padding, a.memory.rows,
                      "one per row of memory, m");
  }
  if (!e.empty()) return e;
  // every head keeps its (n, n) and (n, m) matrices
  const double cells = static_cast<double>(a.heads) * n * (decoder ? n + a.memory.rows : n);
  if (cells > limits::kMaxHeadCells) {
    return "heads: heads * n * (n + m) = " + format_number(cells) + " is more than " +
           std::to_string(limits::kMaxHeadCells) + " (engine.limits.maxHeadCells)";
  }
  const double hidden = static_cast<double>(n) * a.ff.w1.rows;
  if (hidden > limits::kMaxHeadCells) {
    return "ff.W1: n * hidden = " + format_number(hidden) + " is more than " +
           std::to_string(limits::kMaxHeadCells) + " (engine.limits.maxHeadCells)";
  }
  return {};
}

}  // namespace attn
