// Stage 1 and 2: how well each query matches each key, then scaling.
#include "core/scores.h"

#include <cmath>

#include "kernels/kernels.h"

namespace attn {

// ---- dot product: scores = Q Kᵀ -------------------------------------------------------------

Matrix score_dot(const Matrix& q, const Matrix& k) {
  Matrix scores(q.rows, k.rows);  // scores: (n_q, n_k)
  kernels::gemm_abt(q.data.data(), k.data.data(), scores.data.data(), q.rows, k.rows, q.cols);
  return scores;
}

// ---- scaling by 1/sqrt(d_k): keeps the variance of q·k near 1 -------------------------------

Matrix score_scaled(const Matrix& scores, int d_k) {
  Matrix scaled = scores;  // scaled: (n_q, n_k)
  scale_in_place(scaled, std::sqrt(static_cast<float>(d_k)));
  return scaled;
}

// ---- additive (Bahdanau): vᵀ tanh(Wq q_i + Wk k_j) ------------------------------------------

Matrix score_additive(const Matrix& q, const Matrix& k, const Matrix& wq, const Matrix& wk,
                      const Matrix& v) {
  int n_q = q.rows, n_k = k.rows, h = wq.rows;
  Matrix hq(n_q, h);  // hq: (n_q, h)  each query projected: Wq q_i
  Matrix hk(n_k, h);  // hk: (n_k, h)  each key projected:   Wk k_j
  kernels::gemm_abt(q.data.data(), wq.data.data(), hq.data.data(), n_q, h, q.cols);
  kernels::gemm_abt(k.data.data(), wk.data.data(), hk.data.data(), n_k, h, k.cols);
  Matrix scores(n_q, n_k);  // scores: (n_q, n_k)
  for (int i = 0; i < n_q; i++) {
    for (int j = 0; j < n_k; j++) {
      float s = 0.0f;
      for (int t = 0; t < h; t++) s += v.data[t] * std::tanh(hq.at(i, t) + hk.at(j, t));
      scores.at(i, j) = s;
    }
  }
  return scores;
}

// ---- general (Luong): q_i W k_jᵀ ------------------------------------------------------------

Matrix score_general(const Matrix& q, const Matrix& k, const Matrix& w) {
  Matrix qw(q.rows, w.cols);  // qw: (n_q, d_k) = Q W
  kernels::gemm_ab(q.data.data(), w.data.data(), qw.data.data(), q.rows, w.cols, q.cols);
  return score_dot(qw, k);
}

// ---- temperature: < 1 sharpens, > 1 flattens ------------------------------------------------

Matrix apply_temperature(const Matrix& scores, float temperature) {
  Matrix out = scores;  // out: (n_q, n_k)
  scale_in_place(out, temperature);
  return out;
}

bool scale_in_place(Matrix& scores, float divisor) {
  return kernels::divide_finite(scores.data.data(), scores.data.size(), divisor);
}

}  // namespace attn
