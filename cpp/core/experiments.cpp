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

// ---- the experiment -------------------------------------------------------------------------
// Pairs are drawn and dotted in batches small enough to stay in cache (q and k of a batch
// together hold about kBatchFloats floats); nothing grows with the number of samples.
// Normal draws come in blocks of 8 (kernels.h), which is why d_k % 8 picks the path below.
constexpr int kBatchFloats = 16384;

static int bin_of(double x, double lo, double width, int bins) {
  double t = std::floor((x - lo) / width);
  if (t < 0) return 0;  // below the range: the first bin
  if (t >= bins) return bins - 1;  // above: the last bin
  return static_cast<int>(t);
}

VarianceResult variance_experiment(const VarianceArgs& args) {
  const int dk = args.dk;
  const int batch = std::max(1, kBatchFloats / (2 * dk));  // pairs per batch
  std::vector<float> q(static_cast<std::size_t>(batch) * dk);  // q: (batch, dk)
  std::vector<float> k(static_cast<std::size_t>(batch) * dk);  // k: (batch, dk)
  std::vector<float> dots(batch);                              // dots: (batch)
  std::vector<float> both(2 * dk);                             // both: (2 dk), q then k

  VarianceResult r;
  const double root = std::sqrt(static_cast<double>(dk));
  const double lo = -4.0 * root, width = 8.0 * root / args.bins;
  r.edges.resize(args.bins + 1);
  for (int i = 0; i <= args.bins; ++i) r.edges[i] = static_cast<float>(lo + i * width);
  r.raw_counts.assign(args.bins, 0);
  r.scaled_counts.assign(args.bins, 0);

  double sum = 0, sum_sq = 0;  // of the raw q·k
  for (int start = 0; start < args.samples; start += batch) {
    const int nb = std::min(batch, args.samples - start);
    // sample s: q = normals 0 .. dk-1, k = normals dk .. 2dk-1 of stream s
    for (int b = 0; b < nb; ++b) {
      const std::uint64_t key = stream_key(args.seed, args.first_sample + start + b);
      float* qb = &q[static_cast<std::size_t>(b) * dk];
      float* kb = &k[static_cast<std::size_t>(b) * dk];
      if (dk % 8 == 0) {  // q and k start on blocks of 8 draws: straight into place
        kernels::fill_normal(key, 0, qb, dk);
        kernels::fill_normal(key, dk, kb, dk);
      } else {  // q and k share a block: draw all 2 d_k at once, then split
        kernels::fill_normal(key, 0, both.data(), both.size());
        std::copy(both.begin(), both.begin() + dk, qb);
        std::copy(both.begin() + dk, both.end(), kb);
      }
    }
    kernels::dot_rows(q.data(), k.data(), dots.data(), nb, dk);
    for (int b = 0; b < nb; ++b) {
      const double x = dots[b], scaled = x / root;
      sum += x;
      sum_sq += x * x;
      r.raw_counts[bin_of(x, lo, width, args.bins)] += 1;
      r.scaled_counts[bin_of(scaled, lo, width, args.bins)] += 1;
    }
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
