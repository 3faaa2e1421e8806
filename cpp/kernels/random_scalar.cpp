// Counter-based random draws, scalar reference (the layout is described in math_approx.h).
#include "kernels/kernels.h"
#include "kernels/math_approx.h"

namespace attn::kernels {

// Standard normal draws first .. first+count-1 of the stream named by key.
void fill_normal_scalar(std::uint64_t key, std::uint64_t first, float* out, std::size_t count) {
  if (count == 0) return;
  const std::uint32_t k0 = static_cast<std::uint32_t>(key);
  const std::uint32_t k1 = static_cast<std::uint32_t>(key >> 32);
  const std::uint64_t last = first + count;  // one past the last draw
  for (std::uint64_t block = first / 8; block * 8 < last; ++block) {
    const std::uint64_t pair = block * 4;      // pairs 4b .. 4b+3; never straddle 2^32
    const std::uint32_t kb = hi_k1(k1, pair);
    float block_out[8];  // draws 8b .. 8b+7
    for (std::uint32_t l = 0; l < 4; ++l) {
      const std::uint32_t x = lowbias32((static_cast<std::uint32_t>(pair) + l) ^ k0);
      box_muller(x, kb, &block_out[l], &block_out[4 + l]);
    }
    const std::uint64_t base = block * 8;
    for (std::uint64_t i = base; i < base + 8; ++i)
      if (i >= first && i < last) out[i - first] = block_out[i - base];
  }
}

// Uniform draws in [0, 1): the top 24 bits of the hash, times 2^-24.
void fill_uniform_scalar(std::uint64_t key, std::uint64_t first, float* out, std::size_t count) {
  key ^= kUniformSalt;
  const std::uint32_t k0 = static_cast<std::uint32_t>(key);
  const std::uint32_t k1 = static_cast<std::uint32_t>(key >> 32);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t c = first + i;
    out[i] = uniform_from_bits(draw_bits(k0, hi_k1(k1, c), static_cast<std::uint32_t>(c)));
  }
}

}  // namespace attn::kernels
