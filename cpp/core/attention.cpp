// The whole pipeline: score -> scale -> mask -> softmax -> weighted sum, and the validation
// every entry point runs first.
#include "core/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
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
    case ScoreKind::ScaledDot:
      return score_dot(a.query, a.key);
    case ScoreKind::Additive:
      return score_additive(a.query, a.key, a.additive_wq, a.additive_wk, a.additive_v);
    case ScoreKind::General:
      return score_general(a.query, a.key, a.general_w);
  }
  return {};
}

// Finite inputs can still give scores past float32 (q·k of entries near 1e20): say which
// argument and what range is safe instead of returning a row of NaN.
// first_row: the row of the whole score matrix that scores' row 0 is.
static Error score_overflow(const AttendArgs& a, const Matrix& scores, int first_row = 0) {
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

static AttendResult failed(const Error& e) {
  AttendResult r;
  r.error = e;
  return r;
}

static AttendResult weighted_sum_overflow() {
  return failed(
      "value: the weighted sum overflows float32 (expected |value| entries below 3.4e+38)");
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

// Stage 2 in place: scores / sqrt(d_k) (scaled-dot), then / temperature. False when a score was
// past float32 already (q·k overflowed): scores divided by sqrt(d_k) >= 1 and by a temperature
// >= 1 stay finite exactly when they were.
static bool scale_scores(float* s, std::size_t count, const AttendArgs& a) {
  bool finite = kernels::divide_finite(
      s, count, a.score == ScoreKind::ScaledDot ? std::sqrt(static_cast<float>(a.key.cols)) : 1.0f);
  if (a.temperature != 1.0f) kernels::divide_finite(s, count, a.temperature);  // x / 1 = x
  return finite;
}

// The output-only path, a block of query rows at a time, when no stage is kept and nothing
// needs the whole matrix: dot or scaled-dot scores, the stable softmax, a temperature >= 1
// (dividing by it cannot overflow) and no mask but the causal one with -inf fill. K and V are
// packed once; a block's scores become its unnormalised weights e = exp(s - max) in place
// (kernels::exp_scores_row: the scale, the row max and the exponentials in two passes over
// the row, the causal keys past the query never computed), e V is accumulated while the block
// is in cache, and each output row is divided by its sum. Not the stages' floats bit for bit
// (they divide every weight by the sum first, and their exp is another polynomial), the same
// to float rounding (tests/js/engine.test.js, tests/cpp/attention_test.cpp).
static bool rowwise(const AttendArgs& a) {
  return !a.stages && a.stable && (a.score == ScoreKind::Dot || a.score == ScoreKind::ScaledDot) &&
         a.temperature >= 1.0f && !given(a.mask) && !a.reverse_causal && a.key_padding.empty() &&
         (!a.causal || a.mask_fill == MaskFill::NegInf);
}

// Query rows per block: about 64 KB of scores (a multiple of the products' 4-row blocks).
static int block_rows(int n_k) {
  return std::max(4, std::min(64, 16384 / std::max(n_k, 1) / 4 * 4));
}

static AttendResult attend_rowwise(const AttendArgs& a) {
  AttendResult r;
  const int n_q = a.query.rows, n_k = a.key.rows, d_k = a.key.cols, d_v = a.value.cols;
  using kernels::PackedMatrix;
  // Kᵀ (d_k, n_k) and V (n_k, d_v), packed for the products
  std::unique_ptr<float[]> kt_store(new float[PackedMatrix::size(d_k, n_k)]);
  std::unique_ptr<float[]> v_store(new float[PackedMatrix::size(n_k, d_v)]);
  const PackedMatrix kt = kernels::pack_bt(a.key.data.data(), n_k, d_k, d_k, kt_store.get());
  const PackedMatrix v = kernels::pack_b(a.value.data.data(), n_k, d_v, d_v, v_store.get());
  const int rows = block_rows(n_k);
  // one block's scores, then its weights: (rows, n_k), written by the product before any read
  std::unique_ptr<float[]> s(new float[static_cast<std::size_t>(rows) * n_k]);
  std::unique_ptr<float[]> sums(new float[rows]);  // each row's Σ e
  // 1 / (sqrt(d_k) temperature): scores times it stay finite exactly when they were (it is <= 1)
  const float root = a.score == ScoreKind::ScaledDot ? std::sqrt(static_cast<float>(d_k)) : 1.0f;
  const float scale = 1.0f / (root * a.temperature);
  r.entropy.resize(n_q);
  r.output = Matrix(n_q, d_v);  // output: (n_q, d_v)
  for (int i0 = 0; i0 < n_q; i0 += rows) {
    const int bq = std::min(rows, n_q - i0);
    // every score is computed and checked (an overflow is an error, blocked or not), but with
    // causal the block's last query sees keys 0 .. i0 + bq - 1 only, so P V stops there
    const int keys = a.causal ? std::min(n_k, i0 + bq) : n_k;
    kernels::gemm_packed(a.query.row(i0), d_k, kt, 0, 0, s.get(), n_k, bq, n_k, d_k);
    for (int q = 0; q < bq; q++) {
      const int i = i0 + q;
      float* row = s.get() + static_cast<std::size_t>(q) * n_k;
      const int allowed_keys = a.causal ? std::min(i + 1, n_k) : n_k;  // causal: keys j <= i
      float m = -std::numeric_limits<float>::infinity(), t;
      if (!kernels::exp_scores_row(row, n_k, allowed_keys, scale, &m, &sums[q], &t)) {
        Matrix scores(1, n_k);  // the overflowing row, for the message (rows before it were finite)
        std::copy(row, row + n_k, scores.data.begin());
        r.error = score_overflow(a, scores, i);
        r.entropy.clear();
        r.output = Matrix();
        return r;
      }
      r.entropy[i] = std::log(sums[q]) - t / sums[q];
    }
    kernels::gemm_packed(s.get(), n_k, v, 0, 0, r.output.row(i0), d_v, bq, d_v, keys);
    for (int q = 0; q < bq; q++) {
      float* out = r.output.row(i0 + q);
      for (int c = 0; c < d_v; c++) out[c] = out[c] / sums[q];
    }
  }
  return r;
}

// The lesson's path: the whole (n_q, n_k) matrix through the five stages, keeping each stage's
// copy when asked (a.stages), or masking in place when not.
static AttendResult attend_stages(const AttendArgs& a) {
  AttendResult r;
  int n_q = a.query.rows, n_k = a.key.rows;
  // 1. scores: (n_q, n_k)
  Matrix s = raw_scores(a);
  if (a.stages) r.scores = s;
  // 2. scale by 1/sqrt(d_k) (scaled-dot only), then by 1/temperature
  if (a.temperature < 1.0f) {  // dividing by it can overflow: say so before it does
    r.error = score_overflow(a, s);
    if (r.error.empty()) {
      if (a.score == ScoreKind::ScaledDot)
        scale_in_place(s, std::sqrt(static_cast<float>(a.key.cols)));
      r.error = check_scaled_scores("temperature", s, a.temperature);
    }
    if (!r.error.empty()) return failed(r.error);
    scale_in_place(s, a.temperature);
  } else if (!scale_scores(s.data.data(), s.data.size(), a)) {
    return failed(score_overflow(a, s));
  }
  if (a.stages) r.scaled = s;
  // 3. mask: (n_q, n_k); blocked cells get the fill value
  if (a.stages && !any_mask(a)) {  // every key allowed: nothing to scan or fill
    r.mask = Matrix(n_q, n_k, 1.0f);
    r.masked = s;
  } else if (a.stages) {
    r.mask = build_mask(n_q, n_k, a.mask, a.causal, a.key_padding, a.reverse_causal);
    r.fully_masked_rows = fully_masked_rows(r.mask);
    apply_mask_in_place(s, r.mask, a.mask_fill);
    r.masked = s;
  } else if (any_mask(a)) {
    r.fully_masked_rows = mask_in_place(s, a);
  }
  // 4. softmax along each row: weights (n_q, n_k), and each row's entropy
  if (a.stable) {
    r.entropy = softmax_entropy_in_place(s);
  } else {
    softmax_rows_in_place(s, false);
    r.overflow = naive_softmax_overflowed(s);  // the naive softmax, overflowing on purpose
    r.entropy = row_entropy(s);
  }
  // 5. weights x V: output (n_q, d_v)
  r.output = weighted_sum(s, a.value);
  if (!r.overflow && !all_finite(r.output)) return weighted_sum_overflow();
  if (a.stages) r.weights = std::move(s);
  return r;
}

AttendResult attend(const AttendArgs& a) {
  if (!rowwise(a)) return attend_stages(a);
  AttendResult r = attend_rowwise(a);
  // e V sums unnormalised weights (up to n_k times the normalised ones): where that passes
  // float32, the stages decide whether the true weighted sum does
  if (r.error.empty() && !all_finite(r.output)) return attend_stages(a);
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
