// Our own float32 arithmetic for the random number generator and exp: the constants and the
// scalar forms. The SIMD kernels apply the same operations, in the same order, to each lane,
// so that every build draws bit-identical numbers (compiled with -ffp-contract=off: no FMA).
// Polynomials after musl/FreeBSD (logf) and Cephes (sinf, expf).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace attn::kernels {

// ---- bit casts ----------------------------------------------------------------------------
inline std::uint32_t float_bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
inline float bits_float(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// ---- counter hash -------------------------------------------------------------------------
// lowbias32 (C. Wellons): a 32-bit integer hash with two multiplies and a low avalanche bias.
constexpr std::uint32_t kHashMul1 = 0x7feb352dU;
constexpr std::uint32_t kHashMul2 = 0x846ca68bU;
inline std::uint32_t lowbias32(std::uint32_t x) {
  x ^= x >> 16;
  x *= kHashMul1;
  x ^= x >> 15;
  x *= kHashMul2;
  x ^= x >> 16;
  return x;
}

// Random bits number `counter` of the stream with key (k0 = low half, k1 = high half): two
// lowbias32 rounds, keyed by the two halves. The counter's high 32 bits move k1 (hi_k1).
constexpr std::uint32_t kCounterHighMul = 0x9e3779b9U;
inline std::uint32_t hi_k1(std::uint32_t k1, std::uint64_t counter) {
  return k1 + static_cast<std::uint32_t>(counter >> 32) * kCounterHighMul;
}
inline std::uint32_t draw_bits(std::uint32_t k0, std::uint32_t k1, std::uint32_t counter_lo) {
  return lowbias32(lowbias32(counter_lo ^ k0) + k1);
}

// Uniform draws use their own key, so they are unrelated to the normal draws of a stream.
constexpr std::uint64_t kUniformSalt = 0xa0761d6478bd642fULL;

// ---- log (after musl / FreeBSD logf) ------------------------------------------------------
// x = 2^k (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)); s = f / (2 + f);
// ln(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)).
constexpr std::uint32_t kLogOffset = 0x3f800000U - 0x3f3504f3U;  // moves sqrt(1/2) to 1.0
constexpr std::uint32_t kSqrtHalfBits = 0x3f3504f3U;
constexpr float kLg1 = 0.66666662693f;
constexpr float kLg2 = 0.40000972152f;
constexpr float kLg3 = 0.28498786688f;
constexpr float kLg4 = 0.24279078841f;
constexpr float kLn2Hi = 6.9313812256e-01f;  // ln 2 = kLn2Hi + kLn2Lo
constexpr float kLn2Lo = 9.0580006145e-06f;

// ln x for a positive normal float x (no special cases: see det_log for those).
inline float log_normal_positive(float x) {
  std::uint32_t ix = float_bits(x) + kLogOffset;
  std::int32_t k = static_cast<std::int32_t>(ix >> 23) - 127;
  float f = bits_float((ix & 0x007fffffU) + kSqrtHalfBits) - 1.0f;
  float s = f / (f + 2.0f);
  float z = s * s;
  float w = z * z;
  float t1 = w * (kLg2 + w * kLg4);
  float t2 = z * (kLg1 + w * kLg3);
  float r = t2 + t1;
  float hfsq = (f * f) * 0.5f;
  float dk = static_cast<float>(k);
  float y = s * (hfsq + r);
  y = y + dk * kLn2Lo;
  y = y - hfsq;
  y = y + f;
  return y + dk * kLn2Hi;
}

// ---- sin on [-pi/4, pi/4] (Cephes sinf) ---------------------------------------------------
constexpr float kSin1 = -1.9515295891e-4f;
constexpr float kSin2 = 8.3321608736e-3f;
constexpr float kSin3 = -1.6666654611e-1f;

inline float sin_small(float a) {
  float z = a * a;
  float y = kSin1;
  y = y * z + kSin2;
  y = y * z + kSin3;
  y = y * z;
  y = y * a;
  return y + a;
}

// ---- Box–Muller ---------------------------------------------------------------------------
// Normal draws come in blocks of 8 made of 4 pairs: block b, lane l (0..3) is pair
// p = 4b + l and gives draws 8b + l and 8b + 4 + l. Pair p hashes its counter once,
// x = lowbias32(p ^ k0), and again, h = lowbias32(x + k1):
//   u1 = 2 - [1.m] with m = top 23 bits of h: in [2^-23, 1], never 0;  L = -2 ln u1.
//   a  = [1.m] pi/2 - 3pi/4 with m = low 23 bits of x: in [-pi/4, pi/4).
//   (r cos a, r sin a) with r = sqrt(L): r sin a from a polynomial, r cos a = sqrt(L - (r sin a)^2)
//   (cos a >= 0.7 there, so this loses nothing). Bit 31 of x negates the cos part, bit 30
//   swaps the two: the point lands in one of four quarter-turn sectors, uniform on the circle.
constexpr float kHalfPi = 1.5707963267948966f;
constexpr float kThreeQuarterPi = 2.3561944901923448f;
constexpr std::uint32_t kOne = 0x3f800000U;  // bits of 1.0f
constexpr std::uint32_t kSign = 0x80000000U;

inline float uniform_from_bits(std::uint32_t h) {  // [0, 1), 24 bits
  return static_cast<float>(static_cast<std::int32_t>(h >> 8)) * 5.9604644775390625e-8f;
}

// The two normal draws of one hashed pair counter x (see above).
inline void box_muller(std::uint32_t x, std::uint32_t k1, float* first, float* second) {
  const std::uint32_t h = lowbias32(x + k1);
  const float u1 = 2.0f - bits_float(kOne | (h >> 9));
  const float big_l = log_normal_positive(u1) * -2.0f;
  const float r = std::sqrt(big_l);
  float a = bits_float(kOne | (x & 0x007fffffU));
  a = a * kHalfPi - kThreeQuarterPi;
  const float zs = r * sin_small(a);
  float zc = std::sqrt(big_l - zs * zs);
  zc = bits_float(float_bits(zc) ^ (x & kSign));
  const std::uint32_t swap = (x & 0x40000000U) ? 0xffffffffU : 0U;
  const std::uint32_t t = (float_bits(zc) ^ float_bits(zs)) & swap;
  *first = bits_float(float_bits(zc) ^ t);
  *second = bits_float(float_bits(zs) ^ t);
}

// ---- The product of the two draws of a pair, for q·k ------------------------------------
// The two draws of pair x are zc and zs, of radius r = sqrt(L), L = -2 ln u1, at angle a
// (up to the sign of zc and their order), so their product is
//   zc zs = +-L cos a sin a = +-(L / 2) sin 2a = -+ln(u1) sin b,   b = 2a in [-pi/2, pi/2).
// Computed that way it needs no square root and no cos, and never forms the draws. Bit 31 of
// x is the sign of zc; the swap of bit 30 leaves a product unchanged. The log and sin below
// are shorter than the ones the draws use (about an ulp less accurate), so the product equals
// zc * zs to within a few ulps, not bit for bit.

// ln x for a positive normal float x: log_normal_positive's reduction and polynomial R,
// summed in the short form ln(1 + f) = s (2 + R(s^2)) with ln 2 in one piece.
constexpr float kLn2 = 6.9314718056e-01f;
inline float log_short(float x) {
  std::uint32_t ix = float_bits(x) + kLogOffset;
  std::int32_t k = static_cast<std::int32_t>(ix >> 23) - 127;
  float f = bits_float((ix & 0x007fffffU) + kSqrtHalfBits) - 1.0f;
  float s = f / (f + 2.0f);
  float z = s * s;
  float r = kLg4;
  r = r * z + kLg3;
  r = r * z + kLg2;
  r = r * z + kLg1;
  r = r * z;
  float y = (r + 2.0f) * s;
  return y + static_cast<float>(k) * kLn2;
}

// sin b on [-pi/2, pi/2]: b + b z P(z), z = b^2, P a degree-3 Chebyshev fit of
// (sin b - b) / b^3; within 1.2 ulp of sin in float arithmetic.
constexpr float kSinW1 = 2.6347563562e-06f;
constexpr float kSinW2 = -1.9822739705e-04f;
constexpr float kSinW3 = 8.3332424983e-03f;
constexpr float kSinW4 = -1.6666665673e-01f;
inline float sin_wide(float b) {
  float z = b * b;
  float y = kSinW1;
  y = y * z + kSinW2;
  y = y * z + kSinW3;
  y = y * z + kSinW4;
  y = y * z;
  y = y * b;
  return y + b;
}

// q·k takes its pairs spread over the counter range: pair i of q and k is pair counter
// i kPairStride (mod 2^32, odd, so all distinct). With consecutive counters, the product signs
// (bits 31 and 22 of x) of pairs whose counters differ in a few low bits are slightly
// correlated under this one-round hash, enough to raise Var(q·k) at d_k = 256 by about 0.9%
// (6 standard errors at a million samples); spread, no bias is measurable.
constexpr std::uint32_t kPairStride = 0x9e3779b1U;

// first * second of pair x (see above). b = [1.m] pi - 3pi/2 is exactly twice the angle a of
// box_muller (the constants are exactly twice kHalfPi and kThreeQuarterPi).
constexpr float kPi = 2.0f * kHalfPi;
constexpr float kThreeHalfPi = 2.0f * kThreeQuarterPi;
inline float box_muller_product(std::uint32_t x, std::uint32_t k1) {
  const std::uint32_t h = lowbias32(x + k1);
  const float u1 = 2.0f - bits_float(kOne | (h >> 9));
  float b = bits_float(kOne | (x & 0x007fffffU));
  b = b * kPi - kThreeHalfPi;
  const float p = log_short(u1) * sin_wide(b);  // -zc zs when bit 31 is clear, else zc zs
  return bits_float(float_bits(p) ^ (~x & kSign));
}

// ---- exp (Cephes expf), for the SIMD softmax ----------------------------------------------
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kExpOverflow = 88.72283935546875f;   // above: +inf
constexpr float kExpUnderflow = -103.97208404541016f; // below: 0
constexpr float kExpP0 = 1.9875691500e-4f;
constexpr float kExpP1 = 1.3981999507e-3f;
constexpr float kExpP2 = 8.3334519073e-3f;
constexpr float kExpP3 = 4.1665795894e-2f;
constexpr float kExpP4 = 1.6666665459e-1f;
constexpr float kExpP5 = 5.0000001201e-1f;

}  // namespace attn::kernels
