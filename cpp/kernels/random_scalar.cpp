// Random draws from Philox4x32-10, scalar reference (the layout: philox.h; Box–Muller:
// math_approx.h).
#include "kernels/kernels.h"
#include "kernels/math_approx.h"
#include "kernels/philox.h"

namespace attn::kernels {

// Draws 4 b0 .. 4 b0 + 15 (blocks b0 .. b0 + 3) into out: block b (words w0..w3) gives draws
// 4b, 4b+1 from Box–Muller on (w0, w1) and 4b+2, 4b+3 from (w2, w3). The eight Box–Muller
// pairs are independent: a native compiler vectorises that loop (with -fno-math-errno).
static void normal_group(const RandomStream& s, std::uint64_t b0, float* out) {
  std::uint32_t u[8], v[8];  // pair 2 l + h: words (2h, 2h + 1) of block b0 + l
  for (int l = 0; l < 4; ++l) {
    const PhiloxWords w = philox_block(s, b0 + l);
    u[2 * l] = w.v[0];
    v[2 * l] = w.v[1];
    u[2 * l + 1] = w.v[2];
    v[2 * l + 1] = w.v[3];
  }
  for (int p = 0; p < 8; ++p) box_muller(u[p], v[p], &out[2 * p], &out[2 * p + 1]);
}

// Standard normal draws first .. first+count-1 of stream s.
void fill_normal_scalar(const RandomStream& s, std::uint64_t first, float* out, std::size_t count) {
  const std::uint64_t last = first + count;  // one past the last draw
  for (std::uint64_t base = first / 4 * 4; base < last; base += 16) {
    if (base >= first && base + 16 <= last) {
      normal_group(s, base / 4, out + (base - first));
    } else {  // at either end: only the draws in range
      float group[16];
      normal_group(s, base / 4, group);
      for (std::uint64_t i = base; i < base + 16; ++i)
        if (i >= first && i < last) out[i - first] = group[i - base];
    }
  }
}

// q·k from draws 0 .. 2d-1 of s: drawn into scratch, then summed by dot_rows.
float normal_pair_dot_scalar(const RandomStream& s, int d, float* scratch) {
  fill_normal_scalar(s, 0, scratch, 2 * static_cast<std::size_t>(d));
  float dot;
  dot_rows_scalar(scratch, scratch + d, &dot, 1, d);
  return dot;
}

// Uniform draws in [0, 1): draw i is the top 24 bits of word i % 4 of block i / 4, times 2^-24.
void fill_uniform_scalar(const RandomStream& s, std::uint64_t first, float* out,
                         std::size_t count) {
  const std::uint64_t last = first + count;
  for (std::uint64_t block = first / 4; block * 4 < last; ++block) {
    const PhiloxWords w = philox_block(s, block);
    for (std::uint64_t i = block * 4; i < block * 4 + 4; ++i)
      if (i >= first && i < last) out[i - first] = uniform_from_bits(w.v[i - block * 4]);
  }
}

}  // namespace attn::kernels
