// The kernels against double-precision references written here, independently: each scalar
// reference, and the kernel the build dispatches to (the same one natively and in the scalar
// wasm build, the SIMD one in the SIMD wasm build, where this file is compiled in too).
#include <algorithm>
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
     [](const float* a, const float* b, float* c, int m, int n, int k) {
       gemm_abt(a, b, c, m, n, k);
     },
     [](const float* a, const float* b, float* c, int m, int n, int k) {
       gemm_ab(a, b, c, m, n, k);
     },
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

// A packed operand (the dispatched kernel): c = a b gives gemm_ab's floats, and with bᵀ packed
// gemm_abt's; both within float rounding of the double product. Rows and columns of b from
// row0 and col0 on give the product with that part of b.
TEST(GemmKernel, PackedMatchesGemmAndDoubleReference) {
  for (int m : {1, 3, 4, 7, 17})
    for (int n : {1, 2, 5, 16, 33})
      for (int k : {1, 3, 4, 9, 64, 67}) {
        auto a = inputs(m * k, 5 + m + n + k);
        auto b = inputs(k * n, 13 + m * n * k);   // (k, n)
        auto bt = inputs(n * k, 17 + m * n * k);  // (n, k)
        std::vector<float> packed(PackedMatrix::size(k, n)), want(m * n), got(m * n);
        gemm_ab(a.data(), b.data(), want.data(), m, n, k);
        gemm_packed(a.data(), k, pack_b(b.data(), k, n, n, packed.data()), 0, 0, got.data(), n, m,
                    n, k);
        ASSERT_EQ(got, want) << "ab " << m << "x" << n << "x" << k;
        gemm_abt(a.data(), bt.data(), want.data(), m, n, k);
        gemm_packed(a.data(), k, pack_bt(bt.data(), n, k, k, packed.data()), 0, 0, got.data(), n, m,
                    n, k);
        ASSERT_EQ(got, want) << "abt " << m << "x" << n << "x" << k;
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double ref = 0, abs_sum = 0;
            for (int p = 0; p < k; ++p) {
              ref += static_cast<double>(a[i * k + p]) * bt[j * k + p];
              abs_sum += std::fabs(static_cast<double>(a[i * k + p]) * bt[j * k + p]);
            }
            ASSERT_NEAR(got[i * n + j], ref, dot_bound(abs_sum, k)) << m << "x" << n << "x" << k;
          }
      }
  // a range of b: rows 2 .. 2 + k and columns 8 .. 8 + n of a (2 + k, 8 + n) operand
  const int m = 5, n = 9, k = 6, rows = 2 + k, cols = 8 + n;
  auto a = inputs(m * k, 71), b = inputs(rows * cols, 72);
  std::vector<float> packed(PackedMatrix::size(rows, cols)), part(k * n), want(m * n), got(m * n);
  for (int p = 0; p < k; ++p)
    for (int j = 0; j < n; ++j) part[p * n + j] = b[(2 + p) * cols + 8 + j];
  gemm_ab(a.data(), part.data(), want.data(), m, n, k);
  gemm_packed(a.data(), k, pack_b(b.data(), rows, cols, cols, packed.data()), 2, 8, got.data(), n,
              m, n, k);
  EXPECT_EQ(got, want);
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

