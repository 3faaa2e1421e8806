// The position-wise feed-forward network (Linear -> relu or gelu -> Linear).
#include "core/feed_forward.h"

#include <cmath>

#include "core/multihead.h"

namespace attn {

void activate(Matrix& m, Activation activation) {
  if (activation == Activation::Relu) {
    for (float& v : m.data) v = v > 0.0f ? v : 0.0f;
    return;
  }
  // the exact gelu, in double so erf's last bits do not depend on the platform's erff
  for (float& v : m.data) {
    const double x = v;
    v = static_cast<float>(0.5 * x * (1.0 + std::erf(x * 0.70710678118654752440)));
  }
}

FeedForwardResult feed_forward(const FeedForwardArgs& a) {
  FeedForwardResult r;
  Matrix pre = linear(a.x, a.w1, a.b1);  // pre: (n, d_ff)
  r.error = linear_overflow("W1", pre);
  if (!r.error.empty()) return r;
  activate(pre, a.activation);
  r.hidden = std::move(pre);                // hidden: (n, d_ff)
  r.output = linear(r.hidden, a.w2, a.b2);  // output: (n, d_model)
  r.error = linear_overflow("W2", r.output);
  if (!r.error.empty()) r.hidden = r.output = Matrix();
  return r;
}

Error check_feed_forward_weights(const std::string& prefix, const FeedForwardArgs& a, int d_model) {
  Error e = check_matrix((prefix + "W1").c_str(), a.w1);
  if (!e.empty()) return e;
  const int d_ff = a.w1.rows;
  e = check_weight(prefix + "W1", a.w1, d_ff, d_model, "(hidden, d_model)");
  if (e.empty() && given(a.b1)) e = check_weight(prefix + "b1", a.b1, 1, d_ff, "(1, hidden)");
  if (e.empty()) e = check_weight(prefix + "W2", a.w2, d_model, d_ff, "(d_model, hidden)");
  if (e.empty() && given(a.b2)) e = check_weight(prefix + "b2", a.b2, 1, d_model, "(1, d_model)");
  if (e.empty()) e = kActivationOption.check(a.activation);
  return e;
}

Error check_feed_forward(const FeedForwardArgs& a) {
  Error e = check_matrix("x", a.x);
  return e.empty() ? check_feed_forward_weights("", a, a.x.cols) : e;
}

}  // namespace attn
