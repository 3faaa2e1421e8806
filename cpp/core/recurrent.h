// A forward-only GRU encoder (torch.nn.GRU, one layer, batch_first), the sequential model the
// block lesson measures attention against: hidden state t needs hidden state t - 1.
//     r_t = σ(x_t W_irᵀ + b_ir + h_{t-1} W_hrᵀ + b_hr)
//     z_t = σ(x_t W_izᵀ + b_iz + h_{t-1} W_hzᵀ + b_hz)
//     g_t = tanh(x_t W_igᵀ + b_ig + r_t ⊙ (h_{t-1} W_hgᵀ + b_hg))
//     h_t = (1 - z_t) ⊙ g_t + z_t ⊙ h_{t-1}
// W_ih stacks (W_ir; W_iz; W_ig) as torch's weight_ih_l0 does, W_hh likewise.
#pragma once

#include "core/matrix.h"

namespace attn {

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
