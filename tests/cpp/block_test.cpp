// The Transformer block (LayerNorm, feed-forward, encoder and decoder layers) and the GRU
// encoder against the double-precision reference of tests/cpp/block_reference.h, stage by
// stage, and every bad input's message.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "block_reference.h"
#include "core/feed_forward.h"
#include "core/gru.h"
#include "core/layer_norm.h"
#include "core/transformer_layer.h"
#include "reference.h"

namespace {

using attn::Activation;
using attn::LayerKind;
using attn::Matrix;
using attn::TransformerLayerArgs;
using attn::TransformerLayerResult;

constexpr double kTol = 2e-5;

std::vector<double> vec(const Matrix& m) {
  return m.empty() ? std::vector<double>{} : ref::from(m)[0];
}

void expect_vector_near(const std::vector<float>& got, const std::vector<double>& want, double tol,
                        const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); i++)
    EXPECT_NEAR(got[i], want[i], tol * (1 + std::fabs(want[i]))) << what << "[" << i << "]";
}

// ---- LayerNorm ------------------------------------------------------------------------------

TEST(LayerNorm, MatchesReferenceWithGammaAndBeta) {
  Matrix x = ref::random_matrix(5, 12, 1, -3, 3);
  Matrix gamma = ref::random_matrix(1, 12, 2, 0.5, 2), beta = ref::random_matrix(1, 12, 3);
  for (double eps : {1e-5, 1e-2, 1.0}) {
    ASSERT_EQ(attn::check_layer_norm(x, gamma, beta, eps), "");
    attn::LayerNormResult r = attn::layer_norm(x, gamma, beta, eps);
    ASSERT_EQ(r.error, "");
    ref::LayerNorm want = ref::layer_norm(ref::from(x), vec(gamma), vec(beta), eps);
    EXPECT_MATRIX_NEAR(r.output, want.output, kTol) << "eps " << eps;
    expect_vector_near(r.mean, want.mean, kTol, "mean");
    expect_vector_near(r.std, want.std, kTol, "std");
  }
}

// gamma = 1, beta = 0: every row comes out with mean 0 and (biased) std sqrt(var / (var + eps)).
TEST(LayerNorm, RowsComeOutWithMeanZeroAndStdOne) {
  Matrix x = ref::random_matrix(4, 16, 7, -50, 80);
  Matrix ones(1, 16, 1.0f), zeros(1, 16, 0.0f);
  attn::LayerNormResult r = attn::layer_norm(x, ones, zeros, 1e-5);
  for (int i = 0; i < 4; i++) {
    double mean = 0, sq = 0;
    for (int c = 0; c < 16; c++) mean += r.output.at(i, c) / 16.0;
    for (int c = 0; c < 16; c++) sq += (r.output.at(i, c) - mean) * (r.output.at(i, c) - mean);
    EXPECT_NEAR(mean, 0, 1e-6);
    EXPECT_NEAR(std::sqrt(sq / 16), 1, 1e-5);
  }
}

// A constant row has variance 0: the output is beta (1 / sqrt(eps) times exactly 0), and rows
// near float32's limits stay finite (mean and variance are summed in double).
TEST(LayerNorm, ConstantAndHugeRowsStayFinite) {
  Matrix x(2, 4);
  for (int c = 0; c < 4; c++) x.at(0, c) = 0.1f;
  for (int c = 0; c < 4; c++) x.at(1, c) = c % 2 ? 3e38f : -3e38f;
  Matrix gamma(1, 4, 2.0f), beta = ref::random_matrix(1, 4, 9);
  attn::LayerNormResult r = attn::layer_norm(x, gamma, beta, 1e-5);
  ASSERT_EQ(r.error, "");
  for (int c = 0; c < 4; c++) EXPECT_FLOAT_EQ(r.output.at(0, c), beta.data[c]);
  for (int c = 0; c < 4; c++) EXPECT_NEAR(r.output.at(1, c), beta.data[c] + (c % 2 ? 2 : -2), 1e-5);
  EXPECT_FLOAT_EQ(r.std[0], 0.0f);
  EXPECT_FLOAT_EQ(r.std[1], 3e38f);
}

