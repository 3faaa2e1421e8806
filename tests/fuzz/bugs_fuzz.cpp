// attend_with_bug() and monitor(): every bug (and one name past the list, which must be
// rejected), d_model, explicit / causal / key-padding masks, on shapes and numbers decoded
// from the fuzz input. The core's check runs first; when it accepts, the bug's own promise
// must hold: finite weights in [0, 1] (the naive softmax aside), rows summing to 1 where the
// bug keeps the row softmax, columns summing to 1 for the wrong axis, rows at most 1 after
// masking the softmax; and the monitors must agree with the weights they watch.
#include <cmath>

#include "core/bugs.h"
#include "core/masks.h"
#include "core/monitors.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  BugArgs a;
  int n_q = in.side(), n_k = in.side(), d = in.side(), d_v = in.side();
  a.bug = static_cast<Bug>(in.range(0, 8));  // 8 is not a bug: must be rejected
  a.d_model = in.range(0, 3) == 0 ? in.range(-1, 70000) : in.side() * d;
  a.query = in.matrix(n_q, d);
  a.key = in.matrix(n_k, in.near(d));
  a.value = in.matrix(in.near(n_k), d_v);
  if (in.flag()) a.mask = in.mask(n_q, n_k);
  a.causal = in.flag();
  if (in.flag()) a.key_padding = in.flags(in.near(n_k));

  if (!check_bug(a).empty()) return 0;
  AttendResult r = attend_with_bug(a);
  if (!r.error.empty()) return 0;  // refused: a stage would leave float32 (the message names it)
  FUZZ_EXPECT(r.weights.rows == n_q && r.weights.cols == n_k, "weights shape");
  FUZZ_EXPECT(r.output.rows == n_q && r.output.cols == d_v, "output shape");
  FUZZ_EXPECT(r.entropy.size() == static_cast<std::size_t>(n_q), "entropy size");

  // The mask the code meant to apply (built directly: the healthy call itself may be refused,
  // e.g. with the √d_k scale where the bug's larger √d_model kept the scores in float32).
  const Matrix mask = build_mask(n_q, n_k, a.mask, a.causal, a.key_padding, false);
  FUZZ_EXPECT(check_monitor(r.scaled, r.weights, mask).empty(), "monitor refused an attend result");
  Monitors m = monitor(r.scaled, r.weights, mask);
  FUZZ_EXPECT(m.row_sums.size() == static_cast<std::size_t>(n_q) &&
                  m.col_sums.size() == static_cast<std::size_t>(n_k),
              "monitor sizes");
  if (a.bug == Bug::NoMaxSubtraction) return 0;  // the naive softmax may overflow: its lesson

  FUZZ_EXPECT(fuzz::all_finite(r.weights) && fuzz::all_finite(r.output),
              "weights or output not finite");
  FUZZ_EXPECT(m.non_finite == 0, "monitor counts non-finite weights in finite ones");
  double tol = fuzz::sum_tolerance(n_k > n_q ? n_k : n_q);
  for (int i = 0; i < n_q; i++) {
    double row = 0;
    for (int j = 0; j < n_k; j++) {
      float w = r.weights.at(i, j);
      FUZZ_EXPECT(w >= 0.0f && w <= 1.0f, fuzz::where("weights", i) + " has " + std::to_string(w));
      row += w;
    }
    FUZZ_EXPECT(std::fabs(m.row_sums[i] - row) <= tol, fuzz::where("rowSums", i));
    FUZZ_EXPECT(m.leaked[i] >= 0.0f && m.leaked[i] <= m.row_sums[i] + tol,
                fuzz::where("leaked", i));
    FUZZ_EXPECT(
        m.max_entropy[i] >= 0.0f && m.max_entropy[i] <= std::log(static_cast<float>(n_k)) + 1e-5f,
        fuzz::where("maxEntropy", i));
    bool row_softmax = a.bug != Bug::WrongAxis && a.bug != Bug::MaskAfterSoftmax;
    bool blocked = true;
    for (int j = 0; j < n_k; j++) blocked = blocked && r.mask.at(i, j) == 0.0f;
    if (a.bug == Bug::ZeroFill || (row_softmax && !blocked)) {
      FUZZ_EXPECT(std::fabs(row - 1.0) <= tol,
                  fuzz::where("weights", i) + " sums to " + std::to_string(row));
    }
    if (a.bug == Bug::MaskAfterSoftmax)
      FUZZ_EXPECT(row <= 1.0 + tol, fuzz::where("weights", i) + " above 1");
    if (row_softmax && a.bug != Bug::ZeroFill && a.bug != Bug::ReversedCausal) {
      FUZZ_EXPECT(m.leaked[i] == 0.0f, fuzz::where("leaked", i) + " with the mask applied");
    }
  }
  if (a.bug == Bug::WrongAxis) {
    for (int j = 0; j < n_k; j++) {
      double col = 0;
      bool blocked = true;
      for (int i = 0; i < n_q; i++) {
        col += r.weights.at(i, j);
        blocked = blocked && r.mask.at(i, j) == 0.0f;
      }
      FUZZ_EXPECT(std::fabs(col - (blocked ? 0.0 : 1.0)) <= tol, "column " + std::to_string(j));
      FUZZ_EXPECT(std::fabs(m.col_sums[j] - col) <= tol, "colSums " + std::to_string(j));
    }
  }
  return 0;
}
