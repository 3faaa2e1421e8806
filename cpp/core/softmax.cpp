// Stage 4: softmax turns each row of scores into weights that are >= 0 and sum to 1.
#include "core/softmax.h"

#include <cmath>
#include <limits>

#include "core/attention.h"
#include "core/rng.h"
#include "kernels/kernels.h"

namespace attn {

// ---- row softmax ----------------------------------------------------------------------------

Matrix softmax_rows(const Matrix& scores, bool stable) {
  Matrix weights = scores;  // weights: (n_q, n_k)
  // Rows where every key is blocked (all -inf). Stable: subtracting their max (-inf)
  // would give NaN, so the engine decides: such a row attends to nothing (all zeros).
  std::vector<int> blocked_rows;
  if (stable) {
    for (int i = 0; i < scores.rows; i++) {
      bool all_neg_inf = true;
      for (int j = 0; j < scores.cols; j++) {
        all_neg_inf = all_neg_inf && scores.at(i, j) == -std::numeric_limits<float>::infinity();
      }
      if (all_neg_inf) blocked_rows.push_back(i);
    }
  }
  kernels::softmax_rows(weights.data.data(), weights.rows, weights.cols, stable);
  for (int i : blocked_rows) {
    for (int j = 0; j < weights.cols; j++) weights.at(i, j) = 0.0f;
  }
  return weights;
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
  Error e = check_size(name, scores, limits::kMaxTokens, limits::kMaxTokens);
  if (!e.empty()) return e;
  for (int i = 0; i < scores.rows; i++) {
    for (int j = 0; j < scores.cols; j++) {
      float s = scores.at(i, j);
      if (std::isnan(s) || s == std::numeric_limits<float>::infinity()) {
        return std::string(name) + ": row " + std::to_string(i) + ", column " +
               std::to_string(j) + " is " + format_number(s) +
               " (expected finite numbers, or -Infinity for a blocked cell)";
      }
    }
  }
  return {};
}

Error check_temperature(const char* name, float temperature) {
  if (!std::isfinite(temperature) || temperature <= 0.0f) {
    return std::string(name) + ": expected a finite number > 0, got " + format_number(temperature);
  }
  return {};
}

Error check_jacobian(const std::vector<float>& p) {
  if (p.empty() || p.size() > static_cast<std::size_t>(limits::kMaxTokens)) {
    return "p: expected 1 to " + std::to_string(limits::kMaxTokens) + " numbers, got " +
           std::to_string(p.size());
  }
  for (std::size_t i = 0; i < p.size(); i++) {
    if (!std::isfinite(p[i])) {
      return "p: entry " + std::to_string(i) + " is " + format_number(p[i]) +
             " (expected finite numbers)";
    }
  }
  return {};
}

}  // namespace attn