// q·k of a drawn pair (the kernel this build uses) is dot_rows of the pair's draws as
// fill_normal gives them, to the bit, and so within float rounding of their exact dot product.
TEST(DotRowsKernel, NormalPairDotIsTheDotOfTheDraws) {
  for (int d : {1, 3, 4, 8, 12, 16, 20, 64, 67, 256, 1024})
    for (std::uint32_t stream : {0U, 1U, 77777U}) {
      const RandomStream s = {5, 0, stream, kNormalDraws};
      std::vector<float> draws(2 * d), scratch(2 * d);
      fill_normal(s, 0, draws.data(), draws.size());
      float want;
      dot_rows(draws.data(), draws.data() + d, &want, 1, d);
      const float got = normal_pair_dot(s, d, scratch.data());
      ASSERT_EQ(got, want) << "d=" << d << " stream=" << stream;
      double exact = 0, abs_sum = 0;
      for (int p = 0; p < d; ++p) {
        exact += static_cast<double>(draws[p]) * draws[d + p];
        abs_sum += std::fabs(static_cast<double>(draws[p]) * draws[d + p]);
      }
      ASSERT_NEAR(got, exact, dot_bound(abs_sum, d)) << "d=" << d;
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
double softmax_tol(double ref, double spread) { return ref * (spread * 6e-8 + 1e-6) + 1e-37; }

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
          ASSERT_NEAR(y[r * cols + j], ref[j], softmax_tol(ref[j], 40.0))
              << kernel.name << " " << cols;
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

// ---- the fused softmax + entropy, the online softmax's step, the scaling passes ---------------

// A copy of v starting `offset` floats past the vector's start (misaligned for offset 1..3).
struct Shifted {
  std::vector<float> storage;
  float* data;
  Shifted(const std::vector<float>& v, int offset) : storage(v.size() + 4, -999.0f) {
    data = storage.data() + offset;
    std::copy(v.begin(), v.end(), data);
  }
};

double entropy_ref(const std::vector<double>& w) {
  double h = 0;
  for (double p : w)
    if (p > 0) h -= p * std::log(p);
  return h;
}

using EntropyRowFn = float (*)(float*, int, int);
struct FusedKernel {
  const char* name;
  EntropyRowFn entropy_row;
  SoftmaxFn softmax;
};
const FusedKernel kFused[] = {{"scalar", softmax_entropy_row_scalar, softmax_rows_scalar},
                              {"dispatched", softmax_entropy_row, softmax_rows}};

// Every prefix length of every size 1..67 (and the lengths the SIMD version rounds up to 16),
// misaligned starts, logits in [-20, 20], in the overflow range [90, 100], with -inf entries:
// the weights are softmax_rows' (stable) for the row with x[len..) = -inf, bit for bit; the
// entropy matches -Σ p log p in double.
TEST(SoftmaxEntropyKernel, WeightsAreSoftmaxRowsAndEntropyMatchesDouble) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const FusedKernel& kernel : kFused)
    for (int cols = 1; cols <= 67; ++cols)
      for (int len = 0; len <= cols; ++len)
        for (int kind = 0; kind < 3; ++kind) {
          const int offset = (cols + len + kind) % 4;
          auto x = kind == 1 ? inputs(cols, cols * 7 + len, 90.0f, 100.0f)
                             : inputs(cols, cols * 7 + len, -20.0f, 20.0f);
          if (kind == 2)
            for (int j = 0; j < cols; j += 3) x[j] = -inf;  // blocked keys inside the prefix
          auto masked = x;
          for (int j = len; j < cols; ++j) masked[j] = -inf;
          std::vector<float> want = masked;
          kernel.softmax(want.data(), 1, cols, true);
          bool blocked = true;
          for (int j = 0; j < len; ++j) blocked = blocked && x[j] == -inf;
          if (blocked) want.assign(cols, 0.0f);  // the engine's rule for a row of -inf
          Shifted got(x, offset);
          const float h = kernel.entropy_row(got.data, cols, len);
          for (int j = 0; j < cols; ++j)
            ASSERT_EQ(got.data[j], want[j]) << kernel.name << " cols=" << cols << " len=" << len
                                            << " kind=" << kind << " j=" << j;
          ASSERT_EQ(got.data[cols], -999.0f) << "wrote past the end";
          if (blocked) {
            ASSERT_EQ(h, 0.0f);
            continue;
          }
          const double href = entropy_ref(softmax_ref(masked.data(), cols, true));
          ASSERT_NEAR(h, href, 2e-6 * std::max(1.0, href))
              << kernel.name << " cols=" << cols << " len=" << len << " kind=" << kind;
        }
}

