// Small helpers shared by the *_wasmsimd.cpp kernels (include only from those files: they are
// the only ones compiled with -msimd128).
#pragma once

#include <wasm_simd128.h>

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

}  // namespace attn::kernels
