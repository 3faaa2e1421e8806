// The variance experiment and merge_variance. Two cases decoded from the fuzz input:
//   run:   variance_experiment on a small d_k, sample count, bins and seed; each histogram
//          counts every sample once, the moments are finite with variance >= 0, and the same
//          samples run in two chunks and merged give the same counts and moments;
//   merge: merge_variance on arbitrary chunks (counts, moments and sample counts of any
//          value); when the check accepts, the merged counts add up to the samples and the
//          moments are finite with variance >= 0.
#include <cmath>
#include <numeric>

#include "core/experiments.h"
#include "core/saturation.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {

long long total(const std::vector<int>& counts) {
  return std::accumulate(counts.begin(), counts.end(), 0LL);
}

void expect_sound(const VarianceResult& r, long long samples, const char* what) {
  std::string w(what);
  FUZZ_EXPECT(total(r.raw_counts) == samples, w + ": raw counts add up to the samples");
  FUZZ_EXPECT(total(r.scaled_counts) == samples, w + ": scaled counts add up to the samples");
  for (const Moments* m : {&r.raw, &r.scaled}) {
    FUZZ_EXPECT(std::isfinite(m->mean) && std::isfinite(m->variance), w + ": moments not finite");
    FUZZ_EXPECT(m->variance >= 0, w + ": negative variance");
  }
  for (std::size_t i = 1; i < r.edges.size(); i++) {
    FUZZ_EXPECT(r.edges[i] > r.edges[i - 1], w + ": edges not increasing");
  }
}

// A result as mergeVariance reads it back (numbers as doubles).
VarianceChunk to_chunk(const VarianceResult& r) {
  VarianceChunk c;
  c.raw = r.raw;
  c.scaled = r.scaled;
  c.edges.assign(r.edges.begin(), r.edges.end());
  c.scaled_edges.assign(r.scaled_edges.begin(), r.scaled_edges.end());
  c.raw_counts.assign(r.raw_counts.begin(), r.raw_counts.end());
  c.scaled_counts.assign(r.scaled_counts.begin(), r.scaled_counts.end());
  return c;
}

bool close(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * (std::fabs(a) + std::fabs(b)) + 1e-12;
}

int run_case(Input& in) {
  VarianceArgs a;
  a.dk = in.range(0, fuzz::kMaxSide + 1);
  a.samples = in.range(1, 300);
  a.seed = in.u64();
  a.bins = in.range(0, 70);
  a.first_sample = in.flag() ? 0 : in.range(-1, limits::kMaxSamples);
  if (!check_variance(a).empty()) return 0;
  VarianceResult whole = variance_experiment(a);
  FUZZ_EXPECT(static_cast<int>(whole.edges.size()) == a.bins + 1, "bins + 1 edges");
  expect_sound(whole, a.samples, "run");

  // the same samples in two chunks, merged
  int split = in.range(1, a.samples - 1);
  VarianceArgs first = a, second = a;
  first.samples = split;
  second.samples = a.samples - split;
  second.first_sample = a.first_sample + split;
  if (first.samples < 2 || second.samples < 2) return 0;
  VarianceChunk x = to_chunk(variance_experiment(first)), y = to_chunk(variance_experiment(second));
  FUZZ_EXPECT(check_merge_variance(x, first.samples, y, second.samples).empty(),
              "merge refused two chunks");
  VarianceResult m = merge_variance(x, first.samples, y, second.samples);
  FUZZ_EXPECT(m.raw_counts == whole.raw_counts && m.scaled_counts == whole.scaled_counts,
              "merged counts differ from one run");
  FUZZ_EXPECT(close(m.raw.mean, whole.raw.mean) && close(m.raw.variance, whole.raw.variance),
              "merged moments differ from one run");
  return 0;
}

VarianceChunk chunk(Input& in, int bins, const std::vector<double>& edges) {
  VarianceChunk r;
  r.edges = edges;
  r.raw.mean = in.number();
  r.raw.variance = in.number();
  r.scaled.mean = in.number();
  r.scaled.variance = in.number();
  r.raw_counts.resize(in.near(bins));
  r.scaled_counts.resize(in.near(bins));
  for (std::vector<double>* counts : {&r.raw_counts, &r.scaled_counts}) {
    for (double& c : *counts) {
      switch (in.range(0, 4)) {
        case 0:
          c = in.range(-2, 2);
          break;
        case 1:
          c = in.range(0, 1000);
          break;
        case 2:
          c = in.range(2147483000, 2147483647);
          break;
        case 3:
          c = in.number();
          break;  // fractional, huge, NaN, ...
        default:
          c = static_cast<int>(in.u64());
      }
    }
  }
  return r;
}

int merge_case(Input& in) {
  int bins = in.range(1, 16);
  std::vector<double> edges(bins + 1);
  for (int i = 0; i <= bins; i++) edges[i] = i - bins / 2;
  VarianceChunk a = chunk(in, bins, edges), b = chunk(in, bins, edges);
  if (in.range(0, 15) == 0) b.edges.back() += 1;  // edges that differ: must be refused
  int a_samples = in.flag() ? in.range(0, 1000) : static_cast<int>(in.u64());
  int b_samples = in.flag() ? in.range(0, 1000) : static_cast<int>(in.u64());
  if (!check_merge_variance(a, a_samples, b, b_samples).empty()) return 0;
  VarianceResult m = merge_variance(a, a_samples, b, b_samples);
  expect_sound(m, static_cast<long long>(a_samples) + b_samples, "merge");
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  return in.range(0, 2) == 0 ? merge_case(in) : run_case(in);
}
