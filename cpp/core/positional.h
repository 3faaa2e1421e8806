// Position: attention alone is permutation-equivariant, so order has to be added.
#pragma once

#include "core/matrix.h"

namespace attn {

// Sinusoidal encoding (Vaswani et al.): PE[p, 2i] = sin(p / base^(2i/d)),
// PE[p, 2i+1] = cos(p / base^(2i/d)).                -> (n, d)
Matrix sinusoidal_encoding(int n, int d, float base = 10000.0f);

// RoPE: rotates each pair (x[2i], x[2i+1]) of row r by angle (first + r) * base^(-2i/d),
// so q_m · k_n depends only on m - n.   x: (n, d), d even  -> (n, d)
Matrix rope(const Matrix& x, int first_position = 0, float base = 10000.0f);

// ---- validation (empty = fine) ---------------------------------------------------------------
constexpr int kMaxPosition = limits::kMaxPosition;  // largest first_position accepted by rope
// n: 1 to limits::kMaxTokens, d: 1 to limits::kMaxDim, base: kBase of core/check.h.
Error check_sinusoidal(double n, double d, double base);
// x within limits with finite entries, an even number of columns and every pair
// (x[2i], x[2i+1]) shorter than float32's largest number (a rotation keeps the length),
// first_position 0 to kMaxPosition, base: kBase of core/check.h.
Error check_rope(const Matrix& x, double first_position, double base);

}  // namespace attn
