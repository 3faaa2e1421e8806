// One GRU step, forward and backward (see gru.h).
#include "core/gru.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace attn {

namespace {
float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
}  // namespace

void gru_step_forward(const float* gi, const float* h, const float* w_hh, const float* b_hh, int B,
                      int H, float* gh, float* gates, float* ghn, float* h_out,
                      kernels::Workspace* ws) {
  // gh = h W_hh^T + b_hh   (B, 3H)
  kernels::gemm_abt(h, w_hh, gh, B, 3 * H, H, ws);
  for (int b = 0; b < B; b++) {
    const std::size_t row3 = static_cast<std::size_t>(b) * 3 * H,
                      row = static_cast<std::size_t>(b) * H;
    float* g = gates + row3;
    const float* x = gi + row3;
    const float* y = gh + row3;
    for (int c = 0; c < H; c++) {
      const float r = sigmoid(x[c] + (y[c] + b_hh[c]));
      const float z = sigmoid(x[H + c] + (y[H + c] + b_hh[H + c]));
      const float hn = y[2 * H + c] + b_hh[2 * H + c];
      const float n = std::tanh(x[2 * H + c] + r * hn);
      g[c] = r;
      g[H + c] = z;
      g[2 * H + c] = n;
      ghn[row + c] = hn;
      h_out[row + c] = (1.0f - z) * n + z * h[row + c];
    }
  }
}

void gru_step_backward(const float* dh, const float* h, const float* gates, const float* ghn,
                       const float* w_hh, int B, int H, float* dgi, float* dgh, float* dh_prev,
                       float* scratch, kernels::Workspace* ws) {
  for (int b = 0; b < B; b++) {
    const std::size_t row3 = static_cast<std::size_t>(b) * 3 * H,
                      row = static_cast<std::size_t>(b) * H;
    float* gi = dgi + row3;
    float* gh = dgh + row3;
    const float* g = gates + row3;
    for (int c = 0; c < H; c++) {
      const float r = g[c], z = g[H + c], n = g[2 * H + c], d = dh[row + c];
      const float dn = d * (1.0f - z) * (1.0f - n * n);  // at n's pre-activation
      const float dz = d * (h[row + c] - n) * z * (1.0f - z);
      const float dr = dn * ghn[row + c] * r * (1.0f - r);
      gi[c] = dr;
      gi[H + c] = dz;
      gi[2 * H + c] = dn;
      gh[c] = dr;
      gh[H + c] = dz;
      gh[2 * H + c] = dn * r;
    }
  }
  // dh_prev = dh * z + dgh W_hh   (B, H)
  kernels::gemm_ab(dgh, w_hh, scratch, B, H, 3 * H, ws);
  for (int b = 0; b < B; b++) {
    const std::size_t row3 = static_cast<std::size_t>(b) * 3 * H,
                      row = static_cast<std::size_t>(b) * H;
    for (int c = 0; c < H; c++)
      dh_prev[row + c] = dh[row + c] * gates[row3 + H + c] + scratch[row + c];
  }
}

}  // namespace attn
