// Linear attention (φ(x) = elu(x) + 1) against a double-precision reference written here from
// the formula, row by row over the keys each query may see (not from linear_attention.cpp):
// without and with causal, odd sizes and n_q != n_k, chunk edges, zero rows, the bytes it
// reports, the checks; and output_error against the same error computed in double here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/flash.h"
#include "core/linear_attention.h"
#include "reference.h"

namespace {

using attn::LinearArgs;
using attn::Matrix;

double phi(double x) { return x > 0 ? x + 1 : std::exp(x); }

// out_i = Σ_j (φ(q_i)·φ(k_j)) v_j / Σ_j φ(q_i)·φ(k_j) over the keys j query i may see.
ref::Mat linear_reference(const Matrix& q, const Matrix& k, const Matrix& v, bool causal) {
  ref::Mat out(q.rows, v.cols);
  for (int i = 0; i < q.rows; i++) {
    double den = 0;
    std::vector<double> num(v.cols, 0.0);
    const int last = causal ? std::min(i, k.rows - 1) : k.rows - 1;
    for (int j = 0; j <= last; j++) {
      double w = 0;
      for (int c = 0; c < q.cols; c++) w += phi(q.at(i, c)) * phi(k.at(j, c));
      den += w;
      for (int c = 0; c < v.cols; c++) num[c] += w * v.at(j, c);
    }
    for (int c = 0; c < v.cols; c++) out(i, c) = num[c] / den;
  }
  return out;
}

LinearArgs random_linear(int n_q, int n_k, int d, int d_v, std::uint32_t seed, bool causal) {
  LinearArgs a;
  a.query = ref::random_matrix(n_q, d, seed, -2, 2);
  a.key = ref::random_matrix(n_k, d, seed + 1, -2, 2);
  a.value = ref::random_matrix(n_k, d_v, seed + 2, -2, 2);
  a.causal = causal;
  return a;
}

void expect_near_reference(const LinearArgs& a, double tol) {
  ASSERT_EQ(attn::check_linear_attention(a), "");
  attn::LinearResult r = attn::linear_attention(a);
  ASSERT_EQ(r.output.rows, a.query.rows);
  ASSERT_EQ(r.output.cols, a.value.cols);
  EXPECT_TRUE(r.zero_rows.empty());
  ref::Mat want = linear_reference(a.query, a.key, a.value, a.causal);
  for (int i = 0; i < want.rows(); i++)
    for (int c = 0; c < want.cols(); c++)
      ASSERT_NEAR(r.output.at(i, c), want(i, c), tol * std::max(1.0, std::fabs(want(i, c))))
          << "row " << i << " column " << c;
}

TEST(LinearAttention, EqualsTheDoubleReferenceWithoutCausal) {
  // sizes below, at and above a chunk (64), odd d and d_v, n_q != n_k
  for (auto [n_q, n_k, d, d_v] : std::vector<std::array<int, 4>>{
           {1, 1, 1, 1}, {3, 5, 7, 2}, {63, 64, 9, 5}, {65, 130, 16, 33}, {200, 17, 64, 64}}) {
    SCOPED_TRACE(std::to_string(n_q) + " " + std::to_string(n_k));
    expect_near_reference(random_linear(n_q, n_k, d, d_v, 7 + n_q, false), 2e-5);
  }
}

TEST(LinearAttention, CausalSumsOverThePrefixOnly) {
  for (auto [n_q, n_k, d, d_v] : std::vector<std::array<int, 4>>{{1, 1, 3, 3},
                                                                 {5, 5, 3, 4},
                                                                 {64, 64, 8, 8},
                                                                 {129, 129, 11, 7},
                                                                 {150, 70, 5, 6},
                                                                 {40, 100, 6, 3}}) {
    SCOPED_TRACE(std::to_string(n_q) + " " + std::to_string(n_k));
    expect_near_reference(random_linear(n_q, n_k, d, d_v, 11 + n_k, true), 2e-5);
  }
}

TEST(LinearAttention, CausalFirstRowIsTheFirstValue) {
  LinearArgs a = random_linear(70, 70, 4, 3, 3, true);
  attn::LinearResult r = attn::linear_attention(a);
  for (int c = 0; c < 3; c++) EXPECT_FLOAT_EQ(r.output.at(0, c), a.value.at(0, c));
}

TEST(LinearAttention, IsNotSoftmaxAttention) {
  // a different model: its output differs from exact attention's by far more than rounding
  LinearArgs a = random_linear(128, 128, 16, 16, 5, false);
  attn::FlashArgs f;
  f.query = a.query;
  f.key = a.key;
  f.value = a.value;
  attn::OutputError e =
      attn::output_error(attn::linear_attention(a).output, attn::flash_attend(f).output);
  EXPECT_GT(e.max_abs, 1e-2);
  EXPECT_GT(e.relative, 1e-2);
  EXPECT_LT(e.relative, 1.0);
}

TEST(LinearAttention, ReportsItsStateAndChunkBytes) {
  LinearArgs a = random_linear(300, 300, 24, 40, 9, false);
  attn::LinearResult r = attn::linear_attention(a);
  EXPECT_EQ(r.state_bytes, 4u * (24 * 40 + 24));  // S (d_k, d_v) and z (d_k)
  const std::size_t c = attn::kLinearChunk;
  EXPECT_EQ(r.chunk_bytes, 4u * (3 * c * 24 + 24 * 40 + c * c + c * 40 + c));
}

TEST(LinearAttention, VeryNegativeEntriesKeepTheirPrecision) {
  // φ(-50)² = e^-100 is below float32's normal range: the shifts keep every row exact
  for (bool causal : {false, true}) {
    LinearArgs a = random_linear(70, 70, 3, 2, 8, causal);
    for (float& x : a.query.data) x -= 50;
    for (float& x : a.key.data) x -= 50;
    a.query.at(5, 0) = -200;
    a.query.at(5, 1) = -199;
    a.query.at(5, 2) = -201;
    expect_near_reference(a, 2e-5);
  }
}

TEST(LinearAttention, AnUnderflowedDenominatorGivesAZeroRow) {
  // query 1's large feature meets keys whose feature is e^-200 = 0 in float32, and its other
  // feature, e^-200 too, meets the keys' large one: φ(q_1)ᵀ z is 0, so no weights
  LinearArgs a = random_linear(3, 4, 2, 2, 4, false);
  for (int j = 0; j < 4; j++) {
    a.key.at(j, 0) = -200;
    a.key.at(j, 1) = 0;
  }
  a.query.at(1, 0) = 0;
  a.query.at(1, 1) = -200;
  attn::LinearResult r = attn::linear_attention(a);
  EXPECT_EQ(r.zero_rows, std::vector<int>{1});
  EXPECT_EQ(r.output.at(1, 0), 0.0f);
  EXPECT_EQ(r.output.at(1, 1), 0.0f);
  for (float x : r.output.data) EXPECT_TRUE(std::isfinite(x));
}

TEST(LinearAttention, RefusesBadInputNamingTheArgument) {
  LinearArgs a = random_linear(4, 5, 3, 2, 1, false);
  LinearArgs b = a;
  b.key = ref::random_matrix(5, 4, 2);
  EXPECT_EQ(attn::check_linear_attention(b),
            "key: expected 3 columns (d_k must equal the query's d_q), got 4");
  b = a;
  b.value = ref::random_matrix(4, 2, 3);
  EXPECT_EQ(attn::check_linear_attention(b), "value: expected 5 rows (one per key), got 4");
  b = a;
  b.query.at(2, 1) = std::nanf("");
  EXPECT_NE(attn::check_linear_attention(b).find("query"), std::string::npos);
  b = a;
  b.key.at(0, 0) = 1e19f;
  b.query.at(0, 0) = 1e19f;
  EXPECT_EQ(
      attn::check_linear_attention(b).rfind("query: linear attention's sums overflow float32", 0),
      0u)
      << attn::check_linear_attention(b);
  // a tiny φ(q) does not hide a state that overflows: S = φ(k) v = 511 × 1e38
  b = random_linear(1, 1, 1, 2, 1, false);
  b.query.at(0, 0) = -10;
  b.key.at(0, 0) = 510;
  b.value.at(0, 0) = 1e38f;
  EXPECT_EQ(
      attn::check_linear_attention(b).rfind("query: linear attention's sums overflow float32", 0),
      0u)
      << attn::check_linear_attention(b);
  b = a;
  b.query = Matrix(attn::limits::kMaxFlashTokens + 1, 3);
  EXPECT_NE(attn::check_linear_attention(b).find("16384"), std::string::npos);
}

TEST(LinearAttention, LargestAcceptedInputsGiveFiniteOutputs) {
  // just inside the bound: entries near the largest the check allows stay finite
  LinearArgs a = random_linear(8, 8, 2, 2, 6, true);
  for (float& x : a.query.data) x = 1e9f;
  for (float& x : a.key.data) x = 1e9f;
  for (float& x : a.value.data) x = 1e18f;
  ASSERT_EQ(attn::check_linear_attention(a), "");
  for (float x : attn::linear_attention(a).output.data) EXPECT_TRUE(std::isfinite(x));
}

TEST(OutputError, MaxAbsAndRelativeInDouble) {
  Matrix got = ref::random_matrix(5, 3, 1), want = ref::random_matrix(5, 3, 2);
  double max_abs = 0, d2 = 0, w2 = 0;
  for (std::size_t c = 0; c < got.data.size(); c++) {
    double d = static_cast<double>(got.data[c]) - want.data[c];
    max_abs = std::max(max_abs, std::fabs(d));
    d2 += d * d;
    w2 += static_cast<double>(want.data[c]) * want.data[c];
  }
  attn::OutputError e = attn::output_error(got, want);
  EXPECT_DOUBLE_EQ(e.max_abs, max_abs);
  EXPECT_NEAR(e.relative, std::sqrt(d2 / w2), 1e-15);
  EXPECT_EQ(attn::check_output_error(got, Matrix(5, 4)),
            "reference: expected shape of the output = (5, 3), got (5, 4)");
}

TEST(FlashAttention, ReportsTheBytesOfItsTiles) {
  for (int block : {1, 8, 48, 64}) {
    attn::FlashArgs f;
    f.query = ref::random_matrix(100, 12, 1);
    f.key = ref::random_matrix(90, 12, 2);
    f.value = ref::random_matrix(90, 20, 3);
    f.block_size = block;
    attn::FlashResult r = attn::flash_attend(f);
    // the (B, B) tile, the (B, d_v) product, and per row m, l, t and the rescale factor
    const std::size_t b = block;
    EXPECT_EQ(r.tile_bytes, 4 * (b * b + b * 20 + 4 * b)) << block;
    // Kᵀ and V in panels of 8 columns (zero-padded): the whole Kᵀ when tiles start on panels,
    // else one key tile's; V whole
    auto up8 = [](std::size_t x) { return (x + 7) / 8 * 8; };
    const std::size_t kt = block % 8 == 0 ? up8(90) * 12 : up8(b) * 12;
    EXPECT_EQ(r.packed_bytes, 4 * (kt + up8(20) * 90)) << block;
  }
}

}  // namespace
