// Stage 3: masks. Which query may attend to which key, and what a blocked score becomes.
#include "core/masks.h"

#include <limits>

namespace attn {

// ---- the combined 0/1 mask ------------------------------------------------------------------

Matrix build_mask(int n_q, int n_k, const Matrix& explicit_mask, bool causal,
                  const std::vector<bool>& key_padding, bool reverse_causal) {
  Matrix mask(n_q, n_k, 1.0f);  // mask: (n_q, n_k), 1 = may attend
  for (int i = 0; i < n_q; i++) {
    for (int j = 0; j < n_k; j++) {
      bool ok = allowed(i, j, n_k, explicit_mask, causal, key_padding, reverse_causal);
      mask.at(i, j) = ok ? 1.0f : 0.0f;
    }
  }
  return mask;
}

// ---- filling the blocked scores ------------------------------------------------------------

float fill_value(MaskFill fill) {
  switch (fill) {
    case MaskFill::NegInf:
      return -std::numeric_limits<float>::infinity();
    case MaskFill::LargeNegative:
      return static_cast<float>(kLargeNegativeFill);
    case MaskFill::Zero:
      return 0.0f;  // the classic bug: 0 is an ordinary score
  }
  return -std::numeric_limits<float>::infinity();
}

Matrix apply_mask(const Matrix& scores, const Matrix& mask, MaskFill fill) {
  Matrix masked = scores;  // masked: (n_q, n_k)
  apply_mask_in_place(masked, mask, fill);
  return masked;
}

void apply_mask_in_place(Matrix& scores, const Matrix& mask, MaskFill fill) {
  float blocked = fill_value(fill);
  for (std::size_t c = 0; c < scores.data.size(); c++) {
    if (mask.data[c] == 0.0f) scores.data[c] = blocked;
  }
}

std::vector<int> apply_mask_in_place(Matrix& scores, const Matrix& explicit_mask, bool causal,
                                     const std::vector<bool>& key_padding, bool reverse_causal,
                                     MaskFill fill) {
  std::vector<int> blocked_rows;
  const float blocked = fill_value(fill);
  for (int i = 0; i < scores.rows; i++) {
    bool any_allowed = false;
    float* row = scores.row(i);
    for (int j = 0; j < scores.cols; j++) {
      if (allowed(i, j, scores.cols, explicit_mask, causal, key_padding, reverse_causal)) {
        any_allowed = true;
      } else {
        row[j] = blocked;
      }
    }
    if (!any_allowed) blocked_rows.push_back(i);
  }
  return blocked_rows;
}

std::vector<int> fully_masked_rows(const Matrix& mask) {
  std::vector<int> rows;
  for (int i = 0; i < mask.rows; i++) {
    bool any_allowed = false;
    for (int j = 0; j < mask.cols; j++) any_allowed = any_allowed || mask.at(i, j) != 0.0f;
    if (!any_allowed) rows.push_back(i);
  }
  return rows;
}

}  // namespace attn
