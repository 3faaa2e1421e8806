// Normal draws from Philox4x32-10, wasm SIMD128: four consecutive Philox blocks at a time, one
// per lane, then the scalar Box–Muller of random_scalar.cpp on four lanes at once (the log,
// sqrt and sin all vectorised). The Philox words are integers and each lane performs exactly
// the scalar float operations, in the same order, so the draws are bit-identical.
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"
#include "kernels/philox.h"

namespace attn::kernels {

static inline v128_t splat_u(std::uint32_t x) { return wasm_i32x4_splat(static_cast<int>(x)); }
static inline v128_t splat_f(float x) { return wasm_f32x4_splat(x); }

// Groups of four blocks are generated `ways` at a time (kWays in the main loop, 1 at the ends),
// step by step across the groups, so that the long dependency chains of independent groups
// interleave in the instruction stream.
#define ATTN_INLINE __attribute__((always_inline)) inline
constexpr int kWays = 2;
#define EACH(j) for (int j = 0; j < ways; ++j)

// philox4x32_10 on four counters per vector: c[4 j + w] is word w of the counters of group j.
static ATTN_INLINE void philox_xw(int ways, v128_t* c, std::uint32_t k0, std::uint32_t k1) {
  const v128_t m0 = splat_u(kPhiloxM0), m1 = splat_u(kPhiloxM1);
  for (int r = 0; r < kPhiloxRounds; ++r) {
    if (r > 0) {
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    const v128_t key0 = splat_u(k0), key1 = splat_u(k1);
    EACH(j) {
      v128_t* w = c + 4 * j;
      // 64-bit products of lanes 0, 1 and 2, 3; hi = their odd 32-bit halves, lo = the even
      const v128_t p0l = wasm_u64x2_extmul_low_u32x4(w[0], m0),
                   p0h = wasm_u64x2_extmul_high_u32x4(w[0], m0);
      const v128_t p1l = wasm_u64x2_extmul_low_u32x4(w[2], m1),
                   p1h = wasm_u64x2_extmul_high_u32x4(w[2], m1);
      const v128_t hi0 = wasm_i32x4_shuffle(p0l, p0h, 1, 3, 5, 7),
                   lo0 = wasm_i32x4_shuffle(p0l, p0h, 0, 2, 4, 6);
      const v128_t hi1 = wasm_i32x4_shuffle(p1l, p1h, 1, 3, 5, 7),
                   lo1 = wasm_i32x4_shuffle(p1l, p1h, 0, 2, 4, 6);
      const v128_t n0 = wasm_v128_xor(wasm_v128_xor(hi1, w[1]), key0);
      const v128_t n2 = wasm_v128_xor(wasm_v128_xor(hi0, w[3]), key1);
      w[0] = n0;
      w[1] = lo1;
      w[2] = n2;
      w[3] = lo0;
    }
  }
}

// log_normal_positive, lane-wise, on `ways` vectors.
static ATTN_INLINE void log_xw(int ways, const v128_t* x, v128_t* out) {
  v128_t f[2 * kWays], s[2 * kWays], z[2 * kWays], w[2 * kWays], r[2 * kWays], hfsq[2 * kWays],
      dk[2 * kWays], y[2 * kWays];
  EACH(j) {
    const v128_t ix = wasm_i32x4_add(x[j], splat_u(kLogOffset));
    dk[j] = wasm_f32x4_convert_i32x4(wasm_i32x4_sub(wasm_u32x4_shr(ix, 23), wasm_i32x4_splat(127)));
    f[j] = wasm_i32x4_add(wasm_v128_and(ix, splat_u(0x007fffffU)), splat_u(kSqrtHalfBits));
  }
  EACH(j) f[j] = wasm_f32x4_sub(f[j], splat_f(1.0f));
  EACH(j) s[j] = wasm_f32x4_div(f[j], wasm_f32x4_add(f[j], splat_f(2.0f)));
  EACH(j) z[j] = wasm_f32x4_mul(s[j], s[j]);
  EACH(j) w[j] = wasm_f32x4_mul(z[j], z[j]);
  EACH(j) {
    const v128_t t1 =
        wasm_f32x4_mul(w[j], wasm_f32x4_add(splat_f(kLg2), wasm_f32x4_mul(w[j], splat_f(kLg4))));
    const v128_t t2 =
        wasm_f32x4_mul(z[j], wasm_f32x4_add(splat_f(kLg1), wasm_f32x4_mul(w[j], splat_f(kLg3))));
    r[j] = wasm_f32x4_add(t2, t1);
  }
  EACH(j) hfsq[j] = wasm_f32x4_mul(wasm_f32x4_mul(f[j], f[j]), splat_f(0.5f));
  EACH(j) y[j] = wasm_f32x4_mul(s[j], wasm_f32x4_add(hfsq[j], r[j]));
  EACH(j) y[j] = wasm_f32x4_add(y[j], wasm_f32x4_mul(dk[j], splat_f(kLn2Lo)));
  EACH(j) y[j] = wasm_f32x4_sub(y[j], hfsq[j]);
  EACH(j) y[j] = wasm_f32x4_add(y[j], f[j]);
  EACH(j) out[j] = wasm_f32x4_add(y[j], wasm_f32x4_mul(dk[j], splat_f(kLn2Hi)));
}

// box_muller, lane-wise, on `ways` vectors of word pairs (u, v).
static ATTN_INLINE void box_muller_xw(int ways, const v128_t* u, const v128_t* v, v128_t* first,
                                      v128_t* second) {
  v128_t u1[2 * kWays], big_l[2 * kWays], r[2 * kWays], a[2 * kWays], z[2 * kWays], sa[2 * kWays];
  EACH(j) {
    const v128_t m = wasm_i32x4_sub(splat_u(0x01000000U), wasm_u32x4_shr(u[j], 8));
    u1[j] = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(m), splat_f(kTwoPowMinus24));
  }
  log_xw(ways, u1, big_l);
  EACH(j) big_l[j] = wasm_f32x4_mul(big_l[j], splat_f(-2.0f));
  EACH(j) r[j] = wasm_f32x4_sqrt(big_l[j]);
  EACH(j) {
    a[j] = wasm_v128_or(splat_u(kOne), wasm_v128_and(v[j], splat_u(0x007fffffU)));
    a[j] = wasm_f32x4_sub(wasm_f32x4_mul(a[j], splat_f(kHalfPi)), splat_f(kThreeQuarterPi));
    z[j] = wasm_f32x4_mul(a[j], a[j]);
  }
  EACH(j)
  sa[j] = wasm_f32x4_add(wasm_f32x4_mul(splat_f(kSin1), z[j]), splat_f(kSin2));  // sin_small
  EACH(j) sa[j] = wasm_f32x4_add(wasm_f32x4_mul(sa[j], z[j]), splat_f(kSin3));
  EACH(j) sa[j] = wasm_f32x4_mul(sa[j], z[j]);
  EACH(j) sa[j] = wasm_f32x4_mul(sa[j], a[j]);
  EACH(j) sa[j] = wasm_f32x4_add(sa[j], a[j]);
  EACH(j) {
    const v128_t zs = wasm_f32x4_mul(r[j], sa[j]);
    v128_t zc = wasm_f32x4_sqrt(wasm_f32x4_sub(big_l[j], wasm_f32x4_mul(zs, zs)));
    zc = wasm_v128_xor(zc, wasm_v128_and(v[j], splat_u(kSign)));
    const v128_t swap = wasm_i32x4_shr(wasm_i32x4_shl(v[j], 1), 31);  // bit 30 -> all ones
    const v128_t t = wasm_v128_and(wasm_v128_xor(zc, zs), swap);
    first[j] = wasm_v128_xor(zc, t);
    second[j] = wasm_v128_xor(zs, t);
  }
}

// Draws 4 block0 .. 4 block0 + 16 ways - 1 (groups of four blocks) into dst.
static ATTN_INLINE void normal_groups(int ways, const RandomStream& s, std::uint64_t block0,
                                      float* dst) {
  v128_t c[4 * kWays];
  EACH(j) {
    const std::uint64_t b = block0 + 4 * j;  // lane l: block b + l
    c[4 * j + 0] = wasm_i32x4_make(static_cast<int>(b), static_cast<int>(b + 1),
                                   static_cast<int>(b + 2), static_cast<int>(b + 3));
    c[4 * j + 1] =
        wasm_i32x4_make(static_cast<int>(b >> 32), static_cast<int>((b + 1) >> 32),
                        static_cast<int>((b + 2) >> 32), static_cast<int>((b + 3) >> 32));
    c[4 * j + 2] = splat_u(s.stream);
    c[4 * j + 3] = splat_u(s.purpose);
  }
  philox_xw(ways, c, s.k0, s.k1);
  // pair 2 j + h of the Box–Muller step is (w0, w1) (h = 0) or (w2, w3) (h = 1) of group j
  v128_t u[2 * kWays], v[2 * kWays], first[2 * kWays], second[2 * kWays];
  EACH(j) {
    u[2 * j] = c[4 * j];
    v[2 * j] = c[4 * j + 1];
    u[2 * j + 1] = c[4 * j + 2];
    v[2 * j + 1] = c[4 * j + 3];
  }
  box_muller_xw(2 * ways, u, v, first, second);
  EACH(j) {  // lane l holds draws 4(b + l) + 0..3: transpose the four vectors to draw order
    const v128_t d0 = first[2 * j], d1 = second[2 * j], d2 = first[2 * j + 1],
                 d3 = second[2 * j + 1];
    const v128_t t0 = wasm_i32x4_shuffle(d0, d1, 0, 4, 1, 5),
                 t1 = wasm_i32x4_shuffle(d0, d1, 2, 6, 3, 7);
    const v128_t t2 = wasm_i32x4_shuffle(d2, d3, 0, 4, 1, 5),
                 t3 = wasm_i32x4_shuffle(d2, d3, 2, 6, 3, 7);
    float* o = dst + 16 * j;
    wasm_v128_store(o, wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5));
    wasm_v128_store(o + 4, wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7));
    wasm_v128_store(o + 8, wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5));
    wasm_v128_store(o + 12, wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7));
  }
}

