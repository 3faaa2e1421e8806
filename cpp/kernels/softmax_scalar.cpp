// Row softmax, scalar reference: std::exp, float sums; and the pieces of the fused and the
// online softmax (softmax_entropy_row, row_max, exp_shift_sum) and of the scaling passes.
#include <cmath>
#include <cstddef>
#include <limits>

#include "kernels/kernels.h"

namespace attn::kernels {

// x: (rows, cols), in place. stable: exp(x - max) / sum; naive: exp(x) / sum.
void softmax_rows_scalar(float* x, int rows, int cols, bool stable) {
  for (int r = 0; r < rows; ++r) {
    float* row = x + static_cast<std::ptrdiff_t>(r) * cols;
    float shift = 0.0f;
    if (stable) {
      shift = row[0];
      for (int j = 1; j < cols; ++j) shift = row[j] > shift ? row[j] : shift;
    }
    float sum = 0.0f;
    for (int j = 0; j < cols; ++j) {
      row[j] = std::exp(row[j] - shift);
      sum += row[j];
    }
    for (int j = 0; j < cols; ++j) row[j] = row[j] / sum;
  }
}

float row_max_scalar(const float* x, int n) {
  float m = x[0];
  for (int j = 1; j < n; ++j) m = x[j] > m ? x[j] : m;
  return m;
}

float exp_shift_sum_scalar(float* x, int n, float shift, float* t) {
  float sum = 0.0f, tsum = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float d = x[j] - shift;
    x[j] = std::exp(d);
    sum += x[j];
    if (x[j] > 0.0f) tsum += x[j] * d;  // a blocked entry (d = -inf) adds nothing
  }
  *t = tsum;
  return sum;
}

// The entries past len are blocked: exp gives them 0, which changes neither the max, the sum
// nor any other weight, so the prefix alone gives softmax_rows' floats.
float softmax_entropy_row_scalar(float* x, int cols, int len) {
  const float shift = len > 0 ? row_max_scalar(x, len) : -std::numeric_limits<float>::infinity();
  if (shift == -std::numeric_limits<float>::infinity()) {
    for (int j = 0; j < cols; ++j) x[j] = 0.0f;
    return 0.0f;
  }
  float t;
  const float sum = exp_shift_sum_scalar(x, len, shift, &t);
  for (int j = 0; j < len; ++j) x[j] = x[j] / sum;
  for (int j = len; j < cols; ++j) x[j] = 0.0f;
  return std::log(sum) - t / sum;
}

bool divide_finite_scalar(float* x, std::size_t n, float divisor) {
  bool finite = true;
  for (std::size_t j = 0; j < n; ++j) {
    x[j] = x[j] / divisor;
    finite = finite && std::isfinite(x[j]);
  }
  return finite;
}

void scale_add_scalar(float* y, const float* x, int n, float r) {
  for (int j = 0; j < n; ++j) y[j] = y[j] * r + x[j];
}

}  // namespace attn::kernels
