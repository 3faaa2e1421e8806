// The variance experiment: why attention divides the scores by sqrt(d_k).
#include "core/experiments.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "core/attention.h"
#include "core/check.h"
#include "core/rng.h"
#include "kernels/kernels.h"

namespace attn {

// ---- running moments ------------------------------------------------------------------------

void Welford::add(double x) {
  n += 1;
  const double delta = x - mean;
  mean += delta / n;
  m2 += delta * (x - mean);
}

void Welford::merge(const Welford& o) {
  if (o.n == 0) return;
  if (n == 0) {
    *this = o;
    return;
  }
  const double total = n + o.n, delta = o.mean - mean;
  mean += delta * (o.n / total);
  m2 += o.m2 + delta * delta * (n * o.n / total);
  n = total;
}

Moments Welford::moments() const {
  Moments m;
  m.mean = mean;
  m.variance = n > 1 ? m2 / (n - 1) : 0.0;
  return m;
}

double standard_deviation(const Moments& m) { return std::sqrt(m.variance); }

// ---- histograms -----------------------------------------------------------------------------

std::vector<float> theory_edges(double sd, int bins) {
  std::vector<float> edges(bins + 1);
  const double lo = -4.0 * sd, width = 8.0 * sd / bins;
  for (int i = 0; i <= bins; ++i) edges[i] = static_cast<float>(lo + i * width);
  return edges;
}

// The bin of x among `bins` equal bins over [-4 sd, 4 sd], the ends catching what lies beyond.
static int bin_of(double x, double sd, int bins) {
  const double t = std::floor((x + 4.0 * sd) / (8.0 * sd / bins));
  if (t < 0) return 0;
  if (t >= bins) return bins - 1;
  return static_cast<int>(t);
}

// ---- validation -----------------------------------------------------------------------------

Error check_variance_run(const VarianceRunArgs& a) {
  Error e = check_number(kDk, a.dk);
  if (e.empty()) e = check_number(kBins, a.bins);
  if (e.empty()) e = check_number(kRunFirstSample, a.first_sample);
  return e;
}

Error check_variance(const VarianceArgs& a) {
  Error e = check_number(kDk, a.dk);
  if (e.empty()) e = check_number(kSamples, a.samples);
  if (e.empty()) e = check_number(kBins, a.bins);
  // the samples drawn end within the experiment's samples: firstSample + samples <= max
  const double last_first = limits::kMaxSamples - a.samples;
  if (e.empty() && !(a.first_sample >= 0 && a.first_sample <= last_first)) {
    e = expected(kFirstSample.name, "an integer from 0 to " + format_number(last_first),
                 format_number(a.first_sample));
  }
  return e;
}

Error check_variance_sample(int dk, int sample) {
  Error e = check_number(kDk, dk);
  if (e.empty()) e = check_number(kSample, sample);
  return e;
}

// ---- one sample -----------------------------------------------------------------------------

// Sample i: q = the first d_k normal draws of stream i of the seed, k = the next d_k; returns
// q·k as the dot-product kernel sums it (the same float sum in every build). The SIMD build
// multiplies the draws as they are made (kernels::normal_pair_dot); draws is its scratch.
static float draw_sample(int dk, std::uint64_t seed, int sample, float* draws /* (2 d_k) */) {
  return kernels::normal_pair_dot(
      random_stream(seed, static_cast<std::uint32_t>(sample), kernels::kNormalDraws), dk, draws);
}

VarianceSample variance_sample(int dk, std::uint64_t seed, int sample) {
  std::vector<float> draws(2 * static_cast<std::size_t>(dk));
  Rng(seed, static_cast<std::uint32_t>(sample)).normal(draws.data(), draws.size());
  VarianceSample s;
  kernels::dot_rows(draws.data(), draws.data() + dk, &s.dot, 1, dk);
  s.q.assign(draws.begin(), draws.begin() + dk);
  s.k.assign(draws.begin() + dk, draws.end());
  return s;
}

// ---- the run --------------------------------------------------------------------------------

VarianceRun::VarianceRun(const VarianceRunArgs& args)
    : args_(args),
      root_(std::sqrt(static_cast<double>(args.dk))),
      edges_(theory_edges(root_, args.bins)),
      scaled_edges_(theory_edges(1.0, args.bins)),
      raw_counts_(args.bins, 0),
      scaled_counts_(args.bins, 0),
      draws_(2 * static_cast<std::size_t>(args.dk)) {}

int VarianceRun::remaining() const { return limits::kMaxSamples - args_.first_sample - samples(); }

Error VarianceRun::check_step(int samples) const {
  if (samples >= 1 && samples <= remaining()) return {};
  return "samples: expected an integer from 1 to " + std::to_string(remaining()) +
         " (a run draws at most " + std::to_string(limits::kMaxSamples) + " samples), got " +
         std::to_string(samples);
}

// The chunk's moments by Welford, merged into the run's by Chan et al.
void VarianceRun::step(int samples) {
  Welford chunk;
  const int first = args_.first_sample + this->samples();
  for (int i = first; i < first + samples; ++i) {
    const double x = draw_sample(args_.dk, args_.seed, i, draws_.data());
    chunk.add(x);
    raw_counts_[bin_of(x, root_, args_.bins)] += 1;
    scaled_counts_[bin_of(x / root_, 1.0, args_.bins)] += 1;
  }
  raw_.merge(chunk);
}

// The scaled moments follow exactly: divide the mean by sqrt(d_k), the variance by d_k.
VarianceResult VarianceRun::snapshot() const {
  VarianceResult r;
  r.raw = raw_.moments();
  r.scaled.mean = r.raw.mean / root_;
  r.scaled.variance = r.raw.variance / args_.dk;
  r.edges = edges_;
  r.scaled_edges = scaled_edges_;
  r.raw_counts = raw_counts_;
  r.scaled_counts = scaled_counts_;
  return r;
}

VarianceResult variance_experiment(const VarianceArgs& a) {
  VarianceRunArgs run_args;
  run_args.dk = a.dk;
  run_args.seed = a.seed;
  run_args.bins = a.bins;
  run_args.first_sample = a.first_sample;
  VarianceRun run(run_args);
  run.step(a.samples);
  return run.snapshot();
}

// ---- merging two chunks given as results ---------------------------------------------------

static bool whole(double x, double lo, double hi) {
  return x >= lo && x <= hi && std::floor(x) == x;  // false for NaN
}

// |q·k| stays below d_k 6^2 < 4e4 (normal draws are below 6 in size), so a mean past 1e12 or a
// variance past 1e24 is not a chunk of the experiment; within them the merge stays finite.
constexpr double kMaxChunkMean = 1e12, kMaxChunkVariance = 1e24;

static Error check_chunk(const char* name, const VarianceChunk& c, double samples) {
  const std::string n(name);
  for (const Moments* m : {&c.raw, &c.scaled}) {
    const std::string side = n + (m == &c.raw ? ".raw" : ".scaled");
    if (!(std::fabs(m->mean) <= kMaxChunkMean))
      return side + ".mean: expected a number from -1e12 to 1e12, got " + format_number(m->mean);
    if (!(m->variance >= 0 && m->variance <= kMaxChunkVariance))
      return side + ".variance: expected a number from 0 to 1e24, got " +
             format_number(m->variance);
  }
  if (c.edges.size() < 2) return n + ".histogram.edges: expected at least 2 edges";
  for (const std::vector<double>* e : {&c.edges, &c.scaled_edges}) {
    const char* field = e == &c.edges ? ".histogram.edges" : ".histogram.scaledEdges";
    if (e == &c.scaled_edges && e->empty()) continue;
    if (e->size() != c.edges.size())
      return n + field + ": expected " + std::to_string(c.edges.size()) + " edges, got " +
             std::to_string(e->size());
    for (std::size_t i = 0; i < e->size(); ++i) {
      if (!std::isfinite((*e)[i]) || (i > 0 && !((*e)[i] > (*e)[i - 1])))
        return n + field + ": expected finite, increasing edges";
    }
  }
  const std::size_t bins = c.edges.size() - 1;
  for (const std::vector<double>* counts : {&c.raw_counts, &c.scaled_counts}) {
    const char* field =
        counts == &c.raw_counts ? ".histogram.rawCounts" : ".histogram.scaledCounts";
    if (counts->size() != bins)
      return n + field + ": expected " + std::to_string(bins) + " counts (one per bin), got " +
             std::to_string(counts->size());
    double sum = 0;
    for (double x : *counts) {
      if (!whole(x, 0, limits::kMaxSamples))
        return n + field + ": expected whole counts from 0 to " +
               std::to_string(limits::kMaxSamples);
      sum += x;
    }
    if (sum != samples)
      return n + field + ": the counts add up to " + std::to_string(static_cast<long long>(sum)) +
             ", expected " + std::to_string(static_cast<long long>(samples)) + " (the samples)";
  }
  return {};
}

Error check_merge_variance(const VarianceChunk& a, double a_samples, const VarianceChunk& b,
                           double b_samples) {
  // the range alone (a chunk's count is not quoted back)
  for (const auto& [o, x] : {std::pair{&kASamples, a_samples}, std::pair{&kBSamples, b_samples}})
    if (!check_number(*o, x).empty()) return std::string(o->name) + ": expected " + expectation(*o);
  if (a_samples + b_samples > limits::kMaxSamples)
    return "samples: aSamples + bSamples is more than " + std::to_string(limits::kMaxSamples);
  Error e = check_chunk("b", b, b_samples);
  if (e.empty() && a_samples > 0) e = check_chunk("a", a, a_samples);
  if (!e.empty()) return e;
  if (a_samples > 0 && (a.edges != b.edges || a.scaled_edges != b.scaled_edges))
    return "edges: the two chunks must share the same histogram edges";
  return {};
}

static Welford from_moments(const Moments& m, int n) {
  Welford w;
  w.n = n;
  w.mean = m.mean;
  w.m2 = n > 1 ? m.variance * (n - 1) : 0.0;
  return w;
}

static std::vector<float> to_floats(const std::vector<double>& v) {
  return std::vector<float>(v.begin(), v.end());
}

VarianceResult merge_variance(const VarianceChunk& a, int a_samples, const VarianceChunk& b,
                              int b_samples) {
  VarianceResult r;
  Welford raw = from_moments(b.raw, b_samples), scaled = from_moments(b.scaled, b_samples);
  if (a_samples > 0) {
    Welford ra = from_moments(a.raw, a_samples), sa = from_moments(a.scaled, a_samples);
    ra.merge(raw);
    sa.merge(scaled);
    raw = ra;
    scaled = sa;
  }
  r.raw = raw.moments();
  r.scaled = scaled.moments();
  r.edges = to_floats(b.edges);
  r.scaled_edges = to_floats(b.scaled_edges);
  const std::size_t bins = b.raw_counts.size();
  r.raw_counts.assign(bins, 0);
  r.scaled_counts.assign(bins, 0);
  for (std::size_t i = 0; i < bins; ++i) {
    double raw_count = b.raw_counts[i], scaled_count = b.scaled_counts[i];
    if (a_samples > 0) {
      raw_count += a.raw_counts[i];
      scaled_count += a.scaled_counts[i];
    }
    r.raw_counts[i] = static_cast<int>(raw_count);  // at most 10^6: checked
    r.scaled_counts[i] = static_cast<int>(scaled_count);
  }
  return r;
}

}  // namespace attn