// A peaked row (one weight near 1) and a flat one: entropy near 0 and exactly-ish log n.
TEST(SoftmaxEntropyKernel, FlatAndPeakedRows) {
  for (const FusedKernel& kernel : kFused)
    for (int n : {1, 2, 5, 16, 64, 67, 1000}) {
      std::vector<float> flat(n, 0.25f), peaked(n, -50.0f);
      peaked[n / 2] = 50.0f;
      EXPECT_NEAR(kernel.entropy_row(flat.data(), n, n), std::log(static_cast<double>(n)),
                  2e-6 * std::log(n + 1.0))
          << kernel.name << " n=" << n;
      EXPECT_NEAR(kernel.entropy_row(peaked.data(), n, n), 0.0, 1e-30) << kernel.name;
      EXPECT_EQ(peaked[n / 2], 1.0f);
    }
}

using RowMaxFn = float (*)(const float*, int);
using ExpShiftSumFn = float (*)(float*, int, float, float*);
using DivideFn = bool (*)(float*, std::size_t, float);
using ScaleAddFn = void (*)(float*, const float*, int, float);
struct StepKernel {
  const char* name;
  RowMaxFn row_max;
  ExpShiftSumFn exp_shift_sum;
  DivideFn divide_finite;
  ScaleAddFn scale_add;
};
const StepKernel kSteps[] = {
    {"scalar", row_max_scalar, exp_shift_sum_scalar, divide_finite_scalar, scale_add_scalar},
    {"dispatched", row_max, exp_shift_sum, divide_finite, scale_add}};

TEST(OnlineSoftmaxKernel, RowMaxIsTheLargestEntry) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const StepKernel& kernel : kSteps)
    for (int n = 1; n <= 67; ++n)
      for (int offset = 0; offset < 4; ++offset) {
        auto x = inputs(n, n * 3 + offset);
        for (float& v : x) v *= 1e30f;
        for (int j = 1; j < n; j += 4) x[j] = -inf;
        float want = -inf;
        for (float v : x) want = std::max(want, v);
        Shifted b(x, offset);
        ASSERT_EQ(kernel.row_max(b.data, n), want) << kernel.name << " n=" << n;
        std::vector<float> all(n, -inf);
        ASSERT_EQ(kernel.row_max(all.data(), n), -inf);
      }
}

TEST(OnlineSoftmaxKernel, ExpShiftSumMatchesDouble) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const StepKernel& kernel : kSteps)
    for (int n = 1; n <= 67; ++n)
      for (int offset = 0; offset < 4; ++offset) {
        // arguments x - shift from about -120 to 0: past the smallest normal float too
        auto x = inputs(n, n * 5 + offset, -30.0f, 30.0f);
        if (n > 2) x[1] = -inf;
        const float shift = n % 2 ? 90.0f : 30.0f;  // both in the overflow range of a naive exp
        Shifted b(x, offset);
        float t = -1;
        const float sum = kernel.exp_shift_sum(b.data, n, shift, &t);
        double sref = 0, tref = 0;
        for (int j = 0; j < n; ++j) {
          const double d = x[j] - shift,
                       e = std::exp(d);  // the float difference, as the kernel has it
          if (x[j] == -inf) {
            ASSERT_EQ(b.data[j], 0.0f);
            continue;
          }
          ASSERT_NEAR(b.data[j], e, 1e-6 * e + 1e-37) << kernel.name << " n=" << n << " j=" << j;
          sref += e;
          if (static_cast<float>(e) > 0) tref += e * d;
        }
        ASSERT_NEAR(sum, sref, 2e-6 * sref + 1e-37) << kernel.name << " n=" << n;
        ASSERT_NEAR(t, tref, 2e-6 * std::fabs(tref) + 1e-35) << kernel.name << " n=" << n;
        ASSERT_EQ(b.data[n], -999.0f);
      }
}

