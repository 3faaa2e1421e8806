// SIMD kernels against their scalar references, compiled to wasm and run under Node in the
// SIMD build (kernels_test.cpp, which checks the scalar kernels against double references, and
// rng_test.cpp and variance_test.cpp are compiled into this suite too, so they hold in every
// build). Bit-exact for gemm_abt, gemm_ab, dot_rows and fill_normal; softmax within a few float
// ulps (checked in double); sizes 1..67 and starts misaligned by 1..3 floats.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "core/rng.h"
#include "kernels/kernels.h"
#include "kernels/math_approx.h"
#include "test_inputs.h"

namespace {

using namespace attn::kernels;
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
  const RandomStream streams[] = {
      attn::random_stream(0, 0, kNormalDraws), attn::random_stream(42, 0, kNormalDraws),
      attn::random_stream(7, 123, kNormalDraws), attn::random_stream(~0ULL, ~0U, ~0U)};
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

// q·k of a drawn pair: the fused SIMD kernel (draws multiplied as they are made, d % 4 == 0) and
// its fallback (other d) give the scalar reference's float, bit for bit, for every d from 1 to
// 67, the lesson's 256 and 1024, and streams near the ends of the counter words; the scratch
// buffer may start anywhere.
TEST(WasmSimd, NormalPairDotBitIdentical) {
  const RandomStream streams[] = {
      attn::random_stream(1, 0, kNormalDraws), attn::random_stream(42, 999999, kNormalDraws),
      attn::random_stream(~0ULL, ~0U, kNormalDraws), attn::random_stream(7, 3, ~0U)};
  std::vector<int> dims;
  for (int d = 1; d <= 67; ++d) dims.push_back(d);
  for (int d : {128, 252, 256, 1020, 1024}) dims.push_back(d);
  for (const RandomStream& s : streams)
    for (int d : dims)
      for (int offset : {0, 1, 3}) {
        std::vector<float> scratch_want(2 * d), storage(2 * d + 4);
        const float want = normal_pair_dot_scalar(s, d, scratch_want.data());
        const float got = normal_pair_dot_wasmsimd(s, d, storage.data() + offset);
        ASSERT_EQ(float_bits(got), float_bits(want)) << "d=" << d << " stream=" << s.stream;
      }
}

// The SIMD products accumulate every output in the scalar reference's order, so the floats
// are the same, bit for bit (kernels.h). Every shape of 1..67 by 1..67 by 1..67 that the
// blocking treats differently: row blocks of 4 and their tail, panels of 8 and their tail.
TEST(WasmSimd, GemmAbtBitIdentical) {
  for (int m : kSizes)
    for (int n : kSizes)
      for (int k : {1, 2, 3, 5, 8, 17, 64, 67}) {
        const int offset = (m + n + k) % 4;
        Buffer a(inputs(m * k, m * 31 + k), offset), b(inputs(n * k, n * 17 + k), 3 - offset);
        std::vector<float> want(m * n), got(m * n + 1, -7.0f);
        gemm_abt_scalar(a.data, b.data, want.data(), m, n, k);
        gemm_abt_wasmsimd(a.data, b.data, got.data(), m, n, k);
        ASSERT_EQ(got.back(), -7.0f) << "wrote past c: " << m << "x" << n << "x" << k;
        got.pop_back();
        ASSERT_EQ(got, want) << m << "x" << n << "x" << k;
      }
}

TEST(WasmSimd, GemmAbBitIdentical) {
  for (int m : kSizes)
    for (int n : kSizes)
      for (int k : {1, 2, 3, 5, 8, 17, 64, 67}) {
        const int offset = (m + n + k) % 4;
        Buffer a(inputs(m * k, m * 31 + k), offset), b(inputs(k * n, n * 17 + k), 3 - offset);
        std::vector<float> want(m * n), got(m * n + 1, -7.0f);
        gemm_ab_scalar(a.data, b.data, want.data(), m, n, k);
        gemm_ab_wasmsimd(a.data, b.data, got.data(), m, n, k);
        ASSERT_EQ(got.back(), -7.0f) << "wrote past c: " << m << "x" << n << "x" << k;
        got.pop_back();
        ASSERT_EQ(got, want) << m << "x" << n << "x" << k;
      }
}

// Products against a packed operand, as output-only attention uses them (K and V packed once,
// blocks of rows multiplied by ranges of them): every shape 1..67 that the blocking treats
// differently, rows of a and c with gaps (lda, ldc past the row), starts misaligned, a range of
// b's rows and of its panels (row0, col0), b packed from rows with gaps or transposed; the gaps
// of c stay untouched. Bit-identical to the scalar reference.
TEST(WasmSimd, GemmPackedBitIdentical) {
  for (int m : kSizes)
    for (int n : kSizes)
      for (int k : {1, 2, 3, 5, 8, 17, 64, 67})
        for (int variant = 0; variant < 2; ++variant) {
          const bool transposed = variant == 1;
          const int row0 = (m + n) % 3, col0 = 8 * ((m + k) % 2);
          const int rows = row0 + k, cols = col0 + n;  // of b
          const int lda = k + (m % 3), ldc = n + 2, ldb = (transposed ? rows : cols) + n % 2;
          const int offset = (m + n + k) % 4;
          Buffer a(inputs(m * lda, m * 7 + k + variant), offset);
          const auto b =
              inputs(static_cast<std::size_t>(transposed ? cols : rows) * ldb, n * 5 + k + variant);
          std::vector<float> packed(PackedMatrix::size(rows, cols) + 1);
          const PackedMatrix pb = transposed ? pack_bt(b.data(), cols, rows, ldb, packed.data() + 1)
                                             : pack_b(b.data(), rows, cols, ldb, packed.data() + 1);
          std::vector<float> want(m * ldc, -7.0f), got(m * ldc, -7.0f);
          gemm_packed_scalar(a.data, lda, pb, row0, col0, want.data(), ldc, m, n, k);
          gemm_packed_wasmsimd(a.data, lda, pb, row0, col0, got.data(), ldc, m, n, k);
          ASSERT_EQ(got, want) << m << "x" << n << "x" << k << " variant " << variant;
          for (int i = 0; i < m; ++i)
            ASSERT_EQ(got[i * ldc + n], -7.0f) << "wrote into the gap of row " << i;
        }
}

// Overflow-range inputs through a packed operand: products past float32 (every one here is
// above 3.6e38) give +inf in both versions, and so do their sums.
TEST(WasmSimd, GemmPackedOverflowRangeBitIdentical) {
  for (int m : {1, 4, 5})
    for (int n : {3, 8, 17})
      for (int k : {1, 5, 64}) {
        const auto a = inputs(m * k, m + k, 1.9e19f, 3e19f);
        const auto b = inputs(k * n, n + k, 1.9e19f, 3e19f);
        std::vector<float> packed(PackedMatrix::size(k, n));
        const PackedMatrix pb = pack_b(b.data(), k, n, n, packed.data());
        std::vector<float> want(m * n), got(m * n);
        gemm_packed_scalar(a.data(), k, pb, 0, 0, want.data(), n, m, n, k);
        gemm_packed_wasmsimd(a.data(), k, pb, 0, 0, got.data(), n, m, n, k);
        ASSERT_EQ(got, want) << m << "x" << n << "x" << k;
        for (float x : got) ASSERT_EQ(x, std::numeric_limits<float>::infinity());
      }
}

// Attention-sized products: gemm_abt splits the columns into chunks of panels past about
// 32768 / k columns (here 520 at k = 63); one Workspace serves every call, so later, smaller
// products pack over the stale panels of larger ones; inputs in [90, 100] keep their exact
// floats too.
TEST(WasmSimd, GemmLargeShapesBitIdentical) {
  struct Shape {
    int m, n, k;
    float lo, hi;
  };
  Workspace ws;
  for (Shape s : {Shape{37, 1100, 63, -1.0f, 1.0f}, Shape{6, 77, 256, 90.0f, 100.0f},
                  Shape{130, 64, 1029, -1.0f, 1.0f}, Shape{5, 3, 7, -1.0f, 1.0f}}) {
    auto a = inputs(s.m * s.k, s.m + s.k, s.lo, s.hi);
    auto bt = inputs(s.n * s.k, s.n + 3, s.lo, s.hi);  // (n, k) for abt
    auto b = inputs(s.k * s.n, s.n + 5, s.lo, s.hi);   // (k, n) for ab
    std::vector<float> want(s.m * s.n), got(s.m * s.n);
    gemm_abt_scalar(a.data(), bt.data(), want.data(), s.m, s.n, s.k);
    gemm_abt_wasmsimd(a.data(), bt.data(), got.data(), s.m, s.n, s.k, &ws);
    ASSERT_EQ(got, want) << "abt " << s.m << "x" << s.n << "x" << s.k;
    gemm_ab_scalar(a.data(), b.data(), want.data(), s.m, s.n, s.k);
    gemm_ab_wasmsimd(a.data(), b.data(), got.data(), s.m, s.n, s.k, &ws);
    ASSERT_EQ(got, want) << "ab " << s.m << "x" << s.n << "x" << s.k;
  }
}

// The ends of the micro-kernel's step loop and of its blocks: an empty inner dimension (k = 0:
// every output is 0, nothing read), and inputs in the overflow range, whose products and sums
// reach inf and NaN (inf - inf) in the same outputs as the scalar reference, with the same
// finite floats elsewhere; every row tail (m % 4 = 1..3) and panel tail (n % 8 = 1..7).
TEST(WasmSimd, GemmEmptyAndOverflowRange) {
  const float big = 3e19f;  // big * big = 9e38 > FLT_MAX: one product overflows
  for (int m : {1, 2, 3, 4, 5, 6, 7, 8, 9})
    for (int n : {1, 3, 7, 8, 9, 15, 16, 17})
      for (int k : {0, 1, 2, 5, 9}) {
        const int offset = (m + n + k) % 4;
        Buffer a(inputs(m * k, m * 7 + k, -big, big), offset);
        Buffer bt(inputs(n * k, n * 5 + k, -big, big), 3 - offset);       // (n, k) for abt
        Buffer b(inputs(k * n, n * 3 + k, -big, big), (offset + 2) % 4);  // (k, n) for ab
        for (bool transposed : {true, false}) {
          std::vector<float> want(m * n, -7.0f), got(m * n + 1, -7.0f);
          if (transposed) {
            gemm_abt_scalar(a.data, bt.data, want.data(), m, n, k);
            gemm_abt_wasmsimd(a.data, bt.data, got.data(), m, n, k);
          } else {
            gemm_ab_scalar(a.data, b.data, want.data(), m, n, k);
            gemm_ab_wasmsimd(a.data, b.data, got.data(), m, n, k);
          }
          ASSERT_EQ(got.back(), -7.0f) << "wrote past c: " << m << "x" << n << "x" << k;
          int overflowed = 0;
          for (int j = 0; j < m * n; ++j) {
            if (k == 0) ASSERT_EQ(got[j], 0.0f);
            if (std::isnan(want[j])) {
              ASSERT_TRUE(std::isnan(got[j]))
                  << (transposed ? "abt " : "ab ") << m << "x" << n << "x" << k << " j=" << j;
            } else {
              ASSERT_EQ(got[j], want[j])
                  << (transposed ? "abt " : "ab ") << m << "x" << n << "x" << k << " j=" << j;
            }
            overflowed += !std::isfinite(want[j]);
          }
          // the inputs reach the overflow range: some outputs are inf or NaN once k >= 2
          if (k >= 2 && m * n >= 8) ASSERT_GT(overflowed, 0) << m << "x" << n << "x" << k;
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
      ASSERT_NEAR(got[j], want[j], rel * std::fabs(double(want[j])) + 1e-37) << what << " j=" << j;
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
  // exp itself, through two-entry rows [x, 0]: the weight of x is e^x / (e^x + 1) (naive) and
  // e^(x - m) / (e^(x - m) + e^(-m)) with m = max(x, 0) (stable). Together they cover both exps
  // over [-110, 95]: past the float overflow, the smallest normal and the subnormal range
  // (the stable exp flushes results below 2^-126 to 0; the tolerance's 1e-37 allows that).
  for (float x = -110.0f; x <= 95.0f; x += 0.37f)
    for (bool stable : {false, true}) {
      float want[2] = {x, 0.0f}, got[2] = {x, 0.0f};
      softmax_rows_scalar(want, 1, 2, stable);
      softmax_rows_wasmsimd(got, 1, 2, stable);
      expect_close(got, want, 2, 7.2e-7, stable ? "exp range, stable" : "exp range, naive");
    }
}
TEST(WasmSimd, GeluMatchesScalar) {
  for (int n = 1; n <= 67; ++n)
    for (int offset = 0; offset < 4; ++offset) {
      Buffer want(inputs(n, n * 31 + offset, -40.0f, 40.0f), offset);
      Buffer got(inputs(n, n * 31 + offset, -40.0f, 40.0f), 3 - offset);
      gelu_tanh_scalar(want.data, n);
      gelu_tanh_wasmsimd(got.data, n);
      // the exp (1-2 ulp, polynomial vs libm) and the division: a few ulps of the result; below the
      // smallest normal float the SIMD exp is 0 where std::exp is subnormal (the 1e-37)
      expect_close(got.data, want.data, n, 7.2e-7, "gelu");
    }
}

// The scaling passes and the row max: the same floats as the scalar references; the online
// softmax's step within the softmax's few ulps, its blocked entries exactly 0.
TEST(WasmSimd, ScalingAndOnlineSoftmaxStepMatchScalar) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int n = 1; n <= 67; ++n)
    for (int offset = 0; offset < 4; ++offset) {
      auto x = inputs(n, n * 19 + offset, -40.0f, 40.0f);
      if (n > 3) x[n - 2] = -inf;
      Buffer want(x, offset), got(x, 3 - offset);
      ASSERT_EQ(row_max_wasmsimd(got.data, n), row_max_scalar(want.data, n)) << n;
      ASSERT_EQ(divide_finite_wasmsimd(got.data, n, 3.0f),
                divide_finite_scalar(want.data, n, 3.0f));
      for (int j = 0; j < n; ++j) ASSERT_EQ(got.data[j], want.data[j]) << "divide n=" << n;
      Buffer y(inputs(n, n * 23, -5.0f, 5.0f), offset),
          y2(inputs(n, n * 23, -5.0f, 5.0f), 3 - offset);
      scale_add_scalar(y.data, want.data, n, 0.3f);
      scale_add_wasmsimd(y2.data, got.data, n, 0.3f);
      for (int j = 0; j < n; ++j) ASSERT_EQ(y2.data[j], y.data[j]) << "scale_add n=" << n;
      float t_want, t_got;
      const float shift = row_max_scalar(want.data, n);
      const float s_want = exp_shift_sum_scalar(want.data, n, shift, &t_want);
      const float s_got = exp_shift_sum_wasmsimd(got.data, n, shift, &t_got);
      expect_close(got.data, want.data, n, 7.2e-7, "exp_shift_sum");
      ASSERT_NEAR(s_got, s_want, 1e-6 * s_want);
      ASSERT_NEAR(t_got, t_want, 1e-6 * std::fabs(t_want) + 1e-30);
    }
}
#endif  // ATTN_SIMD

}  // namespace
