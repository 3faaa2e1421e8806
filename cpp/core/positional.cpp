// Position: attention alone is permutation-equivariant, so order has to be added.
#include "core/positional.h"

#include <cmath>

#include "core/check.h"

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

Error check_sinusoidal(double n, double d, double base) {
  Error e = check_number(kPositions, n);
  if (e.empty()) e = check_number(kDims, d);
  if (e.empty()) e = check_number(kBase, base);
  return e;
}

Error check_rope(const Matrix& x, double first_position, double base) {
  Error e = check_matrix("x", x);
  if (!e.empty()) return e;
  if (x.cols % 2 != 0) {
    return expected("x", "an even number of columns (RoPE rotates pairs)", std::to_string(x.cols));
  }
  for (int r = 0; r < x.rows; r++) {
    for (int c = 0; c < x.cols; c += 2) {
      if (std::hypot(static_cast<double>(x.at(r, c)), x.at(r, c + 1)) >= 0.999 * kFloatMax) {
        return "x: the pair at row " + std::to_string(r) + ", columns " + std::to_string(c) +
               " and " + std::to_string(c + 1) +
               " is too long to rotate in float32 (expected |(x[2i], x[2i+1])| below 3.4e+38)";
      }
    }
  }
  e = check_number(kFirstPosition, first_position);
  if (e.empty()) e = check_number(kBase, base);
  return e;
}

}  // namespace attn
