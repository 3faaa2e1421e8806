// Position: attention alone is permutation-equivariant, so order has to be added.
#include "core/positional.h"

#include <cmath>

#include "core/attention.h"

namespace attn {

// ---- sinusoidal encoding --------------------------------------------------------------------

Matrix sinusoidal_encoding(int n, int d, float base) {
  Matrix pe(n, d);  // pe: (n, d)
  for (int p = 0; p < n; p++) {
    for (int c = 0; c < d; c++) {
      int i2 = c - c % 2;  // 2i: both columns of a pair share one frequency
      double angle = p / std::pow(static_cast<double>(base), static_cast<double>(i2) / d);
      pe.at(p, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return pe;
}

// ---- RoPE: rotate each pair by an angle proportional to the position ------------------------

Matrix rope(const Matrix& x, int first_position, float base) {
  Matrix out(x.rows, x.cols);  // out: (n, d)
  int d = x.cols;
  for (int r = 0; r < x.rows; r++) {
    double position = static_cast<double>(first_position) + r;
    for (int i2 = 0; i2 < d; i2 += 2) {
      double angle = position * std::pow(static_cast<double>(base), -static_cast<double>(i2) / d);
      float c = static_cast<float>(std::cos(angle)), s = static_cast<float>(std::sin(angle));
      float x0 = x.at(r, i2), x1 = x.at(r, i2 + 1);
      out.at(r, i2) = x0 * c - x1 * s;
      out.at(r, i2 + 1) = x0 * s + x1 * c;
    }
  }
  return out;
}

// ---- validation -----------------------------------------------------------------------------

static Error check_base(float base) {
  if (!std::isfinite(base) || base <= 0.0f) {
    return "base: expected a finite number > 0, got " + format_number(base);
  }
  return {};
}

Error check_sinusoidal(int n, int d, float base) {
  if (n < 1 || n > limits::kMaxTokens) {
    return "n: expected 1 to " + std::to_string(limits::kMaxTokens) + " positions, got " +
           std::to_string(n);
  }
  if (d < 1 || d > limits::kMaxDim) {
    return "d: expected 1 to " + std::to_string(limits::kMaxDim) + " dimensions, got " +
           std::to_string(d);
  }
  return check_base(base);
}

Error check_rope(const Matrix& x, int first_position, float base) {
  Error e = check_matrix("x", x, limits::kMaxTokens, limits::kMaxDim);
  if (!e.empty()) return e;
  if (x.cols % 2 != 0) {
    return "x: expected an even number of columns (RoPE rotates pairs), got " +
           std::to_string(x.cols);
  }
  if (first_position < 0 || first_position > kMaxPosition) {
    return "firstPosition: expected 0 to " + std::to_string(kMaxPosition) + ", got " +
           std::to_string(first_position);
  }
  return check_base(base);
}

}  // namespace attn
