// The seeded RNG: determinism, pinned values (the wasm suite checks the same ones),
// distribution checks against N(0, 1) and U(0, 1) with bounds from their sampling laws,
// and det_log against std::log.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "core/rng.h"

namespace {

// FNV-1a over the bits of each float: one number that changes if any value moves by an ulp.
std::uint64_t checksum(const std::vector<float>& v) {
  std::uint64_t h = 14695981039346656037ULL;
  for (float y : v) {
    std::uint32_t b;
    std::memcpy(&b, &y, sizeof b);
    h = (h ^ b) * 1099511628211ULL;
  }
  return h;
}

std::vector<float> normals(std::uint64_t seed, std::uint64_t stream, std::size_t n) {
  std::vector<float> v(n);
  attn::Rng(seed, stream).normal(v.data(), n);
  return v;
}

std::vector<float> uniforms(std::uint64_t seed, std::uint64_t stream, std::size_t n) {
  std::vector<float> v(n);
  attn::Rng(seed, stream).uniform(v.data(), n);
  return v;
}

// ---- determinism ----------------------------------------------------------------------------
TEST(Rng, SameSeedSameNumbers) {
  EXPECT_EQ(normals(7, 0, 1000), normals(7, 0, 1000));
  EXPECT_EQ(uniforms(7, 3, 1000), uniforms(7, 3, 1000));
}

TEST(Rng, DifferentSeedsAndStreamsDiffer) {
  auto a = normals(7, 0, 64), b = normals(8, 0, 64), c = normals(7, 1, 64);
  int same_ab = 0, same_ac = 0;
  for (int i = 0; i < 64; ++i) {
    same_ab += a[i] == b[i];
    same_ac += a[i] == c[i];
  }
  EXPECT_EQ(same_ab, 0);
  EXPECT_EQ(same_ac, 0);
  EXPECT_NE(attn::stream_key(1, 0), attn::stream_key(0, 1));
  EXPECT_NE(attn::stream_key(0, 0), attn::stream_key(1, 0));
}

// Draws taken in pieces (any sizes, any starting offset) equal one long draw.
TEST(Rng, PiecesEqualOneDraw) {
  auto whole = normals(3, 5, 200);
  auto whole_u = uniforms(3, 5, 200);
  attn::Rng rng(3, 5);
  std::vector<float> pieces, pieces_u;
  for (std::size_t size : {1, 2, 3, 5, 7, 8, 9, 13, 16, 17, 31, 88}) {
    std::vector<float> p(size), pu(size);
    rng.normal(p.data(), size);
    rng.uniform(pu.data(), size);
    pieces.insert(pieces.end(), p.begin(), p.end());
    pieces_u.insert(pieces_u.end(), pu.begin(), pu.end());
  }
  EXPECT_EQ(pieces, whole);
  EXPECT_EQ(pieces_u, whole_u);
}

// ---- pinned values: any change to the generator, in any build, shows up here ---------------
TEST(Rng, PinnedValuesSeed42) {
  const std::vector<float> expect_normal = {
      0.927045286f, 1.28789604f, 0.390127808f, 0.910824358f, 1.82299066f, 2.30674505f,
      0.86811465f, 1.03347862f, 1.2795279f, -0.560758471f, 1.04739583f, -0.895030797f};
  const std::vector<float> expect_uniform = {0.720731676f, 0.903342843f, 0.0405249596f,
                                             0.700188279f, 0.109785855f, 0.810439527f,
                                             0.716059208f, 0.0461391211f};
  const std::vector<float> expect_stream7 = {0.0606990419f, -0.589367986f, -0.207931414f,
                                             -1.02361286f};
  EXPECT_EQ(attn::stream_key(42, 0), 0x57e1faba65107204ULL);
  EXPECT_EQ(normals(42, 0, 12), expect_normal);
  EXPECT_EQ(uniforms(42, 0, 8), expect_uniform);
  EXPECT_EQ(normals(42, 7, 4), expect_stream7);
}

// 100,000 draws and det_log over the whole positive float range, to the last bit: the same
// checksums hold in every build (this file also runs as wasm), so all draw exactly these floats.
TEST(Rng, PinnedChecksums) {
  std::vector<float> v(100000);
  attn::Rng(42, 3).normal(v.data(), v.size());
  EXPECT_EQ(checksum(v), 0x747d6638b961163aULL);
  attn::Rng(42, 3).uniform(v.data(), v.size());
  EXPECT_EQ(checksum(v), 0x6a8b540207ad5017ULL);
  std::vector<float> logs;
  for (std::uint32_t bits = 0x00800000U; bits < 0x7f000000U; bits += 4099) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    logs.push_back(attn::det_log(x));
  }
  EXPECT_EQ(checksum(logs), 0x1c39ec3ab3902e73ULL);
}

