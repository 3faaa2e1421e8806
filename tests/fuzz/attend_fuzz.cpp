// attend(): every score kind, explicit / causal / key-padding masks, every fill, temperature
// and both softmax forms, on shapes and numbers decoded from the fuzz input.
// The core's check runs first; when it accepts, the pipeline either refuses values whose
// arithmetic would leave float32 (the result's error) or gives finite results (the naive
// softmax aside, whose overflow is the lesson and is flagged), weights in [0, 1] whose rows
// sum to 1 where any key is allowed, zero rows where every key is blocked (-inf fill), and
// outputs inside the range of the value columns. Both the every-stage and output-only paths.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/attention.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  AttendArgs a;
  int n_q = in.side(), n_k = in.side(), d_q = in.side(), d_v = in.side();
  a.score = static_cast<ScoreKind>(in.range(0, 4));  // 4 is not a kind: must be rejected
  bool dot_kind = a.score == ScoreKind::Dot || a.score == ScoreKind::ScaledDot;
  int d_k = dot_kind ? in.near(d_q) : in.side();
  a.query = in.matrix(n_q, d_q);
  a.key = in.matrix(n_k, std::max(d_k, 1));
  a.value = in.matrix(in.near(n_k), d_v);
  if (a.score == ScoreKind::Additive) {
    int h = in.side();
    a.additive_wq = in.matrix(h, in.near(d_q));
    a.additive_wk = in.matrix(h, d_k);
    a.additive_v = in.matrix(1, in.near(h));
  }
  if (a.score == ScoreKind::General) a.general_w = in.matrix(d_q, in.near(d_k));
  if (in.flag()) a.mask = in.mask(n_q, n_k);
  a.causal = in.flag();
  a.reverse_causal = in.range(0, 3) == 0;
  if (in.flag()) a.key_padding = in.flags(in.near(n_k));
  a.mask_fill = static_cast<MaskFill>(in.range(0, 3));  // 3 is not a fill: must be rejected
  a.temperature = in.flag() ? 1.0f : in.positive();
  a.stable = in.range(0, 3) != 0;
  a.stages = in.range(0, 3) != 0;

  if (!check_attend(a).empty()) return 0;
  AttendResult r = attend(a);
  if (!r.error.empty()) {  // refused: a stage would leave float32 (the message names it)
    FUZZ_EXPECT(r.output.empty() && r.weights.empty(), "a refused result holds nothing else");
    return 0;
  }

  // Which rows may attend to anything, worked out here from the arguments.
  std::vector<bool> allowed(static_cast<std::size_t>(n_q) * n_k);
  std::vector<bool> blocked_row(n_q, true);
  for (int i = 0; i < n_q; i++) {
    for (int j = 0; j < n_k; j++) {
      bool ok = (a.mask.empty() || a.mask.at(i, j) == 1.0f) && (!a.causal || j <= i) &&
                (!a.reverse_causal || j >= i) && (a.key_padding.empty() || !a.key_padding[j]);
      allowed[static_cast<std::size_t>(i) * n_k + j] = ok;
      if (ok) blocked_row[i] = false;
    }
  }
  std::vector<int> expected_blocked;
  for (int i = 0; i < n_q; i++) {
    if (blocked_row[i]) expected_blocked.push_back(i);
  }
  FUZZ_EXPECT(r.fully_masked_rows == expected_blocked, "fullyMaskedRows");
  FUZZ_EXPECT(r.output.rows == n_q && r.output.cols == d_v, "output shape");
  if (a.stages) {
    FUZZ_EXPECT(r.weights.rows == n_q && r.weights.cols == n_k, "weights shape");
    // Finite inputs were accepted: every stage before the softmax is finite.
    FUZZ_EXPECT(fuzz::all_finite(r.scores), "scores not finite");
    FUZZ_EXPECT(fuzz::all_finite(r.scaled), "scaled scores not finite");
    for (int i = 0; i < n_q; i++) {
      for (int j = 0; j < n_k; j++) {
        if (allowed[static_cast<std::size_t>(i) * n_k + j]) {
          FUZZ_EXPECT(r.masked.at(i, j) == r.scaled.at(i, j), "masked changed an allowed cell");
        }
      }
    }
  } else {
    FUZZ_EXPECT(r.scores.empty() && r.weights.empty(), "output-only result keeps no stages");
  }
  // the naive softmax may overflow (that is its lesson), and then says so
  if (!a.stable) {
    if (a.stages) {
      // overflowed: an exponential past float32 (inf / inf = NaN), or only their sum (e / inf = 0)
      bool zero_row = false;
      for (int i = 0; i < n_q; i++) {
        bool zeros = true;
        for (int j = 0; j < n_k; j++) zeros = zeros && r.weights.at(i, j) == 0.0f;
        zero_row = zero_row || zeros;
      }
      FUZZ_EXPECT(r.overflow == (!fuzz::all_finite(r.weights) || zero_row), "overflow flag");
    }
    if (r.overflow) return 0;
  }
  FUZZ_EXPECT(!r.overflow, "overflow flagged without an overflow");

  // With the -inf fill a blocked row is all zeros; with -1e9 or 0 it is spread like any row.
  std::vector<bool> zero_row(n_q, false);
  if (a.mask_fill == MaskFill::NegInf) zero_row = blocked_row;
  if (a.stages) fuzz::expect_weight_rows("weights", r.weights, zero_row);
  if (a.stages && a.mask_fill == MaskFill::NegInf) {
    for (int i = 0; i < n_q; i++) {
      for (int j = 0; j < n_k; j++) {
        if (!allowed[static_cast<std::size_t>(i) * n_k + j]) {
          FUZZ_EXPECT(r.weights.at(i, j) == 0.0f,
                      fuzz::where("weights", i) + ": blocked key has weight");
        }
      }
    }
  }
  FUZZ_EXPECT(fuzz::all_finite(r.entropy), "entropy not finite");
  for (int i = 0; i < n_q; i++) {
    FUZZ_EXPECT(r.entropy[i] >= -1e-5f && r.entropy[i] <= std::log(static_cast<float>(n_k)) + 1e-4f,
                fuzz::where("entropy", i) + " = " + std::to_string(r.entropy[i]));
  }

  // output = weights V: a convex combination of the value rows stays within each column's range.
  FUZZ_EXPECT(fuzz::all_finite(r.output), "output not finite");
  for (int c = 0; c < d_v; c++) {
    float lo = a.value.at(0, c), hi = lo, big = 0;
    for (int j = 0; j < n_k; j++) {
      lo = std::min(lo, a.value.at(j, c));
      hi = std::max(hi, a.value.at(j, c));
      big = std::max(big, std::fabs(a.value.at(j, c)));
    }
    // Relative rounding, plus an absolute term: each product w v can round a subnormal v to 0
    // (0.5 x 1.4e-45 is 0 in float32), so a column of equal subnormals may come out as 0.
    double slack = fuzz::sum_tolerance(n_k) * big +
                   n_k * static_cast<double>(std::numeric_limits<float>::denorm_min());
    for (int i = 0; i < n_q; i++) {
      double o = r.output.at(i, c);
      if (blocked_row[i] && a.mask_fill == MaskFill::NegInf) {
        FUZZ_EXPECT(o == 0.0, fuzz::where("output", i) + " of a blocked row is not 0");
      } else {
        FUZZ_EXPECT(
            o >= lo - slack && o <= hi + slack,
            fuzz::where("output", i) + " column " + std::to_string(c) + " outside the value range");
      }
    }
  }
  return 0;
}
