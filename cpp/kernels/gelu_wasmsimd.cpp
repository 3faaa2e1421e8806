// GELU's tanh form, wasm SIMD128: the scalar reference's x sigmoid(2u) (gelu_scalar.cpp) in four
// lanes, with the softmax's polynomial exp (wasmsimd_util.h) for e^(-2|u|); below the smallest
// normal float that exp is 0, so a very negative x gives 0 where the reference gives a subnormal
// (both within 1e-37 of the true value). The last n % 4 entries go through one padded vector, so
// every entry is computed the same way.
#include <wasm_simd128.h>

#include <algorithm>
#include <cstddef>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_util.h"

namespace attn::kernels {

static inline v128_t gelu4(v128_t v) {
  const v128_t cube = wasm_f32x4_mul(wasm_f32x4_mul(v, v), v);
  const v128_t u = wasm_f32x4_mul(splat(kGeluK), madd(v, splat(kGeluC), cube));
  const v128_t t = exp_nonpositive(wasm_f32x4_mul(splat(-2.0f), wasm_f32x4_abs(u)));
  const v128_t num = wasm_v128_bitselect(v, wasm_f32x4_mul(v, t), wasm_f32x4_ge(u, splat(0.0f)));
  return wasm_f32x4_div(num, wasm_f32x4_add(splat(1.0f), t));
}

void gelu_tanh_wasmsimd(float* x, std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(x + i, gelu4(wasm_v128_load(x + i)));
  if (i < n) {
    alignas(16) float tail[4] = {0, 0, 0, 0};
    std::copy(x + i, x + n, tail);
    wasm_v128_store(tail, gelu4(wasm_v128_load(tail)));
    std::copy(tail, tail + (n - i), x + i);
  }
}

}  // namespace attn::kernels