// ---- distributions --------------------------------------------------------------------------
double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Kolmogorov–Smirnov statistic sup |F_n - F| of sorted data against a CDF.
template <class Cdf>
double ks_statistic(std::vector<float> v, Cdf cdf) {
  std::sort(v.begin(), v.end());
  const double n = v.size();
  double d = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    double f = cdf(v[i]);
    d = std::max(d, std::max(f - i / n, (i + 1) / n - f));
  }
  return d;
}

// sqrt(n) D_n tends to the Kolmogorov law: P(sqrt(n) D_n > 2.23) = 2 exp(-2 * 2.23^2) ~ 1e-4.
constexpr double kKsBound = 2.23;

TEST(Rng, NormalMomentsAndShape) {
  const std::size_t n = 1000000;
  auto v = normals(2024, 0, n);
  double sum = 0, sum_sq = 0, sum_4 = 0;
  for (float x : v) {
    sum += x;
    sum_sq += double(x) * x;
    sum_4 += double(x) * x * x * x;
  }
  const double mean = sum / n, var = (sum_sq - n * mean * mean) / (n - 1);
  // mean ~ N(0, 1/n); sample variance: sd sqrt((mu4 - sigma^4) / n) = sqrt(2 / n); 5 sigma each
  EXPECT_NEAR(mean, 0.0, 5 * std::sqrt(1.0 / n));
  EXPECT_NEAR(var, 1.0, 5 * std::sqrt(2.0 / n));
  // fourth moment 3: E x^8 = 105, so sd of the mean of x^4 is sqrt((105 - 9) / n)
  EXPECT_NEAR(sum_4 / n, 3.0, 5 * std::sqrt(96.0 / n));
  EXPECT_LT(std::sqrt(double(n)) * ks_statistic(v, normal_cdf), kKsBound);
}

TEST(Rng, NormalsAreUncorrelated) {
  // Neighbours, and the cos/sin partners of one Box–Muller pair (4 apart), and two streams:
  // each sample correlation of independent N(0, 1) has sd 1/sqrt(n).
  const std::size_t n = 400000;
  auto a = normals(9, 0, n + 8), b = normals(9, 1, n);
  for (int lag : {1, 2, 4, 8}) {
    double c = 0;
    for (std::size_t i = 0; i < n; ++i) c += double(a[i]) * a[i + lag];
    EXPECT_NEAR(c / n, 0.0, 5 / std::sqrt(double(n))) << "lag " << lag;
  }
  double c = 0;
  for (std::size_t i = 0; i < n; ++i) c += double(a[i]) * b[i];
  EXPECT_NEAR(c / n, 0.0, 5 / std::sqrt(double(n)));
}

TEST(Rng, UniformRangeMomentsAndShape) {
  const std::size_t n = 1000000;
  auto v = uniforms(11, 2, n);
  double sum = 0, sum_sq = 0;
  for (float x : v) {
    ASSERT_GE(x, 0.0f);
    ASSERT_LT(x, 1.0f);
    sum += x;
    sum_sq += double(x) * x;
  }
  const double mean = sum / n, var = sum_sq / n - mean * mean;
  EXPECT_NEAR(mean, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(var, 1.0 / 12, 5 * std::sqrt(1.0 / 180 / n));  // Var((u - 1/2)^2) = 1/180
  EXPECT_LT(std::sqrt(double(n)) * ks_statistic(v, [](double x) { return x; }), kKsBound);
}

TEST(Rng, NormalMatrixShapeAndScale) {
  attn::Rng a(5), b(5);
  attn::Matrix m = a.normal_matrix(3, 7, 0.5f);
  EXPECT_EQ(m.rows, 3);
  EXPECT_EQ(m.cols, 7);
  auto v = std::vector<float>(21);
  b.normal(v.data(), 21);
  for (int i = 0; i < 21; ++i) EXPECT_EQ(m.data[i], v[i] * 0.5f);
}

// ---- det_log --------------------------------------------------------------------------------
TEST(DetLog, MatchesStdLog) {
  // Every 97th float in [2^-30, 2^10], the whole (0, 1] range Box–Muller uses included.
  double max_rel = 0, max_abs_near_one = 0;
  for (std::uint32_t bits = 0x30800000U; bits < 0x44800000U; bits += 97) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    const double ref = std::log(double(x)), got = attn::det_log(x);
    if (std::fabs(ref) > 0.5)
      max_rel = std::max(max_rel, std::fabs(got - ref) / std::fabs(ref));
    else
      max_abs_near_one = std::max(max_abs_near_one, std::fabs(got - ref));
  }
  EXPECT_LT(max_rel, 3e-7);            // about 2.5 float ulps
  EXPECT_LT(max_abs_near_one, 6e-8);   // near x = 1, where ln x -> 0: absolute
}

TEST(DetLog, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(attn::det_log(0.0f), -inf);
  EXPECT_EQ(attn::det_log(inf), inf);
  EXPECT_TRUE(std::isnan(attn::det_log(-1.0f)));
  EXPECT_TRUE(std::isnan(attn::det_log(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(attn::det_log(1.0f), 0.0f);
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_NEAR(attn::det_log(tiny), std::log(double(tiny)), 1e-5 * 103.3);
}

}  // namespace
