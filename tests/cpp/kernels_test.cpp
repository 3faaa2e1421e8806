// The kernels against double-precision references written here, independently: each scalar
// reference, and the kernel the build dispatches to (the same one natively and in the scalar
// wasm build, the SIMD one in the SIMD wasm build, where this file is compiled in too).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/kernels.h"
#include "test_inputs.h"

namespace {

using namespace attn::kernels;
using test_inputs::dot_bound;
using test_inputs::inputs;

using GemmFn = void (*)(const float*, const float*, float*, int, int, int);
using SoftmaxFn = void (*)(float*, int, int, bool);
using DotRowsFn = void (*)(const float*, const float*, float*, int, int);
struct Kernel {
  const char* name;
  GemmFn abt, ab;
  SoftmaxFn softmax;
  DotRowsFn dot_rows;
};
const Kernel kKernels[] = {
    {"scalar", gemm_abt_scalar, gemm_ab_scalar, softmax_rows_scalar, dot_rows_scalar},
    {"dispatched",
     [](const float* a, const float* b, float* c, int m, int n, int k) { gemm_abt(a, b, c, m, n, k); },
     [](const float* a, const float* b, float* c, int m, int n, int k) { gemm_ab(a, b, c, m, n, k); },
     softmax_rows, dot_rows},
};

TEST(GemmKernel, AbtMatchesDoubleReference) {
  for (const Kernel& kernel : kKernels)
  for (int m : {1, 3, 4, 7, 17}) {
    for (int n : {1, 2, 5, 16, 33}) {
      for (int k : {1, 3, 4, 9, 64, 67}) {
        auto a = inputs(m * k, 1 + m + n + k);
        auto b = inputs(n * k, 7 + m * n * k);
        std::vector<float> c(m * n, -999.0f);
        kernel.abt(a.data(), b.data(), c.data(), m, n, k);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double ref = 0, abs_sum = 0;
            for (int p = 0; p < k; ++p) {
              ref += static_cast<double>(a[i * k + p]) * b[j * k + p];
              abs_sum += std::fabs(static_cast<double>(a[i * k + p]) * b[j * k + p]);
            }
            ASSERT_NEAR(c[i * n + j], ref, dot_bound(abs_sum, k))
                << kernel.name << " " << m << "x" << n << "x" << k;
          }
      }
    }
  }
}

TEST(GemmKernel, AbMatchesDoubleReference) {
  for (const Kernel& kernel : kKernels)
  for (int m : {1, 3, 4, 7, 17}) {
    for (int n : {1, 2, 5, 16, 33}) {
      for (int k : {1, 3, 4, 9, 64, 67}) {
        auto a = inputs(m * k, 3 + m + n + k);
        auto b = inputs(k * n, 11 + m * n * k);
        std::vector<float> c(m * n, -999.0f);
        kernel.ab(a.data(), b.data(), c.data(), m, n, k);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double ref = 0, abs_sum = 0;
            for (int p = 0; p < k; ++p) {
              ref += static_cast<double>(a[i * k + p]) * b[p * n + j];
              abs_sum += std::fabs(static_cast<double>(a[i * k + p]) * b[p * n + j]);
            }
            ASSERT_NEAR(c[i * n + j], ref, dot_bound(abs_sum, k))
                << kernel.name << " " << m << "x" << n << "x" << k;
          }
      }
    }
  }
}

TEST(DotRowsKernel, MatchesDoubleReference) {
  for (const Kernel& kernel : kKernels)
  for (int d = 1; d <= 67; ++d) {
    const int count = 5;
    auto a = inputs(count * d, d);
    auto b = inputs(count * d, d + 100);
    std::vector<float> out(count);
    kernel.dot_rows(a.data(), b.data(), out.data(), count, d);
    for (int i = 0; i < count; ++i) {
      double ref = 0, abs_sum = 0;
      for (int p = 0; p < d; ++p) {
        ref += static_cast<double>(a[i * d + p]) * b[i * d + p];
        abs_sum += std::fabs(static_cast<double>(a[i * d + p]) * b[i * d + p]);
      }
      ASSERT_NEAR(out[i], ref, dot_bound(abs_sum, d)) << kernel.name << " d=" << d;
    }
  }
}

// Double softmax of one row; entries of -inf get weight 0.
std::vector<double> softmax_ref(const float* x, int n, bool stable) {
  double shift = 0;
  if (stable) {
    shift = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < n; ++j) shift = std::fmax(shift, x[j]);
  }
  std::vector<double> w(n);
  double sum = 0;
  for (int j = 0; j < n; ++j) sum += (w[j] = std::exp(static_cast<double>(x[j]) - shift));
  for (double& v : w) v /= sum;
  return w;
}

// Float error of a softmax weight: x - max rounds by up to half an ulp of the spread
// (relative error spread 2^-24 after exp), plus a few roundings in exp, the sum and the division.
double softmax_tol(double ref, double spread) {
  return ref * (spread * 6e-8 + 1e-6) + 1e-37;
}

TEST(SoftmaxKernel, StableMatchesDoubleReference) {
  for (const Kernel& kernel : kKernels)
  for (int cols = 1; cols <= 67; ++cols) {
    const int rows = 3;
    auto x = inputs(rows * cols, cols, -20.0f, 20.0f);
    auto y = x;
    kernel.softmax(y.data(), rows, cols, true);
    for (int r = 0; r < rows; ++r) {
      auto ref = softmax_ref(&x[r * cols], cols, true);
      double total = 0;
      for (int j = 0; j < cols; ++j) {
        total += y[r * cols + j];
        ASSERT_NEAR(y[r * cols + j], ref[j], softmax_tol(ref[j], 40.0)) << kernel.name << " " << cols;
      }
      EXPECT_NEAR(total, 1.0, 1e-5);
    }
  }
}

TEST(SoftmaxKernel, LargeLogitsNaiveOverflowsStableDoesNot) {
  for (const Kernel& kernel : kKernels)
    for (int cols : {1, 3, 4, 10, 16, 67}) {
      auto x = inputs(cols, 5 + cols, 90.0f, 100.0f);
      auto naive = x, stable = x;
      kernel.softmax(naive.data(), 1, cols, false);
      kernel.softmax(stable.data(), 1, cols, true);
      auto ref = softmax_ref(x.data(), cols, true);
      for (int j = 0; j < cols; ++j) {
        EXPECT_TRUE(std::isnan(naive[j])) << kernel.name << " " << naive[j];  // inf / inf
        EXPECT_NEAR(stable[j], ref[j], softmax_tol(ref[j], 10.0)) << kernel.name;
      }
    }
}

TEST(SoftmaxKernel, MinusInfinityGetsExactlyZero) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const Kernel& kernel : kKernels) {
    std::vector<float> x = {1.0f, -inf, 2.0f, -inf, 0.5f, -inf, -inf, 3.0f, -inf};
    auto ref = softmax_ref(x.data(), 9, true);
    kernel.softmax(x.data(), 1, 9, true);
    for (int j : {1, 3, 5, 6, 8}) EXPECT_EQ(x[j], 0.0f) << kernel.name << " j=" << j;
    for (int j : {0, 2, 4, 7}) EXPECT_NEAR(x[j], ref[j], 1e-6 * ref[j]) << kernel.name;
  }
}

}  // namespace
