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

}  // namespace attn::kernels
