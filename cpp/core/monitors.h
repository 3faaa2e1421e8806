// What the debugging lab watches on an attention result: the numbers that tell a healthy
// layer from a broken one, measured against the mask the code meant to apply.
#pragma once

#include <vector>

#include "core/matrix.h"

namespace attn {

struct Monitors {
  std::vector<float> max_entropy;  // n_q: ln(keys the row may attend), a uniform row's entropy
                                   //      (0 for a row with one key or none)
  std::vector<float> row_sums;     // n_q: Σ_j w_ij, 1 when healthy (0 for a fully blocked row)
  std::vector<float> col_sums;     // n_k: Σ_i w_ij
  std::vector<float> leaked;       // n_q: weight on the keys the mask blocks, 0 when healthy
  int cells = 0;                   // allowed cells (the logits the statistics below are over)
  double logit_mean = 0;           // mean of the logits softmax sees, over the allowed cells
  double logit_std = 0;            // their standard deviation (÷ cells): about 1 when healthy
  double logit_max = 0;            // the largest of them (exp overflows float32 past ≈ 88.72)
  int non_finite = 0;              // weights that are NaN or ±inf
};

// logits: the scores softmax sees (attend()'s `scaled`), (n_q, n_k); weights: (n_q, n_k);
// mask: the intended 0/1 mask (n_q, n_k). With no allowed cell the logit statistics are NaN.
Monitors monitor(const Matrix& logits, const Matrix& weights, const Matrix& mask);

// Empty when the three matrices have one shape, the mask is 0/1 and the logits are not NaN
// (a weight may be anything: NaN weights are what some bugs produce).
Error check_monitor(const Matrix& logits, const Matrix& weights, const Matrix& mask);
// Finite weights whose row, blocked-part or column sums pass float32 are refused (the monitors
// would be Infinity for finite input); the matrices have one shape (check_monitor).
Error check_weight_sums(const Matrix& weights, const Matrix& mask);

}  // namespace attn
