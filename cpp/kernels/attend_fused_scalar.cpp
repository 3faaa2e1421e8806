// The output-only attention's row step, scalar reference (kernels.h, exp_scores_row).
#include <cmath>
#include <limits>

#include "kernels/kernels.h"

namespace attn::kernels {

bool exp_scores_row_scalar(float* x, int n, int len, float scale, float* max, float* sum,
                           float* t) {
  bool finite = true;
  float m = *max;
  for (int j = 0; j < n; ++j) {
    x[j] = x[j] * scale;
    finite = finite && std::isfinite(x[j]);
    if (j < len && x[j] > m) m = x[j];
  }
  if (!finite) return false;
  float l = 0.0f, tl = 0.0f;
  for (int j = 0; j < len; ++j) {
    const float d = x[j] - m;
    x[j] = std::exp(d);
    l += x[j];
    tl += x[j] * d;
  }
  for (int j = len < 0 ? 0 : len; j < n; ++j) x[j] = 0.0f;
  *max = m;
  *sum = l;
  *t = tl;
  return true;
}

}  // namespace attn::kernels
