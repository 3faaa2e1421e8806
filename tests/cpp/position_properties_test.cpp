// Why attention needs positions: without them, shuffling the tokens only permutes the scores
// and the outputs (permutation equivariance); adding sinusoidal encodings breaks that; RoPE makes
// q_m · k_n depend only on the offset m - n. Checked on the engine, against double references.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/attention.h"
#include "core/multihead.h"
#include "core/positional.h"
#include "reference.h"

namespace {

using attn::Matrix;

// Rows of m in the order perm: row i of the result is row perm[i] of m.
Matrix permute_rows(const Matrix& m, const std::vector<int>& perm) {
  Matrix out(static_cast<int>(perm.size()), m.cols);
  for (int i = 0; i < out.rows; i++)
    for (int c = 0; c < m.cols; c++) out.at(i, c) = m.at(perm[i], c);
  return out;
}

Matrix add(const Matrix& a, const Matrix& b) {
  Matrix out = a;
  for (std::size_t i = 0; i < out.data.size(); i++) out.data[i] += b.data[i];
  return out;
}

attn::AttendResult self_attend(const Matrix& x) {
  attn::AttendArgs a;
  a.query = a.key = a.value = x;
  return attn::attend(a);
}

// 我 爱 你 -> 你 爱 我 is the permutation (2, 1, 0); a longer shuffle as well.
const std::vector<std::vector<int>> kPerms = {{2, 1, 0}, {3, 0, 4, 1, 2}};

TEST(PositionProperties, WithoutPositionShufflingOnlyPermutesScoresAndOutputs) {
  for (const auto& perm : kPerms) {
    const int n = static_cast<int>(perm.size());
    Matrix x = ref::random_matrix(n, 6, 301 + n);
    attn::AttendResult r = self_attend(x);
    attn::AttendResult p = self_attend(permute_rows(x, perm));
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        // the same products summed in the same order: exactly equal
        EXPECT_EQ(p.scores.at(i, j), r.scores.at(perm[i], perm[j])) << i << "," << j;
        EXPECT_NEAR(p.weights.at(i, j), r.weights.at(perm[i], perm[j]), 1e-6);
      }
      for (int c = 0; c < x.cols; c++)
        EXPECT_NEAR(p.output.at(i, c), r.output.at(perm[i], c), 1e-6);
    }
  }
}

TEST(PositionProperties, LearnedProjectionsAndHeadsKeepTheEquivariance) {
  const std::vector<int> perm = {2, 1, 0};
  Matrix x = ref::random_matrix(3, 8, 311);
  attn::MultiHeadArgs a;
  a.heads = 2;
  a.wq = ref::random_matrix(8, 8, 312);
  a.wk = ref::random_matrix(8, 8, 313);
  a.wv = ref::random_matrix(8, 8, 314);
  a.wo = ref::random_matrix(8, 8, 315);
  a.query = a.key = a.value = x;
  attn::MultiHeadResult r = attn::multi_head(a);
  a.query = a.key = a.value = permute_rows(x, perm);
  attn::MultiHeadResult p = attn::multi_head(a);
  for (int i = 0; i < 3; i++)
    for (int c = 0; c < 8; c++) EXPECT_NEAR(p.output.at(i, c), r.output.at(perm[i], c), 1e-5);
}

TEST(PositionProperties, SinusoidalEncodingsBreakTheEquivariance) {
  for (const auto& perm : kPerms) {
    const int n = static_cast<int>(perm.size());
    Matrix x = ref::random_matrix(n, 6, 321 + n);
    Matrix pe = attn::sinusoidal_encoding(n, 6);
    attn::AttendResult r = self_attend(add(x, pe));
    attn::AttendResult p = self_attend(add(permute_rows(x, perm), pe));
    // the engine agrees with a double reference on the encoded inputs...
    ref::AttendInput in;
    in.q = in.k = in.v = ref::from(add(permute_rows(x, perm), pe));
    EXPECT_TRUE(ref::matrix_near(p.scores, ref::attend(in).scores, 1e-5));
    // ...and the shuffled sentence is no longer a permutation of the first
    double largest = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        largest = std::fmax(largest, std::fabs(p.scores.at(i, j) - r.scores.at(perm[i], perm[j])));
    EXPECT_GT(largest, 0.05) << "n = " << n;
  }
}

// q_m · k_n of the engine's RoPE against the closed form: with pairs (a_i, b_i) of q and (c_i, d_i)
// of k and θ_i = 10000^(-2i/d), q_m · k_n = Σ_i (a_i c_i + b_i d_i) cos((m - n) θ_i)
//                                          + (a_i d_i - b_i c_i) sin((m - n) θ_i).
TEST(PositionProperties, RopeDotIsAFunctionOfTheOffsetOnly) {
  const int d = 8;
  Matrix q = ref::random_matrix(1, d, 331), k = ref::random_matrix(1, d, 332);
  auto closed_form = [&](int offset) {
    double s = 0;
    for (int i = 0; 2 * i < d; i++) {
      double th = offset * std::pow(10000.0, -2.0 * i / d);
      double a = q.at(0, 2 * i), b = q.at(0, 2 * i + 1), c = k.at(0, 2 * i), e = k.at(0, 2 * i + 1);
      s += (a * c + b * e) * std::cos(th) + (a * e - b * c) * std::sin(th);
    }
    return s;
  };
  auto engine_dot = [&](int m, int n) {
    Matrix qm = attn::rope(q, m), kn = attn::rope(k, n);
    double s = 0;
    for (int c = 0; c < d; c++) s += static_cast<double>(qm.at(0, c)) * kn.at(0, c);
    return s;
  };
  for (int m = 0; m < 12; m++)
    for (int n = 0; n < 12; n++)
      EXPECT_NEAR(engine_dot(m, n), closed_form(m - n), 1e-4) << m << "," << n;
  // two pairs with the same offset give the same number; another offset gives another
  EXPECT_NEAR(engine_dot(5, 2), engine_dot(9, 6), 1e-4);
  EXPECT_GT(std::fabs(engine_dot(5, 2) - engine_dot(5, 3)), 1e-3);
}

}  // namespace
