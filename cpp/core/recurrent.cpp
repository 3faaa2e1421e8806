// The GRU encoder: one dependent step per token.
#include "core/recurrent.h"

#include <cmath>
#include <string>

#include "core/check.h"
#include "core/multihead.h"
#include "kernels/kernels.h"

namespace attn {

static float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

// One step: h (1, h) from the input projection of token t, xi (3 h), and the previous h.
static void gru_step(const float* xi, const Matrix& w_hh, const Matrix& b_hh, const float* prev,
                     float* next, std::vector<float>& hh) {
  const int h = w_hh.cols;
  kernels::gemm_abt(prev, w_hh.data.data(), hh.data(), 1, 3 * h, h);  // hh: (1, 3 h)
  if (!b_hh.empty()) {
    for (int c = 0; c < 3 * h; c++) hh[c] += b_hh.data[c];
  }
  for (int c = 0; c < h; c++) {
    const float r = sigmoid(xi[c] + hh[c]);
    const float z = sigmoid(xi[h + c] + hh[h + c]);
    const float g = std::tanh(xi[2 * h + c] + r * hh[2 * h + c]);
    next[c] = (1.0f - z) * g + z * prev[c];
  }
}

GruResult gru_encoder(const GruArgs& a) {
  GruResult r;
  const int n = a.x.rows, h = a.w_hh.cols;
  // every token's input projection at once: it does not depend on the hidden state
  Matrix xi = linear(a.x, a.w_ih, a.b_ih);  // xi: (n, 3 h)
  r.error = linear_overflow("x", xi);
  if (!r.error.empty()) return r;
  std::vector<float> zeros(h, 0.0f), hh(3 * static_cast<std::size_t>(h));
  r.hidden = Matrix(n, h);  // hidden: (n, h)
  for (int t = 0; t < n; t++) {
    const float* prev =
        t == 0 ? (a.h0.empty() ? zeros.data() : a.h0.data.data()) : r.hidden.row(t - 1);
    gru_step(xi.row(t), a.w_hh, a.b_hh, prev, r.hidden.row(t), hh);
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

static Error check_weight(const char* name, const Matrix& m, int rows, int cols,
                          const char* meaning) {
  Error e = check_matrix(name, m);
  return e.empty() ? check_shape(name, m, rows, cols, meaning) : e;
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
