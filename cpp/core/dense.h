// Small dense helpers the models share (the playground's transformer, the RNN encoder–decoder,
// the Transformer block, GPT-2): bias rows, column sums, the cross-entropy of a row of logits,
// transposes and column blocks of row-major matrices, layer norm over rows, and buffers that
// only grow. Plain loops;
// the products go through kernels.h.
#pragma once

#include <cstddef>
#include <vector>

namespace attn::dense {

// v holds at least n elements (it never shrinks, so a model's scratch is allocated once), in
// exactly as much memory as the largest n asked for (resize alone may take twice as much)
template <typename T>
void grow(std::vector<T>& v, std::size_t n) {
  if (v.size() >= n) return;
  v.reserve(n);
  v.resize(n);
}

// y (rows, cols) += b (cols) on every row
void add_bias(float* y, const float* b, int rows, int cols);

// out (cols) = column sums of g (rows, cols)
void column_sums(const float* g, float* out, int rows, int cols);

// -log softmax(logits)[target] of one row of n logits whose largest is logits[top]: a
// log-sum-exp in double, so a probability too small for float32 still has its finite loss
double cross_entropy(const float* logits, int n, int target, int top);

// out (cols, rows) = a (rows, cols) transposed
void transpose(const float* a, float* out, int rows, int cols);

// dst (rows, width) <- columns col..col+width of src (rows, stride)
void gather(const float* src, int stride, int col, float* dst, int rows, int width);

// columns col..col+width of dst (rows, stride) <- src (rows, width)
void scatter(const float* src, float* dst, int stride, int col, int rows, int width);

// out (rows, cols) = (x - mean) / sqrt(var + eps) * gamma + beta on each row of x, var the biased
// variance (torch.nn.LayerNorm), mean and variance in double. mean and std (rows), when given,
// get each row's mean and standard deviation (without eps). out may be x.
void layer_norm_rows(const float* x, const float* gamma, const float* beta, double eps, float* out,
                     int rows, int cols, float* mean = nullptr, float* std = nullptr);

}  // namespace attn::dense
