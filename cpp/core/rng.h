// The engine's one random number generator: Philox4x32-10 (kernels/philox.h), counter-based,
// so draw i of a stream is a pure function of (seed, stream, i). The same seed gives the same
// numbers in the native, wasm-scalar and wasm-SIMD builds: the generator is integer-only and
// the Box–Muller arithmetic is ours, not the standard library's (std::normal_distribution
// differs between standard libraries).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/matrix.h"
#include "kernels/philox.h"

namespace attn {

// Stream `stream` of `seed`: the Philox key is the seed, the stream is counter word 2, and
// counter word 3 keeps the normal and the uniform draws apart.
kernels::RandomStream random_stream(std::uint64_t seed, std::uint32_t stream,
                                    std::uint32_t purpose);

class Rng {
 public:
  explicit Rng(std::uint64_t seed, std::uint32_t stream = 0);
  // Fills out with the next count N(0, 1) draws of this stream.
  void normal(float* out, std::size_t count);
  // Fills out with the next count uniform draws in [0, 1).
  void uniform(float* out, std::size_t count);
  // A (rows, cols) matrix of N(0, 1) draws, times scale.
  Matrix normal_matrix(int rows, int cols, float scale = 1.0f);

 private:
  kernels::RandomStream normal_, uniform_;
  std::uint64_t normal_next_ = 0;   // index of the next normal draw
  std::uint64_t uniform_next_ = 0;  // index of the next uniform draw
};

// Natural log computed with our own float arithmetic (bit-identical in every build).
float det_log(float x);

}  // namespace attn
