// The whole pipeline: score -> scale -> mask -> softmax -> weighted sum, and the validation
// every entry point runs first.
#include "core/attention.h"

#include <cmath>
#include <utility>

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

// Finite inputs can still give scores past float32 (q·k of entries near 1e20): say which
// argument and what range is safe instead of returning a row of NaN.
static Error score_overflow(const AttendArgs& a, const Matrix& scores) {
  std::size_t c = 0;
  while (c < scores.data.size() && std::isfinite(scores.data[c])) c++;
  if (c == scores.data.size()) return {};
  std::string where = "query " + std::to_string(c / scores.cols) + ", key " +
                      std::to_string(c % scores.cols);
  switch (a.score) {
    case ScoreKind::Additive:
      return "additive.Wq: Wq q + Wk k overflows float32 at " + where +
             " (expected |Wq q| + |Wk k| below 3.4e+38 for every query and key)";
    case ScoreKind::General:
      return "general.W: q W k overflows float32 at " + where +
             " (expected |q| |W| |k| below 3.4e+38 for every query and key)";
    default:
      return "query: q·k overflows float32 at " + where +
             " (expected |q| |k| below 3.4e+38 for every query and key row)";
  }
}

static bool any_mask(const AttendArgs& a) {
  return given(a.mask) || a.causal || a.reverse_causal || !a.key_padding.empty();
}

// Stage 3 in place, without building the mask: blocked cells get the fill value.
static std::vector<int> mask_in_place(Matrix& s, const AttendArgs& a) {
  std::vector<int> blocked_rows;
  float fill = fill_value(a.mask_fill);
  for (int i = 0; i < s.rows; i++) {
    bool any_allowed = false;
    float* row = s.row(i);
    for (int j = 0; j < s.cols; j++) {
      if (allowed(i, j, s.cols, a.mask, a.causal, a.key_padding, a.reverse_causal)) {
        any_allowed = true;
      } else {
        row[j] = fill;
      }
    }
    if (!any_allowed) blocked_rows.push_back(i);
  }
  return blocked_rows;
}

static bool all_finite(const Matrix& m) { return first_non_finite(m).empty(); }

AttendResult attend(const AttendArgs& a) {
  AttendResult r;
  int n_q = a.query.rows, n_k = a.key.rows, d_k = a.key.cols;
  // 1. scores: (n_q, n_k)
  Matrix s = raw_scores(a);
  r.error = score_overflow(a, s);
  if (!r.error.empty()) return r;
  if (a.stages) r.scores = s;
  // 2. scale by 1/sqrt(d_k) (scaled-dot only), then by 1/temperature
  if (a.score == ScoreKind::ScaledDot) scale_in_place(s, std::sqrt(static_cast<float>(d_k)));
  r.error = check_scaled_scores("temperature", s, a.temperature);
  if (!r.error.empty()) return r;
  scale_in_place(s, a.temperature);
  if (a.stages) r.scaled = s;
  // 3. mask: (n_q, n_k); blocked cells get the fill value
  if (a.stages) {
    r.mask = build_mask(n_q, n_k, a.mask, a.causal, a.key_padding, a.reverse_causal);
    r.fully_masked_rows = fully_masked_rows(r.mask);
    s = apply_mask(s, r.mask, a.mask_fill);
    r.masked = s;
  } else if (any_mask(a)) {
    r.fully_masked_rows = mask_in_place(s, a);
  }
  // 4. softmax along each row: weights (n_q, n_k)
  softmax_rows_in_place(s, a.stable);
  r.overflow = !a.stable && !all_finite(s);  // the naive softmax, overflowing on purpose
  // 5. weights x V: output (n_q, d_v)
  r.output = weighted_sum(s, a.value);
  r.entropy = row_entropy(s);
  if (!r.overflow && !all_finite(r.output)) {
    AttendResult failed;
    failed.error = "value: the weighted sum overflows float32 (expected |value| entries below "
                   "3.4e+38)";
    return failed;
  }
  if (a.stages) r.weights = std::move(s);
  return r;
}

// ---- validation -----------------------------------------------------------------------------

Error check_attend(const AttendArgs& a) {
  Error e = check_matrix("query", a.query);
  if (e.empty()) e = check_matrix("key", a.key);
  if (e.empty()) e = check_matrix("value", a.value);
  if (!e.empty()) return e;
  int n_q = a.query.rows, d_q = a.query.cols, n_k = a.key.rows, d_k = a.key.cols;
  if (a.value.rows != n_k) {
    return expected("value", std::to_string(n_k) + " rows (one per key)", std::to_string(a.value.rows));
  }
  e = kScoreOption.check(a.score);
  if (e.empty()) e = kMaskFillOption.check(a.mask_fill);
  if (!e.empty()) return e;
  if ((a.score == ScoreKind::Dot || a.score == ScoreKind::ScaledDot) && d_k != d_q) {
    const char* kind_name = a.score == ScoreKind::Dot ? "dot" : "scaled-dot";
    return expected("key",
                    std::to_string(d_q) + " columns (d_k must equal the query's d_q for " +
                        kind_name + ")",
                    std::to_string(d_k));
  }
  if (a.score == ScoreKind::Additive) {
    if (!given(a.additive_wq) && !given(a.additive_wk) && !given(a.additive_v)) {
      return "additive: required when score is 'additive' ({ Wq, Wk, v })";
    }
    // Wq (h, d_q), Wk (h, d_k), v (1, h): h is the hidden size, read from Wq
    e = check_matrix("additive.Wq", a.additive_wq);
    int h = a.additive_wq.rows;
    if (e.empty()) e = check_shape("additive.Wq", a.additive_wq, h, d_q, "(h, d_q)");
    if (e.empty()) e = check_matrix("additive.Wk", a.additive_wk);
    if (e.empty()) e = check_shape("additive.Wk", a.additive_wk, h, d_k, "(h, d_k)");
    if (e.empty()) e = check_matrix("additive.v", a.additive_v);
    if (e.empty()) e = check_shape("additive.v", a.additive_v, 1, h, "(1, h)");
    if (!e.empty()) return e;
    double work = static_cast<double>(n_q) * n_k * h;
    if (work > kMaxAdditiveWork) {
      return "additive.Wq: n_q * n_k * h = " + format_number(work) + " is more than " +
             format_number(kMaxAdditiveWork) + " (the additive score's work limit)";
    }
  }
  if (a.score == ScoreKind::General) {
    if (!given(a.general_w)) return "general: required when score is 'general' ({ W })";
    e = check_matrix("general.W", a.general_w);
    if (e.empty()) e = check_shape("general.W", a.general_w, d_q, d_k, "(d_q, d_k)");
    if (!e.empty()) return e;
  }
  e = check_mask_args(a.mask, a.key_padding, n_q, n_k);
  if (!e.empty()) return e;
  return check_number(kTemperature, a.temperature);
}

}  // namespace attn
