// The hot loops. Each operation has a scalar reference (*_scalar.cpp) and a wasm SIMD128
// version (*_wasmsimd.cpp); the inline functions at the bottom pick one at compile time,
// in this one place. Only the *_wasmsimd.cpp files are compiled with -msimd128.
//
// Determinism contract: the scalar and SIMD versions of dot_rows, fill_normal and
// normal_pair_dot (the draws of fill_normal summed as dot_rows sums them) perform the
// same float operations in the same order (four interleaved accumulators, lane order; the same
// Box–Muller steps on the same Philox words), so the native, wasm-scalar and wasm-SIMD builds
// return bit-identical results for them. So do gemm_abt and gemm_ab: every output is 0, then
// + a[i][p] b[p][j] for p = 0, 1, ..., k - 1, each product and sum rounded to float (the SIMD
// version computes 4x8 blocks of outputs at once, each in that order). softmax_rows agrees to
// a few float ulps (its SIMD exp is a polynomial; std::exp differs between libraries anyway),
// and so do softmax_entropy_row and exp_shift_sum; within one build softmax_entropy_row gives
// the weights of softmax_rows (stable) bit for bit. divide_finite, scale_add and row_max are
// bit-identical in every build (one rounding per element; a max is exact). gemm_packed sums
// every output in the order of gemm_ab, and gemm_abt's when b is packed with pack_bt, so it
// gives their floats in every build too. gelu_tanh agrees to a few float ulps (its SIMD exp is
// the softmax's polynomial).
// The SIMD horizontal sum of a vector is (l0 + l1) + (l2 + l3) (wasmsimd_util.h, hsum).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/philox.h"

namespace attn::kernels {

// Scratch memory for the packed operands of the SIMD products. A caller that multiplies many
// times (the tiles of flash attention) keeps one for the whole computation and passes it to
// every call, so packing allocates only when a call needs more room than the ones before.
// Without one, a call packs into a buffer of its own and frees it before returning.
class Workspace {
 public:
  // At least n floats, valid until the next call.
  float* floats(std::size_t n) {
    if (storage_.size() < n) {
      storage_.reserve(n);  // exactly n (resize alone may take twice as much)
      storage_.resize(n);
    }
    return storage_.data();
  }

