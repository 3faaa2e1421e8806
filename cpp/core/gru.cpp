// The GRU: one step, forward and backward, and the forward-only encoder (see gru.h).
#include "core/gru.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/multihead.h"

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

// ---- the encoder over one sequence ----------------------------------------------------------

GruResult gru_encoder(const GruArgs& a) {
  GruResult r;
  const int n = a.x.rows, h = a.w_hh.cols;
  // every token's input projection at once: it does not depend on the hidden state
  Matrix xi = linear(a.x, a.w_ih, a.b_ih);  // xi: (n, 3 h)
  r.error = linear_overflow("x", xi);
  if (!r.error.empty()) return r;
  const std::size_t h1 = static_cast<std::size_t>(h), h3 = 3 * h1;
  // no b_hh: zeros (y + 0 is y, so the same floats as leaving the sum out)
  std::vector<float> zeros(h1, 0.0f), b_hh(h3, 0.0f);
  if (!a.b_hh.empty()) b_hh = a.b_hh.data;
  // the step's scratch: W_hh h (3 h), the gates (3 h) and W_hn h + b_hn (h), kept only for a
  // backward pass, which the encoder has none of
  std::vector<float> gh(h3), gates(h3), ghn(h1);
  r.hidden = Matrix(n, h);  // hidden: (n, h)
  for (int t = 0; t < n; t++) {
    const float* prev =
        t == 0 ? (a.h0.empty() ? zeros.data() : a.h0.data.data()) : r.hidden.row(t - 1);
    gru_step_forward(xi.row(t), prev, a.w_hh.data.data(), b_hh.data(), 1, h, gh.data(),
                     gates.data(), ghn.data(), r.hidden.row(t), nullptr);
    r.steps++;
  }
  std::string where = first_non_finite(r.hidden);
  if (!where.empty()) {
    r.error = "Whh: h W_hhᵀ + b_hh overflows float32 at " + where +
              " (expected |h| |W_hh row| + |b_hh| below 3.4e+38)";
    r.hidden = Matrix();
  }
  return r;
}

Error check_gru(const GruArgs& a) {
  Error e = check_matrix("x", a.x);
  if (e.empty()) e = check_matrix("Whh", a.w_hh);
  if (!e.empty()) return e;
  const int h = a.w_hh.cols;
  if (3 * h > limits::kMaxHidden) {
    return expected("Whh",
                    "at most " + std::to_string(limits::kMaxHidden / 3) +
                        " columns (hidden size h, with 3 h rows)",
                    std::to_string(h));
  }
  e = check_weight("Whh", a.w_hh, 3 * h, h, "(3 h, h)");
  if (e.empty()) e = check_weight("Wih", a.w_ih, 3 * h, a.x.cols, "(3 h, d_in)");
  if (e.empty() && given(a.b_ih)) e = check_weight("bih", a.b_ih, 1, 3 * h, "(1, 3 h)");
  if (e.empty() && given(a.b_hh)) e = check_weight("bhh", a.b_hh, 1, 3 * h, "(1, 3 h)");
  if (e.empty() && given(a.h0)) e = check_weight("h0", a.h0, 1, h, "(1, h)");
  return e;
}

}  // namespace attn
