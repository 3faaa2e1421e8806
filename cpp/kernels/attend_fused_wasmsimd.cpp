// The output-only attention's row step, wasm SIMD128 (kernels.h, exp_scores_row): the scale, the
// finiteness check and the row max in one pass, then the exponentials with their two sums in a
// second, the weights left unnormalised (attend_output.cpp divides P V's row by the sum instead
// of every weight by it).
// exp(d) for d <= 0 as 2^z, z = max(d log2e, -126): z = n + f with n = round(z) (the magic-number
// trick leaves n + 127 in the low bits, so 2^n is one shift) and f in [-1/2, 1/2], 2^f = 1 + f P(f)
// with Cephes exp2f's degree-5 P (about 2e-7 relative, plus 1.5e-7 |d| from rounding d and d log2e:
// the weights that count, d near 0, are the accurate ones). d below -87.3 gives 2^-126 (1.2e-38)
// instead of a smaller number or 0: against weights that sum to >= 1 that changes nothing a
// float can show. No entry is -inf here (the causal keys past len are not computed at all), so
// no mask is needed, and t = Σ e d has no 0 · inf to guard against.
#include <wasm_simd128.h>

#include <cmath>
#include <limits>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"
#include "kernels/wasmsimd_util.h"

namespace attn::kernels {

namespace {

constexpr float kExp2P0 = 1.535336188319500e-4f;
constexpr float kExp2P1 = 1.339887440266574e-3f;
constexpr float kExp2P2 = 9.618437357674640e-3f;
constexpr float kExp2P3 = 5.550332471162809e-2f;
constexpr float kExp2P4 = 2.402264791363012e-1f;
constexpr float kExp2P5 = 6.931472028550421e-1f;

// exp(d) for d <= 0 (finite)
inline v128_t exp_le0(v128_t d) {
  const v128_t magic = splat(12583039.0f);  // 1.5 2^23 + 127
  const v128_t z = wasm_f32x4_pmax(wasm_f32x4_mul(d, splat(kLog2e)), splat(-126.0f));
  const v128_t zn = wasm_f32x4_add(z, magic);
  const v128_t two_n = wasm_i32x4_shl(zn, 23);
  const v128_t f = wasm_f32x4_sub(z, wasm_f32x4_sub(zn, magic));
  v128_t p = splat(kExp2P0);
  p = madd(splat(kExp2P1), p, f);
  p = madd(splat(kExp2P2), p, f);
  p = madd(splat(kExp2P3), p, f);
  p = madd(splat(kExp2P4), p, f);
  p = madd(splat(kExp2P5), p, f);
  return wasm_f32x4_mul(madd(splat(1.0f), p, f), two_n);
}

}  // namespace

bool exp_scores_row_wasmsimd(float* x, int n, int len, float scale, float* max, float* sum,
                             float* t) {
  const v128_t vs = splat(scale), zero = splat(0.0f);
  const int n4 = n & ~3, len4 = len & ~3;
  v128_t bad = zero;  // + y 0: NaN from the first inf (or NaN) on
  v128_t m4 = splat(*max);
  int j = 0;
  for (; j < len4; j += 4) {
    const v128_t y = wasm_f32x4_mul(wasm_v128_load(x + j), vs);
    wasm_v128_store(x + j, y);
    bad = wasm_f32x4_add(bad, wasm_f32x4_mul(y, zero));
    m4 = wasm_f32x4_pmax(m4, y);
  }
  for (; j < n4; j += 4) {
    const v128_t y = wasm_f32x4_mul(wasm_v128_load(x + j), vs);
    wasm_v128_store(x + j, y);
    bad = wasm_f32x4_add(bad, wasm_f32x4_mul(y, zero));
  }
  bool finite = hsum(bad) == 0.0f;
  for (; j < n; ++j) {
    x[j] = x[j] * scale;
    finite = finite && std::isfinite(x[j]);
  }
  if (!finite) return false;
  m4 = wasm_f32x4_pmax(m4, wasm_i32x4_shuffle(m4, m4, 2, 3, 0, 1));
  m4 = wasm_f32x4_pmax(m4, wasm_i32x4_shuffle(m4, m4, 1, 0, 3, 2));
  float m = wasm_f32x4_extract_lane(m4, 0);
  for (int i = len4; i < len; ++i) m = x[i] > m ? x[i] : m;
  // exponentials of the first len, two vectors a step
  const v128_t vm = splat(m);
  v128_t l0 = zero, l1 = zero, t0 = zero, t1 = zero;
  const int len8 = len & ~7;
  j = 0;
  for (; j < len8; j += 8) {
    const v128_t d0 = wasm_f32x4_sub(wasm_v128_load(x + j), vm);
    const v128_t d1 = wasm_f32x4_sub(wasm_v128_load(x + j + 4), vm);
    const v128_t e0 = exp_le0(d0), e1 = exp_le0(d1);
    wasm_v128_store(x + j, e0);
    wasm_v128_store(x + j + 4, e1);
    l0 = wasm_f32x4_add(l0, e0);
    l1 = wasm_f32x4_add(l1, e1);
    t0 = madd(t0, e0, d0);
    t1 = madd(t1, e1, d1);
  }
  for (; j < len4; j += 4) {
    const v128_t d0 = wasm_f32x4_sub(wasm_v128_load(x + j), vm);
    const v128_t e0 = exp_le0(d0);
    wasm_v128_store(x + j, e0);
    l0 = wasm_f32x4_add(l0, e0);
    t0 = madd(t0, e0, d0);
  }
  float l = hsum(wasm_f32x4_add(l0, l1)), tl = hsum(wasm_f32x4_add(t0, t1));
  for (; j < len; ++j) {
    const float d = x[j] - m;
    x[j] = wasm_f32x4_extract_lane(exp_le0(splat(d)), 0);
    l += x[j];
    tl += x[j] * d;
  }
  for (j = len < 0 ? 0 : len; j < n; ++j) x[j] = 0.0f;
  *max = m;
  *sum = l;
  *t = tl;
  return true;
}

}  // namespace attn::kernels
