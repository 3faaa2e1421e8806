// What the playground's two trainable models (the transformer, the RNN encoder–decoder) share:
// their parameters, named tensors laid out one after another in one flat float32 vector, which
// Adam updates, with their gradients in a second vector of the same layout; and what a forward
// pass reports.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/check.h"

namespace attn {

// A named part of the flat parameter vector: (rows, cols) floats from offset.
struct Tensor {
  std::string name;  // "embedding", "layers.0.Wq", "encoder.weight_ih_l0", ...
  int rows = 0;
  int cols = 0;
  std::size_t offset = 0;
  std::size_t size() const { return static_cast<std::size_t>(rows) * cols; }
};

// The tensor called `name`, or null if there is none.
const Tensor* find_tensor(const std::vector<Tensor>& tensors, const std::string& name);

// Loss and accuracy of one forward pass.
struct ForwardStats {
  double loss = 0;      // mean cross-entropy over the target positions (natural log)
  double accuracy = 0;  // share of target positions whose top logit is the target
  int targets = 0;
  // Not empty when the pass left float32 (a loss or probability that is NaN or infinite): the
  // Trainer's message naming the cause; then loss and accuracy mean nothing.
  Error error;
};
// The mean loss and accuracy of `targets` target positions from their sums.
ForwardStats forward_stats(double loss_sum, int correct, int targets);

// A model's tensors, their parameters and their gradients: the models derive from it, add their
// tensors in order (add_tensor) and then allocate().
class Parameters {
 public:
  const std::vector<Tensor>& tensors() const { return tensors_; }
  const Tensor* tensor(const std::string& name) const { return find_tensor(tensors_, name); }
  std::vector<float>& parameters() { return params_; }
  const std::vector<float>& parameters() const { return params_; }
  std::vector<float>& gradients() { return grads_; }
  const std::vector<float>& gradients() const { return grads_; }

 protected:
  // A tensor after the last one: its offset.
  std::size_t add_tensor(const std::string& name, int rows, int cols);
  // The floats of the layout so far.
  std::size_t layout_size() const;
  // The parameters and their gradients for the layout, all zero.
  void allocate();
  float* param(std::size_t offset) { return params_.data() + offset; }
  float* grad(std::size_t offset) { return grads_.data() + offset; }

  std::vector<Tensor> tensors_;
  std::vector<float> params_, grads_;
};

}  // namespace attn