// The two shapes get a function each: inlined into one, the one-group path runs much slower.
__attribute__((noinline)) static void normal_groups_n(const RandomStream& s, std::uint64_t block0,
                                                      float* dst) {
  normal_groups(kWays, s, block0, dst);
}
__attribute__((noinline)) static void normal_groups_1(const RandomStream& s, std::uint64_t block0,
                                                      float* dst) {
  normal_groups(1, s, block0, dst);
}

// Standard normal draws first .. first+count-1 of stream s.
void fill_normal_wasmsimd(const RandomStream& s, std::uint64_t first, float* out,
                          std::size_t count) {
  const std::uint64_t last = first + count;  // one past the last draw
  std::uint64_t base = first / 4 * 4;        // first draw of the current block
  while (base < last) {
    if (base >= first && base + 16 * kWays <= last) {  // kWays whole groups: straight to out
      normal_groups_n(s, base / 4, out + (base - first));
      base += 16 * kWays;
    } else {  // one group, at either end: only the draws in range
      alignas(16) float group[16];
      normal_groups_1(s, base / 4, group);
      for (std::uint64_t i = base; i < base + 16; ++i)
        if (i >= first && i < last) out[i - first] = group[i - base];
      base += 16;
    }
  }
}

#undef EACH
#undef ATTN_INLINE

}  // namespace attn::kernels
