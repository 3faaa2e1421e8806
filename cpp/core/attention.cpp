// The whole pipeline: score -> scale -> mask -> softmax -> weighted sum, and the validation
// every entry point runs first.
#include "core/attention.h"

#include <cmath>
#include <cstdio>

#include "core/scores.h"
#include "core/softmax.h"
#include "kernels/kernels.h"

namespace attn {

// ---- stage 5: weighted sum of the values ----------------------------------------------------

Matrix weighted_sum(const Matrix& weights, const Matrix& value) {
  Matrix output(weights.rows, value.cols);  // output: (n_q, d_v)
  kernels::gemm_ab(weights.data.data(), value.data.data(), output.data.data(), weights.rows,
                   value.cols, weights.cols);
  return output;
}

// ---- the pipeline ---------------------------------------------------------------------------

static Matrix raw_scores(const AttendArgs& a) {
  switch (a.score) {
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot: return score_dot(a.query, a.key);
    case ScoreKind::Additive:
      return score_additive(a.query, a.key, a.additive_wq, a.additive_wk, a.additive_v);
    case ScoreKind::General: return score_general(a.query, a.key, a.general_w);
  }
  return {};
}

AttendResult attend(const AttendArgs& args) {
  AttendResult r;
  int n_q = args.query.rows, n_k = args.key.rows, d_k = args.key.cols;
  // 1. scores: (n_q, n_k)
  r.scores = raw_scores(args);
  // 2. scale by 1/sqrt(d_k) (scaled-dot only), then by 1/temperature
  r.scaled = args.score == ScoreKind::ScaledDot ? score_scaled(r.scores, d_k) : r.scores;
  r.scaled = apply_temperature(r.scaled, args.temperature);
  // 3. mask: (n_q, n_k); blocked cells get the fill value
  r.mask = build_mask(n_q, n_k, args.mask, args.causal, args.key_padding);
  r.masked = apply_mask(r.scaled, r.mask, args.mask_fill);
  // 4. softmax along each row: weights (n_q, n_k)
  r.weights = softmax_rows(r.masked, args.stable);
  // 5. weights x V: output (n_q, d_v)
  r.output = weighted_sum(r.weights, args.value);
  r.entropy = row_entropy(r.weights);
  r.fully_masked_rows = fully_masked_rows(r.mask);
  return r;
}

// ---- validation -----------------------------------------------------------------------------

std::string format_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  char buf[32];
  bool whole = x == std::floor(x) && std::fabs(x) < 1e15;
  std::snprintf(buf, sizeof buf, whole ? "%.0f" : "%g", x);
  return buf;
}

