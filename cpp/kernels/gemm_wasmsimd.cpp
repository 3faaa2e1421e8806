// Matrix products, wasm SIMD128: packed panels and a 4x8 register-blocked micro-kernel.
//
// Both products are computed the same way. The right-hand operand, seen as (k, n), is packed
// into panels of 8 columns (panel[p][0..8] = columns j..j+8 of its row p, zero past n), and a
// 4x8 block of c keeps 8 f32x4 accumulators: for each p, a[i+r][p] is broadcast and multiplied
// by the panel's two vectors, so every load of a is used 8 times and every panel load 4 times.
//   gemm_abt: b is (n, k); a panel is 8 rows of b, transposed.
//   gemm_ab:  b is (k, n); a panel is an 8-column strip of b.
// Each c[i][j] is accumulated exactly as in the scalar reference: 0, then + a[i][p] b[p][j]
// for p = 0, 1, ..., each product and sum rounded to float (no fused multiply-add in wasm),
// so the results are bit-identical to gemm_abt_scalar and gemm_ab_scalar.
// The panels live in the caller's Workspace, or in one of the call's own (kernels.h).
#include <wasm_simd128.h>

#include <algorithm>
#include <cstddef>

#include "kernels/kernels.h"
#include "kernels/wasmsimd_util.h"

