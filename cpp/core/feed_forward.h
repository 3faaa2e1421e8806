// The position-wise feed-forward network of a Transformer layer (torch's linear2(act(linear1(x)))):
//     hidden = act(x W1ᵀ + b1)      output = hidden W2ᵀ + b2
// act is relu or the exact gelu 0.5 x (1 + erf(x / sqrt(2))) (torch's F.gelu default).
#pragma once

#include <string>

#include "core/check.h"
#include "core/matrix.h"

namespace attn {

struct FeedForwardArgs {
  Matrix x;       // (n, d_model)
  Matrix w1, b1;  // (d_ff, d_model), (1, d_ff) or empty
  Matrix w2, b2;  // (d_model, d_ff), (1, d_model) or empty
  Activation activation = Activation::Relu;
};

struct FeedForwardResult {
  Matrix hidden;  // (n, d_ff) after the activation
  Matrix output;  // (n, d_model)
  Error error;    // not empty when a product would leave float32
};

// The weights with their names in messages prefixed by `prefix` (e.g. "ff." gives "ff.W1").
Error check_feed_forward_weights(const std::string& prefix, const FeedForwardArgs& a, int d_model);
Error check_feed_forward(const FeedForwardArgs& a);
FeedForwardResult feed_forward(const FeedForwardArgs& a);

// The activation, in place, on every entry.
void activate(Matrix& m, Activation activation);

}  // namespace attn
