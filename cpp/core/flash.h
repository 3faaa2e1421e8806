// Tiled ("flash") attention: the scaled-dot pipeline computed block by block of keys, with an
// online softmax (a running max and sum per query, rescaled whenever the max grows), so the
// (n_q, n_k) score matrix is never stored: memory is O(n·d), one (block, block) tile at a time.
//
//   for each block of queries Q_b and each block of keys K_c, V_c:
//     S      = Q_b K_cᵀ / sqrt(d_k), blocked cells -inf        S: (B, B)
//     m_new  = max(m, rowmax S)                                 per query row
//     r      = exp(m - m_new)                                   rescales what was summed so far
//     P      = exp(S - m_new)
//     l      = r l + rowsum P,   acc = r acc + P V_c            acc: (B, d_v)
//   output = acc / l
#pragma once

#include <vector>

#include "core/check.h"
#include "core/matrix.h"

namespace attn {

// Which keys a query may attend. Every rule given is applied (AND): causal (key j <= query i),
// key padding (padding keys blocked), and at most one sparse pattern:
//   window w  (w >= 0): a sliding window, key j within w positions of query i: |i - j| <= w
//   stride s  (s >= 1): the strided pattern of Sparse Transformers (Child et al. 2019), the union
//                       of a local band and every s-th key: |i - j| < s or |i - j| mod s == 0
struct FlashArgs {
  Matrix query;  // (n_q, d_k)
  Matrix key;    // (n_k, d_k)
  Matrix value;  // (n_k, d_v)
  bool causal = kCausal.fallback;
  std::vector<bool> key_padding;  // n_k flags (true = padding), or empty for none
  int window = -1;                // -1 = no window (kWindow)
  int stride = 0;                 // 0 = no strided pattern (kStride)
  int block_size = static_cast<int>(kBlockSize.fallback);  // rows of a query and a key block
  int query_offset = 0;  // position of query row 0 among the keys: query row r is
                         // query i = query_offset + r in the rules above (a slice of
                         // the queries, as a worker computes, gives the same rows)
};

struct FlashResult {
  Matrix output;                       // (n_q, d_v)
  std::vector<float> entropy;          // n_q, -Σ w log w of each row's weights (natural log)
  std::vector<int> fully_masked_rows;  // rows with no allowed key: zero output, entropy 0
  // What the tiles hold, from the block size used: the (B, B) tile of scores, its (B, d_v)
  // product P V and each query row's running max, sum and rescale factor (B of each): the
  // memory that replaces the (n_q, n_k) matrix, the same for every n.
  std::size_t tile_bytes = 0;
  // Kᵀ and V packed for the kernels (kernels::PackedMatrix): a copy of the size of the key and
  // value, O(n·d) like the inputs themselves.
  std::size_t packed_bytes = 0;
};

// The online softmax step by step, for the lesson's animation: one row per key block c, one
// column per query i (tables of (key blocks, n_q)), recorded after block c was folded in.
struct FlashTrace {
  int block_size = 0;
  int blocks = 0;      // key blocks: ceil(n_k / block_size)
  Matrix scores;       // (n_q, n_k) scaled scores, blocked cells -inf
  Matrix block_max;    // max of the allowed scores of block c (-inf: none allowed)
  Matrix running_max;  // m after block c (-inf until a key was allowed)
  Matrix rescale;      // exp(m_before - m_after): what the old sum and output were
                       // multiplied by (1 = max unchanged, 0 = first allowed block)
  Matrix running_sum;  // l after block c: Σ exp(s_j - m) over the keys seen so far
  Matrix skipped;      // 1 where the (query block, key block) tile was skipped whole
                       // because the mask blocks all of it
  FlashResult result;
};

// May query row r (query i = query_offset + r) attend key j? The rules above, in one place.
bool flash_allows(const FlashArgs& args, int r, int j);

// Empty when args are valid; otherwise a message naming the argument and the expectation.
Error check_flash(const FlashArgs& args, int max_tokens = limits::kMaxFlashTokens);

// Runs tiled attention. Requires check_flash(args) to be empty.
FlashResult flash_attend(const FlashArgs& args);

// The same computation with every block's running max, rescale factor and sum recorded.
// Requires check_flash(args, limits::kMaxTraceTokens) to be empty.
FlashTrace flash_trace(const FlashArgs& args);

}  // namespace attn
