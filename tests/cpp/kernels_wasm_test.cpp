// Kernel tests compiled to wasm and run under Node, in both builds.
//   Every build: the scalar kernels against double references. (rng_test.cpp and
//   variance_test.cpp are compiled into this suite too, so their pinned values hold in every build.)
//   SIMD build: every SIMD kernel against its scalar reference: bit-exact for dot_rows and
//   fill_normal, within float rounding (checked in double) for gemm and
//   softmax; sizes 1..67 and starts misaligned by 1..3 floats.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "core/rng.h"
#include "kernels/kernels.h"
#include "test_inputs.h"

namespace {

using namespace attn::kernels;
using test_inputs::dot_bound;
using test_inputs::inputs;

// A buffer whose data starts `offset` floats past a 16-byte boundary.
struct Buffer {
  std::vector<float> storage;
  float* data;
  Buffer(const std::vector<float>& v, int offset) : storage(v.size() + 4) {
    data = storage.data() + offset;
    std::copy(v.begin(), v.end(), data);
  }
};

// Error bound of a float k-term dot product against the exact value.

// ---- scalar kernels against double references ------------------------------------------
TEST(WasmScalar, GemmAndDotMatchDoubleReference) {
  for (int m : {1, 4, 7}) {
    for (int n : {1, 5, 16}) {
      for (int k : {1, 3, 4, 33, 67}) {
        auto a = inputs(m * k, m + n + k), b = inputs(n * k, 3 * m * n * k + 1);
        std::vector<float> c(m * n), c2(m * n);
        gemm_abt_scalar(a.data(), b.data(), c.data(), m, n, k);
        gemm_ab_scalar(a.data(), b.data(), c2.data(), m, n, k);  // b read as (k, n)
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double ref = 0, abs_sum = 0, ref2 = 0, abs_sum2 = 0;
            for (int p = 0; p < k; ++p) {
              ref += double(a[i * k + p]) * b[j * k + p];
              abs_sum += std::fabs(double(a[i * k + p]) * b[j * k + p]);
              ref2 += double(a[i * k + p]) * b[p * n + j];
              abs_sum2 += std::fabs(double(a[i * k + p]) * b[p * n + j]);
            }
            ASSERT_NEAR(c[i * n + j], ref, dot_bound(abs_sum, k));
            ASSERT_NEAR(c2[i * n + j], ref2, dot_bound(abs_sum2, k));
          }
      }
    }
  }
  for (int d = 1; d <= 67; ++d) {
    auto a = inputs(3 * d, d), b = inputs(3 * d, d + 50);
    std::vector<float> out(3);
    dot_rows_scalar(a.data(), b.data(), out.data(), 3, d);
    for (int i = 0; i < 3; ++i) {
      double ref = 0, abs_sum = 0;
      for (int p = 0; p < d; ++p) {
        ref += double(a[i * d + p]) * b[i * d + p];
        abs_sum += std::fabs(double(a[i * d + p]) * b[i * d + p]);
      }
      ASSERT_NEAR(out[i], ref, dot_bound(abs_sum, d));
    }
  }
}

TEST(WasmScalar, SoftmaxMatchesDoubleReference) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int cols = 1; cols <= 67; ++cols) {
    auto x = inputs(cols, cols, -20.0f, 20.0f);
    if (cols > 2) x[1] = -inf;
    auto y = x;
    softmax_rows_scalar(y.data(), 1, cols, true);
    double mx = -inf, sum = 0;
    for (float v : x) mx = std::fmax(mx, v);
    for (float v : x) sum += std::exp(double(v) - mx);
    for (int j = 0; j < cols; ++j) {
      const double ref = std::exp(double(x[j]) - mx) / sum;
      ASSERT_NEAR(y[j], ref, ref * (40 * 6e-8 + 1e-6) + 1e-37);
    }
    if (cols > 2) EXPECT_EQ(y[1], 0.0f);
  }
}

#if defined(ATTN_SIMD)
// ---- SIMD against scalar -----------------------------------------------------------------
const int kSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 67};

