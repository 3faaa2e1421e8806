// Row softmax, scalar reference: std::exp, float sums.
#include <cmath>
#include <cstddef>

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

}  // namespace attn::kernels