TEST(LayerNorm, BadInputsNameTheArgument) {
  Matrix x = ref::random_matrix(3, 4, 1), gamma(1, 4, 1.0f), beta(1, 4, 0.0f);
  EXPECT_EQ(attn::check_layer_norm(x, gamma, beta, 0),
            "eps: expected a number from 1e-30 to 1 (eps > 0), got 0");
  EXPECT_EQ(attn::check_layer_norm(x, gamma, beta, -1e-5),
            "eps: expected a number from 1e-30 to 1 (eps > 0), got -1e-5");
  EXPECT_EQ(attn::check_layer_norm(x, gamma, beta, std::nan("")),
            "eps: expected a number from 1e-30 to 1 (eps > 0), got NaN");
  EXPECT_EQ(attn::check_layer_norm(x, Matrix(1, 3, 1.0f), beta, 1e-5),
            "gamma: expected shape (1, d_model) = (1, 4), got (1, 3)");
  EXPECT_EQ(attn::check_layer_norm(x, gamma, Matrix(4, 1), 1e-5),
            "beta: expected 1 to 1 rows, got 4");
  Matrix bad = gamma;
  bad.data[2] = std::numeric_limits<float>::infinity();
  EXPECT_EQ(attn::check_layer_norm(x, bad, beta, 1e-5),
            "gamma: row 0, column 2 is Infinity (expected finite numbers)");
}

TEST(LayerNorm, OverflowingGammaIsAnErrorValue) {
  Matrix x = ref::random_matrix(2, 4, 1), gamma(1, 4, 3e38f), beta(1, 4, 3e38f);
  attn::LayerNormResult r = attn::layer_norm(x, gamma, beta, 1e-5);
  EXPECT_NE(r.error.find("gamma: (x - mean) / std * gamma + beta overflows float32 at row 0"),
            std::string::npos)
      << r.error;
}

// ---- feed-forward -------------------------------------------------------------------------

attn::FeedForwardArgs random_ff(int n, int d_model, int d_ff, bool biases, std::uint32_t seed) {
  attn::FeedForwardArgs a;
  a.x = ref::random_matrix(n, d_model, seed, -2, 2);
  a.w1 = ref::random_matrix(d_ff, d_model, seed + 1);
  a.w2 = ref::random_matrix(d_model, d_ff, seed + 2);
  if (biases) {
    a.b1 = ref::random_matrix(1, d_ff, seed + 3);
    a.b2 = ref::random_matrix(1, d_model, seed + 4);
  }
  return a;
}

TEST(FeedForward, ReluAndGeluMatchReference) {
  for (Activation act : {Activation::Relu, Activation::Gelu}) {
    for (bool biases : {true, false}) {
      attn::FeedForwardArgs a = random_ff(5, 8, 32, biases, 11);
      a.activation = act;
      ASSERT_EQ(attn::check_feed_forward(a), "");
      attn::FeedForwardResult r = attn::feed_forward(a);
      ASSERT_EQ(r.error, "");
      ref::FeedForward want =
          ref::feed_forward(ref::from(a.x), ref::from(a.w1), vec(a.b1), ref::from(a.w2), vec(a.b2),
                            act == Activation::Gelu);
      EXPECT_MATRIX_NEAR(r.hidden, want.hidden, kTol);
      EXPECT_MATRIX_NEAR(r.output, want.output, kTol);
    }
  }
}

// The exact gelu (erf form, torch's default), not the tanh approximation.
TEST(FeedForward, GeluIsTheErfForm) {
  Matrix m(1, 5);
  m.data = {-3.0f, -1.0f, 0.0f, 1.0f, 2.5f};
  attn::activate(m, Activation::Gelu);
  // 0.5 x (1 + erf(x / sqrt 2)) in double; the tanh form gives -0.0036374 at x = -3
  const double want[] = {-0.00404969409489031, -0.15865525393145707, 0, 0.8413447460685429,
                         2.4844758366855597};
  for (int c = 0; c < 5; c++) EXPECT_NEAR(m.data[c], want[c], 2e-7 * (1 + std::fabs(want[c])));
}

