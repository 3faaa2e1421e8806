// The whole pipeline: score -> scale -> mask -> softmax -> weighted sum, every stage kept
// so the page can show any of them (or only the output, for speed).
#pragma once

#include <string>
#include <vector>

#include "core/check.h"
#include "core/masks.h"
#include "core/matrix.h"

namespace attn {

// ScoreKind and MaskFill, with their option names, live in core/check.h.

struct AttendArgs {
  Matrix query;  // (n_q, d_q)
  Matrix key;    // (n_k, d_k)
  Matrix value;  // (n_k, d_v)
  ScoreKind score = ScoreKind::ScaledDot;
  Matrix mask;  // (n_q, n_k) of 0/1, or empty for none
  bool causal = false;
  bool reverse_causal = false;    // key j >= query i only: the reversed-causal bug, on purpose
  std::vector<bool> key_padding;  // n_k flags (true = padding), or empty for none
  MaskFill mask_fill = MaskFill::NegInf;
  float temperature = 1.0f;
  bool stable = true;
  bool stages = true;  // false: only output, entropy and fully_masked_rows
  Matrix additive_wq;  // (h, d_q)   score == Additive
  Matrix additive_wk;  // (h, d_k)
  Matrix additive_v;   // (1, h)
  Matrix general_w;    // (d_q, d_k) score == General
};

struct AttendResult {
  Matrix scores;               // (n_q, n_k) raw scores                        } empty when
  Matrix scaled;               // (n_q, n_k) after 1/sqrt(d_k) and temperature } stages is
  Matrix mask;                 // (n_q, n_k) combined 0/1 mask actually applied} false
  Matrix masked;               // (n_q, n_k) blocked cells set to the fill value}
  Matrix weights;              // (n_q, n_k) softmax rows                      }
  Matrix output;               // (n_q, d_v) weights x V
  std::vector<float> entropy;  // n_q
  std::vector<int> fully_masked_rows;
  // The naive softmax (stable = false) overflowed, on purpose: some weight is Inf or NaN, or a
  // row is all zeros (finite exponentials whose sum passed float32; softmax.h).
  bool overflow = false;
  // Not empty when a stage would leave float32 (e.g. q·k past 3.4e38): then the result holds
  // nothing else, and the message names the argument and the range that is safe.
  Error error;
};

// Work limit of the additive score: n_q * n_k * h tanh evaluations (about a second in wasm).
constexpr double kMaxAdditiveWork = 1 << 26;

// Empty when args are valid; otherwise a message naming the argument and the expectation.
Error check_attend(const AttendArgs& args);

// Runs the pipeline. Requires check_attend(args) to be empty; the result's `error` says if
// the arithmetic would overflow float32 for these values.
AttendResult attend(const AttendArgs& args);

// The lesson's pipeline, which attend() runs unless its output-only path applies
// (attend_output.cpp): the whole (n_q, n_k) matrix through the five stages, each stage's matrix
// kept when args.stages. Requires check_attend(args) to be empty.
AttendResult attend_stages(const AttendArgs& args);
// Finite inputs can still give scores past float32 (q·k of entries near 1e20): the message
// naming the argument and the range that is safe, or empty when every score is finite.
// first_row: the row of the whole score matrix that scores' row 0 is.
Error score_overflow(const AttendArgs& args, const Matrix& scores, int first_row = 0);

// Stage 5: output = weights V      weights: (n_q, n_k)  V: (n_k, d_v)  -> (n_q, d_v)
Matrix weighted_sum(const Matrix& weights, const Matrix& value);

}  // namespace attn
