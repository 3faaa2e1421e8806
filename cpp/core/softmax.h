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
// The same, overwriting the scores with the weights.
void softmax_rows_in_place(Matrix& scores, bool stable = true);

// Did the naive softmax (stable = false) overflow? Yes when a weight is Inf or NaN (an
// exponential past float32 gives inf / inf) or a row is all zeros: every exponential was finite
// but their sum was not, and e / inf = 0. Nothing else makes a row of exact zeros (its largest
// exponential is at least 1/n of the sum).
bool naive_softmax_overflowed(const Matrix& weights);

// The stable softmax in place and each row's entropy from the same pass (kernels.h,
// softmax_entropy_row): the weights of softmax_rows_in_place(scores, true), bit for bit; the
// entropy as row_entropy gives it to a few float ulps. Rows of -inf only: zeros, entropy 0.
std::vector<float> softmax_entropy_in_place(Matrix& scores);

// Entropy -Σ w log w of each row (natural log, 0·log 0 = 0). NaN rows give NaN.
std::vector<float> row_entropy(const Matrix& weights);

// The softmax lesson in one call: the row softmax of scores / temperature (stable or naive),
// each row's entropy, and whether the naive softmax overflowed (shown on purpose).
struct TemperatureSoftmax {
  Matrix weights;
  std::vector<float> entropy;
  bool overflow = false;  // stable = false only (naive_softmax_overflowed)
};
// Requires check_softmax_at_temperature(scores, temperature) to be empty.
TemperatureSoftmax softmax_at_temperature(const Matrix& scores, float temperature, bool stable);

// Jacobian of softmax at one row of weights p: J = diag(p) - p pᵀ.   p: n -> (n, n)
Matrix softmax_jacobian(const std::vector<float>& p);

// Hard attention: one-hot at each row's argmax (the first one on ties).
Matrix hard_attention(const Matrix& scores);

// Gumbel-softmax: softmax((scores + g) / tau), g_ij = -log(-log u_ij), u from the seeded RNG.
Matrix gumbel_softmax(const Matrix& scores, float tau, std::uint64_t seed);

// ---- validation of the entry points above (empty = fine) -----------------------------------
// scores: 1 to limits::kMaxTokens rows and columns, no NaN or +inf (-inf = a blocked cell).
Error check_scores(const char* name, const Matrix& scores);
// A temperature (or Gumbel tau `name`): a number from kMinScale to kMaxScale (core/check.h).
Error check_temperature(const char* name, double temperature);
// (|score| + margin) / temperature stays below float32's largest number for every score:
// otherwise the message names `name` and the smallest temperature that is safe.
Error check_scaled_scores(const char* name, const Matrix& scores, double temperature,
                          double margin = 0);
// softmax_at_temperature's inputs: scores as check_scores, the temperature (a double, as the
// caller passed it) within kTemperature and small enough for every score (check_scaled_scores).
Error check_softmax_at_temperature(const Matrix& scores, double temperature);
// p: 1 to limits::kMaxTokens finite numbers below kMaxJacobianEntry in size.
constexpr double kMaxJacobianEntry = 1.8e19;  // so p_i p_j stays within float32
Error check_jacobian(const std::vector<float>& p);
// The Gumbel noise is -log(-log u) for u in [2^-25, 1): never larger than this in size.
constexpr double kMaxGumbelNoise = 20;

}  // namespace attn
