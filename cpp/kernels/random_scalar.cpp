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

// q·k with q_i, k_i the two draws of pair counter c_i = i kPairStride (mod 2^32) of the stream
// named by key (i = 0 .. n-1): q_i = draw 8(c_i/4) + c_i%4, k_i = draw 8(c_i/4) + 4 + c_i%4.
// Summed like dot_rows: four accumulators in lane order (acc[l] over i = 4j + l), combined as
// (acc0 + acc1) + (acc2 + acc3), then the last n % 4 terms in order. Pair counters are 32-bit,
// so the high key half is k1 throughout (hi_k1).
float normal_pair_dot_scalar(std::uint64_t key, int n) {
  const std::uint32_t k0 = static_cast<std::uint32_t>(key);
  const std::uint32_t k1 = static_cast<std::uint32_t>(key >> 32);
  auto product = [&](int i) {  // q_i k_i
    const std::uint32_t c = static_cast<std::uint32_t>(i) * kPairStride;
    return box_muller_product(lowbias32(c ^ k0), k1);
  };
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int i = 0;
  for (; i + 4 <= n; i += 4)
    for (int l = 0; l < 4; ++l) acc[l] += product(i + l);
  float sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (; i < n; ++i) sum += product(i);
  return sum;
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
