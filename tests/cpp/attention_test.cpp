// The whole pipeline, every stage against the double reference, and the fully blocked row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/attention.h"
#include "reference.h"

namespace {

using attn::AttendArgs;
using attn::AttendResult;
using attn::MaskFill;
using attn::Matrix;
using attn::ScoreKind;

ref::AttendInput reference_input(const AttendArgs& a) {
  ref::AttendInput in;
  in.q = ref::from(a.query);
  in.k = ref::from(a.key);
  in.v = ref::from(a.value);
  in.kind = static_cast<int>(a.score);
  if (!a.mask.empty()) in.explicit_mask = ref::from(a.mask);
  in.causal = a.causal;
  in.key_padding = a.key_padding;
  in.fill = a.mask_fill == MaskFill::NegInf          ? -ref::kInf
            : a.mask_fill == MaskFill::LargeNegative ? -1e9
                                                     : 0.0;
  in.temperature = a.temperature;
  if (a.score == ScoreKind::Additive) {
    in.additive_wq = ref::from(a.additive_wq);
    in.additive_wk = ref::from(a.additive_wk);
    in.additive_v = ref::from(a.additive_v)[0];
  }
  if (a.score == ScoreKind::General) in.general_w = ref::from(a.general_w);
  return in;
}

void expect_matches_reference(const AttendArgs& a, double tol = 1e-5) {
  ASSERT_EQ(attn::check_attend(a), "");
  AttendResult r = attn::attend(a);
  ref::Attention want = ref::attend(reference_input(a));
  EXPECT_MATRIX_NEAR(r.scores, want.scores, tol);
  EXPECT_MATRIX_NEAR(r.scaled, want.scaled, tol);
  EXPECT_MATRIX_NEAR(r.mask, want.mask, 0);
  EXPECT_MATRIX_NEAR(r.masked, want.masked, tol);
  EXPECT_MATRIX_NEAR(r.weights, want.weights, tol);
  EXPECT_MATRIX_NEAR(r.output, want.output, tol);
  ASSERT_EQ(r.entropy.size(), want.entropy.size());
  for (std::size_t i = 0; i < r.entropy.size(); i++)
    EXPECT_NEAR(r.entropy[i], want.entropy[i], tol * 10);
}

AttendArgs random_args(int n_q, int n_k, int d, int d_v, std::uint32_t seed) {
  AttendArgs a;
  a.query = ref::random_matrix(n_q, d, seed, -2, 2);
  a.key = ref::random_matrix(n_k, d, seed + 1, -2, 2);
  a.value = ref::random_matrix(n_k, d_v, seed + 2, -2, 2);
  return a;
}

TEST(Attention, ScaledDotSelfAttention) { expect_matches_reference(random_args(5, 5, 8, 3, 41)); }

// Every entry of got within tol (relative to max(1, |want|)) of want.
void expect_floats_near(const std::vector<float>& got, const std::vector<float>& want, double tol,
                        const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); i++)
    EXPECT_LE(std::fabs(static_cast<double>(got[i]) - want[i]),
              tol * std::max(1.0, std::fabs(static_cast<double>(want[i]))))
        << what << " [" << i << "]: " << got[i] << " vs " << want[i];
}

