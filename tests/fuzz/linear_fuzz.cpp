// linear(): y = x Wᵀ + b on shapes and numbers decoded from the fuzz input. After the check
// accepts, either linear_overflow refuses a y past float32, or y is finite and within float
// rounding of a double-precision reference.
#include <cmath>

#include "core/multihead.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  int n = in.side(), d_in = in.side(), d_out = in.side();
  Matrix x = in.matrix(n, d_in);
  Matrix w = in.matrix(d_out, in.near(d_in));
  Matrix b = in.flag() ? in.matrix(1, in.near(d_out)) : Matrix();
  if (!check_linear(x, w, b).empty()) return 0;
  Matrix y = linear(x, w, b);
  if (!linear_overflow("x", y).empty()) return 0;  // refused: past float32
  FUZZ_EXPECT(y.rows == n && y.cols == d_out, "linear shape");
  FUZZ_EXPECT(fuzz::all_finite(y), "linear output not finite");
  for (int i = 0; i < n; i++) {
    for (int o = 0; o < d_out; o++) {
      double ref = b.empty() ? 0.0 : b.data[o], size_sum = std::fabs(ref);
      for (int k = 0; k < d_in; k++) {
        double t = static_cast<double>(x.at(i, k)) * w.at(o, k);
        ref += t;
        size_sum += std::fabs(t);
      }
      // float32 error of a (d_in + 1)-term sum: (terms + 2) eps of the sum of sizes, plus
      // the subnormal floor
      double bound = (d_in + 3) * 6e-8 * size_sum + 1e-44 * (d_in + 1);
      FUZZ_EXPECT(std::fabs(y.at(i, o) - ref) <= bound,
                  fuzz::where("linear", i) + " column " + std::to_string(o) + ": " +
                      std::to_string(y.at(i, o)) + " vs " + std::to_string(ref));
    }
  }
  return 0;
}
