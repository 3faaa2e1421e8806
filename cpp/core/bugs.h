// The debugging lab: the attention bugs the literature warns about, each computed exactly as
// the bugged code computes it, so the page never fakes a symptom. Every bug runs attend()
// (core/attention.h) with one stage done wrong; the wrong stages are named functions below.
// The bug names (Bug, kBugOption) and d_model's range (kBugDModel) live in core/check.h.
#pragma once

#include <vector>

#include "core/attention.h"
#include "core/check.h"
#include "core/matrix.h"

namespace attn {

// The running example (scaled-dot score, −∞ fill, stable softmax, temperature 1, with its
// masks), the bug to put in it, and d_model for ScaleByDModel.
struct BugArgs {
  Matrix query;  // (n_q, d_k)
  Matrix key;    // (n_k, d_k)
  Matrix value;  // (n_k, d_v)
  Matrix mask;   // (n_q, n_k) of 0/1, or empty
  bool causal = false;
  std::vector<bool> key_padding;  // n_k flags (true = padding), or empty
  Bug bug = Bug::None;
  int d_model = 0;  // ScaleByDModel only: the model width (heads · d_k), >= 1
};

// Empty when args are valid; otherwise a message naming the argument.
Error check_bug(const BugArgs& args);

// The pipeline with the bug in it, every stage kept (as attend()). Requires check_bug empty;
// the result's `error` is attend()'s float32 overflow refusal.
//   None              attend() itself
//   MissingScale      score 'dot': Q Kᵀ is never divided by √d_k
//   ZeroFill          blocked scores become 0, an ordinary score, so blocked keys get weight
//   ReversedCausal    the causal mask written j >= i: each query sees itself and the future
//   WrongAxis         softmax_columns: every column sums to 1, the rows do not
//   MaskAfterSoftmax  softmax of the unmasked scores, then mask_after_softmax
//   NoMaxSubtraction  the naive softmax: exp overflows past a logit of about 88.7 (NaN)
//   ScaleByDModel     Q Kᵀ / √d_model: logits √(d_model / d_k) times too small
AttendResult attend_with_bug(const BugArgs& args);

// ---- the bugged stages, one function each ----------------------------------------------------

// Softmax down each column (dim=0) instead of along each row.   (n_q, n_k) -> (n_q, n_k)
// A column whose entries are all -inf gets zeros, as softmax_rows does for a row.
Matrix softmax_columns(const Matrix& scores);

// Weights with the blocked cells (mask == 0) set to 0 after the softmax, and nothing
// renormalised.   weights, mask: (n_q, n_k) -> (n_q, n_k)
Matrix mask_after_softmax(const Matrix& weights, const Matrix& mask);

}  // namespace attn