// stages = false: no stages kept. With a mask, padding or the naive softmax it runs the stages'
// arithmetic in place (the same output bit for bit); with no mask but the causal one, its own
// row step (attend_rowwise), the same numbers to float rounding.
TEST(Attention, OutputOnlyPathGivesTheSameNumbers) {
  struct Case {
    bool causal, reverse, padding, mask, stable;
    MaskFill fill;
  };
  for (Case c : {Case{false, false, false, false, true, MaskFill::NegInf},
                 Case{true, false, true, false, true, MaskFill::NegInf},
                 Case{false, true, false, true, true, MaskFill::Zero},
                 Case{true, false, false, true, false, MaskFill::LargeNegative}}) {
    AttendArgs a = random_args(6, 7, 5, 3, 90);
    a.causal = c.causal;
    a.reverse_causal = c.reverse;
    if (c.padding) a.key_padding = {false, true, false, false, true, false, false};
    if (c.mask) {
      a.mask = Matrix(6, 7, 1.0f);
      for (int j = 0; j < 7; j++) a.mask.at(2, j) = 0.0f;  // a fully blocked row
    }
    a.stable = c.stable;
    a.mask_fill = c.fill;
    AttendResult all = attn::attend(a);
    a.stages = false;
    AttendResult lean = attn::attend(a);
    ASSERT_EQ(lean.output.data.size(), all.output.data.size());
    ASSERT_EQ(lean.entropy.size(), all.entropy.size());
    if (!c.padding && !c.mask && !c.reverse && c.stable) {  // the row step
      expect_floats_near(lean.output.data, all.output.data, 1e-6, "output");
      expect_floats_near(lean.entropy, all.entropy, 1e-6, "entropy");
    } else {
      EXPECT_EQ(std::memcmp(lean.output.data.data(), all.output.data.data(),
                            all.output.data.size() * sizeof(float)),
                0);
      EXPECT_EQ(
          std::memcmp(lean.entropy.data(), all.entropy.data(), all.entropy.size() * sizeof(float)),
          0);
    }
    EXPECT_EQ(lean.fully_masked_rows, all.fully_masked_rows);
    EXPECT_EQ(lean.overflow, all.overflow);
    EXPECT_TRUE(lean.scores.empty() && lean.scaled.empty() && lean.mask.empty() &&
                lean.masked.empty() && lean.weights.empty());
  }
}

// The row-at-a-time output-only path (no mask or the causal one, the stable softmax, a
// temperature >= 1) against the double reference and all the stages, to float rounding, at sizes
// where a causal row's allowed keys end inside, and outside, a vector and a block of rows.
TEST(Attention, RowwiseOutputOnlyPathGivesTheSameNumbers) {
  for (ScoreKind score : {ScoreKind::ScaledDot, ScoreKind::Dot})
    for (bool causal : {false, true})
      for (float temperature : {1.0f, 2.5f})
        for (int n_k : {1, 7, 16, 37, 70}) {
          AttendArgs a = random_args(40, n_k, 9, 5, 91 + n_k);
          a.score = score;
          a.causal = causal;
          a.temperature = temperature;
          expect_matches_reference(a);
          AttendResult all = attn::attend(a);
          a.stages = false;
          AttendResult lean = attn::attend(a);
          const std::string what = std::to_string(n_k) + (causal ? " causal" : "");
          expect_floats_near(lean.output.data, all.output.data, 1e-6, what + " output");
          expect_floats_near(lean.entropy, all.entropy, 1e-6, what + " entropy");
          ref::Attention want = ref::attend(reference_input(a));
          EXPECT_MATRIX_NEAR(lean.output, want.output, 1e-5) << what;
          for (std::size_t i = 0; i < lean.entropy.size(); i++)
            EXPECT_NEAR(lean.entropy[i], want.entropy[i], 1e-4) << what << " row " << i;
          EXPECT_TRUE(lean.fully_masked_rows.empty() && all.fully_masked_rows.empty());
        }
}

// An overflowing q·k in a later row: the row-at-a-time path names the same cell.
TEST(Attention, RowwiseOutputOnlyPathNamesTheOverflowingScore) {
  AttendArgs a = random_args(6, 5, 4, 2, 95);
  a.query.at(4, 1) = 1e20f;
  a.key.at(3, 1) = -1e20f;
  AttendResult all = attn::attend(a);
  a.stages = false;
  AttendResult lean = attn::attend(a);
  EXPECT_EQ(lean.error,
            "query: q·k overflows float32 at query 4, key 3 (expected |q| |k| below 3.4e+38 for "
            "every query and key row)");
  EXPECT_EQ(lean.error, all.error);
  EXPECT_TRUE(lean.output.empty() && lean.entropy.empty());
}

