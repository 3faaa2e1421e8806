// Experiments on random vectors: why attention divides the scores by sqrt(d_k).
#include "core/experiments.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/rng.h"
#include "kernels/kernels.h"

namespace attn {

// ---- validation -----------------------------------------------------------------------------
static Error expect_range(const char* name, long long value, long long lo, long long hi) {
  if (value >= lo && value <= hi) return {};
  return std::string(name) + ": expected an integer from " + std::to_string(lo) + " to " +
         std::to_string(hi) + ", got " + std::to_string(value);
}

Error check_variance(const VarianceArgs& args) {
  Error e = expect_range("dk", args.dk, 1, limits::kMaxDim);
  if (e.empty()) e = expect_range("samples", args.samples, 2, limits::kMaxSamples);
  if (e.empty()) e = expect_range("bins", args.bins, 1, limits::kMaxBins);
  if (e.empty())
    e = expect_range("firstSample", args.first_sample, 0, limits::kMaxSamples - args.samples);
  return e;
}

// The histogram bin of x: equal bins of `width` from lo, the ends catching what lies beyond.
static int bin_of(double x, double lo, double width, int bins) {
  double t = std::floor((x - lo) / width);
  if (t < 0) return 0;  // below the range: the first bin
  if (t >= bins) return bins - 1;  // above: the last bin
  return static_cast<int>(t);
}

// ---- the experiment -------------------------------------------------------------------------
// Sample s draws q and k from stream s of the seed as the two halves of d_k Box–Muller pairs:
// q_i is one draw of pair i and k_i the other (which pairs: kernels.h, normal_pair_dot),
// independent N(0, 1) numbers like any two draws. Their dot product comes straight from the
// pairs' radius and angle, without forming q or k (math_approx.h, box_muller_product).
VarianceResult variance_experiment(const VarianceArgs& args) {
  const int dk = args.dk;
  VarianceResult r;
  const double root = std::sqrt(static_cast<double>(dk));
  const double lo = -4.0 * root, width = 8.0 * root / args.bins;
  r.edges.resize(args.bins + 1);
  for (int i = 0; i <= args.bins; ++i) r.edges[i] = static_cast<float>(lo + i * width);
  r.raw_counts.assign(args.bins, 0);
  r.scaled_counts.assign(args.bins, 0);

  double sum = 0, sum_sq = 0;  // of the raw q·k
  for (int i = 0; i < args.samples; ++i) {
    const std::uint64_t key = stream_key(args.seed, args.first_sample + i);
    const double x = kernels::normal_pair_dot(key, dk), scaled = x / root;
    sum += x;
    sum_sq += x * x;
    r.raw_counts[bin_of(x, lo, width, args.bins)] += 1;
    r.scaled_counts[bin_of(scaled, lo, width, args.bins)] += 1;
  }

  // Sample moments; the scaled ones follow exactly (divide by sqrt(d_k), variance by d_k).
  const double n = args.samples;
  r.raw.mean = sum / n;
  r.raw.variance = std::max(0.0, (sum_sq - n * r.raw.mean * r.raw.mean) / (n - 1));
  r.scaled.mean = r.raw.mean / root;
  r.scaled.variance = r.raw.variance / dk;
  return r;
}

}  // namespace attn
