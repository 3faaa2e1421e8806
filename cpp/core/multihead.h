// Learned projections and multi-head attention, with torch.nn.MultiheadAttention's
// conventions (batch_first, no dropout): weights are (out, in) and y = x Wᵀ + b.
#pragma once

#include <vector>

#include "core/attention.h"

namespace attn {

// y = x Wᵀ + b      x: (n, in)  W: (out, in)  b: (1, out) or empty  -> (n, out)
Matrix linear(const Matrix& x, const Matrix& w, const Matrix& b);
Error check_linear(const Matrix& x, const Matrix& w, const Matrix& b);
// Finite x, W and b can still give y past float32: empty when y is finite, otherwise a
// message naming `name` (the input of the layer) and the safe range.
Error linear_overflow(const char* name, const Matrix& y);

struct MultiHeadArgs {
  Matrix query;   // (n_q, d_model)
  Matrix key;     // (n_k, kdim)
  Matrix value;   // (n_k, vdim)
  int heads = 1;  // d_model % heads == 0, d_head = d_model / heads
  Matrix wq, wk, wv,
      wo;  // (d_model, d_model), (d_model, kdim), (d_model, vdim), (d_model, d_model)
  Matrix bq, bk, bv, bo;  // (1, d_model) each, or empty for no bias
  Matrix mask;            // (n_q, n_k) 0/1 or empty
  bool causal = false;
  std::vector<bool> key_padding;  // n_k or empty
  bool stages = true;             // false: each head keeps only output, entropy, fully_masked_rows
};

struct MultiHeadResult {
  std::vector<AttendResult> heads;  // one scaled-dot attend() per head (stages as args.stages)
  Matrix concat;                    // (n_q, d_model) head outputs side by side
  Matrix output;                    // (n_q, d_model) concat Woᵀ + bo
  Error error;                      // not empty when a stage would leave float32 (see attend)
};

Error check_multi_head(const MultiHeadArgs& args);
MultiHeadResult multi_head(const MultiHeadArgs& args);

}  // namespace attn
