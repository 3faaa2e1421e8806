// The hot loops. Each operation has a scalar reference (*_scalar.cpp) and a wasm SIMD128
// version (*_wasmsimd.cpp); the inline functions at the bottom pick one at compile time,
// in this one place. Only the *_wasmsimd.cpp files are compiled with -msimd128.
//
// Determinism contract: the scalar and SIMD versions of dot_rows, fill_normal and
// normal_pair_dot perform the same float operations in the same order (four interleaved
// accumulators, lane order), so the native, wasm-scalar and wasm-SIMD builds return
// bit-identical results for them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::kernels {

// ---- scalar references ------------------------------------------------------------------
// c = a bᵀ        a: (m, k)  b: (n, k)  c: (m, n)
void gemm_abt_scalar(const float* a, const float* b, float* c, int m, int n, int k);
// c = a b         a: (m, k)  b: (k, n)  c: (m, n)
void gemm_ab_scalar(const float* a, const float* b, float* c, int m, int n, int k);
// Row softmax in place. x: (rows, cols). stable subtracts the row max first; the naive
// form exponentiates as is (float32 exp overflows to inf past ~88.72, giving inf/NaN).
void softmax_rows_scalar(float* x, int rows, int cols, bool stable);
// out[i] = a_i · b_i   a, b: (count, d)   out: (count)
void dot_rows_scalar(const float* a, const float* b, float* out, int count, int d);
// Standard normal draws number first .. first+count-1 of the stream named by key.
void fill_normal_scalar(std::uint64_t key, std::uint64_t first, float* out, std::size_t count);
// q·k where q_i and k_i (i = 0 .. n-1) are the two normal draws of pair counter
// c_i = i kPairStride mod 2^32 of the stream named by key (draws 8(c_i/4) + c_i%4 and
// 8(c_i/4) + 4 + c_i%4), computed without drawing q or k: each product is -+ln(u1) sin 2a of
// the pair's Box–Muller numbers (math_approx.h). Summation order as in dot_rows.
float normal_pair_dot_scalar(std::uint64_t key, int n);
// Uniform draws in [0, 1) (24 random bits), number first .. of the stream named by key.
void fill_uniform_scalar(std::uint64_t key, std::uint64_t first, float* out, std::size_t count);

#if defined(ATTN_SIMD)
// ---- wasm SIMD128 versions (same signatures, same results within float rounding) ------
void gemm_abt_wasmsimd(const float* a, const float* b, float* c, int m, int n, int k);
void gemm_ab_wasmsimd(const float* a, const float* b, float* c, int m, int n, int k);
void softmax_rows_wasmsimd(float* x, int rows, int cols, bool stable);
void dot_rows_wasmsimd(const float* a, const float* b, float* out, int count, int d);
void fill_normal_wasmsimd(std::uint64_t key, std::uint64_t first, float* out, std::size_t count);
float normal_pair_dot_wasmsimd(std::uint64_t key, int n);
#endif

// ---- dispatch: one place per operation ----------------------------------------------------
#if defined(ATTN_SIMD)
#define ATTN_KERNEL(name) name##_wasmsimd
#else
#define ATTN_KERNEL(name) name##_scalar
#endif

inline void gemm_abt(const float* a, const float* b, float* c, int m, int n, int k) {
  ATTN_KERNEL(gemm_abt)(a, b, c, m, n, k);
}
inline void gemm_ab(const float* a, const float* b, float* c, int m, int n, int k) {
  ATTN_KERNEL(gemm_ab)(a, b, c, m, n, k);
}
inline void softmax_rows(float* x, int rows, int cols, bool stable) {
  ATTN_KERNEL(softmax_rows)(x, rows, cols, stable);
}
inline void dot_rows(const float* a, const float* b, float* out, int count, int d) {
  ATTN_KERNEL(dot_rows)(a, b, out, count, d);
}
inline void fill_normal(std::uint64_t key, std::uint64_t first, float* out, std::size_t count) {
  ATTN_KERNEL(fill_normal)(key, first, out, count);
}
inline float normal_pair_dot(std::uint64_t key, int n) {
  return ATTN_KERNEL(normal_pair_dot)(key, n);
}
inline void fill_uniform(std::uint64_t key, std::uint64_t first, float* out, std::size_t count) {
  fill_uniform_scalar(key, first, out, count);
}

#undef ATTN_KERNEL

}  // namespace attn::kernels
