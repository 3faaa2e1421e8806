// Stage 3: masks and fill values, alone and inside the pipeline.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/attention.h"
#include "core/masks.h"
#include "reference.h"

namespace {

using attn::MaskFill;
using attn::Matrix;
constexpr float kInf = std::numeric_limits<float>::infinity();

Matrix from_rows(int rows, int cols, std::vector<float> data) {
  Matrix m(rows, cols);
  m.data = std::move(data);
  return m;
}

TEST(Masks, NoneMeansEverythingAllowed) {
  Matrix m = attn::build_mask(2, 3, Matrix(), false, {});
  for (float x : m.data) EXPECT_EQ(x, 1.0f);
}

TEST(Masks, CausalIsLowerTriangular) {
  for (auto [n_q, n_k] : {std::pair{4, 4}, std::pair{2, 5}, std::pair{5, 2}}) {
    Matrix m = attn::build_mask(n_q, n_k, Matrix(), true, {});
    for (int i = 0; i < n_q; i++)
      for (int j = 0; j < n_k; j++) EXPECT_EQ(m.at(i, j), j <= i ? 1.0f : 0.0f) << i << "," << j;
  }
}

TEST(Masks, KeyPaddingBlocksColumns) {
  Matrix m = attn::build_mask(3, 4, Matrix(), false, {false, false, true, true});
  for (int i = 0; i < 3; i++) {
    EXPECT_EQ(m.at(i, 0), 1.0f);
    EXPECT_EQ(m.at(i, 1), 1.0f);
    EXPECT_EQ(m.at(i, 2), 0.0f);
    EXPECT_EQ(m.at(i, 3), 0.0f);
  }
}

TEST(Masks, ExplicitCausalAndPaddingCombine) {
  Matrix e = from_rows(3, 4,
                       {1, 0, 1, 1,  //
                        1, 1, 1, 0,  //
                        0, 1, 1, 1});
  std::vector<bool> pad = {false, true, false, false};
  Matrix m = attn::build_mask(3, 4, e, true, pad);
  EXPECT_MATRIX_NEAR(m, ref::mask(3, 4, ref::from(e), true, pad), 0);
  // spelled out: row 2 may see keys 0..2, not key 0 (explicit), not key 1 (padding)
  EXPECT_EQ(m.at(2, 0), 0.0f);
  EXPECT_EQ(m.at(2, 1), 0.0f);
  EXPECT_EQ(m.at(2, 2), 1.0f);
  EXPECT_EQ(m.at(2, 3), 0.0f);
}

TEST(Masks, EachFillReplacesOnlyBlockedCells) {
  Matrix s = from_rows(2, 2, {1.5f, -2.0f, 3.0f, 4.0f});
  Matrix m = from_rows(2, 2, {1, 0, 0, 1});
  struct Case {
    MaskFill fill;
    float value;
  };
  for (Case c : {Case{MaskFill::NegInf, -kInf}, Case{MaskFill::LargeNegative, -1e9f},
                 Case{MaskFill::Zero, 0.0f}}) {
    Matrix out = attn::apply_mask(s, m, c.fill);
    EXPECT_EQ(out.at(0, 0), 1.5f);
    EXPECT_EQ(out.at(0, 1), c.value);
    EXPECT_EQ(out.at(1, 0), c.value);
    EXPECT_EQ(out.at(1, 1), 4.0f);
  }
}

TEST(Masks, FullyMaskedRowsListed) {
  Matrix m = from_rows(3, 2, {0, 0, 1, 0, 0, 0});
  EXPECT_EQ(attn::fully_masked_rows(m), (std::vector<int>{0, 2}));
  EXPECT_TRUE(attn::fully_masked_rows(Matrix(2, 2, 1.0f)).empty());
}

// ---- inside the pipeline --------------------------------------------------------------------

attn::AttendArgs padded_args(MaskFill fill) {
  attn::AttendArgs a;
  a.query = ref::random_matrix(3, 4, 21);
  a.key = ref::random_matrix(5, 4, 22);
  a.value = ref::random_matrix(5, 3, 23);
  a.key_padding = {false, false, false, true, true};
  a.mask_fill = fill;
  return a;
}

TEST(Masks, ZeroFillLeaksWeightToPaddedKeys) {
  attn::AttendResult r = attn::attend(padded_args(MaskFill::Zero));
  for (int i = 0; i < 3; i++) {
    EXPECT_GT(r.weights.at(i, 3), 0.0f) << "the classic bug: a 0 score still gets weight";
    EXPECT_GT(r.weights.at(i, 4), 0.0f);
  }
}

TEST(Masks, NegInfFillZeroesPaddedKeysExactly) {
  attn::AttendResult r = attn::attend(padded_args(MaskFill::NegInf));
  for (int i = 0; i < 3; i++) {
    EXPECT_EQ(r.weights.at(i, 3), 0.0f);
    EXPECT_EQ(r.weights.at(i, 4), 0.0f);
  }
  // and equals attention over the first three keys alone
  attn::AttendArgs a = padded_args(MaskFill::NegInf);
  ref::AttendInput in;
  in.q = ref::from(a.query);
  in.k = ref::from(a.key);
  in.v = ref::from(a.value);
  in.k.resize(3);
  in.v.resize(3);
  EXPECT_MATRIX_NEAR(r.output, ref::attend(in).output, 1e-5);
}

TEST(Masks, LargeNegativeFillMatchesReference) {
  attn::AttendArgs a = padded_args(MaskFill::LargeNegative);
  attn::AttendResult r = attn::attend(a);
  ref::AttendInput in;
  in.q = ref::from(a.query);
  in.k = ref::from(a.key);
  in.v = ref::from(a.value);
  in.key_padding = a.key_padding;
  in.fill = -1e9;
  ref::Attention want = ref::attend(in);
  EXPECT_MATRIX_NEAR(r.masked, want.masked, 1e-6);
  EXPECT_MATRIX_NEAR(r.weights, want.weights, 1e-5);
  EXPECT_MATRIX_NEAR(r.output, want.output, 1e-5);
}

TEST(Masks, ReversedCausalLetsTheFutureThrough) {
  int n = 4;
  attn::AttendArgs a;
  a.query = ref::random_matrix(n, 4, 24);
  a.key = ref::random_matrix(n, 4, 25);
  a.value = ref::random_matrix(n, 2, 26);
  a.mask = Matrix(n, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a.mask.at(i, j) = j >= i ? 1.0f : 0.0f;  // the bug: j >= i
  attn::AttendResult reversed = attn::attend(a);
  a.mask = Matrix();
  a.causal = true;
  attn::AttendResult causal = attn::attend(a);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      EXPECT_GT(reversed.weights.at(i, j), 0.0f) << "row " << i << " sees future key " << j;
      EXPECT_EQ(causal.weights.at(i, j), 0.0f);
    }
  EXPECT_EQ(reversed.weights.at(n - 1, n - 1), 1.0f);  // the last query sees only itself
  EXPECT_EQ(causal.weights.at(0, 0), 1.0f);            // the first query sees only itself
}

TEST(Masks, ReverseCausalOptionIsTheMaskKeyAtOrAfterQuery) {
  int n = 5;
  attn::AttendArgs a;
  a.query = ref::random_matrix(n, 3, 27);
  a.key = ref::random_matrix(n, 3, 28);
  a.value = ref::random_matrix(n, 2, 29);
  a.reverse_causal = true;
  attn::AttendResult option = attn::attend(a);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) EXPECT_EQ(option.mask.at(i, j), j >= i ? 1.0f : 0.0f);
  a.reverse_causal = false;
  a.mask = Matrix(n, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a.mask.at(i, j) = j >= i ? 1.0f : 0.0f;
  attn::AttendResult explicit_mask = attn::attend(a);
  EXPECT_EQ(option.weights.data, explicit_mask.weights.data);
  EXPECT_EQ(option.output.data, explicit_mask.output.data);
  // with causal too, only the diagonal is left
  a.mask = Matrix();
  a.causal = a.reverse_causal = true;
  attn::AttendResult both = attn::attend(a);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) EXPECT_EQ(both.weights.at(i, j), i == j ? 1.0f : 0.0f);
}

TEST(Masks, TwoTokenCheck) {
  // Mask one of two keys: the output must be exactly the other key's value.
  attn::AttendArgs a;
  a.query = from_rows(1, 2, {0.3f, -1.2f});
  a.key = from_rows(2, 2, {2.0f, 1.0f, -0.5f, 0.7f});
  a.value = from_rows(2, 3, {1.0f, 2.0f, 3.0f, -4.0f, 5.0f, -6.0f});
  for (int blocked = 0; blocked < 2; blocked++) {
    int other = 1 - blocked;
    a.key_padding = {blocked == 0, blocked == 1};
    attn::AttendResult r = attn::attend(a);
    for (int c = 0; c < 3; c++) EXPECT_EQ(r.output.at(0, c), a.value.at(other, c));
    a.key_padding = {};
    a.mask = Matrix(1, 2, 1.0f);
    a.mask.at(0, blocked) = 0.0f;
    r = attn::attend(a);
    for (int c = 0; c < 3; c++) EXPECT_EQ(r.output.at(0, c), a.value.at(other, c));
    a.mask = Matrix();
  }
}

}  // namespace
