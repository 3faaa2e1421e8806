// Experiments the lessons run on random vectors from the seeded RNG.
#pragma once

#include <cstdint>
#include <vector>

#include "core/matrix.h"

namespace attn {

struct Moments {
  double mean = 0;
  double variance = 0;  // sample variance (divides by samples - 1)
};

struct VarianceArgs {
  int dk = 64;
  int samples = 10000;
  std::uint64_t seed = 1;
  int bins = 60;
  int first_sample = 0;  // this run draws samples first_sample .. first_sample + samples - 1
};

struct VarianceResult {
  Moments raw;                  // of q·k
  Moments scaled;               // of q·k / sqrt(d_k)
  // Both histograms use the same `bins` equal bins over [-4 sqrt(d_k), 4 sqrt(d_k)]; a value
  // outside that range is counted in the end bin on its side, so each sums to samples.
  std::vector<float> edges;     // bins + 1 edges, spanning +-4 sqrt(d_k)
  std::vector<int> raw_counts;  // bins
  std::vector<int> scaled_counts;
};

// q, k with N(0, 1) entries, d_k of them; sample i draws from RNG stream i of the seed,
// so a run split into chunks (first_sample = 0, c, 2c, ...) gives the same numbers as one run.
// first_sample: 0 or more, first_sample + samples at most limits::kMaxSamples.
Error check_variance(const VarianceArgs& args);
VarianceResult variance_experiment(const VarianceArgs& args);

}  // namespace attn