TEST(FeedForward, BadShapesNameTheArgument) {
  attn::FeedForwardArgs a = random_ff(3, 4, 16, true, 1);
  a.w1 = ref::random_matrix(16, 5, 2);
  EXPECT_EQ(attn::check_feed_forward(a),
            "W1: expected shape (hidden, d_model) = (16, 4), got (16, 5)");
  a = random_ff(3, 4, 16, true, 1);
  a.w2 = ref::random_matrix(4, 15, 2);
  EXPECT_EQ(attn::check_feed_forward(a),
            "W2: expected shape (d_model, hidden) = (4, 16), got (4, 15)");
  a = random_ff(3, 4, 16, true, 1);
  a.b1 = Matrix(1, 4);
  EXPECT_EQ(attn::check_feed_forward(a), "b1: expected shape (1, hidden) = (1, 16), got (1, 4)");
  a = random_ff(3, 4, 16, true, 1);
  a.activation = static_cast<Activation>(7);
  EXPECT_EQ(attn::check_feed_forward(a), "activation: expected one of 'relu', 'gelu', got 7");
}

// ---- encoder and decoder layers -------------------------------------------------------------

attn::AttentionWeights random_attention(int d, bool biases, std::uint32_t seed) {
  attn::AttentionWeights w;
  w.wq = ref::random_matrix(d, d, seed, -0.6, 0.6);
  w.wk = ref::random_matrix(d, d, seed + 1, -0.6, 0.6);
  w.wv = ref::random_matrix(d, d, seed + 2, -0.6, 0.6);
  w.wo = ref::random_matrix(d, d, seed + 3, -0.6, 0.6);
  if (biases) {
    w.bq = ref::random_matrix(1, d, seed + 4);
    w.bk = ref::random_matrix(1, d, seed + 5);
    w.bv = ref::random_matrix(1, d, seed + 6);
    w.bo = ref::random_matrix(1, d, seed + 7);
  }
  return w;
}

TransformerLayerArgs random_layer(LayerKind kind, int n, int m, int d, int heads, int d_ff,
                                  std::uint32_t seed) {
  TransformerLayerArgs a;
  a.kind = kind;
  a.x = ref::random_matrix(n, d, seed, -2, 2);
  a.heads = heads;
  a.self_attention = random_attention(d, true, seed + 10);
  if (kind == LayerKind::Decoder) {
    a.memory = ref::random_matrix(m, d, seed + 1, -2, 2);
    a.cross_attention = random_attention(d, true, seed + 20);
    a.causal = true;
  }
  a.ff.w1 = ref::random_matrix(d_ff, d, seed + 30, -0.5, 0.5);
  a.ff.b1 = ref::random_matrix(1, d_ff, seed + 31);
  a.ff.w2 = ref::random_matrix(d, d_ff, seed + 32, -0.5, 0.5);
  a.ff.b2 = ref::random_matrix(1, d, seed + 33);
  for (int k = 0; k < attn::sublayer_count(kind); k++) {
    a.norms.push_back({ref::random_matrix(1, d, seed + 40 + k, 0.5, 1.5),
                       ref::random_matrix(1, d, seed + 50 + k, -0.3, 0.3)});
  }
  return a;
}

ref::AttentionWeights to_ref(const attn::AttentionWeights& w) {
  return {ref::from(w.wq), ref::from(w.wk), ref::from(w.wv), ref::from(w.wo),
          vec(w.bq),       vec(w.bk),       vec(w.bv),       vec(w.bo)};
}

ref::Layer to_ref(const TransformerLayerArgs& a) {
  ref::Layer r;
  r.decoder = a.kind == LayerKind::Decoder;
  r.x = ref::from(a.x);
  if (r.decoder) r.memory = ref::from(a.memory);
  r.heads = a.heads;
  r.self = to_ref(a.self_attention);
  if (r.decoder) r.cross = to_ref(a.cross_attention);
  r.w1 = ref::from(a.ff.w1);
  r.w2 = ref::from(a.ff.w2);
  r.b1 = vec(a.ff.b1);
  r.b2 = vec(a.ff.b2);
  for (const attn::NormWeights& n : a.norms) {
    r.gamma.push_back(vec(n.gamma));
    r.beta.push_back(vec(n.beta));
  }
  r.norm_first = a.norm_first;
  r.use_gelu = a.ff.activation == Activation::Gelu;
  r.causal = a.causal;
  r.eps = a.eps;
  r.key_padding = a.key_padding;
  r.memory_key_padding = a.memory_key_padding;
  r.residual = a.residual;
  r.norm = a.layer_norm;
  return r;
}