 private:
  std::vector<float> storage_;
};

// A right-hand operand b (rows, cols) of c = a b, packed once for many products (output-only
// attention packs K and V once per call, and multiplies blocks of queries by them): panels of 8
// columns, panel j/8 holding b[p][j..j+8) for every row p (zero past cols), one after another:
// data is (ceil(cols / 8), rows, 8). The same layout in every build.
struct PackedMatrix {
  const float* data = nullptr;
  int rows = 0, cols = 0;
  // floats a packed (rows, cols) operand takes
  static std::size_t size(int rows, int cols) {
    return static_cast<std::size_t>((cols + 7) / 8) * 8 * static_cast<std::size_t>(rows);
  }
};
// Packs b (rows, cols), rows ld apart, into out (PackedMatrix::size(rows, cols) floats).
PackedMatrix pack_b(const float* b, int rows, int cols, int ld, float* out);
// Packs bᵀ for b (cols, rows), rows ld apart (c = a bᵀ: b's rows become the columns), into out.
PackedMatrix pack_bt(const float* b, int cols, int rows, int ld, float* out);

// ---- scalar references ------------------------------------------------------------------
// c = a bᵀ        a: (m, k)  b: (n, k)  c: (m, n)
void gemm_abt_scalar(const float* a, const float* b, float* c, int m, int n, int k);
// c = a b         a: (m, k)  b: (k, n)  c: (m, n)
void gemm_ab_scalar(const float* a, const float* b, float* c, int m, int n, int k);
// c = a b[row0 .. row0 + k, col0 .. col0 + n) with b packed (col0 % 8 == 0):
//   a: (m, k) rows lda apart   c: (m, n) rows ldc apart
// Each output is 0, then + a[i][p] b[row0 + p][col0 + j] for p = 0 .. k-1, as gemm_ab sums.
void gemm_packed_scalar(const float* a, int lda, const PackedMatrix& b, int row0, int col0,
                        float* c, int ldc, int m, int n, int k);
// The row step of output-only attention (attend_output.cpp) and of flash attention's tiles without
// a mask, on one row of raw scores x (n): each is multiplied by scale (1 / (sqrt(d_k)
// temperature)); false, with x scaled, when one of them is not finite. Else, with m the larger of
// *max (-inf, or a running max) and the largest of x[0..len) (len >= 1), x[j] = exp(x[j] - m) for
// j < len and x[len..n) = 0: weights left unnormalised; *max = m, *sum = Σ x_j and
// *t = Σ x_j (x_j - m), so that a row's entropy is log *sum - *t / *sum. The SIMD exp is a
// polynomial (attend_fused_wasmsimd.cpp) within 2e-7 + 1.5e-7 |d| of std::exp(d) (relative), so the
// builds agree to that, not bit for bit.
bool exp_scores_row_scalar(float* x, int n, int len, float scale, float* max, float* sum, float* t);
// Row softmax in place. x: (rows, cols). stable subtracts the row max first; the naive
// form exponentiates as is (float32 exp overflows to inf past ~88.72, giving inf/NaN).
void softmax_rows_scalar(float* x, int rows, int cols, bool stable);
// The stable softmax of one row and its entropy from the same pass. x: cols entries, of which
// those from len on count as blocked (-inf, whatever they hold). In place: x becomes the weights,
// exactly those softmax_rows(stable) gives for the row with x[len..cols) = -inf, zeros past len.
// Returns the entropy -Σ w log w = log l - t / l, where l = Σ e_j, e_j = exp(x_j - max) and
// t = Σ e_j (x_j - max) (every term <= 0: no cancellation). A row with no entry above -inf
// (len = 0, or every key blocked) becomes zeros, entropy 0.
float softmax_entropy_row_scalar(float* x, int cols, int len);
// The largest of x[0..n), n >= 1 (scores: no NaN).
float row_max_scalar(const float* x, int n);
// One step of the online softmax: x_j = exp(x_j - shift) in place for shift >= every x_j (and
// -inf entries give 0); returns Σ x_j and sets *t = Σ exp(x_j - shift) (x_j - shift) over the
// entries that are not 0.
float exp_shift_sum_scalar(float* x, int n, float shift, float* t);
// GELU's tanh form in place on n entries: x = 0.5 x (1 + tanh(u)), u = kGeluK (x + kGeluC x³)
// (GPT-2's "gelu_new", torch's gelu(approximate='tanh')), as x sigmoid(2u) (no cancellation where
// tanh(u) is near -1). Finite x give finite results.
constexpr float kGeluK = 0.7978845608028654f;  // sqrt(2 / pi)
constexpr float kGeluC = 0.044715f;
void gelu_tanh_scalar(float* x, std::size_t n);
// x = x / divisor for n entries; true when every result is finite.
bool divide_finite_scalar(float* x, std::size_t n, float divisor);
// y = y r + x for n entries (the product and the sum each rounded to float).
void scale_add_scalar(float* y, const float* x, int n, float r);
// out[i] = a_i · b_i   a, b: (count, d)   out: (count)
void dot_rows_scalar(const float* a, const float* b, float* out, int count, int d);
// Standard normal draws number first .. first+count-1 of stream s (Philox4x32-10 words through
// Box–Muller: philox.h, math_approx.h).
void fill_normal_scalar(const RandomStream& s, std::uint64_t first, float* out, std::size_t count);
// q·k of a pair drawn from stream s: q = normal draws 0 .. d-1, k = draws d .. 2d-1; the float
// sum of dot_rows(q, k). scratch: (2 d) floats the kernel may use (the SIMD build draws and sums
// without it when d % 4 == 0: the draws never go to memory).
float normal_pair_dot_scalar(const RandomStream& s, int d, float* scratch);
// Uniform draws in [0, 1) (24 random bits), number first .. first+count-1 of stream s.
void fill_uniform_scalar(const RandomStream& s, std::uint64_t first, float* out, std::size_t count);

#if defined(ATTN_SIMD)
// ---- wasm SIMD128 versions (same signatures; same results as the contract above says) --
void gemm_abt_wasmsimd(const float* a, const float* b, float* c, int m, int n, int k,
                       Workspace* ws = nullptr);
void gemm_ab_wasmsimd(const float* a, const float* b, float* c, int m, int n, int k,
                      Workspace* ws = nullptr);
void gemm_packed_wasmsimd(const float* a, int lda, const PackedMatrix& b, int row0, int col0,
                          float* c, int ldc, int m, int n, int k);
bool exp_scores_row_wasmsimd(float* x, int n, int len, float scale, float* max, float* sum,
                             float* t);
void softmax_rows_wasmsimd(float* x, int rows, int cols, bool stable);
float softmax_entropy_row_wasmsimd(float* x, int cols, int len);
float row_max_wasmsimd(const float* x, int n);
float exp_shift_sum_wasmsimd(float* x, int n, float shift, float* t);
bool divide_finite_wasmsimd(float* x, std::size_t n, float divisor);
void gelu_tanh_wasmsimd(float* x, std::size_t n);
void scale_add_wasmsimd(float* y, const float* x, int n, float r);
void dot_rows_wasmsimd(const float* a, const float* b, float* out, int count, int d);
void fill_normal_wasmsimd(const RandomStream& s, std::uint64_t first, float* out,
                          std::size_t count);
float normal_pair_dot_wasmsimd(const RandomStream& s, int d, float* scratch);
#endif

// ---- dispatch: one place per operation ----------------------------------------------------
#if defined(ATTN_SIMD)
#define ATTN_KERNEL(name) name##_wasmsimd
#else
#define ATTN_KERNEL(name) name##_scalar
#endif

// ws: optional scratch for the SIMD build's packing (see Workspace); the scalar build needs none.
inline void gemm_abt(const float* a, const float* b, float* c, int m, int n, int k,
                     Workspace* ws = nullptr) {
#if defined(ATTN_SIMD)
  gemm_abt_wasmsimd(a, b, c, m, n, k, ws);
#else
  (void)ws;
  gemm_abt_scalar(a, b, c, m, n, k);
#endif
}
inline void gemm_ab(const float* a, const float* b, float* c, int m, int n, int k,
                    Workspace* ws = nullptr) {
#if defined(ATTN_SIMD)
  gemm_ab_wasmsimd(a, b, c, m, n, k, ws);
#else
  (void)ws;
  gemm_ab_scalar(a, b, c, m, n, k);
#endif
}
inline void gemm_packed(const float* a, int lda, const PackedMatrix& b, int row0, int col0,
                        float* c, int ldc, int m, int n, int k) {
  ATTN_KERNEL(gemm_packed)(a, lda, b, row0, col0, c, ldc, m, n, k);
}
inline bool exp_scores_row(float* x, int n, int len, float scale, float* max, float* sum,
                           float* t) {
  return ATTN_KERNEL(exp_scores_row)(x, n, len, scale, max, sum, t);
}
inline void softmax_rows(float* x, int rows, int cols, bool stable) {
  ATTN_KERNEL(softmax_rows)(x, rows, cols, stable);
}
inline float softmax_entropy_row(float* x, int cols, int len) {
  return ATTN_KERNEL(softmax_entropy_row)(x, cols, len);
}
inline float row_max(const float* x, int n) { return ATTN_KERNEL(row_max)(x, n); }
inline float exp_shift_sum(float* x, int n, float shift, float* t) {
  return ATTN_KERNEL(exp_shift_sum)(x, n, shift, t);
}
inline void gelu_tanh(float* x, std::size_t n) { ATTN_KERNEL(gelu_tanh)(x, n); }
inline bool divide_finite(float* x, std::size_t n, float divisor) {
  return ATTN_KERNEL(divide_finite)(x, n, divisor);
}
inline void scale_add(float* y, const float* x, int n, float r) {
  ATTN_KERNEL(scale_add)(y, x, n, r);
}
inline void dot_rows(const float* a, const float* b, float* out, int count, int d) {
  ATTN_KERNEL(dot_rows)(a, b, out, count, d);
}
inline void fill_normal(const RandomStream& s, std::uint64_t first, float* out, std::size_t count) {
  ATTN_KERNEL(fill_normal)(s, first, out, count);
}
inline float normal_pair_dot(const RandomStream& s, int d, float* scratch) {
  return ATTN_KERNEL(normal_pair_dot)(s, d, scratch);
}
inline void fill_uniform(const RandomStream& s, std::uint64_t first, float* out,
                         std::size_t count) {
  fill_uniform_scalar(s, first, out, count);
}

#undef ATTN_KERNEL

}  // namespace attn::kernels
