// multi_head(): projections, heads, masks and biases decoded from the fuzz input. After the
// check accepts, unless the result refuses values whose arithmetic would leave float32:
// every head's weights lie in [0, 1] with rows summing to 1 where any key is
// allowed and zero rows where none is; concat and output are finite.
#include "core/multihead.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  MultiHeadArgs a;
  int n_q = in.range(1, 16), n_k = in.range(1, 16);
  a.heads = in.range(0, 8);
  int d_head = in.range(1, 8);
  int d_model = in.flag() ? a.heads * d_head : in.side();  // sometimes not divisible
  if (d_model < 1) d_model = 1;
  int kdim = in.flag() ? d_model : in.side(), vdim = in.flag() ? d_model : in.side();
  a.query = in.matrix(n_q, d_model);
  a.key = in.matrix(n_k, kdim);
  a.value = in.matrix(in.near(n_k), vdim);
  a.wq = in.matrix(d_model, in.near(d_model));
  a.wk = in.matrix(d_model, kdim);
  a.wv = in.matrix(d_model, vdim);
  a.wo = in.matrix(d_model, d_model);
  a.bq = in.maybe_matrix(1, d_model);
  a.bk = in.maybe_matrix(1, d_model);
  a.bv = in.maybe_matrix(1, in.near(d_model));
  a.bo = in.maybe_matrix(1, d_model);
  if (in.flag()) a.mask = in.mask(n_q, n_k);
  a.causal = in.flag();
  if (in.flag()) a.key_padding = in.flags(n_k);

  if (!check_multi_head(a).empty()) return 0;
  MultiHeadResult r = multi_head(a);
  if (!r.error.empty()) return 0;  // refused: a stage would leave float32 (the message names it)

  std::vector<bool> blocked_row(n_q, true);
  for (int i = 0; i < n_q; i++) {
    for (int j = 0; j < n_k; j++) {
      bool ok = (a.mask.empty() || a.mask.at(i, j) == 1.0f) && (!a.causal || j <= i) &&
                (a.key_padding.empty() || !a.key_padding[j]);
      if (ok) blocked_row[i] = false;
    }
  }
  FUZZ_EXPECT(static_cast<int>(r.heads.size()) == a.heads, "one result per head");
  for (const AttendResult& h : r.heads) {
    FUZZ_EXPECT(fuzz::all_finite(h.scores), "head scores not finite");
    fuzz::expect_weight_rows("head weights", h.weights, blocked_row);
  }
  FUZZ_EXPECT(fuzz::all_finite(r.concat), "concat not finite");
  FUZZ_EXPECT(fuzz::all_finite(r.output), "output not finite");
  FUZZ_EXPECT(r.output.rows == n_q && r.output.cols == d_model, "output shape");
  return 0;
}
