// Stage 3: which query may attend to which key, and what a blocked score becomes.
#pragma once

#include <vector>

#include "core/check.h"
#include "core/matrix.h"

namespace attn {

// MaskFill (what a blocked score becomes) and its names live in core/check.h.

// The combined 0/1 mask (1 = may attend): the explicit mask (if given, (n_q, n_k)),
// AND the causal mask (key j <= query i), AND the reversed causal mask (key j >= query i:
// the one-character bug the masks lesson shows), AND the key-padding mask (padding keys
// blocked). An empty `explicit_mask` and empty `key_padding` mean "none".
Matrix build_mask(int n_q, int n_k, const Matrix& explicit_mask, bool causal,
                  const std::vector<bool>& key_padding, bool reverse_causal = false);

// Whether key j may be attended by query i under those options (one cell of build_mask).
inline bool allowed(int i, int j, int n_k, const Matrix& explicit_mask, bool causal,
                    const std::vector<bool>& key_padding, bool reverse_causal) {
  if (!explicit_mask.empty() && explicit_mask.data[static_cast<std::size_t>(i) * n_k + j] == 0.0f)
    return false;
  if (causal && j > i) return false;              // no peeking at later keys
  if (reverse_causal && j < i) return false;      // the bug: no looking back
  return key_padding.empty() || !key_padding[j];  // padding is never a key
}

// The score a blocked cell gets: -inf, -1e9 or 0.
float fill_value(MaskFill fill);

// Blocked cells (mask == 0) get the fill value; allowed cells keep their score.
Matrix apply_mask(const Matrix& scores, const Matrix& mask, MaskFill fill);
// The same, overwriting the scores.
void apply_mask_in_place(Matrix& scores, const Matrix& mask, MaskFill fill);
// The same for the mask build_mask would make of these options, without building it: the
// scores' blocked cells get the fill value; the rows with no allowed key are returned.
std::vector<int> apply_mask_in_place(Matrix& scores, const Matrix& explicit_mask, bool causal,
                                     const std::vector<bool>& key_padding, bool reverse_causal,
                                     MaskFill fill);

// Rows of the mask with no allowed key.
std::vector<int> fully_masked_rows(const Matrix& mask);

}  // namespace attn
