// Counter-based normal draws, wasm SIMD128: the scalar Box–Muller of random_scalar.cpp on four
// lanes at once (the hash, log, sqrt, sin and cos all vectorised). Each lane performs exactly
// the scalar float operations, in the same order, so the draws are bit-identical.
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"

namespace attn::kernels {

static inline v128_t splat_u(std::uint32_t x) { return wasm_i32x4_splat(static_cast<int>(x)); }
static inline v128_t splat_f(float x) { return wasm_f32x4_splat(x); }

static inline v128_t lowbias32_x4(v128_t x) {
  x = wasm_v128_xor(x, wasm_u32x4_shr(x, 16));
  x = wasm_i32x4_mul(x, splat_u(kHashMul1));
  x = wasm_v128_xor(x, wasm_u32x4_shr(x, 15));
  x = wasm_i32x4_mul(x, splat_u(kHashMul2));
  return wasm_v128_xor(x, wasm_u32x4_shr(x, 16));
}

static inline v128_t draw_bits_x4(v128_t k0, v128_t k1, v128_t counter) {
  return lowbias32_x4(wasm_i32x4_add(lowbias32_x4(wasm_v128_xor(counter, k0)), k1));
}

// log_normal_positive on four lanes.
static inline v128_t log_x4(v128_t x) {
  v128_t e = wasm_i32x4_sub(wasm_u32x4_shr(x, 23), wasm_i32x4_splat(126));
  v128_t m = wasm_v128_or(wasm_v128_and(x, splat_u(0x007fffffU)), splat_u(0x3f000000U));
  v128_t low = wasm_f32x4_lt(m, splat_f(kSqrtHalf));  // all ones = -1 where m < sqrt(1/2)
  e = wasm_i32x4_add(e, low);
  v128_t t = wasm_v128_bitselect(wasm_f32x4_add(m, m), m, low);
  t = wasm_f32x4_sub(t, splat_f(1.0f));
  v128_t z = wasm_f32x4_mul(t, t);
  v128_t y = splat_f(kLogP0);
  y = wasm_f32x4_add(wasm_f32x4_mul(y, t), splat_f(kLogP1));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, t), splat_f(kLogP2));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, t), splat_f(kLogP3));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, t), splat_f(kLogP4));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, t), splat_f(kLogP5));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, t), splat_f(kLogP6));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, t), splat_f(kLogP7));
  y = wasm_f32x4_add(wasm_f32x4_mul(y, t), splat_f(kLogP8));
  y = wasm_f32x4_mul(y, t);
  y = wasm_f32x4_mul(y, z);
  v128_t fe = wasm_f32x4_convert_i32x4(e);
  y = wasm_f32x4_add(y, wasm_f32x4_mul(fe, splat_f(kLn2Lo)));
  y = wasm_f32x4_sub(y, wasm_f32x4_mul(z, splat_f(0.5f)));
  v128_t r = wasm_f32x4_add(t, y);
  return wasm_f32x4_add(r, wasm_f32x4_mul(fe, splat_f(kLn2Hi)));
}

// box_muller on four lanes: *c = r cos(theta), *s = r sin(theta).
static inline void box_muller_x4(v128_t h1, v128_t h2, v128_t* c, v128_t* s) {
  v128_t u1 = wasm_f32x4_convert_i32x4(wasm_u32x4_shr(h1, 8));
  u1 = wasm_f32x4_sub(splat_f(1.0f), wasm_f32x4_mul(u1, splat_f(kTwoPow24Inv)));
  v128_t r = wasm_f32x4_sqrt(wasm_f32x4_mul(log_x4(u1), splat_f(-2.0f)));

  v128_t a = wasm_v128_and(wasm_u32x4_shr(h2, 8), splat_u(0x3fffffU));
  a = wasm_f32x4_add(wasm_f32x4_convert_i32x4(a), splat_f(0.5f));
  a = wasm_f32x4_sub(wasm_f32x4_mul(a, splat_f(kAngleStep)), splat_f(kQuarterPi));
  v128_t z = wasm_f32x4_mul(a, a);
  v128_t sa = splat_f(kSin1);  // sin_small
  sa = wasm_f32x4_add(wasm_f32x4_mul(sa, z), splat_f(kSin2));
  sa = wasm_f32x4_add(wasm_f32x4_mul(sa, z), splat_f(kSin3));
  sa = wasm_f32x4_mul(sa, z);
  sa = wasm_f32x4_mul(sa, a);
  sa = wasm_f32x4_add(sa, a);
  v128_t ca = splat_f(kCos1);  // cos_small
  ca = wasm_f32x4_add(wasm_f32x4_mul(ca, z), splat_f(kCos2));
  ca = wasm_f32x4_add(wasm_f32x4_mul(ca, z), splat_f(kCos3));
  ca = wasm_f32x4_mul(ca, z);
  ca = wasm_f32x4_mul(ca, z);
  ca = wasm_f32x4_sub(ca, wasm_f32x4_mul(z, splat_f(0.5f)));
  ca = wasm_f32x4_add(ca, splat_f(1.0f));

  // quadrant q = top 2 bits of h2: odd q swaps cos and sin; the sign bits follow q.
  v128_t odd = wasm_i32x4_shr(wasm_i32x4_shl(h2, 1), 31);
  v128_t x = wasm_v128_bitselect(sa, ca, odd);
  v128_t y = wasm_v128_bitselect(ca, sa, odd);
  const v128_t sign = splat_u(0x80000000U);
  x = wasm_v128_xor(x, wasm_v128_and(wasm_v128_xor(h2, wasm_i32x4_shl(h2, 1)), sign));
  y = wasm_v128_xor(y, wasm_v128_and(h2, sign));
  *c = wasm_f32x4_mul(r, x);
  *s = wasm_f32x4_mul(r, y);
}

// Standard normal draws first .. first+count-1 of the stream named by key.
void fill_normal_wasmsimd(std::uint64_t key, std::uint64_t first, float* out,
                          std::size_t count) {
  if (count == 0) return;
  const std::uint32_t k1 = static_cast<std::uint32_t>(key >> 32);
  const v128_t k0 = splat_u(static_cast<std::uint32_t>(key));
  const v128_t lanes_lo = wasm_i32x4_make(0, 1, 2, 3);
  const v128_t lanes_hi = wasm_i32x4_make(4, 5, 6, 7);
  const std::uint64_t last = first + count;  // one past the last draw
  for (std::uint64_t base = first / 8 * 8; base < last; base += 8) {
    const v128_t kb = splat_u(hi_k1(k1, base));
    const v128_t lo = splat_u(static_cast<std::uint32_t>(base));
    v128_t h1 = draw_bits_x4(k0, kb, wasm_i32x4_add(lo, lanes_lo));
    v128_t h2 = draw_bits_x4(k0, kb, wasm_i32x4_add(lo, lanes_hi));
    v128_t c, s;
    box_muller_x4(h1, h2, &c, &s);
    if (base >= first && base + 8 <= last) {  // a whole block: store it
      float* dst = out + (base - first);
      wasm_v128_store(dst, c);
      wasm_v128_store(dst + 4, s);
    } else {  // the first or last block: only the draws in range
      alignas(16) float block[8];
      wasm_v128_store(block, c);
      wasm_v128_store(block + 4, s);
      for (std::uint64_t i = base; i < base + 8; ++i)
        if (i >= first && i < last) out[i - first] = block[i - base];
    }
  }
}

}  // namespace attn::kernels
