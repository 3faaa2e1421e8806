// Lesson 5, continued: what an unscaled q·k does to softmax and to its gradient.
// One query against n random keys, q and k with N(0, 1) entries; the raw scores q·k_j have
// variance d_k, the scaled ones q·k_j / sqrt(d_k) variance 1. As d_k grows the raw softmax
// saturates (max weight -> 1, entropy -> 0) and its Jacobian shrinks toward 0.
#pragma once

#include <cstdint>
#include <vector>

#include "core/check.h"
#include "core/experiments.h"
#include "core/matrix.h"

namespace attn {

// ---- one query against n keys (the bars of the lesson) ----------------------------------------

// The defaults are the option table's (core/check.h).
struct QueryProbeArgs {
  int dk = static_cast<int>(kDk.fallback);
  int n_keys = static_cast<int>(kProbeKeys.fallback);
  std::uint64_t seed = static_cast<std::uint64_t>(kSeed.fallback);
  int trial = 0;                        // which draw: trial t uses RNG stream t of the seed
  float tau = 1.0f;                     // temperature dividing the (raw or scaled) scores
  bool scaled = kProbeScaled.fallback;  // which scores the hard and Gumbel rows use
  int gumbel_samples = 0;               // rows of Gumbel-softmax samples to draw
};

struct QueryProbeResult {
  std::vector<float> raw_scores;              // (n_keys) q·k_j
  std::vector<float> scaled_scores;           // (n_keys) q·k_j / sqrt(d_k)
  std::vector<float> raw_weights;             // (n_keys) softmax(raw / tau)
  std::vector<float> scaled_weights;          // (n_keys) softmax(scaled / tau)
  float raw_entropy = 0, scaled_entropy = 0;  // -Σ w log w
  float raw_max = 0, scaled_max = 0;          // largest weight
  std::vector<float> hard;                    // (n_keys) one-hot at the argmax of the chosen scores
  Matrix gumbel;                              // (gumbel_samples, n_keys) Gumbel-softmax at tau
};

Error check_query_probe(const QueryProbeArgs& args);
QueryProbeResult query_probe(const QueryProbeArgs& args);

// ---- averages over many trials, for a list of d_k ---------------------------------------------

struct SaturationArgs {
  std::vector<int> dks = {1, 4, 16, 64, 256, 1024};
  int n_keys = static_cast<int>(kSweepKeys.fallback);
  int trials = static_cast<int>(kTrials.fallback);
  std::uint64_t seed = static_cast<std::uint64_t>(kSeed.fallback);
};

// Mean over the trials of one side (raw or scaled).
struct SaturationStats {
  double max_weight = 0;     // largest weight of the row
  double entropy = 0;        // -Σ w log w (uniform = log n_keys, one-hot = 0)
  double jacobian_norm = 0;  // Frobenius norm of diag(p) - p pᵀ
  double grad_norm = 0;      // norm of the gradient reaching the scores for a one-hot
                             // upstream gradient on the winning key: |row a of the Jacobian|
};

struct SaturationPoint {
  int dk = 0;
  SaturationStats raw;
  SaturationStats scaled;
};

struct SaturationResult {
  double log_n = 0;                     // the largest possible entropy, log n_keys
  std::vector<SaturationPoint> points;  // one per d_k, in the order given
};

// Work limit: the sum over d_k of trials * n_keys * (d_k + n_keys).
constexpr double kMaxSaturationWork = 4e8;

Error check_saturation(const SaturationArgs& args);
SaturationResult saturation_sweep(const SaturationArgs& args);

}  // namespace attn
