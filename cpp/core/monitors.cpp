// The debugging lab's monitors: entropy against its maximum, the sums a softmax promises,
// the weight that leaks past the mask, and the logits' mean and spread.
#include "core/monitors.h"

#include <cmath>
#include <limits>

#include "core/check.h"
#include "core/decimal.h"

namespace attn {

Monitors monitor(const Matrix& logits, const Matrix& weights, const Matrix& mask) {
  Monitors m;
  int n_q = weights.rows, n_k = weights.cols;
  m.max_entropy.assign(n_q, 0.0f);
  m.row_sums.assign(n_q, 0.0f);
  m.col_sums.assign(n_k, 0.0f);
  m.leaked.assign(n_q, 0.0f);
  std::vector<double> cols(n_k, 0.0);
  double sum = 0, max = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n_q; i++) {
    double row = 0, leak = 0;
    int allowed = 0;
    for (int j = 0; j < n_k; j++) {
      double w = weights.at(i, j);
      row += w;
      cols[j] += w;
      if (!std::isfinite(w)) m.non_finite++;
      if (mask.at(i, j) == 0.0f) {
        leak += w;
        continue;
      }
      allowed++;
      double x = logits.at(i, j);
      sum += x;
      if (x > max) max = x;
    }
    m.row_sums[i] = static_cast<float>(row);
    m.leaked[i] = static_cast<float>(leak);
    m.max_entropy[i] =
        allowed > 1 ? static_cast<float>(std::log(static_cast<double>(allowed))) : 0.0f;
    m.cells += allowed;
  }
  for (int j = 0; j < n_k; j++) m.col_sums[j] = static_cast<float>(cols[j]);
  if (m.cells == 0) {
    m.logit_mean = m.logit_std = m.logit_max = std::numeric_limits<double>::quiet_NaN();
    return m;
  }
  // the mean first, then the spread around it (two passes: no cancellation)
  m.logit_mean = sum / m.cells;
  double square = 0;
  for (int i = 0; i < n_q; i++) {
    for (int j = 0; j < n_k; j++) {
      if (mask.at(i, j) == 0.0f) continue;
      double d = logits.at(i, j) - m.logit_mean;
      square += d * d;
    }
  }
  m.logit_std = std::sqrt(square / m.cells);
  m.logit_max = max;
  return m;
}

Error check_monitor(const Matrix& logits, const Matrix& weights, const Matrix& mask) {
  Error e = check_size("logits", logits);
  if (e.empty()) e = check_size("weights", weights);
  if (e.empty())
    e = check_shape("weights", weights, logits.rows, logits.cols, "(n_q, n_k) of logits");
  if (e.empty()) e = check_mask_args(mask, {}, logits.rows, logits.cols);
  if (e.empty() && !given(mask)) e = expected("mask", "a matrix { rows, cols, data }", "nothing");
  if (!e.empty()) return e;
  for (std::size_t c = 0; c < logits.data.size(); c++) {
    if (std::isnan(logits.data[c])) {
      return "logits: row " + std::to_string(c / logits.cols) + ", column " +
             std::to_string(c % logits.cols) + " is NaN (expected numbers)";
    }
  }
  return check_weight_sums(weights, mask);
}

// Finite weights give finite sums: each row's sum, its blocked part and each column's sum
// (added in double, as monitor() does) must fit float32. Non-finite weights are a bug's
// result that the monitors count, not a range problem.
Error check_weight_sums(const Matrix& weights, const Matrix& mask) {
  const int n_q = weights.rows, n_k = weights.cols;
  std::vector<double> cols(n_k, 0.0);
  std::string bad;  // the first sum past float32
  double bad_sum = 0;
  for (int i = 0; i < n_q && bad.empty(); i++) {
    double row = 0, leak = 0;
    for (int j = 0; j < n_k; j++) {
      const double w = weights.at(i, j);
      if (!std::isfinite(w)) return {};
      row += w;
      cols[j] += w;
      if (mask.at(i, j) == 0.0f) leak += w;
    }
    if (!(std::fabs(row) < kFloatMax)) {
      bad = "row " + std::to_string(i) + " sums to ";
      bad_sum = row;
    } else if (!(std::fabs(leak) < kFloatMax)) {
      bad = "row " + std::to_string(i) + "'s blocked keys sum to ";
      bad_sum = leak;
    }
  }
  for (int j = 0; j < n_k && bad.empty(); j++) {
    if (!(std::fabs(cols[j]) < kFloatMax)) {
      bad = "column " + std::to_string(j) + " sums to ";
      bad_sum = cols[j];
    }
  }
  if (bad.empty()) return {};
  return "weights: " + bad + format_number(round_to_digits(bad_sum, 3)) +
         ", past float32 (expected row and column sums below 3.4e+38; softmax weights are "
         "from 0 to 1)";
}

}  // namespace attn
