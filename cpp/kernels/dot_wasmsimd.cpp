// Row-wise dot products, wasm SIMD128. One f32x4 accumulator per row holds the four
// interleaved sums of the scalar reference (lane l sums a[4j+l] b[4j+l]); they combine as
// (l0 + l1) + (l2 + l3), then the tail: bit-identical to dot_rows_scalar. Four rows at a time
// give four independent add chains.
#include <wasm_simd128.h>

#include <cstddef>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_util.h"

namespace attn::kernels {

static inline float finish_row(v128_t acc, const float* a, const float* b, int p, int d) {
  float sum = hsum(acc);  // (l0 + l1) + (l2 + l3)
  for (; p < d; ++p) sum += a[p] * b[p];
  return sum;
}

// out[i] = a_i · b_i   a, b: (count, d)   out: (count)
void dot_rows_wasmsimd(const float* a, const float* b, float* out, int count, int d) {
  const int d4 = d & ~3;
  int i = 0;
  for (; i + 4 <= count; i += 4) {
    const float* a0 = a + static_cast<std::ptrdiff_t>(i) * d;
    const float* b0 = b + static_cast<std::ptrdiff_t>(i) * d;
    const float *a1 = a0 + d, *a2 = a1 + d, *a3 = a2 + d;
    const float *b1 = b0 + d, *b2 = b1 + d, *b3 = b2 + d;
    v128_t acc0 = wasm_f32x4_splat(0.0f), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    for (int p = 0; p < d4; p += 4) {
      acc0 = madd(acc0, wasm_v128_load(a0 + p), wasm_v128_load(b0 + p));
      acc1 = madd(acc1, wasm_v128_load(a1 + p), wasm_v128_load(b1 + p));
      acc2 = madd(acc2, wasm_v128_load(a2 + p), wasm_v128_load(b2 + p));
      acc3 = madd(acc3, wasm_v128_load(a3 + p), wasm_v128_load(b3 + p));
    }
    out[i] = finish_row(acc0, a0, b0, d4, d);
    out[i + 1] = finish_row(acc1, a1, b1, d4, d);
    out[i + 2] = finish_row(acc2, a2, b2, d4, d);
    out[i + 3] = finish_row(acc3, a3, b3, d4, d);
  }
  for (; i < count; ++i) {  // the last rows, one at a time
    const float* ai = a + static_cast<std::ptrdiff_t>(i) * d;
    const float* bi = b + static_cast<std::ptrdiff_t>(i) * d;
    v128_t acc = wasm_f32x4_splat(0.0f);
    for (int p = 0; p < d4; p += 4) acc = madd(acc, wasm_v128_load(ai + p), wasm_v128_load(bi + p));
    out[i] = finish_row(acc, ai, bi, d4, d);
  }
}

}  // namespace attn::kernels
