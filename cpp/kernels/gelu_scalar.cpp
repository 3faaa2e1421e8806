// GELU's tanh form, scalar reference (kernels.h): 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715
// x³), computed as x sigmoid(2u), which is the same number without the cancellation of 1 + tanh(u)
// where tanh(u) is near -1: with t = e^(-2|u|) in (0, 1], x / (1 + t) for u >= 0 and
// x t / (1 + t) for u < 0.
#include <cmath>
#include <cstddef>

#include "kernels/kernels.h"

namespace attn::kernels {

void gelu_tanh_scalar(float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; i++) {
    const float v = x[i];
    const float u = kGeluK * (v + kGeluC * (v * v * v));
    const float t = std::exp(-2.0f * std::fabs(u));
    x[i] = (u >= 0.0f ? v : v * t) / (1.0f + t);
  }
}

}  // namespace attn::kernels
