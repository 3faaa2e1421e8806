// Stage 4: softmax, entropy, Jacobian, hard and Gumbel attention.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/rng.h"
#include "core/softmax.h"
#include "kernels/kernels.h"
#include "reference.h"

namespace {

using attn::Matrix;
constexpr float kInf = std::numeric_limits<float>::infinity();

Matrix row(std::vector<float> values) {
  Matrix m(1, static_cast<int>(values.size()));
  m.data = std::move(values);
  return m;
}

TEST(Softmax, HandComputedExample) {
  Matrix w = attn::softmax_rows(row({2.6f, 1.2f, 6.1f, 2.0f}));
  const double want[] = {0.0286, 0.0071, 0.9486, 0.0157};
  double sum = 0;
  for (int j = 0; j < 4; j++) {
    EXPECT_NEAR(w.at(0, j), want[j], 1e-4);
    sum += w.at(0, j);
  }
  EXPECT_NEAR(sum, 1.0, 1e-6);
}

TEST(Softmax, MatchesReferenceAtManyWidths) {
  for (int n = 1; n <= 67; n += 3) {
    Matrix s = ref::random_matrix(4, n, 100 + n, -10, 10);
    Matrix w = attn::softmax_rows(s);
    EXPECT_MATRIX_NEAR(w, ref::softmax(ref::from(s)), 1e-5) << "n = " << n;
    for (int i = 0; i < 4; i++) {
      double sum = 0;
      for (int j = 0; j < n; j++) sum += w.at(i, j);
      EXPECT_NEAR(sum, 1.0, 1e-5);
    }
  }
}

TEST(Softmax, NaiveEqualsStableForSmallLogits) {
  Matrix s = ref::random_matrix(3, 9, 31, -5, 5);
  EXPECT_MATRIX_NEAR(attn::softmax_rows(s, false), ref::softmax(ref::from(s)), 1e-5);
}

TEST(Softmax, LargeLogitsOverflowOnlyTheNaiveForm) {
  // exp overflows float32 past ~88.72: logits in [90, 100] break the naive form.
  Matrix s = ref::random_matrix(5, 17, 32, 90, 100);
  Matrix naive = attn::softmax_rows(s, false);
  for (int i = 0; i < naive.rows; i++) {
    bool broken = false;
    for (int j = 0; j < naive.cols; j++) broken = broken || !std::isfinite(naive.at(i, j));
    EXPECT_TRUE(broken) << "row " << i << " of the naive softmax should hold inf or NaN";
  }
  Matrix stable = attn::softmax_rows(s, true);
  for (float x : stable.data) EXPECT_TRUE(std::isfinite(x));
  EXPECT_MATRIX_NEAR(stable, ref::softmax(ref::from(s)), 1e-5);
}

TEST(Softmax, NegInfEntriesGetExactlyZero) {
  Matrix w = attn::softmax_rows(row({1.0f, -kInf, 2.0f, -kInf}));
  EXPECT_EQ(w.at(0, 1), 0.0f);
  EXPECT_EQ(w.at(0, 3), 0.0f);
  EXPECT_NEAR(w.at(0, 0) + w.at(0, 2), 1.0, 1e-6);
  EXPECT_NEAR(w.at(0, 2), 1.0 / (1.0 + std::exp(-1.0)), 1e-6);
}

TEST(Softmax, AllNegInfRowIsZeroWhenStableNaNWhenNaive) {
  Matrix s(2, 3, -kInf);
  s.at(1, 0) = 0.5f;  // row 1 has one allowed key
  Matrix stable = attn::softmax_rows(s, true);
  for (int j = 0; j < 3; j++) EXPECT_EQ(stable.at(0, j), 0.0f);
  EXPECT_EQ(stable.at(1, 0), 1.0f);
  Matrix naive = attn::softmax_rows(s, false);
  for (int j = 0; j < 3; j++) EXPECT_TRUE(std::isnan(naive.at(0, j)));  // 0 / 0
}

TEST(Softmax, EntropyOfUniformRowIsLogN) {
  for (int n : {1, 2, 4, 10, 64}) {
    Matrix w(1, n, 1.0f / n);
    EXPECT_NEAR(attn::row_entropy(w)[0], std::log(static_cast<double>(n)), 1e-5) << n;
  }
}

TEST(Softmax, EntropyOfOneHotIsZeroAndOfZeroRowIsZero) {
  EXPECT_EQ(attn::row_entropy(row({0, 1, 0}))[0], 0.0f);
  EXPECT_EQ(attn::row_entropy(row({0, 0, 0}))[0], 0.0f);
  EXPECT_TRUE(std::isnan(attn::row_entropy(row({0.5f, std::nanf("")}))[0]));
}

TEST(Softmax, EntropyMatchesReference) {
  Matrix w = attn::softmax_rows(ref::random_matrix(6, 11, 33, -3, 3));
  std::vector<float> h = attn::row_entropy(w);
  std::vector<double> want = ref::entropy(ref::from(w));
  ASSERT_EQ(h.size(), want.size());
  for (std::size_t i = 0; i < h.size(); i++) EXPECT_NEAR(h[i], want[i], 1e-5);
}

TEST(Softmax, JacobianRowsSumToZeroAndMatchReference) {
  Matrix w = attn::softmax_rows(ref::random_matrix(1, 7, 34, -2, 2));
  std::vector<float> p(w.data.begin(), w.data.end());
  Matrix j = attn::softmax_jacobian(p);
  ASSERT_EQ(j.rows, 7);
  ASSERT_EQ(j.cols, 7);
  std::vector<double> pd(p.begin(), p.end());
  EXPECT_MATRIX_NEAR(j, ref::jacobian(pd), 1e-6);
  for (int a = 0; a < 7; a++) {
    double sum = 0;
    for (int b = 0; b < 7; b++) sum += j.at(a, b);
    EXPECT_NEAR(sum, 0.0, 1e-6) << "row " << a;
    for (int b = 0; b < 7; b++) EXPECT_EQ(j.at(a, b), j.at(b, a));  // symmetric
  }
}

TEST(Softmax, JacobianOfOneHotVanishes) {
  Matrix j = attn::softmax_jacobian({0, 1, 0, 0});
  for (float x : j.data) EXPECT_EQ(x, 0.0f);  // a saturated softmax passes no gradient
}

TEST(Softmax, HardAttentionIsOneHotAtFirstArgmax) {
  Matrix s(3, 4);
  s.data = {0.1f,  2.0f,  -1.0f, 0.5f,  //
            3.0f,  3.0f,  1.0f,  3.0f,  // tie: the first wins
            -kInf, -2.0f, -kInf, -3.0f};
  Matrix h = attn::hard_attention(s);
  const float want[] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
  for (int c = 0; c < 12; c++) EXPECT_EQ(h.data[c], want[c]) << "cell " << c;
}

// The uniform draws the engine promises to use: stream 0 of the seed, from draw 0.
ref::Mat uniform_draws(int rows, int cols, std::uint64_t seed) {
  Matrix u(rows, cols);
  attn::Rng(seed, 0).uniform(u.data.data(), u.data.size());
  return ref::from(u);
}

TEST(Softmax, GumbelMatchesReferenceForTheSameDraws) {
  Matrix s = ref::random_matrix(4, 6, 35, -2, 2);
  for (float tau : {0.5f, 1.0f, 3.0f}) {
    Matrix g = attn::gumbel_softmax(s, tau, 42);
    EXPECT_MATRIX_NEAR(g, ref::gumbel_softmax(ref::from(s), tau, uniform_draws(4, 6, 42)), 1e-4)
        << "tau " << tau;
    for (int i = 0; i < 4; i++) {
      double sum = 0;
      for (int j = 0; j < 6; j++) {
        EXPECT_GE(g.at(i, j), 0.0f);
        sum += g.at(i, j);
      }
      EXPECT_NEAR(sum, 1.0, 1e-5);
    }
  }
}

TEST(Softmax, GumbelIsSeededAndSharpensAsTauFalls) {
  Matrix s = ref::random_matrix(8, 5, 36, -1, 1);
  Matrix a = attn::gumbel_softmax(s, 1.0f, 7), b = attn::gumbel_softmax(s, 1.0f, 7);
  EXPECT_EQ(a.data, b.data);
  EXPECT_NE(a.data, attn::gumbel_softmax(s, 1.0f, 8).data);
  Matrix sharp = attn::gumbel_softmax(s, 0.001f, 7);
  for (int i = 0; i < sharp.rows; i++) {
    float mx = 0;
    for (int j = 0; j < sharp.cols; j++) mx = std::max(mx, sharp.at(i, j));
    EXPECT_GT(mx, 0.99f) << "row " << i;
  }
}

}  // namespace

