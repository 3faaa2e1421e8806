// Learned projections and multi-head attention against the double reference
// (torch.nn.MultiheadAttention conventions: W is (out, in), y = x Wᵀ + b).
#include <gtest/gtest.h>

#include "core/multihead.h"
#include "reference.h"

namespace {

using attn::Matrix;
using attn::MultiHeadArgs;
using attn::MultiHeadResult;

std::vector<double> vec(const Matrix& m) {
  return m.empty() ? std::vector<double>{} : ref::from(m)[0];
}

MultiHeadArgs random_mha(int n_q, int n_k, int d_model, int kdim, int vdim, int heads, bool biases,
                         std::uint32_t seed) {
  MultiHeadArgs a;
  a.query = ref::random_matrix(n_q, d_model, seed);
  a.key = ref::random_matrix(n_k, kdim, seed + 1);
  a.value = ref::random_matrix(n_k, vdim, seed + 2);
  a.heads = heads;
  a.wq = ref::random_matrix(d_model, d_model, seed + 3);
  a.wk = ref::random_matrix(d_model, kdim, seed + 4);
  a.wv = ref::random_matrix(d_model, vdim, seed + 5);
  a.wo = ref::random_matrix(d_model, d_model, seed + 6);
  if (biases) {
    a.bq = ref::random_matrix(1, d_model, seed + 7);
    a.bk = ref::random_matrix(1, d_model, seed + 8);
    a.bv = ref::random_matrix(1, d_model, seed + 9);
    a.bo = ref::random_matrix(1, d_model, seed + 10);
  }
  return a;
}

void expect_matches_reference(const MultiHeadArgs& a) {
  ASSERT_EQ(attn::check_multi_head(a), "");
  MultiHeadResult r = attn::multi_head(a);
  ref::MultiHead want = ref::multi_head(
      ref::from(a.query), ref::from(a.key), ref::from(a.value), a.heads, ref::from(a.wq),
      ref::from(a.wk), ref::from(a.wv), ref::from(a.wo), vec(a.bq), vec(a.bk), vec(a.bv), vec(a.bo),
      a.mask.empty() ? ref::Mat{} : ref::from(a.mask), a.causal, a.key_padding);
  ASSERT_EQ(r.heads.size(), static_cast<std::size_t>(a.heads));
  for (int h = 0; h < a.heads; h++) {
    EXPECT_MATRIX_NEAR(r.heads[h].scores, want.heads[h].scores, 1e-5) << "head " << h;
    EXPECT_MATRIX_NEAR(r.heads[h].weights, want.heads[h].weights, 1e-5) << "head " << h;
    EXPECT_MATRIX_NEAR(r.heads[h].output, want.heads[h].output, 1e-5) << "head " << h;
  }
  EXPECT_MATRIX_NEAR(r.concat, want.concat, 1e-5);
  EXPECT_MATRIX_NEAR(r.output, want.output, 1e-5);
}

// stages = false: each head keeps only output, entropy and fully_masked_rows, the same numbers
// as with every stage to float rounding (heads with no mask but the causal one run attend's own
// row step), and against the double reference too; no head holds an (n_q, n_k) matrix.
TEST(MultiHead, OutputOnlyHeadsEqualAllStages) {
  for (int variant = 0; variant < 4; variant++) {
    MultiHeadArgs a = random_mha(6, 6, 16, 16, 16, 4, variant % 2 == 0, 80 + variant);
    if (variant == 1) a.causal = true;
    if (variant == 2) a.key_padding = {false, true, false, false, true, false};
    if (variant == 3) {
      a.mask = Matrix(6, 6, 1.0f);
      for (int j = 0; j < 6; j++) a.mask.at(2, j) = 0.0f;  // a fully masked row
      a.mask.at(0, 3) = 0.0f;
    }
    ASSERT_EQ(attn::check_multi_head(a), "");
    MultiHeadResult all = attn::multi_head(a);
    a.stages = false;
    MultiHeadResult lean = attn::multi_head(a);
    ASSERT_EQ(lean.error, "");
    ASSERT_EQ(lean.heads.size(), all.heads.size());
    ref::MultiHead want = ref::multi_head(
        ref::from(a.query), ref::from(a.key), ref::from(a.value), a.heads, ref::from(a.wq),
        ref::from(a.wk), ref::from(a.wv), ref::from(a.wo), vec(a.bq), vec(a.bk), vec(a.bv),
        vec(a.bo), a.mask.empty() ? ref::Mat{} : ref::from(a.mask), a.causal, a.key_padding);
    for (std::size_t h = 0; h < lean.heads.size(); h++) {
      const attn::AttendResult& l = lean.heads[h];
      EXPECT_TRUE(l.scores.empty() && l.scaled.empty() && l.mask.empty() && l.masked.empty() &&
                  l.weights.empty())
          << "variant " << variant << " head " << h;
      EXPECT_MATRIX_NEAR(l.output, ref::from(all.heads[h].output), 1e-6)
          << "variant " << variant << " head " << h;
      ASSERT_EQ(l.entropy.size(), all.heads[h].entropy.size());
      for (std::size_t i = 0; i < l.entropy.size(); i++)
        EXPECT_NEAR(l.entropy[i], all.heads[h].entropy[i], 1e-6)
            << "variant " << variant << " head " << h;
      EXPECT_EQ(l.fully_masked_rows, all.heads[h].fully_masked_rows);
      if (variant == 3) {
        EXPECT_EQ(l.fully_masked_rows, std::vector<int>{2});
      } else {
        EXPECT_MATRIX_NEAR(l.output, want.heads[h].output, 1e-5) << "head " << h;
      }
    }
    EXPECT_MATRIX_NEAR(lean.concat, ref::from(all.concat), 1e-6) << "variant " << variant;
    EXPECT_MATRIX_NEAR(lean.output, ref::from(all.output), 1e-5) << "variant " << variant;
    if (variant != 3) {
      EXPECT_MATRIX_NEAR(lean.output, want.output, 1e-5);
    }
  }
}

TEST(MultiHead, LinearMatchesReference) {
  Matrix x = ref::random_matrix(4, 6, 70), w = ref::random_matrix(3, 6, 71);
  Matrix b = ref::random_matrix(1, 3, 72);
  EXPECT_MATRIX_NEAR(attn::linear(x, w, b), ref::linear(ref::from(x), ref::from(w), vec(b)), 1e-5);
  EXPECT_MATRIX_NEAR(attn::linear(x, w, Matrix()), ref::linear(ref::from(x), ref::from(w), {}),
                     1e-5);
}

TEST(MultiHead, SelfAttentionWithBiases) {
  expect_matches_reference(random_mha(5, 5, 8, 8, 8, 2, true, 73));
}

TEST(MultiHead, SelfAttentionNoBiases) {
  expect_matches_reference(random_mha(4, 4, 12, 12, 12, 3, false, 74));
}

TEST(MultiHead, CrossAttentionWithKdimAndVdim) {
  expect_matches_reference(random_mha(3, 6, 8, 5, 7, 4, true, 75));
}

TEST(MultiHead, CausalSelfAttention) {
  MultiHeadArgs a = random_mha(6, 6, 16, 16, 16, 4, true, 76);
  a.causal = true;
  expect_matches_reference(a);
}

TEST(MultiHead, KeyPaddingAndExplicitMask) {
  MultiHeadArgs a = random_mha(3, 5, 8, 8, 8, 2, true, 77);
  a.key_padding = {false, false, false, true, true};
  a.mask = Matrix(3, 5, 1.0f);
  a.mask.at(0, 1) = 0.0f;
  expect_matches_reference(a);
  MultiHeadResult r = attn::multi_head(a);
  for (const auto& head : r.heads)
    for (int i = 0; i < 3; i++) {
      EXPECT_EQ(head.weights.at(i, 3), 0.0f);
      EXPECT_EQ(head.weights.at(i, 4), 0.0f);
    }
}

TEST(MultiHead, OneHeadIsPlainScaledDotOfTheProjections) {
  MultiHeadArgs a = random_mha(4, 4, 6, 6, 6, 1, true, 78);
  MultiHeadResult r = attn::multi_head(a);
  ref::AttendInput in;
  in.q = ref::linear(ref::from(a.query), ref::from(a.wq), vec(a.bq));
  in.k = ref::linear(ref::from(a.key), ref::from(a.wk), vec(a.bk));
  in.v = ref::linear(ref::from(a.value), ref::from(a.wv), vec(a.bv));
  EXPECT_MATRIX_NEAR(r.concat, ref::attend(in).output, 1e-5);
}

TEST(MultiHead, FullyMaskedRowGivesZeroConcatAndBiasOutput) {
  // torch gives NaN for such a row; the engine gives zeros before W_o, so the output is bo.
  MultiHeadArgs a = random_mha(2, 3, 4, 4, 4, 2, true, 79);
  a.mask = Matrix(2, 3, 1.0f);
  for (int j = 0; j < 3; j++) a.mask.at(0, j) = 0.0f;
  MultiHeadResult r = attn::multi_head(a);
  for (int c = 0; c < 4; c++) {
    EXPECT_EQ(r.concat.at(0, c), 0.0f);
    EXPECT_EQ(r.output.at(0, c), a.bo.data[c]);
  }
  for (const auto& head : r.heads) EXPECT_EQ(head.fully_masked_rows, std::vector<int>{0});
  expect_matches_reference(a);
}

}  // namespace
