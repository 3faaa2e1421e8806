// Deterministic inputs for the kernel tests (an LCG, independent of the engine's RNG), and the
// float error bound of a dot product they are checked against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace test_inputs {

// n floats in [lo, hi).
inline std::vector<float> inputs(std::size_t n, std::uint32_t seed, float lo = -1.0f,
                                 float hi = 1.0f) {
  std::vector<float> v(n);
  std::uint32_t s = seed * 2654435761U + 12345U;
  for (float& x : v) {
    s = s * 1664525U + 1013904223U;
    x = lo + (hi - lo) * static_cast<float>(s >> 8) / 16777216.0f;
  }
  return v;
}

// Bound on the float error of a k-term dot product: k eps sum |a_p b_p| (plus a hair).
inline double dot_bound(double abs_sum, int k) { return (k + 2) * 6e-8 * abs_sum + 1e-30; }

}  // namespace test_inputs
