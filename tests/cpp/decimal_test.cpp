// The decimal text of core/decimal.h against the C library it stands in for (snprintf "%.*g",
// "%.0f" and strtod): glibc natively, musl in the wasm builds. Exact equality of every string
// and every double, over random bit patterns of every exponent, float32 values, integers,
// short decimals, exact halfway cases and the ends of the range.
#include "core/decimal.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

// snprintf("%.*g") with the exponent's leading zeros dropped, as the engine spells it
std::string c_g_text(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  std::string s(buf);
  std::size_t e = s.find('e');
  if (e != std::string::npos) {
    std::size_t digit = e + 2;
    while (digit + 1 < s.size() && s[digit] == '0') s.erase(digit, 1);
  }
  return s;
}

double c_round_to_digits(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return std::strtod(buf, nullptr);
}

int c_shortest_digits(double x, bool as_float) {
  int digits = 1;
  for (; digits < 17; digits++) {
    double back = c_round_to_digits(x, digits);
    if (back == x || (as_float && static_cast<float>(back) == static_cast<float>(x))) break;
  }
  return digits;
}

std::string c_integer_text(double x) {
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// The same as the C library for every digit count (the round trip and the text).
void expect_like_c(double x, bool as_float = false) {
  for (int digits = 1; digits <= 17; digits++) {
    ASSERT_EQ(attn::g_text(x, digits), c_g_text(x, digits))
        << "x = " << c_g_text(x, 17) << ", digits " << digits;
    double mine = attn::round_to_digits(x, digits), theirs = c_round_to_digits(x, digits);
    ASSERT_EQ(std::memcmp(&mine, &theirs, sizeof mine), 0)
        << "x = " << c_g_text(x, 17) << ", digits " << digits << ": " << c_g_text(mine, 17)
        << " vs " << c_g_text(theirs, 17);
  }
  ASSERT_EQ(attn::shortest_digits(x, as_float), c_shortest_digits(x, as_float))
      << "x = " << c_g_text(x, 17);
}

std::vector<double> edge_values() {
  std::vector<double> v = {DBL_MAX,
                           DBL_MIN,
                           DBL_TRUE_MIN,
                           FLT_MAX,
                           FLT_MIN,
                           1e21,
                           1e20,
                           1e22,
                           1e23,
                           0.1,
                           0.5,
                           1.5,
                           2.5,
                           0.125,
                           0.375,
                           9.5,
                           99.5,
                           999.5,
                           0.0001,
                           0.00001,
                           9.9999e-5,
                           1.005,
                           5e-324,
                           1e-320,
                           1e308,
                           1.7976931348623157e308,
                           2.2250738585072009e-308,
                           3.4028234663852886e38,
                           1.1754943508222875e-38,
                           1.18e-28,
                           123456789012345678.0};
  for (int e = -1074; e <= 1023; e += 7)
    v.push_back(std::ldexp(1.0, e));  // powers of two: uneven gaps
  for (int e = -1074; e <= 1023; e += 11) v.push_back(std::nextafter(std::ldexp(1.0, e), 0.0));
  return v;
}

TEST(Decimal, EdgeValuesLikeTheCLibrary) {
  for (double x : edge_values()) {
    expect_like_c(x);
    expect_like_c(-x);
  }
}

TEST(Decimal, RandomBitPatternsLikeTheCLibrary) {
  std::mt19937_64 gen(7);
  for (int i = 0; i < 3000; i++) {
    double x = from_bits(gen() & 0x7fffffffffffffffull);
    if (!std::isfinite(x)) continue;
    expect_like_c(x);
  }
}

TEST(Decimal, Float32ValuesLikeTheCLibrary) {
  std::mt19937 gen(11);
  for (int i = 0; i < 3000; i++) {
    std::uint32_t b = gen() & 0x7fffffffu;
    float f;
    std::memcpy(&f, &b, sizeof f);
    if (!std::isfinite(f) || f == 0) continue;
    expect_like_c(static_cast<double>(f), true);
  }
  // float32 values of everyday size, as matrix entries are
  std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
  for (int i = 0; i < 3000; i++) expect_like_c(static_cast<double>(u(gen)), true);
}

TEST(Decimal, ShortDecimalsAndHalfwayCasesLikeTheCLibrary) {
  std::mt19937_64 gen(3);
  for (int i = 0; i < 3000; i++) {
    // k * 10^e and k.5 * 10^e: ties where the binary value is exact, near-ties where it is not
    double k = static_cast<double>(gen() % 100000);
    int e = static_cast<int>(gen() % 60) - 30;
    expect_like_c(k * std::pow(10.0, e));
    expect_like_c((k + 0.5) * std::pow(10.0, e));
  }
  for (int i = 1; i < 2000; i++) expect_like_c(i / 8.0);  // exact binary halves and eighths
}

TEST(Decimal, IntegersLikeTheCLibrary) {
  std::mt19937_64 gen(5);
  for (double x :
       {1.0, 3.0, -3.0, 268435456.0, 1e20, 999999999999999999999.0, 9007199254740993.0}) {
    EXPECT_EQ(attn::integer_text(x), c_integer_text(x));
  }
  for (int i = 0; i < 3000; i++) {
    double x = std::floor(
        std::ldexp(static_cast<double>(gen() >> 11), static_cast<int>(gen() % 70)) / 53.0);
    if (x >= 1e21) continue;
    ASSERT_EQ(attn::integer_text(x), c_integer_text(x)) << c_g_text(x, 17);
    ASSERT_EQ(attn::integer_text(-x), c_integer_text(-x)) << c_g_text(x, 17);
  }
}

TEST(Decimal, Spelling) {  // independent of any library: the strings the messages quote
  EXPECT_EQ(attn::g_text(1e-7, 1), "1e-7");
  EXPECT_EQ(attn::g_text(1e300, 1), "1e+300");
  EXPECT_EQ(attn::g_text(0.0001, 1), "0.0001");
  EXPECT_EQ(attn::g_text(123.5, 4), "123.5");
  EXPECT_EQ(attn::g_text(2.5, 1), "2");  // half to even
  EXPECT_EQ(attn::g_text(3.5, 1), "4");
  EXPECT_EQ(attn::g_text(1.18e-28, attn::shortest_digits(1.18e-28, false)), "1.18e-28");
  EXPECT_EQ(attn::shortest_digits(0.1, false), 1);
  EXPECT_EQ(attn::shortest_digits(static_cast<double>(0.1f), true), 1);
  EXPECT_EQ(attn::shortest_digits(static_cast<double>(0.1f), false), 17);  // 0.10000000149011612
  EXPECT_EQ(attn::integer_text(1e20), "100000000000000000000");
  EXPECT_EQ(attn::round_to_digits(1.2345, 3), 1.23);
  EXPECT_EQ(attn::round_to_digits(DBL_MAX, 1), HUGE_VAL);  // 2e+308 reads back as Infinity
}

}  // namespace
