// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw ("Parallel
// random numbers: as easy as 1, 2, 3", SC 2011), which cuRAND, PyTorch and JAX use: ten rounds
// of two 32 x 32 -> 64-bit multiplies turn a 128-bit counter and a 64-bit key into 128 random
// bits. Integers only, so every build computes the same words; the native tests check it bit
// for bit against Random123, the authors' implementation.
#pragma once

#include <cstdint>

namespace attn::kernels {

constexpr std::uint32_t kPhiloxM0 = 0xD2511F53U;  // round multipliers
constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57U;
constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9U;  // key increments (golden ratio, sqrt(3) - 1)
constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85U;
constexpr int kPhiloxRounds = 10;

struct PhiloxWords {
  std::uint32_t v[4];
};

// The 128 random bits of counter ctr under key (k0, k1).
inline PhiloxWords philox4x32_10(PhiloxWords ctr, std::uint32_t k0, std::uint32_t k1) {
  for (int r = 0; r < kPhiloxRounds; ++r) {
    if (r > 0) {  // the key is bumped before every round but the first
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    const std::uint64_t p0 = std::uint64_t{kPhiloxM0} * ctr.v[0];
    const std::uint64_t p1 = std::uint64_t{kPhiloxM1} * ctr.v[2];
    const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
    const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
    ctr = {{hi1 ^ ctr.v[1] ^ k0, lo1, hi0 ^ ctr.v[3] ^ k1, lo0}};
  }
  return ctr;
}

// Where the engine's draws come from. Draw i of a stream is word i % 4 of Philox block i / 4,
// whose counter is (i/4 mod 2^32, i/4 div 2^32, stream, purpose) under the key (seed mod 2^32,
// seed div 2^32). purpose keeps the uniform draws apart from the normal ones of one stream.
struct RandomStream {
  std::uint32_t k0 = 0, k1 = 0;  // the key: the seed
  std::uint32_t stream = 0;      // counter word 2
  std::uint32_t purpose = 0;     // counter word 3: kNormalDraws or kUniformDraws
};
constexpr std::uint32_t kNormalDraws = 0;
constexpr std::uint32_t kUniformDraws = 1;

inline PhiloxWords philox_block(const RandomStream& s, std::uint64_t block) {
  return philox4x32_10({{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                         s.stream, s.purpose}},
                       s.k0, s.k1);
}

}  // namespace attn::kernels
