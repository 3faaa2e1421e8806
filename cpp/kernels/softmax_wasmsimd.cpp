// Row softmax, wasm SIMD128, with float32 polynomial exps (Cephes expf: x = n ln 2 + r,
// exp(r) = 1 + r + r² p(r) with p of degree 5, times 2^n).
//   stable (the usual path): exp(x - max) / sum. Its arguments are <= 0, so exp_nonpositive
//     needs no overflow handling: n is rounded by the magic-number trick, 2^n is built in one
//     step, and results below the smallest normal float (x < -87.34) are flushed to 0, as -inf
//     (a masked score) is. The sum is >= 1 (the max contributes exp(0)), so the row is scaled
//     by 1 / sum.
//   naive (the lesson's overflow demo): exp(x) / sum with exp_any, which like expf gives +inf
//     past ~88.72 (so the row overflows honestly to inf and NaN), 0 for -inf and subnormal
//     results down to ~-103.97; the row is divided by the sum (1 / sum may overflow there).
// Both agree with the scalar reference (std::exp, division) to a few float ulps.
#include <wasm_simd128.h>

#include <cmath>
#include <cstddef>
#include <limits>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"
#include "kernels/wasmsimd_util.h"

namespace attn::kernels {

// exp(x) for any x, as expf: +inf above kExpOverflow, subnormal results, 0 below kExpUnderflow.
static inline v128_t exp_any(v128_t x) {
  const v128_t over = wasm_f32x4_gt(x, splat(kExpOverflow));
  const v128_t under = wasm_f32x4_lt(x, splat(kExpUnderflow));
  // clamp; pmax/pmin (one instruction each) with x first let a NaN pass through, and stay NaN
  v128_t xc = wasm_f32x4_pmin(wasm_f32x4_pmax(x, splat(kExpUnderflow)), splat(kExpOverflow));
  const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(xc, splat(kLog2e)));
  v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(n, splat(kLn2Hi)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, splat(kLn2Lo)));
  v128_t p = exp_reduced(r);
  // times 2^n as 2^(n/2) 2^(n - n/2), so that n down to -150 (subnormal results) works
  const v128_t ni = wasm_i32x4_trunc_sat_f32x4(n);
  const v128_t n1 = wasm_i32x4_shr(ni, 1);
  const v128_t n2 = wasm_i32x4_sub(ni, n1);
  const v128_t bias = wasm_i32x4_splat(127);
  p = wasm_f32x4_mul(p, wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23));
  p = wasm_f32x4_mul(p, wasm_i32x4_shl(wasm_i32x4_add(n2, bias), 23));
  p = wasm_v128_bitselect(splat(std::numeric_limits<float>::infinity()), p, over);
  return wasm_v128_andnot(p, under);
}

// The largest entry of a row (the scores carry no NaN, so pmax is enough).
static inline float largest(const float* row, int cols) {
  const int c16 = cols & ~15, c4 = cols & ~3;
  float shift = row[0];
  if (c4 > 0) {
    v128_t m0 = wasm_v128_load(row), m1 = m0, m2 = m0, m3 = m0;
    int j = 0;
    for (; j < c16; j += 16) {
      m0 = wasm_f32x4_pmax(m0, wasm_v128_load(row + j));
      m1 = wasm_f32x4_pmax(m1, wasm_v128_load(row + j + 4));
      m2 = wasm_f32x4_pmax(m2, wasm_v128_load(row + j + 8));
      m3 = wasm_f32x4_pmax(m3, wasm_v128_load(row + j + 12));
    }
    for (; j < c4; j += 4) m0 = wasm_f32x4_pmax(m0, wasm_v128_load(row + j));
    v128_t m = wasm_f32x4_pmax(wasm_f32x4_pmax(m0, m1), wasm_f32x4_pmax(m2, m3));
    m = wasm_f32x4_pmax(m, wasm_i32x4_shuffle(m, m, 2, 3, 0, 1));
    m = wasm_f32x4_pmax(m, wasm_i32x4_shuffle(m, m, 1, 0, 3, 2));
    shift = wasm_f32x4_extract_lane(m, 0);
  }
  for (int j = c4; j < cols; ++j) shift = row[j] > shift ? row[j] : shift;
  return shift;
}

