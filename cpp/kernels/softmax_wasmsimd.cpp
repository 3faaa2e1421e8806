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

#include <cstddef>
#include <limits>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"
#include "kernels/wasmsimd_util.h"

namespace attn::kernels {

static inline v128_t splat_f(float x) { return wasm_f32x4_splat(x); }

// exp(r) for |r| <= ln2 / 2: 1 + r + r² p(r)
static inline v128_t exp_reduced(v128_t r) {
  const v128_t z = wasm_f32x4_mul(r, r);
  v128_t p = splat_f(kExpP0);
  p = madd(splat_f(kExpP1), p, r);
  p = madd(splat_f(kExpP2), p, r);
  p = madd(splat_f(kExpP3), p, r);
  p = madd(splat_f(kExpP4), p, r);
  p = madd(splat_f(kExpP5), p, r);
  return wasm_f32x4_add(madd(r, p, z), splat_f(1.0f));
}

// exp(x) for x <= 0 (and -inf); NaN stays NaN.
static inline v128_t exp_nonpositive(v128_t x) {
  const float kMinNormalArg = -87.33654f;  // exp of this is the smallest normal float
  // 1.5 2^23 + 127: adding it rounds x log2e to an integer n and leaves n + 127 in the low bits
  const v128_t magic = splat_f(12583039.0f);
  v128_t n = madd(magic, x, splat_f(kLog2e));
  const v128_t scale = wasm_i32x4_shl(n, 23);  // 2^n: (n + 127) in the exponent field
  n = wasm_f32x4_sub(n, magic);
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, splat_f(kLn2Hi)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, splat_f(kLn2Lo)));
  const v128_t e = wasm_f32x4_mul(exp_reduced(r), scale);
  return wasm_v128_andnot(e, wasm_f32x4_lt(x, splat_f(kMinNormalArg)));
}

// exp(x) for any x, as expf: +inf above kExpOverflow, subnormal results, 0 below kExpUnderflow.
static inline v128_t exp_any(v128_t x) {
  const v128_t over = wasm_f32x4_gt(x, splat_f(kExpOverflow));
  const v128_t under = wasm_f32x4_lt(x, splat_f(kExpUnderflow));
  // clamp; pmax/pmin (one instruction each) with x first let a NaN pass through, and stay NaN
  v128_t xc = wasm_f32x4_pmin(wasm_f32x4_pmax(x, splat_f(kExpUnderflow)), splat_f(kExpOverflow));
  const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(xc, splat_f(kLog2e)));
  v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(n, splat_f(kLn2Hi)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, splat_f(kLn2Lo)));
  v128_t p = exp_reduced(r);
  // times 2^n as 2^(n/2) 2^(n - n/2), so that n down to -150 (subnormal results) works
  const v128_t ni = wasm_i32x4_trunc_sat_f32x4(n);
  const v128_t n1 = wasm_i32x4_shr(ni, 1);
  const v128_t n2 = wasm_i32x4_sub(ni, n1);
  const v128_t bias = wasm_i32x4_splat(127);
  p = wasm_f32x4_mul(p, wasm_i32x4_shl(wasm_i32x4_add(n1, bias), 23));
  p = wasm_f32x4_mul(p, wasm_i32x4_shl(wasm_i32x4_add(n2, bias), 23));
  p = wasm_v128_bitselect(splat_f(std::numeric_limits<float>::infinity()), p, over);
  return wasm_v128_andnot(p, under);
}

// The largest entry of a row (the scores carry no NaN, so pmax is enough).
static inline float row_max(const float* row, int cols) {
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

// row[j] = exp(row[j] - shift); returns their sum. 16 columns a step (four independent
// vectors) so the exp chains overlap; the last cols % 4 one at a time.
template <v128_t (*Exp)(v128_t)>
static inline float exp_and_sum(float* row, int cols, float shift) {
  const int c16 = cols & ~15, c4 = cols & ~3;
  const v128_t vshift = splat_f(shift);
  v128_t s0 = splat_f(0.0f), s1 = s0, s2 = s0, s3 = s0;
  int j = 0;
  for (; j < c16; j += 16) {
    const v128_t e0 = Exp(wasm_f32x4_sub(wasm_v128_load(row + j), vshift));
    const v128_t e1 = Exp(wasm_f32x4_sub(wasm_v128_load(row + j + 4), vshift));
    const v128_t e2 = Exp(wasm_f32x4_sub(wasm_v128_load(row + j + 8), vshift));
    const v128_t e3 = Exp(wasm_f32x4_sub(wasm_v128_load(row + j + 12), vshift));
    wasm_v128_store(row + j, e0);
    wasm_v128_store(row + j + 4, e1);
    wasm_v128_store(row + j + 8, e2);
    wasm_v128_store(row + j + 12, e3);
    s0 = wasm_f32x4_add(s0, e0);
    s1 = wasm_f32x4_add(s1, e1);
    s2 = wasm_f32x4_add(s2, e2);
    s3 = wasm_f32x4_add(s3, e3);
  }
  for (; j < c4; j += 4) {
    const v128_t e = Exp(wasm_f32x4_sub(wasm_v128_load(row + j), vshift));
    wasm_v128_store(row + j, e);
    s0 = wasm_f32x4_add(s0, e);
  }
  float sum = hsum(wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3)));
  for (; j < cols; ++j) {
    row[j] = wasm_f32x4_extract_lane(Exp(splat_f(row[j] - shift)), 0);
    sum += row[j];
  }
  return sum;
}

// x: (rows, cols), in place. stable: exp(x - max) / sum; naive: exp(x) / sum.
void softmax_rows_wasmsimd(float* x, int rows, int cols, bool stable) {
  const int c4 = cols & ~3;
  for (int r = 0; r < rows; ++r) {
    float* row = x + static_cast<std::ptrdiff_t>(r) * cols;
    if (stable) {
      const float inv = 1.0f / exp_and_sum<exp_nonpositive>(row, cols, row_max(row, cols));
      const v128_t vinv = splat_f(inv);
      int j = 0;
      for (; j < c4; j += 4) wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_load(row + j), vinv));
      for (; j < cols; ++j) row[j] = row[j] * inv;
    } else {
      const float sum = exp_and_sum<exp_any>(row, cols, 0.0f);
      const v128_t vsum = splat_f(sum);
      int j = 0;
      for (; j < c4; j += 4) wasm_v128_store(row + j, wasm_f32x4_div(wasm_v128_load(row + j), vsum));
      for (; j < cols; ++j) row[j] = row[j] / sum;
    }
  }
}

}  // namespace attn::kernels
