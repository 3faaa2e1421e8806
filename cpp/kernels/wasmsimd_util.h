// Small helpers shared by the *_wasmsimd.cpp kernels (include only from those files: they are
// the only ones compiled with -msimd128).
#pragma once

#include <wasm_simd128.h>

#include "kernels/math_approx.h"

namespace attn::kernels {

// x in all four lanes.
static inline v128_t splat(float x) { return wasm_f32x4_splat(x); }

// acc + x y: a multiply and an add, rounded separately (wasm SIMD has no fused multiply-add),
// so it gives the same float as the scalar `acc + x * y`.
static inline v128_t madd(v128_t acc, v128_t x, v128_t y) {
  return wasm_f32x4_add(acc, wasm_f32x4_mul(x, y));
}

// The sum of the four lanes as (l0 + l1) + (l2 + l3). This order is part of the bit-identity
// contract of kernels.h: a scalar reference with four interleaved accumulators combines them
// the same way.
static inline float hsum(v128_t v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
         (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}

// Cephes expf in four lanes (math_approx.h's constants): x = n ln 2 + r, exp(r) = 1 + r + r² p(r)
// with p of degree 5, times 2^n. The softmax (softmax_wasmsimd.cpp) and GELU (gelu_wasmsimd.cpp)
// use it.
// exp(r) for |r| <= ln2 / 2: 1 + r + r² p(r)
static inline v128_t exp_reduced(v128_t r) {
  const v128_t z = wasm_f32x4_mul(r, r);
  v128_t p = splat(kExpP0);
  p = madd(splat(kExpP1), p, r);
  p = madd(splat(kExpP2), p, r);
  p = madd(splat(kExpP3), p, r);
  p = madd(splat(kExpP4), p, r);
  p = madd(splat(kExpP5), p, r);
  return wasm_f32x4_add(madd(r, p, z), splat(1.0f));
}

// exp(x) for x <= 0 (and -inf); NaN stays NaN.
static inline v128_t exp_nonpositive(v128_t x) {
  const float kMinNormalArg = -87.33654f;  // exp of this is the smallest normal float
  // 1.5 2^23 + 127: adding it rounds x log2e to an integer n and leaves n + 127 in the low bits
  const v128_t magic = splat(12583039.0f);
  v128_t n = madd(magic, x, splat(kLog2e));
  const v128_t scale = wasm_i32x4_shl(n, 23);  // 2^n: (n + 127) in the exponent field
  n = wasm_f32x4_sub(n, magic);
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, splat(kLn2Hi)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, splat(kLn2Lo)));
  const v128_t e = wasm_f32x4_mul(exp_reduced(r), scale);
  return wasm_v128_andnot(e, wasm_f32x4_lt(x, splat(kMinNormalArg)));
}

}  // namespace attn::kernels