// row[j] = exp(row[j] - shift); returns their sum, and (kEntropy) sets *t = Σ e (row[j] - shift)
// over the e > 0. 16 columns a step (four independent vectors) so the exp chains overlap; the
// last cols % 4 one at a time. An entry that adds 0 leaves both sums unchanged (they start at
// +0 and never become -0), so blocked entries past the ones given change nothing.
template <v128_t (*Exp)(v128_t), bool kEntropy = false>
static inline float exp_and_sum(float* row, int cols, float shift, float* t = nullptr) {
  const int c16 = cols & ~15, c4 = cols & ~3;
  const v128_t vshift = splat(shift), zero = splat(0.0f);
  v128_t s[4] = {zero, zero, zero, zero}, ts[4] = {zero, zero, zero, zero};
  // one vector of 4 entries into accumulator a
  auto step = [&](int j, int a) {
    const v128_t d = wasm_f32x4_sub(wasm_v128_load(row + j), vshift);
    const v128_t e = Exp(d);
    wasm_v128_store(row + j, e);
    s[a] = wasm_f32x4_add(s[a], e);
    if (kEntropy)
      ts[a] = wasm_f32x4_add(ts[a], wasm_v128_and(wasm_f32x4_mul(e, d), wasm_f32x4_gt(e, zero)));
  };
  int j = 0;
  for (; j < c16; j += 16) {
    step(j, 0);
    step(j + 4, 1);
    step(j + 8, 2);
    step(j + 12, 3);
  }
  for (; j < c4; j += 4) step(j, 0);
  float sum = hsum(wasm_f32x4_add(wasm_f32x4_add(s[0], s[1]), wasm_f32x4_add(s[2], s[3])));
  float tsum = 0.0f;
  if (kEntropy)
    tsum = hsum(wasm_f32x4_add(wasm_f32x4_add(ts[0], ts[1]), wasm_f32x4_add(ts[2], ts[3])));
  for (; j < cols; ++j) {
    const float d = row[j] - shift;
    row[j] = wasm_f32x4_extract_lane(Exp(splat(d)), 0);
    sum += row[j];
    if (kEntropy && row[j] > 0.0f) tsum += row[j] * d;
  }
  if (kEntropy) *t = tsum;
  return sum;
}

// row[0..cols) times v
static inline void scale_row(float* row, int cols, float v) {
  const int c4 = cols & ~3;
  const v128_t vv = splat(v);
  int j = 0;
  for (; j < c4; j += 4) wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_load(row + j), vv));
  for (; j < cols; ++j) row[j] = row[j] * v;
}

// x: (rows, cols), in place. stable: exp(x - max) / sum; naive: exp(x) / sum.
void softmax_rows_wasmsimd(float* x, int rows, int cols, bool stable) {
  const int c4 = cols & ~3;
  for (int r = 0; r < rows; ++r) {
    float* row = x + static_cast<std::ptrdiff_t>(r) * cols;
    if (stable) {
      scale_row(row, cols, 1.0f / exp_and_sum<exp_nonpositive>(row, cols, largest(row, cols)));
    } else {
      const float sum = exp_and_sum<exp_any>(row, cols, 0.0f);
      const v128_t vsum = splat(sum);
      int j = 0;
      for (; j < c4; j += 4)
        wasm_v128_store(row + j, wasm_f32x4_div(wasm_v128_load(row + j), vsum));
      for (; j < cols; ++j) row[j] = row[j] / sum;
    }
  }
}

float row_max_wasmsimd(const float* x, int n) { return largest(x, n); }

float exp_shift_sum_wasmsimd(float* x, int n, float shift, float* t) {
  return exp_and_sum<exp_nonpositive, true>(x, n, shift, t);
}

// The row as softmax_rows_wasmsimd(stable) computes it with x[len..cols) = -inf. Only the
// prefix up to the next multiple of 16 (or cols) is processed, the blocked entries in it set to
// -inf: up to there the accumulators see the same entries in the same lanes, and every later
// entry would add 0 (exp_and_sum), so the max, the sums and the weights are the same floats.
float softmax_entropy_row_wasmsimd(float* x, int cols, int len) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  const int used = len >= cols - 15 ? cols : (len + 15) & ~15;
  for (int j = len; j < used; ++j) x[j] = neg_inf;
  const float shift = used > 0 ? largest(x, used) : neg_inf;
  if (shift == neg_inf) {
    for (int j = 0; j < cols; ++j) x[j] = 0.0f;
    return 0.0f;
  }
  float t;
  const float sum = exp_and_sum<exp_nonpositive, true>(x, used, shift, &t);
  scale_row(x, used, 1.0f / sum);
  for (int j = used; j < cols; ++j) x[j] = 0.0f;
  return std::log(sum) - t / sum;
}

bool divide_finite_wasmsimd(float* x, std::size_t n, float divisor) {
  const std::size_t n4 = n & ~static_cast<std::size_t>(3);
  const v128_t vd = splat(divisor);
  v128_t bad = splat(0.0f);  // + y * 0: NaN from the first inf (or NaN) on
  std::size_t j = 0;
  for (; j < n4; j += 4) {
    const v128_t y = wasm_f32x4_div(wasm_v128_load(x + j), vd);
    wasm_v128_store(x + j, y);
    bad = wasm_f32x4_add(bad, wasm_f32x4_mul(y, splat(0.0f)));
  }
  bool finite = hsum(bad) == 0.0f;
  for (; j < n; ++j) {
    x[j] = x[j] / divisor;
    finite = finite && std::isfinite(x[j]);
  }
  return finite;
}

void scale_add_wasmsimd(float* y, const float* x, int n, float r) {
  const int n4 = n & ~3;
  const v128_t vr = splat(r);
  int j = 0;
  for (; j < n4; j += 4)
    wasm_v128_store(
        y + j, wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(y + j), vr), wasm_v128_load(x + j)));
  for (; j < n; ++j) y[j] = y[j] * r + x[j];
}

}  // namespace attn::kernels
