// The engine's one random number generator: counter-based, so draw i of a stream is a pure
// function of (seed, stream, i). The same seed gives the same numbers in the native,
// wasm-scalar and wasm-SIMD builds (the arithmetic is ours, not the standard library's:
// std::normal_distribution differs between standard libraries).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/matrix.h"

namespace attn {

// The key of stream `stream` under `seed` (splitmix64 mixing of both).
std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream);

class Rng {
 public:
  explicit Rng(std::uint64_t seed, std::uint64_t stream = 0);
  // Fills out with the next count N(0, 1) draws of this stream.
  void normal(float* out, std::size_t count);
  // Fills out with the next count uniform draws in [0, 1).
  void uniform(float* out, std::size_t count);
  // A (rows, cols) matrix of N(0, 1) draws, times scale.
  Matrix normal_matrix(int rows, int cols, float scale = 1.0f);

 private:
  std::uint64_t key_;
  std::uint64_t normal_next_ = 0;   // index of the next normal draw
  std::uint64_t uniform_next_ = 0;  // index of the next uniform draw
};

// Natural log computed with our own float arithmetic (bit-identical in every build).
float det_log(float x);

}  // namespace attn
