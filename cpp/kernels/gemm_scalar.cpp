// Matrix products, scalar reference: plain loops, one float accumulator per output.
#include <cstddef>

#include "kernels/kernels.h"

namespace attn::kernels {

// c = a bᵀ   a: (m, k)  b: (n, k)  c: (m, n)
void gemm_abt_scalar(const float* a, const float* b, float* c, int m, int n, int k) {
  for (int i = 0; i < m; ++i) {
    const float* ai = a + static_cast<std::ptrdiff_t>(i) * k;
    for (int j = 0; j < n; ++j) {
      const float* bj = b + static_cast<std::ptrdiff_t>(j) * k;
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum += ai[p] * bj[p];
      c[static_cast<std::ptrdiff_t>(i) * n + j] = sum;
    }
  }
}

// c = a b   a: (m, k)  b: (k, n)  c: (m, n)
void gemm_ab_scalar(const float* a, const float* b, float* c, int m, int n, int k) {
  for (int i = 0; i < m; ++i) {
    float* ci = c + static_cast<std::ptrdiff_t>(i) * n;
    for (int j = 0; j < n; ++j) ci[j] = 0.0f;
    for (int p = 0; p < k; ++p) {
      float aip = a[static_cast<std::ptrdiff_t>(i) * k + p];
      const float* bp = b + static_cast<std::ptrdiff_t>(p) * n;
      for (int j = 0; j < n; ++j) ci[j] += aip * bp[j];
    }
  }
}

// ---- packed operands (the same code in every build) ------------------------------------------

PackedMatrix pack_b(const float* b, int rows, int cols, int ld, float* out) {
  for (int j = 0; j < cols; j += 8) {
    float* panel = out + static_cast<std::ptrdiff_t>(j) * rows;  // (rows, 8)
    const int w = cols - j < 8 ? cols - j : 8;
    for (int p = 0; p < rows; ++p) {
      const float* bp = b + static_cast<std::ptrdiff_t>(p) * ld + j;
      for (int jj = 0; jj < 8; ++jj) panel[8 * p + jj] = jj < w ? bp[jj] : 0.0f;
    }
  }
  return {out, rows, cols};
}

PackedMatrix pack_bt(const float* b, int cols, int rows, int ld, float* out) {
  for (int j = 0; j < cols; j += 8) {
    float* panel = out + static_cast<std::ptrdiff_t>(j) * rows;  // (rows, 8)
    for (int jj = 0; jj < 8; ++jj) {
      if (j + jj < cols) {
        const float* bj = b + static_cast<std::ptrdiff_t>(j + jj) * ld;
        for (int p = 0; p < rows; ++p) panel[8 * p + jj] = bj[p];
      } else {
        for (int p = 0; p < rows; ++p) panel[8 * p + jj] = 0.0f;
      }
    }
  }
  return {out, rows, cols};
}

// b[r][j] of a packed operand
static inline float packed_at(const PackedMatrix& b, int r, int j) {
  return b.data[static_cast<std::ptrdiff_t>(j / 8) * 8 * b.rows +
                8 * static_cast<std::ptrdiff_t>(r) + j % 8];
}

void gemm_packed_scalar(const float* a, int lda, const PackedMatrix& b, int row0, int col0,
                        float* c, int ldc, int m, int n, int k) {
  for (int i = 0; i < m; ++i) {
    const float* ai = a + static_cast<std::ptrdiff_t>(i) * lda;
    float* ci = c + static_cast<std::ptrdiff_t>(i) * ldc;
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum += ai[p] * packed_at(b, row0 + p, col0 + j);
      ci[j] = sum;
    }
  }
}

}  // namespace attn::kernels
