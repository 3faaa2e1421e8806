// flash_attend() and flash_trace(): shapes, block sizes, causal / padding / window / stride
// patterns and query offsets decoded from the fuzz input, with numbers at float32's edges (every
// matrix may be scaled toward 3.4e+38). The core's check runs first; when it accepts, finite
// input gives finite output: every output and entropy finite, each entropy from 0 to log n_k,
// rows with no allowed key zero and listed, every other output inside its value column's
// range (a convex combination), and the trace's tables finite where a key was seen.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/flash.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {
// Now and then every entry times a large power of ten, so whole matrices sit near the edge.
void maybe_scale(Input& in, Matrix& m) {
  static const float kScales[] = {1.0f, 1e10f, 1e17f, 1e18f, 1e19f, 1e30f, 1e34f, 1e36f, 1e37f};
  float s = kScales[in.range(0, 8)];
  if (s == 1.0f) return;
  for (float& x : m.data) x *= s;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  FlashArgs a;
  const int n_q = in.side(), n_k = in.side(), d = in.side(), d_v = in.side();
  a.query = in.matrix(n_q, d);
  a.key = in.matrix(in.near(n_k), in.near(d));
  a.value = in.matrix(in.near(n_k), d_v);
  maybe_scale(in, a.query);
  maybe_scale(in, a.key);
  maybe_scale(in, a.value);
  a.causal = in.flag();
  if (in.flag()) a.key_padding = in.flags(in.near(n_k));
  switch (in.range(0, 3)) {
    case 0:
      a.window = in.range(-2, 40);
      break;
    case 1:
      a.stride = in.range(-1, 40);
      break;
    default:
      break;
  }
  a.block_size = in.range(0, 40);
  a.query_offset = in.range(-1, 40);
  const bool trace = in.flag();

  if (!check_flash(a, trace ? limits::kMaxTraceTokens : limits::kMaxFlashTokens).empty()) return 0;
  const FlashResult r = trace ? flash_trace(a).result : flash_attend(a);
  const int keys = a.key.rows;  // the check accepted it: it may differ from n_k drawn above

  FUZZ_EXPECT(r.output.rows == n_q && r.output.cols == d_v, "output shape");
  FUZZ_EXPECT(fuzz::all_finite(r.output), "output not finite");
  FUZZ_EXPECT(fuzz::all_finite(r.entropy), "entropy not finite");
  std::vector<int> blocked;
  for (int i = 0; i < n_q; i++) {
    bool any = false;
    for (int j = 0; j < keys; j++) any = any || flash_allows(a, i, j);
    if (!any) blocked.push_back(i);
    FUZZ_EXPECT(r.entropy[i] >= 0.0f && r.entropy[i] <= std::log(static_cast<float>(keys)) + 1e-4f,
                fuzz::where("entropy", i) + " = " + std::to_string(r.entropy[i]));
  }
  FUZZ_EXPECT(r.fully_masked_rows == blocked, "fullyMaskedRows");
  for (int c = 0; c < d_v; c++) {
    double lo = a.value.at(0, c), hi = lo, big = 0;
    for (int j = 0; j < keys; j++) {
      lo = std::min<double>(lo, a.value.at(j, c));
      hi = std::max<double>(hi, a.value.at(j, c));
      big = std::max<double>(big, std::fabs(a.value.at(j, c)));
    }
    const double slack = fuzz::sum_tolerance(keys) * big +
                         keys * static_cast<double>(std::numeric_limits<float>::denorm_min());
    for (int i = 0; i < n_q; i++) {
      const double o = r.output.at(i, c);
      if (std::binary_search(blocked.begin(), blocked.end(), i)) {
        FUZZ_EXPECT(o == 0.0, fuzz::where("output", i) + " of a blocked row is not 0");
      } else {
        FUZZ_EXPECT(
            o >= lo - slack && o <= hi + slack,
            fuzz::where("output", i) + " column " + std::to_string(c) + " outside the value range");
      }
    }
  }
  if (trace) {
    const FlashTrace t = flash_trace(a);
    for (float x : t.running_sum.data) FUZZ_EXPECT(std::isfinite(x), "running sum not finite");
    for (float x : t.rescale.data) FUZZ_EXPECT(x >= 0.0f && x <= 1.0f, "rescale outside [0, 1]");
    for (float x : t.scores.data) FUZZ_EXPECT(!std::isnan(x) && x != INFINITY, "score NaN or +inf");
  }
  return 0;
}
