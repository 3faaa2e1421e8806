// Small dense helpers the models share (see dense.h).
#include "core/dense.h"

#include <algorithm>
#include <cmath>

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

double cross_entropy(const float* logits, int n, int target, int top) {
  const double max = logits[top];
  double sum = 0;
  for (int v = 0; v < n; v++) sum += std::exp(static_cast<double>(logits[v]) - max);
  return std::log(sum) - (static_cast<double>(logits[target]) - max);
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

void layer_norm_rows(const float* x, const float* gamma, const float* beta, double eps, float* out,
                     int rows, int cols, float* mean, float* std) {
  for (int i = 0; i < rows; i++) {
    // mean and biased variance in double: a row of huge or nearly equal floats stays exact
    const float* row = x + static_cast<std::size_t>(i) * cols;
    float* y = out + static_cast<std::size_t>(i) * cols;
    double sum = 0;
    for (int c = 0; c < cols; c++) sum += row[c];
    const double mu = sum / cols;
    double squares = 0;
    for (int c = 0; c < cols; c++) squares += (row[c] - mu) * (row[c] - mu);
    const double var = squares / cols;
    const double inv = 1.0 / std::sqrt(var + eps);
    for (int c = 0; c < cols; c++)
      y[c] = static_cast<float>((row[c] - mu) * inv * gamma[c] + beta[c]);
    if (mean) mean[i] = static_cast<float>(mu);
    if (std) std[i] = static_cast<float>(std::sqrt(var));
  }
}

}  // namespace attn::dense
