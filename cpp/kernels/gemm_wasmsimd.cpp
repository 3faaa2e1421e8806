// Matrix products, wasm SIMD128, register-blocked.
//   gemm_abt: each output is a dot product along k. A 4x2 block of c keeps 8 f32x4
//             accumulators; every load of a is used twice and every load of b four times.
//   gemm_ab:  each row of c is a sum of rows of b. A 4x8 block of c keeps 8 accumulators;
//             a[i][p] is broadcast and two vectors of row p of b are streamed.
// Edges (rows, columns and k not multiples of the block) fall back to smaller blocks and a
// scalar tail. Results agree with the scalar reference to float rounding, not bit for bit.
#include <wasm_simd128.h>

#include "kernels/kernels.h"

namespace attn::kernels {

static inline v128_t madd(v128_t acc, v128_t x, v128_t y) {
  return wasm_f32x4_add(acc, wasm_f32x4_mul(x, y));
}

static inline float hsum(v128_t v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
         (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}

// ---- c = a bᵀ ------------------------------------------------------------------------------
// Lane i of the result: the sum of the four lanes of ri (a transpose with shuffles and adds).
static inline v128_t reduce4(v128_t r0, v128_t r1, v128_t r2, v128_t r3) {
  const v128_t t0 = wasm_f32x4_add(wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5),
                                   wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7));
  const v128_t t1 = wasm_f32x4_add(wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5),
                                   wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7));
  return wasm_f32x4_add(wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5),
                        wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
}

// c[i..i+4][j..j+2]: rows i.. of a against rows j.. of b.
static inline void abt_block_4x2(const float* a, const float* b, float* c, int n, int k) {
  const float *a0 = a, *a1 = a0 + k, *a2 = a1 + k, *a3 = a2 + k;
  const float *b0 = b, *b1 = b + k;
  v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  const int k4 = k & ~3;
  for (int p = 0; p < k4; p += 4) {
    const v128_t vb0 = wasm_v128_load(b0 + p), vb1 = wasm_v128_load(b1 + p);
    v128_t va = wasm_v128_load(a0 + p);
    c00 = madd(c00, va, vb0);
    c01 = madd(c01, va, vb1);
    va = wasm_v128_load(a1 + p);
    c10 = madd(c10, va, vb0);
    c11 = madd(c11, va, vb1);
    va = wasm_v128_load(a2 + p);
    c20 = madd(c20, va, vb0);
    c21 = madd(c21, va, vb1);
    va = wasm_v128_load(a3 + p);
    c30 = madd(c30, va, vb0);
    c31 = madd(c31, va, vb1);
  }
  v128_t col0 = reduce4(c00, c10, c20, c30);  // c[i..i+4][j]
  v128_t col1 = reduce4(c01, c11, c21, c31);  // c[i..i+4][j+1]
  for (int p = k4; p < k; ++p) {              // the last k % 4 terms
    const v128_t va = wasm_f32x4_make(a0[p], a1[p], a2[p], a3[p]);
    col0 = madd(col0, va, wasm_f32x4_splat(b0[p]));
    col1 = madd(col1, va, wasm_f32x4_splat(b1[p]));
  }
  // rows r: (c[r][j], c[r][j+1]) side by side, stored 8 bytes at a time
  const v128_t rows01 = wasm_i32x4_shuffle(col0, col1, 0, 4, 1, 5);
  const v128_t rows23 = wasm_i32x4_shuffle(col0, col1, 2, 6, 3, 7);
  wasm_v128_store64_lane(c, rows01, 0);
  wasm_v128_store64_lane(c + n, rows01, 1);
  wasm_v128_store64_lane(c + 2 * n, rows23, 0);
  wasm_v128_store64_lane(c + 3 * n, rows23, 1);
}

// One output: row a against row b, with two accumulators for a shorter add chain.
static inline float abt_dot(const float* a, const float* b, int k) {
  v128_t acc0 = wasm_f32x4_splat(0.0f), acc1 = acc0;
  int p = 0;
  for (; p + 8 <= k; p += 8) {
    acc0 = madd(acc0, wasm_v128_load(a + p), wasm_v128_load(b + p));
    acc1 = madd(acc1, wasm_v128_load(a + p + 4), wasm_v128_load(b + p + 4));
  }
  if (p + 4 <= k) {
    acc0 = madd(acc0, wasm_v128_load(a + p), wasm_v128_load(b + p));
    p += 4;
  }
  float sum = hsum(wasm_f32x4_add(acc0, acc1));
  for (; p < k; ++p) sum += a[p] * b[p];
  return sum;
}