// The softmax lesson's call: the softmax of scores / temperature and each row's entropy, against
// the double reference; the naive form's overflow is flagged, the stable one's never.
TEST(Softmax, AtTemperatureMatchesTheReference) {
  const attn::Matrix scores = ref::random_matrix(3, 5, 11, -4, 4);
  for (double t : {0.25, 1.0, 3.0}) {
    for (bool stable : {true, false}) {
      const attn::TemperatureSoftmax r =
          attn::softmax_at_temperature(scores, static_cast<float>(t), stable);
      const ref::Mat want = ref::softmax(ref::from(scores) / t);
      EXPECT_TRUE(ref::matrix_near(r.weights, want, 1e-6)) << t;
      const std::vector<double> h = ref::entropy(want);
      ASSERT_EQ(r.entropy.size(), h.size());
      for (std::size_t i = 0; i < h.size(); i++) EXPECT_NEAR(r.entropy[i], h[i], 1e-5);
      EXPECT_FALSE(r.overflow);
    }
  }
  attn::Matrix big(1, 3);
  big.data = {1, 2, 1000};
  EXPECT_TRUE(attn::softmax_at_temperature(big, 1, false).overflow);
  EXPECT_FALSE(attn::softmax_at_temperature(big, 1, true).overflow);
  EXPECT_EQ(attn::check_softmax_at_temperature(big, 1), "");
  EXPECT_EQ(attn::check_softmax_at_temperature(big, 1e-37),
            "temperature: expected a number from 1e-30 to 1e+30, got 1e-37");
  big.data[0] = std::nanf("");
  EXPECT_EQ(attn::check_softmax_at_temperature(big, 1).rfind("scores: ", 0), 0u);
}