void expect_heads_near(const attn::MultiHeadResult& got, const ref::MultiHead& want,
                       const char* what) {
  ASSERT_EQ(got.heads.size(), want.heads.size()) << what;
  for (std::size_t h = 0; h < got.heads.size(); h++) {
    EXPECT_MATRIX_NEAR(got.heads[h].weights, want.heads[h].weights, kTol) << what << " head " << h;
  }
  EXPECT_MATRIX_NEAR(got.concat, want.concat, kTol) << what;
  EXPECT_MATRIX_NEAR(got.output, want.output, kTol) << what;
}

// Every stage: each attention's heads, concat and output, the feed-forward's hidden layer and
// output, every residual sum, every LayerNorm's output, mean and std, and the layer's output.
void expect_layer_matches_reference(const TransformerLayerArgs& a) {
  ASSERT_EQ(attn::check_transformer_layer(a), "");
  TransformerLayerResult r = attn::transformer_layer(a);
  ASSERT_EQ(r.error, "");
  ref::LayerResult want = ref::layer(to_ref(a));
  expect_heads_near(r.self_attention, want.self, "selfAttention");
  if (a.kind == LayerKind::Decoder)
    expect_heads_near(r.cross_attention, want.cross, "crossAttention");
  EXPECT_MATRIX_NEAR(r.ff.hidden, want.ff.hidden, kTol) << "ff.hidden";
  EXPECT_MATRIX_NEAR(r.ff.output, want.ff.output, kTol) << "ff.output";
  ASSERT_EQ(r.residuals.size(), want.residuals.size());
  ASSERT_EQ(r.normed.size(), want.normed.size());
  for (std::size_t k = 0; k < r.residuals.size(); k++) {
    EXPECT_MATRIX_NEAR(r.residuals[k], want.residuals[k], kTol) << "residual " << k;
    EXPECT_MATRIX_NEAR(r.normed[k].output, want.normed[k].output, kTol) << "normed " << k;
    expect_vector_near(r.normed[k].mean, want.normed[k].mean, kTol, "mean");
    expect_vector_near(r.normed[k].std, want.normed[k].std, kTol, "std");
  }
  EXPECT_MATRIX_NEAR(r.output, want.output, kTol) << "output";
}

TEST(TransformerLayer, EncoderEveryStageMatchesReference) {
  for (bool norm_first : {false, true}) {
    for (Activation act : {Activation::Relu, Activation::Gelu}) {
      TransformerLayerArgs a = random_layer(LayerKind::Encoder, 5, 0, 8, 2, 32, 100);
      a.norm_first = norm_first;
      a.ff.activation = act;
      SCOPED_TRACE(norm_first ? "pre-norm" : "post-norm");
      expect_layer_matches_reference(a);
    }
  }
}

TEST(TransformerLayer, EncoderWithPaddingCausalAndNoBiases) {
  TransformerLayerArgs a = random_layer(LayerKind::Encoder, 6, 0, 12, 3, 24, 200);
  a.key_padding = {false, false, true, false, false, true};
  expect_layer_matches_reference(a);
  a.causal = true;
  a.self_attention.bq = a.self_attention.bo = Matrix();
  a.ff.b1 = Matrix();
  a.eps = 0.1;
  expect_layer_matches_reference(a);
}

TEST(TransformerLayer, DecoderEveryStageMatchesReference) {
  for (bool norm_first : {false, true}) {
    for (Activation act : {Activation::Relu, Activation::Gelu}) {
      // n_q = 3 decoder tokens over m = 4 encoder outputs: cross-attention is (3, 4)
      TransformerLayerArgs a = random_layer(LayerKind::Decoder, 3, 4, 8, 4, 32, 300);
      a.norm_first = norm_first;
      a.ff.activation = act;
      SCOPED_TRACE(norm_first ? "pre-norm" : "post-norm");
      expect_layer_matches_reference(a);
    }
  }
}

TEST(TransformerLayer, DecoderWithPaddingOnBothSides) {
  TransformerLayerArgs a = random_layer(LayerKind::Decoder, 5, 7, 16, 4, 64, 400);
  a.key_padding = {false, false, false, true, true};
  a.memory_key_padding = {false, true, false, false, false, true, true};
  expect_layer_matches_reference(a);
  a.causal = false;  // a decoder may also see every token (the binding's default is causal)
  expect_layer_matches_reference(a);
}

