// Matrix: the one container the core passes around. Row-major float32.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attn {

struct Matrix {
  int rows = 0;
  int cols = 0;
  std::vector<float> data;  // (rows, cols), row-major

  Matrix() = default;
  Matrix(int r, int c, float fill = 0.0f)
      : rows(r), cols(c), data(static_cast<std::size_t>(r) * c, fill) {}

  float& at(int r, int c) { return data[static_cast<std::size_t>(r) * cols + c]; }
  float at(int r, int c) const { return data[static_cast<std::size_t>(r) * cols + c]; }
  float* row(int r) { return data.data() + static_cast<std::size_t>(r) * cols; }
  const float* row(int r) const { return data.data() + static_cast<std::size_t>(r) * cols; }
  bool empty() const { return rows == 0 || cols == 0; }
};

// Validation result: an empty message means the input is fine. The message names the
// argument and what was expected, e.g. "key: expected 4 columns (d_k of query), got 3".
using Error = std::string;

// Size limits, checked before anything is allocated (documented in the README).
namespace limits {
constexpr int kMaxTokens = 2048;  // n_q, n_k
constexpr int kMaxDim = 1024;     // d_q, d_k, d_v, d_model, hidden size of additive
constexpr int kMaxHeads = 64;
constexpr int kMaxSamples = 1000000;  // variance experiment
constexpr int kMaxBins = 512;         // histogram bins
constexpr int kMaxTrials = 100000;    // repeated softmax trials in experiments
// heads * n_q * n_k in multi-head (every head keeps its matrices)
constexpr int kMaxHeadCells = 1 << 23;
constexpr int kMaxPosition = 1000000;  // largest first position of RoPE
constexpr int kMaxHidden = 4096;       // hidden width of a feed-forward layer (4 x d_model)
constexpr int kMaxGumbelSamples = 64;  // rows of Gumbel-softmax samples of one query probe
// tiled attention (core/flash.h)
constexpr int kMaxFlashTokens = 16384;  // n_q, n_k of flash_attend (O(n·d) memory)
constexpr int kMaxFlashBlock = 256;     // block_size: a tile is (block, block) floats
constexpr int kMaxTraceTokens = 64;     // n_q, n_k of flash_trace (it keeps (blocks, n_q) tables)
}  // namespace limits

}  // namespace attn
