// Stage 1 of the pipeline: how well each query matches each key.
#pragma once

#include "core/matrix.h"

namespace attn {

// scores = Q Kᵀ                          Q: (n_q, d)  K: (n_k, d)  -> (n_q, n_k)
Matrix score_dot(const Matrix& q, const Matrix& k);

// scores / sqrt(d_k)                     -> same shape
Matrix score_scaled(const Matrix& scores, int d_k);

// Bahdanau: score_ij = vᵀ tanh(Wq q_i + Wk k_j); d_q and d_k may differ.
// Q: (n_q, d_q)  K: (n_k, d_k)  Wq: (h, d_q)  Wk: (h, d_k)  v: (1, h)  -> (n_q, n_k)
Matrix score_additive(const Matrix& q, const Matrix& k, const Matrix& wq, const Matrix& wk,
                      const Matrix& v);

// General (Luong): score_ij = q_i W k_jᵀ   Q: (n_q, d_q)  W: (d_q, d_k)  K: (n_k, d_k)
Matrix score_general(const Matrix& q, const Matrix& k, const Matrix& w);

// scores / temperature                   -> same shape
Matrix apply_temperature(const Matrix& scores, float temperature);

// scores / divisor, in place (the arithmetic of score_scaled and apply_temperature): true when
// every result is finite.
bool scale_in_place(Matrix& scores, float divisor);

}  // namespace attn
