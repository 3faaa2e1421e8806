// Normal draws from Philox4x32-10, wasm SIMD128: four Philox blocks at a time, one per lane
// (two such groups interleaved; the products that rounds 0 and 1 share across lanes made once),
// then the scalar Box–Muller of random_scalar.cpp on four lanes at once (the log, sqrt and sin
// all vectorised). The Philox words are integers and each lane performs exactly the scalar
// float operations, in the same order, so the draws are bit-identical. normal_pair_dot_wasmsimd
// multiplies the draws of q and k as they come out of Box–Muller, in the lanes and order of
// dot_rows, so they never go to memory.
//
// Two things decide the speed under V8 (x64), both checked in its disassembly:
//  - The multipliers pass through opaque() inside the round loop. clang 14 writes the unsigned
//    extending multiply as a multiply of zero-extended halves; with a constant multiplier it
//    folds the extension into the constant, can no longer match i64x2.extmul, and V8 lowers
//    the generic i64x2.mul to three pmuludq and five shifts and adds instead of one unpack and
//    one pmuludq per product (Philox 2.3x slower).
//  - The other constants are loads from a table (Constants) behind an opaque pointer: a
//    v128.const costs V8 up to four instructions (two immediates, vmovq, vpinsrq) wherever it
//    is used, a load one.
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"
#include "kernels/philox.h"
#include "kernels/wasmsimd_util.h"

