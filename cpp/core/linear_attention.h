// Linear attention (Katharopoulos et al. 2020, "Transformers are RNNs"): the softmax kernel
// exp(q·k / sqrt(d_k)) replaced by a product of feature maps φ(q)·φ(k), φ(x) = elu(x) + 1
// (applied to each entry, always > 0), so the sum over keys can be taken once:
//
//   S = Σ_j φ(k_j) v_jᵀ          S: (d_k, d_v)      z = Σ_j φ(k_j)      z: (d_k)
//   out_i = φ(q_i)ᵀ S / φ(q_i)ᵀ z                    out: (n_q, d_v)
//
// O(n·d_k·d_v) time and O(d_k·d_v) memory for the state (S, z), whatever n is. A row whose
// entries are all <= 0 has its φ(q_i) multiplied by e^-max (so its largest feature is 1), and
// all φ(k_j) by e^-max over every key entry when that is <= 0: the output does not change (the
// constant cancels in the ratio), but features of very negative entries no longer all fall
// among float32's subnormals together. With causal,
// query i sums over keys j <= i only: S and z become prefix sums along the sequence, carried
// from one chunk of positions to the next. It is a different model from softmax attention, not
// an approximation of it: its output differs from exact attention's by an amount that does not
// shrink as n grows (output_error measures it).
#pragma once

#include <cstddef>
#include <vector>

#include "core/check.h"
#include "core/matrix.h"

namespace attn {

struct LinearArgs {
  Matrix query;                    // (n_q, d_k)
  Matrix key;                      // (n_k, d_k)
  Matrix value;                    // (n_k, d_v)
  bool causal = kCausal.fallback;  // query i sums over keys j <= i
};

struct LinearResult {
  Matrix output;  // (n_q, d_v)
  // rows whose denominator φ(q_i)ᵀ z underflowed to 0 even so (the query's large features meet
  // only keys' features below about e^-87): no weights, zero output (as a fully masked row)
  std::vector<int> zero_rows;
  std::size_t state_bytes = 0;  // S and z, carried along the whole sequence: 4 (d_k d_v + d_k)
  std::size_t chunk_bytes = 0;  // the scratch of one chunk of positions (features, products)
};

// Positions per chunk: the features of a chunk of queries or keys are computed and multiplied
// together (kernels::gemm_ab), so the scratch is O(chunk · d), never O(n · d).
constexpr int kLinearChunk = 64;

// φ(x) = elu(x) + 1 = x + 1 for x > 0, e^x otherwise.
float elu_feature(float x);

// Empty when args are valid (up to max_tokens rows, d up to limits::kMaxDim, shapes that agree,
// entries finite, and the sums within float32); otherwise a message naming the argument.
Error check_linear_attention(const LinearArgs& args, int max_tokens = limits::kMaxFlashTokens);

// Requires check_linear_attention(args) to be empty.
LinearResult linear_attention(const LinearArgs& args);

// How far an output is from a reference of the same shape, in double: the largest |Δ| of an
// entry, and the relative error ‖Δ‖ / ‖reference‖ (Frobenius norms; a reference of zeros gives
// 0 when the output is zeros too, else 1).
struct OutputError {
  double max_abs = 0;
  double relative = 0;
};
Error check_output_error(const Matrix& output, const Matrix& reference);
OutputError output_error(const Matrix& output, const Matrix& reference);

}  // namespace attn