// The output-only attention's row step: scaled scores, the max of the first len (or a running
// max above it), unnormalised exponentials and their two sums, against double; a score past
// float32 is refused.
using ExpScoresRowFn = bool (*)(float*, int, int, float, float*, float*, float*);
struct ExpScoresKernel {
  const char* name;
  ExpScoresRowFn fn;
};
const ExpScoresKernel kExpScores[] = {{"scalar", exp_scores_row_scalar},
                                      {"dispatched", exp_scores_row}};

TEST(ExpScoresRowKernel, MatchesDouble) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const ExpScoresKernel& kernel : kExpScores)
    for (int n = 1; n <= 67; ++n)
      for (int len : {1, n / 2 + 1, n})
        for (float running : {-inf, 60.0f}) {
          const int offset = (n + len) % 4;
          // scores times 1/8 from -100 to 100: exponents down past the smallest normal float
          auto x = inputs(n, n * 7 + len, -800.0f, 800.0f);
          Shifted b(x, offset);
          float m = running, sum = -1, t = -1;
          ASSERT_TRUE(kernel.fn(b.data, n, len, 0.125f, &m, &sum, &t)) << kernel.name;
          double mref = running;
          for (int j = 0; j < len; ++j) mref = std::max(mref, static_cast<double>(x[j] * 0.125f));
          ASSERT_EQ(m, static_cast<float>(mref)) << kernel.name << " n=" << n << " len=" << len;
          double sref = 0, tref = 0, stol = 0, ttol = 0;
          for (int j = 0; j < len; ++j) {
            const double d = static_cast<double>(x[j] * 0.125f) - mref, e = std::exp(d);
            // the SIMD exp: 2e-7 relative, plus the roundings of d and d log2e (1.5e-7 |d|); below
            // the smallest normal float it may give 2^-126 instead
            const double tol = (2e-7 + 1.5e-7 * std::fabs(d)) * e + 1.2e-38;
            ASSERT_NEAR(b.data[j], e, tol)
                << kernel.name << " n=" << n << " len=" << len << " j=" << j;
            sref += e;
            tref += e * d;
            stol += tol;
            ttol += tol * std::fabs(d);
          }
          for (int j = len; j < n; ++j) ASSERT_EQ(b.data[j], 0.0f) << kernel.name << " j=" << j;
          ASSERT_EQ(b.data[n], -999.0f);
          ASSERT_NEAR(sum, sref, 1e-6 * sref + stol + 1e-36) << kernel.name << " n=" << n;
          ASSERT_NEAR(t, tref, 1e-6 * std::fabs(tref) + ttol + 1e-33) << kernel.name << " n=" << n;
          if (running == -inf) {
            ASSERT_GE(sum, 1.0f);
          }
        }
  for (const ExpScoresKernel& kernel : kExpScores)
    for (int n : {1, 5, 16, 33})
      for (int bad = 0; bad < n; bad += 3) {  // inf or NaN anywhere, allowed or not: refused
        auto x = inputs(n, n + bad);
        x[bad] = bad % 2 ? -inf : std::numeric_limits<float>::quiet_NaN();
        float m = -inf, sum, t;
        EXPECT_FALSE(kernel.fn(x.data(), n, 1, 0.5f, &m, &sum, &t)) << kernel.name << " n=" << n;
      }
}

