// What every harness shares: decoding shapes, numbers, masks and options from the fuzz input,
// and the invariants checked on the results. Shapes stay small (at most kMaxSide tokens and
// dimensions) so each input runs in microseconds; numbers come from every float class,
// extremes included, so the core's checks see NaN, ±inf, -0, subnormals and huge values.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "core/matrix.h"

namespace attn::fuzz {

constexpr int kMaxSide = 32;  // tokens and dimensions decoded by the harnesses

// A broken invariant: print it and abort, which libFuzzer reports as a crash with its input.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "invariant broken: %s\n", what.c_str());
  std::abort();
}

#define FUZZ_EXPECT(cond, what)                                         \
  do {                                                                  \
    if (!(cond)) ::attn::fuzz::fail(std::string(#cond " | ") + (what)); \
  } while (0)

class Input {
 public:
  // FUZZ_TRACE=1 in the environment prints every decoded value (to read a crashing input).
  Input(const std::uint8_t* data, std::size_t size)
      : p_(data, size), trace_(std::getenv("FUZZ_TRACE") != nullptr) {}

  int side(int lo = 1) { return range(lo, kMaxSide); }
  int range(int lo, int hi) { return traced(p_.ConsumeIntegralInRange<int>(lo, hi)); }
  bool flag() { return traced(p_.ConsumeBool()); }
  std::uint64_t u64() { return traced(p_.ConsumeIntegral<std::uint64_t>()); }

  // A float of any class. Most are ordinary (-10, 10); the rest are the values that break
  // arithmetic: ±0, subnormals, the smallest normal, huge values near FLT_MAX, the edge
  // of exp overflow (88.72), -1e9, ±inf, NaN, and any bit pattern at all.
  float number() { return traced(any_float()); }

  // A positive number for a temperature, tau or base: usually ordinary, sometimes extreme.
  float positive() {
    if (p_.ConsumeIntegralInRange<int>(0, 3) == 0) return number();
    return traced(p_.ConsumeFloatingPointInRange<float>(0.05f, 20.0f));
  }

  // (rows, cols) of number(); now and then one extra or one missing entry, which the
  // core's size check must reject.
  Matrix matrix(int rows, int cols) {
    Matrix m(rows, cols);
    for (float& x : m.data) x = number();
    if (range(0, 63) == 0) {
      if (flag() || m.data.empty())
        m.data.push_back(1.0f);
      else
        m.data.pop_back();
    }
    return m;
  }

  // A 0/1 mask of (rows, cols), rarely with another value in it (which must be rejected).
  Matrix mask(int rows, int cols) {
    Matrix m(rows, cols);
    int density = range(0, 4);  // 0 = all blocked .. 4 = all open
    for (float& x : m.data) x = p_.ConsumeIntegralInRange<int>(0, 3) < density ? 1.0f : 0.0f;
    if (range(0, 31) == 0) m.data[0] = number();
    return m;
  }

  std::vector<bool> flags(int count) {
    std::vector<bool> f(count);
    for (int i = 0; i < count; i++) f[i] = p_.ConsumeIntegralInRange<int>(0, 3) == 0;
    return f;
  }

  // An optional argument: absent (empty) most of the time or of the given shape.
  Matrix maybe_matrix(int rows, int cols) { return flag() ? matrix(rows, cols) : Matrix(); }

  // A shape that is usually the expected one and sometimes off by one (to reach the checks).
  int near(int expected) {
    switch (range(0, 15)) {
      case 0:
        return expected + 1;
      case 1:
        return expected - 1;
      default:
        return expected;
    }
  }

 private:
  float any_float() {
    static const float kSpecial[] = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -1.0f,
                                     0.5f,
                                     1e-45f,
                                     -1e-45f,
                                     FLT_MIN,
                                     1e-38f,
                                     1e-30f,
                                     1e-6f,
                                     88.72f,
                                     89.0f,
                                     100.0f,
                                     1e4f,
                                     1e9f,
                                     -1e9f,
                                     1e10f,
                                     1e19f,
                                     1e20f,
                                     -1e20f,
                                     1e30f,
                                     1e38f,
                                     FLT_MAX,
                                     -FLT_MAX,
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN()};
    switch (p_.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:
        return kSpecial[p_.ConsumeIntegralInRange<std::size_t>(0, std::size(kSpecial) - 1)];
      case 1: {
        std::uint32_t bits = p_.ConsumeIntegral<std::uint32_t>();
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
      }
      default:
        return p_.ConsumeFloatingPointInRange<float>(-10.0f, 10.0f);
    }
  }

  template <typename T>
  T traced(T v) {
    if (trace_) std::fprintf(stderr, "  %.9g\n", static_cast<double>(v));
    return v;
  }

  FuzzedDataProvider p_;
  bool trace_;
};

// ---- invariants -----------------------------------------------------------------------------

inline bool all_finite(const std::vector<float>& v) {
  for (float x : v) {
    if (!std::isfinite(x)) return false;
  }
  return true;
}

inline bool all_finite(const Matrix& m) { return all_finite(m.data); }

inline std::string where(const char* name, int row) {
  return std::string(name) + " row " + std::to_string(row);
}

// Tolerance for a sum of n float32 weights that should be 1.
inline double sum_tolerance(int n) { return 1e-5 * (n + 4); }

// Weights: every entry in [0, 1], each row sums to 1, except rows listed as blocked, which
// must be all zeros.
inline void expect_weight_rows(const char* name, const Matrix& w,
                               const std::vector<bool>& blocked_row) {
  for (int i = 0; i < w.rows; i++) {
    double sum = 0;
    for (int j = 0; j < w.cols; j++) {
      float x = w.at(i, j);
      FUZZ_EXPECT(x >= 0.0f && x <= 1.0f, where(name, i) + " has " + std::to_string(x));
      sum += x;
    }
    if (blocked_row[i]) {
      FUZZ_EXPECT(sum == 0.0, where(name, i) + " is blocked but sums to " + std::to_string(sum));
    } else {
      FUZZ_EXPECT(std::fabs(sum - 1.0) <= sum_tolerance(w.cols),
                  where(name, i) + " sums to " + std::to_string(sum));
    }
  }
}

}  // namespace attn::fuzz
