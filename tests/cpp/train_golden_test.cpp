// The playground's transformer against PyTorch autograd (tests/golden/train.json, made by
// tests/golden/make_train_golden.py): the same weights and batch give the same loss and
// gradients, and the first 20 Adam steps the same losses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/train.h"

using nlohmann::json;

namespace {

constexpr double kRelTol =
    1e-4;  // the loss, and each gradient tensor relative to its largest entry

const json& doc() {
  static json d = [] {
    std::ifstream in(std::string(ATTN_SOURCE_DIR) + "/tests/golden/train.json");
    return in ? json::parse(in, nullptr, false) : json();
  }();
  return d;
}

std::vector<float> flatten(const json& v) {
  std::vector<float> out;
  if (v.is_array() && !v.empty() && v[0].is_array()) {
    for (const json& row : v)
      for (const json& x : row) out.push_back(x.get<float>());
  } else {
    for (const json& x : v) out.push_back(x.get<float>());
  }
  return out;
}

attn::TrainConfig config_of(const json& c) {
  attn::TrainConfig t;
  EXPECT_TRUE(attn::kTaskOption.parse(c["task"].get<std::string>(), &t.task));
  EXPECT_TRUE(attn::kPositionOption.parse(c["position"].get<std::string>(), &t.position));
  t.layers = c["layers"];
  t.heads = c["heads"];
  t.d_model = c["dModel"];
  t.scale = c["scale"];
  t.learning_rate = c["learningRate"];
  return t;
}

attn::Batch batch_of(const json& c) {
  attn::Batch b;
  b.size = static_cast<int>(c["tokens"].size());
  b.length = static_cast<int>(c["tokens"][0].size());
  for (const json& row : c["tokens"])
    for (const json& x : row) b.tokens.push_back(x);
  for (const json& row : c["targets"])
    for (const json& x : row) b.targets.push_back(x);
  return b;
}

// A trainer whose model holds the case's weights.
attn::Trainer loaded(const json& c) {
  attn::TrainConfig config = config_of(c["config"]);
  EXPECT_EQ(attn::check_train_config(config), "");
  attn::Trainer t(config);
  std::size_t loaded_count = 0;
  for (const attn::Tensor& tensor : t.model().tensors()) {
    std::vector<float> w = flatten(c["weights"][tensor.name]);
    EXPECT_EQ(w.size(), tensor.size()) << tensor.name;
    std::copy(w.begin(), w.end(), t.model().parameters().begin() + tensor.offset);
    loaded_count += w.size();
  }
  EXPECT_EQ(loaded_count, t.model().parameters().size());
  return t;
}

TEST(TrainGolden, TheFileIsThere) {
  ASSERT_TRUE(doc().is_object());
  EXPECT_EQ(doc()["cases"].size(), 3u);
}

TEST(TrainGolden, LossAndGradientsMatchAutograd) {
  for (const json& c : doc()["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    attn::Trainer t = loaded(c);
    attn::Batch b = batch_of(c);
    ASSERT_EQ(attn::check_batch(b, t.model().config(), true), "");
    attn::ForwardStats f = t.gradients_on(b);
    const double want = c["loss"].get<double>();
    EXPECT_NEAR(f.loss, want, kRelTol * std::fabs(want));
    double worst = 0;
    for (const attn::Tensor& tensor : t.model().tensors()) {
      std::vector<float> g = flatten(c["gradients"][tensor.name]);
      ASSERT_EQ(g.size(), tensor.size()) << tensor.name;
      double largest = 0;
      for (float x : g) largest = std::max(largest, static_cast<double>(std::fabs(x)));
      // Adding bk to every key adds q_i . bk to every score of row i, which the softmax
      // ignores: its gradient is 0 in exact arithmetic, and both sides give rounding noise.
      if (tensor.name.size() > 2 && tensor.name.compare(tensor.name.size() - 2, 2, "bk") == 0) {
        for (std::size_t i = 0; i < g.size(); i++) {
          EXPECT_LT(std::fabs(g[i]), 1e-6);
          EXPECT_LT(std::fabs(t.model().gradients()[tensor.offset + i]), 1e-6);
        }
        continue;
      }
      ASSERT_GT(largest, 0) << tensor.name;
      for (std::size_t i = 0; i < g.size(); i++) {
        const double err = std::fabs(t.model().gradients()[tensor.offset + i] - g[i]) / largest;
        worst = std::max(worst, err);
        ASSERT_LE(err, kRelTol) << tensor.name << "[" << i << "]: engine "
                                << t.model().gradients()[tensor.offset + i] << ", torch " << g[i];
      }
    }
    std::printf("%s: loss %.8g (torch %.8g), worst gradient error %.3g of the tensor's largest\n",
                c["name"].get<std::string>().c_str(), f.loss, want, worst);
  }
}

TEST(TrainGolden, TwentyAdamStepsMatchTorchOptimAdam) {
  for (const json& c : doc()["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    attn::Trainer t = loaded(c);
    attn::Batch b = batch_of(c);
    double worst = 0;
    for (std::size_t i = 0; i < c["adamLosses"].size(); i++) {
      const double want = c["adamLosses"][i].get<double>();
      const double got = t.step_on(b).loss;
      worst = std::max(worst, std::fabs(got - want) / std::fabs(want));
      EXPECT_NEAR(got, want, kRelTol * std::fabs(want)) << "step " << i;
    }
    EXPECT_EQ(t.steps(), 20);
    std::printf("%s: 20 Adam losses, worst relative error %.3g\n",
                c["name"].get<std::string>().c_str(), worst);
  }
}

}  // namespace
