// linear_attention() (φ(x) = elu(x) + 1): shapes, causal, and numbers at float32's edges (every
// matrix may be scaled toward 3.4e+38) decoded from the fuzz input. The core's check runs first;
// when it accepts, finite input gives finite output of the right shape, the rows it lists as
// zero are zero, and every other output lies inside the range of its value column over the keys
// the query may see (the weights φ(q)·φ(k) / Σ are positive and sum to 1: a convex combination),
// within the rounding of float32 sums and the steps of its subnormals.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/linear_attention.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {
void maybe_scale(Input& in, Matrix& m) {
  static const float kScales[] = {1.0f, 1e3f, 1e9f, 1e17f, 1e19f, 1e30f, 1e37f, -1e2f, 1e-3f};
  float s = kScales[in.range(0, 8)];
  if (s == 1.0f) return;
  for (float& x : m.data) x *= s;
}
// φ(x) e^-m in double.
double shifted(float x, double m) { return x > 0 ? static_cast<double>(x) + 1 : std::exp(x - m); }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  LinearArgs a;
  const int n_q = in.side(), n_k = in.side(), d = in.side(), d_v = in.side();
  a.query = in.matrix(n_q, d);
  a.key = in.matrix(in.near(n_k), in.near(d));
  a.value = in.matrix(in.near(n_k), d_v);
  maybe_scale(in, a.query);
  maybe_scale(in, a.key);
  maybe_scale(in, a.value);
  a.causal = in.flag();
  if (!check_linear_attention(a).empty()) return 0;
  const LinearResult r = linear_attention(a);
  const int keys = a.key.rows;
  const double k_shift = std::min(0.0f, *std::max_element(a.key.data.begin(), a.key.data.end()));

  FUZZ_EXPECT(r.output.rows == n_q && r.output.cols == d_v, "output shape");
  FUZZ_EXPECT(fuzz::all_finite(r.output), "output not finite");
  FUZZ_EXPECT(std::is_sorted(r.zero_rows.begin(), r.zero_rows.end()), "zeroRows in order");
  for (int i = 0; i < n_q; i++) {
    const bool zero = std::binary_search(r.zero_rows.begin(), r.zero_rows.end(), i);
    const int last = a.causal ? std::min(i, keys - 1) : keys - 1;  // keys 0 .. last seen
    // in double, with the engine's shifts (which leave the output unchanged): z_f = Σ_j φ(k_j)_f
    // over the keys seen (an error of S_f is divided by it) and the denominator φ(q_i)ᵀ z
    const double q_shift = std::min(0.0f, *std::max_element(a.query.row(i), a.query.row(i) + d));
    double z_min = std::numeric_limits<double>::infinity(), den = 0;
    for (int f = 0; f < d; f++) {
      double z = 0;
      for (int j = 0; j <= last; j++) z += shifted(a.key.at(j, f), k_shift);
      z_min = std::min(z_min, z);
      den += shifted(a.query.at(i, f), q_shift) * z;
    }
    for (int c = 0; c < d_v; c++) {
      const double o = r.output.at(i, c);
      if (zero) {
        FUZZ_EXPECT(o == 0.0, fuzz::where("output", i) + " of a zero row is not 0");
        continue;
      }
      double lo = a.value.at(0, c), hi = lo, big = 0;
      for (int j = 0; j <= last; j++) {
        lo = std::min<double>(lo, a.value.at(j, c));
        hi = std::max<double>(hi, a.value.at(j, c));
        big = std::max<double>(big, std::fabs(a.value.at(j, c)));
      }
      // numerator and denominator each rounded over d + n_k terms, then divided; what falls
      // among float32's subnormals is only known to their smallest step: a term of S (then
      // divided by z), a product φ(q) S (divided by the denominator), the output itself
      const double tiny = static_cast<double>(std::numeric_limits<float>::denorm_min());
      const double slack = 2 * fuzz::sum_tolerance(keys + d) * big +
                           4.0 * (keys + d) * tiny * (1 / z_min + d / den) + 2 * tiny;
      FUZZ_EXPECT(o >= lo - slack && o <= hi + slack,
                  fuzz::where("output", i) + " column " + std::to_string(c) +
                      " outside the value range of the keys it sees");
    }
  }
  FUZZ_EXPECT(r.state_bytes == sizeof(float) * (static_cast<std::size_t>(d) * d_v + d),
              "stateBytes");
  return 0;
}