TEST(Attention, ScaledDotCrossAttention) {
  expect_matches_reference(random_args(3, 4, 16, 5, 42));  // "猫 吃 鱼" over "The cat eats fish"
  expect_matches_reference(random_args(7, 2, 4, 1, 43));
}

TEST(Attention, ScaledDotDividesBySqrtDk) {
  AttendArgs a = random_args(2, 3, 16, 2, 44);
  AttendResult r = attn::attend(a);
  for (std::size_t c = 0; c < r.scores.data.size(); c++)
    EXPECT_NEAR(r.scaled.data[c], r.scores.data[c] / 4.0, 1e-6);
}

TEST(Attention, DotWithTemperature) {
  AttendArgs a = random_args(4, 6, 5, 3, 45);
  a.score = ScoreKind::Dot;
  for (float t : {0.25f, 1.0f, 4.0f}) {
    a.temperature = t;
    expect_matches_reference(a);
  }
}

TEST(Attention, TemperatureFlattensAndSharpens) {
  AttendArgs a = random_args(3, 8, 8, 2, 46);
  a.temperature = 1000.0f;
  AttendResult flat = attn::attend(a);
  for (float h : flat.entropy) EXPECT_NEAR(h, std::log(8.0), 1e-3);
  a.temperature = 0.001f;
  AttendResult sharp = attn::attend(a);
  for (float h : sharp.entropy) EXPECT_LT(h, 0.01);
}

TEST(Attention, AdditiveWithDifferentSizes) {
  AttendArgs a;
  a.query = ref::random_matrix(3, 2, 47);
  a.key = ref::random_matrix(5, 6, 48);  // d_q = 2, d_k = 6
  a.value = ref::random_matrix(5, 4, 49);
  a.score = ScoreKind::Additive;
  a.additive_wq = ref::random_matrix(7, 2, 50);
  a.additive_wk = ref::random_matrix(7, 6, 51);
  a.additive_v = ref::random_matrix(1, 7, 52);
  a.temperature = 0.5f;
  a.causal = true;
  expect_matches_reference(a);
}

TEST(Attention, General) {
  AttendArgs a;
  a.query = ref::random_matrix(4, 3, 53);
  a.key = ref::random_matrix(6, 5, 54);
  a.value = ref::random_matrix(6, 2, 55);
  a.score = ScoreKind::General;
  a.general_w = ref::random_matrix(3, 5, 56);
  a.key_padding = {false, false, true, false, false, true};
  expect_matches_reference(a);
}

TEST(Attention, CausalPaddingAndExplicitMaskTogether) {
  AttendArgs a = random_args(4, 6, 8, 3, 57);
  a.causal = true;
  a.key_padding = {false, true, false, false, false, false};
  a.mask = Matrix(4, 6, 1.0f);
  a.mask.at(3, 0) = 0.0f;
  a.mask.at(2, 2) = 0.0f;
  for (MaskFill f : {MaskFill::NegInf, MaskFill::LargeNegative, MaskFill::Zero}) {
    a.mask_fill = f;
    expect_matches_reference(a);
  }
}

TEST(Attention, EntropyOfUniformAttentionIsLogN) {
  AttendArgs a = random_args(3, 6, 4, 2, 58);
  a.key = Matrix(6, 4, 0.5f);  // identical keys: every query spreads evenly
  AttendResult r = attn::attend(a);
  for (float h : r.entropy) EXPECT_NEAR(h, std::log(6.0), 1e-5);
}

