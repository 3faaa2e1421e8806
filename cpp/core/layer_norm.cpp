// Layer normalisation over the last dimension (torch.nn.LayerNorm).
#include "core/layer_norm.h"

#include <cmath>

#include "core/check.h"

namespace attn {

Error check_norm_weights(const std::string& gamma_name, const Matrix& gamma,
                         const std::string& beta_name, const Matrix& beta, int d) {
  Error e = check_matrix(gamma_name.c_str(), gamma);
  if (e.empty()) e = check_shape(gamma_name.c_str(), gamma, 1, d, "(1, d_model)");
  if (e.empty()) e = check_matrix(beta_name.c_str(), beta);
  if (e.empty()) e = check_shape(beta_name.c_str(), beta, 1, d, "(1, d_model)");
  return e;
}

Error check_layer_norm(const Matrix& x, const Matrix& gamma, const Matrix& beta, double eps) {
  Error e = check_matrix("x", x);
  if (e.empty()) e = check_number(kEps, eps);
  if (e.empty()) e = check_norm_weights("gamma", gamma, "beta", beta, x.cols);
  return e;
}

LayerNormResult layer_norm(const Matrix& x, const Matrix& gamma, const Matrix& beta, double eps) {
  LayerNormResult r;
  const int n = x.rows, d = x.cols;
  r.output = Matrix(n, d);  // output: (n, d)
  r.mean.resize(n);
  r.std.resize(n);
  for (int i = 0; i < n; i++) {
    // mean and biased variance in double: a row of huge or nearly equal floats stays exact
    const float* row = x.row(i);
    double sum = 0;
    for (int c = 0; c < d; c++) sum += row[c];
    const double mean = sum / d;
    double squares = 0;
    for (int c = 0; c < d; c++) squares += (row[c] - mean) * (row[c] - mean);
    const double var = squares / d;
    const double inv = 1.0 / std::sqrt(var + eps);
    for (int c = 0; c < d; c++) {
      r.output.at(i, c) = static_cast<float>((row[c] - mean) * inv * gamma.data[c] + beta.data[c]);
    }
    r.mean[i] = static_cast<float>(mean);
    r.std[i] = static_cast<float>(std::sqrt(var));
  }
  std::string where = first_non_finite(r.output);
  if (!where.empty()) {
    r.error = "gamma: (x - mean) / std * gamma + beta overflows float32 at " + where +
              " (expected |gamma| * (|x - mean| / std) + |beta| below 3.4e+38)";
  }
  return r;
}

}  // namespace attn
