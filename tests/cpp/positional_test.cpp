// Positional encodings: sinusoidal values at known positions, and RoPE's relative property.
#include <gtest/gtest.h>

#include <cmath>

#include "core/positional.h"
#include "reference.h"

namespace {

using attn::Matrix;

TEST(Positional, SinusoidalAtPositionZeroIsZeroOne) {
  Matrix pe = attn::sinusoidal_encoding(3, 8);
  for (int c = 0; c < 8; c++) EXPECT_EQ(pe.at(0, c), c % 2 == 0 ? 0.0f : 1.0f);
}

TEST(Positional, SinusoidalAtKnownPositions) {
  Matrix pe = attn::sinusoidal_encoding(4, 6);
  EXPECT_NEAR(pe.at(1, 0), std::sin(1.0), 1e-6);
  EXPECT_NEAR(pe.at(1, 1), std::cos(1.0), 1e-6);
  EXPECT_NEAR(pe.at(3, 0), std::sin(3.0), 1e-6);
  EXPECT_NEAR(pe.at(2, 2), std::sin(2.0 / std::pow(10000.0, 2.0 / 6)), 1e-6);
  EXPECT_NEAR(pe.at(2, 5), std::cos(2.0 / std::pow(10000.0, 4.0 / 6)), 1e-6);
}

TEST(Positional, SinusoidalMatchesReference) {
  for (int d : {1, 2, 5, 16, 64}) {
    for (float base : {10000.0f, 100.0f}) {
      EXPECT_MATRIX_NEAR(attn::sinusoidal_encoding(50, d, base), ref::sinusoidal(50, d, base), 1e-6)
          << "d = " << d << ", base = " << base;
    }
  }
}

TEST(Positional, SinusoidalOddWidthEndsWithSine) {
  Matrix pe = attn::sinusoidal_encoding(3, 5);
  EXPECT_NEAR(pe.at(2, 4), std::sin(2.0 / std::pow(10000.0, 4.0 / 5)), 1e-6);
}

TEST(Positional, RopeMatchesReference) {
  Matrix x = ref::random_matrix(10, 8, 90);
  for (int first : {0, 3, 500}) {
    EXPECT_MATRIX_NEAR(attn::rope(x, first), ref::rope(ref::from(x), first, 10000.0), 1e-5)
        << "first = " << first;
  }
}

TEST(Positional, RopeAtPositionZeroIsIdentityAndKeepsNorms) {
  Matrix x = ref::random_matrix(5, 6, 91);
  Matrix r = attn::rope(x, 0);
  for (int c = 0; c < 6; c++) EXPECT_EQ(r.at(0, c), x.at(0, c));
  for (int i = 0; i < 5; i++) {
    double a = 0, b = 0;
    for (int c = 0; c < 6; c++) {
      a += x.at(i, c) * x.at(i, c);
      b += r.at(i, c) * r.at(i, c);
    }
    EXPECT_NEAR(a, b, 1e-5);
  }
}

TEST(Positional, RopeFirstPositionShiftsRows) {
  Matrix x = ref::random_matrix(6, 4, 92);
  Matrix all = attn::rope(x, 0);
  Matrix tail(1, 4);
  for (int c = 0; c < 4; c++) tail.at(0, c) = x.at(4, c);
  Matrix shifted = attn::rope(tail, 4);
  for (int c = 0; c < 4; c++) EXPECT_NEAR(shifted.at(0, c), all.at(4, c), 1e-6);
}

// q rotated to position m, dotted with k rotated to position n
double rotated_dot(const Matrix& q, const Matrix& k, int m, int n) {
  Matrix qm = attn::rope(q, m), kn = attn::rope(k, n);
  double s = 0;
  for (int c = 0; c < q.cols; c++) s += static_cast<double>(qm.at(0, c)) * kn.at(0, c);
  return s;
}

TEST(Positional, RopeDotDependsOnlyOnTheOffset) {
  Matrix q = ref::random_matrix(1, 16, 93), k = ref::random_matrix(1, 16, 94);
  for (int offset : {0, 1, 3, -2, 7}) {
    double first = rotated_dot(q, k, 10 + offset, 10);
    for (int n : {0, 5, 37, 200}) {
      if (n + offset < 0) continue;
      EXPECT_NEAR(rotated_dot(q, k, n + offset, n), first, 2e-4)
          << "m - n = " << offset << ", n = " << n;
    }
  }
  // and it really does change with the offset
  EXPECT_GT(std::fabs(rotated_dot(q, k, 3, 0) - rotated_dot(q, k, 0, 0)), 1e-3);
}

}  // namespace
