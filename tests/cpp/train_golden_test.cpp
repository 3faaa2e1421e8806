// The playground's transformer against PyTorch autograd (tests/golden/train.json, made by
// tests/golden/make_train_golden.py): the same weights and batch give the same loss and
// gradients, and the first 20 Adam steps the same losses.
#include <gtest/gtest.h>

#include <string>

#include "core/train.h"
#include "trainer_golden.h"

using nlohmann::json;
using namespace trainer_golden;

namespace {

const json& doc() {
  static const json d = read("train.json");
  return d;
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
  load_weights(t, c["weights"]);
  return t;
}

// Adding bk to every key adds q_i . bk to every score of row i, which the softmax ignores: its
// gradient is 0 in exact arithmetic.
bool is_key_bias(const std::string& tensor) {
  return tensor.size() > 2 && tensor.compare(tensor.size() - 2, 2, "bk") == 0;
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
    expect_autograd(t, b, c, is_key_bias);
  }
}

TEST(TrainGolden, TwentyAdamStepsMatchTorchOptimAdam) {
  for (const json& c : doc()["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    attn::Trainer t = loaded(c);
    expect_adam_losses(t, batch_of(c), c);
  }
}

}  // namespace