TEST(ScalingKernel, DivideIsExactAndReportsOverflow) {
  const float inf = std::numeric_limits<float>::infinity();
  for (const StepKernel& kernel : kSteps)
    for (int n = 1; n <= 67; ++n)
      for (int offset = 0; offset < 4; ++offset) {
        auto x = inputs(n, n * 11 + offset);
        for (float& v : x) v *= 3e38f;  // up to float32's range
        for (float divisor : {8.0f, 3.0f, 1.0f}) {
          Shifted b(x, offset);
          ASSERT_TRUE(kernel.divide_finite(b.data, n, divisor)) << kernel.name;
          for (int j = 0; j < n; ++j) ASSERT_EQ(b.data[j], x[j] / divisor) << kernel.name;
          ASSERT_EQ(b.data[n], -999.0f);
        }
        // 3e38 / 0.5 overflows; and an inf or NaN anywhere is reported
        for (int bad = 0; bad < n; bad += 5) {
          Shifted half(x, offset);
          half.data[bad] = 3e38f;
          ASSERT_FALSE(kernel.divide_finite(half.data, n, 0.5f)) << kernel.name << " n=" << n;
          Shifted b(x, offset);
          b.data[bad] = bad % 2 ? -inf : std::numeric_limits<float>::quiet_NaN();
          ASSERT_FALSE(kernel.divide_finite(b.data, n, 8.0f)) << kernel.name << " n=" << n;
        }
      }
}

TEST(ScalingKernel, ScaleAddIsExact) {
  for (const StepKernel& kernel : kSteps)
    for (int n = 1; n <= 67; ++n)
      for (int offset = 0; offset < 4; ++offset) {
        auto y = inputs(n, n * 13 + offset, -1e3f, 1e3f),
             x = inputs(n, n * 17 + offset, -1e3f, 1e3f);
        for (float r : {1.0f, 0.37f, 0.0f}) {
          Shifted got(y, offset), xs(x, 3 - offset);
          kernel.scale_add(got.data, xs.data, n, r);
          for (int j = 0; j < n; ++j) ASSERT_EQ(got.data[j], y[j] * r + x[j]) << kernel.name;
          ASSERT_EQ(got.data[n], -999.0f);
        }
      }
}

// ---- GELU's tanh form ---------------------------------------------------------------------------

// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x³))), GPT-2's "gelu_new", as written, in double.
double gelu_tanh_ref(double x) {
  const double u = std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
  return 0.5 * x * (1 + std::tanh(u));
}

TEST(GeluKernel, MatchesDoubleReference) {
  using GeluFn = void (*)(float*, std::size_t);
  const std::pair<const char*, GeluFn> kernels[] = {{"scalar", gelu_tanh_scalar},
                                                    {"dispatched", gelu_tanh}};
  for (const auto& [name, gelu] : kernels)
    for (int n = 1; n <= 67; ++n)
      for (int offset = 0; offset < 4; ++offset) {
        const auto x = inputs(n, n * 29 + offset, -12.0f, 12.0f);
        Shifted got(x, offset);
        gelu(got.data, n);
        for (int j = 0; j < n; ++j) {
          const double want = gelu_tanh_ref(x[j]);
          // a few float ulps of x (the result is at most |x|): u, its exp and the division; the
          // double reference's own 1 + tanh cancels where x is very negative, so the bound is
          // absolute there (the result is below 1e-6 in size)
          ASSERT_NEAR(got.data[j], want, 4e-7 * std::fabs(x[j]) + 1e-30) << name << " x=" << x[j];
        }
        ASSERT_EQ(got.data[n], -999.0f) << name;  // nothing past n
      }
  // float32's extremes: finite in, finite out (x for large x, -0 or a tiny number for very
  // negative)
  for (const auto& [name, gelu] : kernels) {
    float x[] = {3.4e38f, -3.4e38f, 1e20f, -1e20f, 88.0f, -88.0f, 0.0f, -0.0f, 1e-40f, -1e-40f};
    gelu(x, std::size(x));
    EXPECT_EQ(x[0], 3.4e38f) << name;
    EXPECT_EQ(x[2], 1e20f) << name;
    EXPECT_EQ(x[1], 0.0f) << name;
    EXPECT_EQ(x[3], 0.0f) << name;
    EXPECT_EQ(x[4], 88.0f) << name;
    EXPECT_EQ(x[5], 0.0f) << name;
    for (float v : x) EXPECT_TRUE(std::isfinite(v)) << name;
  }
}

}  // namespace
