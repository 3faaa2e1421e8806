// One step of a GRU layer over a batch of rows, forward and backward, with torch.nn.GRU's
// equations and gate order (r, z, n):
//
//   r  = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
//   z  = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
//   n  = tanh(W_in x + b_in + r * (W_hn h + b_hn))     (b_hn inside the reset product)
//   h' = (1 - z) * n + z * h
//
// The input part gi = x W_ih^T + b_ih is computed by the caller (for every time step at once when
// the inputs are known in advance); a step multiplies the state by W_hh.
#pragma once

#include "kernels/kernels.h"

namespace attn {

// gi: (B, 3H) = x W_ih^T + b_ih; h: (B, H); w_hh: (3H, H); b_hh: (3H). Writes gates (B, 3H) = [r,
// z, n], ghn (B, H) = W_hn h + b_hn, h_out (B, H). gh: (B, 3H) scratch.
void gru_step_forward(const float* gi, const float* h, const float* w_hh, const float* b_hh, int B,
                      int H, float* gh, float* gates, float* ghn, float* h_out,
                      kernels::Workspace* ws);

// dh: (B, H), the gradient at h_out. Writes dgi (B, 3H) (the gradient at gi: also at b_ih, and
// x's through W_ih), dgh (B, 3H) (at W_hh h + b_hh) and dh_prev (B, H) = the gradient at h.
// scratch: (B, H).
void gru_step_backward(const float* dh, const float* h, const float* gates, const float* ghn,
                       const float* w_hh, int B, int H, float* dgi, float* dgh, float* dh_prev,
                       float* scratch, kernels::Workspace* ws);

}  // namespace attn
