// transformer_layer(), layer_norm() and gru_encoder() on shapes, weights, masks and options
// decoded from the fuzz input. After the check accepts, unless the result refuses values whose
// arithmetic would leave float32: every head's weights lie in [0, 1] with rows summing to 1
// where any key is allowed and zero rows where none is; every stage is finite and of its
// shape; relu's hidden layer is not negative; the output-only path gives the same floats; a
// GRU state stays within max(1, |h0|).
#include <cmath>

#include "core/gru.h"
#include "core/layer_norm.h"
#include "core/transformer_layer.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {

AttentionWeights weights(Input& in, int d) {
  AttentionWeights w;
  w.wq = in.matrix(d, in.near(d));
  w.wk = in.matrix(d, d);
  w.wv = in.matrix(in.near(d), d);
  w.wo = in.matrix(d, d);
  w.bq = in.maybe_matrix(1, d);
  w.bk = in.maybe_matrix(1, in.near(d));
  w.bv = in.maybe_matrix(1, d);
  w.bo = in.maybe_matrix(1, d);
  return w;
}

// Rows of `heads` whose keys are all blocked must be zero, the others sum to 1.
void expect_heads(const MultiHeadResult& r, int n_q, int n_k, bool causal,
                  const std::vector<bool>& padding) {
  std::vector<bool> blocked(n_q, true);
  for (int i = 0; i < n_q; i++)
    for (int j = 0; j < n_k; j++)
      if ((!causal || j <= i) && (padding.empty() || !padding[j])) blocked[i] = false;
  for (const AttendResult& h : r.heads)
    fuzz::expect_weight_rows("head weights", h.weights, blocked);
  FUZZ_EXPECT(fuzz::all_finite(r.output), "attention output not finite");
}

void layer(Input& in) {
  TransformerLayerArgs a;
  a.kind = in.flag() ? LayerKind::Decoder : LayerKind::Encoder;
  const bool decoder = a.kind == LayerKind::Decoder;
  int n = in.range(1, 12), m = in.range(1, 12);
  a.heads = in.range(0, 6);
  int d_head = in.range(1, 6);
  int d = in.flag() ? a.heads * d_head : in.side();  // sometimes not divisible
  if (d < 1) d = 1;
  int d_ff = in.range(1, 24);
  a.x = in.matrix(n, d);
  if (decoder || in.range(0, 15) == 0) a.memory = in.matrix(m, in.near(d));
  a.self_attention = weights(in, d);
  if (decoder || in.range(0, 15) == 0) a.cross_attention = weights(in, d);
  a.ff.w1 = in.matrix(d_ff, in.near(d));
  a.ff.b1 = in.maybe_matrix(1, d_ff);
  a.ff.w2 = in.matrix(in.near(d), d_ff);
  a.ff.b2 = in.maybe_matrix(1, d);
  a.ff.activation = in.flag() ? Activation::Gelu : Activation::Relu;
  int norms = in.near(sublayer_count(a.kind));
  for (int k = 0; k < norms; k++) a.norms.push_back({in.matrix(1, in.near(d)), in.matrix(1, d)});
  a.norm_first = in.flag();
  a.eps = in.flag() ? 1e-5 : in.number();
  a.causal = in.flag();
  if (in.flag()) a.key_padding = in.flags(in.near(n));
  if (in.flag()) a.memory_key_padding = in.flags(in.near(m));
  a.residual = in.range(0, 7) != 0;
  a.layer_norm = in.range(0, 7) != 0;

  if (!check_transformer_layer(a).empty()) return;
  TransformerLayerResult r = transformer_layer(a);
  if (!r.error.empty()) {  // refused: a stage would leave float32 (the message names it)
    FUZZ_EXPECT(r.output.empty() && r.residuals.empty(), "a refused layer keeps nothing");
    return;
  }
  const int subs = sublayer_count(a.kind);
  FUZZ_EXPECT(static_cast<int>(r.residuals.size()) == subs, "one residual per sub-layer");
  FUZZ_EXPECT(static_cast<int>(r.normed.size()) == subs, "one norm per sub-layer");
  expect_heads(r.self_attention, n, n, a.causal, a.key_padding);
  if (decoder) expect_heads(r.cross_attention, n, a.memory.rows, false, a.memory_key_padding);
  FUZZ_EXPECT(fuzz::all_finite(r.ff.hidden) && r.ff.hidden.cols == d_ff, "ff hidden");
  if (a.ff.activation == Activation::Relu) {
    for (float v : r.ff.hidden.data) FUZZ_EXPECT(v >= 0.0f, "relu is not negative");
  }
  for (const Matrix& s : r.residuals) FUZZ_EXPECT(fuzz::all_finite(s), "residual not finite");
  for (const LayerNormResult& s : r.normed) {
    FUZZ_EXPECT(fuzz::all_finite(s.output), "norm output not finite");
    for (float v : s.std) FUZZ_EXPECT(v >= 0.0f && std::isfinite(v), "std");
  }
  FUZZ_EXPECT(r.output.rows == n && r.output.cols == d && fuzz::all_finite(r.output), "output");

  // The output-only path runs attend's own row step: the same numbers to float rounding, which
  // a layer norm of a nearly constant row can magnify without bound, so here only its shape and
  // finiteness (tests/cpp/block_test.cpp compares the numbers on ordinary inputs).
  a.stages = false;
  TransformerLayerResult lean = transformer_layer(a);
  FUZZ_EXPECT(lean.error.empty() && lean.output.rows == n && lean.output.cols == d &&
                  fuzz::all_finite(lean.output),
              "the output-only path gives a finite output of the same shape");
}

void norm(Input& in) {
  int n = in.range(1, 8), d = in.side();
  Matrix x = in.matrix(n, d), gamma = in.matrix(1, in.near(d)), beta = in.matrix(1, d);
  double eps = in.flag() ? 1e-5 : in.number();
  if (!check_layer_norm(x, gamma, beta, eps).empty()) return;
  LayerNormResult r = layer_norm(x, gamma, beta, eps);
  if (!r.error.empty()) return;
  FUZZ_EXPECT(fuzz::all_finite(r.output) && fuzz::all_finite(r.mean), "layer norm finite");
  for (float s : r.std) FUZZ_EXPECT(s >= 0.0f && std::isfinite(s), "std finite, not negative");
}

void gru(Input& in) {
  int n = in.range(1, 16), d_in = in.side(), h = in.range(1, 8);
  GruArgs a;
  a.x = in.matrix(n, d_in);
  a.w_ih = in.matrix(in.near(3 * h), d_in);
  a.w_hh = in.matrix(3 * h, in.near(h));
  a.b_ih = in.maybe_matrix(1, 3 * h);
  a.b_hh = in.maybe_matrix(1, 3 * h);
  a.h0 = in.maybe_matrix(1, h);
  if (!check_gru(a).empty()) return;
  GruResult r = gru_encoder(a);
  if (!r.error.empty()) return;
  FUZZ_EXPECT(r.steps == n && r.hidden.rows == n && r.hidden.cols == a.w_hh.cols, "gru shape");
  // each h_t is a convex mix of tanh values and the previous state: |h| <= max(1, |h0|)
  float bound = 1.0f;
  for (float v : a.h0.data) bound = std::fmax(bound, std::fabs(v));
  for (float v : r.hidden.data) FUZZ_EXPECT(std::fabs(v) <= bound * (1 + 1e-6f), "gru state bound");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  switch (in.range(0, 5)) {
    case 0:
      norm(in);
      break;
    case 1:
      gru(in);
      break;
    default:
      layer(in);
  }
  return 0;
}
