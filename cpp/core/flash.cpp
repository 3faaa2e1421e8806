// Tiled ("flash") attention with an online softmax: see flash.h for the algorithm.
#include "core/flash.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/attention.h"
#include "kernels/kernels.h"

namespace attn {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// ---- the mask, per cell and per tile ---------------------------------------------------------

// Rule on the offset delta = i - j of a cell (causal, window, stride; padding is per key).
bool offset_allowed(const FlashArgs& a, long delta) {
  long dist = delta < 0 ? -delta : delta;
  if (a.causal && delta < 0) return false;
  if (a.window >= 0 && dist > a.window) return false;
  if (a.stride > 0 && dist >= a.stride && dist % a.stride != 0) return false;
  return true;
}

enum class Tile { None, Some, All };  // no cell allowed, some (check each cell), every cell

// floor(x / s) for s > 0 and any sign of x.
long floor_div(long x, long s) { return x >= 0 ? x / s : -((-x + s - 1) / s); }

// Does some delta in [lo, hi] pass the causal, window and stride rules? A tile's offsets
// i - j cover every integer from i0 - (j1 - 1) to (i1 - 1) - j0.
bool some_offset_allowed(const FlashArgs& a, long lo, long hi) {
  if (a.causal) lo = std::max(lo, 0L);
  if (a.window >= 0) {
    lo = std::max(lo, -static_cast<long>(a.window));
    hi = std::min(hi, static_cast<long>(a.window));
  }
  if (lo > hi) return false;
  if (a.stride > 0) {
    long s = a.stride;
    bool near = lo < s && hi > -s;               // meets the local band (-s, s)
    bool multiple = floor_div(hi, s) * s >= lo;  // holds a multiple of s
    return near || multiple;
  }
  return true;
}

bool every_offset_allowed(const FlashArgs& a, long lo, long hi) {
  long far = std::max(lo < 0 ? -lo : lo, hi < 0 ? -hi : hi);
  if (a.causal && lo < 0) return false;
  if (a.window >= 0 && far > a.window) return false;
  if (a.stride > 0 && far >= a.stride) return false;  // the band alone: enough to be sure
  return true;
}

// Query rows r0 .. r1-1 against keys j0 .. j1-1. padded = how many of those keys are padding.
Tile classify(const FlashArgs& a, int r0, int r1, int j0, int j1, int padded) {
  long i0 = static_cast<long>(a.query_offset) + r0, i1 = static_cast<long>(a.query_offset) + r1;
  long lo = i0 - (j1 - 1), hi = (i1 - 1) - j0;
  if (padded == j1 - j0 || !some_offset_allowed(a, lo, hi)) return Tile::None;
  if (padded == 0 && every_offset_allowed(a, lo, hi)) return Tile::All;
  return Tile::Some;
}

// ---- the online softmax of one tile row --------------------------------------------------------

// The running state of one query row: max m, sum l = Σ exp(s - m), and t = Σ exp(s - m)(s - m),
// which gives the entropy at the end: H = log l - t / l.
struct RowState {
  float m = kNegInf;
  float l = 0.0f;
  float t = 0.0f;
};

// Folds one row of a tile into the state. s: bk scaled scores (-inf = blocked), replaced by
// p = exp(s - m_new) (0 where blocked). Returns the factor the row's output must be multiplied
// by before P V is added: exp(m_old - m_new).
float fold_row(RowState& st, float* s, int bk, float* block_max) {
  const float bm = kernels::row_max(s, bk);
  *block_max = bm;
  if (bm == kNegInf) {  // every key of this tile blocked for this query: nothing changes
    std::fill(s, s + bk, 0.0f);
    return 1.0f;
  }
  float m_new = std::max(st.m, bm);
  float rescale = st.l > 0.0f ? std::exp(st.m - m_new) : 0.0f;  // first allowed key: 0
  float tsum;  // Σ p (s - m_new) over the allowed keys
  const float sum =
      kernels::exp_shift_sum(s, bk, m_new, &tsum);  // p = exp(s - m_new), 0 if blocked
  st.t = st.l > 0.0f ? rescale * (st.t + (st.m - m_new) * st.l) + tsum : tsum;
  st.l = rescale * st.l + sum;
  st.m = m_new;
  return rescale;
}

// Where flash_trace records; null for plain flash_attend.
struct Recorder {
  FlashTrace* trace;
  void tile(int c, int i0, int bq, bool skipped) {
    if (!trace) return;
    for (int r = 0; r < bq; r++) trace->skipped.at(c, i0 + r) = skipped ? 1.0f : 0.0f;
  }
  void row(int c, int i, const RowState& st, float block_max, float rescale) {
    if (!trace) return;
    trace->block_max.at(c, i) = block_max;
    trace->running_max.at(c, i) = st.m;
    trace->rescale.at(c, i) = rescale;
    trace->running_sum.at(c, i) = st.l;
  }
  void scores(int i, int j0, const float* s, int bk) {
    if (!trace) return;
    std::copy(s, s + bk, trace->scores.row(i) + j0);
  }
  // A tile row of an unmasked tile, from its raw scores times scale (the floats
  // exp_scores_row computes); returns their max, the tile's block max.
  float scaled_scores(int i, int j0, const float* raw, int bk, float scale) {
    if (!trace) return kNegInf;
    float* out = trace->scores.row(i) + j0;
    for (int j = 0; j < bk; j++) out[j] = raw[j] * scale;
    return kernels::row_max(out, bk);
  }
};

// Folds one row of an unmasked tile into the state, from its raw scores s (bk), which become
// p = exp(s scale - m_new) (kernels::exp_scores_row: scale, max and exponentials in two passes).
// False, with s scaled and the state unchanged, if a scaled score is not finite.
bool fold_raw_row(RowState& st, float* s, int bk, float scale, float* rescale) {
  float m = st.m, sum, tsum;
  if (!kernels::exp_scores_row(s, bk, bk, scale, &m, &sum, &tsum)) return false;
  const float r = st.l > 0.0f ? std::exp(st.m - m) : 0.0f;  // first allowed key: 0
  st.t = st.l > 0.0f ? r * (st.t + (st.m - m) * st.l) + tsum : tsum;
  st.l = r * st.l + sum;
  st.m = m;
  *rescale = r;
  return true;
}

// ---- the tiled pipeline ----------------------------------------------------------------------

FlashResult run(const FlashArgs& a, Recorder rec) {
  const int n_q = a.query.rows, n_k = a.key.rows, d_k = a.key.cols, d_v = a.value.cols;
  const int block = a.block_size;
  const float root = std::sqrt(static_cast<float>(d_k));

  FlashResult r;
  r.output = Matrix(n_q, d_v);  // output: (n_q, d_v), the accumulator until divided by l
  r.entropy.assign(n_q, 0.0f);

  // padding_before[j]: padding keys among keys 0 .. j-1, so a tile counts its own in O(1)
  std::vector<int> padding_before(n_k + 1, 0);
  for (int j = 0; j < n_k; j++)
    padding_before[j + 1] = padding_before[j] + (!a.key_padding.empty() && a.key_padding[j]);

  // workspace, the only memory besides the output: O(n·d)
  std::vector<float> tile(static_cast<std::size_t>(block) * block);  // tile: (bq, bk)
  std::vector<float> pv(static_cast<std::size_t>(block) * d_v);      // pv:   (bq, d_v)
  std::vector<RowState> state(block);
  std::vector<float> rescale(block);  // per query row of the tile: exp(m_old - m_new)
  // Kᵀ (d_k, n_k) and V (n_k, d_v) packed once for the products (kernels.h, PackedMatrix): a
  // key tile is a range of V's rows, and of Kᵀ's panels when tiles start at multiples of 8;
  // other block sizes pack each key tile's Kᵀ on its own, into the same store.
  using kernels::PackedMatrix;
  const bool panel_tiles = block % 8 == 0;
  std::vector<float> kt_store(panel_tiles ? PackedMatrix::size(d_k, n_k)
                                          : PackedMatrix::size(d_k, block));
  std::vector<float> v_store(PackedMatrix::size(n_k, d_v));
  PackedMatrix kt;
  if (panel_tiles) kt = kernels::pack_bt(a.key.data.data(), n_k, d_k, d_k, kt_store.data());
  const PackedMatrix v = kernels::pack_b(a.value.data.data(), n_k, d_v, d_v, v_store.data());
  r.tile_bytes =
      sizeof(float) * (tile.size() + pv.size() + rescale.size()) + sizeof(RowState) * state.size();
  r.packed_bytes = sizeof(float) * (kt_store.size() + v_store.size());

  for (int i0 = 0; i0 < n_q; i0 += block) {
    const int bq = std::min(block, n_q - i0);
    std::fill(state.begin(), state.begin() + bq, RowState{});
    for (int j0 = 0, c = 0; j0 < n_k; j0 += block, c++) {
      const int bk = std::min(block, n_k - j0);
      Tile kind =
          classify(a, i0, i0 + bq, j0, j0 + bk, padding_before[j0 + bk] - padding_before[j0]);
      rec.tile(c, i0, bq, kind == Tile::None);
      if (kind == Tile::None) {
        for (int q = 0; q < bq; q++) rec.row(c, i0 + q, state[q], kNegInf, 1.0f);
        continue;
      }
      // 1-2. scores of the tile, scaled: (bq, bk)
      int col0 = j0;  // of the tile's keys among Kᵀ's columns
      if (!panel_tiles) {
        kt = kernels::pack_bt(a.key.row(j0), bk, d_k, d_k, kt_store.data());
        col0 = 0;
      }
      kernels::gemm_packed(a.query.row(i0), d_k, kt, 0, col0, tile.data(), bk, bq, bk, d_k);
      if (kind == Tile::All) {
        // 2-4 in one step per row, the weights in place
        for (int q = 0; q < bq; q++) {
          float* s = tile.data() + static_cast<std::size_t>(q) * bk;
          const float block_max = rec.scaled_scores(i0 + q, j0, s, bk, 1.0f / root);
          if (fold_raw_row(state[q], s, bk, 1.0f / root, &rescale[q])) {
            rec.row(c, i0 + q, state[q], block_max, rescale[q]);
          } else {  // past float32 (check_flash rules it out): as a masked tile does
            float bm;
            rescale[q] = fold_row(state[q], s, bk, &bm);
            rec.row(c, i0 + q, state[q], bm, rescale[q]);
          }
        }
      } else {
        kernels::divide_finite(tile.data(), static_cast<std::size_t>(bq) * bk, root);
        for (int q = 0; q < bq; q++) {
          float* s = tile.data() + static_cast<std::size_t>(q) * bk;
          // 3. mask: blocked cells -inf
          for (int j = 0; j < bk; j++)
            if (!flash_allows(a, i0 + q, j0 + j)) s[j] = kNegInf;
          rec.scores(i0 + q, j0, s, bk);
          // 4. online softmax: fold the tile row into the running max and sum
          float block_max;
          rescale[q] = fold_row(state[q], s, bk, &block_max);
          rec.row(c, i0 + q, state[q], block_max, rescale[q]);
        }
      }
      // 5. output = output rescale + P V_c: (bq, bk) x (bk, d_v)
      kernels::gemm_packed(tile.data(), bk, v, j0, 0, pv.data(), d_v, bq, d_v, bk);
      for (int q = 0; q < bq; q++)
        kernels::scale_add(r.output.row(i0 + q), pv.data() + static_cast<std::size_t>(q) * d_v, d_v,
                           rescale[q]);
    }
    // divide by the row sums; a row that never met an allowed key keeps its zeros
    for (int q = 0; q < bq; q++) {
      const RowState& st = state[q];
      if (st.l == 0.0f) {
        r.fully_masked_rows.push_back(i0 + q);
        continue;
      }
      float* out = r.output.row(i0 + q);
      for (int v = 0; v < d_v; v++) out[v] = out[v] / st.l;
      r.entropy[i0 + q] = std::max(0.0f, std::log(st.l) - st.t / st.l);
    }
  }
  return r;
}

}  // namespace

