// attend(): the lesson's pipeline (attention.cpp), or, when no stage is kept and nothing needs
// the whole score matrix, the output-only path here, which computes the same output a block of
// query rows at a time.
#include "core/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "kernels/kernels.h"

namespace attn {

// The output-only path, a block of query rows at a time, when no stage is kept and nothing
// needs the whole matrix: dot or scaled-dot scores, the stable softmax, a temperature >= 1
// (dividing by it cannot overflow) and no mask but the causal one with -inf fill. K and V are
// packed once; a block's scores become its unnormalised weights e = exp(s - max) in place
// (kernels::exp_scores_row: the scale, the row max and the exponentials in two passes over
// the row, the causal keys past the query never computed), e V is accumulated while the block
// is in cache, and each output row is divided by its sum. Not the stages' floats bit for bit
// (they divide every weight by the sum first, and their exp is another polynomial), the same
// to float rounding (tests/js/engine.test.js, tests/cpp/attention_test.cpp).
static bool rowwise(const AttendArgs& a) {
  return !a.stages && a.stable && (a.score == ScoreKind::Dot || a.score == ScoreKind::ScaledDot) &&
         a.temperature >= 1.0f && !given(a.mask) && !a.reverse_causal && a.key_padding.empty() &&
         (!a.causal || a.mask_fill == MaskFill::NegInf);
}

// Query rows per block: about 64 KB of scores (a multiple of the products' 4-row blocks).
static int block_rows(int n_k) {
  return std::max(4, std::min(64, 16384 / std::max(n_k, 1) / 4 * 4));
}

static AttendResult attend_rowwise(const AttendArgs& a) {
  AttendResult r;
  const int n_q = a.query.rows, n_k = a.key.rows, d_k = a.key.cols, d_v = a.value.cols;
  using kernels::PackedMatrix;
  // Kᵀ (d_k, n_k) and V (n_k, d_v), packed for the products
  std::unique_ptr<float[]> kt_store(new float[PackedMatrix::size(d_k, n_k)]);
  std::unique_ptr<float[]> v_store(new float[PackedMatrix::size(n_k, d_v)]);
  const PackedMatrix kt = kernels::pack_bt(a.key.data.data(), n_k, d_k, d_k, kt_store.get());
  const PackedMatrix v = kernels::pack_b(a.value.data.data(), n_k, d_v, d_v, v_store.get());
  const int rows = block_rows(n_k);
  // one block's scores, then its weights: (rows, n_k), written by the product before any read
  std::unique_ptr<float[]> s(new float[static_cast<std::size_t>(rows) * n_k]);
  std::unique_ptr<float[]> sums(new float[rows]);  // each row's Σ e
  // 1 / (sqrt(d_k) temperature): scores times it stay finite exactly when they were (it is <= 1)
  const float root = a.score == ScoreKind::ScaledDot ? std::sqrt(static_cast<float>(d_k)) : 1.0f;
  const float scale = 1.0f / (root * a.temperature);
  r.entropy.resize(n_q);
  r.output = Matrix(n_q, d_v);  // output: (n_q, d_v)
  for (int i0 = 0; i0 < n_q; i0 += rows) {
    const int bq = std::min(rows, n_q - i0);
    // every score is computed and checked (an overflow is an error, blocked or not), but with
    // causal the block's last query sees keys 0 .. i0 + bq - 1 only, so P V stops there
    const int keys = a.causal ? std::min(n_k, i0 + bq) : n_k;
    kernels::gemm_packed(a.query.row(i0), d_k, kt, 0, 0, s.get(), n_k, bq, n_k, d_k);
    for (int q = 0; q < bq; q++) {
      const int i = i0 + q;
      float* row = s.get() + static_cast<std::size_t>(q) * n_k;
      const int allowed_keys = a.causal ? std::min(i + 1, n_k) : n_k;  // causal: keys j <= i
      float m = -std::numeric_limits<float>::infinity(), t;
      if (!kernels::exp_scores_row(row, n_k, allowed_keys, scale, &m, &sums[q], &t)) {
        Matrix scores(1, n_k);  // the overflowing row, for the message (rows before it were finite)
        std::copy(row, row + n_k, scores.data.begin());
        r.error = score_overflow(a, scores, i);
        r.entropy.clear();
        r.output = Matrix();
        return r;
      }
      r.entropy[i] = std::log(sums[q]) - t / sums[q];
    }
    kernels::gemm_packed(s.get(), n_k, v, 0, 0, r.output.row(i0), d_v, bq, d_v, keys);
    for (int q = 0; q < bq; q++) {
      float* out = r.output.row(i0 + q);
      for (int c = 0; c < d_v; c++) out[c] = out[c] / sums[q];
    }
  }
  return r;
}

AttendResult attend(const AttendArgs& a) {
  if (!rowwise(a)) return attend_stages(a);
  AttendResult r = attend_rowwise(a);
  // e V sums unnormalised weights (up to n_k times the normalised ones): where that passes
  // float32, the stages decide whether the true weighted sum does
  if (r.error.empty() && !first_non_finite(r.output).empty()) return attend_stages(a);
  return r;
}

}  // namespace attn
