// The seeded, counter-based random number generator (Philox4x32-10).
#include "core/rng.h"

#include <cmath>
#include <limits>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"

namespace attn {

kernels::RandomStream random_stream(std::uint64_t seed, std::uint32_t stream,
                                    std::uint32_t purpose) {
  kernels::RandomStream s;
  s.k0 = static_cast<std::uint32_t>(seed);
  s.k1 = static_cast<std::uint32_t>(seed >> 32);
  s.stream = stream;
  s.purpose = purpose;
  return s;
}

Rng::Rng(std::uint64_t seed, std::uint32_t stream)
    : normal_(random_stream(seed, stream, kernels::kNormalDraws)),
      uniform_(random_stream(seed, stream, kernels::kUniformDraws)) {}

void Rng::normal(float* out, std::size_t count) {
  kernels::fill_normal(normal_, normal_next_, out, count);
  normal_next_ += count;
}

void Rng::uniform(float* out, std::size_t count) {
  kernels::fill_uniform(uniform_, uniform_next_, out, count);
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
