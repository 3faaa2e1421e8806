// Stage 3: which query may attend to which key, and what a blocked score becomes.
#pragma once

#include <vector>

#include "core/matrix.h"

namespace attn {

enum class MaskFill { NegInf, LargeNegative, Zero };  // -inf, -1e9, 0

// The combined 0/1 mask (1 = may attend): the explicit mask (if given, (n_q, n_k)),
// AND the causal mask (key j <= query i), AND the key-padding mask (padding keys blocked).
// An empty `explicit_mask` and empty `key_padding` mean "none".
Matrix build_mask(int n_q, int n_k, const Matrix& explicit_mask, bool causal,
                  const std::vector<bool>& key_padding);

// Blocked cells (mask == 0) get the fill value; allowed cells keep their score.
Matrix apply_mask(const Matrix& scores, const Matrix& mask, MaskFill fill);

// Rows of the mask with no allowed key.
std::vector<int> fully_masked_rows(const Matrix& mask);

}  // namespace attn
