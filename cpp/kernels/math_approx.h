// Our own float32 arithmetic for the random draws (Box–Muller: log, sin, square roots) and exp:
// the constants and the scalar forms. The SIMD kernels apply the same operations, in the same
// order, to each lane, so that every build draws bit-identical numbers (compiled with
// -ffp-contract=off: no FMA). Polynomials after musl/FreeBSD (logf) and Cephes (sinf, expf).
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
// Two normal draws from two random words u (radius) and v (angle):
//   u1 = (2^24 - top 24 bits of u) 2^-24: in [2^-24, 1], never 0, exact;  L = -2 ln u1.
//   a  = [1.m] pi/2 - 3pi/4 with m = low 23 bits of v: in [-pi/4, pi/4).
//   (r cos a, r sin a) with r = sqrt(L): r sin a from the polynomial, r cos a = sqrt(L - (r sin
//   a)^2) (cos a >= 0.7 there, so this loses nothing). Bit 31 of v negates the cos part, bit 30
//   swaps the two: the point lands in one of four quarter-turn sectors, uniform on the circle.
constexpr float kHalfPi = 1.5707963267948966f;
constexpr float kThreeQuarterPi = 2.3561944901923448f;
constexpr float kTwoPowMinus24 = 5.9604644775390625e-8f;
constexpr std::uint32_t kOne = 0x3f800000U;  // bits of 1.0f
constexpr std::uint32_t kSign = 0x80000000U;

inline float uniform_from_bits(std::uint32_t h) {  // [0, 1), the top 24 bits
  return static_cast<float>(static_cast<std::int32_t>(h >> 8)) * kTwoPowMinus24;
}

inline void box_muller(std::uint32_t u, std::uint32_t v, float* first, float* second) {
  const float u1 =
      static_cast<float>(static_cast<std::int32_t>(0x01000000U - (u >> 8))) * kTwoPowMinus24;
  const float big_l = log_normal_positive(u1) * -2.0f;
  const float r = std::sqrt(big_l);
  float a = bits_float(kOne | (v & 0x007fffffU));
  a = a * kHalfPi - kThreeQuarterPi;
  const float zs = r * sin_small(a);
  float zc = std::sqrt(big_l - zs * zs);
  zc = bits_float(float_bits(zc) ^ (v & kSign));
  const std::uint32_t swap = (v & 0x40000000U) ? 0xffffffffU : 0U;
  const std::uint32_t t = (float_bits(zc) ^ float_bits(zs)) & swap;
  *first = bits_float(float_bits(zc) ^ t);
  *second = bits_float(float_bits(zs) ^ t);
}

// ---- exp (Cephes expf), for the SIMD softmax ----------------------------------------------
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kExpOverflow = 88.72283935546875f;     // above: +inf
constexpr float kExpUnderflow = -103.97208404541016f;  // below: 0
constexpr float kExpP0 = 1.9875691500e-4f;
constexpr float kExpP1 = 1.3981999507e-3f;
constexpr float kExpP2 = 8.3334519073e-3f;
constexpr float kExpP3 = 4.1665795894e-2f;
constexpr float kExpP4 = 1.6666665459e-1f;
constexpr float kExpP5 = 5.0000001201e-1f;

}  // namespace attn::kernels
