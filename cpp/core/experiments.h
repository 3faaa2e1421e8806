// The variance experiment of lesson 5: why attention divides q·k by sqrt(d_k).
// Sample i draws q and k, d_k N(0, 1) entries each, from RNG stream i of the seed (q the first
// d_k normal draws of the stream, k the next d_k) and measures q·k; its variance is d_k, and 1
// after dividing by sqrt(d_k).
#pragma once

#include <cstdint>
#include <vector>

#include "core/matrix.h"

namespace attn {

namespace limits {
constexpr int kMaxVarianceRuns = 1000;  // live variance runs (createVarianceRun) in one module
}  // namespace limits

struct Moments {
  double mean = 0;
  double variance = 0;  // sample variance (divides by samples - 1; 0 below two samples)
};

// Running count, mean and sum of squared deviations (M2): Welford's update for one value,
// Chan, Golub & LeVeque's merge for two parts. M2 is carried as is, never rebuilt from a
// rounded variance.
struct Welford {
  double n = 0, mean = 0, m2 = 0;
  void add(double x);
  void merge(const Welford& other);
  Moments moments() const;
};

// Histogram edges: `bins` equal bins over [-4 sd, 4 sd] of the theory (sd = sqrt(d_k) for the
// raw q·k, 1 for the scaled one), so both histograms have the same number of bars. A value
// outside the range is counted in the end bin on its side, so the counts sum to the samples.
std::vector<float> theory_edges(double sd, int bins);

struct VarianceResult {
  Moments raw;                      // of q·k
  Moments scaled;                   // of q·k / sqrt(d_k)
  std::vector<float> edges;         // bins + 1 edges over +-4 sqrt(d_k), for raw_counts
  std::vector<float> scaled_edges;  // bins + 1 edges over +-4, for scaled_counts
  std::vector<int> raw_counts;      // bins
  std::vector<int> scaled_counts;
};

// ---- one run that grows chunk by chunk ----------------------------------------------------

struct VarianceRunArgs {
  int dk = 64;
  std::uint64_t seed = 1;
  int bins = 60;
  int first_sample = 0;  // the first step draws samples from here on
};

Error check_variance_run(const VarianceRunArgs& args);

// Owns the running moments and histograms; step(n) draws the next n samples. A run split into
// steps gives the same numbers as one long step (the samples are the same, the moments merge
// exactly up to float rounding of the merge).
class VarianceRun {
 public:
  explicit VarianceRun(const VarianceRunArgs& args);  // args checked by check_variance_run
  // Samples this run may still draw (it ends at limits::kMaxSamples).
  int remaining() const;
  Error check_step(int samples) const;
  void step(int samples);  // check_step first
  int samples() const { return static_cast<int>(raw_.n); }
  VarianceResult snapshot() const;

 private:
  VarianceRunArgs args_;
  double root_;  // sqrt(d_k)
  Welford raw_;  // of q·k
  std::vector<float> edges_, scaled_edges_;
  std::vector<int> raw_counts_, scaled_counts_;
  std::vector<float> draws_;  // (2 d_k) q then k of the current sample
};

// ---- one call: samples first_sample .. first_sample + samples - 1 -------------------------

struct VarianceArgs {
  int dk = 64;
  int samples = 10000;
  std::uint64_t seed = 1;
  int bins = 60;
  int first_sample = 0;  // this run draws samples first_sample .. first_sample + samples - 1
};

// first_sample: 0 or more, first_sample + samples at most limits::kMaxSamples.
Error check_variance(const VarianceArgs& args);
VarianceResult variance_experiment(const VarianceArgs& args);

// ---- one sample, drawn explicitly ---------------------------------------------------------

struct VarianceSample {
  std::vector<float> q, k;  // (d_k) each
  float dot = 0;            // q·k, exactly as the experiment computes it
};

// sample: 0 .. limits::kMaxSamples - 1.
Error check_variance_sample(int dk, int sample);
VarianceSample variance_sample(int dk, std::uint64_t seed, int sample);

// ---- combining two chunks given as results -------------------------------------------------
// a covers a_samples samples (0 = nothing yet: the result is b), b the next b_samples; both
// over the same histogram edges. Their M2 comes back from the variances, M2 = variance (n - 1),
// which rounds: VarianceRun, which keeps M2, is the accurate way. Counts add.
// Everything is read as given (doubles) and checked before use: sample counts whole and
// within limits, histogram counts whole, non-negative and summing to the chunk's samples,
// moments finite with variances >= 0, edges finite, increasing and equal in both chunks.
struct VarianceChunk {
  Moments raw, scaled;
  std::vector<double> edges, scaled_edges;  // scaled_edges may be empty (older results)
  std::vector<double> raw_counts, scaled_counts;
};
Error check_merge_variance(const VarianceChunk& a, double a_samples, const VarianceChunk& b,
                           double b_samples);
VarianceResult merge_variance(const VarianceChunk& a, int a_samples, const VarianceChunk& b,
                              int b_samples);

// The standard deviation the lesson quotes (8 at d_k = 64): sqrt of the sample variance.
double standard_deviation(const Moments& m);

}  // namespace attn