namespace attn::kernels {

namespace {

constexpr int kCols = 8;  // columns of a panel and of a block of c
constexpr int kRows = 4;  // rows of a block of c

// c[0..ROWS][0..cols] = a[0..ROWS][0..k] panel   a: rows lda apart; panel: (k, 8); cols <= 8
template <int ROWS>
inline void block(const float* a, std::ptrdiff_t lda, const float* panel, int k, float* c,
                  std::ptrdiff_t ldc, int cols) {
  v128_t acc[ROWS][2];
  for (int r = 0; r < ROWS; ++r) acc[r][0] = acc[r][1] = wasm_f32x4_splat(0.0f);
  // One pointer per row of a, stepped with the panel: the loop body is then the 6 loads, the
  // 16 arithmetic instructions and a pointer step per stream, with no index arithmetic (V8
  // keeps the loads' addresses in registers). A taller or wider block does not fit: V8 on x64
  // allocates 15 xmm registers and issues a step's loads before its arithmetic, so a block
  // needs ROWS * 2 accumulators + 2 panel vectors + ROWS broadcasts + 1 product <= 15.
  const float* ar[ROWS];
  for (int r = 0; r < ROWS; ++r) ar[r] = a + r * lda;
  for (const float* end = panel + kCols * static_cast<std::ptrdiff_t>(k); panel != end;
       panel += kCols) {
    const v128_t b0 = wasm_v128_load(panel);
    const v128_t b1 = wasm_v128_load(panel + 4);
    for (int r = 0; r < ROWS; ++r) {
      const v128_t x = wasm_v128_load32_splat(ar[r]++);
      acc[r][0] = madd(acc[r][0], x, b0);
      acc[r][1] = madd(acc[r][1], x, b1);
    }
  }
  for (int r = 0; r < ROWS; ++r) {
    float* cr = c + r * ldc;
    if (cols == kCols) {
      wasm_v128_store(cr, acc[r][0]);
      wasm_v128_store(cr + 4, acc[r][1]);
    } else {  // the last panel: only its first cols columns exist
      alignas(16) float tmp[kCols];
      wasm_v128_store(tmp, acc[r][0]);
      wasm_v128_store(tmp + 4, acc[r][1]);
      std::copy(tmp, tmp + cols, cr);
    }
  }
}

// c (m, n) = a (m, k) times the packed panels of columns j0 .. j1 (panel j/8 at panels + j k).
void multiply_panels(const float* a, const float* panels, float* c, int m, int n, int k, int j0,
                     int j1) {
  int i = 0;
  for (; i + kRows <= m; i += kRows) {
    const float* ai = a + static_cast<std::ptrdiff_t>(i) * k;
    float* ci = c + static_cast<std::ptrdiff_t>(i) * n;
    for (int j = j0; j < j1; j += kCols)
      block<kRows>(ai, k, panels + static_cast<std::ptrdiff_t>(j) * k, k, ci + j, n,
                   std::min(kCols, n - j));
  }
  const int rest = m - i;  // the last m % 4 rows
  if (rest == 0) return;
  const float* ai = a + static_cast<std::ptrdiff_t>(i) * k;
  float* ci = c + static_cast<std::ptrdiff_t>(i) * n;
  for (int j = j0; j < j1; j += kCols) {
    const float* panel = panels + static_cast<std::ptrdiff_t>(j) * k;
    const int cols = std::min(kCols, n - j);
    if (rest == 3) block<3>(ai, k, panel, k, ci + j, n, cols);
    if (rest == 2) block<2>(ai, k, panel, k, ci + j, n, cols);
    if (rest == 1) block<1>(ai, k, panel, k, ci + j, n, cols);
  }
}

// c (m, n) rows ldc apart = a (m, k) rows lda apart times the panels of c's columns 0 .. n:
// the one of columns j .. j + 8 starts at panels + j / 8 * panel_stride.
void multiply_strided(const float* a, std::ptrdiff_t lda, const float* panels,
                      std::ptrdiff_t panel_stride, float* c, std::ptrdiff_t ldc, int m, int n,
                      int k) {
  int i = 0;
  for (; i + kRows <= m; i += kRows)
    for (int j = 0; j < n; j += kCols)
      block<kRows>(a + i * lda, lda, panels + j / kCols * panel_stride, k, c + i * ldc + j, ldc,
                   std::min(kCols, n - j));
  const int rest = m - i;  // the last m % 4 rows
  if (rest == 0) return;
  for (int j = 0; j < n; j += kCols) {
    const float* panel = panels + j / kCols * panel_stride;
    const int cols = std::min(kCols, n - j);
    if (rest == 3) block<3>(a + i * lda, lda, panel, k, c + i * ldc + j, ldc, cols);
    if (rest == 2) block<2>(a + i * lda, lda, panel, k, c + i * ldc + j, ldc, cols);
    if (rest == 1) block<1>(a + i * lda, lda, panel, k, c + i * ldc + j, ldc, cols);
  }
}

}  // namespace

// ---- c = a b with b packed once ------------------------------------------------------------
// Columns in chunks of about 128 KB of panels, so that a chunk stays in cache across the rows.
void gemm_packed_wasmsimd(const float* a, int lda, const PackedMatrix& b, int row0, int col0,
                          float* c, int ldc, int m, int n, int k) {
  const std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(kCols) * b.rows;
  const float* first = b.data + col0 / kCols * stride + static_cast<std::ptrdiff_t>(kCols) * row0;
  const int chunk = std::max(kCols, 32768 / std::max(k, 1) / kCols * kCols);
  for (int j0 = 0; j0 < n; j0 += chunk)
    multiply_strided(a, lda, first + j0 / kCols * stride, stride, c + j0, ldc, m,
                     std::min(chunk, n - j0), k);
}

// ---- c = a bᵀ ------------------------------------------------------------------------------
// c = a bᵀ   a: (m, k)  b: (n, k)  c: (m, n)
void gemm_abt_wasmsimd(const float* a, const float* b, float* c, int m, int n, int k,
                       Workspace* ws) {
  const int n8 = (n + kCols - 1) / kCols * kCols;
  // panels: (n8 / 8, k, 8); panel j/8 holds rows j..j+8 of b, transposed
  Workspace own;
  float* panels = (ws ? ws : &own)->floats(static_cast<std::size_t>(n8) * k);
  for (int j = 0; j < n8; j += kCols) {
    float* panel = panels + static_cast<std::ptrdiff_t>(j) * k;
    for (int jj = 0; jj < kCols; ++jj) {
      if (j + jj < n) {
        const float* bj = b + static_cast<std::ptrdiff_t>(j + jj) * k;
        for (int p = 0; p < k; ++p) panel[kCols * p + jj] = bj[p];
      } else {
        for (int p = 0; p < k; ++p) panel[kCols * p + jj] = 0.0f;
      }
    }
  }
  // Columns in chunks of about 128 KB of panels, so a chunk stays in cache across all rows.
  const int chunk = std::max(kCols, 32768 / std::max(k, 1) / kCols * kCols);
  for (int j0 = 0; j0 < n; j0 += chunk)
    multiply_panels(a, panels, c, m, n, k, j0, std::min(n, j0 + chunk));
}

// ---- c = a b -------------------------------------------------------------------------------
// c = a b   a: (m, k)  b: (k, n)  c: (m, n)
void gemm_ab_wasmsimd(const float* a, const float* b, float* c, int m, int n, int k,
                      Workspace* ws) {
  const int n8 = (n + kCols - 1) / kCols * kCols;
  // panels: (n8 / 8, k, 8); panel j/8 holds columns j..j+8 of b
  Workspace own;
  float* panels = (ws ? ws : &own)->floats(static_cast<std::size_t>(n8) * k);
  for (int j = 0; j < n8; j += kCols) {
    float* panel = panels + static_cast<std::ptrdiff_t>(j) * k;
    const int cols = std::min(kCols, n - j);
    for (int p = 0; p < k; ++p) {
      const float* bp = b + static_cast<std::ptrdiff_t>(p) * n + j;
      if (cols == kCols) {
        wasm_v128_store(panel + kCols * p, wasm_v128_load(bp));
        wasm_v128_store(panel + kCols * p + 4, wasm_v128_load(bp + 4));
      } else {
        for (int jj = 0; jj < kCols; ++jj) panel[kCols * p + jj] = jj < cols ? bp[jj] : 0.0f;
      }
    }
  }
  multiply_panels(a, panels, c, m, n, k, 0, n);
}

}  // namespace attn::kernels
