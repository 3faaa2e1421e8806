// Inputs the fuzzers (tests/fuzz) found, each kept as a test with what the engine must do.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/experiments.h"
#include "core/saturation.h"

namespace {

using attn::check_merge_variance;
using attn::VarianceChunk;

// A chunk of n samples over edges {0, 1, 2}, counts as given.
VarianceChunk chunk(std::vector<double> raw, std::vector<double> scaled, double mean = 0,
                    double variance = 1) {
  VarianceChunk r;
  r.edges = {0, 1, 2};
  r.raw = {mean, variance};
  r.scaled = {mean, variance};
  r.raw_counts = std::move(raw);
  r.scaled_counts = std::move(scaled);
  return r;
}

bool refused(const std::string& error, const std::string& name) {
  return error.rfind(name, 0) == 0;  // the message starts with the argument's name
}

// merge_variance added counts that did not match the sample counts: near INT_MAX they
// overflowed (undefined behaviour, caught by UBSan), negative ones made negative bins.
TEST(FuzzMergeVariance, CountsMustAddUpToTheSamples) {
  VarianceChunk ok = chunk({1, 2}, {3, 0});
  EXPECT_EQ(check_merge_variance(ok, 3, ok, 3), "");
  EXPECT_TRUE(refused(check_merge_variance(ok, 3, chunk({2147483647, 0}, {1, 2}), 3),
                      "b.histogram.rawCounts"));
  EXPECT_TRUE(
      refused(check_merge_variance(chunk({-1, 4}, {3, 0}), 3, ok, 3), "a.histogram.rawCounts"));
  EXPECT_TRUE(
      refused(check_merge_variance(ok, 3, chunk({1, 2}, {1, 1}), 3), "b.histogram.scaledCounts"));
  // bSamples that does not match b's counts
  EXPECT_TRUE(refused(check_merge_variance(ok, 3, ok, 4), "b.histogram.rawCounts"));
  // nothing merged yet: b alone is still checked
  EXPECT_TRUE(refused(check_merge_variance(VarianceChunk{}, 0, ok, 2), "b.histogram.rawCounts"));
  EXPECT_EQ(check_merge_variance(VarianceChunk{}, 0, ok, 3), "");
}

TEST(FuzzMergeVariance, MomentsMustBeFiniteAndInRange) {
  VarianceChunk ok = chunk({1, 2}, {3, 0});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(refused(check_merge_variance(ok, 3, chunk({1, 2}, {3, 0}, nan), 3), "b.raw.mean"));
  EXPECT_TRUE(refused(check_merge_variance(chunk({1, 2}, {3, 0}, -inf), 3, ok, 3), "a.raw.mean"));
  EXPECT_TRUE(
      refused(check_merge_variance(ok, 3, chunk({1, 2}, {3, 0}, 0, -1), 3), "b.raw.variance"));
  EXPECT_TRUE(refused(check_merge_variance(ok, 3, chunk({1, 2}, {3, 0}, 1e300), 3), "b.raw.mean"));
  // means of opposite extremes within range: the merge stays finite
  VarianceChunk lo = chunk({1, 2}, {3, 0}, -1e12, 1e24), hi = chunk({1, 2}, {3, 0}, 1e12, 1e24);
  ASSERT_EQ(check_merge_variance(lo, 3, hi, 3), "");
  attn::VarianceResult m = attn::merge_variance(lo, 3, hi, 3);
  EXPECT_TRUE(std::isfinite(m.raw.mean) && std::isfinite(m.raw.variance));
  EXPECT_EQ(m.raw_counts, (std::vector<int>{2, 4}));
}

}  // namespace