bool flash_allows(const FlashArgs& a, int r, int j) {
  if (!a.key_padding.empty() && a.key_padding[j]) return false;
  return offset_allowed(a, static_cast<long>(a.query_offset) + r - j);
}

FlashResult flash_attend(const FlashArgs& args) { return run(args, Recorder{nullptr}); }

FlashTrace flash_trace(const FlashArgs& args) {
  FlashTrace t;
  int n_q = args.query.rows, n_k = args.key.rows;
  t.block_size = args.block_size;
  t.blocks = (n_k + args.block_size - 1) / args.block_size;
  t.scores = Matrix(n_q, n_k, kNegInf);  // tiles skipped whole stay -inf
  t.block_max = Matrix(t.blocks, n_q);
  t.running_max = Matrix(t.blocks, n_q);
  t.rescale = Matrix(t.blocks, n_q);
  t.running_sum = Matrix(t.blocks, n_q);
  t.skipped = Matrix(t.blocks, n_q);
  t.result = run(args, Recorder{&t});
  return t;
}

// ---- validation -------------------------------------------------------------------------------

Error check_flash(const FlashArgs& a, int max_tokens) {
  Error e = check_query_key_value(a.query, a.key, a.value, max_tokens);
  if (!e.empty()) return e;
  int n_k = a.key.rows;
  if (a.key.cols != a.query.cols) {
    return "key: expected " + std::to_string(a.query.cols) +
           " columns (d_k must equal the query's d_q), got " + std::to_string(a.key.cols);
  }
  if (a.value.rows != n_k) {
    return "value: expected " + std::to_string(n_k) + " rows (one per key), got " +
           std::to_string(a.value.rows);
  }
  if (!a.key_padding.empty() && a.key_padding.size() != static_cast<std::size_t>(n_k)) {
    return "keyPadding: expected " + std::to_string(n_k) + " flags (one per key), got " +
           std::to_string(a.key_padding.size());
  }
  if (a.window != -1) e = check_number(kWindow, a.window);              // -1: no window
  if (e.empty() && a.stride != 0) e = check_number(kStride, a.stride);  // 0: no strided pattern
  if (e.empty() && a.window >= 0 && a.stride > 0) {
    e = "stride: cannot be combined with window (pick one sparse pattern)";
  }
  if (e.empty()) e = check_number(kQueryOffset, a.query_offset);
  if (e.empty()) e = check_number(kBlockSize, a.block_size);
  if (!e.empty()) return e;
  // finite in, finite out: the float32 range the tiled pipeline needs (core/check.h)
  return check_tiled_range(a.query, a.key, a.value);
}

}  // namespace attn
