// The seeded RNG: Philox4x32-10 against its known-answer vectors (in every build) and, natively,
// bit for bit against Random123 over a million counters; the draw layout; determinism; pinned
// values (the wasm suite checks the same ones); distribution checks against N(0, 1) and
// U(0, 1) with bounds from their sampling laws; det_log against std::log.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "core/rng.h"
#include "kernels/kernels.h"
#include "kernels/math_approx.h"
#include "kernels/philox.h"

#if defined(ATTN_RANDOM123)
#include <Random123/philox.h>
#endif

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

// ---- Philox4x32-10 -------------------------------------------------------------------------
using attn::kernels::philox4x32_10;
using attn::kernels::PhiloxWords;

// The known-answer vectors published with Random123 (kat_vectors: philox4x32 10 ...):
// counter, key, random bits.
struct Kat {
  PhiloxWords ctr;
  std::uint32_t k0, k1;
  PhiloxWords want;
};
const Kat kKats[] = {
    {{{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}}},
    {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
     0xffffffff,
     0xffffffff,
     {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}}},
    {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
     0xa4093822,
     0x299f31d0,
     {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}},
};

TEST(Philox, KnownAnswerVectors) {
  for (const Kat& k : kKats) {
    const PhiloxWords got = philox4x32_10(k.ctr, k.k0, k.k1);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got.v[i], k.want.v[i]) << "word " << i;
  }
}

#if defined(ATTN_RANDOM123)
// Random123's own philox4x32 (10 rounds), the authors' implementation.
PhiloxWords random123(const PhiloxWords& c, std::uint32_t k0, std::uint32_t k1) {
  r123::Philox4x32_R<10> gen;
  const r123::Philox4x32_R<10>::ctr_type ctr = {{c.v[0], c.v[1], c.v[2], c.v[3]}};
  const r123::Philox4x32_R<10>::key_type key = {{k0, k1}};
  const auto r = gen(ctr, key);
  return {{r[0], r[1], r[2], r[3]}};
}

TEST(Philox, KnownAnswerVectorsFromRandom123) {
  for (const Kat& k : kKats) {
    const PhiloxWords got = random123(k.ctr, k.k0, k.k1);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got.v[i], k.want.v[i]) << "word " << i;
  }
}

// A million counters, bit for bit: consecutive counters under the keys of seeds 0, 1, 42 and
// 2^32 - 1 (streams and purposes as the engine uses them), and counters and keys whose every
// word comes from a simple mixing sequence.
TEST(Philox, MillionCountersMatchRandom123) {
  int checked = 0;
  const std::uint32_t seeds[] = {0, 1, 42, 0xffffffffU};
  for (std::uint32_t seed : seeds)
    for (std::uint32_t i = 0; i < 125000; ++i) {
      const PhiloxWords c = {{i, i >> 7, i % 1000, i & 1}};
      const PhiloxWords got = philox4x32_10(c, seed, 0), want = random123(c, seed, 0);
      ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0) << "seed " << seed << " counter " << i;
      ++checked;
    }
  std::uint64_t x = 0x9e3779b97f4a7c15ULL;
  auto next = [&x]() {  // splitmix64: spreads the bits of every word
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<std::uint32_t>(z ^ (z >> 31));
  };
  for (int i = 0; i < 500000; ++i) {
    const PhiloxWords c = {{next(), next(), next(), next()}};
    const std::uint32_t k0 = next(), k1 = next();
    const PhiloxWords got = philox4x32_10(c, k0, k1), want = random123(c, k0, k1);
    ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0) << "draw " << i;
    ++checked;
  }
  EXPECT_EQ(checked, 1000000);
}

// The draws are Random123's words put through the documented layout: uniform draw i is the top
// 24 bits of word i % 4 of block i / 4 (counter (i/4, 0, stream, 1), key = the seed); normal
// draws 4b .. 4b+3 are Box–Muller on words (0, 1) and (2, 3) of block b (counter word 3 = 0).
TEST(Philox, DrawsAreRandom123WordsInTheLayout) {
  const std::uint64_t seed = 42;
  const std::uint32_t stream = 7;
  const std::size_t n = 4000;
  std::vector<float> normal(n), uniform(n);
  attn::Rng rng(seed, stream);
  rng.normal(normal.data(), n);
  rng.uniform(uniform.data(), n);
  for (std::uint32_t b = 0; b < n / 4; ++b) {
    const PhiloxWords wn = random123({{b, 0, stream, 0}}, 42, 0);
    const PhiloxWords wu = random123({{b, 0, stream, 1}}, 42, 0);
    float z[4];
    attn::kernels::box_muller(wn.v[0], wn.v[1], &z[0], &z[1]);
    attn::kernels::box_muller(wn.v[2], wn.v[3], &z[2], &z[3]);
    for (int i = 0; i < 4; ++i) {
      ASSERT_EQ(normal[4 * b + i], z[i]) << "normal draw " << 4 * b + i;
      ASSERT_EQ(uniform[4 * b + i], float(wu.v[i] >> 8) * 0x1p-24f) << "uniform draw " << 4 * b + i;
    }
  }
  // the high word of the block counter: draws from 2^34 on are block 2^32, counter (0, 1, ...)
  const std::uint64_t first = 1ULL << 34;
  const attn::kernels::RandomStream s =
      attn::random_stream(seed, stream, attn::kernels::kNormalDraws);
  float got[6];
  attn::kernels::fill_normal(s, first - 2, got, 6);
  const PhiloxWords below = random123({{0xffffffffU, 0, stream, 0}}, 42, 0);
  const PhiloxWords above = random123({{0, 1, stream, 0}}, 42, 0);
  float z[6];
  attn::kernels::box_muller(below.v[2], below.v[3], &z[0], &z[1]);
  attn::kernels::box_muller(above.v[0], above.v[1], &z[2], &z[3]);
  attn::kernels::box_muller(above.v[2], above.v[3], &z[4], &z[5]);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(got[i], z[i]) << i;
}
#endif  // ATTN_RANDOM123

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
      0.838143885f, 1.09360349f, 0.0129320212f, 0.389789879f, -0.202760249f, 2.95943141f,
      0.205743149f, 1.18337512f, -1.43604994f,  -1.19734299f, -0.840626121f, -1.06756544f};
  const std::vector<float> expect_uniform = {0.126031578f, 0.593870163f, 0.328521371f,
                                             0.785070062f, 0.123131573f, 0.353812158f,
                                             0.148909986f, 0.573690414f};
  const std::vector<float> expect_stream7 = {0.248790801f, -0.989845634f, 0.621343315f,
                                             0.846502781f};
  EXPECT_EQ(normals(42, 0, 12), expect_normal);
  EXPECT_EQ(uniforms(42, 0, 8), expect_uniform);
  EXPECT_EQ(normals(42, 7, 4), expect_stream7);
}

// 100,000 draws and det_log over the whole positive float range, to the last bit: the same
// checksums hold in every build (this file also runs as wasm), so all draw exactly these floats.
TEST(Rng, PinnedChecksums) {
  std::vector<float> v(100000);
  attn::Rng(42, 3).normal(v.data(), v.size());
  EXPECT_EQ(checksum(v), 0xdd256a4d96dd5c17ULL);
  attn::Rng(42, 3).uniform(v.data(), v.size());
  EXPECT_EQ(checksum(v), 0x986e0be88ce3b4dfULL);
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
  EXPECT_LT(max_rel, 3e-7);           // about 2.5 float ulps
  EXPECT_LT(max_abs_near_one, 6e-8);  // near x = 1, where ln x -> 0: absolute
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