// The cross-attention weights are (n, m) per head, and each row sums to 1 over the memory.
TEST(TransformerLayer, CrossAttentionIsDecoderByMemory) {
  TransformerLayerArgs a = random_layer(LayerKind::Decoder, 3, 4, 8, 2, 16, 500);
  TransformerLayerResult r = attn::transformer_layer(a);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.cross_attention.heads.size(), 2u);
  const Matrix& w = r.cross_attention.heads[1].weights;
  EXPECT_EQ(w.rows, 3);
  EXPECT_EQ(w.cols, 4);
  // causal self-attention: token 0 sees only itself
  EXPECT_FLOAT_EQ(r.self_attention.heads[0].weights.at(0, 0), 1.0f);
  EXPECT_EQ(r.residuals.size(), 3u);
  EXPECT_EQ(r.normed.size(), 3u);
}

// The lesson's switches: no residual, no LayerNorm (each norm passes its input through).
TEST(TransformerLayer, ResidualAndNormSwitchesMatchReference) {
  for (LayerKind kind : {LayerKind::Encoder, LayerKind::Decoder}) {
    for (int variant = 0; variant < 4; variant++) {
      TransformerLayerArgs a = random_layer(kind, 4, 5, 8, 2, 16, 600 + variant);
      a.residual = variant % 2 == 0;
      a.layer_norm = variant < 2;
      a.norm_first = variant == 3;
      expect_layer_matches_reference(a);
    }
  }
}

TEST(TransformerLayer, NoNormMeansTheResidualIsTheOutput) {
  TransformerLayerArgs a = random_layer(LayerKind::Encoder, 4, 0, 8, 2, 16, 700);
  a.layer_norm = false;
  TransformerLayerResult r = attn::transformer_layer(a);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.output.data, r.residuals.back().data);
  EXPECT_EQ(r.normed[0].output.data, r.residuals[0].data);
}

// stages = false keeps only the output, the same numbers to float rounding (its attention
// runs attend's output-only row step).
TEST(TransformerLayer, OutputOnlyEqualsAllStages) {
  for (LayerKind kind : {LayerKind::Encoder, LayerKind::Decoder}) {
    TransformerLayerArgs a = random_layer(kind, 6, 5, 12, 3, 48, 800);
    a.norm_first = kind == LayerKind::Decoder;
    TransformerLayerResult all = attn::transformer_layer(a);
    a.stages = false;
    TransformerLayerResult lean = attn::transformer_layer(a);
    ASSERT_EQ(lean.error, "");
    EXPECT_MATRIX_NEAR(lean.output, ref::from(all.output), 1e-5);
    EXPECT_TRUE(lean.self_attention.heads.empty() && lean.cross_attention.heads.empty());
    EXPECT_TRUE(lean.residuals.empty() && lean.normed.empty() && lean.ff.hidden.empty());
  }
}

TEST(TransformerLayer, OverflowIsAnErrorValueNotAnAbort) {
  TransformerLayerArgs a = random_layer(LayerKind::Encoder, 3, 0, 4, 2, 8, 900);
  for (float& v : a.x.data) v = 3e38f;
  for (float& v : a.self_attention.wq.data) v = 3e38f;
  TransformerLayerResult r = attn::transformer_layer(a);
  EXPECT_EQ(r.error.rfind("selfAttention: query: x Wᵀ + b overflows float32", 0), 0u) << r.error;
  EXPECT_TRUE(r.output.empty() && r.residuals.empty());

  a = random_layer(LayerKind::Encoder, 3, 0, 4, 2, 8, 900);
  for (float& v : a.ff.w1.data) v = 3e30f;
  for (float& v : a.ff.w2.data) v = 3e30f;
  r = attn::transformer_layer(a);
  EXPECT_EQ(r.error.rfind("ff.W2: x Wᵀ + b overflows float32", 0), 0u) << r.error;

  a = random_layer(LayerKind::Encoder, 3, 0, 4, 2, 8, 900);
  a.layer_norm = false;
  for (float& v : a.x.data) v = 3e38f;
  for (Matrix* w :
       {&a.self_attention.wq, &a.self_attention.wk, &a.self_attention.wv, &a.self_attention.wo}) {
    for (float& v : w->data) v = 0.0f;
  }
  for (float& v : a.self_attention.bo.data) v = 3e38f;
  r = attn::transformer_layer(a);
  EXPECT_EQ(r.error.rfind("x: x + sublayer 1 overflows float32", 0), 0u) << r.error;
}

