// The softmax family: softmax_rows (with temperature, stable and naive), softmax_jacobian,
// hard_attention and gumbel_softmax, on scores decoded from the fuzz input (-inf cells are
// blocked keys). Each entry point's check runs first; when it accepts:
//   softmax, Gumbel: weights in [0, 1], rows sum to 1, an all -inf row gives zeros
//                    (the naive softmax is exempt: its overflow is the lesson); the checks
//                    are the ones the engine's softmax and gumbelSoftmax run, including
//                    check_scaled_scores, which refuses a temperature that overflows;
//   Jacobian:        finite and symmetric; rows sum to 0 when p sums to 1;
//   hard:            one 1 per row, at the first largest score.
#include <cmath>
#include <limits>

#include "core/attention.h"
#include "core/scores.h"
#include "core/softmax.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Scores with some cells blocked (-inf), sometimes whole rows.
Matrix scores_with_blocks(Input& in) {
  int rows = in.side(), cols = in.side();
  Matrix s = in.matrix(rows, cols);
  if (s.data.size() != static_cast<std::size_t>(rows) * cols) return s;
  int blocking = in.range(0, 3);  // 0: none, 1: some cells, 2: whole rows, 3: both
  for (int i = 0; i < rows; i++) {
    bool whole = (blocking & 2) && in.range(0, 3) == 0;
    for (int j = 0; j < cols; j++) {
      if (whole || ((blocking & 1) && in.range(0, 3) == 0)) s.at(i, j) = kNegInf;
    }
  }
  return s;
}

std::vector<bool> all_neg_inf_rows(const Matrix& s) {
  std::vector<bool> blocked(s.rows, true);
  for (int i = 0; i < s.rows; i++) {
    for (int j = 0; j < s.cols; j++) {
      if (s.at(i, j) != kNegInf) blocked[i] = false;
    }
  }
  return blocked;
}

int softmax_case(Input& in) {
  Matrix scores = scores_with_blocks(in);
  float temperature = in.flag() ? 1.0f : in.positive();
  bool stable = in.range(0, 3) != 0;
  if (!check_scores("scores", scores).empty()) return 0;
  if (!check_temperature("temperature", temperature).empty()) return 0;
  if (!check_scaled_scores("temperature", scores, temperature).empty()) return 0;
  Matrix scaled = apply_temperature(scores, temperature);
  Matrix w = softmax_rows(scaled, stable);
  if (!stable) return 0;
  bool kept_finite = true;  // a finite score stays finite after the temperature
  for (std::size_t c = 0; c < scores.data.size(); c++) {
    if (std::isfinite(scores.data[c]) && !std::isfinite(scaled.data[c])) kept_finite = false;
  }
  FUZZ_EXPECT(kept_finite, "scores / temperature overflowed");
  fuzz::expect_weight_rows("weights", w, all_neg_inf_rows(scores));
  std::vector<float> h = row_entropy(w);
  FUZZ_EXPECT(fuzz::all_finite(h), "entropy not finite");
  return 0;
}

int jacobian_case(Input& in) {
  std::vector<float> p;
  bool probabilities = in.flag();
  if (probabilities) {
    // a real softmax row: then every row of the Jacobian sums to 0
    Matrix s = in.matrix(1, in.side());
    if (!check_scores("scores", s).empty()) return 0;
    p = softmax_rows(s, true).data;
  } else {
    p.resize(in.range(0, fuzz::kMaxSide + 1));
    for (float& x : p) x = in.number();
  }
  if (!check_jacobian(p).empty()) return 0;
  Matrix jac = softmax_jacobian(p);
  int n = static_cast<int>(p.size());
  FUZZ_EXPECT(jac.rows == n && jac.cols == n, "Jacobian shape");
  FUZZ_EXPECT(fuzz::all_finite(jac), "Jacobian not finite");
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++) {
      FUZZ_EXPECT(jac.at(i, j) == jac.at(j, i), "Jacobian not symmetric");
      sum += jac.at(i, j);
    }
    if (probabilities) {
      FUZZ_EXPECT(std::fabs(sum) <= fuzz::sum_tolerance(n),
                  fuzz::where("Jacobian", i) + " sums to " + std::to_string(sum));
    }
  }
  return 0;
}

int hard_case(Input& in) {
  Matrix scores = scores_with_blocks(in);
  if (!check_scores("scores", scores).empty()) return 0;
  Matrix onehot = hard_attention(scores);
  for (int i = 0; i < scores.rows; i++) {
    int best = 0;
    for (int j = 1; j < scores.cols; j++) {
      if (scores.at(i, j) > scores.at(i, best)) best = j;
    }
    for (int j = 0; j < scores.cols; j++) {
      FUZZ_EXPECT(onehot.at(i, j) == (j == best ? 1.0f : 0.0f),
                  fuzz::where("hard", i) + " is not one-hot at the first argmax");
    }
  }
  return 0;
}

int gumbel_case(Input& in) {
  Matrix scores = scores_with_blocks(in);
  float tau = in.flag() ? 1.0f : in.positive();
  std::uint64_t seed = in.u64();
  if (!check_scores("scores", scores).empty()) return 0;
  if (!check_temperature("tau", tau).empty()) return 0;
  if (!check_scaled_scores("tau", scores, tau, kMaxGumbelNoise).empty()) return 0;
  Matrix w = gumbel_softmax(scores, tau, seed);
  FUZZ_EXPECT(fuzz::all_finite(w), "Gumbel weights not finite");
  fuzz::expect_weight_rows("gumbel", w, all_neg_inf_rows(scores));
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  switch (in.range(0, 3)) {
    case 0:
      return softmax_case(in);
    case 1:
      return jacobian_case(in);
    case 2:
      return hard_case(in);
    default:
      return gumbel_case(in);
  }
}
