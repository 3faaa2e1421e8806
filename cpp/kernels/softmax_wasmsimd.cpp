// Row softmax, wasm SIMD128, with a float32 polynomial exp (Cephes expf: x = n ln 2 + r,
// exp(r) by a degree-5 polynomial, times 2^n). Like expf it gives +inf past ~88.72 (so the
// naive form overflows honestly to inf and NaN), 0 for very negative x and for -inf, and
// subnormal results down to ~-103.97.
#include <wasm_simd128.h>

#include <limits>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"

namespace attn::kernels {

static inline v128_t splat_f(float x) { return wasm_f32x4_splat(x); }

static inline v128_t exp_x4(v128_t x) {
  const v128_t over = wasm_f32x4_gt(x, splat_f(kExpOverflow));
  const v128_t under = wasm_f32x4_lt(x, splat_f(kExpUnderflow));
  // clamp; pmax/pmin (one instruction each) with x first let a NaN pass through, and stay NaN
  v128_t xc = wasm_f32x4_pmin(wasm_f32x4_pmax(x, splat_f(kExpUnderflow)), splat_f(kExpOverflow));
  const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(xc, splat_f(kLog2e)));
  v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(n, splat_f(kLn2Hi)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, splat_f(kLn2Lo)));
  const v128_t z = wasm_f32x4_mul(r, r);
  v128_t p = splat_f(kExpP0);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat_f(kExpP1));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat_f(kExpP2));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat_f(kExpP3));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat_f(kExpP4));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), splat_f(kExpP5));
  p = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(p, z), r), splat_f(1.0f));
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

static inline float exp_one(float x) { return wasm_f32x4_extract_lane(exp_x4(splat_f(x)), 0); }

// x: (rows, cols), in place. stable: exp(x - max) / sum; naive: exp(x) / sum.
// The main loops take 16 columns a step (four independent vectors) so the exp chains overlap.
void softmax_rows_wasmsimd(float* x, int rows, int cols, bool stable) {
  const int c16 = cols & ~15, c4 = cols & ~3;
  for (int r = 0; r < rows; ++r) {
    float* row = x + static_cast<long>(r) * cols;
    // row max (stable only); the scores carry no NaN, so pmax (maxps) is enough
    float shift = 0.0f;
    if (stable) {
      shift = row[0];
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
    }
    // exponentials and their sum
    const v128_t vshift = splat_f(shift);
    v128_t s0 = splat_f(0.0f), s1 = s0, s2 = s0, s3 = s0;
    int j = 0;
    for (; j < c16; j += 16) {
      const v128_t e0 = exp_x4(wasm_f32x4_sub(wasm_v128_load(row + j), vshift));
      const v128_t e1 = exp_x4(wasm_f32x4_sub(wasm_v128_load(row + j + 4), vshift));
      const v128_t e2 = exp_x4(wasm_f32x4_sub(wasm_v128_load(row + j + 8), vshift));
      const v128_t e3 = exp_x4(wasm_f32x4_sub(wasm_v128_load(row + j + 12), vshift));
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
      const v128_t e = exp_x4(wasm_f32x4_sub(wasm_v128_load(row + j), vshift));
      wasm_v128_store(row + j, e);
      s0 = wasm_f32x4_add(s0, e);
    }
    const v128_t vsum = wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3));
    float sum = (wasm_f32x4_extract_lane(vsum, 0) + wasm_f32x4_extract_lane(vsum, 1)) +
                (wasm_f32x4_extract_lane(vsum, 2) + wasm_f32x4_extract_lane(vsum, 3));
    for (j = c4; j < cols; ++j) {
      row[j] = exp_one(row[j] - shift);
      sum += row[j];
    }
    // normalise
    const v128_t vs = splat_f(sum);
    for (j = 0; j < c4; j += 4)
      wasm_v128_store(row + j, wasm_f32x4_div(wasm_v128_load(row + j), vs));
    for (j = c4; j < cols; ++j) row[j] = row[j] / sum;
  }
}

}  // namespace attn::kernels