static std::string shape_text(int rows, int cols) {
  return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

// "<name>: expected shape <meaning> = (rows, cols), got (r, c)"
static Error shape_error(const char* name, const Matrix& m, int rows, int cols,
                         const char* meaning) {
  if (m.rows == rows && m.cols == cols) return {};
  return std::string(name) + ": expected shape " + meaning + " = " + shape_text(rows, cols) +
         ", got " + shape_text(m.rows, m.cols);
}

// An optional argument is absent when it is (0, 0) with no data.
static bool given(const Matrix& m) { return m.rows != 0 || m.cols != 0 || !m.data.empty(); }

Error check_size(const char* name, const Matrix& m, int max_rows, int max_cols) {
  std::string n(name);
  if (m.rows < 1 || m.rows > max_rows) {
    return n + ": expected 1 to " + std::to_string(max_rows) + " rows, got " +
           std::to_string(m.rows);
  }
  if (m.cols < 1 || m.cols > max_cols) {
    return n + ": expected 1 to " + std::to_string(max_cols) + " columns, got " +
           std::to_string(m.cols);
  }
  std::size_t count = static_cast<std::size_t>(m.rows) * static_cast<std::size_t>(m.cols);
  if (m.data.size() != count) {
    return n + ": expected " + std::to_string(count) + " numbers for " +
           std::to_string(m.rows) + " rows x " + std::to_string(m.cols) + " columns, got " +
           std::to_string(m.data.size());
  }
  return {};
}

Error check_matrix(const char* name, const Matrix& m, int max_rows, int max_cols) {
  Error e = check_size(name, m, max_rows, max_cols);
  if (!e.empty()) return e;
  for (int i = 0; i < m.rows; i++) {
    for (int j = 0; j < m.cols; j++) {
      if (!std::isfinite(m.at(i, j))) {
        return std::string(name) + ": row " + std::to_string(i) + ", column " +
               std::to_string(j) + " is " + format_number(m.at(i, j)) +
               " (expected finite numbers)";
      }
    }
  }
  return {};
}

Error check_shape(const char* name, const Matrix& m, int rows, int cols) {
  if (m.rows == rows && m.cols == cols) return {};
  return std::string(name) + ": expected shape " + shape_text(rows, cols) + ", got " +
         shape_text(m.rows, m.cols);
}

// The mask and key-padding arguments shared by attend() and multi_head().
Error check_mask_args(const Matrix& mask, const std::vector<bool>& key_padding, int n_q, int n_k) {
  if (given(mask)) {
    Error e = check_size("mask", mask, limits::kMaxTokens, limits::kMaxTokens);
    if (e.empty()) e = shape_error("mask", mask, n_q, n_k, "(n_q, n_k)");
    if (!e.empty()) return e;
    for (int i = 0; i < n_q; i++) {
      for (int j = 0; j < n_k; j++) {
        float v = mask.at(i, j);
        if (v != 0.0f && v != 1.0f) {
          return "mask: expected 0 or 1 at row " + std::to_string(i) + ", column " +
                 std::to_string(j) + ", got " + format_number(v);
        }
      }
    }
  }
  if (!key_padding.empty() && key_padding.size() != static_cast<std::size_t>(n_k)) {
    return "keyPadding: expected " + std::to_string(n_k) + " flags (one per key), got " +
           std::to_string(key_padding.size());
  }
  return {};
}

Error check_attend(const AttendArgs& a) {
  Error e = check_matrix("query", a.query, limits::kMaxTokens, limits::kMaxDim);
  if (e.empty()) e = check_matrix("key", a.key, limits::kMaxTokens, limits::kMaxDim);
  if (e.empty()) e = check_matrix("value", a.value, limits::kMaxTokens, limits::kMaxDim);
  if (!e.empty()) return e;
  int n_q = a.query.rows, d_q = a.query.cols, n_k = a.key.rows, d_k = a.key.cols;
  if (a.value.rows != n_k) {
    return "value: expected " + std::to_string(n_k) + " rows (one per key), got " +
           std::to_string(a.value.rows);
  }
  int kind = static_cast<int>(a.score);
  if (kind < 0 || kind > 3) {
    return "score: expected 'dot', 'scaled-dot', 'additive' or 'general', got " +
           std::to_string(kind);
  }
  if ((a.score == ScoreKind::Dot || a.score == ScoreKind::ScaledDot) && d_k != d_q) {
    const char* kind_name = a.score == ScoreKind::Dot ? "dot" : "scaled-dot";
    return "key: expected " + std::to_string(d_q) +
           " columns (d_k must equal the query's d_q for " + kind_name + "), got " +
           std::to_string(d_k);
  }
  if (a.score == ScoreKind::Additive) {
    // Wq (h, d_q), Wk (h, d_k), v (1, h): h is the hidden size, read from Wq
    const int max = limits::kMaxDim;
    e = check_matrix("additive.Wq", a.additive_wq, max, max);
    int h = a.additive_wq.rows;
    if (e.empty()) e = shape_error("additive.Wq", a.additive_wq, h, d_q, "(h, d_q)");
    if (e.empty()) e = check_matrix("additive.Wk", a.additive_wk, max, max);
    if (e.empty()) e = shape_error("additive.Wk", a.additive_wk, h, d_k, "(h, d_k)");
    if (e.empty()) e = check_matrix("additive.v", a.additive_v, 1, max);
    if (e.empty()) e = shape_error("additive.v", a.additive_v, 1, h, "(1, h)");
    if (!e.empty()) return e;
    double work = static_cast<double>(n_q) * n_k * h;
    if (work > kMaxAdditiveWork) {
      return "additive.Wq: n_q * n_k * h = " + format_number(work) + " is more than " +
             format_number(kMaxAdditiveWork) + " (the additive score's work limit)";
    }
  }
  if (a.score == ScoreKind::General) {
    e = check_matrix("general.W", a.general_w, limits::kMaxDim, limits::kMaxDim);
    if (e.empty()) e = shape_error("general.W", a.general_w, d_q, d_k, "(d_q, d_k)");
    if (!e.empty()) return e;
  }
  e = check_mask_args(a.mask, a.key_padding, n_q, n_k);
  if (!e.empty()) return e;
  int fill = static_cast<int>(a.mask_fill);
  if (fill < 0 || fill > 2) {
    return "maskFill: expected 'neg-inf', 'large-negative' or 'zero', got " + std::to_string(fill);
  }
  return check_temperature("temperature", a.temperature);
}

}  // namespace attn