TEST(WasmSimd, DotRowsBitIdentical) {
  for (int d = 1; d <= 67; ++d)
    for (int count : {1, 3, 4, 5, 9})
      for (int offset = 0; offset < 4; ++offset) {
        Buffer a(inputs(count * d, d * 7 + count), offset);
        Buffer b(inputs(count * d, d * 13 + count), (offset + 1) % 4);
        std::vector<float> want(count), got(count);
        dot_rows_scalar(a.data, b.data, want.data(), count, d);
        dot_rows_wasmsimd(a.data, b.data, got.data(), count, d);
        ASSERT_EQ(got, want) << "d=" << d << " count=" << count << " offset=" << offset;
      }
}

TEST(WasmSimd, FillNormalBitIdentical) {
  const RandomStream streams[] = {attn::random_stream(0, 0, kNormalDraws),
                                  attn::random_stream(42, 0, kNormalDraws),
                                  attn::random_stream(7, 123, kNormalDraws),
                                  attn::random_stream(~0ULL, ~0U, ~0U)};
  // draws near 2^34 (block counters near 2^32) check the high word of the counter, also in
  // the two-group path (from first = 2^34 - 20, a run of 32 draws crosses it)
  const std::uint64_t firsts[] = {0, 1, 3, 4, 7, 8, 13, 1000, (1ULL << 34) - 5, (1ULL << 34) - 20};
  for (const RandomStream& s : streams)
    for (std::uint64_t first : firsts)
      for (int count = 1; count <= 67; ++count)
        for (int offset : {0, 1, 3}) {
          std::vector<float> want(count), storage(count + 4);
          float* got = storage.data() + offset;
          fill_normal_scalar(s, first, want.data(), count);
          fill_normal_wasmsimd(s, first, got, count);
          ASSERT_EQ(std::vector<float>(got, got + count), want)
              << "first=" << first << " count=" << count;
        }
  // a long run, whose values cover the whole range of the log and angle polynomials
  std::vector<float> want(100000), got(100000);
  fill_normal_scalar(streams[1], 0, want.data(), want.size());
  fill_normal_wasmsimd(streams[1], 0, got.data(), got.size());
  ASSERT_EQ(got, want);
}

TEST(WasmSimd, GemmAbtMatchesScalar) {
  for (int m : kSizes)
    for (int n : {1, 2, 3, 5, 8, 17, 67})
      for (int k : kSizes) {
        const int offset = (m + n + k) % 4;
        Buffer a(inputs(m * k, m * 31 + k), offset), b(inputs(n * k, n * 17 + k), 3 - offset);
        std::vector<float> want(m * n), got(m * n);
        gemm_abt_scalar(a.data, b.data, want.data(), m, n, k);
        gemm_abt_wasmsimd(a.data, b.data, got.data(), m, n, k);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double abs_sum = 0;
            for (int p = 0; p < k; ++p) abs_sum += std::fabs(double(a.data[i * k + p]) * b.data[j * k + p]);
            // each is within dot_bound of the exact value, so they are within twice of each other
            ASSERT_NEAR(got[i * n + j], want[i * n + j], 2 * dot_bound(abs_sum, k))
                << m << "x" << n << "x" << k;
          }
      }
}

TEST(WasmSimd, GemmAbMatchesScalar) {
  for (int m : kSizes)
    for (int n : kSizes)
      for (int k : {1, 2, 3, 5, 8, 17, 67}) {
        const int offset = (m + n + k) % 4;
        Buffer a(inputs(m * k, m * 31 + k), offset), b(inputs(k * n, n * 17 + k), 3 - offset);
        std::vector<float> want(m * n), got(m * n);
        gemm_ab_scalar(a.data, b.data, want.data(), m, n, k);
        gemm_ab_wasmsimd(a.data, b.data, got.data(), m, n, k);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double abs_sum = 0;
            for (int p = 0; p < k; ++p) abs_sum += std::fabs(double(a.data[i * k + p]) * b.data[p * n + j]);
            ASSERT_NEAR(got[i * n + j], want[i * n + j], 2 * dot_bound(abs_sum, k))
                << m << "x" << n << "x" << k;
          }
      }
}

