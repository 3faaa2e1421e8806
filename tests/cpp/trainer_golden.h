// What the two trainers' PyTorch golden tests (train_golden_test.cpp, seq2seq_golden_test.cpp) do
// alike: read a golden file, load a case's weights into a trainer, and compare the trainer's loss
// and gradients with autograd's and its Adam losses with torch's.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/trainable.h"

namespace trainer_golden {

using nlohmann::json;

constexpr double kRelTol = 1e-4;  // the loss, and each gradient tensor relative to its largest

// tests/golden/<file>, or null when it is missing or not JSON.
inline json read(const std::string& file) {
  std::ifstream in(std::string(ATTN_SOURCE_DIR) + "/tests/golden/" + file);
  return in ? json::parse(in, nullptr, false) : json();
}

// A tensor's entries, row after row (a matrix) or as they stand (a vector).
inline std::vector<float> flatten(const json& v) {
  std::vector<float> out;
  for (const json& row : v) {
    if (row.is_array()) {
      for (const json& x : row) out.push_back(x.get<float>());
    } else {
      out.push_back(row.get<float>());
    }
  }
  return out;
}

// The case's weights (one entry per tensor, by name) put into the trainer's model.
template <typename Trainer>
void load_weights(Trainer& t, const json& weights) {
  EXPECT_EQ(weights.size(), t.model().tensors().size());
  std::size_t count = 0;
  for (const attn::Tensor& tensor : t.model().tensors()) {
    std::vector<float> w = flatten(weights[tensor.name]);
    EXPECT_EQ(w.size(), tensor.size()) << tensor.name;
    std::copy(w.begin(), w.end(), t.model().parameters().begin() + tensor.offset);
    count += w.size();
  }
  EXPECT_EQ(count, t.model().parameters().size());
}

// The trainer's loss and gradients on `batch` against the case's (autograd's): the loss within
// kRelTol, each gradient entry within kRelTol of its tensor's largest. A tensor that `zero` names
// has a gradient of 0 in exact arithmetic: both sides must then be rounding noise below 1e-6.
template <typename Trainer, typename Batch>
void expect_autograd(Trainer& t, const Batch& batch, const json& c,
                     const std::function<bool(const std::string&)>& zero = nullptr) {
  const attn::ForwardStats f = t.gradients_on(batch);
  const double want = c["loss"].get<double>();
  EXPECT_NEAR(f.loss, want, kRelTol * std::fabs(want));
  const std::vector<float>& gradients = t.model().gradients();
  double worst = 0;
  for (const attn::Tensor& tensor : t.model().tensors()) {
    std::vector<float> g = flatten(c["gradients"][tensor.name]);
    ASSERT_EQ(g.size(), tensor.size()) << tensor.name;
    if (zero && zero(tensor.name)) {
      for (std::size_t i = 0; i < g.size(); i++) {
        EXPECT_LT(std::fabs(g[i]), 1e-6);
        EXPECT_LT(std::fabs(gradients[tensor.offset + i]), 1e-6);
      }
      continue;
    }
    double largest = 0;
    for (float x : g) largest = std::max(largest, static_cast<double>(std::fabs(x)));
    ASSERT_GT(largest, 0) << tensor.name;
    for (std::size_t i = 0; i < g.size(); i++) {
      const double got = gradients[tensor.offset + i];
      const double err = std::fabs(got - g[i]) / largest;
      worst = std::max(worst, err);
      ASSERT_LE(err, kRelTol) << tensor.name << "[" << i << "]: engine " << got << ", torch "
                              << g[i];
    }
  }
  std::printf("%s: loss %.8g (torch %.8g), worst gradient error %.3g of the tensor's largest\n",
              c["name"].get<std::string>().c_str(), f.loss, want, worst);
}

// The trainer's losses over 20 steps on `batch` against the case's (torch's optimiser).
template <typename Trainer, typename Batch>
void expect_adam_losses(Trainer& t, const Batch& batch, const json& c) {
  double worst = 0;
  for (std::size_t i = 0; i < c["adamLosses"].size(); i++) {
    const double want = c["adamLosses"][i].get<double>();
    const double got = t.step_on(batch).loss;
    worst = std::max(worst, std::fabs(got - want) / std::fabs(want));
    EXPECT_NEAR(got, want, kRelTol * std::fabs(want)) << "step " << i;
  }
  EXPECT_EQ(t.steps(), 20);
  std::printf("%s: 20 Adam losses, worst relative error %.3g\n",
              c["name"].get<std::string>().c_str(), worst);
}

}  // namespace trainer_golden