namespace attn::kernels {

namespace {

#define ATTN_INLINE __attribute__((always_inline)) inline

v128_t splat_u(std::uint32_t x) { return wasm_i32x4_splat(static_cast<int>(x)); }

// x, as a value the compiler cannot see through (no instruction is emitted).
ATTN_INLINE v128_t opaque(v128_t x) {
  __asm__ volatile("" : "+r"(x));
  return x;
}

// ---- the constants, as a table in memory ---------------------------------------------------
struct alignas(16) Bits {
  std::uint32_t w[4];
};
struct alignas(16) Floats {
  float f[4];
};
constexpr Bits bits4(std::uint32_t x) { return {{x, x, x, x}}; }
constexpr Floats floats4(float x) { return {{x, x, x, x}}; }

struct Constants {
  Bits m0, m1;  // Philox multipliers
  Bits log_offset, mantissa, sqrt_half_bits, exponent_bias, two_pow_24, one_bits, sign;
  Floats one, two, half, minus_two, two_pow_minus_24;
  Floats lg1, lg2, lg3, lg4, ln2_hi, ln2_lo;
  Floats half_pi, three_quarter_pi, sin1, sin2, sin3;
  Bits iota;  // 0, 1, 2, 3
};
constexpr Constants kConstants = {bits4(kPhiloxM0),     bits4(kPhiloxM1),
                                  bits4(kLogOffset),    bits4(0x007fffffU),
                                  bits4(kSqrtHalfBits), bits4(127),
                                  bits4(0x01000000U),   bits4(kOne),
                                  bits4(kSign),         floats4(1.0f),
                                  floats4(2.0f),        floats4(0.5f),
                                  floats4(-2.0f),       floats4(kTwoPowMinus24),
                                  floats4(kLg1),        floats4(kLg2),
                                  floats4(kLg3),        floats4(kLg4),
                                  floats4(kLn2Hi),      floats4(kLn2Lo),
                                  floats4(kHalfPi),     floats4(kThreeQuarterPi),
                                  floats4(kSin1),       floats4(kSin2),
                                  floats4(kSin3),       {{0, 1, 2, 3}}};

// The table through a pointer the compiler cannot see through, so its loads stay loads.
ATTN_INLINE const Constants* constants() {
  const Constants* p = &kConstants;
  __asm__ volatile("" : "+r"(p));
  return p;
}
ATTN_INLINE v128_t load(const Bits& b) { return wasm_v128_load(b.w); }
ATTN_INLINE v128_t load(const Floats& f) { return wasm_v128_load(f.f); }

// ---- Philox4x32-10 on four counters per vector ----------------------------------------------

// The round keys of Philox4x32-10 under (k0, k1), splatted: keys[2 r] and keys[2 r + 1] are
// the two words of round r's key.
void round_keys(std::uint32_t k0, std::uint32_t k1, v128_t* keys /* (2 kPhiloxRounds) */) {
  for (int r = 0; r < kPhiloxRounds; ++r) {
    if (r > 0) {
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    keys[2 * r] = splat_u(k0);
    keys[2 * r + 1] = splat_u(k1);
  }
}

// The counters of blocks b .. b + 3 of stream s, lane l = block b + l: c[w] is counter word w.
ATTN_INLINE void counters(const RandomStream& s, std::uint64_t b, v128_t* c /* (4) */) {
  c[0] = wasm_i32x4_make(static_cast<int>(b), static_cast<int>(b + 1), static_cast<int>(b + 2),
                         static_cast<int>(b + 3));
  c[1] = wasm_i32x4_make(static_cast<int>(b >> 32), static_cast<int>((b + 1) >> 32),
                         static_cast<int>((b + 2) >> 32), static_cast<int>((b + 3) >> 32));
  c[2] = splat_u(s.stream);
  c[3] = splat_u(s.purpose);
}

// Counter word 0 of blocks with low words x .. x + 3 (x + 3 below 2^32).
ATTN_INLINE v128_t low_words(std::uint32_t x, const Constants* k) {
  return wasm_i32x4_add(splat_u(x), load(k->iota));
}

// The high and low 32-bit halves of the 64-bit products a m, lane by lane.
ATTN_INLINE void mul_hi_lo(v128_t a, v128_t m, v128_t* hi, v128_t* lo) {
  // 64-bit products of lanes 0, 1 and 2, 3; hi = their odd 32-bit halves, lo = the even
  const v128_t pl = wasm_u64x2_extmul_low_u32x4(a, m), ph = wasm_u64x2_extmul_high_u32x4(a, m);
  *hi = wasm_i32x4_shuffle(pl, ph, 1, 3, 5, 7);
  *lo = wasm_i32x4_shuffle(pl, ph, 0, 2, 4, 6);
}

// Rounds first .. kPhiloxRounds - 1 of philox4x32_10 on `ways` groups of four counters at once:
// c[4 j + w] is word w of group j. The groups' rounds interleave, so their long dependency
// chains overlap.
template <int kWays>
ATTN_INLINE void philox_rounds(v128_t* c, const v128_t* keys, const Constants* k, int first) {
  for (int r = first; r < kPhiloxRounds; ++r) {
    const v128_t m0 = opaque(load(k->m0)), m1 = opaque(load(k->m1));
    const v128_t key0 = keys[2 * r], key1 = keys[2 * r + 1];
    for (int j = 0; j < kWays; ++j) {
      v128_t* w = c + 4 * j;
      v128_t hi0, lo0, hi1, lo1;
      mul_hi_lo(w[0], m0, &hi0, &lo0);
      mul_hi_lo(w[2], m1, &hi1, &lo1);
      w[0] = wasm_v128_xor(wasm_v128_xor(hi1, w[1]), key0);
      w[1] = lo1;
      w[2] = wasm_v128_xor(wasm_v128_xor(hi0, w[3]), key1);
      w[3] = lo0;
    }
  }
}

// The blocks of one stream below 2^32 blocks share counter words 1, 2 and 3 (0, the stream,
// the purpose), so in rounds 0 and 1 half the products are the same in every lane: they are
// made once per stream, here, and splatted.
struct SharedRounds {
  v128_t x0;  // round 0: word 2 = hi(M0 c0) ^ this
  v128_t x1;  // round 1: word 0 = hi(M1 w2) ^ this
  v128_t x2;  // round 1: word 2 = w3 ^ this
  v128_t w3;  // round 1: word 3
};

SharedRounds shared_rounds(const RandomStream& s, std::uint32_t c1) {
  const std::uint64_t p1 = std::uint64_t{kPhiloxM1} * s.stream;  // round 0
  const auto a = static_cast<std::uint32_t>(p1 >> 32) ^ c1 ^ s.k0;
  const auto b = static_cast<std::uint32_t>(p1);
  const std::uint64_t p0 = std::uint64_t{kPhiloxM0} * a;  // round 1
  SharedRounds r;
  r.x0 = splat_u(s.purpose ^ s.k1);
  r.x1 = splat_u(b ^ (s.k0 + kPhiloxW0));
  r.x2 = splat_u(static_cast<std::uint32_t>(p0 >> 32) ^ (s.k1 + kPhiloxW1));
  r.w3 = splat_u(static_cast<std::uint32_t>(p0));
  return r;
}

// philox4x32_10 on `ways` groups of four blocks whose counter words 1 to 3 are those of sh:
// c[4 j] holds group j's word 0 on entry; c[4 j + w] is its word w on return.
template <int kWays>
ATTN_INLINE void philox_shared(v128_t* c, const SharedRounds& sh, const v128_t* keys,
                               const Constants* k) {
  const v128_t m0 = opaque(load(k->m0)), m1 = opaque(load(k->m1));
  for (int j = 0; j < kWays; ++j) {
    v128_t* w = c + 4 * j;
    v128_t hi, lo;
    mul_hi_lo(w[0], m0, &hi, &lo);  // round 0
    const v128_t w2 = wasm_v128_xor(hi, sh.x0), w3 = lo;
    mul_hi_lo(w2, m1, &hi, &lo);  // round 1
    w[0] = wasm_v128_xor(hi, sh.x1);
    w[1] = lo;
    w[2] = wasm_v128_xor(w3, sh.x2);
    w[3] = sh.w3;
  }
  philox_rounds<kWays>(c, keys, k, 2);
}

// ---- Box–Muller, lane-wise ------------------------------------------------------------------

// log_normal_positive on each lane.
ATTN_INLINE v128_t log_lanes(v128_t x, const Constants* k) {
  const v128_t ix = wasm_i32x4_add(x, load(k->log_offset));
  const v128_t dk =
      wasm_f32x4_convert_i32x4(wasm_i32x4_sub(wasm_u32x4_shr(ix, 23), load(k->exponent_bias)));
  v128_t f = wasm_i32x4_add(wasm_v128_and(ix, load(k->mantissa)), load(k->sqrt_half_bits));
  f = wasm_f32x4_sub(f, load(k->one));
  const v128_t s = wasm_f32x4_div(f, wasm_f32x4_add(f, load(k->two)));
  const v128_t z = wasm_f32x4_mul(s, s);
  const v128_t w = wasm_f32x4_mul(z, z);
  const v128_t t1 = wasm_f32x4_mul(w, madd(load(k->lg2), w, load(k->lg4)));
  const v128_t t2 = wasm_f32x4_mul(z, madd(load(k->lg1), w, load(k->lg3)));
  const v128_t r = wasm_f32x4_add(t2, t1);
  const v128_t hfsq = wasm_f32x4_mul(wasm_f32x4_mul(f, f), load(k->half));
  v128_t y = wasm_f32x4_mul(s, wasm_f32x4_add(hfsq, r));
  y = madd(y, dk, load(k->ln2_lo));
  y = wasm_f32x4_sub(y, hfsq);
  y = wasm_f32x4_add(y, f);
  return madd(y, dk, load(k->ln2_hi));
}

// box_muller on each lane: words (u, v) give the draws *first and *second.
ATTN_INLINE void box_muller_lanes(v128_t u, v128_t v, v128_t* first, v128_t* second,
                                  const Constants* k) {
  const v128_t m = wasm_i32x4_sub(load(k->two_pow_24), wasm_u32x4_shr(u, 8));
  const v128_t u1 = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(m), load(k->two_pow_minus_24));
  const v128_t big_l = wasm_f32x4_mul(log_lanes(u1, k), load(k->minus_two));
  const v128_t r = wasm_f32x4_sqrt(big_l);
  v128_t a = wasm_v128_or(load(k->one_bits), wasm_v128_and(v, load(k->mantissa)));
  a = wasm_f32x4_sub(wasm_f32x4_mul(a, load(k->half_pi)), load(k->three_quarter_pi));
  const v128_t z = wasm_f32x4_mul(a, a);
  v128_t sa = madd(load(k->sin2), load(k->sin1), z);  // sin_small
  sa = madd(load(k->sin3), sa, z);
  sa = wasm_f32x4_mul(sa, z);
  sa = wasm_f32x4_mul(sa, a);
  sa = wasm_f32x4_add(sa, a);
  const v128_t zs = wasm_f32x4_mul(r, sa);
  v128_t zc = wasm_f32x4_sqrt(wasm_f32x4_sub(big_l, wasm_f32x4_mul(zs, zs)));
  zc = wasm_v128_xor(zc, wasm_v128_and(v, load(k->sign)));
  const v128_t swap = wasm_i32x4_shr(wasm_i32x4_shl(v, 1), 31);  // bit 30 -> all ones
  const v128_t t = wasm_v128_and(wasm_v128_xor(zc, zs), swap);
  *first = wasm_v128_xor(zc, t);
  *second = wasm_v128_xor(zs, t);
}

// The draws of one group (blocks b .. b + 3 in lanes 0..3) from its Philox words c[0..3]:
// d[w] lane l is draw 4 (b + l) + w.
ATTN_INLINE void group_draws(const v128_t* c, v128_t* d /* (4) */, const Constants* k) {
  box_muller_lanes(c[0], c[1], &d[0], &d[1], k);
  box_muller_lanes(c[2], c[3], &d[2], &d[3], k);
}

// 4 x 4 transpose: out[l] lane w = in[w] lane l.
ATTN_INLINE void transpose(const v128_t* in, v128_t* out) {
  const v128_t t0 = wasm_i32x4_shuffle(in[0], in[1], 0, 4, 1, 5),
               t1 = wasm_i32x4_shuffle(in[0], in[1], 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(in[2], in[3], 0, 4, 1, 5),
               t3 = wasm_i32x4_shuffle(in[2], in[3], 2, 6, 3, 7);
  out[0] = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  out[1] = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  out[2] = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  out[3] = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

// Draws 4 block0 .. 4 block0 + 16 kWays - 1 (kWays groups of four blocks) into dst.
// noinline: each shape is a function of its own (inlined into one, the one-group path ran much
// slower).
template <int kWays>
__attribute__((noinline)) void normal_groups(const RandomStream& s, const v128_t* keys,
                                             std::uint64_t block0, float* dst) {
  const Constants* k = constants();
  v128_t c[4 * kWays];
  const auto low = static_cast<std::uint32_t>(block0);
  if (low <= 0xFFFFFFFFU - (4 * kWays - 1)) {  // word 1 is the same in all the blocks
    const SharedRounds sh = shared_rounds(s, static_cast<std::uint32_t>(block0 >> 32));
    for (int j = 0; j < kWays; ++j) c[4 * j] = low_words(low + 4 * j, k);
    philox_shared<kWays>(c, sh, keys, k);
  } else {
    for (int j = 0; j < kWays; ++j) counters(s, block0 + 4 * j, c + 4 * j);
    philox_rounds<kWays>(c, keys, k, 0);
  }
  for (int j = 0; j < kWays; ++j) {
    v128_t d[4], t[4];
    group_draws(c + 4 * j, d, k);
    transpose(d, t);  // lane l of d holds draws 4 (b + l) + 0..3: to draw order
    float* o = dst + 16 * j;
    for (int l = 0; l < 4; ++l) wasm_v128_store(o + 4 * l, t[l]);
  }
}

#undef ATTN_INLINE

}  // namespace

// Standard normal draws first .. first+count-1 of stream s.
void fill_normal_wasmsimd(const RandomStream& s, std::uint64_t first, float* out,
                          std::size_t count) {
  constexpr int kWays = 2;
  v128_t keys[2 * kPhiloxRounds];
  round_keys(s.k0, s.k1, keys);
  const std::uint64_t last = first + count;  // one past the last draw
  std::uint64_t base = first / 4 * 4;        // first draw of the current block
  while (base < last) {
    if (base >= first && base + 16 * kWays <= last) {  // kWays whole groups: straight to out
      normal_groups<kWays>(s, keys, base / 4, out + (base - first));
      base += 16 * kWays;
    } else {  // one group, at either end: only the draws in range
      alignas(16) float group[16];
      normal_groups<1>(s, keys, base / 4, group);
      for (std::uint64_t i = base; i < base + 16; ++i)
        if (i >= first && i < last) out[i - first] = group[i - base];
      base += 16;
    }
  }
}

// q·k with q = draws 0 .. d-1 and k = draws d .. 2d-1 of s. For d % 4 == 0, q's entries 4j..4j+3
// are block j and k's are block d/4 + j: a group of q blocks and the matching group of k blocks
// go through Philox together, their draws are multiplied lane by lane, and the products, turned
// to dot_rows' layout (lane w sums q[4j+w] k[4j+w] over j in order), are added block by block.
float normal_pair_dot_wasmsimd(const RandomStream& s, int d, float* scratch) {
  if (d % 4 != 0) {  // k's entries straddle blocks differently: draw, then dot_rows
    fill_normal_wasmsimd(s, 0, scratch, 2 * static_cast<std::size_t>(d));
    float dot;
    dot_rows_wasmsimd(scratch, scratch + d, &dot, 1, d);
    return dot;
  }
  const Constants* k = constants();
  v128_t keys[2 * kPhiloxRounds];
  round_keys(s.k0, s.k1, keys);
  const SharedRounds sh = shared_rounds(s, 0);
  const int blocks = d / 4;  // of q, and of k
  v128_t acc = wasm_f32x4_splat(0.0f);
  for (int b = 0; b < blocks; b += 4) {
    v128_t c[8];  // q's group, then k's
    c[0] = low_words(static_cast<std::uint32_t>(b), k);
    c[4] = low_words(static_cast<std::uint32_t>(blocks + b), k);
    philox_shared<2>(c, sh, keys, k);
    v128_t q[4], kd[4], p[4], t[4];
    group_draws(c, q, k);
    group_draws(c + 4, kd, k);
    for (int w = 0; w < 4; ++w) p[w] = wasm_f32x4_mul(q[w], kd[w]);  // lane l: block b + l
    transpose(p, t);  // t[l]: the four products of block b + l, in lanes w
    const int used = blocks - b < 4 ? blocks - b : 4;
    for (int l = 0; l < used; ++l) acc = wasm_f32x4_add(acc, t[l]);
  }
  return hsum(acc);
}

}  // namespace attn::kernels
