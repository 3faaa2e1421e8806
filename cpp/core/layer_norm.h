// Layer normalisation over the last dimension, as torch.nn.LayerNorm(d_model, eps):
//     y_i = (x_i - mean) / sqrt(var + eps) * gamma + beta      per row, var the biased variance
#pragma once

#include <vector>

#include "core/matrix.h"

namespace attn {

struct LayerNormResult {
  Matrix output;  // (n, d) each row with mean 0, std 1, then scaled by gamma, shifted by beta
  std::vector<float> mean;  // n: the mean of each input row
  std::vector<float> std;   // n: its standard deviation (biased, without eps)
  Error error;              // not empty when the output would leave float32
};

// x: (n, d), gamma and beta: (1, d), eps > 0 (the kEps option of core/check.h).
Error check_layer_norm(const Matrix& x, const Matrix& gamma, const Matrix& beta, double eps);
// The same with the weights' names in a message (e.g. "norms[1].gamma").
Error check_norm_weights(const std::string& gamma_name, const Matrix& gamma,
                         const std::string& beta_name, const Matrix& beta, int d);

// Requires check_layer_norm to be empty.
LayerNormResult layer_norm(const Matrix& x, const Matrix& gamma, const Matrix& beta, double eps);

}  // namespace attn
