// The debugging lab's bugs: attend() with one stage done wrong.
#include "core/bugs.h"

#include <cmath>
#include <utility>

#include "core/masks.h"
#include "core/softmax.h"

namespace attn {

// ---- the bugged stages ----------------------------------------------------------------------

static Matrix transpose(const Matrix& m) {
  Matrix t(m.cols, m.rows);  // t: (cols, rows)
  for (int i = 0; i < m.rows; i++) {
    for (int j = 0; j < m.cols; j++) t.at(j, i) = m.at(i, j);
  }
  return t;
}

Matrix softmax_columns(const Matrix& scores) {
  // softmax(dim=0): the row softmax of the transpose, transposed back
  return transpose(softmax_rows(transpose(scores), true));
}

Matrix mask_after_softmax(const Matrix& weights, const Matrix& mask) {
  Matrix out = weights;  // out: (n_q, n_k)
  for (std::size_t c = 0; c < out.data.size(); c++) {
    if (mask.data[c] == 0.0f) out.data[c] = 0.0f;  // zeroed, but the row is not renormalised
  }
  return out;
}

// ---- the pipeline with the bug --------------------------------------------------------------

// The healthy attend() arguments of the running example.
static AttendArgs example_args(const BugArgs& b) {
  AttendArgs a;
  a.query = b.query;
  a.key = b.key;
  a.value = b.value;
  a.mask = b.mask;
  a.causal = b.causal;
  a.key_padding = b.key_padding;
  return a;
}

// The same with the bug put in the options attend() already has (score, fill, causal
// direction, softmax, the divisor).
static AttendArgs bugged_options(const BugArgs& b) {
  AttendArgs a = example_args(b);
  switch (b.bug) {
    case Bug::MissingScale:
      a.score = ScoreKind::Dot;
      break;
    case Bug::ZeroFill:
      a.mask_fill = MaskFill::Zero;
      break;
    case Bug::ReversedCausal:
      a.causal = false;  // the code meant to be causal, and wrote the comparison the wrong way
      a.reverse_causal = true;
      break;
    case Bug::NoMaxSubtraction:
      a.stable = false;
      break;
    case Bug::ScaleByDModel:
      // Q Kᵀ / √d_model: the raw scores divided by √d_model, which is the temperature stage's
      // arithmetic with T = √d_model (the same float division as score_scaled's √d_k)
      a.score = ScoreKind::Dot;
      a.temperature = std::sqrt(static_cast<float>(b.d_model));
      break;
    default:
      break;
  }
  return a;
}

AttendResult attend_with_bug(const BugArgs& b) {
  AttendResult r = attend(bugged_options(b));
  if (!r.error.empty()) return r;
  // 4. the softmax stage done wrong, on the stages attend() kept
  if (b.bug == Bug::WrongAxis) {
    r.weights = softmax_columns(r.masked);
  } else if (b.bug == Bug::MaskAfterSoftmax) {
    r.masked = r.scaled;  // nothing is blocked before the softmax
    r.weights = mask_after_softmax(softmax_rows(r.scaled, true), r.mask);
  } else {
    return r;
  }
  // 5. weights x V: output (n_q, d_v), and the entropy of the rows the bug left
  r.output = weighted_sum(r.weights, b.value);
  r.entropy = row_entropy(r.weights);
  if (!first_non_finite(r.output).empty()) {  // a column softmax's row can sum to n_q
    AttendResult failed;
    failed.error =
        "value: the weighted sum overflows float32 (expected |value| entries below "
        "3.4e+38 / n_q)";
    return failed;
  }
  return r;
}

// ---- validation -----------------------------------------------------------------------------

Error check_bug(const BugArgs& b) {
  Error e = kBugOption.check(b.bug);
  if (!e.empty()) return e;
  if (b.bug == Bug::ScaleByDModel) {
    e = check_number(kBugDModel, b.d_model);
    if (!e.empty()) return e;
  }
  // the running example's own checks (the bugs change no shape and keep every option valid)
  return check_attend(example_args(b));
}

}  // namespace attn
