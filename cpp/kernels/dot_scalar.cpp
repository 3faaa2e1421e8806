// Row-wise dot products, scalar reference. Four interleaved accumulators in lane order
// (acc[l] sums a[4j+l] b[4j+l]), combined as (acc0 + acc1) + (acc2 + acc3), then the tail:
// exactly the arithmetic of the SIMD version, so both give the same bits.
#include <cstddef>

#include "kernels/kernels.h"

namespace attn::kernels {

// out[i] = a_i · b_i   a, b: (count, d)   out: (count)
void dot_rows_scalar(const float* a, const float* b, float* out, int count, int d) {
  for (int i = 0; i < count; ++i) {
    const float* ai = a + static_cast<std::ptrdiff_t>(i) * d;
    const float* bi = b + static_cast<std::ptrdiff_t>(i) * d;
    float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
    int p = 0;
    for (; p + 4 <= d; p += 4) {
      acc0 += ai[p] * bi[p];
      acc1 += ai[p + 1] * bi[p + 1];
      acc2 += ai[p + 2] * bi[p + 2];
      acc3 += ai[p + 3] * bi[p + 3];
    }
    float sum = (acc0 + acc1) + (acc2 + acc3);
    for (; p < d; ++p) sum += ai[p] * bi[p];
    out[i] = sum;
  }
}

}  // namespace attn::kernels