// Relative difference in double (NaN equal to NaN, inf to inf of the same sign).
void expect_close(const float* got, const float* want, int n, double rel, const char* what) {
  for (int j = 0; j < n; ++j) {
    if (std::isnan(want[j])) {
      ASSERT_TRUE(std::isnan(got[j])) << what << " j=" << j << " got " << got[j];
    } else if (std::isinf(want[j])) {
      ASSERT_EQ(got[j], want[j]) << what << " j=" << j;
    } else {
      ASSERT_NEAR(got[j], want[j], rel * std::fabs(double(want[j])) + 1e-37)
          << what << " j=" << j;
    }
  }
}

TEST(WasmSimd, SoftmaxMatchesScalar) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int cols = 1; cols <= 67; ++cols)
    for (int offset = 0; offset < 4; ++offset) {
      const int rows = 3;
      // ordinary logits, stable and naive
      for (bool stable : {true, false}) {
        Buffer want(inputs(rows * cols, cols + offset, -20.0f, 20.0f), offset);
        Buffer got(inputs(rows * cols, cols + offset, -20.0f, 20.0f), 3 - offset);
        softmax_rows_scalar(want.data, rows, cols, stable);
        softmax_rows_wasmsimd(got.data, rows, cols, stable);
        // 6 float ulps (2^-23 each): exp (1-2 ulp, polynomial vs libm), the sum, the division
        expect_close(got.data, want.data, rows * cols, 7.2e-7, stable ? "stable" : "naive");
      }
      // logits in [90, 100]: naive overflows (inf / inf = NaN) in both; stable is finite
      for (bool stable : {true, false}) {
        Buffer want(inputs(rows * cols, cols * 3 + offset, 90.0f, 100.0f), offset);
        Buffer got(inputs(rows * cols, cols * 3 + offset, 90.0f, 100.0f), 3 - offset);
        softmax_rows_scalar(want.data, rows, cols, stable);
        softmax_rows_wasmsimd(got.data, rows, cols, stable);
        for (int j = 0; j < rows * cols; ++j)
          ASSERT_EQ(std::isfinite(got.data[j]), stable) << got.data[j];
        expect_close(got.data, want.data, rows * cols, 7.2e-7, "large");
      }
      // masked entries: -inf gets exactly 0
      {
        auto x = inputs(rows * cols, cols * 5 + offset, -5.0f, 5.0f);
        for (int j = 0; j < rows * cols; j += 3) x[j] = -inf;
        for (int r = 0; r < rows; ++r) x[r * cols + cols / 2] = 1.0f;  // one open cell a row
        Buffer want(x, offset), got(x, 3 - offset);
        softmax_rows_scalar(want.data, rows, cols, true);
        softmax_rows_wasmsimd(got.data, rows, cols, true);
        for (int j = 0; j < rows * cols; ++j)
          if (x[j] == -inf) ASSERT_EQ(got.data[j], 0.0f);
        expect_close(got.data, want.data, rows * cols, 7.2e-7, "masked");
      }
    }
}

TEST(WasmSimd, ExpRangeMatchesStdExp) {
  // Single-element rows with a fixed shift: naive softmax of one logit is exp(x) / exp(x);
  // instead, check exp itself through two-entry rows [x, 0] (weight of x = e^x / (e^x + 1)).
  std::vector<float> xs;
  for (float x = -110.0f; x <= 95.0f; x += 0.37f) xs.push_back(x);
  for (float x : xs) {
    float want[2] = {x, 0.0f}, got[2] = {x, 0.0f};
    softmax_rows_scalar(want, 1, 2, false);
    softmax_rows_wasmsimd(got, 1, 2, false);
    expect_close(got, want, 2, 7.2e-7, "exp range");
  }
}
#endif  // ATTN_SIMD

}  // namespace
