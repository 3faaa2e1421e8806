// Stage 4: softmax turns each row of scores into weights that are >= 0 and sum to 1.
#include "core/softmax.h"

#include <cmath>
#include <limits>

#include "core/check.h"
#include "core/decimal.h"
#include "core/rng.h"
#include "core/scores.h"
#include "kernels/kernels.h"

namespace attn {

// ---- row softmax ----------------------------------------------------------------------------

Matrix softmax_rows(const Matrix& scores, bool stable) {
  Matrix weights = scores;  // weights: (n_q, n_k)
  softmax_rows_in_place(weights, stable);
  return weights;
}

void softmax_rows_in_place(Matrix& scores, bool stable) {
  // Rows where every key is blocked (all -inf). Stable: subtracting their max (-inf)
  // would give NaN, so the engine decides: such a row attends to nothing (all zeros).
  std::vector<int> blocked_rows;
  if (stable) {
    for (int i = 0; i < scores.rows; i++) {
      const float* row = scores.row(i);
      int j = 0;
      while (j < scores.cols && row[j] == -std::numeric_limits<float>::infinity()) j++;
      if (j == scores.cols) blocked_rows.push_back(i);
    }
  }
  kernels::softmax_rows(scores.data.data(), scores.rows, scores.cols, stable);
  for (int i : blocked_rows) {
    for (int j = 0; j < scores.cols; j++) scores.at(i, j) = 0.0f;
  }
}

bool naive_softmax_overflowed(const Matrix& weights) {
  for (int i = 0; i < weights.rows; i++) {
    const float* row = weights.row(i);
    bool all_zero = true;
    for (int j = 0; j < weights.cols; j++) {
      if (!std::isfinite(row[j])) return true;
      if (row[j] != 0.0f) all_zero = false;
    }
    if (all_zero) return true;
  }
  return false;
}

std::vector<float> softmax_entropy_in_place(Matrix& scores) {
  std::vector<float> entropy(scores.rows);  // entropy: (n_q)
  for (int i = 0; i < scores.rows; i++)
    entropy[i] = kernels::softmax_entropy_row(scores.row(i), scores.cols, scores.cols);
  return entropy;
}

// ---- entropy: how spread out each row is (log n = uniform, 0 = one-hot) ---------------------

std::vector<float> row_entropy(const Matrix& weights) {
  std::vector<float> entropy(weights.rows);  // entropy: (n_q)
  for (int i = 0; i < weights.rows; i++) {
    float h = 0.0f;
    for (int j = 0; j < weights.cols; j++) {
      float w = weights.at(i, j);
      if (w != 0.0f) h -= w * std::log(w);  // 0 log 0 = 0; NaN stays NaN
    }
    entropy[i] = h;
  }
  return entropy;
}

// ---- Jacobian: d softmax_i / d score_j = p_i (δ_ij - p_j) -----------------------------------

Matrix softmax_jacobian(const std::vector<float>& p) {
  int n = static_cast<int>(p.size());
  Matrix jac(n, n);  // jac: (n, n)
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      jac.at(i, j) = (i == j ? p[i] : 0.0f) - p[i] * p[j];
    }
  }
  return jac;
}

// ---- hard attention: all the weight on the best key -----------------------------------------

Matrix hard_attention(const Matrix& scores) {
  Matrix onehot(scores.rows, scores.cols);  // onehot: (n_q, n_k)
  for (int i = 0; i < scores.rows; i++) {
    int best = 0;
    for (int j = 1; j < scores.cols; j++) {
      if (scores.at(i, j) > scores.at(i, best)) best = j;  // strict: first one wins ties
    }
    onehot.at(i, best) = 1.0f;
  }
  return onehot;
}

// ---- Gumbel-softmax: a differentiable stand-in for sampling one key -------------------------

Matrix gumbel_softmax(const Matrix& scores, float tau, std::uint64_t seed) {
  Matrix u(scores.rows, scores.cols);  // u: (n_q, n_k) uniform in [0, 1)
  Rng(seed, 0).uniform(u.data.data(), u.data.size());
  Matrix noisy(scores.rows, scores.cols);  // noisy: (n_q, n_k) = (scores + g) / tau
  for (std::size_t c = 0; c < u.data.size(); c++) {
    float uc = u.data[c] > 0.0f ? u.data[c] : 0x1p-25f;  // keep log(u) finite
    float g = -det_log(-det_log(uc));                    // Gumbel(0, 1) noise
    noisy.data[c] = (scores.data[c] + g) / tau;
  }
  return softmax_rows(noisy, true);
}

// ---- validation -----------------------------------------------------------------------------

Error check_scores(const char* name, const Matrix& scores) {
  return check_matrix(name, scores, /*allow_neg_inf=*/true);
}

Error check_temperature(const char* name, double temperature) {
  return check_number(renamed(kTemperature, name), temperature);
}

TemperatureSoftmax softmax_at_temperature(const Matrix& scores, float temperature, bool stable) {
  TemperatureSoftmax r;
  r.weights = apply_temperature(scores, temperature);
  softmax_rows_in_place(r.weights, stable);
  r.entropy = row_entropy(r.weights);
  r.overflow = !stable && naive_softmax_overflowed(r.weights);
  return r;
}

Error check_softmax_at_temperature(const Matrix& scores, double temperature) {
  Error e = check_number(kTemperature, temperature);
  if (e.empty()) e = check_scores("scores", scores);
  if (e.empty()) e = check_scaled_scores(kTemperature.name, scores, temperature);
  return e;
}

Error check_scaled_scores(const char* name, const Matrix& scores, double temperature,
                          double margin) {
  if (temperature >= 1.0) return {};  // dividing by it cannot grow a score
  double largest = 0;
  for (float x : scores.data) {
    if (std::isfinite(x)) largest = std::fmax(largest, std::fabs(static_cast<double>(x)));
  }
  largest += margin;
  if (largest / temperature < kFloatMax) return {};
  // the smallest safe value, rounded up to 3 digits
  double bound = round_to_digits(largest / kFloatMax * 1.005, 3);
  return expected(name,
                  "at least " + format_number(bound) + " for these scores (the largest, " +
                      format_float(static_cast<float>(largest)) + ", divided by " + name +
                      " must stay below 3.4e+38)",
                  format_float(static_cast<float>(temperature)));
}

Error check_jacobian(const std::vector<float>& p) {
  if (p.empty() || p.size() > static_cast<std::size_t>(limits::kMaxTokens)) {
    return expected("p", "1 to " + std::to_string(limits::kMaxTokens) + " numbers",
                    std::to_string(p.size()));
  }
  for (std::size_t i = 0; i < p.size(); i++) {
    if (!std::isfinite(p[i])) {
      return "p: entry " + std::to_string(i) + " is " + format_float(p[i]) +
             " (expected finite numbers)";
    }
    if (std::fabs(p[i]) >= kMaxJacobianEntry) {
      return "p: entry " + std::to_string(i) + " is " + format_float(p[i]) +
             " (expected |p| below 1.8e+19, so that p_i p_j stays within float32; softmax "
             "weights are from 0 to 1)";
    }
  }
  return {};
}

}  // namespace attn
