// Counter-based normal draws, wasm SIMD128: the scalar Box–Muller of random_scalar.cpp on four
// lanes at once (the hash, log, sqrt, sin and cos all vectorised). Each lane performs exactly
// the scalar float operations, in the same order, so the draws are bit-identical.
#include <wasm_simd128.h>

#include "kernels/kernels.h"
#include "kernels/math_approx.h"

namespace attn::kernels {

static inline v128_t splat_u(std::uint32_t x) { return wasm_i32x4_splat(static_cast<int>(x)); }
static inline v128_t splat_f(float x) { return wasm_f32x4_splat(x); }

static inline v128_t lowbias32_x4(v128_t x) {
  x = wasm_v128_xor(x, wasm_u32x4_shr(x, 16));
  x = wasm_i32x4_mul(x, splat_u(kHashMul1));
  x = wasm_v128_xor(x, wasm_u32x4_shr(x, 15));
  x = wasm_i32x4_mul(x, splat_u(kHashMul2));
  return wasm_v128_xor(x, wasm_u32x4_shr(x, 16));
}

// Blocks are generated `ways` at a time (4 in the main loop, 1 at the ends), step by step
// across the blocks, so that the long dependency chains of independent blocks interleave in
// the instruction stream: twice the speed of one block at a time.
#define ATTN_INLINE __attribute__((always_inline)) inline
constexpr int kWays = 4;
#define EACH(j) for (int j = 0; j < ways; ++j)

// The range reduction both logs share: x = 2^dk (1 + f), s = f / (2 + f), z = s².
static ATTN_INLINE void log_reduce_xw(int ways, const v128_t* x, v128_t* dk, v128_t* f,
                                      v128_t* s, v128_t* z) {
  EACH(j) {
    const v128_t ix = wasm_i32x4_add(x[j], splat_u(kLogOffset));
    dk[j] = wasm_f32x4_convert_i32x4(wasm_i32x4_sub(wasm_u32x4_shr(ix, 23), wasm_i32x4_splat(127)));
    f[j] = wasm_i32x4_add(wasm_v128_and(ix, splat_u(0x007fffffU)), splat_u(kSqrtHalfBits));
  }
  EACH(j) f[j] = wasm_f32x4_sub(f[j], splat_f(1.0f));
  EACH(j) s[j] = wasm_f32x4_div(f[j], wasm_f32x4_add(f[j], splat_f(2.0f)));
  EACH(j) z[j] = wasm_f32x4_mul(s[j], s[j]);
}

// log_normal_positive, lane-wise, on `ways` vectors.
static ATTN_INLINE void log_xw(int ways, const v128_t* x, v128_t* out) {
  v128_t f[kWays], s[kWays], z[kWays], w[kWays], r[kWays], hfsq[kWays], dk[kWays], y[kWays];
  log_reduce_xw(ways, x, dk, f, s, z);
  EACH(j) w[j] = wasm_f32x4_mul(z[j], z[j]);
  EACH(j) {
    const v128_t t1 = wasm_f32x4_mul(w[j], wasm_f32x4_add(splat_f(kLg2), wasm_f32x4_mul(w[j], splat_f(kLg4))));
    const v128_t t2 = wasm_f32x4_mul(z[j], wasm_f32x4_add(splat_f(kLg1), wasm_f32x4_mul(w[j], splat_f(kLg3))));
    r[j] = wasm_f32x4_add(t2, t1);
  }
  EACH(j) hfsq[j] = wasm_f32x4_mul(wasm_f32x4_mul(f[j], f[j]), splat_f(0.5f));
  EACH(j) y[j] = wasm_f32x4_mul(s[j], wasm_f32x4_add(hfsq[j], r[j]));
  EACH(j) y[j] = wasm_f32x4_add(y[j], wasm_f32x4_mul(dk[j], splat_f(kLn2Lo)));
  EACH(j) y[j] = wasm_f32x4_sub(y[j], hfsq[j]);
  EACH(j) y[j] = wasm_f32x4_add(y[j], f[j]);
  EACH(j) out[j] = wasm_f32x4_add(y[j], wasm_f32x4_mul(dk[j], splat_f(kLn2Hi)));
}

// box_muller, lane-wise, on `ways` vectors of hashed pair counters x.
static ATTN_INLINE void box_muller_xw(int ways, const v128_t* x, const v128_t* k1,
                                      v128_t* first, v128_t* second) {
  v128_t h[kWays], u1[kWays], big_l[kWays], r[kWays], a[kWays], z[kWays], sa[kWays];
  EACH(j) h[j] = lowbias32_x4(wasm_i32x4_add(x[j], k1[j]));
  EACH(j) u1[j] = wasm_f32x4_sub(splat_f(2.0f), wasm_v128_or(splat_u(kOne), wasm_u32x4_shr(h[j], 9)));
  log_xw(ways, u1, big_l);
  EACH(j) big_l[j] = wasm_f32x4_mul(big_l[j], splat_f(-2.0f));
  EACH(j) r[j] = wasm_f32x4_sqrt(big_l[j]);
  EACH(j) {
    a[j] = wasm_v128_or(splat_u(kOne), wasm_v128_and(x[j], splat_u(0x007fffffU)));
    a[j] = wasm_f32x4_sub(wasm_f32x4_mul(a[j], splat_f(kHalfPi)), splat_f(kThreeQuarterPi));
    z[j] = wasm_f32x4_mul(a[j], a[j]);
  }
  EACH(j) sa[j] = wasm_f32x4_add(wasm_f32x4_mul(splat_f(kSin1), z[j]), splat_f(kSin2));  // sin_small
  EACH(j) sa[j] = wasm_f32x4_add(wasm_f32x4_mul(sa[j], z[j]), splat_f(kSin3));
  EACH(j) sa[j] = wasm_f32x4_mul(sa[j], z[j]);
  EACH(j) sa[j] = wasm_f32x4_mul(sa[j], a[j]);
  EACH(j) sa[j] = wasm_f32x4_add(sa[j], a[j]);
  EACH(j) {
    const v128_t zs = wasm_f32x4_mul(r[j], sa[j]);
    v128_t zc = wasm_f32x4_sqrt(wasm_f32x4_sub(big_l[j], wasm_f32x4_mul(zs, zs)));
    zc = wasm_v128_xor(zc, wasm_v128_and(x[j], splat_u(kSign)));
    const v128_t swap = wasm_i32x4_shr(wasm_i32x4_shl(x[j], 1), 31);  // bit 30 -> all ones
    const v128_t t = wasm_v128_and(wasm_v128_xor(zc, zs), swap);
    first[j] = wasm_v128_xor(zc, t);
    second[j] = wasm_v128_xor(zs, t);
  }
}

// Blocks block0 .. block0+ways-1 (draws 8 block0 ..) into dst.
static ATTN_INLINE void normal_blocks(int ways, std::uint64_t block0, v128_t k0, std::uint32_t k1,
                                      float* dst) {
  const v128_t lanes = wasm_i32x4_make(0, 1, 2, 3);
  v128_t x[kWays], kb[kWays], c[kWays], s[kWays];
  EACH(j) {
    const std::uint64_t pair = (block0 + j) * 4;  // pairs 4b .. 4b+3
    kb[j] = splat_u(hi_k1(k1, pair));
    x[j] = wasm_v128_xor(wasm_i32x4_add(splat_u(static_cast<std::uint32_t>(pair)), lanes), k0);
  }
  EACH(j) x[j] = lowbias32_x4(x[j]);
  box_muller_xw(ways, x, kb, c, s);
  EACH(j) {
    wasm_v128_store(dst + 8 * j, c[j]);      // draws 8b .. 8b+3
    wasm_v128_store(dst + 8 * j + 4, s[j]);  // draws 8b+4 .. 8b+7
  }
}

// The two shapes get a function each: inlined into one, the one-block path ran 5x slower.
__attribute__((noinline)) static void normal_blocks_4(std::uint64_t block0, v128_t k0,
                                                      std::uint32_t k1, float* dst) {
  normal_blocks(kWays, block0, k0, k1, dst);
}
__attribute__((noinline)) static void normal_blocks_1(std::uint64_t block0, v128_t k0,
                                                      std::uint32_t k1, float* dst) {
  normal_blocks(1, block0, k0, k1, dst);
}

// Standard normal draws first .. first+count-1 of the stream named by key.
void fill_normal_wasmsimd(std::uint64_t key, std::uint64_t first, float* out,
                          std::size_t count) {
  if (count == 0) return;
  const std::uint32_t k1 = static_cast<std::uint32_t>(key >> 32);
  const v128_t k0 = splat_u(static_cast<std::uint32_t>(key));
  const std::uint64_t last = first + count;  // one past the last draw
  std::uint64_t base = first / 8 * 8;         // first draw of the current block
  while (base < last) {
    if (base >= first && base + 8 * kWays <= last) {  // kWays whole blocks: straight to out
      normal_blocks_4(base / 8, k0, k1, out + (base - first));
      base += 8 * kWays;
    } else {  // one block, at either end: only the draws in range
      alignas(16) float block[8];
      normal_blocks_1(base / 8, k0, k1, block);
      for (std::uint64_t i = base; i < base + 8; ++i)
        if (i >= first && i < last) out[i - first] = block[i - base];
      base += 8;
    }
  }
}

// ---- q·k of the two draws of each pair (normal_pair_dot) ----------------------------------

// log_short, lane-wise, on `ways` vectors.
static ATTN_INLINE void log_short_xw(int ways, const v128_t* x, v128_t* out) {
  v128_t f[kWays], s[kWays], z[kWays], r[kWays], dk[kWays];
  log_reduce_xw(ways, x, dk, f, s, z);
  EACH(j) r[j] = wasm_f32x4_add(wasm_f32x4_mul(splat_f(kLg4), z[j]), splat_f(kLg3));
  EACH(j) r[j] = wasm_f32x4_add(wasm_f32x4_mul(r[j], z[j]), splat_f(kLg2));
  EACH(j) r[j] = wasm_f32x4_add(wasm_f32x4_mul(r[j], z[j]), splat_f(kLg1));
  EACH(j) r[j] = wasm_f32x4_mul(r[j], z[j]);
  EACH(j) r[j] = wasm_f32x4_mul(wasm_f32x4_add(r[j], splat_f(2.0f)), s[j]);
  EACH(j) out[j] = wasm_f32x4_add(r[j], wasm_f32x4_mul(dk[j], splat_f(kLn2)));
}

// box_muller_product, lane-wise, on `ways` vectors of hashed pair counters x.
static ATTN_INLINE void pair_products_xw(int ways, const v128_t* x, v128_t k1, v128_t* prod) {
  v128_t h[kWays], u1[kWays], lu[kWays], b[kWays], z[kWays], sb[kWays];
  EACH(j) h[j] = lowbias32_x4(wasm_i32x4_add(x[j], k1));
  EACH(j) u1[j] = wasm_f32x4_sub(splat_f(2.0f), wasm_v128_or(splat_u(kOne), wasm_u32x4_shr(h[j], 9)));
  log_short_xw(ways, u1, lu);
  EACH(j) {
    b[j] = wasm_v128_or(splat_u(kOne), wasm_v128_and(x[j], splat_u(0x007fffffU)));
    b[j] = wasm_f32x4_sub(wasm_f32x4_mul(b[j], splat_f(kPi)), splat_f(kThreeHalfPi));
    z[j] = wasm_f32x4_mul(b[j], b[j]);
  }
  EACH(j) sb[j] = wasm_f32x4_add(wasm_f32x4_mul(splat_f(kSinW1), z[j]), splat_f(kSinW2));  // sin_wide
  EACH(j) sb[j] = wasm_f32x4_add(wasm_f32x4_mul(sb[j], z[j]), splat_f(kSinW3));
  EACH(j) sb[j] = wasm_f32x4_add(wasm_f32x4_mul(sb[j], z[j]), splat_f(kSinW4));
  EACH(j) sb[j] = wasm_f32x4_mul(sb[j], z[j]);
  EACH(j) sb[j] = wasm_f32x4_mul(sb[j], b[j]);
  EACH(j) sb[j] = wasm_f32x4_add(sb[j], b[j]);
  EACH(j) {  // v128.andnot(a, b) = a & ~b: the sign bit where bit 31 of x is clear
    const v128_t p = wasm_f32x4_mul(lu[j], sb[j]);
    prod[j] = wasm_v128_xor(p, wasm_v128_andnot(splat_u(kSign), x[j]));
  }
}

// The products of `ways` blocks of 4 pairs: lane l of prod[j] is the pair numbered by lane l
// of pairs[j].
static ATTN_INLINE void pair_products(int ways, const v128_t* pairs, v128_t k0, v128_t k1,
                                      v128_t* prod) {
  v128_t x[kWays];
  EACH(j) x[j] = lowbias32_x4(wasm_v128_xor(pairs[j], k0));
  pair_products_xw(ways, x, k1, prod);
}

// acc plus the products q_i k_i for i = 0 .. 16 groups - 1, kWays blocks of 4 at a time, block
// after block (the lane order of the scalar reference).
__attribute__((noinline)) static v128_t add_pair_products_4(int groups, v128_t k0, v128_t k1,
                                                            v128_t acc) {
  const v128_t step = splat_u(4 * kWays * kPairStride);
  v128_t pairs[kWays];  // the pair counters i kPairStride of the next kWays blocks
  for (int j = 0; j < kWays; ++j)
    pairs[j] = wasm_i32x4_mul(wasm_i32x4_make(4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3), splat_u(kPairStride));
  for (int g = 0; g < groups; ++g) {
    v128_t prod[kWays];
    pair_products(kWays, pairs, k0, k1, prod);
    for (int j = 0; j < kWays; ++j) acc = wasm_f32x4_add(acc, prod[j]);
    for (int j = 0; j < kWays; ++j) pairs[j] = wasm_i32x4_add(pairs[j], step);
  }
  return acc;
}
// The products q_i k_i for i = i0 .. i0+3.
__attribute__((noinline)) static v128_t pair_products_1(int i0, v128_t k0, v128_t k1) {
  const v128_t i = wasm_i32x4_add(wasm_i32x4_splat(i0), wasm_i32x4_make(0, 1, 2, 3));
  const v128_t pairs = wasm_i32x4_mul(i, splat_u(kPairStride));
  v128_t prod;
  pair_products(1, &pairs, k0, k1, &prod);
  return prod;
}

// q·k of the two draws of pair counters i kPairStride, i = 0 .. n-1 (kernels.h), summed in the
// order of normal_pair_dot_scalar.
float normal_pair_dot_wasmsimd(std::uint64_t key, int n) {
  const v128_t k0 = splat_u(static_cast<std::uint32_t>(key));
  const v128_t k1 = splat_u(static_cast<std::uint32_t>(key >> 32));
  v128_t acc = wasm_f32x4_splat(0.0f);  // lane l: the terms i = 4j + l
  const int groups = n / (4 * kWays);
  if (groups > 0) acc = add_pair_products_4(groups, k0, k1, acc);
  int p = 4 * kWays * groups;
  for (; p + 4 <= n; p += 4) acc = wasm_f32x4_add(acc, pair_products_1(p, k0, k1));
  float sum = (wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1)) +
              (wasm_f32x4_extract_lane(acc, 2) + wasm_f32x4_extract_lane(acc, 3));
  if (p < n) {  // the last n % 4 terms, one by one
    alignas(16) float last[4];
    wasm_v128_store(last, pair_products_1(p, k0, k1));
    for (int l = 0; p + l < n; ++l) sum += last[l];
  }
  return sum;
}

#undef EACH
#undef ATTN_INLINE

}  // namespace attn::kernels
