// Small dense helpers the models share (see dense.h).
#include "core/dense.h"

#include <algorithm>

namespace attn::dense {

void add_bias(float* y, const float* b, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    float* yr = y + static_cast<std::size_t>(r) * cols;
    for (int c = 0; c < cols; c++) yr[c] += b[c];
  }
}

void column_sums(const float* g, float* out, int rows, int cols) {
  std::fill(out, out + cols, 0.0f);
  for (int r = 0; r < rows; r++) {
    const float* gr = g + static_cast<std::size_t>(r) * cols;
    for (int c = 0; c < cols; c++) out[c] += gr[c];
  }
}

void transpose(const float* a, float* out, int rows, int cols) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      out[static_cast<std::size_t>(c) * rows + r] = a[static_cast<std::size_t>(r) * cols + c];
}

void gather(const float* src, int stride, int col, float* dst, int rows, int width) {
  for (int r = 0; r < rows; r++)
    std::copy_n(src + static_cast<std::size_t>(r) * stride + col, width,
                dst + static_cast<std::size_t>(r) * width);
}

void scatter(const float* src, float* dst, int stride, int col, int rows, int width) {
  for (int r = 0; r < rows; r++)
    std::copy_n(src + static_cast<std::size_t>(r) * width, width,
                dst + static_cast<std::size_t>(r) * stride + col);
}

}  // namespace attn::dense
