// The seeded, counter-based random number generator.
#include "core/rng.h"

#include <cmath>
#include <limits>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"

namespace attn {

// splitmix64's finaliser: a bijection on 64 bits with strong avalanche.
static std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream) {
  const std::uint64_t golden = 0x9e3779b97f4a7c15ULL;
  return mix64(mix64(seed + golden) + (stream + 1) * golden);
}

Rng::Rng(std::uint64_t seed, std::uint64_t stream) : key_(stream_key(seed, stream)) {}

void Rng::normal(float* out, std::size_t count) {
  kernels::fill_normal(key_, normal_next_, out, count);
  normal_next_ += count;
}

void Rng::uniform(float* out, std::size_t count) {
  kernels::fill_uniform(key_, uniform_next_, out, count);
  uniform_next_ += count;
}

Matrix Rng::normal_matrix(int rows, int cols, float scale) {
  Matrix m(rows, cols);  // (rows, cols)
  normal(m.data.data(), m.data.size());
  if (scale != 1.0f)
    for (float& v : m.data) v *= scale;
  return m;
}

float det_log(float x) {
  if (std::isnan(x) || x < 0.0f) return std::numeric_limits<float>::quiet_NaN();
  if (x == 0.0f) return -std::numeric_limits<float>::infinity();
  if (std::isinf(x)) return x;
  if (x < std::numeric_limits<float>::min())  // subnormal: scale by 2^24 first
    return kernels::log_normal_positive(x * 16777216.0f) - 16.635532333438687f;
  return kernels::log_normal_positive(x);
}

}  // namespace attn