TEST(TransformerLayer, BadInputsNameTheArgument) {
  auto enc = [] { return random_layer(LayerKind::Encoder, 4, 0, 8, 2, 16, 1); };
  auto dec = [] { return random_layer(LayerKind::Decoder, 4, 3, 8, 2, 16, 1); };
  TransformerLayerArgs a = enc();
  EXPECT_EQ(attn::check_transformer_layer(a), "");
  a.heads = 3;
  EXPECT_EQ(attn::check_transformer_layer(a),
            "heads: d_model = 8 (columns of x) is not divisible by 3 heads");
  a = enc();
  a.heads = 0;
  EXPECT_EQ(attn::check_transformer_layer(a), "heads: expected an integer from 1 to 64, got 0");
  a = enc();
  a.eps = 0;
  EXPECT_EQ(attn::check_transformer_layer(a),
            "eps: expected a number from 1e-30 to 1 (eps > 0), got 0");
  a = enc();
  a.memory = ref::random_matrix(3, 8, 2);
  EXPECT_EQ(
      attn::check_transformer_layer(a).rfind("memory: expected no memory for kind 'encoder'", 0),
      0u);
  a = enc();
  a.cross_attention = random_attention(8, false, 3);
  EXPECT_EQ(
      attn::check_transformer_layer(a).rfind("crossAttention: expected no cross-attention", 0), 0u);
  a = enc();
  a.norms.pop_back();
  EXPECT_EQ(attn::check_transformer_layer(a),
            "norms: expected 2 { gamma, beta } (one per sub-layer of an encoder layer), got 1");
  a = dec();
  a.norms.pop_back();
  EXPECT_EQ(attn::check_transformer_layer(a),
            "norms: expected 3 { gamma, beta } (one per sub-layer of a decoder layer), got 2");
  a = dec();
  a.norms[1].gamma = Matrix(1, 7, 1.0f);
  EXPECT_EQ(attn::check_transformer_layer(a),
            "norms[1].gamma: expected shape (1, d_model) = (1, 8), got (1, 7)");
  a = dec();
  a.norms[2].beta = Matrix();
  EXPECT_EQ(attn::check_transformer_layer(a), "norms[2].beta: expected 1 to 1 rows, got 0");
  a = dec();
  a.memory = Matrix();
  EXPECT_EQ(attn::check_transformer_layer(a),
            "memory: expected the encoder's output (m, d_model) for kind 'decoder', got none");
  a = dec();
  a.memory = ref::random_matrix(3, 6, 2);
  EXPECT_EQ(attn::check_transformer_layer(a),
            "memory: expected shape (m, d_model) = (3, 8), got (3, 6)");
  a = dec();
  a.cross_attention.wk = ref::random_matrix(8, 6, 2);
  EXPECT_EQ(attn::check_transformer_layer(a),
            "crossAttention.Wk: expected shape (d_model, d_model) = (8, 8), got (8, 6)");
  a = enc();
  a.self_attention.bv = Matrix(1, 4);
  EXPECT_EQ(attn::check_transformer_layer(a),
            "selfAttention.bv: expected shape (1, d_model) = (1, 8), got (1, 4)");
  a = enc();
  a.self_attention.wo = Matrix();
  EXPECT_EQ(attn::check_transformer_layer(a),
            "selfAttention.Wo: expected 1 to 1024 rows (engine.limits.maxDim), got 0");
  a = enc();
  a.ff.w2 = ref::random_matrix(8, 15, 2);
  EXPECT_EQ(attn::check_transformer_layer(a),
            "ff.W2: expected shape (d_model, hidden) = (8, 16), got (8, 15)");
  a = enc();
  a.key_padding = {false, true};
  EXPECT_EQ(attn::check_transformer_layer(a),
            "keyPadding: expected 4 flags (one per token of x, n), got 2");
  a = dec();
  a.memory_key_padding = {false, true, false, false};
  EXPECT_EQ(attn::check_transformer_layer(a),
            "memoryKeyPadding: expected 3 flags (one per row of memory, m), got 4");
  a = enc();
  a.memory_key_padding = {false};
  EXPECT_EQ(
      attn::check_transformer_layer(a).rfind("memoryKeyPadding: expected no memory padding", 0),
      0u);
  a = enc();
  a.x.data[5] = std::nanf("");
  EXPECT_EQ(attn::check_transformer_layer(a),
            "x: row 0, column 5 is NaN (expected finite numbers)");
  a = enc();
  a.kind = static_cast<LayerKind>(5);
  EXPECT_EQ(attn::check_transformer_layer(a), "kind: expected one of 'encoder', 'decoder', got 5");
}

