// The one GRU of the engine, with torch.nn.GRU's equations and gate order (r, z, n): a step
// over a batch of rows, forward and backward (the trainer's seq2seq models), and the forward-only
// encoder over one sequence that the block lesson measures attention against (hidden state t
// needs hidden state t - 1). Both take the forward step below.
//
//   r  = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
//   z  = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
//   n  = tanh(W_in x + b_in + r * (W_hn h + b_hn))     (b_hn inside the reset product)
//   h' = (1 - z) * n + z * h
//
// The input part gi = x W_ih^T + b_ih is computed by the caller (for every time step at once when
// the inputs are known in advance); a step multiplies the state by W_hh. W_ih stacks
// (W_ir; W_iz; W_in) as torch's weight_ih_l0 does, W_hh likewise.
#pragma once

#include "core/matrix.h"
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

// ---- the encoder over one sequence (forward only) -------------------------------------------

struct GruArgs {
  Matrix x;           // (n, d_in)
  Matrix w_ih, w_hh;  // (3 h, d_in), (3 h, h)
  Matrix b_ih, b_hh;  // (1, 3 h) each, or empty
  Matrix h0;          // (1, h), or empty for zeros
};

struct GruResult {
  Matrix hidden;  // (n, h): row t is h_t, computed after row t - 1
  int steps = 0;  // the dependent steps taken (n)
  Error error;
};

Error check_gru(const GruArgs& args);
GruResult gru_encoder(const GruArgs& args);

}  // namespace attn
