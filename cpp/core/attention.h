// The whole pipeline: score -> scale -> mask -> softmax -> weighted sum, every stage kept
// so the page can show any of them.
#pragma once

#include <string>
#include <vector>

#include "core/masks.h"
#include "core/matrix.h"

namespace attn {

enum class ScoreKind { Dot, ScaledDot, Additive, General };

struct AttendArgs {
  Matrix query;                  // (n_q, d_q)
  Matrix key;                    // (n_k, d_k)
  Matrix value;                  // (n_k, d_v)
  ScoreKind score = ScoreKind::ScaledDot;
  Matrix mask;                   // (n_q, n_k) of 0/1, or empty for none
  bool causal = false;
  std::vector<bool> key_padding; // n_k flags (true = padding), or empty for none
  MaskFill mask_fill = MaskFill::NegInf;
  float temperature = 1.0f;
  bool stable = true;
  Matrix additive_wq;            // (h, d_q)   score == Additive
  Matrix additive_wk;            // (h, d_k)
  Matrix additive_v;             // (1, h)
  Matrix general_w;              // (d_q, d_k) score == General
};

struct AttendResult {
  Matrix scores;                 // (n_q, n_k) raw scores
  Matrix scaled;                 // (n_q, n_k) after 1/sqrt(d_k) (scaled-dot) and temperature
  Matrix mask;                   // (n_q, n_k) combined 0/1 mask actually applied
  Matrix masked;                 // (n_q, n_k) blocked cells set to the fill value
  Matrix weights;                // (n_q, n_k) softmax rows
  Matrix output;                 // (n_q, d_v) weights x V
  std::vector<float> entropy;    // n_q
  std::vector<int> fully_masked_rows;
};

// Work limit of the additive score: n_q * n_k * h tanh evaluations (about a second in wasm).
constexpr double kMaxAdditiveWork = 1 << 26;

// Empty when args are valid; otherwise a message naming the argument and the expectation.
Error check_attend(const AttendArgs& args);

// Runs the pipeline. Requires check_attend(args) to be empty.
AttendResult attend(const AttendArgs& args);

// Stage 5: output = weights V      weights: (n_q, n_k)  V: (n_k, d_v)  -> (n_q, d_v)
Matrix weighted_sum(const Matrix& weights, const Matrix& value);

// Validation helpers shared by every entry point.
// check_size: 1..max_rows rows, 1..max_cols columns, rows * cols numbers in data.
// check_matrix: check_size, and every entry finite.
// check_shape: exactly (rows, cols).
Error check_size(const char* name, const Matrix& m, int max_rows, int max_cols);
Error check_matrix(const char* name, const Matrix& m, int max_rows, int max_cols);
Error check_shape(const char* name, const Matrix& m, int rows, int cols);
// mask: absent or (n_q, n_k) of exact 0/1; key_padding: empty or n_k flags.
Error check_mask_args(const Matrix& mask, const std::vector<bool>& key_padding, int n_q, int n_k);

// A number as the messages print it: 3, 0.5, NaN, Infinity, -Infinity.
std::string format_number(double x);

}  // namespace attn