TEST(Attention, NaiveOverflowShowsNaNStableDoesNot) {
  AttendArgs a = random_args(2, 5, 4, 2, 59);
  a.score = ScoreKind::Dot;
  for (float& x : a.query.data) x = std::fabs(x) * 20.0f + 20.0f;
  for (float& x : a.key.data) x = std::fabs(x) + 1.0f;  // q·k well past 88.7
  a.stable = false;
  AttendResult naive = attn::attend(a);
  bool any_nan = false;
  for (float x : naive.output.data) any_nan = any_nan || std::isnan(x);
  EXPECT_TRUE(any_nan);
  a.stable = true;
  expect_matches_reference(a, 1e-4);
}

// ---- a row where every key is blocked -------------------------------------------------------

AttendArgs blocked_row_args(MaskFill fill, bool stable) {
  AttendArgs a = random_args(3, 4, 4, 2, 60);
  a.mask = Matrix(3, 4, 1.0f);
  for (int j = 0; j < 4; j++) a.mask.at(1, j) = 0.0f;  // row 1 may attend to nothing
  a.mask_fill = fill;
  a.stable = stable;
  return a;
}

TEST(Attention, FullyBlockedRowNegInfStableIsZero) {
  AttendArgs a = blocked_row_args(MaskFill::NegInf, true);
  AttendResult r = attn::attend(a);
  EXPECT_EQ(r.fully_masked_rows, std::vector<int>{1});
  for (int j = 0; j < 4; j++) EXPECT_EQ(r.weights.at(1, j), 0.0f);
  for (int c = 0; c < 2; c++) EXPECT_EQ(r.output.at(1, c), 0.0f);
  EXPECT_EQ(r.entropy[1], 0.0f);
  expect_matches_reference(a);  // the other rows are untouched
}

TEST(Attention, FullyBlockedRowNegInfNaiveIsNaN) {
  AttendResult r = attn::attend(blocked_row_args(MaskFill::NegInf, false));
  EXPECT_EQ(r.fully_masked_rows, std::vector<int>{1});
  for (int j = 0; j < 4; j++) EXPECT_TRUE(std::isnan(r.weights.at(1, j)));
  for (int c = 0; c < 2; c++) EXPECT_TRUE(std::isnan(r.output.at(1, c)));
  for (int j = 0; j < 4; j++) EXPECT_FALSE(std::isnan(r.weights.at(0, j)));
}

TEST(Attention, FullyBlockedRowFiniteFillsBecomeUniform) {
  struct Case {
    MaskFill fill;
    bool stable;
  };
  for (Case c : {Case{MaskFill::LargeNegative, true}, Case{MaskFill::Zero, true},
                 Case{MaskFill::Zero, false}}) {
    AttendArgs a = blocked_row_args(c.fill, c.stable);
    AttendResult r = attn::attend(a);
    EXPECT_EQ(r.fully_masked_rows, std::vector<int>{1});
    for (int j = 0; j < 4; j++) EXPECT_NEAR(r.weights.at(1, j), 0.25, 1e-6);
    for (int col = 0; col < 2; col++) {
      double mean = 0;
      for (int k = 0; k < 4; k++) mean += a.value.at(k, col) / 4.0;
      EXPECT_NEAR(r.output.at(1, col), mean, 1e-5);  // the average of all values
    }
    EXPECT_NEAR(r.entropy[1], std::log(4.0), 1e-5);
    if (c.stable) expect_matches_reference(a);
  }
}

TEST(Attention, FullyBlockedRowLargeNegativeNaiveUnderflowsToNaN) {
  // exp(-1e9) is 0 in float, so the naive sum is 0 and 0 / 0 shows.
  AttendResult r = attn::attend(blocked_row_args(MaskFill::LargeNegative, false));
  for (int j = 0; j < 4; j++) EXPECT_TRUE(std::isnan(r.weights.at(1, j)));
}

TEST(Attention, WeightedSumMatchesReference) {
  Matrix w = ref::random_matrix(3, 5, 61, 0, 1), v = ref::random_matrix(5, 4, 62);
  EXPECT_MATRIX_NEAR(attn::weighted_sum(w, v), ref::matmul(ref::from(w), ref::from(v)), 1e-5);
}

}  // namespace