// c = a bᵀ   a: (m, k)  b: (n, k)  c: (m, n)
void gemm_abt_wasmsimd(const float* a, const float* b, float* c, int m, int n, int k) {
  int i = 0;
  for (; i + 4 <= m; i += 4) {
    const float* ai = a + static_cast<long>(i) * k;
    float* ci = c + static_cast<long>(i) * n;
    int j = 0;
    for (; j + 2 <= n; j += 2) abt_block_4x2(ai, b + static_cast<long>(j) * k, ci + j, n, k);
    for (; j < n; ++j)
      for (int r = 0; r < 4; ++r) ci[r * n + j] = abt_dot(ai + r * k, b + static_cast<long>(j) * k, k);
  }
  for (; i < m; ++i)
    for (int j = 0; j < n; ++j)
      c[static_cast<long>(i) * n + j] =
          abt_dot(a + static_cast<long>(i) * k, b + static_cast<long>(j) * k, k);
}

// ---- c = a b -------------------------------------------------------------------------------
// c[i..i+rows][j..j+8] (rows 1..4): sum over p of a[i][p] * row p of b.
__attribute__((always_inline)) static inline void ab_block_x8(const float* a, const float* b, float* c, int rows, int n,
                               int k) {
  v128_t acc[4][2];
  for (int r = 0; r < 4; ++r) acc[r][0] = acc[r][1] = wasm_f32x4_splat(0.0f);
  for (int p = 0; p < k; ++p) {
    const v128_t b0 = wasm_v128_load(b + static_cast<long>(p) * n);
    const v128_t b1 = wasm_v128_load(b + static_cast<long>(p) * n + 4);
    for (int r = 0; r < rows; ++r) {
      const v128_t va = wasm_v128_load32_splat(a + r * k + p);
      acc[r][0] = madd(acc[r][0], va, b0);
      acc[r][1] = madd(acc[r][1], va, b1);
    }
  }
  for (int r = 0; r < rows; ++r) {
    wasm_v128_store(c + r * n, acc[r][0]);
    wasm_v128_store(c + r * n + 4, acc[r][1]);
  }
}

// The same for 4 columns.
__attribute__((always_inline)) static inline void ab_block_x4(const float* a, const float* b, float* c, int rows, int n,
                               int k) {
  v128_t acc[4];
  for (int r = 0; r < 4; ++r) acc[r] = wasm_f32x4_splat(0.0f);
  for (int p = 0; p < k; ++p) {
    const v128_t b0 = wasm_v128_load(b + static_cast<long>(p) * n);
    for (int r = 0; r < rows; ++r)
      acc[r] = madd(acc[r], wasm_v128_load32_splat(a + r * k + p), b0);
  }
  for (int r = 0; r < rows; ++r) wasm_v128_store(c + r * n, acc[r]);
}

// The last n % 4 columns, scalar.
__attribute__((always_inline)) static inline void ab_block_scalar(const float* a, const float* b, float* c, int rows, int cols,
                                   int n, int k) {
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < cols; ++j) {
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum += a[r * k + p] * b[static_cast<long>(p) * n + j];
      c[r * n + j] = sum;
    }
}

__attribute__((always_inline)) static inline void ab_rows(const float* a, const float* b, float* c, int rows, int n, int k) {
  int j = 0;
  for (; j + 8 <= n; j += 8) ab_block_x8(a, b + j, c + j, rows, n, k);
  for (; j + 4 <= n; j += 4) ab_block_x4(a, b + j, c + j, rows, n, k);
  if (j < n) ab_block_scalar(a, b + j, c + j, rows, n - j, n, k);
}

// c = a b   a: (m, k)  b: (k, n)  c: (m, n)
void gemm_ab_wasmsimd(const float* a, const float* b, float* c, int m, int n, int k) {
  int i = 0;
  for (; i + 4 <= m; i += 4)
    ab_rows(a + static_cast<long>(i) * k, b, c + static_cast<long>(i) * n, 4, n, k);
  for (; i < m; ++i)
    ab_rows(a + static_cast<long>(i) * k, b, c + static_cast<long>(i) * n, 1, n, k);
}

}  // namespace attn::kernels
