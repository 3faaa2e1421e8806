// Our own float32 arithmetic for the random number generator and exp: the constants and the
// scalar forms. The SIMD kernels apply the same operations, in the same order, to each lane,
// so that every build draws bit-identical numbers (compiled with -ffp-contract=off: no FMA).
// Polynomials after Cephes (logf, sinf/cosf, expf).
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

// Random bits of draw `counter` of the stream with key (k0 = low half, k1 = high half):
// two hash rounds, keyed by the two halves. The counter's high 32 bits move k1 (hi_k1).
constexpr std::uint32_t kCounterHighMul = 0x9e3779b9U;
inline std::uint32_t hi_k1(std::uint32_t k1, std::uint64_t counter) {
  return k1 + static_cast<std::uint32_t>(counter >> 32) * kCounterHighMul;
}
inline std::uint32_t draw_bits(std::uint32_t k0, std::uint32_t k1, std::uint32_t counter_lo) {
  return lowbias32(lowbias32(counter_lo ^ k0) + k1);
}

// Uniform draws use their own key, so they are unrelated to the normal draws of a stream.
constexpr std::uint64_t kUniformSalt = 0xa0761d6478bd642fULL;

// ---- log (Cephes logf) --------------------------------------------------------------------
constexpr float kSqrtHalf = 0.707106781186547524f;
constexpr float kLogP0 = 7.0376836292e-2f;
constexpr float kLogP1 = -1.1514610310e-1f;
constexpr float kLogP2 = 1.1676998740e-1f;
constexpr float kLogP3 = -1.2420140846e-1f;
constexpr float kLogP4 = 1.4249322787e-1f;
constexpr float kLogP5 = -1.6668057665e-1f;
constexpr float kLogP6 = 2.0000714765e-1f;
constexpr float kLogP7 = -2.4999993993e-1f;
constexpr float kLogP8 = 3.3333331174e-1f;
constexpr float kLn2Hi = 0.693359375f;      // ln 2 = kLn2Hi + kLn2Lo
constexpr float kLn2Lo = -2.12194440e-4f;

// ln x for a positive normal float x (no special cases: see det_log for those).
inline float log_normal_positive(float x) {
  std::uint32_t ix = float_bits(x);
  std::int32_t e = static_cast<std::int32_t>(ix >> 23) - 126;           // x = m 2^e
  float m = bits_float((ix & 0x007fffffU) | 0x3f000000U);               // m in [0.5, 1)
  bool low = m < kSqrtHalf;                                             // m in [0.5, 0.707)
  e = e - (low ? 1 : 0);
  float t = low ? m + m : m;
  t = t - 1.0f;                                                         // t in [-0.29, 0.41)
  float z = t * t;
  float y = kLogP0;
  y = y * t + kLogP1;
  y = y * t + kLogP2;
  y = y * t + kLogP3;
  y = y * t + kLogP4;
  y = y * t + kLogP5;
  y = y * t + kLogP6;
  y = y * t + kLogP7;
  y = y * t + kLogP8;
  y = y * t;
  y = y * z;
  float fe = static_cast<float>(e);
  y = y + fe * kLn2Lo;
  y = y - z * 0.5f;
  float r = t + y;
  r = r + fe * kLn2Hi;
  return r;
}

// ---- sin and cos on [-pi/4, pi/4] (Cephes sinf / cosf) ------------------------------------
constexpr float kSin1 = -1.9515295891e-4f;
constexpr float kSin2 = 8.3321608736e-3f;
constexpr float kSin3 = -1.6666654611e-1f;
constexpr float kCos1 = 2.443315711809948e-5f;
constexpr float kCos2 = -1.388731625493765e-3f;
constexpr float kCos3 = 4.166664568298827e-2f;

inline float sin_small(float a) {
  float z = a * a;
  float y = kSin1;
  y = y * z + kSin2;
  y = y * z + kSin3;
  y = y * z;
  y = y * a;
  return y + a;
}
inline float cos_small(float a) {
  float z = a * a;
  float y = kCos1;
  y = y * z + kCos2;
  y = y * z + kCos3;
  y = y * z;
  y = y * z;
  y = y - z * 0.5f;
  return y + 1.0f;
}

// ---- Box–Muller layout --------------------------------------------------------------------
// Normal draws come in blocks of 8: block b holds draws 8b .. 8b+7. Its lane l (0..3) takes
// u1 from counter 8b+l and u2 from counter 8b+4+l, and gives draw 8b+l = r cos(theta) and
// draw 8b+4+l = r sin(theta), with r = sqrt(-2 ln u1).
//   u1 = 1 - (top 24 bits) 2^-24, in [2^-24, 1], never 0.
//   theta: the top 2 bits of u2's hash pick the quadrant q, the next 22 bits an angle a in
//   (-pi/4, pi/4); theta = q pi/2 + a is uniform on the circle.
constexpr float kTwoPow24Inv = 5.9604644775390625e-8f;            // 2^-24
constexpr float kAngleStep = 1.5707963267948966f / 4194304.0f;    // (pi/2) 2^-22
constexpr float kQuarterPi = 0.78539816339744831f;

inline float uniform_from_bits(std::uint32_t h) {  // [0, 1)
  return static_cast<float>(static_cast<std::int32_t>(h >> 8)) * kTwoPow24Inv;
}

// One Box–Muller pair from the two hashes; writes r cos(theta) to *c and r sin(theta) to *s.
inline void box_muller(std::uint32_t h1, std::uint32_t h2, float* c, float* s) {
  float u1 = 1.0f - static_cast<float>(static_cast<std::int32_t>(h1 >> 8)) * kTwoPow24Inv;
  float r = std::sqrt(log_normal_positive(u1) * -2.0f);
  std::uint32_t q = h2 >> 30;
  float a = static_cast<float>(static_cast<std::int32_t>((h2 >> 8) & 0x3fffffU)) + 0.5f;
  a = a * kAngleStep - kQuarterPi;
  float sa = sin_small(a);
  float ca = cos_small(a);
  // rotate (cos a, sin a) by q quarter turns
  float x = (q & 1U) ? sa : ca;
  float y = (q & 1U) ? ca : sa;
  std::uint32_t neg_x = ((q ^ (q >> 1)) & 1U) << 31;  // q = 1, 2
  std::uint32_t neg_y = (q >> 1) << 31;               // q = 2, 3
  x = bits_float(float_bits(x) ^ neg_x);
  y = bits_float(float_bits(y) ^ neg_y);
  *c = r * x;
  *s = r * y;
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
