// The lesson's pipeline: score -> scale -> mask -> softmax -> weighted sum, one stage function
// each, and the validation every entry point runs first. attend() and its output-only path are
// in attend_output.cpp.
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

// Stage 1: the scores of a.score, (n_q, n_k).
static Matrix raw_scores(const AttendArgs& a) {
  switch (a.score) {
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot:
      return score_dot(a.query, a.key);
    case ScoreKind::Additive:
      return score_additive(a.query, a.key, a.additive_wq, a.additive_wk, a.additive_v);
    case ScoreKind::General:
      return score_general(a.query, a.key, a.general_w);
  }
  return {};
}

Error score_overflow(const AttendArgs& a, const Matrix& scores, int first_row) {
  std::size_t c = 0;
  while (c < scores.data.size() && std::isfinite(scores.data[c])) c++;
  if (c == scores.data.size()) return {};
  std::string where = "query " + std::to_string(first_row + c / scores.cols) + ", key " +
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

// Stage 2 in place: scores / sqrt(d_k) (scaled-dot only), then / temperature. Scores divided by
// sqrt(d_k) >= 1 stay finite exactly when they were, so a score past float32 is q·k's overflow;
// a temperature below 1 can take finite scores past it, which is said before it happens.
static Error scale(const AttendArgs& a, Matrix& s) {
  const float root =
      a.score == ScoreKind::ScaledDot ? std::sqrt(static_cast<float>(a.key.cols)) : 1.0f;
  if (!scale_in_place(s, root)) return score_overflow(a, s);
  if (a.temperature == 1.0f) return {};
  if (a.temperature < 1.0f) {
    Error e = check_scaled_scores("temperature", s, a.temperature);
    if (!e.empty()) return e;
  }
  scale_in_place(s, a.temperature);
  return {};
}

static bool any_mask(const AttendArgs& a) {
  return given(a.mask) || a.causal || a.reverse_causal || !a.key_padding.empty();
}

// Stage 3 in place: blocked cells get the fill value. With the stages kept, the mask is built
// and kept too; without, the scores are masked cell by cell and no mask is built.
static void mask(const AttendArgs& a, Matrix& s, AttendResult* r) {
  if (a.stages && !any_mask(a)) {  // every key allowed: nothing to scan or fill
    r->mask = Matrix(s.rows, s.cols, 1.0f);
  } else if (a.stages) {
    r->mask = build_mask(s.rows, s.cols, a.mask, a.causal, a.key_padding, a.reverse_causal);
    r->fully_masked_rows = fully_masked_rows(r->mask);
    apply_mask_in_place(s, r->mask, a.mask_fill);
  } else if (any_mask(a)) {
    r->fully_masked_rows =
        apply_mask_in_place(s, a.mask, a.causal, a.key_padding, a.reverse_causal, a.mask_fill);
  }
}

// Stage 4 in place: the row softmax, stable or naive (overflowing on purpose), and each row's
// entropy.
static void softmax(const AttendArgs& a, Matrix& s, AttendResult* r) {
  if (a.stable) {
    r->entropy = softmax_entropy_in_place(s);
  } else {
    softmax_rows_in_place(s, false);
    r->overflow = naive_softmax_overflowed(s);
    r->entropy = row_entropy(s);
  }
}

static AttendResult failed(const Error& e) {
  AttendResult r;
  r.error = e;
  return r;
}

AttendResult attend_stages(const AttendArgs& a) {
  AttendResult r;
  Matrix s = raw_scores(a);  // 1. scores (n_q, n_k)
  if (a.stages) r.scores = s;
  Error e = scale(a, s);  // 2. / sqrt(d_k), / temperature
  if (!e.empty()) return failed(e);
  if (a.stages) r.scaled = s;
  mask(a, s, &r);  // 3. blocked cells get the fill value
  if (a.stages) r.masked = s;
  softmax(a, s, &r);                    // 4. weights (n_q, n_k), each row's entropy
  r.output = weighted_sum(s, a.value);  // 5. output (n_q, d_v)
  if (!r.overflow && !first_non_finite(r.output).empty())
    return failed(
        "value: the weighted sum overflows float32 (expected |value| entries below 3.4e+38)");
  if (a.stages) r.weights = std::move(s);
  return r;
}

// ---- validation -----------------------------------------------------------------------------

Error check_attend(const AttendArgs& a) {
  Error e = check_query_key_value(a.query, a.key, a.value);
  if (!e.empty()) return e;
  int n_q = a.query.rows, d_q = a.query.cols, n_k = a.key.rows, d_k = a.key.cols;
  if (a.value.rows != n_k) {
    return expected("value", std::to_string(n_k) + " rows (one per key)",
                    std::to_string(a.value.rows));
  }
  e = kScoreOption.check(a.score);
  if (e.empty()) e = kMaskFillOption.check(a.mask_fill);
  if (!e.empty()) return e;
  if ((a.score == ScoreKind::Dot || a.score == ScoreKind::ScaledDot) && d_k != d_q) {
    const char* kind_name = a.score == ScoreKind::Dot ? "dot" : "scaled-dot";
    return expected(
        "key",
        std::to_string(d_q) + " columns (d_k must equal the query's d_q for " + kind_name + ")",
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
