// Layer normalisation over the last dimension (torch.nn.LayerNorm).
#include "core/layer_norm.h"

#include "core/check.h"
#include "core/dense.h"

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
  dense::layer_norm_rows(x.data.data(), gamma.data.data(), beta.data.data(), eps,
                         r.output.data.data(), n, d, r.mean.data(), r.std.data());
  std::string where = first_non_finite(r.output);
  if (!where.empty()) {
    r.error = "gamma: (x - mean) / std * gamma + beta overflows float32 at " + where +
              " (expected |gamma| * (|x - mean| / std) + |beta| below 3.4e+38)";
  }
  return r;
}

}  // namespace attn
