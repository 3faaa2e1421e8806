// Positional encodings: sinusoidal_encoding and rope on sizes, bases, positions and numbers
// decoded from the fuzz input. After the check accepts: sinusoidal values lie in [-1, 1];
// RoPE's output is finite and each rotated pair keeps its length (a rotation).
#include <cmath>

#include "core/positional.h"
#include "fuzz_input.h"

using namespace attn;
using attn::fuzz::Input;

namespace {

int sinusoidal_case(Input& in) {
  int n = in.range(0, fuzz::kMaxSide + 1), d = in.range(0, fuzz::kMaxSide + 1);
  float base = in.flag() ? 10000.0f : in.positive();
  if (!check_sinusoidal(n, d, base).empty()) return 0;
  Matrix pe = sinusoidal_encoding(n, d, base);
  FUZZ_EXPECT(pe.rows == n && pe.cols == d, "sinusoidal shape");
  for (float x : pe.data)
    FUZZ_EXPECT(x >= -1.0f && x <= 1.0f, "sinusoidal value " + std::to_string(x));
  return 0;
}

int rope_case(Input& in) {
  int n = in.side(), d = in.side();
  Matrix x = in.matrix(n, d);
  int first = in.flag() ? in.range(0, 8) : in.range(-1, 1000001);
  float base = in.flag() ? 10000.0f : in.positive();
  if (!check_rope(x, first, base).empty()) return 0;
  Matrix y = rope(x, first, base);
  FUZZ_EXPECT(y.rows == n && y.cols == d, "rope shape");
  FUZZ_EXPECT(fuzz::all_finite(y), "rope output not finite");
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < d; c += 2) {
      double before = std::hypot(static_cast<double>(x.at(r, c)), x.at(r, c + 1));
      double after = std::hypot(static_cast<double>(y.at(r, c)), y.at(r, c + 1));
      // float rounding of the cosine, sine and the two products: a few ulps of the length,
      // plus the subnormal floor when the entries are tiny
      FUZZ_EXPECT(std::fabs(after - before) <= 1e-6 * before + 1e-44,
                  fuzz::where("rope", r) + " pair " + std::to_string(c / 2) + " changed length " +
                      std::to_string(before) + " -> " + std::to_string(after));
    }
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  return in.flag() ? sinusoidal_case(in) : rope_case(in);
}
