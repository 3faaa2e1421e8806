// Stage 1-2: score functions and scaling, against the double reference.
#include <gtest/gtest.h>

#include <cmath>

#include "core/scores.h"
#include "reference.h"

namespace {

using attn::Matrix;

TEST(Scores, DotByHand) {
  Matrix q(1, 2), k(2, 2);
  q.data = {1, 2};
  k.data = {3, 4, 5, 6};
  Matrix s = attn::score_dot(q, k);
  ASSERT_EQ(s.rows, 1);
  ASSERT_EQ(s.cols, 2);
  EXPECT_EQ(s.at(0, 0), 11.0f);  // 1*3 + 2*4
  EXPECT_EQ(s.at(0, 1), 17.0f);  // 1*5 + 2*6
}

TEST(Scores, DotMatchesReference) {
  for (int d : {1, 3, 4, 7, 16, 33}) {
    Matrix q = ref::random_matrix(5, d, 1), k = ref::random_matrix(7, d, 2);
    EXPECT_MATRIX_NEAR(attn::score_dot(q, k), ref::dot_scores(ref::from(q), ref::from(k)), 1e-5)
        << "d = " << d;
  }
}

TEST(Scores, ScaledDividesBySqrtDk) {
  Matrix q = ref::random_matrix(4, 64, 3, -3, 3), k = ref::random_matrix(6, 64, 4, -3, 3);
  Matrix scaled = attn::score_scaled(attn::score_dot(q, k), 64);
  EXPECT_MATRIX_NEAR(scaled, ref::divide(ref::dot_scores(ref::from(q), ref::from(k)), 8.0), 1e-5);
}

TEST(Scores, TemperatureDivides) {
  Matrix s = ref::random_matrix(3, 5, 5, -4, 4);
  for (float t : {0.1f, 0.5f, 1.0f, 2.0f, 10.0f}) {
    EXPECT_MATRIX_NEAR(attn::apply_temperature(s, t), ref::divide(ref::from(s), t), 1e-6)
        << "temperature " << t;
  }
}

TEST(Scores, AdditiveByHand) {
  // one hidden unit: score = v tanh(wq q + wk k) = 2 tanh(0.5 + 0.25)
  Matrix q(1, 1, 0.5f), k(1, 1, 0.25f), wq(1, 1, 1.0f), wk(1, 1, 1.0f), v(1, 1, 2.0f);
  Matrix s = attn::score_additive(q, k, wq, wk, v);
  EXPECT_NEAR(s.at(0, 0), 2.0 * std::tanh(0.75), 1e-6);
}

TEST(Scores, AdditiveWithDifferentQueryAndKeySizes) {
  int d_q = 3, d_k = 5, h = 4;
  Matrix q = ref::random_matrix(2, d_q, 6), k = ref::random_matrix(6, d_k, 7);
  Matrix wq = ref::random_matrix(h, d_q, 8), wk = ref::random_matrix(h, d_k, 9);
  Matrix v = ref::random_matrix(1, h, 10);
  Matrix s = attn::score_additive(q, k, wq, wk, v);
  EXPECT_MATRIX_NEAR(s,
                     ref::additive_scores(ref::from(q), ref::from(k), ref::from(wq), ref::from(wk),
                                          ref::from(v)[0]),
                     1e-5);
}

TEST(Scores, GeneralMatchesReference) {
  Matrix q = ref::random_matrix(3, 3, 11), k = ref::random_matrix(5, 4, 12);
  Matrix w = ref::random_matrix(3, 4, 13);
  EXPECT_MATRIX_NEAR(attn::score_general(q, k, w),
                     ref::general_scores(ref::from(q), ref::from(k), ref::from(w)), 1e-5);
}

TEST(Scores, GeneralWithIdentityIsDot) {
  Matrix q = ref::random_matrix(3, 4, 14), k = ref::random_matrix(5, 4, 15);
  Matrix eye(4, 4);
  for (int i = 0; i < 4; i++) eye.at(i, i) = 1.0f;
  EXPECT_MATRIX_NEAR(attn::score_general(q, k, eye), ref::dot_scores(ref::from(q), ref::from(k)),
                     1e-6);
}

}  // namespace