// A nested argument has the limits of its last part, under its own name.
TEST(TransformerLayer, NestedNamesGetTheirPartsLimits) {
  Matrix big;
  big.rows = 2000;
  big.cols = 8;
  EXPECT_EQ(attn::check_size("selfAttention.Wq", big),
            "selfAttention.Wq: expected 1 to 1024 rows (engine.limits.maxDim), got 2000");
  big.rows = 1;
  big.cols = 5000;
  EXPECT_EQ(attn::check_size("norms[0].gamma", big),
            "norms[0].gamma: expected 1 to 1024 columns (engine.limits.maxDim), got 5000");
  attn::MatrixOption o;
  EXPECT_TRUE(attn::nested_matrix_option("ff.W1", &o));
  EXPECT_EQ(o.max_rows, attn::limits::kMaxHidden);
  EXPECT_FALSE(attn::nested_matrix_option("ff.nothing", &o));
}

// ---- the GRU encoder ------------------------------------------------------------------------

attn::GruArgs random_gru(int n, int d_in, int h, std::uint32_t seed) {
  attn::GruArgs a;
  a.x = ref::random_matrix(n, d_in, seed, -2, 2);
  a.w_ih = ref::random_matrix(3 * h, d_in, seed + 1);
  a.w_hh = ref::random_matrix(3 * h, h, seed + 2);
  a.b_ih = ref::random_matrix(1, 3 * h, seed + 3);
  a.b_hh = ref::random_matrix(1, 3 * h, seed + 4);
  return a;
}

TEST(Gru, EveryHiddenStateMatchesReference) {
  attn::GruArgs a = random_gru(40, 8, 6, 1000);
  ASSERT_EQ(attn::check_gru(a), "");
  attn::GruResult r = attn::gru_encoder(a);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.steps, 40);
  EXPECT_MATRIX_NEAR(
      r.hidden,
      ref::gru(ref::from(a.x), ref::from(a.w_ih), ref::from(a.w_hh), vec(a.b_ih), vec(a.b_hh), {}),
      1e-5);
  a.h0 = ref::random_matrix(1, 6, 5);
  a.b_hh = Matrix();
  r = attn::gru_encoder(a);
  EXPECT_MATRIX_NEAR(
      r.hidden,
      ref::gru(ref::from(a.x), ref::from(a.w_ih), ref::from(a.w_hh), vec(a.b_ih), {}, vec(a.h0)),
      1e-5);
}

// The state at t depends on every token before it: changing token 0 changes the last state.
TEST(Gru, TheLastStateDependsOnTheFirstToken) {
  attn::GruArgs a = random_gru(10, 4, 4, 1100);
  Matrix before = attn::gru_encoder(a).hidden;
  a.x.at(0, 0) += 1.0f;
  Matrix after = attn::gru_encoder(a).hidden;
  EXPECT_NE(before.at(9, 0), after.at(9, 0));
}

TEST(Gru, BadShapesNameTheArgument) {
  attn::GruArgs a = random_gru(3, 4, 5, 1);
  a.w_ih = ref::random_matrix(15, 3, 2);
  EXPECT_EQ(attn::check_gru(a), "Wih: expected shape (3 h, d_in) = (15, 4), got (15, 3)");
  a = random_gru(3, 4, 5, 1);
  a.w_hh = ref::random_matrix(14, 5, 2);
  EXPECT_EQ(attn::check_gru(a), "Whh: expected shape (3 h, h) = (15, 5), got (14, 5)");
  a = random_gru(3, 4, 5, 1);
  a.h0 = Matrix(1, 4);
  EXPECT_EQ(attn::check_gru(a), "h0: expected shape (1, h) = (1, 5), got (1, 4)");
}

}  // namespace
