// What the two trainable models share (see trainable.h).
#include "core/trainable.h"

namespace attn {

ForwardStats forward_stats(double loss_sum, int correct, int targets) {
  ForwardStats s;
  s.targets = targets;
  if (targets > 0) {
    s.loss = loss_sum / targets;
    s.accuracy = static_cast<double>(correct) / targets;
  }
  return s;
}

const Tensor* find_tensor(const std::vector<Tensor>& tensors, const std::string& name) {
  for (const Tensor& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

std::size_t Parameters::add_tensor(const std::string& name, int rows, int cols) {
  tensors_.push_back({name, rows, cols, layout_size()});
  return tensors_.back().offset;
}

std::size_t Parameters::layout_size() const {
  return tensors_.empty() ? 0 : tensors_.back().offset + tensors_.back().size();
}

void Parameters::allocate() {
  params_.assign(layout_size(), 0.0f);
  grads_.assign(layout_size(), 0.0f);
}

}  // namespace attn
