// Stage 4: scores become weights that are non-negative and sum to 1 along each row.
#pragma once

#include <cstdint>
#include <vector>

#include "core/matrix.h"

namespace attn {

// Row softmax. stable = subtract the row max before exp (never overflows);
// stable = false = exp as is, so logits past ~88.72 give inf and then NaN, honestly.
// A stable row whose entries are all -inf (every key blocked) gives all-zero weights.
Matrix softmax_rows(const Matrix& scores, bool stable = true);

// Entropy -Σ w log w of each row (natural log, 0·log 0 = 0). NaN rows give NaN.
std::vector<float> row_entropy(const Matrix& weights);

// Jacobian of softmax at one row of weights p: J = diag(p) - p pᵀ.   p: n -> (n, n)
Matrix softmax_jacobian(const std::vector<float>& p);

// Hard attention: one-hot at each row's argmax (the first one on ties).
Matrix hard_attention(const Matrix& scores);

// Gumbel-softmax: softmax((scores + g) / tau), g_ij = -log(-log u_ij), u from the seeded RNG.
Matrix gumbel_softmax(const Matrix& scores, float tau, std::uint64_t seed);

// ---- validation of the entry points above (empty = fine) -----------------------------------
// scores: 1 to limits::kMaxTokens rows and columns, no NaN or +inf (-inf = a blocked cell).
Error check_scores(const char* name, const Matrix& scores);
// A temperature (or Gumbel tau): a finite number > 0.
Error check_temperature(const char* name, float temperature);
// p: 1 to limits::kMaxTokens finite numbers.
Error check_jacobian(const std::vector<float>& p);

}  // namespace attn
